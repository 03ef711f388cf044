#!/bin/sh
# ./build.sh asks before installing packages when run from a terminal,
# and does not ask with -y, under CI=true or without a terminal.  apt-get,
# sudo, dpkg-query and id are stubs that log what they are asked: nothing
# is installed.  The terminal is a tmux pane (skipped without tmux).

TV_TEST_NAME=build-sh
. "$(dirname "$0")/lib.sh"

bs=$top_srcdir/build.sh
stubs=$tmp/stubs
log=$tmp/apt.log
mkdir "$stubs"
printf '#!/bin/sh\nexit 1\n' >"$stubs/dpkg-query"
printf '#!/bin/sh\necho 1000\n' >"$stubs/id"
printf '#!/bin/sh\nexec "$@"\n' >"$stubs/sudo"
printf '#!/bin/sh\necho "apt-get $*" >>"%s"\n' "$log" >"$stubs/apt-get"
chmod +x "$stubs"/*
P=$stubs:$PATH

installed() { test -f "$log" && grep -q '^apt-get install' "$log"; }

# No terminal: installs without asking.
rm -f "$log"
env PATH="$P" CI= sh "$bs" deps </dev/null >"$tmp/out" 2>&1
ok "no terminal: exit 0" test $? -eq 0
ok "no terminal: no question" test "$(grep -c '\[Y/n\]' "$tmp/out")" -eq 0
ok "no terminal: apt-get install ran" installed

command -v tmux >/dev/null 2>&1 || { echo "skip: no tmux"; tv_test_done; exit; }
runs=0
socks=
# shellcheck disable=SC2154  # s is the loop variable, set when it runs
trap 'for s in $socks; do tmux -L "$s" kill-server >/dev/null 2>&1; done
rm -rf "$tmp"' EXIT

# in_tty ENV ARGS: run build.sh ARGS in a fresh tmux server's pane, wide
# enough for the question to fit one line.
in_tty() {
	runs=$((runs + 1))
	sock=tvbuild$$-$runs
	socks="$socks $sock"
	rm -f "$log"
	tmux -L "$sock" -f /dev/null new-session -d -x 400 -y 20 \
	    "env PATH='$P' $1 sh '$bs' $2; echo BUILD-EXIT:\$?; sleep 60"
}
screen() { tmux -L "$sock" capture-pane -p -t 0; }
wait_for() {
	n=200
	while [ $n -gt 0 ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.05; n=$((n - 1))
	done
	echo "timeout waiting for: $1"; screen; return 1
}

in_tty CI= deps
ok "terminal: asks first" wait_for "[Y/n]"
ok "terminal: nothing installed before the answer" sh -c '! test -f "$0"' "$log"
tmux -L "$sock" send-keys -t 0 n Enter
ok "answer n: exits 1" wait_for "BUILD-EXIT:1"
ok "answer n: says what to type" wait_for "sudo apt-get install"
ok "answer n: nothing installed" sh -c '! test -f "$0"' "$log"

in_tty CI= deps
wait_for "[Y/n]" >/dev/null
tmux -L "$sock" send-keys -t 0 Enter
ok "answer Enter (yes): exits 0" wait_for "BUILD-EXIT:0"
ok "answer Enter (yes): apt-get install ran" installed

in_tty CI=true deps
ok "CI=true: exits 0 without asking" wait_for "BUILD-EXIT:0"
ok "CI=true: no question" test "$(screen | grep -c '\[Y/n\]')" -eq 0
ok "CI=true: apt-get install ran" installed

in_tty CI= "-y deps"
ok "-y: exits 0 without asking" wait_for "BUILD-EXIT:0"
ok "-y: no question" test "$(screen | grep -c '\[Y/n\]')" -eq 0
ok "-y: apt-get install ran" installed
tv_test_done
