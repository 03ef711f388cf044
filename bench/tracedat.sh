#!/bin/sh
# make bench, trace.dat part: a full `tview --dump` pass over the largest
# v7 zstd sample of ../shared/traces/ftrace against `trace-cmd report`
# (both to /dev/null), median wall time of 3 runs each, and the ratio
# trace-cmd / tview (> 1: tview is faster).  As root with trace-cmd, also
# on a fresh ~450k-event v7 zstd recording (record-ftrace-trace.sh).
# Then the statistics: `tview --stats` (a full pass: events per class,
# CPU and thread, CPU time per mode) against `trace-cmd report --stat`
# (the buffer statistics the file stores: reads no event) and
# `trace-cmd report --profile` (a full pass), on the same files and on a
# busy recording (perf bench sched messaging, ~3.5M events) when perf is
# installed: the largest we record in about a minute.
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
# record OUT [-- CMD...]: a v7 zstd recording, under the lock the ftrace
# tests take (the kernel's tracing state is global).
record() {
	[ "$(id -u)" -eq 0 ] && [ -f "$rec" ] || return 1
	if command -v flock >/dev/null 2>&1; then
		flock -o "${TMPDIR:-/tmp}/tview-ftrace-record.lock" \
		    bash "$rec" --compression zstd "$@" >/dev/null 2>&1
	else
		bash "$rec" --compression zstd "$@" >/dev/null 2>&1
	fi
}
record "$tmp/rec.dat" && bench "recorded (v7 zstd)" "$tmp/rec.dat"

# stats NAME FILE: --stats against report --stat and --profile (CPU ms,
# median of 3; the ratios are trace-cmd / tview).
stats() {
	t=$(median3 "$tview" --stats "$2")
	s=$(median3 trace-cmd report --stat -i "$2")
	p=$(median3 trace-cmd report --profile -i "$2")
	awk -v n="$1" -v t="$t" -v s="$s" -v p="$p" 'BEGIN {
	    printf "%-28s %10s %10s %8s %10s %8s\n", n, t, s,
		(t > 0 ? sprintf("%.2f", s / t) : "-"), p,
		(t > 0 ? sprintf("%.2f", p / t) : "-") }'
}
echo
printf '%-28s %10s %10s %8s %10s %8s\n' trace.dat stats_cpu stat_cpu ratio \
    profile_cpu ratio
[ -n "$best" ] && stats "$(basename "$(dirname "$best")")" "$best"
[ -f "$tmp/rec.dat" ] && stats "recorded (v7 zstd)" "$tmp/rec.dat"
if command -v perf >/dev/null 2>&1 &&
    record --buffer-kb 32768 "$tmp/busy.dat" -- \
    perf bench sched messaging -g 4 -l 500; then
	stats "recorded busy ($("$tview" --stats "$tmp/busy.dat" 2>/dev/null |
	    sed -n 's/^events //p') events)" "$tmp/busy.dat"
fi
