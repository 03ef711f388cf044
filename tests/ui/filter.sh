#!/bin/sh
# The filtered view: & and :filter keep only the events a filter matches
# (the rows are those of --dump --filter), g/G/j/PgDn/PgUp move inside it,
# search finds only kept events, :filter-out stacks, the status line says
# "N of M events", f switches the filters off and on, :filter alone
# clears them, E and C filter on the selected name and CPU, and a bad
# filter is an error naming its column.
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 3000 --seed 14
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
"$TVIEW" --dump --filter sched_switch "$tmp/trace" >"$tmp/f1" 2>/dev/null
"$TVIEW" --dump --filter 'sched_switch: CPU != 0' "$tmp/trace" \
    >"$tmp/f2" 2>/dev/null
n1=$(wc -l <"$tmp/f1"); n2=$(wc -l <"$tmp/f2"); m=$(wc -l <"$tmp/dump")
test "$n1" -ge 60 && test "$n2" -lt "$n1" || { echo "FAIL: fixture"; exit 1; }
ft() { dump_time "$(dump_line "$1" "$2")"; }

ui_start -x 200 -y 30 "$tmp/trace"
ok "started" ui_wait "Event"
ui_keys '&'
ui_type "sched_switch"; ui_keys Enter
ok "& keeps the first match" ui_wait_sel "$(ft 1 "$tmp/f1")"
ok "status: N of M events" ui_wait ": $n1 of $m events"
ok "every row on screen is a kept event" sh -c \
    "! tmux -L $sock capture-pane -p -t 0 | grep '^[ >][0-9][0-9]:' |
    grep -v sched_switch"
ui_keys j j j
ok "j moves to the 4th kept event" ui_wait_sel "$(ft 4 "$tmp/f1")"
ui_keys G
ok "G: the last kept event" ui_wait_sel "$(ft "$n1" "$tmp/f1")"
ui_keys PPage
ok "PgUp stays inside the view" sh -c "ui_sel() { tmux -L $sock capture-pane -p -t 0 | grep -m1 '^>'; }; ui_sel | grep -q sched_switch"
ui_keys g
ok "g: the first kept event" ui_wait_sel "$(ft 1 "$tmp/f1")"
ui_keys NPage
ok "PgDn stays inside the view" sh -c "tmux -L $sock capture-pane -p -t 0 | grep -m1 '^>' | grep -q sched_switch"
ui_keys g
ui_type "/sched_wakeup"; ui_keys Enter
ok "search does not find hidden events" ui_wait "pattern not found"
h=$(grep -n 'prev_tid = 0,' "$tmp/f1" | cut -d: -f1 | awk '$1 > 1' | head -1)
ui_type "/prev_tid = 0,"; ui_keys Enter
ok "search finds a kept event (row $h)" ui_wait_sel "$(ft "$h" "$tmp/f1")"
ui_type ":filter-out CPU == 0"; ui_keys Enter
ui_keys g
ok ":filter-out stacks (first of 'sched_switch: CPU != 0')" \
    ui_wait_sel "$(ft 1 "$tmp/f2")"
ok "status: the stacked count" ui_wait ": $n2 of $m events"
ui_keys f
ok "f: filters off" ui_wait "filters off"
ui_keys g
ok "off: the first event of the trace" ui_wait_sel "$(ft 1 "$tmp/dump")"
ui_keys f g
ok "f again: back on" ui_wait_sel "$(ft 1 "$tmp/f2")"
ui_type ":filter sched_switch: prev_tdi == 0"; ui_keys Enter
ok "bad filter: error with column" \
    ui_wait "filter:1:15: unknown field 'prev_tdi' (did you mean prev_tid?)"
ui_type ":filter"; ui_keys Enter
ok ":filter alone clears" ui_wait "filters cleared"
ui_keys g
ok "cleared: the first event" ui_wait_sel "$(ft 1 "$tmp/dump")"
name=$(dump_name "$(dump_line 1 "$tmp/dump")")
"$TVIEW" --dump --filter "\"$name\"" "$tmp/trace" >"$tmp/f3" 2>/dev/null
ui_keys E
ok "E: a filter on the selected name" \
    ui_wait ": $(wc -l <"$tmp/f3") of $m events"
ui_keys G
ok "E: the last event of that name" \
    ui_wait_sel "$(ft "$(wc -l <"$tmp/f3")" "$tmp/f3")"
ui_type ":filter"; ui_keys Enter
ui_keys g j j
cpu=$(tmux -L "$sock" capture-pane -p -t 0 | grep -m1 '^>' | awk '{print $2}')
"$TVIEW" --dump --filter "CPU == $cpu" "$tmp/trace" >"$tmp/f4" 2>/dev/null
ui_keys O
ok "O: a filter on the selected CPU ($cpu)" \
    ui_wait ": $(wc -l <"$tmp/f4") of $m events"
ok "quits with 0" ui_quit
done_tests
