#!/bin/sh
# --latency function against trace-cmd report: on the shared
# labsisop-funcgraph sample and the variants td-fgraph-variants makes of
# it (every entry a leaf; a second CPU apart, interleaved and at the same
# timestamps), the count, min, mean and max of the function durations,
# overall and for do_IRQ, are those of the durations report prints
# ("| 3242.027 us |"); each longest instance starts at a funcgraph_entry
# record of its CPU; a trace without function_graph has no function
# table under --latency all.  Skips without ../shared or trace-cmd.

TV_TEST_NAME=fgraph-latency
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
gen=$top_builddir/td-fgraph-variants
src="$TVIEW_SHARED/traces/ftrace/labsisop-funcgraph/trace.dat"
[ -n "$TVIEW_SHARED" ] && [ -f "$src" ] ||
	{ echo "SKIP: no shared traces (../shared is not beside the tree)"; exit 77; }
command -v trace-cmd >/dev/null 2>&1 ||
	{ echo "SKIP: trace-cmd is not installed"; exit 77; }
"$gen" "$src" "$tmp" || { echo "FAIL: td-fgraph-variants"; exit 1; }
cp "$src" "$tmp/original.dat"

# count min mean max of the " NNN.NNN us " durations of report's graph
# lines, in ns (mean truncated as tview's is).
report_facts() {
	sh "$top_srcdir/tests/tc-report" -i "$1" 2>/dev/null | awk '
	    / funcgraph_(entry|exit):/ {
		for (i = 1; i < NF; i++) if ($(i + 1) == "us" &&
		    $i ~ /^[0-9]+\.[0-9][0-9][0-9]$/) {
			split($i, p, "."); d = p[1] * 1000 + p[2]
			n++; s += d
			if (n == 1 || d < lo) lo = d
			if (d > hi) hi = d
		}
	    }
	    END { printf "%d %d %d %d\n", n, lo, int(s / n), hi }'
}
# The same figures from a --latency row (microseconds, three decimals).
tview_facts() {
	awk -v row="$2" '$1 == row { printf "%d %.0f %.0f %.0f\n", $2,
	    $3 * 1000, $4 * 1000, $7 * 1000; exit }' "$1"
}

for f in "$tmp"/*.dat; do
	n=${f##*/}
	exp=$(report_facts "$f")
	"$TVIEW" --latency function --time-format seconds "$f" \
	    >"$tmp/lat" 2>"$tmp/err"
	ok "$n: exit status 0, nothing on stderr" test $? -eq 0 -a ! -s "$tmp/err"
	ok "$n: function count/min/mean/max = report's ($exp)" \
	    test "$(tview_facts "$tmp/lat" function)" = "$exp"
	ok "$n: do_IRQ row = report's" \
	    test "$(tview_facts "$tmp/lat" do_IRQ)" = "$exp"
	# every longest instance starts at a funcgraph_entry of its CPU
	"$TVIEW" --dump --time-format seconds "$f" >"$tmp/dump" 2>/dev/null
	bad=$(awk 'NR == FNR { if (/funcgraph_entry:/) {
		t = $0; sub(/.*\] */, "", t); sub(/:.*/, "", t)
		c = $0; sub(/.*\[0*/, "", c); sub(/\].*/, "", c)
		if (c == "") c = 0
		e[c " " t] = 1 }; next }
	    /^LONGEST/ { on = 1; next }
	    on && NF == 4 { t = sprintf("%.6f", $1)
		if (!((($4 + 0) " " t) in e)) print }' "$tmp/dump" "$tmp/lat")
	ninst=$(awk '/^LONGEST/ { on = 1; next } on && NF == 4' "$tmp/lat" |
	    wc -l)
	ok "$n: the longest instances ($ninst) start at their entry records" \
	    test -z "$bad" -a "$ninst" -ge 7
done

# a trace.dat without function_graph: no function table under all
other="$TVIEW_SHARED/traces/ftrace/lisa-sched_load/trace.dat"
if [ -f "$other" ]; then
	"$TVIEW" --latency all "$other" >"$tmp/all" 2>/dev/null
	ok "no function table without function_graph" \
	    sh -c "! grep -q '^function ' '$tmp/all'"
	ok "but the other kinds are there" grep -q '^wakeup ' "$tmp/all"
fi
"$TVIEW" --latency nonsense "$src" >/dev/null 2>"$tmp/err"
ok "an unknown kind is a usage error naming function" \
    grep -q "function or all" "$tmp/err"
tv_test_done
