#!/bin/sh
# The help screen lists every key of the keymap table and every : command
# of the command table (read from the source, so a new binding or command
# without help cannot slip through), q closes
# it without quitting, and the fields pane opens with Enter.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 500 --seed 16
sed -n 's/.*N_("\([^"]*\)"),[[:space:]]*TV_UI_REQ_.*/\1/p' \
    "$top_srcdir/src/ui/keymap.c" | sort -u >"$tmp/keys"
test "$(wc -l <"$tmp/keys")" -ge 20 || { echo "FAIL: no keys read"; exit 1; }

ui_start -x 100 -y 96 "$tmp/trace"
ok "started" ui_wait "Event"
ui_keys F1
ok "F1 opens the help" ui_wait "tview help"
ui_screen | cut -c1-22 | sed 's/^ *//; s/ *$//' | tr -s ' ' |
    sed 's/, /\n/g' >"$tmp/shown"
missing=0
while IFS= read -r k; do
	if ! grep -qxF -- "$k" "$tmp/shown"; then
		echo "key not in help: $k"
		missing=$((missing + 1))
	fi
done <"$tmp/keys"
ok "every key of the table is in the help ($(wc -l <"$tmp/keys") keys)" \
    test "$missing" -eq 0
ok "the commands are in the help" ui_wait ":goto TIME"
# every : command of the table (src/ui/command.c), from the source too
sed -n 's/^[[:space:]]*{ "\([a-z]*\)",[[:space:]]*[N"].*TV_UI_ARG_.*/\1/p' \
    "$top_srcdir/src/ui/command.c" >"$tmp/commands"
test "$(wc -l <"$tmp/commands")" -ge 7 || { echo "FAIL: no commands read"; exit 1; }
missing=0
while IFS= read -r c; do
	if ! ui_screen | grep -q "^ *:$c\( \|$\)"; then
		echo "command not in help: :$c"
		missing=$((missing + 1))
	fi
done <"$tmp/commands"
ok "every : command of the table is in the help" test "$missing" -eq 0
ok "aliases are listed" ui_wait ":q                same as :quit"
ui_keys q
ok "q closes the help" ui_wait_gone "tview help"
ok "and does not quit" ui_wait "Event"
ui_keys h
ok "h opens the help too" ui_wait "tview help"
ui_keys Escape
ok "Esc closes it" ui_wait_gone "tview help"

ui_keys Enter
ok "Enter opens the fields pane" ui_wait "Fields (Tab"
ok "fields show the packet header scope" ui_wait "packet header"
ui_keys z
ok "z maximises the fields pane" ui_wait_gone "CPU  Task"
ok "fields show the payload scope" ui_wait "payload"
ui_keys z Tab j
ok "Tab back to the events" ui_wait "CPU  Task"
ui_keys c
ok "c: relative time" ui_wait "relative"
ui_keys c
ok "c: seconds" ui_wait "time: seconds"
ui_keys c
ok "c: raw clock" ui_wait "time: raw clock"
ui_keys c
ok "c: wall clock again" ui_wait "wall clock"
ui_keys Escape
ok "Esc closes the fields" ui_wait_gone "Fields (Tab"
ok "quits with 0" ui_quit
done_tests
