#!/bin/sh
# A row whose record holds more values than the decoder builds (a
# sequence of 5,000,000 one-bit integers, past CTF's bound of 4M) shows
# "<cannot decode: ...>" with the bound in it.  A search for that text
# finds the row, in both directions, and the parallel search judges
# every row as the one-thread search does: a class that holds a
# sequence is never ruled out whole by its static text, since one of
# its records may render such an error instead of its values.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

d=$tmp/t
mkdir -p "$d"
cat >"$d/metadata" <<'META'
/* CTF 1.8 */
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
trace { major = 1; minor = 8; byte_order = le;
	packet.header := struct { uint32_t magic; }; };
event { name = "bits"; fields := struct { uint32_t len;
	integer { size = 1; align = 1; signed = false; } e[len]; }; };
META
# 2,048 events of 8 bits (5 bytes each: they stay byte-aligned), the
# one of 5,000,000 bits, 2,048 more
printf '\010\000\000\000\005' >"$tmp/ev"
for _ in 1 2 3 4 5 6 7 8 9 10 11; do
	cat "$tmp/ev" "$tmp/ev" >"$tmp/ev2" && mv "$tmp/ev2" "$tmp/ev"
done
{
	printf '\301\037\374\301'
	cat "$tmp/ev"
	printf '\100\113\114\000'
	head -c 625000 /dev/zero
	cat "$tmp/ev"
} >"$d/stream"
"$TVIEW" --dump "$d" >"$tmp/dump" 2>"$tmp/err"
ok "--dump: the bound is passed at the big record" \
    grep -q "more than 4194304 fields" "$tmp/err"
ok "--dump: every other record is printed" \
    test "$(grep -c . "$tmp/dump")" -eq 4096

# "cannot" holds an o, a letter no number is written with, and the
# class's own text (bits, len, e) has none: only the record's can match.
ui_start -x 160 TVIEW_UI_SEARCH_NEAR=0 "$d"
ok "started" ui_wait "event 1 of 4097"
ui_type "/cannot"; ui_keys Enter
ok "forwards: the big row found" ui_wait "event 2049 of 4097"
ok "it shows why it cannot be decoded" \
    ui_wait "<cannot decode: event has more than 4194304 fields"
ui_keys G
ok "at the end" ui_wait "event 4097 of 4097"
ui_type "?cannot"; ui_keys Enter
ok "backwards: the big row found" ui_wait "event 2049 of 4097"
ok "quits with 0" ui_quit

# Every row judged by the workers against the one-thread search (which
# renders every row here too, so this run alone would find the row
# whatever the workers said of it)
ui_start -x 160 TVIEW_UI_SEARCH_NEAR=0 TVIEW_UI_SEARCH_CHECK=1 "$d"
ok "started again" ui_wait "event 1 of 4097"
ui_type "/cannot"; ui_keys Enter
ok "checked: the big row found" ui_wait "event 2049 of 4097"
ui_type "/zq9nomatch"; ui_keys Enter
ok "text no row holds: not found" ui_wait "pattern not found"
no_check() { ! ui_screen | grep -q "search check"; }
ok "every row as the one-thread search has it" no_check
ok "quits with 0 again" ui_quit
done_tests
