#!/bin/sh
# The batch passes that walk a whole CTF trace beside the process state
# (--stats, --latency, --processes, --timeline) give the trace's pages
# back as they go, as --dump does.  Held at the end of the command
# (TVIEW_TEST_SLOW_EXIT), the trace still mapped, tview holds under a
# quarter of the trace's size in file pages; before, each kept every
# page it had read (a 1 GiB trace: 1.1 GB resident).  The peak during
# the pass is printed, not judged: the pages go back in batches of
# 4 MiB of a file per thread, so it depends on how evenly the threads
# run (14-91 MiB of this 128 MiB trace with the machine kept busy).
# What the passes print is checked against the truth by
# stats-truth.sh, state-cli.sh and timeline-truth.sh, which run them.

TV_TEST_NAME=ctf-rss
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
test -r /proc/self/status || { echo "skip: no /proc"; exit 77; }
TVIEW_CACHE=off		# --processes and --timeline walk, every time
TVIEW_TEST_SLOW_EXIT=1500
export TVIEW_CACHE TVIEW_TEST_SLOW_EXIT

"$GEN_CTF" --quiet --size 128M "$tmp/t" || exit 99
size_kib=$(du -sk "$tmp/t" | cut -f1)
total=$(TVIEW_TEST_SLOW_EXIT=0 "$TVIEW" --count "$tmp/t")

peak_file "$TVIEW" --stats "$tmp/t"
ok "--stats exits 0" test $? -eq 0 -a ! -s "$tmp/err"
ok "--stats counts the $total events ($(head -n 1 "$tmp/out"))" \
    test "$(head -n 1 "$tmp/out")" = "events $total"
ok "--stats: $last KiB of file pages at its end (peak $peak KiB;"`
    `" the trace: $size_kib KiB)" test "$last" -lt $((size_kib / 4))

peak_file "$TVIEW" --latency=syscall "$tmp/t"
ok "--latency=syscall prints system calls" \
    grep -q '^syscall  *[1-9]' "$tmp/out"
ok "--latency: $last KiB at its end (peak $peak KiB)" \
    test "$last" -lt $((size_kib / 4))

peak_file "$TVIEW" --processes "$tmp/t"
ok "--processes exits 0 and prints swapper/0" \
    grep -q ' swapper/0 ' "$tmp/out"
ok "--processes: $last KiB at its end (peak $peak KiB)" \
    test "$last" -lt $((size_kib / 4))

peak_file "$TVIEW" --timeline "$tmp/t"
ok "--timeline prints a row per CPU" \
    test "$(grep -c '| cpu [0-3]$' "$tmp/out")" -eq 4
ok "--timeline: $last KiB at its end (peak $peak KiB)" \
    test "$last" -lt $((size_kib / 4))
tv_test_done
