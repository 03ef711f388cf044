#!/bin/sh
# Bookmarks in the browser: m marks the selected event (name, text), M
# starts and ends an interval, the event list marks them in the gutter,
# u / U jump between them, B opens the pane where e edits, d deletes and u
# undoes; everything is in info/bookmarks.xml after quitting, and a new
# tview shows it again (--bookmarks agrees).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 3000 --seed 5
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
t200=$(dump_time "$(dump_line 200 "$tmp/dump")")
t300=$(dump_time "$(dump_line 300 "$tmp/dump")")
t500=$(dump_time "$(dump_line 500 "$tmp/dump")")
xml=$tmp/trace/info/bookmarks.xml

ui_start "$tmp/trace"
ok "started" ui_wait "Event"
ui_type ":goto #200"; ui_keys Enter
ok "on event 200" ui_wait_sel "$t200"
ui_keys m
ok "m asks for a name" ui_wait "bookmark name:"
ui_type "spike"; ui_keys Enter
ok "then for a text" ui_wait "bookmark text:"
ui_type "latency starts"; ui_keys Enter
ok "saved where it says" ui_wait "bookmarks saved in $xml"
ok "the file exists at once" test -s "$xml"
ok "status bar counts it" ui_wait "1 bookmark"

ui_type ":goto #300"; ui_keys Enter
ok "on event 300" ui_wait_sel "$t300"
ui_keys M
ok "M starts an interval" ui_wait "interval starts here"
ui_type ":goto #500"; ui_keys Enter
ok "on event 500" ui_wait_sel "$t500"
ui_keys M
ok "M again asks for a name" ui_wait "bookmark name:"
ui_keys Enter Enter
ok "interval bookmarked" ui_wait "interval bookmarked"
ok "status bar counts two" ui_wait "2 bookmarks"

ui_keys g
ok "g to the start" ui_wait_sel "$(dump_time "$(dump_line 1 "$tmp/dump")")"
ui_keys u
ok "u: next bookmark is event 200" ui_wait_sel "$t200"
ok "its text is shown" ui_wait "spike: latency starts"
ui_keys u
ok "u: then the interval at event 300" ui_wait_sel "$t300"
ui_keys Down
ok "the interval's first row has the * gutter mark" ui_wait "*$t300"
ok "the rows inside it have the | mark" test -n "$(ui_screen | grep '^|')"
ui_keys Up
ok "back on event 300" ui_wait_sel "$t300"
ui_keys U
ok "U: back to event 200" ui_wait_sel "$t200"

ui_keys B
ok "B opens the pane" ui_wait "Bookmarks (2)"
ok "the pane lists the name and text" ui_wait "spike  latency starts"
ui_keys e
ok "e asks for the name, pre-filled" ui_wait "bookmark name: spike"
ui_keys C-u; ui_type "start"; ui_keys Enter
ui_keys C-u; ui_type "edited text"; ui_keys Enter
ok "edited in the pane" ui_wait "start  edited text"
ui_keys Down Enter
ok "Enter jumps to the interval" ui_wait_sel "$t300"
ui_keys d
ok "d deletes" ui_wait "Bookmarks (1)"
ui_keys u
ok "u in the pane undoes" ui_wait "Bookmarks (2)"
ui_keys d
ok "d again" ui_wait "Bookmarks (1)"
ok "q saves and quits" ui_quit

ok "the file is LTT bookmarks: one location" \
    test "$(grep -c '<location' "$xml")" -eq 1
ok "written with quoted attributes" \
    grep -q '<location name="start" cpu="[0-9]*" time="[0-9]*\.[0-9]\{9\}">edited text</location>' "$xml"
"$TVIEW" --bookmarks "$tmp/trace" >"$tmp/bm" 2>"$tmp/err"
ok "--bookmarks prints it" grep -q "^$t200	-	-	[0-9]	start	edited text\$" "$tmp/bm"

ui_start "$tmp/trace"
ok "restarted" ui_wait "Event"
ok "the bookmark survived the restart" ui_wait "1 bookmark"
ui_keys u
ok "u goes to it" ui_wait_sel "$t200"
ok "gutter mark on a bookmarked row" test -n "$(ui_screen | grep '^>' )"
ui_keys U
ok "U: none before" ui_wait "no bookmark before this event"
ok "quit" ui_quit

done_tests
