#!/bin/sh
# Mutated copies of two real LTTng 0.x traces (format 2.3 and 2.5), made in
# a temporary directory, must be refused cleanly: exit status != 0, a
# one-line error naming the file and the offset, no crash, no hang,
# bounded memory.  Bad magic, lying sub-buffer sizes, truncated blocks,
# unknown marker ids, cut metadata, a missing metadata tracefile.  Skips
# without ../shared.

tview=${TVIEW:-./tview}
src="$TVIEW_SHARED/traces/ltt0"
[ -n "$TVIEW_SHARED" ] && [ -d "$src" ] ||
	{ echo "SKIP: no shared traces (../shared is not beside the tree)"; exit 77; }

if ! nm "$tview" 2>/dev/null | grep -q __asan_init; then
	limit="ulimit -v 1048576;"
else
	limit=""
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tview-lttfail.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
failed=0 pass=0

# fresh NAME TRACE: a writable copy of shared trace TRACE as $work/NAME.
fresh() {
	rm -rf "${work:?}/$1"
	cp -r "$src/$2" "$work/$1" && chmod -R u+w "$work/$1"
}

# poke FILE OFFSET OCTAL-BYTES: overwrite bytes in place.
poke() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# expect NAME PATTERN: tview refuses $work/NAME with a one-line error
# matching PATTERN (a grep -E regex naming file and offset).
expect() {
	sh -c "$limit exec timeout 20 \"$tview\" --dump \"$work/$1\"" \
	    >"$work/out" 2>"$work/err"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "FAIL: $1: exit 0"; failed=$((failed + 1))
	elif [ "$rc" -eq 124 ]; then
		echo "FAIL: $1: hang"; failed=$((failed + 1))
	elif [ "$rc" -gt 128 ]; then
		echo "FAIL: $1: killed by signal $((rc - 128))"
		failed=$((failed + 1))
	elif [ "$(grep -c . "$work/err")" -ne 1 ]; then
		echo "FAIL: $1: not a one-line error:"; head -3 "$work/err"
		failed=$((failed + 1))
	elif ! grep -Eq "$2" "$work/err"; then
		echo "FAIL: $1: error does not match /$2/: $(cat "$work/err")"
		failed=$((failed + 1))
	else
		echo "ok: $1: $(cat "$work/err")"; pass=$((pass + 1))
	fi
}

old=trace-1021events-nolost-1cpu	# 2.3, kernel_0 + metadata_0
new=trace-15316events_nolost_newformat	# 2.5, 22 tracefiles

fresh magic $old
poke "$work/magic/kernel_0" 16 '\001\002\003\004'
expect magic 'kernel_0: offset 0x10: .*magic'

fresh magic-meta $new
poke "$work/magic-meta/metadata_0" 16 '\000\000\000\000'
expect magic-meta 'metadata_0: offset 0x10: .*magic'

fresh bufsize $old
poke "$work/bufsize/kernel_0" 56 '\377\377\377\177'
expect bufsize 'kernel_0: offset 0x38: .*size'

fresh lostsize $old
poke "$work/lostsize/kernel_0" 52 '\000\000\020\000'
expect lostsize 'kernel_0: offset 0x34: .*size'

fresh sbsize-zero $new
poke "$work/sbsize-zero/fs_0" 56 '\000\000\000\000'
expect sbsize-zero 'fs_0: offset 0x38: .*size'

fresh datasize $new
poke "$work/datasize/kernel_0" 52 '\000\000\001\000'
expect datasize 'kernel_0: offset 0x34: .*size'

fresh trunc-block $old
truncate -s 8192 "$work/trunc-block/kernel_0"
expect trunc-block 'kernel_0: offset 0x38: .*size'

fresh trunc-header $new
truncate -s 40 "$work/trunc-header/kernel_0"
expect trunc-header 'kernel_0: offset 0x0: .*truncated'

fresh trunc-meta $new
truncate -s 20 "$work/trunc-meta/metadata_0"
expect trunc-meta 'metadata_0: offset 0x0: '

fresh unknown-id $old
poke "$work/unknown-id/kernel_0" 72 '\167\007'
expect unknown-id 'kernel_0: offset 0x44: .*unknown marker id 1911'

fresh meta-id $new
poke "$work/meta-id/metadata_0" 71 '\070'
expect meta-id 'metadata_0: offset 0x44: .*metadata event of id'

fresh cut-event $new
poke "$work/cut-event/kernel_0" 52 '\110\000\000\000'
expect cut-event 'kernel_0: offset 0x44: .*past'

fresh no-meta $new
rm -f "$work/no-meta/metadata_0"
expect no-meta 'no-meta: .*metadata'

echo "$pass mutated traces refused cleanly, $failed failures"
[ "$failed" -eq 0 ]
