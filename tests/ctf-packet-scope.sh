#!/bin/sh
# Fields the packet context decides: a sequence whose length is a
# packet-context field, and a field after it.  A filter decodes the
# payload alone; the packet scopes are skipped only for event classes
# that read nothing they leave (ctf_packet_skippable), so a filter on
# the field after the sequence must see it where it is, in packets of
# different lengths.  babeltrace2, when present, says the same.

TV_TEST_NAME=ctf-packet-scope
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
. "$top_srcdir/tests/unswitched-ctf.sh"
t=$tmp/trace
mkdir -p "$t"
cat >"$t/metadata" <<'META'
/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
trace { major = 1; minor = 8; byte_order = le;
	packet.header := struct { uint32_t magic; uint32_t stream_id; }; };
clock { name = "monotonic"; freq = 1000000000; offset = 0; };
typealias integer { size = 64; align = 8; signed = false;
	map = clock.monotonic.value; } := uint64_clock_monotonic_t;
stream { id = 0;
	packet.context := struct { uint32_t content_size;
	    uint32_t packet_size; uint32_t len; };
	event.header := struct { uint32_t id;
	    uint64_clock_monotonic_t timestamp; }; };
event { name = "blob"; id = 0; stream_id = 0; fields := struct {
	uint32_t tag; uint8_t b[stream.packet.context.len];
	uint32_t after; }; };
META
# ev TS TAG AFTER BYTE...: one "blob" record.
blob() {
	le32 0; le64 "$1"; le32 "$2"; _after=$3; shift 3
	for _b; do printf "$(printf '\\%03o' "$_b")"; done
	le32 "$_after"
}
{
	# 20 bytes of header and context, two records of 23: 66 bytes
	le32 3254525889; le32 0; le32 528; le32 528; le32 3
	blob 1000 11 7 1 2 3
	blob 2000 22 8 4 5 6
	# then 20 and one record of 22: 42 bytes
	le32 3254525889; le32 0; le32 336; le32 336; le32 2
	blob 3000 33 8 9 10
} >"$t/stream_0"

"$TVIEW" --dump "$t" >"$tmp/all" 2>"$tmp/err"
ok "the trace dumps" test $? -eq 0 -a ! -s "$tmp/err"
ok "three records, the last with b = 9, 10 and after = 8" test \
    "$(wc -l <"$tmp/all" | tr -d ' '):$(tail -n 1 "$tmp/all" |
    sed 's/.*b = \[ \[0\] = \([0-9]*\), \[1\] = \([0-9]*\) \],'`
    `' after = \([0-9]*\).*/\1,\2,\3/')" = "3:9,10,8"
cat "$tmp/all"

for case in "after == 8:2" "after == 7:1" "after == 8 && tag == 33:1" \
    "after > 8:0" "tag == 22 && after != 8:0"; do
	expr=${case%:*} want=${case##*:}
	got=$("$TVIEW" --count --filter "$expr" "$t" 2>&1)
	ok "--count --filter '$expr': $want ($got)" test "$got" = "$want"
done
"$TVIEW" --dump --filter 'after == 8' "$t" >"$tmp/f" 2>&1
ok "--dump --filter 'after == 8' prints the records of tags 22 and 33" \
    test "$(sed 's/.*tag = \([0-9]*\),.*/\1/' "$tmp/f" | tr '\n' ' ')" = \
    "22 33 "

if command -v babeltrace2 >/dev/null 2>&1; then
	babeltrace2 "$t" 2>&1 | sed 's/ (+[^)]*)//' >"$tmp/bt2"
	ok "the dump equals babeltrace2's" cmp -s "$tmp/all" "$tmp/bt2"
	grep 'after = 8 ' "$tmp/bt2" >"$tmp/bt2f"
	ok "the filtered dump equals babeltrace2's records with after = 8" \
	    cmp -s "$tmp/f" "$tmp/bt2f"
else
	echo "# babeltrace2 absent: the oracle is skipped"
fi
tv_test_done
