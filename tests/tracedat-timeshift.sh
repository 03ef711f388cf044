#!/bin/sh
# TIME_SHIFT (a guest's trace.dat mapped onto its host's clock): variants
# of the shared uncompressed v7 sample made at run time by td-timeshift,
# with one sample per CPU, several samples (interpolated or stepwise),
# fixed-point scaling, and samples for only some CPUs.  Checked by
# arithmetic (every time + 1 s with a single 1 s offset; the scaling of
# the first event to the microsecond), against the live `trace-cmd
# report` when it is installed (line for line), in --info (time_shift,
# guest_0), with TSC2NSEC alone and after TIME_SHIFT, opened together
# with the original (a guest shifted by 1 s beside its host), and a lying
# sample count gives a clear error.

# trace-cmd report, retried past its raw-timestamp flukes (tc-report)
tc_report=$(cd "$(dirname "$0")" && pwd)/tc-report
tview=${TVIEW:-./tview}
gen=${top_builddir:-.}/td-timeshift
src="$TVIEW_SHARED/traces/ftrace/derived-lisa-sched_load-v7-nocompress/trace.dat"
[ -n "$TVIEW_SHARED" ] && [ -f "$src" ] ||
	{ echo "SKIP: no shared traces (../shared is not beside the tree)"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tview-tshift.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
pass=0 failed=0
check() {
	desc=$1; shift
	if "$@"; then
		pass=$((pass + 1)); echo "ok: $desc"
	else
		failed=$((failed + 1)); echo "FAIL: $desc"
	fi
}
gen() {
	_out=$1; shift
	"$gen" "$src" "$work/$_out" "$@" >"$work/gen.err" 2>&1 ||
		{ echo "FAIL: td-timeshift $*"; cat "$work/gen.err"; exit 1; }
}
gen one.dat 0 16 0:1000000000:1:0
gen interp.dat 1 6 2084000000000:0:1:0 2086000000000:2000000:1:0 \
    2088000000000:-5000000:1:0
gen step.dat 0 6 2084000000000:0:1048577:20 \
    2086000000000:2000000:1048577:20 2088000000000:-5000000:1:0
gen some.dat 1 3 2084000000000:-300000:1048577:20 \
    2084500000000:2000000:1048575:20
gen lying.dat 0x101 6 0:1:1:0
gen tsc.dat 0x200 0
gen tsc-shift.dat 0x201 6 2084000000000:1000:1:0 2086000000000:2000000:1:0

"$tview" --dump "$src" >"$work/orig" 2>&1
# one sample of +1 s: every line is the original one, one second later
"$tview" --dump "$work/one.dat" >"$work/one" 2>&1
awk '{ if (match($0, / [0-9]+\.[0-9]+: /)) {
	t = substr($0, RSTART + 1, RLENGTH - 3); split(t, a, ".")
	$0 = substr($0, 1, RSTART) sprintf("%d.%s", a[1] + 1, a[2]) \
	    substr($0, RSTART + RLENGTH - 2) } print }' "$work/orig" \
    >"$work/one.want"
check "one sample of +1 s: every event 1 s later ($(wc -l <"$work/one") lines)" \
    cmp -s "$work/one.want" "$work/one"
# scaling 1 + 2^-20 from the first sample on: the first event of CPU 2
# (2084.021443 s) moves by ts / 2^20 = 1.987 ms (to within 1 us)
"$tview" --dump "$work/step.dat" >"$work/step" 2>&1
got=$(grep -m1 '\[002\]' "$work/step" | sed 's/.*] *\([0-9.]*\):.*/\1/')
check "scaling: CPU 2's first event at $got, want 2084.021443 + ts/2^20" \
    awk -v g="$got" 'BEGIN { w = 2084.021443 + 2084.021443 / 1048576
	d = g - w; if (d < 0) d = -d; exit !(d < 0.0000015) }'
"$tview" --dump "$work/interp.dat" >"$work/interp" 2>&1
check "interpolated samples change the times" \
    sh -c "! cmp -s '$work/interp' '$work/orig'"
check "same number of events" \
    test "$(wc -l <"$work/interp")" -eq "$(wc -l <"$work/orig")"
# TSC2NSEC mult 3 shift 1: every time x 1.5 (its offset unused)
"$tview" --dump "$work/tsc.dat" >"$work/tsc" 2>&1
got=$(grep -m1 '\[002\]' "$work/tsc" | sed 's/.*] *\([0-9.]*\):.*/\1/')
check "TSC2NSEC: CPU 2's first event at $got, want 2084.021443 x 1.5" \
    awk -v g="$got" 'BEGIN { d = g - 2084.021443 * 1.5; if (d < 0) d = -d
	exit !(d < 0.0000025) }'
if command -v trace-cmd >/dev/null 2>&1; then
	for f in one interp step some tsc tsc-shift; do
		sh "$tc_report" -i "$work/$f.dat" >"$work/exp" 2>/dev/null
		"$tview" --dump "$work/$f.dat" >"$work/got" 2>"$work/err"
		check "$f.dat: --dump equals the live trace-cmd report" \
		    cmp -s "$work/exp" "$work/got"
	done
else
	echo "note: trace-cmd is not installed: no live comparison"
fi
"$tview" --info "$work/interp.dat" >"$work/info" 2>&1
check "--info lists the TIME_SHIFT option" grep -q \
    'time_shift = "peer=0x1234abcd cpus=6 samples=18 interpolated"' \
    "$work/info"
check "--info lists the GUEST option" grep -q \
    'guest_0 = "guest trace_id=0x5678 vcpus=1"' "$work/info"
# a guest and its host together: the guest's events 1 s after the host's
"$tview" --dump "$src" "$work/one.dat" >"$work/both" 2>&1
sort "$work/both" >"$work/both.s"
sort "$work/orig" "$work/one" >"$work/both.w"
check "host and guest opened together: the guest's events 1 s later" \
    cmp -s "$work/both.s" "$work/both.w"
"$tview" --dump "$work/lying.dat" >/dev/null 2>"$work/err"
rc=$?
check "a lying TIME_SHIFT sample count: exit $rc with a clear error" \
    sh -c "[ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q \
    'offset 0x[0-9a-f]*: TIME_SHIFT: 100000 samples of CPU 0 do not fit' \
    '$work/err'"
echo "tracedat-timeshift: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
