#!/bin/sh
# tview --dump --follow on a real LTTng-UST session while it records
# (../shared/tools/record-ust-trace.sh, per-UID buffers, 64 KiB packets;
# once with tracefile rotation, 256 KiB files).  tview starts as soon
# as the session's first stream file holds a packet.  What is checked:
#  - lines come out before the recorder exits: it follows;
#  - tview ends by itself once the recorder destroys the session, exit 0,
#    on stderr what --dump of the finished trace prints there (nothing,
#    or the tracer's discarded events when the machine made it drop);
#  - what it printed equals `babeltrace2 --clock-gmt --no-delta` of the
#    finished trace, byte for byte.
# Skips (exit 77) without ../shared/tools, root or babeltrace2.

TV_TEST_NAME=follow-lttng
# shellcheck source=lib.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
rec="${TVIEW_SHARED:-}/tools/record-ust-trace.sh"
test -n "${TVIEW_SHARED:-}" && test -x "$rec" ||
    { echo "skip: no shared tools (../shared is not beside the tree)"; exit 77; }
test "$(id -u)" = 0 || { echo "skip: recording with LTTng needs root"; exit 77; }
command -v babeltrace2 >/dev/null ||
    { echo "skip: babeltrace2 not installed"; exit 77; }

# first_packet DIR PID: wait (300 s at most, while PID runs: it may wait
# for another test's recording to end first) until a
# stream file under DIR holds a packet; its trace directory on stdout.
first_packet() {
	_i=0
	while test "$_i" -lt 6000 && kill -0 "$2" 2>/dev/null; do
		_f=$(find "$1" -type f -name 'ch0_*' ! -name '*.idx' -size +0 \
		    2>/dev/null | head -n 1)
		if test -n "$_f"; then
			dirname "$_f"
			return 0
		fi
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}

# follow NAME NEVENTS RECORDER-OPTIONS...
follow() {
	_name=$1 _n=$2
	shift 2
	_out=$tmp/$_name
	# one LTTng recording at a time (tests/ust-live.sh says why)
	flock -o "${TMPDIR:-/tmp}/tview-ust-record.lock" "$rec" --no-verify \
	    --threads 2 --subbuf-size 64K "$@" "$_out" "$_n" \
	    >"$tmp/$_name.log" 2>&1 &
	_rpid=$!
	if ! _dir=$(first_packet "$_out" "$_rpid"); then
		wait "$_rpid"
		echo "FAIL - $_name: no stream file written:"
		tail -5 "$tmp/$_name.log" | sed 's/^/# /'
		fails=$((fails + 1))
		return
	fi
	: >"$tmp/$_name.tv"
	"$TVIEW" --dump --follow "$_dir" >"$tmp/$_name.tv" \
	    2>"$tmp/$_name.err" &
	_tpid=$!
	_seen=0
	while kill -0 "$_rpid" 2>/dev/null; do
		_seen=$(wc -l <"$tmp/$_name.tv")
		sleep 0.05
	done
	wait "$_rpid"
	_rrc=$?
	wait_exit "$_tpid"
	_rc=$rc
	ok "$_name: the recorder worked" test "$_rrc" -eq 0
	ok "$_name: lines printed before the recorder exited ($_seen)" \
	    test "$_seen" -gt 0
	ok "$_name: ends by itself when the session is destroyed, exit 0" \
	    test "$_rc" -eq 0
	# stderr: what --dump of the finished trace says there (nothing, or
	# the tracer's discarded events when a loaded machine made it drop
	# some, as babeltrace2 warns too)
	"$TVIEW" --dump "$_dir" >/dev/null 2>"$tmp/$_name.err2"
	ok "$_name: stderr as --dump's of the finished trace" \
	    cmp -s "$tmp/$_name.err" "$tmp/$_name.err2"
	sed 's/^/# /' "$tmp/$_name.err" | head -3
	babeltrace2 --clock-gmt --no-delta "$_dir" >"$tmp/$_name.bt2" \
	    2>/dev/null
	ok "$_name: equals babeltrace2 ($(wc -l <"$tmp/$_name.bt2") lines)" \
	    cmp -s "$tmp/$_name.tv" "$tmp/$_name.bt2"
}

follow uid 500000
follow rotation 300000 --channel-opts "--tracefile-size=256K --tracefile-count=0"
tv_test_done
