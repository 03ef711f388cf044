#!/bin/sh
# CTF 2 of known content: gen-ctf2 writes a trace using every field class
# of the specification, in either byte order, with what `tview --dump`
# must print; and traces with one mistake each (bad JSON, bad RS framing,
# unknown types, wrong field locations, alias cycles, huge lengths, ...)
# whose one-line error must name the fragment and the JSON path.  Then
# mutations of the metadata and of the stream: tview must finish in
# time, without a crash or sanitizer report, and fail in one line.
# Run by `make check` (which sets top_builddir and TVIEW).

TV_TEST_NAME=ctf2-gen
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen=$top_builddir/gen-ctf2
test -x "$gen" || { echo "no gen-ctf2 at $gen"; exit 99; }

for bo in "" --big-endian; do
	rm -rf "$tmp/t"
	"$gen" $bo "$tmp/t" >"$tmp/exp"
	timeout 30 "$TVIEW" --dump "$tmp/t" >"$tmp/got" 2>"$tmp/err"
	rc=$?
	ok "dump ${bo:-little-endian}: exit 0, no message" \
	    test $rc -eq 0 -a ! -s "$tmp/err"
	ok "dump ${bo:-little-endian}: every field class as written" \
	    cmp -s "$tmp/exp" "$tmp/got"
	test -n "$bo" || cp -R "$tmp/t" "$tmp/good"
done

"$TVIEW" --info "$tmp/good" >"$tmp/info" 2>&1
ok "--info: format version CTF 2" grep -q 'Format version: CTF 2' "$tmp/info"
ok "--info: the attributes" \
    grep -qF 'preamble attributes: {\"gen.org,2024\":{\"by\":\"gen-ctf2\"}}' \
    "$tmp/info"
ok "--info: the release candidates' user attributes" \
    grep -qF 'event-record-class ints user-attributes: {\"lttng.org,2009\"' \
    "$tmp/info"
ok "--info: a clock origin object" \
    grep -qF 'clock-class board origin: {\"namespace\":\"gen.org,2024\",\"name\":\"board-power-on\",\"uid\":\"b-1\"}' \
    "$tmp/info"
ok "--info: that clock is not absolute, the unix-epoch one is" \
    sh -c 'grep -q "^    board: frequency 32768 Hz, offset 0 s + 0 cycles\$" "$1" &&
    grep -q "^    clk: .*, absolute\$" "$1"' sh "$tmp/info"
ok "--info: the trace class uid" \
    grep -q 'trace-class uid: gen-ctf2-trace' "$tmp/info"
ok "--info: the environment" grep -q 'answer = 42' "$tmp/info"

for e in $("$gen" --list-errors); do
	rm -rf "$tmp/t"
	want=$("$gen" --error "$e" "$tmp/t")
	timeout 30 "$TVIEW" --dump "$tmp/t" >/dev/null 2>"$tmp/err"
	rc=$?
	ok "error $e: exit 1 with one line" \
	    test $rc -eq 1 -a "$(wc -l <"$tmp/err")" -eq 1
	ok "error $e: names file, offset, fragment and path" \
	    grep -qF "metadata: offset 0x" "$tmp/err"
	ok "error $e: says \"$want\"" grep -qF -- "$want" "$tmp/err"
done

# Mutations: a few bytes of the metadata or the stream overwritten, or
# the metadata cut short (deterministic positions).
runs=0 bad=0 seed=4242
next_rand() {
	seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
	echo $(( seed % $1 ))
}
i=0
while test $i -lt 60; do
	i=$((i + 1))
	rm -rf "$tmp/t"
	cp -R "$tmp/good" "$tmp/t"
	case $((i % 3)) in
	0) f=$tmp/t/stream;;
	*) f=$tmp/t/metadata;;
	esac
	mutate "$f" "$i" 5 3
	timeout 30 "$TVIEW" --dump "$tmp/t" >/dev/null 2>"$tmp/err"
	rc=$?
	runs=$((runs + 1))
	if test $rc -ge 124 ||
	    grep -q -E 'Sanitizer|runtime error' "$tmp/err" ||
	    { test $rc -ne 0 && test "$(wc -l <"$tmp/err")" -ne 1; }; then
		bad=$((bad + 1))
		echo "# BAD: mutation $i (rc $rc)"
		head -n 5 "$tmp/err" | sed 's/^/#   /'
	fi
done
ok "$runs mutations: no crash, hang or multi-line failure" test $bad -eq 0
tv_test_done
