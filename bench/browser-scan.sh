#!/bin/sh
# browser-scan.sh TRACE: the browser's whole-trace scans as a person meets
# them, timed from the keystroke to the answer on screen (issue 11's
# rows): a regex search that matches nothing ('/' from the first event,
# until "pattern not found"), and :pid of a PID the trace does not have
# (until "no later event of PID"), typed first in a tview of its own and
# again after the search.  tview runs in a private tmux server,
# 200x50; the screen is read every 50 ms, so a figure includes up to 50 ms
# of polling (reading it every 20 ms, with a clock read each time, forked
# five processes per 20 ms beside a search using both cores).  Each scan
# is typed twice: right after the first screen (the background passes
# still running beside it) and after the state pass has ended
# ("indexing" gone from the status line); the search after the pass is
# typed three times, its median printed with the three runs.
#
#   Environment: TVIEW (the binary).  Prints one line per measurement:
#   "browser-scan: SCAN WHEN MS".
set -u
trace=$1
: "${TVIEW:=./tview}"
command -v tmux >/dev/null 2>&1 || { echo "browser-scan: no tmux" >&2; exit 77; }
sock=tvbench$$
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tview-bscan-XXXXXX")
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
LC_ALL=C.UTF-8 TZ=UTC HOME=$tmp TVIEW_STATE=off XDG_CACHE_HOME=$tmp/cache
export LC_ALL TZ HOME TVIEW_STATE XDG_CACHE_HOME
unset TMUX NO_COLOR

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
screen() { tmux -L "$sock" capture-pane -p -t 0 2>/dev/null; }
# wait_for TEXT SECONDS: poll the screen until TEXT shows; 1 on timeout
wait_for() {
	_n=$(( $2 * 20 ))
	while [ "$_n" -gt 0 ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.05
		_n=$(( _n - 1 ))
	done
	return 1
}
# wait_gone TEXT SECONDS
wait_gone() {
	_n=$(( $2 * 20 ))
	while [ "$_n" -gt 0 ]; do
		screen | grep -qF -- "$1" || return 0
		sleep 0.05
		_n=$(( _n - 1 ))
	done
	return 1
}
# scan ANSWER KEYS: type KEYS, the ms until ANSWER shows in $took
# ("timeout" if it does not)
scan() {
	tmux -L "$sock" send-keys -t 0 -l "$2"
	t0=$(now_ms)
	tmux -L "$sock" send-keys -t 0 Enter
	if wait_for "$1" 900; then
		took=$(( $(now_ms) - t0 ))
	else
		took=timeout
	fi
	# the answer off the message line before the next scan
	tmux -L "$sock" send-keys -t 0 Escape
	sleep 0.3
}
# timed NAME WHEN ANSWER KEYS: one scan, printed
timed() {
	scan "$3" "$4"
	echo "browser-scan: $1 $2 $took"
}
# timed3 NAME WHEN ANSWER KEYS: three scans from the first event, the
# median printed last (the figure), the three before it
timed3() {
	_runs=
	for _i in 1 2 3; do
		tmux -L "$sock" send-keys -t 0 g
		sleep 0.3
		scan "$3" "$4"
		_runs="$_runs $took"
	done
	echo "browser-scan: $1 $2 runs:$_runs"
	echo "browser-scan: $1 $2 $(printf '%s\n' $_runs | sort -n |
	    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
}

# start: tview on the trace in a new tmux server (a socket of its own:
# one being killed may still answer on the old), its first screen up,
# the tview before it gone (so it takes no core from this one)
runs=0
start() {
	_pane=$(tmux -L "$sock" display -p -t 0 '#{pane_pid}' 2>/dev/null)
	_old=
	[ -z "$_pane" ] || _old=$(pgrep -P "$_pane" 2>/dev/null | head -n 1)
	tmux -L "$sock" kill-server >/dev/null 2>&1
	# alive: not gone, and not a zombie nobody reaps
	_n=600
	while [ -n "$_old" ] && [ "$_n" -gt 0 ] &&
	    ps -o stat= -p "$_old" 2>/dev/null | grep -qv Z; do
		sleep 0.05
		_n=$(( _n - 1 ))
	done
	runs=$(( runs + 1 ))
	sock=tvbench$$-$runs
	rm -rf "$tmp/cache"
	tmux -L "$sock" -f /dev/null new-session -d -x 200 -y 50 \
	    "'$TVIEW' '$trace' 2>'$tmp/stderr'; sleep 600"
	wait_for "event 1 of" 60 ||
	    { echo "browser-scan: no first screen" >&2; exit 1; }
}

# :pid of an absent PID as the first thing typed, before any search has
# read the trace's tasks (pid-absent first)
start
timed "pid-absent" "first" "no later event of PID" ":pid 987654"
start
timed "regex-nomatch" "at-open" "pattern not found" "/zq9xnomatch"
timed "pid-absent" "at-open" "no later event of PID" ":pid 987654"
wait_gone "indexing" 900 || echo "browser-scan: state pass still running" >&2
timed3 "regex-nomatch" "after-pass" "pattern not found" "/zq9xnomatch"
timed "pid-absent" "after-pass" "no later event of PID" ":pid 987654"
