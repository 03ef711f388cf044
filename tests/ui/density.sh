#!/bin/sh
# The density strip of the timeline pane (C): at 80x24 under LANG=C
# (ASCII heights " .:-=+*#@") and at 200x60, over the whole trace, the
# glyph of every column is what the events of --dump give (events per
# column of [first, last], scaled to the busiest column in eight
# heights); the column cursor is marked '^' under it and follows Right;
# a bookmark shows as 'B' in its column; zooming in (+) redraws the strip
# for the narrower window; in a UTF-8 locale the heights are block
# elements.
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 20000 --seed 4
XDG_CACHE_HOME=$tmp/cache
XDG_DATA_HOME=$tmp/data
export XDG_CACHE_HOME XDG_DATA_HOME
# event times as exact integers: ns since the first event's second (the
# trace lies within one day: [HH:MM:SS.nnnnnnnnn])
"$TVIEW" --dump "$tmp/trace" 2>/dev/null |
    sed -n 's/^\[\([0-9]*\):\([0-9]*\):\([0-9]*\)\.\([0-9]*\)\].*/\1 \2 \3 \4/p' |
    awk '{ s = $1 * 3600 + $2 * 60 + $3 } NR == 1 { s0 = s }
    { printf "%.0f\n", (s - s0) * 1e9 + $4 }' >"$tmp/ns"
test "$(wc -l <"$tmp/ns")" -eq 20000 || { echo "FAIL: event times"; exit 1; }

# expect COLS: the strip's glyphs over [first, last + 1) in COLS columns
expect() {
	awk -v n="$1" 'NR == FNR { t[NR] = $1; k = NR; next } END {
	    t0 = t[1]; span = t[k] + 1 - t0
	    for (i = 1; i <= k; i++) {
		c = int((t[i] - t0) * n / span); if (c >= n) c = n - 1
		cnt[c]++; if (cnt[c] > max) max = cnt[c] }
	    g = " .:-=+*#@"
	    for (c = 0; c < n; c++) {
		l = cnt[c] ? int(cnt[c] / max * 8 + 0.999999) : 0
		if (cnt[c] && l < 1) l = 1; if (l > 8) l = 8
		printf "%s", substr(g, l + 1, 1) }
	    printf "\n" }' "$tmp/ns" /dev/null
}
# strip LINE COLS: the glyphs drawn on screen line LINE (1-based)
strip() {
	ui_screen | sed -n "${1}p" | cut -c "23-$((22 + $2))"
}
strip_is() {
	test "$(strip "$1" "$2")" = "$3"
}

for geom in 80x24 200x60; do
	w=${geom%x*} h=${geom#*x}
	n=$((w - 22 - 1))
	exp=$(expect "$n")
	ui_start -x "$w" -y "$h" NO_COLOR=1 LC_ALL=C LANG=C "$tmp/trace"
	ok "$geom: started" ui_wait "Event"
	ui_keys g C
	ok "$geom: C opens the timeline" ui_wait "Timeline:"
	ok "$geom: the density strip is labelled" ui_wait " events "
	ok "$geom: each of $n columns is what --dump's events give" \
	    ui_poll strip_is 3 "$n" "$exp"
	ok "$geom: the cursor is marked under column 1" \
	    ui_poll strip_is 4 1 "^"
	ui_keys Right Right
	ok "$geom: Right moves the mark" ui_poll strip_is 4 3 "  ^"
	ui_stop
done

# a bookmark on the selected (first) event shows in column 1
ui_start -x 80 -y 24 NO_COLOR=1 LC_ALL=C LANG=C "$tmp/trace"
ok "started" ui_wait "Event"
ui_keys g m
ok "m asks for a name" ui_wait "name"
ui_keys Enter
ui_wait "text" >/dev/null && ui_keys Enter
ui_keys C
ok "timeline" ui_wait "Timeline:"
ui_keys Right
ok "the bookmark is marked B in column 1, the cursor in 2" \
    ui_poll strip_is 4 2 "B^"
ui_keys +
ok "+ zooms in" ui_wait "Timeline:"
zoomed_differs() {
	test "$(strip 3 57)" != "$(expect 57)" &&
	    ui_screen | grep -q "^ events  *[ .:=+*#@-]"
}
ok "the strip is redrawn for the narrower window" ui_poll zoomed_differs
ui_stop

# UTF-8: block elements
ui_start -x 80 -y 24 "$tmp/trace"
ok "UTF-8: started" ui_wait "Event"
ui_keys C
ok "UTF-8: the strip uses block elements" ui_wait "█"
ui_stop
done_tests
