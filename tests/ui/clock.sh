#!/bin/sh
# c cycles the time column: wall clock, relative, seconds, raw clock
# (the CTF clock's cycle value, as babeltrace2 --clock-cycles prints it),
# then wall clock again.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 300 --seed 5
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
wall=$(dump_time "$(dump_line 1 "$tmp/dump")")

ui_start "$tmp/trace"
ok "started: wall clock" ui_wait_sel "$wall"
ui_keys c
ok "c: relative" ui_wait_sel "+0.000000000"
ui_keys c
ok "c: seconds" ui_wait "time: seconds"
ui_keys c
ok "c: raw clock" ui_wait "time: raw clock"
if command -v babeltrace2 >/dev/null 2>&1; then
	cyc=$(babeltrace2 --clock-cycles "$tmp/trace" 2>/dev/null | head -n 1 |
	    sed -n 's/^\[0*\([0-9][0-9]*\)\].*/\1/p')
	ok "raw clock = babeltrace2 --clock-cycles ($cyc)" ui_wait_sel "$cyc "
else
	ok "raw clock: digits" ui_poll sh -c "tmux -L '$sock' capture-pane -p -t 0 | grep -qE '^> *[0-9]+ '"
fi
ui_keys c
ok "c: wall clock again" ui_wait_sel "$wall"
ok "quits with 0" ui_quit
done_tests
