#!/bin/sh
# --latency syscall and wakeup on a trace that lacks context switches
# (tests/unswitched-ctf.sh): a system call belongs to the thread whose
# records enter and leave it, even when the record that enters it (or
# leaves it) is the first that shows that thread on its CPU: 200's
# write (5 us) and 100's read (7 us) count; a wake-up is timed once,
# though its thread comes back to its CPU after records of another.

TV_TEST_NAME=latency-owner
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
. "$top_srcdir/tests/unswitched-ctf.sh"
t=$tmp/trace
unswitched_ctf "$t"

"$TVIEW" --latency syscall "$t" >"$tmp/out" 2>"$tmp/err"
ok "tview --latency syscall exits 0" test $? -eq 0
ok "nothing on stderr" test ! -s "$tmp/err"
# row NAME: "COUNT MIN MAX" of a series
row() { awk -v n="$1" '$1 == n { print $2, $3, $7; exit }' "$tmp/out"; }
ok "three system calls, 0.5 to 7 us ($(row syscall))" \
    test "$(row syscall)" = "3 0.500 7.000"
ok "read: 100's, 7 us, its exit after no switch ($(row read))" \
    test "$(row read)" = "1 7.000 7.000"
ok "write: 200's 5 us (entered after no switch) and 0.5 us ($(row write))" \
    test "$(row write)" = "2 0.500 5.000"
ok "the longest are 100's read and 200's write" \
    test "$(awk '$1 ~ /^00:/ { printf "%s %s;", $2, $3 }' "$tmp/out")" = \
    "7.000 100;5.000 200;0.500 100;"
cat "$tmp/out"

"$TVIEW" --latency wakeup "$t" >"$tmp/out" 2>"$tmp/err"
ok "one wake-up of 1 us, timed once ($(row wakeup))" \
    test "$(row wakeup)" = "1 1.000 1.000"
tv_test_done
