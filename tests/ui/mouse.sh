#!/bin/sh
# The mouse: a click selects the row under it, the wheel scrolls three
# events at a time.  xterm mouse reports (ESC [ M b x y) are typed into
# the pane as raw bytes.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 500 --seed 19
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null

# mouse BUTTON-CODE COLUMN LINE (1-based screen cell)
mouse() {
	tmux -L "$sock" send-keys -t 0 -H 1b 5b 4d \
	    "$(printf '%x' $((32 + $1)))" "$(printf '%x' $((32 + $2)))" \
	    "$(printf '%x' $((32 + $3)))"
}

ui_start "$tmp/trace"
ok "started" ui_wait "Event"
mouse 0 10 6; mouse 3 10 6
ok "click on screen line 6 selects dump line 5" \
    ui_wait_sel "$(dump_time "$(dump_line 5 "$tmp/dump")")"
mouse 65 10 6
ok "wheel down: three events on" \
    ui_wait_sel "$(dump_time "$(dump_line 8 "$tmp/dump")")"
mouse 64 10 6
ok "wheel up: three events back" \
    ui_wait_sel "$(dump_time "$(dump_line 5 "$tmp/dump")")"
mouse 0 10 1; mouse 3 10 1
ok "a click on the header changes nothing" \
    ui_wait_sel "$(dump_time "$(dump_line 5 "$tmp/dump")")"
ok "quits with 0" ui_quit
done_tests
