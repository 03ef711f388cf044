#!/bin/sh
# make bench, LTT part: the largest LTTng 0.x trace of ../shared/traces/ltt0
# (618,339 events, format 2.3) has no living reader to race against, so
# the figures are absolute: --info (open + index + metadata markers), a
# full --dump to /dev/null and --dump of the last 10% (seek), each the
# median of 3 runs, in CPU time (user + system, so that a busy machine
# does not blur them) and in events per second for the full dump.
#
# Environment: TVIEW (the binary), TVIEW_SHARED (default ../shared).

top=$(cd "$(dirname "$0")/.." && pwd)
tview=${TVIEW:-$top/tview}
shared=${TVIEW_SHARED:-$top/../shared}
trace=$shared/traces/ltt0/trace-618339events-1293lost-1cpu
events=618339
if ! [ -d "$trace" ]; then
	echo "ltt bench: SKIP: no shared traces"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# ms CMD...: CPU time (user + system) of one run in milliseconds.
ms() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >/dev/null 2>&1
		awk '{ printf "%d\n", ($1 + $2) * 1000 }' "$tmp/t"
	else
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1
		echo $(( ($(date +%s%N) - s) / 1000000 ))
	fi
}

# median3 CMD...: the median of three runs of ms.
median3() {
	{ ms "$@"; ms "$@"; ms "$@"; } | sort -n | sed -n 2p
}

info=$(median3 "$tview" --info "$trace")
dump=$(median3 "$tview" --dump "$trace")
tail=$(median3 "$tview" --dump --begin 90% "$trace")
echo "LTT 0.x, $events events (trace-618339events-1293lost-1cpu):"
echo "  --info             $info ms"
echo "  --dump             $dump ms ($(awk -v n="$events" -v t="$dump" \
    'BEGIN { if (t > 0) printf "%.0f", n / t * 1000; else print "-" }') events/s)"
echo "  --dump --begin 90% $tail ms"
exit 0
