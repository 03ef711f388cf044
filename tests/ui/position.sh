#!/bin/sh
# The status bar's position: "event N of M" once every packet's event
# count is known (the background pass), N the event's line in --dump and
# M the dump's length, after :goto #N, paging, G and g, on a 4-CPU trace
# (interleaved streams, small packets).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 5000 --seed 21
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
m=$(wc -l <"$tmp/dump" | tr -d ' ')

ui_start -x 120 -y 30 "$tmp/trace"
ok "started: event 1 of $m" ui_wait "event 1 of $m"
ok "the background pass's progress is gone when it is done" \
    ui_wait_gone "indexing"
for k in 2 777 2501 4999; do
	ui_type ":goto #$k"; ui_keys Enter
	ok ":goto #$k: event $k of $m" ui_wait "event $k of $m"
	ok ":goto #$k: the right row" ui_wait_sel \
	    "$(dump_time "$(dump_line "$k" "$tmp/dump")")"
done
ui_keys G
ok "G: event $m of $m" ui_wait "event $m of $m"
ui_keys g j j j
ok "g j j j: event 4 of $m" ui_wait "event 4 of $m"
ok "quits with 0" ui_quit
done_tests
