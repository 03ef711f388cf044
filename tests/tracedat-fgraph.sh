#!/bin/sh
# function_graph pairing (a leaf entry swallows its exit) on variants of
# the shared labsisop-funcgraph sample made at run time by
# td-fgraph-variants: every entry a leaf, and two CPUs apart, interleaved
# and at the same timestamps.  Each must print exactly what the live
# `trace-cmd report` prints.  Skips without ../shared or trace-cmd.

# trace-cmd report, retried past its raw-timestamp flukes (tc-report)
tc_report=$(cd "$(dirname "$0")" && pwd)/tc-report
tview=${TVIEW:-./tview}
gen=${top_builddir:-.}/td-fgraph-variants
src="$TVIEW_SHARED/traces/ftrace/labsisop-funcgraph/trace.dat"
[ -n "$TVIEW_SHARED" ] && [ -f "$src" ] ||
	{ echo "SKIP: no shared traces (../shared is not beside the tree)"; exit 77; }
command -v trace-cmd >/dev/null 2>&1 ||
	{ echo "SKIP: trace-cmd is not installed"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tview-fgraph.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
"$gen" "$src" "$work" || { echo "FAIL: td-fgraph-variants"; exit 1; }
pass=0 failed=0
for f in "$work"/*.dat; do
	n=${f##*/}
	# Not while a kernel recording runs (tracedat-oracle, test-state):
	# report's output was seen to change then.
	sh "$tc_report" -i "$f" >"$work/exp" 2>/dev/null
	"$tview" --dump "$f" >"$work/got" 2>"$work/err"
	if cmp -s "$work/exp" "$work/got" && ! [ -s "$work/err" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL: $n differs from trace-cmd report:"
		diff "$work/exp" "$work/got" | head -6; head -2 "$work/err"
		failed=$((failed + 1))
	fi
done
echo "tracedat-fgraph: $pass passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$pass" -eq 4 ]
