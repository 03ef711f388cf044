#!/bin/sh
# A trace whose directory is not writable keeps its bookmarks under
# $XDG_DATA_HOME/tview/, named after its absolute path, and says so: on
# the browser's message line at start and after the first save, in the
# status bar, and on stderr for --bookmarks.  The trace is left untouched.
# As a user whom permissions do not stop (root), tview runs as nobody
# from a copy in the test directory; where nobody cannot run it, a skip.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=ui/lib.sh
. "$(dirname "$0")/ui/lib.sh"

as=
tv=$TVIEW
chmod 755 "$tmp"
mkdir "$tmp/probe"
chmod a-w "$tmp/probe"
if touch "$tmp/probe/x" 2>/dev/null; then
	# permissions do not stop this user (root): run tview as nobody, from
	# a copy in $tmp, so the build tree's own permissions do not matter
	command -v setpriv >/dev/null 2>&1 || { echo "skip: root without setpriv"; exit 77; }
	as="setpriv --reuid=65534 --regid=65534 --clear-groups"
	mkdir "$tmp/bin"
	cp "$TVIEW" "$tmp/bin/tview"
	chmod 755 "$tmp/bin" "$tmp/bin/tview"
	tv=$tmp/bin/tview
	if ! $as "$tv" --version >/dev/null 2>&1; then
		echo "skip: cannot run tview as nobody here ($(
		    $as true 2>&1 | head -1))"
		exit 77
	fi
fi
chmod u+w "$tmp/probe"
gen_trace "$tmp/trace" --cpus 2 --events 1000 --seed 4
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
t=$(dump_time "$(dump_line 10 "$tmp/dump")")
mkdir "$tmp/xdg"
chmod 777 "$tmp/xdg"
chmod -R a-w "$tmp/trace"
chmod -R a+rX "$tmp/trace"
before=$(ls -laR "$tmp/trace" | md5sum)
abs=$(cd "$tmp/trace" && pwd -P)
key=$(printf '%s' "$abs" | sed 's|/|%2F|g')
want=$tmp/xdg/tview/$key.bookmarks.xml

# ui_start runs $TVIEW itself: start this one (maybe as nobody) by hand
starts=$((starts + 1))
sock=tvro$$-$starts
socks="$socks $sock"
# wide enough for the whole message however long $TMPDIR is
tmux -L "$sock" -f /dev/null new-session -d -x 250 -y 30 \
    "XDG_DATA_HOME='$tmp/xdg' $as '$tv' '$tmp/trace' 2>'$tmp/stderr'; echo TVIEW-EXIT:\$?; sleep 600"
ok "started" ui_wait "Event"
ok "says where at start" ui_wait "the trace's directory is not writable: bookmarks saved in $tmp/xdg/tview/"
ui_type ":goto #10"; ui_keys Enter
ok "on event 10" ui_wait_sel "$t"
ui_keys m; ui_wait "bookmark name:" >/dev/null
ui_type "ro"; ui_keys Enter; ui_wait "bookmark text:" >/dev/null
ui_keys Enter
ok "saved, and where" ui_wait "bookmarks saved in $tmp/xdg/tview/"
ok "the status bar shows the place" ui_wait "1 bookmark (in \$XDG_DATA_HOME)"
ok "quit" ui_quit
ok "the file is under XDG_DATA_HOME, keyed by the absolute path" \
    test -s "$want"
ok "the trace is untouched" test "$(ls -laR "$tmp/trace" | md5sum)" = "$before"
XDG_DATA_HOME=$tmp/xdg $as "$tv" --bookmarks "$tmp/trace" >"$tmp/out" \
    2>"$tmp/err"
ok "--bookmarks finds it" grep -q "	ro	" "$tmp/out"
ok "--bookmarks says where" grep -qF "bookmarks are kept in $want" "$tmp/err"
chmod -R u+w "$tmp/trace"
done_tests
