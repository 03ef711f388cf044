#!/bin/sh
# Regression test of the trace.dat inputs that crashed, hung or exhausted
# tview (../shared/fuzz-crashes/tracedat: hostile format files, printk
# formats and records handed to libtraceevent, a decompression bomb, and
# valid v7 conversions of a 32-bit trace; tests/data/fuzz/tracedat: what
# the in-tree fuzz target found since, see FUZZING): `tview --dump` of
# each must exit 0 quietly, or exit 1 with one line "tview: FILE: offset 0x..:
# message", within seconds and under a memory limit (without ASan, whose
# shadow memory needs an unbounded address space; the suite runs this
# test under ASan+UBSan too).  The valid files (made by trace-cmd
# convert) must print what trace-cmd report prints.
# Without ../shared only the in-tree reproducers run.
#
# Usage: tests/tracedat-crashes.sh   (env: TVIEW, TVIEW_SHARED)

# trace-cmd report, retried past its raw-timestamp flukes (tc-report)
tc_report=$(cd "$(dirname "$0")" && pwd)/tc-report
tview=${TVIEW:-./tview}
dir=${TVIEW_SHARED:-}/fuzz-crashes/tracedat
intree=$(cd "$(dirname "$0")" && pwd)/data/fuzz/tracedat
set -- "$intree"/*.dat
if [ -n "${TVIEW_SHARED:-}" ] && [ -d "$dir" ]; then
	set -- "$dir"/*.dat "$@"
else
	echo "# no shared fuzz-crashes (../shared is not beside the tree):" \
	    "only the in-tree reproducers run"
fi
export TZ=UTC LC_ALL=C

if ! nm "$tview" 2>/dev/null | grep -q __asan_init; then
	limit="ulimit -v 1048576;" secs=10
else
	limit="" secs=60
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tview-tdcrash.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
pass=0 failed=0 n=0

for f in "$@"; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	name=${f##*/}
	sh -c "$limit exec timeout $secs \"$tview\" --dump \"$f\"" \
	    >"$work/out" 2>"$work/err"
	rc=$?
	nerr=$(grep -c . "$work/err")
	if [ "$rc" -eq 124 ]; then
		echo "FAIL: $name: hang (killed after $secs s)"
		failed=$((failed + 1)); continue
	elif [ "$rc" -gt 128 ]; then
		echo "FAIL: $name: killed by signal $((rc - 128))"
		failed=$((failed + 1)); continue
	elif [ "$rc" -eq 0 ] && [ "$nerr" -ne 0 ]; then
		echo "FAIL: $name: exit 0 with messages:"; head -3 "$work/err"
		failed=$((failed + 1)); continue
	elif [ "$rc" -ne 0 ] && { [ "$rc" -ne 1 ] || [ "$nerr" -ne 1 ]; }; then
		echo "FAIL: $name: exit $rc, expected 1 and a one-line" \
		    "error, got $nerr lines:"
		head -5 "$work/err"; failed=$((failed + 1)); continue
	elif [ "$rc" -ne 0 ] &&
	    ! grep -q "^tview: .*$name: offset 0x[0-9a-f]*: " "$work/err"; then
		echo "FAIL: $name: error without file and offset:" \
		    "$(cat "$work/err")"
		failed=$((failed + 1)); continue
	fi
	# the valid ones (trace-cmd convert output): what trace-cmd prints
	case $name in *-convert-*)
		if command -v trace-cmd >/dev/null 2>&1 &&
		    sh "$tc_report" -i "$f" >"$work/exp" 2>/dev/null &&
		    ! cmp -s "$work/exp" "$work/out"; then
			echo "FAIL: $name: differs from trace-cmd report:"
			diff "$work/exp" "$work/out" | head -6
			failed=$((failed + 1)); continue
		fi ;;
	esac
	echo "ok: $name: exit $rc $(head -c 160 "$work/err")"
	pass=$((pass + 1))
done
[ "$n" -gt 0 ] || { echo "SKIP: no reproducers"; exit 77; }
echo "tracedat-crashes: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
