#!/bin/sh
# bench/live-latency.sh [SECONDS]: how long after an event is recorded
# tview prints it, following a session while it records:
#  - local: `tview --dump --follow DIR` on the trace directory of an
#    LTTng session writing to disk (a switch timer of 100 ms makes the
#    consumer daemon write the packets of each 100 ms);
#  - relay: `tview --dump --follow net://...`, the same session kind
#    streamed to lttng-relayd (live timer 100 ms).
# Events: `ls` under lttng-ust's libc wrapper, one run every 0.2 s for
# SECONDS (default 10).  The delay of a line is the time it reaches the
# reader (this machine's real-time clock) minus the event's timestamp
# (LTTng's monotonic clock placed on real time by the trace's clock
# offset; the same machine, so the same clock up to the offset's
# accuracy).  Prints n, median, p90 and max in milliseconds for each.
# The daemons are private (tests/lttng-lib.sh).  Needs perl, LTTng and
# liblttng-ust1.
srcdir=$(cd "$(dirname "$0")/.." && pwd)
: "${BUILDDIR:=$srcdir}"
: "${TVIEW:=$BUILDDIR/tview}"
secs=${1:-10}
export TZ=UTC LC_ALL=C.UTF-8
unset LANGUAGE
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tview-latency.XXXXXX") || exit 1
# shellcheck source=../tests/lttng-lib.sh
. "$srcdir/tests/lttng-lib.sh"
trap 'lttng_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
command -v perl >/dev/null ||
	{ echo "live latency: skipped (no perl)"; exit 0; }
# make bench runs this too: without LTTng it says so and is not an error
lttng_start || { echo "live latency: skipped (no LTTng to record with)"; exit 0; }

# delays: each --dump line's delay in ms, one a line, as lines arrive.
delays() {
	perl -MTime::HiRes=time -ne '
	    next unless /^\[(\d\d):(\d\d):(\d\d\.\d+)\]/;
	    my $t = $1 * 3600 + $2 * 60 + $3;
	    my $now = time;
	    my $d = $now - 86400 * int($now / 86400) - $t;
	    $d += 86400 if $d < -43200;
	    printf "%.1f\n", $d * 1000;
	    $| = 1;'
}

# summary NAME FILE: n, median, p90, max of the delays in FILE.
summary() {
	sort -n "$2" | awk -v name="$1" '
	    { v[NR] = $1 }
	    END {
		if (NR == 0) { printf "%-6s no events printed\n", name; exit }
		printf "%-6s n %6d  median %7.1f ms  p90 %7.1f ms  max %7.1f ms\n",
		    name, NR, v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.5)], v[NR]
	    }'
}

# record NAME ARGS...: a session NAME (lttng create ARGS), the libc
# events in a channel flushed every 100 ms, started.
record() {
	_s=$1; shift
	as_tracer lttng create "$_s" "$@" >/dev/null &&
	as_tracer lttng enable-channel -u c --switch-timer=100000 \
	    >/dev/null &&
	as_tracer lttng enable-event -u -c c 'lttng_ust_libc:*' >/dev/null &&
	as_tracer lttng start >/dev/null
}

# workload: `ls` every 0.2 s for $secs seconds.
workload() {
	_i=0
	while test "$_i" -lt $((secs * 5)); do
		lttng_traced ls / >/dev/null
		sleep 0.2
		_i=$((_i + 1))
	done
}

# measure NAME TARGET: follow TARGET during the workload, then destroy.
measure() {
	"$TVIEW" --dump --follow "$2" 2>"$tmp/$1.err" | delays >"$tmp/$1.ms" &
	_p=$!
	sleep 1
	workload
	sleep 1
	as_tracer lttng destroy "$3" >/dev/null
	wait "$_p"
	summary "$1" "$tmp/$1.ms"
	test -z "${LATENCY_KEEP:-}" || cp "$tmp/$1.ms" "$LATENCY_KEEP.$1"
}

echo "tview live latency, $(date -u '+%Y-%m-%d %H:%M UTC'), $secs s of events"
# local: the trace directory exists once the first application registers
record loc --output="$lh/loc" || exit 1
lttng_traced ls / >/dev/null
sleep 0.5
d=$(find "$lh/loc" -name metadata -exec dirname {} \; | head -n 1)
test -n "$d" || { echo "live-latency: no local trace" >&2; exit 1; }
measure local "$d" loc
record rel --live=100000 --set-url="net://127.0.0.1:$C:$D" || exit 1
lttng_traced ls / >/dev/null
sleep 0.5
measure relay "$url/host/$host/rel" rel
