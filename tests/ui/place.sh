#!/bin/sh
# Never losing the user's place (issue 14, point 1): q closes the focused
# pane and quits only from the event list; the cursor time is remembered
# per trace between runs (--begin overrides); the jump list (Ctrl-O,
# Tab as Ctrl-I, '') after G, :goto, n, clicks; Ctrl-Z stops the process
# and it redraws when continued; an unknown key is named, with the help
# key the first time.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 3000 --seed 21
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
first=$(dump_time "$(dump_line 1 "$tmp/dump")")
last=$(dump_time "$(tail -n 1 "$tmp/dump")")
mid=$(dump_time "$(dump_line 1500 "$tmp/dump")")
n=$(grep -n -m1 -F "[$mid]" "$tmp/dump" | cut -d: -f1)
q1=$(dump_time "$(dump_line 700 "$tmp/dump")")

ui_start TVIEW_STATE=on "$tmp/trace"
ok "started at the first event" ui_wait_sel "$first"
ui_keys v
ok "an unknown key is named, with the help key" \
    ui_wait "unknown key: v, F1 for help"
ui_keys C-l
ok "the message goes with the next key" ui_wait_gone "unknown key"
ui_keys v
ok "the second time, without the hint" ui_wait "unknown key: v"
ok "... which is said once" sh -c "! tmux -L $sock capture-pane -p | grep -q 'F1 for help'"

# q closes a pane, then quits
ui_keys Enter
ok "Enter opens the fields" ui_wait "Fields (Tab"
ui_keys q
ok "q closes the focused fields pane" ui_wait_gone "Fields (Tab"
ok "and does not quit" sh -c "! tmux -L $sock capture-pane -p | grep -q TVIEW-EXIT"

# jump list: G, :goto, Ctrl-O, Ctrl-I (Tab), ''
ui_keys G
ok "G: the last event" ui_wait_sel "$last"
ui_type ":goto $mid"; ui_keys Enter
ok ":goto: dump line $n" ui_wait_sel "$mid"
ui_keys C-o
ok "Ctrl-O: back to where :goto started (the last event)" ui_wait_sel "$last"
ui_keys C-o
ok "Ctrl-O again: back to where G started (the first event)" \
    ui_wait_sel "$first"
ui_keys C-o
ok "no older jump: said" ui_wait "no older jump"
ui_keys Tab
ok "Tab (Ctrl-I) forward: the last event" ui_wait_sel "$last"
ui_keys Tab
ok "Tab again: the :goto target" ui_wait_sel "$mid"
ui_keys "'" "'"
ok "'': before the last jump" ui_wait_sel "$last"
ui_keys "'" "'"
ok "'' again: back" ui_wait_sel "$mid"
ui_keys g j j j
ok "g then j j j" ui_wait_sel "$(dump_time "$(dump_line 4 "$tmp/dump")")"
ui_keys "'" "'"
ok "'' after g: where g started" ui_wait_sel "$mid"

# position memory: quit at $mid, start again there
ok "quits with 0" ui_quit
ok "the position is kept under XDG_STATE_HOME (default ~/.local/state)" \
    test -s "$HOME/.local/state/tview/positions"
ui_start TVIEW_STATE=on "$tmp/trace"
ok "reopens where it was left" ui_wait_sel "$mid"
ok "and says so" ui_wait "back where this trace was left"
ui_keys q
ui_wait "TVIEW-EXIT:" >/dev/null
ui_start TVIEW_STATE=on "$tmp/trace" --begin "$q1"
ok "--begin overrides the memory" ui_wait_sel "$q1"
ui_keys q
ui_wait "TVIEW-EXIT:" >/dev/null
mkdir -p "$tmp/xdg"
ui_start TVIEW_STATE=on "XDG_STATE_HOME=$tmp/xdg" "$tmp/trace"
ok "another state directory: the first event" ui_wait_sel "$first"
ui_keys G
ok "G" ui_wait_sel "$last"
ok "quits with 0" ui_quit
ok "XDG_STATE_HOME is used" grep -q "$tmp/trace" "$tmp/xdg/tview/positions"
ui_start "$tmp/trace"
ok "TVIEW_STATE=off: the first event" ui_wait_sel "$first"
ok "quits with 0" ui_quit

# Ctrl-Z under a shell with job control: the shell sees the stop; fg
# brings tview back, redrawn, where it was
starts=$((starts + 1))
sock=tvtest$$-$starts
socks="$socks $sock"
tmux -L "$sock" -f /dev/null new-session -d -x 100 -y 30 "sh -c 'set -m; \
'$TVIEW' '$tmp/trace' 2>'$tmp/stderr'; echo SUSPENDED:\$?; \
while [ ! -e '$tmp/go' ]; do sleep 0.05; done; \
fg; echo RESUMED-EXIT:\$?; sleep 600'"
ok "started" ui_wait_sel "$first"
ui_keys G
ok "G" ui_wait_sel "$last"
ui_keys C-z
ok "Ctrl-Z: stopped, the shell has the terminal (SIGTSTP: 148)" \
    ui_wait "SUSPENDED:148"
touch "$tmp/go"
ok "fg: the browser is back, redrawn, at the same place" ui_wait_sel "$last"
ok "and the status bar too" ui_wait "event 3000 of 3000"
ui_keys q
ok "then quits with 0" ui_wait "RESUMED-EXIT:0"
done_tests
