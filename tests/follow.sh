#!/bin/sh
# tview --dump --follow on a CTF trace written while it runs: gen-ctf's
# trace (3 CPUs, 4 KiB packets) is copied into a new directory a few
# KiB at a time, cutting packets in the middle, by a writer that keeps
# every file open for writing until it is done, as LTTng's consumer
# daemon does until the session is destroyed.  The CPU 2 file stays
# empty for a while (a stream not known yet), and after its 20th packet
# CPU 0 goes on in a second file (tracefile rotation).  What is checked:
#  - half way through, tview is still running and has printed some of
#    the events but not all: it follows, it does not wait for the end;
#  - once the writer closes its files, tview ends by itself, exit 0,
#    and what it printed equals `tview --dump` of the finished trace
#    and of the original, byte for byte (so, in time order);
#  - SIGINT while following: exit 0, what was printed is a prefix of
#    the whole dump;
#  - an empty metadata file that a writer holds open is waited for, 6 s
#    here, then the trace is dumped whole;
#  - a trace.dat cannot be followed: exit 1 and a message saying so;
#  - --follow with --begin, or with --info: usage error (2).

TV_TEST_NAME=follow
# shellcheck source=lib.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
test -x "$GEN_CTF" || { echo "skip: no $GEN_CTF"; exit 77; }
: "${TD_GEN:=$top_builddir/td-gen}"

"$GEN_CTF" --quiet --cpus 3 --events 20000 --packet-size 4096 \
    "$tmp/src" >/dev/null || exit 99
"$TVIEW" --dump "$tmp/src" >"$tmp/full" || exit 99
total=$(wc -l <"$tmp/full")

CHUNK=3000
ROTATE=$((20 * 4096))
LAG=$((10 * CHUNK))

# feed FROM TO: copy bytes [FROM, TO) of every stream file, CHUNK at a
# time, round robin; CPU 0 past ROTATE goes to channel0_0_1, CPU 2
# lags LAG bytes behind.
feed() {
	_off=$1
	while test "$_off" -lt "$2"; do
		piece "$tmp/src/channel0_1" "$_off" "$CHUNK" >&4
		if test "$_off" -ge "$LAG"; then
			piece "$tmp/src/channel0_2" $((_off - LAG)) "$CHUNK" >&5
		fi
		if test "$_off" -lt "$ROTATE"; then
			_n=$((ROTATE - _off))
			test "$_n" -gt "$CHUNK" && _n=$CHUNK
			piece "$tmp/src/channel0_0" "$_off" "$_n" >&3
			test "$_n" -lt "$CHUNK" &&
			    piece "$tmp/src/channel0_0" "$ROTATE" \
			    $((CHUNK - _n)) >&6
		else
			piece "$tmp/src/channel0_0" "$_off" "$CHUNK" >&6
		fi
		_off=$((_off + CHUNK))
		sleep 0.01
	done
}

live=$tmp/live
mkdir "$live" || exit 99
cp "$tmp/src/metadata" "$live/" || exit 99
: >"$live/channel0_0"; : >"$live/channel0_1"; : >"$live/channel0_2"
exec 3>>"$live/channel0_0" 4>>"$live/channel0_1" 5>>"$live/channel0_2"
: >"$tmp/out"
"$TVIEW" --dump --follow "$live" >"$tmp/out" 2>"$tmp/err" &
pid=$!
half=$(($(wc -c <"$tmp/src/channel0_0") / 2 / CHUNK * CHUNK))
feed 0 "$half" 6>>"$live/channel0_0_1"
wait_lines "$tmp/out" 1 "$pid"
n=$(wc -l <"$tmp/out")
ok "half way: still following" kill -0 "$pid"
ok "half way: some events printed ($n of $total)" \
    test "$n" -gt 0 -a "$n" -lt "$total"
end=$(wc -c <"$tmp/src/channel0_0")
feed "$half" "$end" 6>>"$live/channel0_0_1"
exec 3>&- 4>&- 5>&-
# tview ends once the writer is gone (10 s at most)
wait_exit "$pid"
ok "tview ends within 10 s after the writer closed" test "$killed" -eq 0
follow_checks "$tmp/out" "$tmp/err" "$live" "$tmp/full" \
    "the whole dump"

# SIGINT while following a trace whose writer is still there
exec 3>>"$live/channel0_1"
: >"$tmp/out2"
"$TVIEW" --dump --follow "$live" >"$tmp/out2" 2>"$tmp/err2" &
pid=$!
wait_lines "$tmp/out2" 1 "$pid"
kill -INT "$pid"
wait "$pid"
rc=$?
exec 3>&-
ok "SIGINT: exit 0" test "$rc" -eq 0
n=$(wc -l <"$tmp/out2")
head -n "$n" "$tmp/full" >"$tmp/prefix"
ok "SIGINT: printed a prefix of the dump ($n lines)" \
    test "$n" -gt 0 -a -s "$tmp/out2" -a ! -s "$tmp/err2"
ok "SIGINT: the lines are the dump's first ones" \
    cmp -s "$tmp/out2" "$tmp/prefix"

# LTTng writes data before metadata: an empty metadata file held open
# by a writer is waited for (past the 5 s tview waits for a trace
# nobody writes), then the trace is followed to its end.  Each failed
# open is held 1.5 s (a slow machine), so that one fails just before the
# writer writes and closes: the question "who writes" that follows must
# not end the wait on what that open saw.
mkdir "$tmp/late" || exit 99
cp "$tmp/src"/channel0_* "$tmp/late/" && : >"$tmp/late/metadata" || exit 99
exec 3>>"$tmp/late/metadata"
TVIEW_TEST_SLOW_OPEN=1500 "$TVIEW" --dump --follow "$tmp/late" \
    >"$tmp/out4" 2>"$tmp/err4" &
pid=$!
sleep 7
cat "$tmp/src/metadata" >&3
exec 3>&-
wait "$pid"
rc=$?
test -s "$tmp/err4" && sed 's/^/# /' "$tmp/err4"
ok "metadata written late: exit 0" test "$rc" -eq 0
ok "metadata written late: the whole dump" cmp -s "$tmp/out4" "$tmp/full"

if test -x "$TD_GEN"; then
	"$TD_GEN" --events 100 "$tmp/t.dat" || exit 99
	"$TVIEW" --dump --follow "$tmp/t.dat" >/dev/null 2>"$tmp/err3"
	rc=$?
	ok "trace.dat: exit 1" test "$rc" -eq 1
	ok "trace.dat: says it cannot follow" grep -q "cannot be followed" \
	    "$tmp/err3"
fi
"$TVIEW" --dump --follow --begin 10% "$tmp/src" >/dev/null 2>&1
ok "--follow --begin: usage error" test $? -eq 2
"$TVIEW" --info --follow "$tmp/src" >/dev/null 2>&1
ok "--info --follow: usage error" test $? -eq 2
tv_test_done
