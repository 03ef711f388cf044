#!/bin/sh
# The timeline pane (C): the rows it draws are the rows --timeline prints
# for the same window and width (CPU rows, then threads by TID), at 100x30
# with colours and at 80x24 with NO_COLOR and LANG=C; + zooms in around
# the column cursor (the column span halves), > pans, s sorts by name, i
# hides the threads that did not run, the second line names what is
# under the cursor, and Enter goes to the column's time in the event list.
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 20000 --seed 4
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME

# rows_of WIDTH: --timeline rows as the pane draws them ("cpu N" or
# "TID name" cut to 21 columns, then the letters).
rows_of() {
	"$TVIEW" --timeline="$1" "$tmp/trace" 2>/dev/null | awk 'NR > 1 {
	    split($0, p, "|"); n = split(p[3], f, " ")
	    if (f[1] == "cpu") l = "cpu " f[2]
	    else { l = sprintf("%7s", f[1]); for (i = 3; i <= n; i++)
		l = l " " f[i] }
	    printf "%-22.21s%s\n", l, p[2] }'
}

# screen_rows: the pane's rows on screen, trailing blanks dropped.
screen_rows() {
	ui_screen | sed -n '3,$p' | grep -E '^(cpu |  +[0-9]+ )' |
	    sed 's/ *$//'
}

# same_rows N: the first N rows of the pane equal --timeline's.
same_rows() {
	screen_rows | head -n "$1" >"$tmp/got"
	sed 's/ *$//' "$tmp/want" | head -n "$1" >"$tmp/want.n"
	cmp -s "$tmp/want.n" "$tmp/got"
}

# --- 100 columns: 22 for the labels, 77 cells
rows_of 77 >"$tmp/want"
ui_start -x 100 -y 30 "$tmp/trace"
ok "started" ui_wait "Event"
ui_keys C
ok "C opens the timeline" ui_wait "Timeline:"
fifth_is_cpu0() { ui_screen | sed -n 5p | grep -q '^cpu 0 '; }
ok "CPU rows first, under the density strip" ui_poll fifth_is_cpu0
ok "24 rows equal --timeline=77 (after the pass)" ui_poll same_rows 24
span1=$(ui_screen | sed -n '1s/.*Timeline: \([^ ]* [a-z]*\) a column.*/\1/p')
ui_keys +
ok "+ zooms in" ui_wait_gone "Timeline: $span1 a column"
ui_keys Down Down
ok "the cursor line names the thread under it" \
    ui_wait "TID 1 systemd:"
ui_keys s
ok "s sorts by name" ui_wait "sorted by name"
ui_keys i
ok "i hides threads that did not run" ui_wait "sorted by name"
ui_keys Enter
ok "Enter closes the timeline" ui_wait_gone "Timeline:"
ok "and the event list is back" ui_wait "Event"
ui_keys C
ok "C opens it again" ui_wait "Timeline:"
ui_keys Escape
ok "Esc closes it" ui_wait_gone "Timeline:"
ok "q quits" ui_quit

# --- 80x24, no colour, C locale: 57 cells, the same letters
rows_of 57 >"$tmp/want"
ui_start -x 80 -y 24 NO_COLOR=1 LC_ALL=C LANG=C "$tmp/trace"
ok "80x24 started" ui_wait "Event"
ui_keys C
ok "80x24: timeline" ui_wait "Timeline:"
ok "80x24: 18 rows equal --timeline=57" ui_poll same_rows 18
ui_keys q
ok "80x24: q closes the timeline" ui_wait_gone "Timeline:"
ok "80x24: q quits" ui_quit

# --- 200x60: 177 cells
rows_of 177 >"$tmp/want"
ui_start -x 200 -y 60 "$tmp/trace"
ok "200x60 started" ui_wait "Event"
ui_keys C
ok "200x60: 54 rows equal --timeline=177" ui_poll same_rows 54
ui_keys Escape
ok "200x60: Esc closes the timeline" ui_wait_gone "Timeline:"
ok "200x60: q quits" ui_quit
done_tests
