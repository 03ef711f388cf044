#!/bin/sh
# trace.dat v7 conversions against trace-cmd report, line for line: every
# sample of ../shared/traces/ftrace is converted during the run with
# `trace-cmd convert --file-version 7 --compression none|zlib|zstd`, and
# `tview --dump` of each result must equal the live `trace-cmd report`.
# The conversion keeps the kernel's header_page, so the 32-bit samples
# give files whose long size (the converting host's, 8) disagrees with
# the 4-byte page commit field: the page layout must come from
# header_page.  Conversions the installed trace-cmd cannot make (Debian's
# has no zlib) or read back are skipped with a note.
# Skips without ../shared or trace-cmd.
#
# Usage: tests/tracedat-convert.sh   (env: TVIEW, TVIEW_SHARED)

# trace-cmd report, retried past its raw-timestamp flukes (tc-report)
tc_report=$(cd "$(dirname "$0")" && pwd)/tc-report
top=$(cd "$(dirname "$0")/.." && pwd)
tview=${TVIEW:-$top/tview}
shared=${TVIEW_SHARED:-}
dir=$shared/traces/ftrace
if [ -z "$shared" ] || ! [ -d "$dir" ]; then
	echo "SKIP: no shared traces (../shared is not beside the tree)"
	exit 77
fi
if ! command -v trace-cmd >/dev/null 2>&1; then
	echo "SKIP: trace-cmd is not installed"
	exit 77
fi
export TZ=UTC LC_ALL=C

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracedat-convert.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 failed=0 skipped=0

for d in "$dir"/*/; do
	d=${d%/}; name=${d##*/}
	f=$(ls "$d"/*.dat 2>/dev/null | head -1)
	[ -n "$f" ] || continue
	for comp in none zlib zstd; do
		label="$name -> v7 $comp"
		out=$tmp/conv.dat
		rm -f "$out"
		# Under the recordings' lock too: convert writes the running
		# kernel's trace clock into a file that names none, and a
		# recording in another test changes that clock meanwhile.
		if ! flock -o "${TMPDIR:-/tmp}/tview-ftrace-record.lock" \
		    trace-cmd convert -i "$f" --file-version 7 \
		    --compression "$comp" -o "$out" >"$tmp/log" 2>&1 ||
		    ! [ -s "$out" ]; then
			echo "note: $label: trace-cmd convert cannot make it" \
			    "($(grep -v '^ *$' "$tmp/log" | tail -1))"
			skipped=$((skipped + 1))
			continue
		fi
		if ! sh "$tc_report" -i "$out" >"$tmp/exp" 2>/dev/null; then
			echo "note: $label: trace-cmd report cannot read it"
			skipped=$((skipped + 1))
			continue
		fi
		if ! "$tview" --dump "$out" >"$tmp/got" 2>"$tmp/err" ||
		    [ -s "$tmp/err" ]; then
			echo "FAIL: $label: tview --dump failed:" \
			    "$(head -2 "$tmp/err")"
			failed=$((failed + 1))
			continue
		fi
		if cmp -s "$tmp/exp" "$tmp/got"; then
			pass=$((pass + 1))
		else
			echo "FAIL: $label: tview --dump differs from trace-cmd" \
			    "report ($(wc -l <"$tmp/exp") vs" \
			    "$(wc -l <"$tmp/got") lines):"
			diff "$tmp/exp" "$tmp/got" | head -8
			failed=$((failed + 1))
		fi
	done
done
echo "tracedat-convert: $pass passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] || exit 1
[ "$pass" -gt 0 ] || { echo "SKIP: no conversion could be compared"; exit 77; }
