#!/bin/sh
# A long search shows its progress and Esc (or Ctrl-C) cancels it, leaving
# the cursor where it was.  TVIEW_UI_SCAN_DELAY_US slows the scan down so
# that "long" does not depend on the machine's speed.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 3000 --seed 18
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
t=$(dump_time "$(dump_line 10 "$tmp/dump")")

ui_start TVIEW_UI_SCAN_DELAY_US=3000 "$tmp/trace"
ok "started" ui_wait "Event"
ui_type ":goto #10"; ui_keys Enter
ok "on line 10" ui_wait_sel "$t"
ui_type "/no-such-thing-anywhere"; ui_keys Enter
ok "progress shows" ui_wait "Esc cancels"
ui_keys Escape
ok "Esc cancels" ui_wait "searching: cancelled"
ok "the cursor stayed" ui_wait_sel "$t"
ui_keys n
ok "n searches again" ui_wait "Esc cancels"
ui_keys C-c
ok "Ctrl-C cancels too" ui_wait "searching: cancelled"
ok "the cursor stayed again" ui_wait_sel "$t"
ui_keys j
ok "keys work after a cancel" \
    ui_wait_sel "$(dump_time "$(dump_line 11 "$tmp/dump")")"
# A resize during a scan neither disturbs it nor is lost.
t400=$(dump_time "$(dump_line 400 "$tmp/dump")")
ui_type "/$t400"; ui_keys Enter
ok "a slow search that will hit" ui_wait "Esc cancels"
tmux -L "$sock" resize-window -t 0 -x 80 -y 24
ok "it hits line 400 despite the resize" ui_wait_sel "$t400"
rows_are() { test "$(ui_rows)" -eq "$1"; }
ok "and the screen has the new size" ui_poll rows_are 21
ok "quits with 0" ui_quit
done_tests
