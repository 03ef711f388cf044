#!/bin/sh
# Records fresh LTTng-UST traces with the real tracer on this machine and
# checks that `tview --dump` prints what babeltrace2 prints, line for line.
# Four layouts real sessions produce: per-UID buffers with index files,
# per-PID buffers, a snapshot, and tracefile rotation (several files per
# stream).  Skips (exit 77) without ../shared/tools, root or babeltrace2.

tview=${TVIEW:-./tview}
rec="$TVIEW_SHARED/tools/record-ust-trace.sh"

[ -n "$TVIEW_SHARED" ] && [ -x "$rec" ] ||
	{ echo "SKIP: no shared tools (../shared is not beside the tree)"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: recording with LTTng needs root"; exit 77; }
command -v babeltrace2 >/dev/null || { echo "SKIP: babeltrace2 not installed"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tview-ust.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

failed=0
check() {
	name=$1 nevents=$2; shift 2
	out="$work/$name"
	# one LTTng recording at a time: the recorder stops the session
	# daemon it started, which another test's recording may be using
	if ! flock -o "${TMPDIR:-/tmp}/tview-ust-record.lock" "$rec" --no-verify \
	    "$@" "$out" "$nevents" >"$work/$name.log" 2>&1
	then
		echo "FAIL: $name: the recorder failed:"; tail -5 "$work/$name.log"
		failed=$((failed + 1))
		return
	fi
	babeltrace2 --clock-gmt --no-delta "$out" >"$work/$name.bt2" 2>/dev/null
	"$tview" --dump "$out" >"$work/$name.tv" 2>"$work/$name.err"
	rc=$?
	n=$(wc -l <"$work/$name.bt2")
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: $name: tview --dump exited $rc: $(head -1 "$work/$name.err")"
		failed=$((failed + 1))
	elif ! cmp -s "$work/$name.bt2" "$work/$name.tv"; then
		echo "FAIL: $name: --dump differs from babeltrace2 ($n lines):"
		diff "$work/$name.bt2" "$work/$name.tv" | head -6
		failed=$((failed + 1))
	elif [ "$n" -eq 0 ]; then
		echo "FAIL: $name: babeltrace2 read no event"
		failed=$((failed + 1))
	else
		echo "ok: $name: $n lines identical to babeltrace2"
	fi
}

check uid-index 100000 --threads 2
check pid 20000 --threads 2 --buffers pid
check snapshot 20000 --threads 2 --mode snapshot
check rotation 100000 --threads 2 \
    --channel-opts "--tracefile-size=1M --tracefile-count=0"

[ "$failed" -eq 0 ]
