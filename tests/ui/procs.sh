#!/bin/sh
# The process pane: P opens it at the selected event with the threads
# --processes prints for that instant, s changes the sort column, Enter
# on a thread restricts ] and [ to its events (the next and previous
# lines of --dump --with-pid with that TID; p to its process's), Enter
# again lifts it, Esc closes the pane.  On a real LTTng kernel trace
# (TVIEW_SHARED), the MODE column shows the execution-mode stack
# --processes prints.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 20000 --seed 3
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME
TVIEW_CACHE=off "$TVIEW" --dump --with-pid "$tmp/trace" >"$tmp/dp" \
    2>/dev/null
cut -f 4- "$tmp/dp" >"$tmp/dump"

# Line 10000 of the dump; a bash shell's thread is listed there.
n=10000
t0=$(dump_time "$(dump_line "$n" "$tmp/dump")")
"$TVIEW" --processes --at "$t0" "$tmp/trace" >"$tmp/procs" 2>/dev/null
bash_row=$(grep -m1 -E '^ +1510 +1510 +1502 bash ' "$tmp/procs")
test -n "$bash_row" || { echo "FAIL: no bash 1510 at $t0"; exit 1; }

ui_start "$tmp/trace"
ok "started" ui_wait "Event"
ui_type ":goto #$n"; ui_keys Enter
ok "on event $n" ui_wait_sel "$t0"
ui_keys P
ok "P opens the process pane" ui_wait "Processes:"
ok "and systemd" ui_wait "       1       1       1 systemd"
ui_keys s
ok "s sorts by TID" ui_wait "sorted by TID"
ui_keys s s s s s
ok "s cycles back to PID" ui_wait "sorted by PID"

# select bash 1510's row: the pane sorts by PID as --processes does,
# and starts on the first row
k=$(grep -n -m1 -E '^ +1510 +1510 +1502 bash ' "$tmp/procs" | cut -d: -f1)
i=2
while [ "$i" -lt "$k" ]; do
	ui_keys Down
	i=$((i + 1))
done
ok "the pane lists bash 1510 (child of sshd 1502)" \
    ui_wait "  1510    1510    1502 bash"
ui_keys Enter
ok "Enter restricts to TID 1510" ui_wait "events of TID 1510"
ok "the status bar shows it" ui_wait "[bash 1510]"

# ] and [: the next and previous lines whose TID column is 1510
next=$(awk -F '\t' -v n="$n" 'NR > n && $2 == "1510" { print NR; exit }' \
    "$tmp/dp")
prev=$(awk -F '\t' -v n="$next" 'NR < n && $2 == "1510" { p = NR }
    END { print p }' "$tmp/dp")
ui_keys Tab
if [ -n "$next" ]; then
	ui_keys "]"
	ok "] goes to the next event of TID 1510 (line $next)" \
	    ui_wait_sel "$(dump_time "$(dump_line "$next" "$tmp/dump")")"
	ui_keys "["
	if [ -n "$prev" ]; then
		tp=$(dump_time "$(dump_line "$prev" "$tmp/dump")")
		ok "[ goes back to the previous one (line $prev)" \
		    ui_wait_sel "$tp"
	fi
fi
# p: the restricted thread's process, named as a PID when it has none
# later (the last event has nothing after it)
ui_keys G
ui_keys p
ok "p past the process's last event: no later event of PID 1510" \
    ui_wait "no later event of PID 1510"
# A jump longer than one owner window (4,096 events): the thread with
# the longest gap between two of its events after line 2000.
# shellcheck disable=SC2046 # two numbers, split on purpose
set -- $(awk -F '\t' '$2 != "-" && $2 != 0 && $2 != 1510 {
	if (($2 in last) && NR - last[$2] > g && last[$2] > 2000) {
		g = NR - last[$2]; b = last[$2] " " $2 " " NR }
	last[$2] = NR } END { print b }' "$tmp/dp")
if [ $# -eq 3 ] && [ $(($3 - $1)) -gt 4096 ]; then
	from=$1 tid=$2 to=$3
	tf=$(dump_time "$(dump_line "$from" "$tmp/dump")")
	ui_type ":goto #$from"; ui_keys Enter
	ok "on line $from, an event of TID $tid" ui_wait_sel "$tf"
	"$TVIEW" --processes --at "$tf" "$tmp/trace" >"$tmp/procs2" \
	    2>/dev/null
	k=$(awk -v t="$tid" 'NR > 1 && $2 == t { print NR; exit }' \
	    "$tmp/procs2")
	ui_keys Tab g
	i=2
	while [ "$i" -lt "$k" ]; do
		ui_keys Down
		i=$((i + 1))
	done
	ui_keys Enter
	ok "Enter restricts to TID $tid" ui_wait "events of TID $tid"
	ui_keys Tab "]"
	ok "] crosses $(($to - $from)) events to line $to" \
	    ui_wait_sel "$(dump_time "$(dump_line "$to" "$tmp/dump")")"
	ui_keys "["
	ok "[ crosses them back to line $from" ui_wait_sel "$tf"
fi
ok "quits with 0" ui_quit

# The MODE column: on a real LTTng kernel trace (syscall entries and
# exits), the pane shows the execution-mode stack --processes prints for
# the same instant, e.g. "user>syscall" for a thread inside a syscall.
mt=${TVIEW_SHARED:+$TVIEW_SHARED/traces/ctf/tc-many-threads}
if [ -n "$mt" ] && [ -d "$mt" ]; then
	TVIEW_CACHE=off "$TVIEW" --dump "$mt" >"$tmp/mdump" 2>/dev/null
	n=$(( $(wc -l <"$tmp/mdump") / 2 ))
	tm=$(dump_time "$(dump_line "$n" "$tmp/mdump")")
	"$TVIEW" --processes --at "$tm" "$mt" >"$tmp/mprocs" 2>/dev/null
	k=$(awk 'NR > 1 && $NF ~ /syscall/ { print NR; exit }' "$tmp/mprocs")
	row=$(sed -n "${k:-0}p" "$tmp/mprocs" | sed 's/ *$//')
	if [ -n "$k" ] && [ -n "$row" ]; then
		ui_start "$mt"
		ok "real trace started" ui_wait "Event"
		ui_type ":goto #$n"; ui_keys Enter
		ok "on event $n" ui_wait_sel "$tm"
		ui_keys P
		ok "the pane has a MODE column" ui_wait "SINCE              MODE"
		i=2
		while [ "$i" -lt "$k" ]; do
			ui_keys Down
			i=$((i + 1))
		done
		ok "the row of a thread in a syscall, mode stack included" \
		    ui_wait "$row"
		ok "quits with 0 (real trace)" ui_quit
	else
		echo "ok - # SKIP no thread in a syscall at line $n"
	fi
else
	echo "ok - # SKIP no TVIEW_SHARED: no real kernel trace for MODE"
fi
done_tests
