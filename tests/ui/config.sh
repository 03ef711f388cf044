#!/bin/sh
# The config file (issue 14, point 3): $XDG_CONFIG_HOME/tview/config,
# "key = value" a line: time-style, event-width, colour-by, key.KEY; a
# bad line is reported with its number and the others still apply;
# --time-format wins over the file; K cycles what rows are coloured by;
# NO_COLOR and colour = never leave no colour.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 300 --seed 6
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
last=$(dump_time "$(tail -n 1 "$tmp/dump")")
first=$(dump_time "$(dump_line 1 "$tmp/dump")")
mkdir -p "$tmp/cfg/tview"
cat >"$tmp/cfg/tview/config" <<'CFG'
# tview settings
time-style = relative
frobnicate = 1
event-width = 12   # narrow
key.w = last
colour-by = cpu
CFG

# colours: an SGR foreground colour (30-37) on the screen
coloured() {
	tmux -L "$sock" capture-pane -p -e -t 0 2>/dev/null |
	    grep -qE "$(printf '\033')\\[([0-9;]*;)?3[0-7](;[0-9;]*)?m"
}
not_coloured() { ! coloured; }

ui_start "XDG_CONFIG_HOME=$tmp/cfg" "$tmp/trace"
ok "a bad line: named with its number" \
    ui_wait "$tmp/cfg/tview/config:3: unknown setting"
ok "time-style = relative" ui_wait_sel "+0.000000000"
ok "event-width = 12: names cut to 12 columns" \
    ui_wait_sel "lttng_…start"
ok "colour-by = cpu: the rows are coloured" ui_poll coloured
ui_keys w
ok "key.w = last: w goes to the last event" \
    ui_wait "event 300 of 300"
ui_keys K
ok "K cycles: by event class" ui_wait "rows coloured by event class"
ui_keys K
ok "K: by task" ui_wait "rows coloured by task"
ui_keys K
ok "K: not coloured" ui_wait "rows not coloured"
ok "quits with 0" ui_quit

ui_start "XDG_CONFIG_HOME=$tmp/cfg" "$tmp/trace" --time-format=utc
ok "--time-format wins over the file" ui_wait_sel "$first"
ok "quits with 0" ui_quit

ui_start "XDG_CONFIG_HOME=$tmp/cfg" NO_COLOR=1 "$tmp/trace"
ok "NO_COLOR: started" ui_wait "Event"
ok "NO_COLOR: no colour at all" not_coloured
ok "quits with 0" ui_quit

echo "colour = never" >>"$tmp/cfg/tview/config"
ui_start "XDG_CONFIG_HOME=$tmp/cfg" "$tmp/trace"
ok "colour = never: started" ui_wait "Event"
ok "colour = never: no colour" not_coloured
ok "quits with 0" ui_quit
: "$last"
done_tests
