#!/bin/sh
# Page down then page up returns to the very same screen; so do Space/b,
# Ctrl-D/Ctrl-U, j/k at the edges, and End/Home reach both ends.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 3000 --seed 12
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
n=$(wc -l <"$tmp/dump")

ui_start "$tmp/trace"
first=$(dump_time "$(dump_line 1 "$tmp/dump")")
ok "started" ui_wait_sel "$first"
ui_keys j j j
ok "j moves" ui_wait_sel "$(dump_time "$(dump_line 4 "$tmp/dump")")"
ui_screen >"$tmp/s0"

ui_keys PageDown
ok "PgDn moves a screen (27 rows)" \
    ui_wait_sel "$(dump_time "$(dump_line 31 "$tmp/dump")")"
ui_keys PageUp
ok "PgUp comes back" ui_wait_sel "$(dump_time "$(dump_line 4 "$tmp/dump")")"
ui_screen >"$tmp/s1"
ok "same screen after PgDn PgUp" cmp -s "$tmp/s0" "$tmp/s1"

ui_keys Space
ok "Space pages" ui_wait_sel "$(dump_time "$(dump_line 31 "$tmp/dump")")"
ui_keys b
ok "b pages back" ui_wait_sel "$(dump_time "$(dump_line 4 "$tmp/dump")")"
ui_keys C-d
ok "Ctrl-D half page" ui_wait_sel "$(dump_time "$(dump_line 17 "$tmp/dump")")"
ui_keys C-u
ok "Ctrl-U half page" ui_wait_sel "$(dump_time "$(dump_line 4 "$tmp/dump")")"
ui_screen >"$tmp/s2"
ok "same screen after Ctrl-D Ctrl-U" cmp -s "$tmp/s0" "$tmp/s2"

ui_keys End
last=$(dump_time "$(dump_line "$n" "$tmp/dump")")
ok "End: last event" ui_wait_sel "$last"
ui_keys k k PageUp PageDown j j
ok "k PgUp PgDn j j: last again" ui_wait_sel "$last"
ui_keys Down
ok "Down at the end says so" ui_wait "at the last event"
ui_keys Home
ok "Home: first event" ui_wait_sel "$first"
ui_keys k
ok "k at the start says so" ui_wait "at the first event"
ok "quits with 0" ui_quit
done_tests
