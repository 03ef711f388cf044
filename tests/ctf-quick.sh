#!/bin/sh
# The CTF packet walk's quick path gives what the generic walk gives
# (tests/ctf-quick-test.c): on generated traces of both LTTng header
# layouts, with small packets, losses and index files; on every shared
# CTF trace when ../shared is there; and on damaged copies of a
# generated trace, where the quick path must stop and leave the error to
# the generic walk.  Each run must have walked packets with a table, or
# it proved nothing.

TV_TEST_NAME=ctf-quick
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

qt=$top_builddir/tests/ctf-quick-test
test -x "$qt" || { echo "no $qt"; exit 99; }
test -x "$GEN_CTF" || { echo "no $GEN_CTF"; exit 99; }
shared=${TVIEW_SHARED:-$top_srcdir/../shared}

# walk NAME TRACE...: both walks agree on TRACE..., some with a table.
walk() {
	_name=$1
	shift
	"$qt" "$@" >"$tmp/out" 2>&1
	_rc=$?
	_quick=$(sed -n 's/^quick //p' "$tmp/out")
	ok "$_name: the quick and the generic walk agree" test "$_rc" -eq 0
	ok "$_name: packets walked with a quick table ($_quick)" \
	    test "${_quick:-0}" -gt 0
	test "$_rc" -eq 0 || grep '^# FAIL' "$tmp/out" | head -5
}

"$GEN_CTF" --quiet --cpus 3 --events 60000 --packet-size 4096 \
    --discard --seq-gap "$tmp/compact" || exit 99
"$GEN_CTF" --quiet --cpus 2 --events 40000 --packet-size 8192 \
    --large-header --index --seed 7 "$tmp/large" || exit 99
walk "generated" "$tmp/compact" "$tmp/large"

if test -d "$shared/traces/ctf"; then
	walk "shared CTF traces" "$shared"/traces/ctf/*
else
	echo "skip: no shared traces at $shared"
fi

# Damaged copies: bytes overwritten in the stream files, or one cut.
seed=4242
next_rand() {
	seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
	echo $(( seed % $1 ))
}
i=0
while test "$i" -lt 12; do
	i=$((i + 1))
	rm -rf "$tmp/m$i"
	cp -r "$tmp/compact" "$tmp/m$i"
	for f in "$tmp/m$i"/channel0_*; do
		mutate "$f" "$i" 4 40
	done
done
walk "damaged" "$tmp"/m*

tv_test_done
