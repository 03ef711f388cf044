#!/bin/sh
# Copying (issue 14, point 4): y sends the selected row (the fields when
# that pane has the focus) to the terminal's clipboard through OSC 52
# (tmux with set-clipboard on keeps it as a paste buffer: the oracle); Y
# appends it to a file named at a prompt; # switches mouse capture off
# (the terminal is told to stop reporting it) and back on.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 300 --seed 9
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
t1=$(dump_time "$(dump_line 1 "$tmp/dump")")
t3=$(dump_time "$(dump_line 3 "$tmp/dump")")
t5=$(dump_time "$(dump_line 5 "$tmp/dump")")

# what the terminal is told: tmux's record of the pane's mouse modes
mouse_mode() {
	tmux -L "$sock" display-message -p -t 0 \
	    '#{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag}'
}
mouse_on() { mouse_mode | grep -q 1; }
mouse_off() { ! mouse_on; }

ui_start -x 120 -y 40 "$tmp/trace"
tmux -L "$sock" set-option -g set-clipboard on
ok "started" ui_wait_sel "$t1"
ui_keys j j
ok "third row" ui_wait_sel "$t3"
name3=$(dump_name "$(dump_line 3 "$tmp/dump")")
ui_keys y
ok "y says it copied" ui_wait "copied"
buffer() { tmux -L "$sock" show-buffer 2>/dev/null; }
# the screen cuts the row at 120 columns and long names in their
# middle; the copy has it whole: its time, its whole name, every field
starts_row() { case $1 in "$t3"*) return 0 ;; esac; return 1; }
has_row() { starts_row "$(buffer)" && buffer | grep -qF " $name3 " &&
    buffer | grep -q 'ns_inum = '; }
ok "the clipboard holds the whole selected row" ui_poll has_row
full=$(buffer)
buffer_row() { printf '%s\n' "$full"; }

ui_keys Enter
ok "fields pane focused" ui_wait "Fields (Tab"
ui_keys y
has_fields() { buffer | grep -q "packet header" && buffer | grep -q "payload"; }
ok "with the fields focused, y copies the whole tree" ui_poll has_fields
ui_keys Escape

ui_keys Y
ok "Y asks for a file, default in the state directory" \
    ui_wait "append to file: $HOME/.local/state/tview/clips.txt"
ui_keys C-u
ui_type "$tmp/clips"; ui_keys Enter
ok "appended" ui_wait "appended to $tmp/clips"
ui_keys j j Y
ok "the prompt remembers the file" ui_wait "append to file: $tmp/clips"
ui_keys Enter
ok "appended again" ui_wait "appended to"
ok "two lines in the file" test "$(wc -l <"$tmp/clips")" -eq 2
ok "the first is the row copied by y" test "$(head -n 1 "$tmp/clips")" = "$(buffer_row)"
ok "the second is dump line 5's event" grep -q "$t5" "$tmp/clips"

ui_keys g
ok "first row" ui_wait_sel "$t1"
ok "mouse reporting is on at the start" ui_poll mouse_on
ui_keys '#'
ok "# switches mouse capture off" ui_wait "mouse capture off"
ok "the status bar says so" ui_wait "mouse off"
ok "the terminal's mouse reporting is off" ui_poll mouse_off
ui_keys '#'
ok "# switches it back on" ui_wait "mouse capture on"
ok "the terminal reports the mouse again" ui_poll mouse_on
ok "quits with 0" ui_quit
done_tests
