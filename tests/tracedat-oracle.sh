#!/bin/sh
# trace.dat against trace-cmd report, line for line:
#  - every file of ../shared/traces/ftrace: `tview --dump` must equal the
#    saved `trace-cmd report -i FILE` output in oracles/ftrace/, and, when
#    trace-cmd is installed, the live report (Debian's trace-cmd cannot
#    open zlib files: those are compared with the saved oracle only);
#  - as root, with trace-cmd, fresh recordings made during the run with
#    tools/record-ftrace-trace.sh: --variants (v6, v7, v7+zstd of one
#    recording), --instance (two buffers) and a small --buffer-kb with
#    `perf bench sched messaging` (real dropped-event markers), each
#    compared with the live report.
# Skips without ../shared.
#
# Usage: tests/tracedat-oracle.sh   (env: TVIEW, TVIEW_SHARED)

# trace-cmd report, retried past its raw-timestamp flukes (tc-report)
tc_report=$(cd "$(dirname "$0")" && pwd)/tc-report
top=$(cd "$(dirname "$0")/.." && pwd)
tview=${TVIEW:-$top/tview}
shared=${TVIEW_SHARED:-}
dir=$shared/traces/ftrace
oracles=$shared/traces/oracles/ftrace
if [ -z "$shared" ] || ! [ -d "$dir" ]; then
	echo "SKIP: no shared traces (../shared is not beside the tree)"
	exit 77
fi
export TZ=UTC LC_ALL=C

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracedat-oracle.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 failed=0 skipped=0
have_tc=false
command -v trace-cmd >/dev/null 2>&1 && have_tc=true

# same LABEL EXPECTED GOT: compare two outputs, count, show a diff.
same() {
	if cmp -s "$2" "$3"; then
		pass=$((pass + 1))
	else
		echo "FAIL: $1: tview --dump differs from trace-cmd report" \
		    "($(wc -l <"$2") vs $(wc -l <"$3") lines):"
		diff "$2" "$3" | head -8
		failed=$((failed + 1))
	fi
}

# dump FILE OUT: tview --dump, which must succeed quietly.
dump() {
	if ! "$tview" --dump "$1" >"$2" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
		echo "FAIL: $1: tview --dump failed: $(head -2 "$tmp/err")"
		failed=$((failed + 1))
		return 1
	fi
}

# live FILE LABEL: compare with the installed trace-cmd report.
live() {
	# Not while a kernel recording runs (see rec below).
	if ! sh "$tc_report" -i "$1" >"$tmp/live" \
	    2>/dev/null; then
		echo "note: $2: trace-cmd report cannot read it (zlib?)"
		skipped=$((skipped + 1))
		return 0
	fi
	same "$2 (live)" "$tmp/live" "$tmp/got"
}

for d in "$dir"/*/; do
	d=${d%/}; name=${d##*/}
	f=$(ls "$d"/*.dat 2>/dev/null | head -1)
	[ -n "$f" ] || continue
	dump "$f" "$tmp/got" || continue
	if [ -f "$oracles/$name.trace-cmd-report.txt.gz" ]; then
		gzip -dc "$oracles/$name.trace-cmd-report.txt.gz" >"$tmp/exp"
		same "$name" "$tmp/exp" "$tmp/got"
	fi
	$have_tc && live "$f" "$name"
done

record=$shared/tools/record-ftrace-trace.sh
if [ "$(id -u)" -ne 0 ] || ! $have_tc || ! [ -f "$record" ]; then
	echo "note: live recordings skipped (need root, trace-cmd and $record)"
	skipped=$((skipped + 1))
else
	rec() {	# NAME ARGS...: record, then compare every file it wrote
		n=$1; shift
		# One kernel recording at a time: the recorder sets the global
		# tracing state, and make check -j runs test-state's too.
		if ! flock -o "${TMPDIR:-/tmp}/tview-ftrace-record.lock" \
		    bash "$record" "$tmp/$n.dat" "$@" >"$tmp/$n.log" 2>&1; then
			echo "note: recording $n failed: $(tail -1 "$tmp/$n.log")"
			skipped=$((skipped + 1))
			return 0
		fi
		for r in "$tmp/$n.dat" "$tmp/$n"-v*.dat; do
			[ -f "$r" ] || continue
			dump "$r" "$tmp/got" && live "$r" "recorded ${r##*/}"
			rm -f "$r"
		done
	}
	small='for i in $(seq 1 30); do ls /usr/bin >/dev/null; done; sleep 0.1'
	rec variants --variants -- sh -c "$small"
	rec instance --instance 'inst1:sched' -- sh -c "$small"
	if command -v perf >/dev/null 2>&1; then
		rec drops --buffer-kb 64 -- perf bench sched messaging -g 4 -l 100
	fi
fi
echo "tracedat-oracle: $pass passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
