#!/bin/sh
# A CTF 2 trace in the browser (gen-ctf2's): the event list and the
# fields pane show its values through the same model as CTF 1.8's:
# strings of static and dynamic length end at their NUL, UTF-16/32
# strings come as UTF-8, variable-length integers, BLOBs (and their
# media type), bit maps, optionals.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen2=$top_builddir/gen-ctf2
test -x "$gen2" || { echo "skip: no $gen2"; exit 77; }
"$gen2" "$tmp/trace" >/dev/null || { echo "gen-ctf2 failed"; exit 99; }

ui_start -x 250 -y 70 "$tmp/trace"
ok "started" ui_wait "Event"
ok "integers, variable-length ones too" \
    ui_wait "s64 = -9223372036854775808, b3 = 5, b13 = -100"
ok "vu and vs" ui_wait "vu = 624485, vs = -123456"
ok "static/dynamic strings end at their NUL" \
    ui_wait 'st = "abc", len = 5, dt = "dyn", after = 7'
ok "UTF-16 and UTF-32 strings as UTF-8" ui_wait 'w16 = "wide", w32 = "utf3"'
ok "BLOBs as bytes" ui_wait "blob = [ 0x1, 0x2, 0xfe, 0xff ]"
ui_keys Enter
ok "fields pane: the packet header folded" ui_wait "+ packet header"
# the last line says where the record is; the packet header is above it
ui_keys G Up Enter
ok "unfolded, the packet header's uuid" ui_wait "uuid = [ 0x1, 0x2"
ok "a bit map: every flag set, in the list" ui_wait "flags = A|B|C, vu"
ok "and in the fields pane" ui_wait "flags = A|B|C (0x83)"
ui_keys Escape Down Down Enter
ok "a BLOB's media type, in the fields pane" \
    ui_wait "blob <image/png> = [ 0x1, 0x2, 0xfe, 0xff ]"
ok "quits cleanly" ui_quit
done_tests
