#!/bin/sh
# The process pane of a trace set followed while a trace directory is
# added to it (issue 15, point 2: views extend in place).  tview
# --follow shows a directory holding one gen-ctf trace and P opens the
# process pane; then a second trace of the same host (another seed,
# other processes) is moved in.  Once the status bar counts the events
# of both, :goto an event of the new trace: the pane, opened before the
# trace came, lists its processes in the states `tview --processes --at`
# of the whole set gives (a state made before the trace came must take
# in its events).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

mkdir "$tmp/root" || exit 99
gen_trace "$tmp/root/a" --cpus 2 --events 20000 --seed 3
gen_trace "$tmp/b" --cpus 2 --events 20000 --seed 5
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME

# the reference: the whole set, at event 19000 of 40000: the second trace
# (seed 5) runs before the first one starts, so the state there is all
# replayed from its events
cp -r "$tmp/b" "$tmp/whole-b" && mkdir "$tmp/whole" &&
    cp -r "$tmp/root/a" "$tmp/whole/a" && mv "$tmp/whole-b" "$tmp/whole/b" ||
    exit 99
n=19000
"$TVIEW" --dump "$tmp/whole" >"$tmp/dump" 2>/dev/null
t0=$(dump_time "$(dump_line "$n" "$tmp/dump")")
"$TVIEW" --processes --at "$t0" "$tmp/whole" >"$tmp/procs" 2>/dev/null
"$TVIEW" --processes --at "$t0" "$tmp/root/a" >"$tmp/procs-a" 2>/dev/null
# the rows the second trace brings or changes: PID TID PPID NAME STATE
# CPU SINCE; the last five (the highest PIDs: the pane's last rows)
grep -vxF -f "$tmp/procs-a" "$tmp/procs" |
    awk '{ print $1, $2, $3, $4, $5, $6, $7 }' | tail -n 5 >"$tmp/new-rows"
test -s "$tmp/new-rows" ||
    { echo "FAIL: no process only the second trace runs at $t0"; exit 1; }

ui_start --follow "$tmp/root"
ok "following the first trace" ui_wait "of 20000"
ui_keys P
ok "P opens the process pane before the second trace comes" \
    ui_wait "Processes:"
mv "$tmp/b" "$tmp/root/b"
ok "the second trace is taken in: 40000 events" ui_wait "of 40000"
ui_type ":goto #$n"; ui_keys Enter
ok "on event $n" ui_wait_sel "$t0"
# the pane has the focus since P: G goes to its last rows; again while
# a row is missing, since G goes to the last row the pane had then (on a
# loaded machine the pane can still be taking the new trace's processes
# in when G comes: CI saw the last two rows below the screen)
ui_keys G
on_screen() {
	ui_screen | grep -qE -- "$1" && return 0
	ui_keys G
	return 1
}
# shellcheck disable=SC2034 # pid: a column of the row, not used
while read -r pid tid ppid name state cpu since; do
	case $pid in 0) continue ;; esac	# idle tasks: CPUs shared
	ok "the pane lists $name $tid (of $ppid) $state on CPU $cpu since \
$since, as --processes" \
	    ui_poll on_screen " $tid +$ppid +$name +$state +$cpu +$since"
done <"$tmp/new-rows"
ok "quits with 0" ui_quit
done_tests
