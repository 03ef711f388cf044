#!/bin/sh
# Times to the microsecond for trace.dat, as trace-cmd report prints them
# (rounded: report's 896.505711 is 896.505710888), to the nanosecond for
# CTF as babeltrace2; '.' switches between the two, and the config file's
# time-precision remembers a choice.  Oracle: trace-cmd report and
# report -t (nanoseconds) on a shared sample, through tests/tc-report;
# skips without ../shared or trace-cmd.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# rows: the times of the event rows on screen, one a line.
rows() {
	ui_screen | sed -n 's/^[ >]\([0-9][0-9.:]*\) .*/\1/p'
}

# same_rows ORACLE: the rows on screen are the first lines of ORACLE.
same_rows() {
	rows >"$tmp/rows"
	test -s "$tmp/rows" || return 1
	head -n "$(wc -l <"$tmp/rows")" "$1" | cmp -s - "$tmp/rows"
}

# CTF: nanoseconds, as babeltrace2.
gen_trace "$tmp/trace" --cpus 2 --events 300 --seed 5
ui_start -x 100 -y 30 "$tmp/trace"
ok "CTF: opened" ui_wait "event 1 of"
ok "CTF: to the nanosecond, as babeltrace2" sh -c "tmux -L '$sock' \
    capture-pane -p -t 0 | grep -q '^>[0-9:]*\.[0-9]\{9\} '"
ok "quits" ui_quit

dat=$TVIEW_SHARED/traces/ftrace/labsisop-function-sched_batch/sched_batch_trace.dat
test -f "$dat" || { echo "skip: no shared ftrace sample"; done_tests; exit; }
command -v trace-cmd >/dev/null 2>&1 ||
    { echo "skip: no trace-cmd"; done_tests; exit; }
# report's timestamps, in microseconds and (-t) in nanoseconds
for t in us ns; do
	opt=; test "$t" = ns && opt=-t
	# under the recordings' lock, past report's raw-timestamp flukes
	# shellcheck disable=SC2086 # $opt is one word or none
	sh "$top_srcdir/tests/tc-report" $opt -i "$dat" 2>/dev/null |
	    sed -n 's/^.*\] *\([0-9][0-9]*\.[0-9]*\):.*/\1/p' |
	    head -n 40 >"$tmp/report-$t"
done
echo "# report's first times: $(head -n 1 "$tmp/report-us")," \
    "$(head -n 1 "$tmp/report-ns")"
ok "report printed microseconds" grep -q '^[0-9]*\.[0-9]\{6\}$' \
    "$tmp/report-us"
ok "report -t printed nanoseconds" grep -q '^[0-9]*\.[0-9]\{9\}$' \
    "$tmp/report-ns"

ui_start -x 100 -y 30 "$dat"
ok "trace.dat: opened" ui_wait "event 1 of"
ok "trace.dat: every row's time is report's" ui_poll same_rows \
    "$tmp/report-us"
ok "... and the status bar's" ui_wait " $(head -n 1 "$tmp/report-us") (+0.000000) "
ui_keys .
ok ".: to the nanosecond" ui_wait "time: to the nanosecond"
ok "... every row's time is report -t's" ui_poll same_rows "$tmp/report-ns"
ui_keys c
ok "c: relative, to the nanosecond" ui_wait_sel ">+0.000000000 "
ui_keys .
ok ".: to the microsecond again" ui_wait "time: to the microsecond"
ok "... relative too" ui_poll sh -c "tmux -L '$sock' capture-pane -p -t 0 |
    grep -q '^>+0\.000000  '"
ok "quits" ui_quit

# The config file remembers a choice.
mkdir -p "$HOME/.config/tview"
echo "time-precision = ns" >"$HOME/.config/tview/config"
ui_start -x 100 -y 30 "$dat"
ok "time-precision = ns: report -t's times" ui_poll same_rows \
    "$tmp/report-ns"
ok "quits" ui_quit
echo "time-precision = fs" >"$HOME/.config/tview/config"
ui_start -x 100 -y 30 "$dat"
ok "time-precision = fs: said wrong" ui_wait "expected us or ns"
ok "... report's microseconds still" ui_poll same_rows "$tmp/report-us"
ok "quits" ui_quit
done_tests
