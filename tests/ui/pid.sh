#!/bin/sh
# PID jumps: ] and [ go to the next and previous event of the selected
# event's PID (payload tid here), p asks for a PID, :pid N too; name
# jumps } { and :cpu work the same way.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 3000 --seed 15
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null

# A tid that at least three events carry as payload field "tid".
pid=$(grep -oE '[{,] tid = [0-9]+[,} ]' "$tmp/dump" |
    sed 's/.*= \([0-9]*\).*/\1/' | sort | uniq -c | sort -rn |
    awk '$1 >= 3 { print $2; exit }')
test -n "$pid" || { echo "FAIL: fixture has no repeated tid"; exit 1; }
grep -nE "[{,] tid = ${pid}[,} ]" "$tmp/dump" | cut -d: -f1 >"$tmp/lines"
a=$(sed -n 1p "$tmp/lines"); b=$(sed -n 2p "$tmp/lines")
c=$(sed -n 3p "$tmp/lines")
ta=$(dump_time "$(dump_line "$a" "$tmp/dump")")
tb=$(dump_time "$(dump_line "$b" "$tmp/dump")")
tc=$(dump_time "$(dump_line "$c" "$tmp/dump")")

ui_start "$tmp/trace"
ok "started" ui_wait "Event"
ui_type ":goto #$a"; ui_keys Enter
ok "on the first event of tid $pid (line $a)" ui_wait_sel "$ta"
ui_keys "]"
ok "] next event of tid $pid (line $b)" ui_wait_sel "$tb"
ui_keys "]"
ok "] again (line $c)" ui_wait_sel "$tc"
ui_keys "["
ok "[ back (line $b)" ui_wait_sel "$tb"

ui_keys g
if [ "$a" -gt 1 ]; then
	ui_keys p; ui_wait "pid:" >/dev/null
	ui_type "$pid"; ui_keys Enter
	ok "p $pid from the start (line $a)" ui_wait_sel "$ta"
	ui_keys g
fi
ui_type ":pid $pid"; ui_keys Enter
ok ":pid $pid" ui_wait_sel "$ta"
ui_type ":pid 999999"; ui_keys Enter
ok "unknown PID: a message" ui_wait "no later event of PID 999999"

# } and { by name: the next sched_switch after the first one.
grep -n ' sched_switch: ' "$tmp/dump" | cut -d: -f1 >"$tmp/ss"
s1=$(sed -n 1p "$tmp/ss"); s2=$(sed -n 2p "$tmp/ss")
ui_type ":goto #$s1"; ui_keys Enter
ok "on a sched_switch" ui_wait_sel "$(dump_time "$(dump_line "$s1" "$tmp/dump")")"
ui_keys "}"
ok "} next sched_switch" ui_wait_sel "$(dump_time "$(dump_line "$s2" "$tmp/dump")")"
ui_keys "{"
ok "{ previous sched_switch" ui_wait_sel "$(dump_time "$(dump_line "$s1" "$tmp/dump")")"
ui_keys g
ui_type ":event sched_switch"; ui_keys Enter
ok ":event NAME" ui_wait_sel "$(dump_time "$(dump_line "$s1" "$tmp/dump")")"

# :cpu N: the first dump line after line 1 on CPU 2.
cl=$(grep -n 'cpu_id = 2 }' "$tmp/dump" | cut -d: -f1 | awk '$1 > 1' | head -n 1)
if [ -n "$cl" ]; then
	ui_keys g
	ui_type ":cpu 2"; ui_keys Enter
	ok ":cpu 2 (line $cl)" ui_wait_sel "$(dump_time "$(dump_line "$cl" "$tmp/dump")")"
fi
ok "quits with 0" ui_quit
done_tests
