#!/bin/sh
# Regex search over the rendered rows: / finds the next match, n repeats,
# N and ? go back, a search past the end wraps with a message, a pattern
# that matches nothing says so, and a bad regex is an error, not a crash.
# What the search matched is drawn in the match attribute, exactly the
# matched bytes, in colour (black on yellow) and with NO_COLOR (reverse).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 3000 --seed 14
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null

# Dump lines (after the first) of sched_switch events.
grep -n ' sched_switch: ' "$tmp/dump" | cut -d: -f1 | awk '$1 > 1' \
    >"$tmp/hits"
test "$(wc -l <"$tmp/hits")" -ge 3 || { echo "FAIL: fixture"; exit 1; }
h1=$(sed -n 1p "$tmp/hits"); h2=$(sed -n 2p "$tmp/hits")
t1=$(dump_time "$(dump_line "$h1" "$tmp/dump")")
t2=$(dump_time "$(dump_line "$h2" "$tmp/dump")")
n=$(wc -l <"$tmp/dump")
tl=$(dump_time "$(dump_line "$(tail -n 1 "$tmp/hits")" "$tmp/dump")")
tb=$(dump_time "$(dump_line "$(awk -v n="$n" '$1 < n' "$tmp/hits" | tail -n 1)" "$tmp/dump")")

esc=$(printf '\033')
# hl_rows ERE: how many rows show ERE (SGR sequences spelt "<SGR>").
hl_rows() {
	ui_screen_sgr | sed "s/$esc\[[0-9;]*m/<&>/g; s/<$esc\[/</g" |
	    grep -cE -- "$1"
}

ui_start "$tmp/trace"
ok "started" ui_wait "Event"
no_hl() { test "$(hl_rows '43m>sched_switch')" -eq 0; }
ok "no highlight before a search" no_hl
ui_type "/sched_sw[i]tch"; ui_keys Enter
ok "/ finds the first match (dump line $h1)" ui_wait_sel "$t1"
ok "the pattern is in the status bar" ui_wait "/sched_sw[i]tch"
# other rows: the match in black on yellow, then back to the row's colours
hl_colour() { test "$(hl_rows '<[0-9;]*43m>sched_switch<0m>')" -ge 2; }
ok "the match is highlighted in colour" hl_colour
ui_keys n
ok "n finds the next (dump line $h2)" ui_wait_sel "$t2"
ui_keys N
ok "N goes back" ui_wait_sel "$t1"
ui_keys G
ui_wait_sel "$(dump_time "$(tail -n 1 "$tmp/dump")")" >/dev/null
ui_keys N
ok "N from the end: the last match before it" ui_wait_sel "$tb"
ui_keys G n
ok "n past the end wraps to the first match" ui_wait_sel "$t1"
ok "wrap is reported" ui_wait "search wrapped"
ui_keys g
ui_type "?SCHED_SWITCH"; ui_keys Enter
ok "upper case is case-sensitive: not found" ui_wait "pattern not found"
ui_type "?sched_switch"; ui_keys Enter
ok "? from the start wraps to the last match" ui_wait_sel "$tl"
ui_type "/(unclosed"; ui_keys Enter
ok "bad regex: an error" ui_wait "bad regular expression"
ui_type ":search sched_switch"; ui_keys Enter
ok ":search works like /" ui_wait_sel "$t1"
ok "quits with 0" ui_quit

# NO_COLOR: reverse video, and only the bytes the pattern matched
ui_start NO_COLOR=1 "$tmp/trace"
ok "started without colour" ui_wait "Event"
ui_type "/sw[i]tch"; ui_keys Enter
ok "/ finds it without colour" ui_wait_sel "$t1"
hl_mono() {
	test "$(hl_rows 'sched_<[0-9;]*7[0-9;]*m>switch<0m>')" -ge 2 &&
	test "$(hl_rows '<[0-9;]*7[0-9;]*m>sched_switch')" -eq 0
}
ok "the matched bytes alone are in reverse video" hl_mono
ok "quits with 0 without colour" ui_quit
done_tests
