#!/bin/sh
# The batch passes that walk a whole CTF trace beside the process state
# (--stats, --latency, --processes, --timeline) give the trace's pages
# back as they go, as --dump does: the file-backed resident size stays
# far under the trace's size.  Before, each kept every page it had read
# mapped (a 1 GiB trace: 1.1 GB resident).  What they print is checked
# against the truth by stats-truth.sh, state-cli.sh and
# timeline-truth.sh, which run these same passes.

TV_TEST_NAME=ctf-rss
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
test -r /proc/self/status || { echo "skip: no /proc"; exit 77; }
TVIEW_CACHE=off		# --processes and --timeline walk, every time
export TVIEW_CACHE

"$GEN_CTF" --quiet --size 128M "$tmp/t" || exit 99
size_kib=$(du -sk "$tmp/t" | cut -f1)
total=$("$TVIEW" --count "$tmp/t")

peak_file "$TVIEW" --stats "$tmp/t"
ok "--stats exits 0" test $? -eq 0 -a ! -s "$tmp/err"
ok "--stats counts the $total events ($(head -n 1 "$tmp/out"))" \
    test "$(head -n 1 "$tmp/out")" = "events $total"
ok "--stats: file pages at most $peak KiB of the trace's $size_kib KiB" \
    test "$peak" -lt $((size_kib / 4))

peak_file "$TVIEW" --latency=syscall "$tmp/t"
ok "--latency=syscall prints system calls" \
    grep -q '^syscall  *[1-9]' "$tmp/out"
ok "--latency: file pages at most $peak KiB" \
    test "$peak" -lt $((size_kib / 4))

peak_file "$TVIEW" --processes "$tmp/t"
ok "--processes exits 0 and prints swapper/0" \
    grep -q ' swapper/0 ' "$tmp/out"
ok "--processes: file pages at most $peak KiB" \
    test "$peak" -lt $((size_kib / 4))

peak_file "$TVIEW" --timeline "$tmp/t"
ok "--timeline prints a row per CPU" \
    test "$(grep -c '| cpu [0-3]$' "$tmp/out")" -eq 4
ok "--timeline: file pages at most $peak KiB" \
    test "$peak" -lt $((size_kib / 4))
tv_test_done
