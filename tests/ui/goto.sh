#!/bin/sh
# :goto lands on the right event: the one of --dump line N, by its time,
# by #N, by +REL from there, and the t prompt and N% work too.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 5000 --seed 13
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null

# The first dump line carrying the time of line 2500 (ties go to it).
t=$(dump_time "$(dump_line 2500 "$tmp/dump")")
n=$(grep -n -m1 -F "[$t]" "$tmp/dump" | cut -d: -f1)
line=$(dump_line "$n" "$tmp/dump")

ui_start "$tmp/trace"
ok "started" ui_wait "Event"
ui_type ":goto $t"; ui_keys Enter
ok ":goto TIME selects dump line $n" ui_wait_sel "$t"
ok ":goto TIME: the right name" ui_wait_sel "$(dump_name "$line")"

l=$(dump_line 4000 "$tmp/dump")
ui_type ":goto #4000"; ui_keys Enter
ok ":goto #4000 selects dump line 4000" ui_wait_sel "$(dump_time "$l")"

ui_keys g
ok "g back to the start" ui_wait_sel "$(dump_time "$(dump_line 1 "$tmp/dump")")"
ui_type "t"; ui_wait "time (" >/dev/null
ui_type "$t"; ui_keys Enter
ok "t prompt selects dump line $n" ui_wait_sel "$t"

ui_type ":goto 100%"; ui_keys Enter
ok ":goto 100% is the last event" \
    ui_wait_sel "$(dump_time "$(tail -n 1 "$tmp/dump")")"

ui_type ":goto nonsense"; ui_keys Enter
ok "bad time: an error, no crash" ui_wait "nonsense"
ui_type ":frobnicate"; ui_keys Enter
ok "unknown command: an error" ui_wait "unknown command"

ui_type ":go"; ui_keys Tab
ok "Tab completes the command" ui_wait ":goto"
ui_keys Escape
ui_keys ":" Up
ok "Up recalls history" ui_wait ":frobnicate"
ui_keys Escape
ok "quits with 0" ui_quit
done_tests
