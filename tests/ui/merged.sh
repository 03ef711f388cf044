#!/bin/sh
# Several traces open: a Trace column names each row's trace, and a
# trace whose span meets no other's (a trace.dat boot clock beside a
# CTF wall-clock trace) counts relative times from its own first event.
# Skips without ../shared.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fg=$TVIEW_SHARED/traces/ftrace/labsisop-funcgraph/trace.dat
gen_trace "$tmp/trace" --cpus 2 --events 300 --seed 5
test -f "$fg" || { echo "skip: no $fg"; exit 77; }
ui_start -x 160 -y 20 "$fg" "$tmp/trace"
ok "a Trace column" ui_wait "Trace"
ok "... trace.dat rows name it" ui_wait_sel "trace.dat"
ui_keys c
ok "relative: the first row +0" ui_wait_sel "+0.000000000"
ui_keys G
ok "the last row is the CTF trace's" ui_wait_sel "tview-demo"
ok "... its relative time from its own start, under a second" \
    ui_wait_sel "+0."
ok "quits" ui_quit
ui_start -x 160 -y 20 "$tmp/trace"
ok "one trace: no Trace column" ui_wait "Task"
ok "... really" ui_wait_gone "Trace"
ok "quits" ui_quit
done_tests
