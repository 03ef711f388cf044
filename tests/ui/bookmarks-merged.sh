#!/bin/sh
# Several traces open: a bookmark goes to the bookmarks.xml of its own
# event's trace, not the first one's; the pane lists those of every
# trace by time, Enter jumps to either, and each trace opened alone finds
# its own bookmark at the same time.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/alpha" --cpus 2 --events 300 --seed 5
gen_trace "$tmp/beta" --cpus 2 --events 300 --seed 9
"$TVIEW" --dump "$tmp/alpha" >"$tmp/dump-a" 2>/dev/null
"$TVIEW" --dump "$tmp/beta" >"$tmp/dump-b" 2>/dev/null
ta=$(dump_time "$(dump_line 100 "$tmp/dump-a")")
tb=$(dump_time "$(dump_line 200 "$tmp/dump-b")")
xa=$tmp/alpha/info/bookmarks.xml
xb=$tmp/beta/info/bookmarks.xml

ui_start -x 160 -y 30 "$tmp/alpha" "$tmp/beta"
ok "started" ui_wait "Event"
ui_type ":goto $tb"; ui_keys Enter
ok "on an event of the second trace" ui_wait_sel "$tb"
ui_keys m; ui_type "in-beta"; ui_keys Enter; ui_type "second"; ui_keys Enter
ok "saved in the second trace's file" ui_wait "bookmarks saved in $xb"
ui_type ":goto $ta"; ui_keys Enter
ok "on an event of the first trace" ui_wait_sel "$ta"
ui_keys m; ui_type "in-alpha"; ui_keys Enter; ui_type "first"; ui_keys Enter
ok "saved in the first trace's file" ui_wait "bookmarks saved in $xa"
ok "status bar counts both" ui_wait "2 bookmarks"
ok "q saves and quits" ui_quit

ok "the first trace's file holds its bookmark" grep -q 'in-alpha' "$xa"
ok "... and not the other's" sh -c "! grep -q 'in-beta' '$xa'"
ok "the second trace's file holds its bookmark" grep -q 'in-beta' "$xb"
ok "... and not the other's" sh -c "! grep -q 'in-alpha' '$xb'"

"$TVIEW" --bookmarks "$tmp/alpha" "$tmp/beta" >"$tmp/bm" 2>"$tmp/err"
ok "--bookmarks: each trace's list under its name" test "$(
	sed -n 's/^==> .*\/\(alpha\|beta\) <==$/\1/p' "$tmp/bm" | tr '\n' ' ')" = \
    "alpha beta "
ok "... alpha's holds its bookmark" \
    test "$(sed -n '/alpha <==/,/^$/p' "$tmp/bm" | grep -c 'in-')" -eq 1
ok "... beta's holds its bookmark" \
    grep -q "^$tb	-	-	[0-9]	in-beta	second\$" "$tmp/bm"
"$TVIEW" --dump --bookmarked "$tmp/alpha" "$tmp/beta" >"$tmp/bmd" 2>"$tmp/err"
ok "--dump --bookmarked: the first trace's bookmarked event" \
    grep -q "^\[$ta\]" "$tmp/bmd"
ok "... and the second's" grep -q "^\[$tb\]" "$tmp/bmd"

ui_start -x 160 -y 30 "$tmp/alpha" "$tmp/beta"
ok "restarted on both" ui_wait "2 bookmarks"
ui_keys B
ok "the pane lists both" ui_wait "Bookmarks (2)"
ok "... the first trace's" ui_wait "in-alpha  first"
ok "... the second trace's" ui_wait "in-beta  second"
ok "... each row names its trace as the Trace column does" \
    test "$(ui_screen | grep -c '^.tview-demo  .*  in-')" -eq 2
ui_keys Enter
ok "Enter jumps to the earlier one" ui_wait_sel "$(
	printf '%s\n%s\n' "$ta" "$tb" | sort | head -n 1)"
ui_keys Down Enter
ok "Down Enter jumps to the later one" ui_wait_sel "$(
	printf '%s\n%s\n' "$ta" "$tb" | sort | tail -n 1)"
ok "quits" ui_quit

ui_start -x 160 -y 30 "$tmp/beta"
ok "the second trace alone has its one bookmark" ui_wait "1 bookmark"
ui_keys u
ok "u goes to it, at the same time" ui_wait_sel "$tb"
ok "quits" ui_quit
done_tests
