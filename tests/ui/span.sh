#!/bin/sh
# The browser measures time from the first event, not from the padded
# packet bounds: on tc-many-threads (packets begin 0.32 s before the first
# event) the first event shows +0 on the status bar and 100% is the last
# event.  Skips without $TVIEW_SHARED.
. "$(dirname "$0")/lib.sh"

mt=$TVIEW_SHARED/traces/ctf/tc-many-threads
test -n "$TVIEW_SHARED" && test -d "$mt" ||
    { echo "skip: no shared tc-many-threads"; exit 77; }
"$TVIEW" --dump "$mt" >"$tmp/dump" 2>/dev/null

ui_start "$mt"
ok "started on the first event" \
    ui_wait_sel "$(dump_time "$(dump_line 1 "$tmp/dump")")"
ok "the first event is at +0" ui_wait "(+0.000000000)"
ui_type ":goto 100%"; ui_keys Enter
ok ":goto 100% is the last event" \
    ui_wait_sel "$(dump_time "$(tail -n 1 "$tmp/dump")")"
mid=$("$TVIEW" --dump --begin 50% "$mt" | head -n 1)
ui_type ":goto 50%"; ui_keys Enter
ok ":goto 50% is where --dump --begin 50% starts" \
    ui_wait_sel "$(dump_time "$mid")"
ok "quits with 0" ui_quit
done_tests
