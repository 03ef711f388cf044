#!/bin/sh
# CTF whose fields cost far more than their bytes: sequences of empty
# structs (one and two dimensions: the fuzz reproducers, from
# $TVIEW_SHARED/fuzz-crashes/ctf when present, and made here), an event
# that would print gigabytes, an event that would decode into gigabytes of
# values.  Each must end within seconds, under a memory cap, with exit 1
# and a one-line error naming the stream file and an offset; what comes
# before the hostile event is still printed.

TV_TEST_NAME=ctf-hostile
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

# A hard memory cap, unless the binary runs under AddressSanitizer (which
# reserves terabytes of address space for its shadow memory).
if nm "$TVIEW" 2>/dev/null | grep -q __asan_init; then
	limit=""
else
	limit="ulimit -v 1048576;"
fi

HDR='/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; base = 10; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
trace { major = 1; minor = 8; byte_order = le; packet.header := struct { uint32_t magic; }; };'

# mk DIR PAYLOAD: a trace whose one event class has fields PAYLOAD.
mk() {
	mkdir -p "$1"
	printf '%s\nevent { name = "big"; fields := struct { %s }; };\n' \
	    "$HDR" "$2" >"$1/metadata"
	printf '\301\037\374\301' >"$1/stream"
}

# refused NAME DIR [EVENT-LINES]: exit 1 within 20 s under the memory cap,
# one stderr line naming DIR/stream and an offset, EVENT-LINES (default
# 0) lines on stdout.
refused() {
	sh -c "$limit exec timeout 20 \"$TVIEW\" --dump \"$2\"" \
	    >"$tmp/out" 2>"$tmp/err"
	rc=$?
	ok "$1: exit 1 (got $rc)" test "$rc" -eq 1
	ok "$1: one line on stderr" test "$(grep -c . "$tmp/err")" -eq 1
	ok "$1: the error names the stream and an offset" \
	    grep -q "^tview: .*/${2##*/}/stream: offset 0x[0-9a-f]*: " "$tmp/err"
	ok "$1: ${3:-0} event lines before it" \
	    test "$(grep -c . "$tmp/out")" -eq "${3:-0}"
	test "$rc" -eq 1 || cat "$tmp/err"
}

# 4,096 events, each a sequence of 1,048,576 empty structs (16 MB of text
# each without the cap).
mk "$tmp/seq1d" 'uint32_t len; struct {} e[len];'
printf '\000\000\020\000' >"$tmp/ev"
for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do
	cat "$tmp/ev" "$tmp/ev" >"$tmp/ev2" && mv "$tmp/ev2" "$tmp/ev"
done
cat "$tmp/ev" >>"$tmp/seq1d/stream"
refused "1-D empty sequence" "$tmp/seq1d"

# len x len empty structs, len = 65,536: unbounded memory without the cap.
mk "$tmp/seq2d" 'uint32_t len; struct {} e[len][len];'
printf '\000\000\001\000' >>"$tmp/seq2d/stream"
refused "2-D empty sequence" "$tmp/seq2d"

# Three dimensions of 1,024: 2^30 elements, a loop of 2^20 even when the
# innermost level is skipped in one step.
mk "$tmp/seq3d" 'uint32_t len; struct {} e[len][len][len];'
printf '\000\004\000\000' >>"$tmp/seq3d/stream"
refused "3-D empty sequence" "$tmp/seq3d"

# A sequence of sequences of length 0 (each element reads nothing).
mk "$tmp/seqseq" 'uint32_t len; uint32_t zero; uint8_t e[len][zero];'
printf '\000\000\020\000\000\000\000\000' >>"$tmp/seqseq/stream"
refused "sequence of empty sequences" "$tmp/seqseq"

# A normal event, then one of a million binary bytes: 22 MB of text.
mk "$tmp/print" 'uint32_t len; integer { size = 8; align = 8; signed = false; base = 2; } e[len];'
printf '\003\000\000\000abc\000\000\020\000' >>"$tmp/print/stream"
head -c 1048576 /dev/zero >>"$tmp/print/stream"
refused "an event printing 22 MB" "$tmp/print" 1
ok "the event before it is printed whole" \
    grep -q '^big: { len = 3, e = \[ \[0\] = 0b01100001, \[1\] = 0b01100010, \[2\] = 0b01100011 \] }$' \
    "$tmp/out"

# 40 million one-bit integers in 5 MB: 1.9 GB of decoded values.
mk "$tmp/values" 'uint32_t len; integer { size = 1; align = 1; signed = false; } e[len];'
printf '\000\132\142\002' >>"$tmp/values/stream"
head -c 5000000 /dev/zero >>"$tmp/values/stream"
refused "40M one-bit values" "$tmp/values"

# The fuzzer's reproducers themselves.
fc=${TVIEW_SHARED:+$TVIEW_SHARED/fuzz-crashes/ctf}
if test -n "$fc" && test -d "$fc"; then
	for d in "$fc"/*/; do
		d=${d%/}
		refused "${d##*/}" "$d"
	done
else
	echo "# no shared fuzz-crashes/ctf: the reproducers are not run"
fi

tv_test_done
