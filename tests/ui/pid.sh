#!/bin/sh
# PID search names the owner --with-pid names (tv_event_owner, completed
# by the state layer): p and :pid on a thread's own id find nothing when
# that thread belongs to another process, even on events whose payload
# carries "tid = T" (the rule the UI once had took that tid for the PID);
# its process's PID finds the first line --with-pid gives to it.  Name
# jumps } { and :cpu are checked here too.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 3000 --seed 15
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
"$TVIEW" --dump --with-pid "$tmp/trace" >"$tmp/owned" 2>/dev/null ||
    { echo "FAIL: --dump --with-pid"; exit 1; }

# A statedump line of thread T of process P (T != P) that --with-pid
# gives to nobody: the old UI rule took its payload tid T for a PID.
# shellcheck disable=SC2046  # the fields split on purpose
set -- $(awk -F '\t' '$1 == "-" &&
    match($4, /[{,] tid = [0-9]+, vtid = [0-9]+, pid = [0-9]+/) {
	s = substr($4, RSTART, RLENGTH); gsub(/[^0-9 ]/, "", s)
	split(s, v, " "); if (v[1] != v[3]) { print NR, v[1], v[3]; exit } }' \
    "$tmp/owned")
test $# -eq 3 || { echo "FAIL: fixture has no thread of another process"; exit 1; }
tl=$1 tid=$2 pid=$3
# --with-pid never names T as a PID; it names P from some line on.
cut -f1 "$tmp/owned" | grep -qx "$tid" &&
    { echo "FAIL: fixture: --with-pid names thread $tid as a PID"; exit 1; }
first=$(awk -F '\t' -v p="$pid" '$1 == p { print NR; exit }' "$tmp/owned")
test -n "$first" || { echo "FAIL: --with-pid never names PID $pid"; exit 1; }
tm() { dump_time "$(sed -n "${1}p" "$tmp/owned" | cut -f4)"; }
tf=$(tm "$first")
echo "# thread $tid (statedump line $tl) of process $pid, first line $first"

ui_start "$tmp/trace"
ok "started" ui_wait "Event"
ui_keys p; ui_wait "pid:" >/dev/null
ui_type "$tid"; ui_keys Enter
ok "p $tid: a thread's id is no PID, as --with-pid says" \
    ui_wait "no later event of PID $tid"
ui_keys g
ui_keys p; ui_wait "pid:" >/dev/null
ui_type "$pid"; ui_keys Enter
ok "p $pid: the first line --with-pid gives to it (line $first)" \
    ui_wait_sel "$tf"
ui_keys g
ui_type ":pid $tid"; ui_keys Enter
ok ":pid $tid: the same" ui_wait "no later event of PID $tid"
ui_keys g
ui_type ":pid $pid"; ui_keys Enter
ok ":pid $pid: the same line" ui_wait_sel "$tf"
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
