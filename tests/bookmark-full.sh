#!/bin/sh
# Bookmarks on a full disk, a real one: a 512 KiB tmpfs filled up, in a
# private mount namespace (unshare -m as root, else unshare -rm; skips
# when neither works).
#  1. The trace's file system is full: the save goes to $XDG_DATA_HOME
#     as for a read-only directory, the browser says where, and the copy
#     is what the next tview and --bookmarks read.
#  2. $XDG_DATA_HOME is full too: "bookmarks not saved"; q asks before
#     losing them, n keeps the browser open, and once there is room again
#     q saves them and quits; y quits without them, saying so on stderr.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"

if [ -z "${TV_FULL_NS:-}" ]; then
	TV_FULL_NS=1
	export TV_FULL_NS
	if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
		exec unshare -m sh "$0" "$@"
	elif unshare -rm true 2>/dev/null; then
		exec unshare -rm sh "$0" "$@"
	fi
	echo "skip: cannot make a private mount namespace (unshare)"
	exit 77
fi

. "$top_srcdir/tests/ui/lib.sh"

mkdir "$tmp/full" "$tmp/xdg"
mount -t tmpfs -o size=512k tmpfs "$tmp/full" 2>/dev/null ||
	{ echo "skip: cannot mount a tmpfs"; exit 77; }
trap 'for _s in $socks; do tmux -L "$_s" kill-server >/dev/null 2>&1; done
umount "$tmp/full" 2>/dev/null; rm -rf "$tmp"' EXIT
gen_trace "$tmp/full/a" --cpus 1 --events 300 --seed 3
gen_trace "$tmp/full/b" --cpus 1 --events 300 --seed 4
mkdir "$tmp/full/xdg"
# fill the file system to the last block
dd if=/dev/zero of="$tmp/full/filler" bs=4096 2>/dev/null
dd if=/dev/zero of="$tmp/full/filler2" bs=1 2>/dev/null
ok "the file system is full" sh -c "! echo x >'$tmp/full/probe' 2>/dev/null"

# 1. Trace on the full disk, XDG_DATA_HOME elsewhere.
ui_start "XDG_DATA_HOME=$tmp/xdg" "$tmp/full/a"
ok "started" ui_wait "Event"
ui_keys m; ui_wait "bookmark name:" >/dev/null
ui_type "onfull"; ui_keys Enter; ui_wait "bookmark text:" >/dev/null
ui_type "kept"; ui_keys Enter
ok "saved elsewhere, and where" \
    ui_wait "cannot write beside the trace: bookmarks saved in $tmp/xdg/tview/"
ok "the status bar shows the place" ui_wait "1 bookmark (in \$XDG_DATA_HOME)"
ok "q quits at once" ui_quit
ok "nothing written beside the trace" test ! -e "$tmp/full/a/info/bookmarks.xml"
XDG_DATA_HOME=$tmp/xdg "$TVIEW" --bookmarks "$tmp/full/a" >"$tmp/out" \
    2>"$tmp/err"
ok "--bookmarks reads the copy" grep -q "	onfull	kept$" "$tmp/out"
ok "and says where it is" grep -qF "bookmarks are kept in $tmp/xdg/tview/" \
    "$tmp/err"
# with room again beside the trace, the copy is still the one used
rm -f "$tmp/full/filler2"
XDG_DATA_HOME=$tmp/xdg "$TVIEW" --bookmarks "$tmp/full/a" >"$tmp/out" \
    2>/dev/null
ok "the copy wins when the disk has room again" grep -q "	onfull	" \
    "$tmp/out"
dd if=/dev/zero of="$tmp/full/filler2" bs=1 2>/dev/null

# 2. Nowhere to write.
ui_start "XDG_DATA_HOME=$tmp/full/xdg" "$tmp/full/b"
ok "started again" ui_wait "Event"
ui_keys m; ui_wait "bookmark name:" >/dev/null
ui_type "nowhere"; ui_keys Enter; ui_wait "bookmark text:" >/dev/null
ui_keys Enter
ok "says it is not saved" ui_wait "bookmarks not saved"
ui_keys q
ok "q asks first" ui_wait "quit and lose unsaved bookmarks? (y/n)"
ui_keys n
ok "n keeps the browser" ui_wait "bookmarks kept in memory"
ok "still running" sh -c "! tmux -L $sock capture-pane -p -t 0 | grep -q TVIEW-EXIT"
rm -f "$tmp/full/filler" "$tmp/full/filler2"
ok "with room again, q saves and quits" ui_quit
XDG_DATA_HOME=$tmp/full/xdg "$TVIEW" --bookmarks "$tmp/full/b" >"$tmp/out" \
    2>/dev/null
ok "the bookmark is there" grep -q "	nowhere	" "$tmp/out"

# y: quit without them, and say so.
dd if=/dev/zero of="$tmp/full/filler" bs=4096 2>/dev/null
dd if=/dev/zero of="$tmp/full/filler2" bs=1 2>/dev/null
ui_start "XDG_DATA_HOME=$tmp/full/xdg" "$tmp/full/b"
ok "started a third time" ui_wait "Event"
ui_keys G
ui_keys m; ui_wait "bookmark name:" >/dev/null
ui_type "lost"; ui_keys Enter; ui_wait "bookmark text:" >/dev/null
ui_keys Enter
ok "not saved again" ui_wait "bookmarks not saved"
ui_keys q
ok "asked again" ui_wait "quit and lose unsaved bookmarks? (y/n)"
ui_keys y
ok "y quits" ui_wait "TVIEW-EXIT:"
ok "stderr says they were not saved" grep -q "bookmarks not saved" \
    "$tmp/stderr"
done_tests
