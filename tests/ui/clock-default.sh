#!/bin/sh
# Each format's times start as its reference reader prints them: a
# trace.dat recorded with a boot/local clock in seconds, as trace-cmd
# report prints them (896.504231 in report is 896.504231 here), in the
# status bar and the fields too; CTF as babeltrace2's time of day;
# --time-format still wins.  c cycles through every style from seconds.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 300 --seed 5
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
wall=$(dump_time "$(dump_line 1 "$tmp/dump")")
ui_start "$tmp/trace"
ok "CTF: babeltrace2's time of day" ui_wait_sel "$wall"
ok "quits" ui_quit

dat=$TVIEW_SHARED/traces/ftrace/labsisop-function-sched_batch/sched_batch_trace.dat
rep=$TVIEW_SHARED/traces/oracles/ftrace/labsisop-function-sched_batch.trace-cmd-report.txt.gz
if [ -f "$dat" ] && [ -f "$rep" ]; then
	t1=$(gzip -dc "$rep" | sed -n 2p | sed -n 's/.*\] *\([0-9.]*\):.*/\1/p')
	echo "# report's first time: $t1"
	ui_start -x 100 -y 30 "$dat"
	ok "trace.dat (local clock): report's seconds $t1" ui_wait_sel "$t1"
	ok "... in the status bar" ui_poll sh -c "tmux -L '$sock' capture-pane -p -t 0 |
	    tail -n 2 | grep -q ' $t1'"
	ui_keys c
	ok "c: relative" ui_wait_sel ">+0.000000 "
	ui_keys c
	ok "c: raw clock" ui_wait "time: raw clock"
	ui_keys c
	ok "c: seconds again" ui_wait "time: seconds"
	ok "... $t1" ui_wait_sel "$t1"
	ok "quits" ui_quit
	ui_start -x 100 -y 30 --time-format utc "$dat"
	ok "--time-format=utc wins: 00:14:56" ui_wait_sel "00:14:56.504231"
	ok "quits" ui_quit
else
	echo "# skip the trace.dat part: no shared ftrace sample"
fi
done_tests
