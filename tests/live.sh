#!/bin/sh
# LTTng live (issue 15, point 3): tview reads a tracing session from
# lttng-relayd over the live protocol, with babeltrace2 as the oracle.
#  - net://HOST:PORT lists the relay's sessions, with the URL to open;
#  - babeltrace2's lttng-live source attaches first and prints what a
#    first batch of events brings; it is then stopped (the relay lets one
#    viewer attach at a time) and `tview --dump net://...` attaches, from
#    the session's beginning, while a second batch runs, until the
#    session is destroyed.  tview's output must start with exactly what
#    babeltrace2 printed, hold more (the second batch), and equal
#    babeltrace2 on the trace the relay daemon wrote for the session;
#  - an unknown session, a port nobody listens on and a bad URL are
#    one-line errors; the temporary mirror is removed.
# The daemons are the test's own: its LTTNG_HOME, loopback ports, run as
# `nobody` when the test runs as root, killed at the end.  Events come
# from lttng-ust's libc wrapper (malloc/free of `ls`), no compiler needed.
# Skips without lttng, lttng-sessiond, lttng-relayd, babeltrace2 or the
# wrapper.

TV_TEST_NAME=live
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

for c in lttng lttng-sessiond lttng-relayd babeltrace2; do
	command -v "$c" >/dev/null 2>&1 ||
		{ echo "SKIP: $c is not installed"; exit 77; }
done
wrapper=liblttng-ust-libc-wrapper.so.1
ldconfig -p 2>/dev/null | grep -qF "$wrapper" ||
	{ echo "SKIP: no $wrapper (liblttng-ust1)"; exit 77; }

lh=$tmp/lttng
mkdir -p "$lh" "$tmp/mirror" && chmod 1777 "$tmp" "$lh" || exit 99
# as_tracer CMD...: CMD as the user who owns the daemons.
as_tracer() {
	if test "$(id -u)" = 0; then
		env HOME="$lh" LTTNG_HOME="$lh" setpriv --reuid=nobody \
		    --regid=nogroup --clear-groups "$@"
	else
		env HOME="$lh" LTTNG_HOME="$lh" "$@"
	fi
}
# as_tracer_bg CMD...: as_tracer in the background; its pid in $bgpid
# (env and setpriv exec, so it is CMD's own pid).
as_tracer_bg() {
	if test "$(id -u)" = 0; then
		env HOME="$lh" LTTNG_HOME="$lh" setpriv --reuid=nobody \
		    --regid=nogroup --clear-groups "$@" &
	else
		env HOME="$lh" LTTNG_HOME="$lh" "$@" &
	fi
	bgpid=$!
}
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# wait_for SECONDS CMD...: poll every 0.1 s until CMD succeeds.
wait_for() {
	_n=$(($1 * 10)); shift
	while test "$_n" -gt 0; do
		"$@" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}

as_tracer_bg lttng-sessiond >"$tmp/sessiond.log" 2>&1
pids="$pids $bgpid"
wait_for 20 as_tracer lttng list >/dev/null 2>&1 ||
	{ echo "SKIP: lttng-sessiond did not start"; exit 77; }
# three free loopback ports
base=$((20000 + ($$ % 4000) * 3))
tries=0
while :; do
	C=$base D=$((base + 1)) L=$((base + 2))
	as_tracer_bg lttng-relayd -C "tcp://127.0.0.1:$C" \
	    -D "tcp://127.0.0.1:$D" -L "tcp://127.0.0.1:$L" -o "$lh/out" \
	    >"$tmp/relayd.log" 2>&1
	rd=$bgpid
	sleep 0.5
	kill -0 "$rd" 2>/dev/null && break
	tries=$((tries + 1))
	test "$tries" -lt 10 || { echo "SKIP: lttng-relayd did not start"; exit 77; }
	base=$((base + 7))
done
pids="$rd $pids"
url=net://127.0.0.1:$L
host=$(hostname)
s=tvlive$$

if ! as_tracer lttng create "$s" --live=100000 \
    --set-url="net://127.0.0.1:$C:$D" >/dev/null ||
    ! as_tracer lttng enable-event -u 'lttng_ust_libc:*' >/dev/null ||
    ! as_tracer lttng start >/dev/null; then
	echo "FAIL: lttng setup"; exit 1
fi

# batch: one `ls` traced through the libc wrapper.
batch() {
	as_tracer env LD_PRELOAD="$wrapper" ls / >/dev/null
}
# clients N: the session is listed with N viewers attached.
clients() {
	"$TVIEW" "$url" 2>/dev/null | grep -qF "/host/$host/$s (timer = 100000, " &&
	"$TVIEW" "$url" 2>/dev/null | grep -F "/host/$host/$s " |
	    grep -qF ", $1 client(s) connected)"
}

ok "net://HOST:PORT lists the session with its URL" wait_for 10 clients 0

TMPDIR=$tmp/mirror
export TMPDIR
# line-buffered: it may have to be stopped by SIGTERM (below)
stdbuf -oL babeltrace2 --clock-gmt --no-delta --input-format=lttng-live \
    "$url/host/$host/$s" >"$tmp/bt-live" 2>"$tmp/bt-live.err" &
bt=$!
pids="$bt $pids"
wait_for 20 clients 1 || { echo "FAIL: babeltrace2 did not attach"; exit 1; }
batch
# babeltrace2 printed at least one line, then no more for a second
grown() { test -s "$tmp/bt-live"; }
wait_for 20 grown
n0=-1
while test "$n0" != "$(wc -l <"$tmp/bt-live")"; do
	n0=$(wc -l <"$tmp/bt-live")
	sleep 1
done
# babeltrace2 2.0 may keep retrying the relay after SIGINT
kill -INT "$bt"
gone() { ! kill -0 "$bt" 2>/dev/null; }
wait_for 5 gone || kill -TERM "$bt"
wait "$bt" 2>/dev/null
wait_for 20 clients 0 || { echo "FAIL: babeltrace2 did not detach"; exit 1; }

timeout 120 "$TVIEW" --dump "$url/host/$host/$s" >"$tmp/tv-live" \
    2>"$tmp/tv-live.err" &
tv=$!
pids="$tv $pids"
ok "tview attaches as a viewer" wait_for 20 clients 1
batch
sleep 1
as_tracer lttng destroy "$s" >/dev/null
wait "$tv"
rc=$?
ok "--dump ends with status 0 once the session is destroyed" test "$rc" = 0
test "$rc" = 0 || cat "$tmp/tv-live.err"

d=$(find "$lh/out/$host" -maxdepth 1 -name "$s-*" | head -n 1)
babeltrace2 --clock-gmt --no-delta "$d" >"$tmp/bt-disk" 2>/dev/null
nb=$(wc -l <"$tmp/bt-live")
ok "babeltrace2's lttng-live printed the first batch ($nb lines)" \
    test "$nb" -gt 0
prefix() { head -n "$nb" "$tmp/tv-live" | cmp -s - "$tmp/bt-live"; }
ok "tview's output starts with what babeltrace2 printed live" prefix
more() { test "$(wc -l <"$tmp/tv-live")" -gt "$nb"; }
ok "and holds the second batch ($(wc -l <"$tmp/tv-live") lines)" more
ok "it equals babeltrace2 on the relay's copy of the session" \
    cmp -s "$tmp/tv-live" "$tmp/bt-disk"
empty() { test -z "$(ls -A "$tmp/mirror")"; }
ok "the mirror is removed" empty

"$TVIEW" --dump "$url/host/$host/nosuch" >/dev/null 2>"$tmp/err"
rc=$?
ok "an unknown session: status 1" test "$rc" = 1
ok "  and a one-line error naming it" grep -q "no session nosuch of host" "$tmp/err"
"$TVIEW" --dump "net://127.0.0.1:1/host/$host/$s" >/dev/null 2>"$tmp/err"
rc=$?
ok "a port nobody listens on: status 1" test "$rc" = 1
"$TVIEW" --dump "net://127.0.0.1/no/such" >/dev/null 2>"$tmp/err"
rc=$?
ok "a bad URL: a usage error" test "$rc" = 2
ok "  saying what a URL looks like" grep -q "net://HOST\[:PORT\]" "$tmp/err"
tv_test_done
