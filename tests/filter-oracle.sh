#!/bin/sh
# The filter language against trace-cmd report -F, on the shared trace.dat
# samples: each row of tests/data/filter-oracle.tab names a trace, what is
# expected and an expression:
#   same     tview --dump --filter EXPR prints what
#            trace-cmd report -F EXPR prints, line for line;
#   reject   both refuse it (tview exits 2 with "filter:1:COL: ...");
#   tview=N  a deliberate difference documented in tview(1): tview
#            prints N lines (the "cpus=" header included).
# Stack traces: trace-cmd 3.1.6 shows every kernel_stack of a CPU once one
# event of that CPU was shown; later versions (and tview) show the one
# stack after each shown event.  The script applies the later rule to
# trace-cmd's output (exact: the older output is a superset of it) unless
# the expression names the stack events itself.
# Skips without ../shared; "same" rows need trace-cmd.
#
# Usage: tests/filter-oracle.sh   (env: TVIEW, TVIEW_SHARED)

TV_TEST_NAME=filter-oracle
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
shared=${TVIEW_SHARED:-}
dir=$shared/traces/ftrace
if [ -z "$shared" ] || ! [ -d "$dir" ]; then
	echo "SKIP: no shared traces (../shared is not beside the tree)"
	exit 77
fi
table=$top_srcdir/tests/data/filter-oracle.tab
have_tc=false
command -v trace-cmd >/dev/null 2>&1 && have_tc=true
$have_tc || echo "note: no trace-cmd: the 'same' rows are skipped"

# trace KEY: the sample file a table key names.
trace() {
	case $1 in
	rpi)	echo "$dir/kernel-monitor-framework-rpi/trace.dat" ;;
	irq)	echo "$dir/driver-irq-arm32/trace.dat" ;;
	lisa)	echo "$dir/lisa-sched_load/trace.dat" ;;
	stack)	echo "$dir/langraph-v7-zstd/trace.dat" ;;
	esac
}

# one_stack: keep a kernel_stack record (and its "=>" lines) only when
# the record before it on its CPU, in this output, is not a stack.
one_stack() {
	awk '
	/^=>/ { if (keep) print; next }
	{
		cpu = ""
		for (i = 1; i <= NF; i++)
			if ($i ~ /^\[[0-9]+\]$/) { cpu = $i; break }
		stack = index($0, ": kernel_stack:") > 0 ||
		    index($0, ": user_stack:") > 0
		if (cpu == "" || !stack) { keep = 1; armed[cpu] = 1 }
		else { keep = armed[cpu]; armed[cpu] = 0 }
		if (keep) print
	}'
}

# show_diff RC: what a failed comparison saw, for the log
show_diff() {
	echo "  exit $1; stderr: $(head -1 "$tmp/err")"
	diff "$tmp/exp" "$tmp/got" | head -6
}

skipped=0
tab=$(printf '\t')
while IFS="$tab" read -r key kind expr; do
	case $key in ''|'#'*) continue ;; esac
	f=$(trace "$key")
	if ! [ -f "$f" ]; then
		skipped=$((skipped + 1))
		continue
	fi
	"$TVIEW" --dump --filter "$expr" "$f" >"$tmp/got" 2>"$tmp/err"
	rc=$?
	case $kind in
	same)
		if ! $have_tc; then
			skipped=$((skipped + 1))
			continue
		fi
		norm=one_stack
		case $expr in *stack*) norm='cat' ;; esac
		sh "$top_srcdir/tests/tc-report" -F "$expr" -i "$f" 2>/dev/null |
		    $norm >"$tmp/exp"
		TV_ON_FAIL="show_diff $rc"
		ok "$key: '$expr': as trace-cmd report -F ($(wc -l <"$tmp/exp") lines)" \
		    sh -c "test $rc -eq 0 && ! test -s '$tmp/err' &&
		    cmp -s '$tmp/exp' '$tmp/got'"
		TV_ON_FAIL=
		;;
	reject)
		if $have_tc; then
			sh "$top_srcdir/tests/tc-report" -F "$expr" -i "$f" \
			    >"$tmp/exp" 2>/dev/null
			tc=$?
			ok "$key: '$expr': trace-cmd rejects it too" \
			    sh -c "test $tc -ne 0 || ! test -s '$tmp/exp'"
		fi
		ok "$key: '$expr': rejected ($(head -1 "$tmp/err"))" \
		    sh -c "test $rc -eq 2 && ! test -s '$tmp/got' &&
		    grep -q '^tview: filter:1:[0-9]*: ' '$tmp/err'"
		;;
	tview=*)
		n=${kind#tview=}
		ok "$key: '$expr': $n lines (documented difference)" \
		    sh -c "test $rc -eq 0 && test \$(wc -l <'$tmp/got') -eq $n"
		;;
	esac
done <"$table"
echo "filter-oracle: $skipped rows skipped"
tv_test_done
