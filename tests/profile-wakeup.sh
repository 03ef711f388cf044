#!/bin/sh
# --latency wakeup against trace-cmd report --profile, and the documented
# difference between them (doc/tview.1, "Differences from trace-cmd
# report --profile").  trace-cmd times a sched_wakeup only when the trace
# showed the woken thread switching out asleep first; tview also times
# the first wake-up of a thread the trace had not yet switched out (its
# state is unknown, not running or runnable).  So on driver-irq-arm32:
#   tview's count = profile's count + F, tview's total = profile's + S,
# where F and S are the number and summed latency (to the switch-in) of
# those first wake-ups, found here from trace-cmd report's own lines.
# On langraph-v7-zstd, which has sched_waking and no sched_wakeup,
# profile times no wake-up and tview times them from sched_waking.
# Skips without ../shared or trace-cmd.

TV_TEST_NAME=profile-wakeup
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/profile-lib.sh"
dir="$TVIEW_SHARED/traces/ftrace"
arm="$dir/driver-irq-arm32/trace.dat"
lg="$dir/langraph-v7-zstd/trace.dat"
[ -n "$TVIEW_SHARED" ] && [ -f "$arm" ] && [ -f "$lg" ] ||
	{ echo "SKIP: no shared traces (../shared is not beside the tree)"; exit 77; }
command -v trace-cmd >/dev/null 2>&1 ||
	{ echo "SKIP: trace-cmd is not installed"; exit 77; }

# "count total_ns" of the sched_wakeup rows of report --profile.
profile_facts() {
	report --profile -i "$1" | profile_rows sched_wakeup
}

# "count total_ns" of the first wake-ups of threads that no sched_switch
# had switched out before, ended by their switch-in (ns timestamps).
first_facts() {
	report -t -i "$1" | awk '
	    function ns(s, q) { sub(/:$/, "", s); split(s, q, ".")
		return q[1] * 1e9 + q[2] }
	    / sched_switch:/ {
		for (i = 1; i <= NF; i++) if ($i == "==>") a = i
		p = $(a - 3); sub(/.*:/, "", p); out[p] = 1
		q = $(a + 1); sub(/.*:/, "", q)
		if (q in w) { n++; s += ns($3) - w[q]; delete w[q] }
	    }
	    / sched_wakeup:/ {
		p = $5; sub(/.*:/, "", p)
		if (!(p in out) && !(p in w)) w[p] = ns($3)
	    }
	    END { printf "%d %.0f\n", n, s }'
}

# "count total_ns" of tview's wakeup row.
tview_facts() {
	tview_latency wakeup "$1"
}

# shellcheck disable=SC2046 # two numbers, split on purpose
set -- $(profile_facts "$arm")
pn=$1 ps=$2
# shellcheck disable=SC2046 # two numbers, split on purpose
set -- $(first_facts "$arm")
fn=$1 fs=$2
# shellcheck disable=SC2046 # two numbers, split on purpose
set -- $(tview_facts "$arm")
tn=$1 ts=$2
ok "driver-irq-arm32: profile times wake-ups ($pn)" test "${pn:-0}" -gt 0
ok "driver-irq-arm32: first wake-ups of unseen threads exist ($fn)" \
    test "${fn:-0}" -gt 0
ok "driver-irq-arm32: tview count $tn = profile $pn + first $fn" \
    test "$tn" = "$((pn + fn))"
ok "driver-irq-arm32: tview total $ts ns = profile $ps + first $fs" \
    awk -v t="$ts" -v e="$((ps + fs))" -v n="$tn" \
    'BEGIN { d = t - e; if (d < 0) d = -d; exit !(d <= n / 2 + 1) }'
# and both rules applied to report's lines in full (profile-lib.sh)
# shellcheck disable=SC2046 # numbers, split on purpose
set -- $(wakeup_facts "$arm")
ok "driver-irq-arm32: profile's rule on report's lines: $3 $4" \
    test "$3 $4" = "$pn $ps"
ok "driver-irq-arm32: tview's rule on report's lines: $1 $2" \
    same_as "$tn" "$ts" "$1" "$2"
ok "driver-irq-arm32: nothing on stderr" test ! -s "$tmp/err"

# sched_waking only: profile has no wake-up row, tview has.
# shellcheck disable=SC2046 # two numbers, split on purpose
set -- $(profile_facts "$lg")
ok "langraph: profile times no wake-up ($1)" test "$1" = 0
"$TVIEW" --stats "$lg" >"$tmp/stats" 2>/dev/null
ok "langraph: the trace has sched_waking" \
    grep -q ' sched_waking$' "$tmp/stats"
ok "langraph: the trace has no sched_wakeup" \
    test "$(grep -c ' sched_wakeup' "$tmp/stats")" = 0
# shellcheck disable=SC2046 # two numbers, split on purpose
set -- $(tview_facts "$lg")
ok "langraph: tview times wake-ups from sched_waking ($1)" \
    test "${1:-0}" -gt 0
tv_test_done
