#!/bin/sh
# 80 columns and less (issue 14, point 2): the Event column is capped and
# long names are cut in their middle (head...tail); Left / Right scroll
# the fields sideways, the other columns staying; the status bar keeps
# the position and the modes at 50 columns; a long message wraps instead
# of being cut.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 500 --seed 5
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
t2=$(dump_time "$(dump_line 2 "$tmp/dump")")

ui_start -x 80 -y 24 "$tmp/trace"
ok "started" ui_wait "Event"
ui_keys j
ok "second row" ui_wait_sel "$t2"
ok "lttng_statedump_process_state is cut in its middle" \
    ui_wait_sel "lttng_stat…ess_state  tid = 2"
# the fields column starts where the header says, within 80 columns
col=$(ui_screen | head -n 1 | awk '{ print index($0, "Fields") }')
ok "the fields start by column 50 ($col)" test "$col" -gt 0 -a "$col" -le 50
# fields: the selected row after the name column
fields() { ui_sel | sed 's/^.*ess_state  //'; }
before=$(fields)
ui_keys Right
ok "Right: the header says the fields are scrolled" ui_wait "(scrolled 20"
after=$(fields)
want=$(printf '%s' "$before" | cut -c21-)
ok "the row's fields moved 20 columns ($after)" \
    test "$(printf '%s' "$after" | cut -c1-${#want})" = "$want"
ok "the time and name columns stayed" ui_wait_sel "$t2    0  lttng_stat"
ui_keys Left
ok "Left: back" ui_wait_gone "(scrolled"
ok "the row as before" test "$(fields)" = "$before"
ui_keys '/'
ui_type 'vtid = 15,'; ui_keys Enter
ok "search still sees the whole name and fields" ui_wait_sel "tid = 15"
ok "quits with 0" ui_quit

ui_start -x 50 -y 20 "$tmp/trace"
ok "50 columns: started" ui_wait "Event"
ui_keys '/'
ui_type 'sched'; ui_keys Enter
has_pos() { ui_screen | grep -qE "event [0-9]+ of 500"; }
ok "the position stays on the status bar" ui_poll has_pos
ok "so does the search mode" ui_wait "/sched"
ui_type ":goto nonsense-long-enough-to-need-two-lines"; ui_keys Enter
msg=$(ui_screen | tail -n 4 | tr -d '\n')
ok "a long message wraps, whole: $msg" sh -c \
    "printf '%s' '$msg' | tr -d ' ' | grep -q 'orN%'"
ui_keys C-l
ok "and goes with the next key" ui_wait_gone "nonsense-long"
ok "quits with 0" ui_quit
done_tests
