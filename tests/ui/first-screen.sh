#!/bin/sh
# The first screen shows the first events of the trace, in --dump order,
# with the column header, the status bar, and the first row selected
# (140 columns: room for the whole event names beside the Task column).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 3000 --seed 11
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
test -s "$tmp/dump" || { echo "FAIL: --dump printed nothing"; exit 1; }

ui_start -x 140 -y 30 "$tmp/trace"
ok "header shows" ui_wait "Event"
l1=$(dump_line 1 "$tmp/dump")
l2=$(dump_line 2 "$tmp/dump")
ok "first row is dump line 1" ui_wait_sel "$(dump_time "$l1")"
ok "first row has its name" ui_wait_sel "$(dump_name "$l1")"
ok "second event shown" ui_wait "$(dump_time "$l2")"
ok "status bar names the format" ui_wait "[ctf]"
rows=$(ui_screen | grep -c '^[ >][0-9][0-9]:')
ok "screen full of rows ($rows)" test "$rows" -ge 25
ok "quits with 0" ui_quit
done_tests
