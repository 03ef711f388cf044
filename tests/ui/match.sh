#!/bin/sh
# % (the matching event): on a system call entry it goes to the exit of
# the same thread's call (the next syscall_exit_* of that TID in --dump
# --with-pid), % again comes back; on a wake-up (sched_waking) it goes to
# the sched_switch that puts the woken thread on a CPU, and back; on an
# event that is none of these it says so.
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 20000 --seed 4
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME
"$TVIEW" --dump --with-pid "$tmp/trace" >"$tmp/dp" 2>/dev/null
cut -f 4- "$tmp/dp" >"$tmp/dump"

# The first syscall_entry_read after line 2000 whose exit (the next
# syscall_exit_* of the same TID) is more than 50 events later: a call
# that blocked, so other threads ran in between.
# shellcheck disable=SC2046  # the fields split on purpose
set -- $(awk -F '\t' 'NR > 2000 && $4 ~ /syscall_entry_read:/ && !($2 in open) {
    open[$2] = NR; next }
    ($2 in open) && $4 ~ /syscall_exit_/ { if (NR - open[$2] > 50) {
    print open[$2], $2, NR; exit } delete open[$2] }' "$tmp/dp")
n=$1 tid=$2 m=$3
test -n "$m" || { echo "FAIL: no blocking read in the trace"; exit 1; }
entry=$(dump_time "$(dump_line "$n" "$tmp/dump")")
exit_t=$(dump_time "$(dump_line "$m" "$tmp/dump")")

# The first sched_waking after line 2000, the woken TID, its switch-in.
w=$(awk 'NR > 2000 && / sched_waking: / { print NR; exit }' "$tmp/dump")
wtid=$(sed -n "${w}p" "$tmp/dump" | sed -n 's/.* tid = \([0-9]*\),.*/\1/p')
s=$(awk -v w="$w" -v t="$wtid" 'NR > w && / sched_switch: / &&
    index($0, "next_tid = " t ",") { print NR; exit }' "$tmp/dump")
wake=$(dump_time "$(dump_line "$w" "$tmp/dump")")
switch=$(dump_time "$(dump_line "$s" "$tmp/dump")")

ui_start -x 120 -y 30 "$tmp/trace"
ok "started" ui_wait "Event"
ui_type ":goto #$n"; ui_keys Enter
ok "on the entry (event $n, TID $tid)" ui_wait_sel "$entry"
ui_type "%"
ok "% goes to its exit (event $m)" ui_wait_sel "$exit_t"
ui_type "%"
ok "% comes back to the entry" ui_wait_sel "$entry"

ui_type ":goto #$w"; ui_keys Enter
ok "on the wake-up of TID $wtid (event $w)" ui_wait_sel "$wake"
ui_type "%"
ok "% goes to its switch-in (event $s)" ui_wait_sel "$switch"
ui_type "%"
ok "% comes back to the wake-up" ui_wait_sel "$wake"

ui_type ":goto #1"; ui_keys Enter
ok "on the first event" ui_wait_sel "$(dump_time "$(dump_line 1 "$tmp/dump")")"
ui_type "%"
ok "% says it is none of them" ui_wait "none of them"
ok "q quits" ui_quit
done_tests
