#!/bin/sh
# Mutated trace.dat files must be handled the way a user deserves: no
# crash, no hang, bounded memory, and when tview refuses (exit != 0) a
# single stderr line "tview: FILE: offset 0x...: message".  The mutants
# are made at run time in a temporary directory from shared samples (v6,
# v7 zlib, v7 zstd, v7 uncompressed): truncations at many offsets, bytes
# set to 0xff in headers, sizes and compressed chunks, and an options
# chain whose DONE points back to its own section (a loop).  Skips
# without ../shared.

tview=${TVIEW:-./tview}
src="$TVIEW_SHARED/traces/ftrace"
[ -n "$TVIEW_SHARED" ] && [ -d "$src" ] ||
	{ echo "SKIP: no shared traces (../shared is not beside the tree)"; exit 77; }

# (AddressSanitizer reserves terabytes of address space and runs slower)
if ! nm "$tview" 2>/dev/null | grep -q __asan_init; then
	limit="ulimit -v 1048576;" secs=20 stride=1
else
	# ASan is slow: a third of the mutants
	limit="" secs=90 stride=3
fi
nth=0

work=$(mktemp -d "${TMPDIR:-/tmp}/tview-tdfail.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
pass=0 failed=0 refused=0

# check MUTANT-DESCRIPTION: run tview on $work/trace.dat and judge.
check() {
	nth=$((nth + 1))
	[ $((nth % stride)) -eq 0 ] || [ "$1" = "options loop" ] || return 0
	rc=0
	sh -c "$limit exec timeout $secs \"$tview\" --dump \"$work/trace.dat\"" \
	    >"$work/out" 2>"$work/err"
	rc=$?
	nerr=$(grep -c . "$work/err")
	if [ "$rc" -eq 124 ]; then
		echo "FAIL: $1: hang (killed after $secs s)"
		failed=$((failed + 1))
	elif [ "$rc" -gt 128 ]; then
		echo "FAIL: $1: killed by signal $((rc - 128))"
		failed=$((failed + 1))
	elif [ "$rc" -eq 0 ] && [ "$nerr" -ne 0 ]; then
		echo "FAIL: $1: exit 0 with messages:"; head -3 "$work/err"
		failed=$((failed + 1))
	elif [ "$rc" -ne 0 ] && [ "$nerr" -ne 1 ]; then
		echo "FAIL: $1: expected a one-line error, got $nerr lines:"
		head -3 "$work/err"; failed=$((failed + 1))
	elif [ "$rc" -ne 0 ] && [ "$(wc -c <"$work/trace.dat")" -ge 10 ] &&
	    ! grep -q "^tview: .*trace.dat: offset 0x[0-9a-f]*: " "$work/err"; then
		# (shorter than the magic: not recognised, no offset to give)
		echo "FAIL: $1: error without file and offset: $(cat "$work/err")"
		failed=$((failed + 1))
	else
		pass=$((pass + 1))
		[ "$rc" -ne 0 ] && refused=$((refused + 1))
	fi
	return 0
}

# poke FILE OFFSET: four 0xff bytes at OFFSET.
poke() {
	printf '\377\377\377\377' |
	    dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# u16/u32/u64 FILE OFFSET: little-endian numbers.
u16() { od -An -tu2 -j "$2" -N2 "$1" | tr -d ' '; }
u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
u64() { od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '; }

for name in labsisop-tutorial3 derived-lisa-sched_load-v7-zlib \
    langraph-v7-zstd derived-lisa-sched_load-v7-nocompress; do
	f="$src/$name/trace.dat"
	[ -f "$f" ] || continue
	size=$(wc -c <"$f")
	# truncations: every few bytes of the header, then spread out
	for n in 0 3 9 10 12 17 18 19 22 30 40 60 100 200 400 800 1500 3000 \
	    6000 12000 25000 50000 100000; do
		[ "$n" -lt "$size" ] || continue
		head -c "$n" "$f" >"$work/trace.dat"
		check "$name truncated at $n"
	done
	i=1
	while [ $i -lt 24 ]; do
		n=$((size * i / 24))
		head -c "$n" "$f" >"$work/trace.dat"
		check "$name truncated at $n"
		i=$((i + 1))
	done
	# 0xff bytes: header, sizes and options at the start, then all over
	# (section headers, chunk sizes, compressed data, pages)
	for n in 12 13 14 16 20 24 28 32 40 48 64 96 128 160 200 256 300 \
	    400 512 700 1024 1500 2048 3000 4096; do
		cp "$f" "$work/trace.dat"; chmod u+w "$work/trace.dat"
		poke "$work/trace.dat" "$n"
		check "$name 0xff at $n"
	done
	i=1
	while [ $i -lt 40 ]; do
		n=$((size * i / 40))
		cp "$f" "$work/trace.dat"; chmod u+w "$work/trace.dat"
		poke "$work/trace.dat" "$n"
		check "$name 0xff at $n"
		i=$((i + 1))
	done
done

# An options loop: the DONE of the first v7 options section points back to
# that section.  Header: magic, "7", endian, long size, page size, then
# the compression name and version strings, then the options offset.
f="$src/derived-lisa-sched_load-v7-nocompress/trace.dat"
if [ -f "$f" ]; then
	cp "$f" "$work/trace.dat"; chmod u+w "$work/trace.dat"
	p=18
	p=$((p + $(tail -c +$((p + 1)) "$f" | head -c 64 |
	    tr '\0' '\n' | head -1 | wc -c)))
	p=$((p + $(tail -c +$((p + 1)) "$f" | head -c 64 |
	    tr '\0' '\n' | head -1 | wc -c)))
	opts=$(u64 "$f" $p)
	end=$((opts + 16 + $(u64 "$f" $((opts + 8)))))
	q=$((opts + 16)) done_at=
	while [ $q -lt $end ]; do
		id=$(u16 "$f" $q); sz=$(u32 "$f" $((q + 2)))
		if [ "$id" -eq 0 ]; then done_at=$((q + 6)); break; fi
		q=$((q + 6 + sz))
	done
	if [ -n "$done_at" ]; then
		o=$opts bytes=
		for _ in 1 2 3 4 5 6 7 8; do
			bytes="$bytes$(printf '\\%03o' $((o % 256)))"
			o=$((o / 256))
		done
		# shellcheck disable=SC2059
		printf "$bytes" | dd of="$work/trace.dat" bs=1 seek="$done_at" \
		    conv=notrunc 2>/dev/null
		check "options loop"
		if [ "$rc" -eq 0 ]; then
			echo "FAIL: options loop: accepted"; failed=$((failed + 1))
		fi
	else
		echo "FAIL: options loop: DONE not found in the sample"
		failed=$((failed + 1))
	fi
fi
echo "tracedat-fail: $pass passed, $failed failed ($refused refused cleanly)"
[ "$failed" -eq 0 ]
