#!/bin/sh
# The trace's time span comes from its first and last events, not from the
# packet bounds the tracer padded: --begin/--end with N% and +REL, and
# --info's per-stream first/last event beside the packet bounds.  On a
# generated trace (packets end after their last event) and, when
# $TVIEW_SHARED holds it, on tc-many-threads (packets begin 0.32 s before
# the first event) with babeltrace2's timestamps as the oracle for 80%.

TV_TEST_NAME=span
. "$(dirname "$0")/lib.sh"
: "${TVIEW_SHARED:=$top_srcdir/../shared}"

test -x "$TVIEW" || { echo "no tview binary at $TVIEW"; exit 99; }

# span_checks NAME TRACE: the span properties every trace must have.
span_checks() {
	_n=$1 _t=$2
	"$TVIEW" --dump "$_t" >"$tmp/dump" 2>"$tmp/err"
	ok "$_n: --dump exits 0" test $? -eq 0
	first=$(head -n 1 "$tmp/dump")
	last=$(tail -n 1 "$tmp/dump")
	"$TVIEW" --dump --begin 100% "$_t" >"$tmp/out" 2>&1
	ok "$_n: --begin 100% prints the last event" \
	    test "$(tail -n 1 "$tmp/out")" = "$last"
	ok "$_n: --begin 100% prints only events at the last time" \
	    test "$(grep -c -F "$(echo "$last" | cut -d' ' -f1)" \
	    "$tmp/out")" -eq "$(wc -l <"$tmp/out")"
	"$TVIEW" --dump --end 0% "$_t" >"$tmp/out" 2>&1
	ok "$_n: --end 0% prints the first event" \
	    test "$(head -n 1 "$tmp/out")" = "$first"
	"$TVIEW" --dump --begin +0 --end +0 "$_t" >"$tmp/out" 2>&1
	ok "$_n: the first event is at +0" \
	    test "$(head -n 1 "$tmp/out")" = "$first"
	"$TVIEW" --info --time-format=seconds "$_t" >"$tmp/info" 2>&1
	ok "$_n: --info lists each stream's first event" \
	    grep -q '^      first event: [0-9]' "$tmp/info"
	ok "$_n: --info lists each stream's last event" \
	    grep -q '^      last event: [0-9]' "$tmp/info"
	ok "$_n: --info lists each stream's packet bounds" \
	    grep -q '^      packets: [0-9.]* - [0-9]' "$tmp/info"
	ok "$_n: --info gives the packets span" \
	    grep -q '^Packets span: [0-9]' "$tmp/info"
	# CTF dump lines start with [HH:MM:SS.NNNNNNNNN] in UTC.
	t0=$(echo "$first" | sed 's/^\[\([0-9:.]*\)\].*/\1/')
	t1=$(echo "$last" | sed 's/^\[\([0-9:.]*\)\].*/\1/')
	"$TVIEW" --info "$_t" >"$tmp/info" 2>&1
	ok "$_n: the time span is first event ($t0) - last event ($t1)" \
	    grep -q "^Time span: [0-9-]* $t0 UTC - [0-9-]* $t1 UTC" \
	    "$tmp/info"
}

"$GEN_CTF" --quiet --cpus 3 --events 3000 --seed 5 "$tmp/gen" \
    >"$tmp/gen.log" 2>&1 || { cat "$tmp/gen.log"; exit 99; }
span_checks gen "$tmp/gen"
"$TVIEW" --info --time-format=seconds "$tmp/gen" >"$tmp/info"
ok "gen: the packets end after the last event (the case at hand)" \
    test "$(grep '^Packets span' "$tmp/info" | cut -d' ' -f5)" != \
    "$(grep '^Time span' "$tmp/info" | cut -d' ' -f5)"

mt=$TVIEW_SHARED/traces/ctf/tc-many-threads
if test -n "$TVIEW_SHARED" && test -d "$mt"; then
	span_checks tc-many-threads "$mt"
	n=$("$TVIEW" --dump --begin 80% "$mt" | wc -l)
	total=$(wc -l <"$tmp/dump")
	ok "tc-many-threads: --begin 80% prints events ($n of $total)" \
	    test "$n" -gt 0 -a "$n" -lt "$total"
	if command -v babeltrace2 >/dev/null 2>&1; then
		# babeltrace2's own timestamps: the events at or after
		# first + 80% of (last - first), in integer ns.
		want=$(babeltrace2 --clock-seconds "$mt" | awk -F'[][]' '
		    { split($2, a, "."); if (NR == 1) base = a[1]
		      t[NR] = (a[1] - base) * 1000000000 + a[2] }
		    END { lo = t[1]; hi = t[1]
		      for (i = 1; i <= NR; i++) {
			if (t[i] < lo) lo = t[i]; if (t[i] > hi) hi = t[i] }
		      th = lo + 0.8 * (hi - lo); c = 0
		      for (i = 1; i <= NR; i++) if (t[i] >= th) c++
		      print c }')
		ok "tc-many-threads: --begin 80% prints the $want events of babeltrace2's times (got $n)" \
		    test "$n" -eq "$want"
	else
		echo "skip: no babeltrace2 for the 80% oracle"
	fi
else
	echo "skip: no shared tc-many-threads"
fi
tv_test_done
