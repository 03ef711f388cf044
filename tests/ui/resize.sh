#!/bin/sh
# Resizing keeps the selected event selected, at 80x24 and 300x100, and
# the screen stays within its width; NO_COLOR and a tiny terminal work.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 3000 --seed 17
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
t=$(dump_time "$(dump_line 300 "$tmp/dump")")

ui_start NO_COLOR=1 "$tmp/trace"
ok "started" ui_wait "Event"
ui_type ":goto #300"; ui_keys Enter
ok "on line 300" ui_wait_sel "$t"
tmux -L "$sock" resize-window -t 0 -x 80 -y 24
rows_are() { test "$(ui_rows)" -eq "$1"; }
ok "80x24: 21 rows" ui_poll rows_are 21
ok "80x24: still selected" ui_wait_sel "$t"
ok "80x24: status bar" ui_wait "[ctf]"
# (an ellipsis is one column but three bytes for awk)
wide=$(ui_screen | sed 's/\xe2\x80\xa6/./g' | awk 'length($0) > 80' | wc -l)
ok "80x24: nothing wider than 80 columns" test "$wide" -eq 0
tmux -L "$sock" resize-window -t 0 -x 300 -y 100
ok "300x100: 97 rows" ui_poll rows_are 97
ok "300x100: still selected" ui_wait_sel "$t"
tmux -L "$sock" resize-window -t 0 -x 19 -y 3
ok "tiny: says so" ui_wait "too small"
tmux -L "$sock" resize-window -t 0 -x 100 -y 30
ok "100x30: 27 rows" ui_poll rows_are 27
ok "back to 100x30: still selected" ui_wait_sel "$t"
ok "quits with 0" ui_quit
done_tests
