#!/bin/sh
# % on system calls whose records are the first that show their thread
# on the CPU (tests/unswitched-ctf.sh: the trace lacks the switches):
# from 200's write entry (no switch to 200 before it) to its exit and
# back; from 100's read exit (no switch back to 100) to its entry, and
# back.
. "$(dirname "$0")/lib.sh"
# shellcheck source=../unswitched-ctf.sh
. "$top_srcdir/tests/unswitched-ctf.sh"

unswitched_ctf "$tmp/trace"
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
# line N of the dump's time (what the selected row shows)
at() { sed -n "${1}p" "$tmp/dump" | sed 's/^\[\([^]]*\)\].*/\1/'; }

ui_start -x 120 -y 30 "$tmp/trace"
ok "started" ui_wait "Event"
ui_type ":goto #3"; ui_keys Enter
ok "on 200's write entry" ui_wait_sel "$(at 3)"
ui_type "%"
ok "% goes to its exit" ui_wait_sel "$(at 4)"
ui_type "%"
ok "% comes back to the entry" ui_wait_sel "$(at 3)"
ui_type ":goto #5"; ui_keys Enter
ok "on 100's read exit" ui_wait_sel "$(at 5)"
ui_type "%"
ok "% goes back to its entry" ui_wait_sel "$(at 2)"
ui_type "%"
ok "% goes to the exit again" ui_wait_sel "$(at 5)"
ok "q quits" ui_quit
done_tests
