#!/bin/sh
# The browser gives the trace's pages back behind its passes: once the
# background pass of a 128 MiB trace has ended, and again after a search
# that reads the whole trace and finds nothing, tview's file-backed
# resident size (RssFile and RssShmem) is under a quarter of the
# trace's size.  Before, the pass left every page of the trace mapped.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
test -r /proc/self/status || { echo "skip: no /proc"; exit 77; }

gen_trace "$tmp/trace" --size 128M
size_kib=$(du -sk "$tmp/trace" | cut -f1)
# file_kib PID: its file-backed resident KiB now
file_kib() {
	awk '/^Rss(File|Shmem):/ { n += $2 } END { print n + 0 }' \
	    "/proc/$1/status"
}
TVIEW_CACHE=off
export TVIEW_CACHE
ui_start -x 120 "$tmp/trace"
ok "the first screen shows" ui_wait "event 1 of"
pid=$(ui_pid)
ok "the background pass ends" ui_wait_gone "indexing" 120
kib=$(file_kib "$pid")
ok "after the pass: $kib KiB of file pages (trace: $size_kib KiB)" \
    test "$kib" -lt $((size_kib / 4))
ui_keys /
ui_type 'no such row here'
ui_keys Enter
ok "the search reads the whole trace and finds nothing" \
    ui_wait "not found" 120
kib=$(file_kib "$pid")
ok "after the search: $kib KiB of file pages" \
    test "$kib" -lt $((size_kib / 4))
ui_stop
done_tests
