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
#  - `--dump --follow net://...` prints each batch while the session
#    records, ends when it is destroyed, and equals babeltrace2 on the
#    relay's copy;
#  - an unknown session, a port nobody listens on and a bad URL are
#    one-line errors; the temporary mirror is removed.
# The daemons are the test's own: its LTTNG_HOME, loopback ports, run as
# `nobody` when the test runs as root, killed at the end.  Events come
# from lttng-ust's libc wrapper (malloc/free of `ls`), no compiler needed.
# Skips without lttng, lttng-sessiond, lttng-relayd, babeltrace2 or the
# wrapper.

TV_TEST_NAME=live
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

command -v babeltrace2 >/dev/null 2>&1 ||
	{ echo "SKIP: babeltrace2 is not installed"; exit 77; }
# shellcheck source=lttng-lib.sh
. "$top_srcdir/tests/lttng-lib.sh"
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	lttng_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
lttng_start || exit $?
mkdir -p "$tmp/mirror" || exit 99
s=tvlive$$

if ! as_tracer lttng create "$s" --live=100000 \
    --set-url="net://127.0.0.1:$C:$D" >/dev/null ||
    ! as_tracer lttng enable-event -u 'lttng_ust_libc:*' >/dev/null ||
    ! as_tracer lttng start >/dev/null; then
	echo "FAIL: lttng setup"; exit 1
fi

# batch: one `ls` traced through the libc wrapper.
batch() {
	lttng_traced ls / >/dev/null
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

# --dump --follow: the lines of each batch come out while the session
# records (an idle CPU's stream is passed by the relay's beacons), and
# in the end they are babeltrace2's lines of the relay's copy.
s2=tvfollow$$
as_tracer lttng create "$s2" --live=100000 \
    --set-url="net://127.0.0.1:$C:$D" >/dev/null &&
    as_tracer lttng enable-event -u 'lttng_ust_libc:*' >/dev/null &&
    as_tracer lttng start >/dev/null || { echo "FAIL: lttng setup"; exit 1; }
batch
timeout 120 "$TVIEW" --dump --follow "$url/host/$host/$s2" \
    >"$tmp/tv-follow" 2>"$tmp/tv-follow.err" &
tv=$!
pids="$tv $pids"
lines() { test "$(wc -l <"$tmp/tv-follow")" -ge "$1"; }
ok "--dump --follow: the first batch printed while recording" \
    wait_for 10 lines 1
n1=$(wc -l <"$tmp/tv-follow")
batch
ok "  and the second batch too, before the session ends" \
    wait_for 10 lines $((n1 + 1))
as_tracer lttng destroy "$s2" >/dev/null
wait "$tv"
rc=$?
ok "  it ends with status 0 once the session is destroyed" test "$rc" = 0
d=$(find "$lh/out/$host" -maxdepth 1 -name "$s2-*" | head -n 1)
babeltrace2 --clock-gmt --no-delta "$d" >"$tmp/bt-disk2" 2>/dev/null
ok "  its lines are babeltrace2's of the relay's copy" \
    cmp -s "$tmp/tv-follow" "$tmp/bt-disk2"

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
