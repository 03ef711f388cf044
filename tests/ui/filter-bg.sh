#!/bin/sh
# The filtered view without waiting for the whole trace: a filter that
# keeps only the last event shows "searching... N%" while the walk looks
# for it, and Esc cancels it leaving the cursor and the filters as they
# were; without the delay it lands on that event with "1 of M events"
# from the background pass.  Inside a filter: paging both ways, search,
# n/N with the matched text highlighted in the rows (capture-pane -e),
# and a bookmark (m, then u from elsewhere comes back to it).
# TVIEW_UI_SCAN_DELAY_US slows the walk so "slow" does not depend on the
# machine.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 3000 --seed 21
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
"$TVIEW" --dump --filter sched_switch "$tmp/trace" >"$tmp/f1" 2>/dev/null
m=$(wc -l <"$tmp/dump"); n1=$(wc -l <"$tmp/f1")
test "$n1" -ge 100 || { echo "FAIL: fixture"; exit 1; }
ft() { dump_time "$(dump_line "$1" "$2")"; }
first=$(ft 1 "$tmp/dump")
last=$(ft "$m" "$tmp/dump")

ui_start -x 200 -y 30 TVIEW_UI_SCAN_DELAY_US=2000 "$tmp/trace"
ok "started" ui_wait "Event"
ui_type ":filter time >= 100%"; ui_keys Enter
ok "a rare filter says how far it looked" ui_wait "searching..."
ok "... and that Esc cancels" ui_wait "Esc cancels"
ui_keys Escape
ok "Esc cancels the filter" ui_wait "filter: cancelled"
ok "the cursor stayed" ui_wait_sel "$first"
ok "no filter is left" ui_wait_gone "time >= 100%"
ui_keys j
ok "keys work after the cancel" ui_wait_sel "$(ft 2 "$tmp/dump")"
ok "quits with 0" ui_quit

ui_start -x 200 -y 30 "$tmp/trace"
ok "started again" ui_wait "Event"
ui_type ":filter time >= 100%"; ui_keys Enter
ok "without the delay: the only match, the last event" ui_wait_sel "$last"
ok "the pass counts 1 of M" ui_wait ": 1 of $m events"
ui_type ":filter"; ui_keys Enter
ui_type ":filter sched_switch"; ui_keys Enter
ok "sched_switch: the nearest one, before the last event" \
    ui_wait_sel "$(ft "$n1" "$tmp/f1")"
ui_keys g
ok "g: the first one" ui_wait_sel "$(ft 1 "$tmp/f1")"
ok "sched_switch: N of M" ui_wait ": $n1 of $m events"
ui_keys NPage NPage
p2=$(ui_sel | awk '{print $1}')
ok "PgDn twice stays inside the view" sh -c \
    "tmux -L $sock capture-pane -p -t 0 | grep -m1 '^>' | grep -q sched_switch"
ui_keys PPage PPage
ok "PgUp twice comes back to the first" ui_wait_sel "$(ft 1 "$tmp/f1")"
test -n "$p2"
# search inside the filter, both ways
h=$(grep -n 'prev_tid = 0,' "$tmp/f1" | cut -d: -f1 | awk '$1 > 1' | head -2)
h1=$(echo "$h" | sed -n 1p); h2=$(echo "$h" | sed -n 2p)
ui_type "/prev_tid = 0,"; ui_keys Enter
ok "search inside the filter (row $h1)" ui_wait_sel "$(ft "$h1" "$tmp/f1")"
esc=$(printf '\033')
hl() { tmux -L "$sock" capture-pane -e -p -t 0 |
    grep -c "${esc}\[[0-9;]*[47][0-9;]*mprev_tid = 0,${esc}\["; }
many() { test "$(hl)" -ge 2; }
ok "the matched text is highlighted (escapes around it)" ui_poll many
ui_keys n
ok "n: the next kept match (row $h2)" ui_wait_sel "$(ft "$h2" "$tmp/f1")"
ui_keys N
ok "N: back (row $h1)" ui_wait_sel "$(ft "$h1" "$tmp/f1")"
# a bookmark inside the filter
ui_keys m
ok "m asks for a name" ui_wait "bookmark name:"
ui_type "inside"; ui_keys Enter
ok "then for a text" ui_wait "bookmark text:"
ui_keys Enter
ok "bookmarked" ui_wait "1 bookmark"
ui_keys g
ok "g: the first kept event" ui_wait_sel "$(ft 1 "$tmp/f1")"
ui_keys u
ok "u: back to the bookmark inside the view" \
    ui_wait_sel "$(ft "$h1" "$tmp/f1")"
ok "quits with 0" ui_quit
done_tests
