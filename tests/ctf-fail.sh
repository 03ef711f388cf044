#!/bin/sh
# Every malformed trace of ../shared/traces/ctf-fail must be refused the way
# a user deserves: exit status != 0, a one-line error naming the file (and
# the offset or metadata line), no crash, no hang, bounded memory.  Many of
# these hang or exhaust memory in other readers.  Skips without ../shared.

tview=${TVIEW:-./tview}
dir="$TVIEW_SHARED/traces/ctf-fail"
[ -n "$TVIEW_SHARED" ] && [ -d "$dir" ] ||
	{ echo "SKIP: no shared traces (../shared is not beside the tree)"; exit 77; }

# A hard memory cap, unless the binary runs under AddressSanitizer (which
# reserves terabytes of address space for its shadow memory).
if ! nm "$tview" 2>/dev/null | grep -q __asan_init; then
	limit="ulimit -v 1048576;"
else
	limit=""
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tview-fail.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
pass=0 failed=0
for t in "$dir"/*/; do
	t=${t%/}; name=${t##*/}
	sh -c "$limit exec timeout 20 \"$tview\" --dump \"$t\"" \
	    >"$work/out" 2>"$work/err"
	rc=$?
	nerr=$(grep -c . "$work/err")
	if [ "$rc" -eq 0 ]; then
		echo "FAIL: $name: exit 0 on a malformed trace"; failed=$((failed + 1))
	elif [ "$rc" -eq 124 ]; then
		echo "FAIL: $name: hang (killed after 20 s)"; failed=$((failed + 1))
	elif [ "$rc" -gt 128 ]; then
		echo "FAIL: $name: killed by signal $((rc - 128))"; failed=$((failed + 1))
	elif [ "$nerr" -ne 1 ]; then
		echo "FAIL: $name: expected a one-line error, got $nerr lines:"
		head -3 "$work/err"; failed=$((failed + 1))
	elif ! grep -q "$name" "$work/err"; then
		echo "FAIL: $name: the error does not name the file: $(cat "$work/err")"
		failed=$((failed + 1))
	else
		pass=$((pass + 1))
	fi
done
echo "ctf-fail: $pass refused cleanly, $failed not"
[ "$failed" -eq 0 ]
