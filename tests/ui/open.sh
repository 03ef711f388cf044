#!/bin/sh
# Opening from a terminal: with no argument inside a trace directory the
# browser opens that trace; with a dumb terminal it refuses with exit
# status 3 (not 1, which says a trace could not be read) and points at
# --dump.
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 500 --seed 4
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null

# tmux starts the command in the directory it is run from.
cd "$tmp/trace" || exit 99
ui_start
cd "$top_builddir" || exit 99
ok "no argument in a trace directory: the browser opens it" \
    ui_wait_sel "$(dump_time "$(dump_line 1 "$tmp/dump")")"
ok "quits with 0" ui_quit
ui_stop

ui_start TERM=dumb "$tmp/trace"
ok "TERM=dumb: the browser refuses with exit status 3" ui_wait "TVIEW-EXIT:3"
ok "TERM=dumb: the message points at --dump" grep -q -e '--dump' "$tmp/stderr"
ok "TERM=dumb: the message names the problem" grep -q 'TERM=dumb' "$tmp/stderr"
done_tests
