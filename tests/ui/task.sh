#!/bin/sh
# The Task column: comm-tid, and the process in parentheses when the
# thread is not its leader, from the same owner --with-pid prints; the
# search matches it.  On a generated CTF trace (a thread of another
# process), and on a real trace.dat where trace-cmd report names
# sh-79 then thread_runner-99 (skipped without ../shared).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 3000 --seed 15
"$TVIEW" --dump --with-pid "$tmp/trace" >"$tmp/owned" 2>/dev/null ||
    { echo "FAIL: --dump --with-pid"; exit 1; }
# The first line owned by a thread that is not its process's leader.
# shellcheck disable=SC2046  # the fields split on purpose
set -- $(awk -F '\t' '$1 != "-" && $2 != "-" && $1 != $2 {
	print NR, $1, $2, $3; exit }' "$tmp/owned")
test $# -eq 4 || { echo "FAIL: fixture has no non-leader thread"; exit 1; }
line=$1 pid=$2 tid=$3 comm=$4
t=$(dump_time "$(sed -n "${line}p" "$tmp/owned" | cut -f4)")
echo "# line $line: $comm-$tid of process $pid at $t"

ui_start -x 140 -y 30 "$tmp/trace"
ok "the column title" ui_wait "Task"
ui_type ":goto #$line"; ui_keys Enter
ok "line $line selected" ui_wait_sel "$t"
ok "its task: $comm-$tid ($pid)" ui_wait_sel "$comm-$tid ($pid)"
# the first line --with-pid names nobody shows '-'
nl=$(awk -F '\t' '$2 == "-" { print NR; exit }' "$tmp/owned")
if [ -n "$nl" ]; then
	nt=$(dump_time "$(sed -n "${nl}p" "$tmp/owned" | cut -f4)")
	ui_type ":goto #$nl"; ui_keys Enter
	ok "line $nl, owner unknown: -" ui_wait_sel "$nt"
	ok "... shown as -" sh -c "tmux -L '$sock' capture-pane -p -t 0 |
	    grep -m1 '^>' | grep -q '^>[^ ]*  *[0-9-]*  -  '"
fi
# search by task: the first line of thread $tid after the top
first=$(awk -F '\t' -v t="$tid" '$2 == t { print NR; exit }' "$tmp/owned")
ft=$(dump_time "$(sed -n "${first}p" "$tmp/owned" | cut -f4)")
ui_keys g
ui_keys /; ui_wait "/" >/dev/null
ui_type "$comm-$tid"; ui_keys Enter
ok "/$comm-$tid: its first line ($first)" ui_wait_sel "$ft"
ok "quits" ui_quit

dat=$TVIEW_SHARED/traces/ftrace/labsisop-function-sched_batch/sched_batch_trace.dat
if [ -f "$dat" ]; then
	ui_start -x 120 -y 20 "$dat"
	ok "trace.dat: first row sh-79, as report" ui_wait_sel "sh-79"
	ok "... then thread_runner-99" ui_wait "thread_runner-99"
	ui_keys /; ui_wait "/" >/dev/null
	ui_type "thread_runner"; ui_keys Enter
	ok "trace.dat: /thread_runner finds event 2" ui_wait "event 2 of"
	ok "... on thread_runner-99" ui_wait_sel "thread_runner-99"
	ok "quits" ui_quit
else
	echo "# skip the trace.dat part: no $dat"
fi
done_tests
