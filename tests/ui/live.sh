#!/bin/sh
# The browser on an LTTng live session (issue 15, point 3): `tview
# --follow net://...` attached through the test's own relay daemon
# (tests/lttng-lib.sh) shows the events of each new batch as they arrive:
# within 3 s of a batch, the selected row is the session's last event
# and the status bar counts all of them, both taken from babeltrace2 on
# the relay daemon's own copy of the session.  q exits with 0 and the
# temporary mirror is gone.  Skips without LTTng or babeltrace2.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
command -v babeltrace2 >/dev/null 2>&1 ||
	{ echo "skip: babeltrace2 is not installed"; exit 77; }
# shellcheck source=../lttng-lib.sh
. "$top_srcdir/tests/lttng-lib.sh"
# shellcheck disable=SC2154 # _s is the loop variable inside the trap
trap 'for _s in $socks; do tmux -L "$_s" kill-server >/dev/null 2>&1; done
lttng_cleanup; rm -rf "$tmp"' EXIT
lttng_start || exit $?
s=tvui$$
as_tracer lttng create "$s" --live=100000 \
    --set-url="net://127.0.0.1:$C:$D" >/dev/null &&
    as_tracer lttng enable-event -u 'lttng_ust_libc:*' >/dev/null &&
    as_tracer lttng start >/dev/null || { echo "FAIL: lttng setup"; exit 1; }
mkdir "$tmp/mirror" || exit 99

# relay_copy: the relay daemon's trace directory of the session.
relay_copy() {
	find "$lh/out/$host" -maxdepth 1 -name "$s-*" | head -n 1
}
# newest: $t and $n, the time of the session's last event and how many
# there are, from babeltrace2 on the relay's copy, once two reads a
# second apart agree (flushed).
newest() {
	_prev=
	while :; do
		_now=$(babeltrace2 --clock-gmt --no-delta "$(relay_copy)" \
		    2>/dev/null | awk 'END { print substr($1, 2, 18), NR }')
		test "$_now" = "$_prev" && break
		_prev=$_now
		sleep 1
	done
	t=${_now% *} n=${_now#* }
}

lttng_traced ls / >/dev/null
newest
ui_start -x 140 -y 24 TMPDIR="$tmp/mirror" --follow "$url/host/$host/$s"
ok "--follow net://: the session's last event selected ($t)" \
    ui_wait_sel "$t"
ok "  and all $n events counted" ui_wait "of $n "

lttng_traced ls / >/dev/null
newest
ok "a new batch: its last event selected within 3 s ($t)" \
    ui_wait_sel "$t" 3
ok "  and the count is the session's ($n)" ui_wait "of $n " 3
lttng_traced ls / >/dev/null
newest
ok "another batch: its last event selected ($t)" ui_wait_sel "$t" 3
ok "quits with 0" ui_quit
gone() { test -z "$(ls -A "$tmp/mirror")"; }
ok "the mirror is removed" gone
done_tests
