# shellcheck shell=sh
# Shared by tests/ui/*.sh: run tview inside a private tmux server and read
# its screen.  Everything waits by polling capture-pane every 50 ms until a
# string shows up (or a timeout passes): no fixed sleeps.  The environment
# is pinned (LC_ALL=C.UTF-8, TZ=UTC, HOME=a temporary directory,
# TVIEW_STATE=off) and the
# tmux server is always killed on exit.
#
# Expects: top_srcdir, top_builddir, TVIEW (set by make check; defaults
# work from the source tree).  Exit codes: 0 pass, 1 fail, 77 skip.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
TV_TEST_NAME=ui
# shellcheck source=../lib.sh
. "$top_srcdir/tests/lib.sh"
: "${TVIEW_SHARED:=$top_srcdir/../shared}"
: "${UI_TIMEOUT:=20}"

command -v tmux >/dev/null 2>&1 || { echo "skip: no tmux"; exit 77; }
test -x "$TVIEW" || { echo "skip: no $TVIEW"; exit 77; }

sock=tvtest$$
socks=
starts=0
LC_ALL=C.UTF-8
TZ=UTC
HOME=$tmp
LANGUAGE=
# no position memory between runs unless a test asks for it
TVIEW_STATE=off
export LC_ALL TZ HOME LANGUAGE TVIEW_STATE
unset NO_COLOR TMUX
# shellcheck disable=SC2154 # _s is the loop variable inside the trap
trap 'for _s in $socks; do tmux -L "$_s" kill-server >/dev/null 2>&1; done
rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# After a failed check, show the screen it was judged on.
ui_show_screen() {
	echo "--- screen:"; ui_screen; echo "---"
}
TV_ON_FAIL=ui_show_screen

# done_tests: the exit status of the test script.
done_tests() {
	tv_test_done
}

# gen_trace DIR ARGS...: a generated CTF trace (skips without gen-ctf).
gen_trace() {
	_d=$1; shift
	test -x "$GEN_CTF" || { echo "skip: no $GEN_CTF"; exit 77; }
	"$GEN_CTF" --quiet "$@" "$_d" >/dev/null || { echo "gen-ctf failed"; exit 99; }
}

# ui_start [-x W] [-y H] [ENV=V...] ARGS...: start tview in a new server.
# $UI_AFTER, when set, is shell text run after tview exits ("cmd;").
ui_start() {
	_w=100; _h=30
	while :; do
		case $1 in
		-x) _w=$2; shift 2 ;;
		-y) _h=$2; shift 2 ;;
		*) break ;;
		esac
	done
	_cmd="env"
	while :; do
		case $1 in
		*=*) _cmd="$_cmd '$1'"; shift ;;
		*) break ;;
		esac
	done
	_cmd="$_cmd '$TVIEW'"
	for _arg in "$@"; do
		_cmd="$_cmd '$_arg'"
	done
	starts=$((starts + 1))
	sock=tvtest$$-$starts	# a fresh server each time: no shutdown races
	socks="$socks $sock"
	tmux -L "$sock" -f /dev/null new-session -d -x "$_w" -y "$_h" \
	    "$_cmd 2>'$tmp/stderr'; echo TVIEW-EXIT:\$?; ${UI_AFTER:-} sleep 600"
}

# ui_stop: end the current tmux server (and tview in it).
ui_stop() {
	tmux -L "$sock" kill-server >/dev/null 2>&1
}

# ui_pid: the process id of tview in the current server.
ui_pid() {
	pgrep -P "$(tmux -L "$sock" display -p -t 0 '#{pane_pid}')" | head -1
}

# ui_keys KEYS...: send keys as tmux send-keys names them.
ui_keys() {
	tmux -L "$sock" send-keys -t 0 "$@"
}

# ui_type TEXT: send TEXT literally.
ui_type() {
	tmux -L "$sock" send-keys -t 0 -l "$1"
}

# ui_screen: the screen as text.
ui_screen() {
	tmux -L "$sock" capture-pane -p -t 0 2>/dev/null
}

# ui_screen_sgr: the screen with its attributes as SGR escape sequences.
ui_screen_sgr() {
	tmux -L "$sock" capture-pane -e -p -t 0 2>/dev/null
}

# ui_sel: the selected row of the event list (marked with '>').
ui_sel() {
	ui_screen | grep -m1 '^>'
}

# ui_wait STRING [SECONDS]: poll until STRING is on screen.
ui_wait() {
	test -n "$1" || { echo "ui_wait: empty string"; return 1; }
	_n=$(( ${2:-$UI_TIMEOUT} * 20 ))
	while [ "$_n" -gt 0 ]; do
		ui_screen | grep -qF -- "$1" && return 0
		sleep 0.05
		_n=$((_n - 1))
	done
	echo "timeout waiting for: $1"
	return 1
}

# ui_wait_gone STRING [SECONDS]: poll until STRING is not on screen.
ui_wait_gone() {
	_n=$(( ${2:-$UI_TIMEOUT} * 20 ))
	while [ "$_n" -gt 0 ]; do
		ui_screen | grep -qF -- "$1" || return 0
		sleep 0.05
		_n=$((_n - 1))
	done
	echo "timeout waiting for the end of: $1"
	return 1
}

# ui_wait_sel STRING [SECONDS]: poll until the selected row holds STRING.
ui_wait_sel() {
	test -n "$1" || { echo "ui_wait_sel: empty string"; return 1; }
	_n=$(( ${2:-$UI_TIMEOUT} * 20 ))
	while [ "$_n" -gt 0 ]; do
		ui_sel | grep -qF -- "$1" && return 0
		sleep 0.05
		_n=$((_n - 1))
	done
	echo "timeout: selected row never showed: $1"
	echo "selected: $(ui_sel)"
	return 1
}

# ui_poll CMD...: poll until the shell command CMD succeeds.
ui_poll() {
	_n=$((UI_TIMEOUT * 20))
	while [ "$_n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.05
		_n=$((_n - 1))
	done
	echo "timeout waiting for: $*"
	return 1
}

# ui_rows: how many event rows are on screen.
ui_rows() {
	ui_screen | grep -c '^[ >][0-9][0-9]:'
}

# ui_quit: q until tview exits (q closes the focused pane first, then
# quits from the event list; at most one q per pane), with status 0.
ui_quit() {
	_q=0
	while [ "$_q" -lt 8 ]; do
		ui_keys q
		ui_wait "TVIEW-EXIT:" 2 >/dev/null && break
		_q=$((_q + 1))
	done
	ui_wait "TVIEW-EXIT:" || return 1
	ui_screen | grep -qF "TVIEW-EXIT:0"
}

# dump_line N FILE: line N of a --dump output.
dump_line() {
	sed -n "${1}p" "$2"
}

# dump_time LINE: the [HH:MM:SS.nnnnnnnnn] of a --dump line.
dump_time() {
	printf '%s\n' "$1" | sed -n 's/^\[\([^]]*\)\].*/\1/p'
}

# dump_name LINE: the event name of a --dump line.
dump_name() {
	printf '%s\n' "$1" |
	    sed -n 's/^\[[^]]*\] \(([^)]*) \)\{0,1\}[^ ]* \([^ ]*\): .*/\2/p'
}
