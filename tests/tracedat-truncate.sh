#!/bin/sh
# Damaged trace.dat files show what is readable.  Each v6 sample of
# ../shared/traces/ftrace is cut at page boundaries of its CPU data and in
# the middle of pages (a few per sample): `tview --dump` must exit 1 with
# one line "tview: FILE: offset 0x..: ..." on stderr, every line it
# prints must be a line of trace-cmd's report of the whole file, in the
# same order, and a longer cut must never print fewer lines (the events
# before the damage are all there).  A cut in the metadata and a cut of a
# v7 file (whose buffer table is at its end) are clean errors.  A zstd
# chunk that declares 0 bytes is an error, not events silently dropped.
# Skips without ../shared or trace-cmd.
#
# Usage: tests/tracedat-truncate.sh   (env: TVIEW, TVIEW_SHARED)

# trace-cmd report, retried past its raw-timestamp flukes (tc-report)
tc_report=$(cd "$(dirname "$0")" && pwd)/tc-report
tview=${TVIEW:-./tview}
src=${TVIEW_SHARED:-}/traces/ftrace
if [ -z "${TVIEW_SHARED:-}" ] || ! [ -d "$src" ]; then
	echo "SKIP: no shared traces (../shared is not beside the tree)"
	exit 77
fi
if ! command -v trace-cmd >/dev/null 2>&1; then
	echo "SKIP: trace-cmd is not installed"
	exit 77
fi
export TZ=UTC LC_ALL=C
# (ASan's shadow memory needs an unbounded address space)
limit="ulimit -v 2097152;"
nm "$tview" 2>/dev/null | grep -q __asan_init && limit=
work=$(mktemp -d "${TMPDIR:-/tmp}/tview-tdcut.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
pass=0 failed=0

fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# trace-cmd under the lock of the kernel recordings other tests make at
# the same time (make check -j2): as in tracedat-convert.sh, a recording
# changes the global tracing state trace-cmd reads.
tc() {
	if [ "$1" = report ]; then
		shift
		sh "$tc_report" "$@"
	else
		flock -o "${TMPDIR:-/tmp}/tview-ftrace-record.lock" trace-cmd "$@"
	fi
}

# cut FILE BYTES LABEL: run tview on the first BYTES of FILE; sets $lines.
cut_run() {
	head -c "$2" "$1" >"$work/cut.dat"
	sh -c "$limit exec timeout 60 \"$tview\" --dump \"$work/cut.dat\"" \
	    >"$work/out" 2>"$work/err"
	rc=$?
	lines=$(wc -l <"$work/out")
	if [ "$rc" -ne 1 ] || [ "$(grep -c . "$work/err")" -ne 1 ] ||
	    ! grep -q "^tview: .*cut.dat: offset 0x[0-9a-f]*: " "$work/err"
	then
		fail "$3: exit $rc, want 1 and one error line:" \
		    "$(head -3 "$work/err")"
		return 1
	fi
	return 0
}

# in_order: every line of $work/out is a line of $work/full, in order.
in_order() {
	awk 'NR == FNR { full[++n] = $0; next }
	    { while (i < n && full[++i] != $0) ; if (full[i] != $0) bad = 1 }
	    END { exit bad }' "$work/full" "$work/out"
}

for d in "$src"/*/; do
	f=$(ls "$d"*.dat 2>/dev/null | head -1)
	[ -n "$f" ] || continue
	name=$(basename "$d")
	ver=$(head -c 20 "$f" | tail -c +11 | tr '\0' '\n' | head -1)
	size=$(wc -c <"$f")
	if [ "$ver" != 6 ]; then
		cut_run "$f" $((size / 2)) "$name (v$ver) cut at $((size / 2))" &&
		    pass=$((pass + 1))
		continue
	fi
	tc report -i "$f" >"$work/full" 2>/dev/null || continue
	psize=$(od -An -tu4 -j $((10 + 2 + 2)) -N4 "$f" | tr -d ' ')
	# "OFFSET SIZE [offset, size of cpu N]": the CPU with the most data
	# shellcheck disable=SC2046  # the fields split on purpose
set -- $(tc dump --flyrecord -i "$f" 2>/dev/null |
	    awk '/size of cpu/ && $2 > best { best = $2; o = $1 }
	    END { print o, best }')
	off=$1 dsize=$2
	[ -n "$off" ] && [ "${dsize:-0}" -gt 0 ] || continue
	cut_run "$f" $((off / 2)) "$name cut in the metadata" &&
	    pass=$((pass + 1))
	npages=$((dsize / psize))
	step=$((npages / 4 + 1))
	prev=0 k=0
	while [ $k -le "$npages" ]; do
		for at in $((off + k * psize)) $((off + k * psize + psize / 2))
		do
			[ "$at" -lt "$size" ] || continue
			label="$name cut at $at (page $k of CPU data at $off)"
			cut_run "$f" "$at" "$label" || continue
			if ! in_order; then
				fail "$label: lines not in trace-cmd report"
			elif [ "$k" -ge 1 ] && [ "$lines" -le 1 ]; then
				fail "$label: nothing printed before the damage"
			elif [ "$lines" -lt "$prev" ]; then
				fail "$label: $lines lines, fewer than the" \
				    "$prev of a shorter cut"
			else
				pass=$((pass + 1))
			fi
			prev=$lines
		done
		k=$((k + step))
	done
done

# A zstd chunk declaring 0 uncompressed bytes.
f=$src/langraph-v7-zstd/trace.dat
if [ -f "$f" ]; then
	cpuoff=$(tc dump --flyrecord -i "$f" 2>/dev/null |
	    awk '/data offset and size/ && $3 > 0 { print $2; exit }')
	if [ -n "$cpuoff" ]; then
		cp "$f" "$work/z.dat"; chmod u+w "$work/z.dat"
		# COUNT32, then CSIZE32 USIZE32: zero the first USIZE
		printf '\0\0\0\0' | dd of="$work/z.dat" bs=1 \
		    seek=$((cpuoff + 8)) conv=notrunc 2>/dev/null
		"$tview" --dump "$work/z.dat" >/dev/null 2>"$work/err"
		rc=$?
		if [ "$rc" -eq 1 ] && grep -q "offset 0x.*chunk" "$work/err"
		then
			pass=$((pass + 1))
		else
			fail "zstd chunk of size 0: exit $rc: $(cat "$work/err")"
		fi
	fi
fi
echo "tracedat-truncate: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
