#!/bin/sh
# Hostile CTF data streams: copies of a few shared traces get their stream
# files truncated or a few bytes overwritten (deterministic positions);
# `tview --dump` must then finish in time, without a crash or a sanitizer
# report, and when it fails, say why.  The metadata of CTF 2 traces is
# mutated too: its errors must be one line.  Skips without the shared
# folder.
#
# Usage: tests/ctf-mutate.sh   (env: TVIEW, TVIEW_SHARED)

top=$(cd "$(dirname "$0")/.." && pwd)
TVIEW=${TVIEW:-$top/tview}
shared=${TVIEW_SHARED:-$top/../shared}
ctf=$shared/traces/ctf
if ! test -d "$ctf"; then
	echo "ctf-mutate: SKIP: no shared traces at $shared"
	exit 77
fi
TV_TEST_NAME='ctf-mutate'
top_srcdir=$top
# shellcheck source=lib.sh
. "$top/tests/lib.sh"	# the temporary directory and mutate()

runs=0 bad=0 seed=12345
# next_rand MAX: a deterministic pseudo-random number in [0, MAX).
next_rand() {
	seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
	echo $(( seed % $1 ))
}

for name in bt-smalltrace bt-2packets bt-trace-with-index \
    bt-lttng-tracefile-rotation bt-multi-domains tc-flipping-endianness \
    cts-stream-pass-variant-missing-fields \
    bt-packet-seq-num-7-lost-between-2-with-index \
    tc-CTF2-7.0-trace-with-index tc-CTF2-7.0-lttng-crash tc-CTF2-vl-ints; do
	test -d "$ctf/$name" || continue
	i=0
	while test $i -lt 12; do
		i=$((i + 1))
		rm -rf "$tmp/t"
		cp -R "$ctf/$name" "$tmp/t" && chmod -R u+w "$tmp/t" || exit 1
		files=$(find "$tmp/t" -type f ! -name metadata ! -name '*.md' \
		    ! -name README | sort)
		n=$(echo "$files" | wc -l)
		f=$(echo "$files" | sed -n "$(( $(next_rand "$n") + 1 ))p")
		size=$(wc -c <"$f")
		test "$size" -gt 0 || continue
		mutate "$f" "$i" 3 4
		timeout 30 "$TVIEW" --dump "$tmp/t" >/dev/null 2>"$tmp/err"
		rc=$?
		runs=$((runs + 1))
		if test $rc -ge 124 ||
		    grep -q -E 'Sanitizer|runtime error' "$tmp/err" ||
		    { test $rc -ne 0 && ! test -s "$tmp/err"; }; then
			bad=$((bad + 1))
			echo "BAD: $name mutation $i (rc $rc)"
			head -n 5 "$tmp/err"
		fi
	done
done
# CTF 2 metadata (JSON text sequences): a few bytes overwritten, or the
# text cut short; errors must still be one line.
for name in tc-CTF2-7.0-trace-with-index tc-CTF2-7.0-meta-variant-no-underscore \
    tc-CTF2-vl-ints; do
	test -d "$ctf/$name" || continue
	i=0
	while test $i -lt 12; do
		i=$((i + 1))
		rm -rf "$tmp/t"
		cp -R "$ctf/$name" "$tmp/t" && chmod -R u+w "$tmp/t" || exit 1
		f=$tmp/t/metadata
		mutate "$f" "$i" 4 2
		timeout 30 "$TVIEW" --dump "$tmp/t" >/dev/null 2>"$tmp/err"
		rc=$?
		runs=$((runs + 1))
		if test $rc -ge 124 ||
		    grep -q -E 'Sanitizer|runtime error' "$tmp/err" ||
		    { test $rc -ne 0 && test "$(wc -l <"$tmp/err")" -ne 1; }; then
			bad=$((bad + 1))
			echo "BAD: $name metadata mutation $i (rc $rc)"
			head -n 5 "$tmp/err"
		fi
	done
done
echo "ctf-mutate: $runs mutated traces, $bad crashed, hung or failed silently"
test $bad -eq 0
