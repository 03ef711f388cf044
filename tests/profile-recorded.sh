#!/bin/sh
# --latency syscall and --latency wakeup against trace-cmd report
# --profile on a trace.dat recorded during the test (its content is
# unknown, so report's lines are the only oracle): sched_switch,
# sched_wakeup, raw_syscalls:* and syscalls:* while a small shell loop
# runs.  For each figure both rules are applied to report's lines
# (tests/profile-lib.sh): the profile's figures must be its rule's,
# tview's the other's, and the difference is printed.
#  - System calls: the profile pairs an exit only with an entry of the
#    same number; each call is recorded twice (raw sys_enter and
#    sys_enter_NAME), and neither may count it twice.
#  - Wake-ups: tview also times a thread's first wake-ups (its state
#    unknown), and ends one at the first record of the thread on a CPU
#    where the trace lacks the switch to it.
# Skips unless root, with tracefs, trace-cmd and the recorder
# (tools/record-ftrace-trace.sh of ../shared), and when the recording
# lost events.

TV_TEST_NAME=profile-recorded
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
. "$top_srcdir/tests/profile-lib.sh"
record=${TVIEW_SHARED:+$TVIEW_SHARED/tools/record-ftrace-trace.sh}
[ -n "$record" ] && [ -f "$record" ] ||
	{ echo "SKIP: no recorder (../shared/tools is not beside the tree)"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: recording needs root"; exit 77; }
command -v trace-cmd >/dev/null 2>&1 ||
	{ echo "SKIP: trace-cmd is not installed"; exit 77; }
[ -d /sys/kernel/tracing ] || [ -d /sys/kernel/debug/tracing ] ||
	{ echo "SKIP: no tracefs"; exit 77; }

f=$tmp/rec.dat
# a sleeper whose name holds a space, as report prints "tmux: server"
ln -s "$(command -v sleep)" "$tmp/a sleeper"
# One kernel recording at a time (the lock tc-report takes too).
if ! flock -o "${TMPDIR:-/tmp}/tview-ftrace-record.lock" bash "$record" \
    --events "sched:sched_switch sched:sched_wakeup raw_syscalls syscalls" \
    --buffer-kb 4096 "$f" -- sh -c 'for i in $(seq 1 20); do
	ls / >/dev/null; cat /etc/hostname >/dev/null; "$0" 0.001
	done; sleep 0.1' "$tmp/a sleeper" >"$tmp/rec.log" 2>&1; then
	echo "SKIP: the recording failed: $(tail -1 "$tmp/rec.log")"
	exit 77
fi
report -i "$f" >"$tmp/report"
# the profile forgets its open pairs where events were lost; the rules
# here do not follow it there (a machine too busy for the buffers)
if grep -q 'LOST\|DROPPED' "$tmp/report"; then
	echo "SKIP: the recording lost events: $(grep -m1 'LOST\|DROPPED' \
	    "$tmp/report")"
	exit 77
fi
nraw=$(grep -c ' sys_enter: ' "$tmp/report")
nnamed=$(grep -c ' sys_enter_[a-z0-9_]*: ' "$tmp/report")
ok "the recording has raw system call entries ($nraw)" test "$nraw" -gt 0
echo "# $nraw raw_syscalls entries, $nnamed syscalls:* entries"
ok "the recording has a sleeper with a space in its name" \
    grep -q 'sched_wakeup: *a sleeper:' "$tmp/report"

report --profile -i "$f" >"$tmp/profile"
syscall_check recording "$f"
# shellcheck disable=SC2046 # numbers, split on purpose
set -- $(tview_latency syscall "$f")
ok "each call counted once: $1 calls, at most the $nraw raw entries" \
    test "${1:-0}" -le "$nraw"

# shellcheck disable=SC2046 # numbers, split on purpose
set -- $(wakeup_facts "$f") $(profile_rows sched_wakeup <"$tmp/profile") \
    $(tview_latency wakeup "$f")
ok "profile: $5 wake-ups, $6 ns: report's lines by its rule ($3, $4)" \
    test "$5 $6" = "$3 $4"
ok "tview: $7 wake-ups, $8 ns: report's lines by tview's rule ($1, $2)" \
    same_as "$7" "$8" "$1" "$2"
ok "the recording has wake-ups ($7)" test "${7:-0}" -gt 0
echo "# wake-ups: tview $1 ($2 ns), profile $3 ($4 ns)"
ok "nothing on stderr" test ! -s "$tmp/err"
tv_test_done
