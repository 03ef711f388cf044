#!/bin/sh
# make bench, trace.dat part: a full `tview --dump` pass over the largest
# v7 zstd sample of ../shared/traces/ftrace against `trace-cmd report`
# (both to /dev/null), median wall time of 3 runs each, and the ratio
# trace-cmd / tview (> 1: tview is faster).  As root with trace-cmd, also
# on a fresh ~450k-event v7 zstd recording (record-ftrace-trace.sh).
#
# Environment: TVIEW (the binary), TVIEW_SHARED (default ../shared).

top=$(cd "$(dirname "$0")/.." && pwd)
tview=${TVIEW:-$top/tview}
shared=${TVIEW_SHARED:-$top/../shared}
if ! [ -d "$shared/traces/ftrace" ]; then
	echo "tracedat bench: SKIP: no shared traces"
	exit 0
fi
if ! command -v trace-cmd >/dev/null 2>&1; then
	echo "tracedat bench: SKIP: trace-cmd is not installed"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracedat-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# ms CMD...: CPU time (user + system) of one run in milliseconds, so a
# busy machine does not blur the ratio; wall time without /usr/bin/time.
ms() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >/dev/null 2>&1
		awk '{ printf "%d\n", ($1 + $2) * 1000 }' "$tmp/t"
	else
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1
		e=$(date +%s%N)
		echo $(((e - s) / 1000000))
	fi
}

# median3 CMD...: median of three runs.
median3() {
	{ ms "$@"; ms "$@"; ms "$@"; } | sort -n | sed -n 2p
}

# bench NAME FILE: one table row.
bench() {
	t=$(median3 "$tview" --dump "$2")
	r=$(median3 trace-cmd report -i "$2")
	lines=$("$tview" --dump "$2" 2>/dev/null | wc -l)
	ratio=$(awk -v a="$r" -v b="$t" 'BEGIN {
	    if (b > 0) printf "%.2f", a / b; else print "-" }')
	printf '%-28s %10s %10s %10s %8s\n' "$1" "$lines" "$t" "$r" "$ratio"
}

# the largest v7 zstd sample with data (--info names the compression)
best='' bsize=0
for f in "$shared"/traces/ftrace/*/*.dat; do
	"$tview" --info "$f" 2>/dev/null | grep -q 'compression = "zstd' ||
	    continue
	"$tview" --info "$f" 2>/dev/null | grep -q 'cpus_with_data = 0' &&
	    continue
	s=$(wc -c <"$f")
	[ "$s" -gt "$bsize" ] && best=$f bsize=$s
done
printf '%-28s %10s %10s %10s %8s\n' trace.dat lines tview_cpu \
    report_cpu ratio
[ -n "$best" ] && bench "$(basename "$(dirname "$best")")" "$best"
rec=$shared/tools/record-ftrace-trace.sh
if [ "$(id -u)" -eq 0 ] && [ -f "$rec" ] &&
    bash "$rec" --compression zstd "$tmp/rec.dat" >/dev/null 2>&1; then
	bench "recorded (v7 zstd)" "$tmp/rec.dat"
fi
