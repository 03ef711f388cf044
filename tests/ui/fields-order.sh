#!/bin/sh
# The fields pane at 80x24: name and time, CPU and task, then the
# payload without scrolling; the packet and header scopes folded below
# it.  Enter on a scope's title unfolds it, and the scroll, the cursor
# and the folds stay when moving to another event of the same class.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 2000 --seed 3
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
# the first sched_switch and the next one
grep -n ' sched_switch: ' "$tmp/dump" | cut -d: -f1 >"$tmp/ss"
s1=$(sed -n 1p "$tmp/ss"); s2=$(sed -n 2p "$tmp/ss")
t2=$(dump_time "$(dump_line "$s2" "$tmp/dump")")

ui_start -x 80 -y 24 "$tmp/trace"
ok "started" ui_wait "Event"
ui_type ":goto #$s1"; ui_keys Enter
ok "on a sched_switch" ui_wait "event $s1 of"
ui_keys Enter
ok "fields: the payload first" ui_wait "- payload"
ok "... its fields without scrolling" ui_wait "prev_comm = "
ok "... CPU and task on top" ui_wait "task "
# the last line is where the record is; above it the packet header
ui_keys G
ok "below: the packet header folded" ui_wait "+ packet header"
ok "... the event header folded" ui_wait "+ event header"
ok "... no packet field shown" ui_wait_gone "magic = "
ui_keys Up
ui_keys Enter
ok "Enter unfolds the packet header" ui_wait "- packet header"
ok "... its fields shown" ui_wait "magic = "
# the next event of the same class: the folds and scroll stay
ui_keys Tab
ui_keys "}"
ok "on the next sched_switch (line $s2)" ui_wait_sel "$t2"
ok "... the packet header still unfolded" ui_wait "- packet header"
ok "... still scrolled to it" ui_wait "magic = "
ok "quits" ui_quit
done_tests
