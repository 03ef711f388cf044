#!/bin/sh
# Ctrl-D and Ctrl-U move by half of the rows a pane shows, in every list
# pane alike (one list engine): the process, fields and bookmark panes
# move their cursor by h/2 rows, the help scrolls by h/2 lines, and
# Ctrl-U comes back.  The terminal is 100x30: the bottom panes are 12
# lines high (processes: 10 rows under two title lines, so 5; fields and
# bookmarks: 11 rows, so 5), the help 28 (27 lines, so 13).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 20000 --seed 3
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME

# lines FIRST LAST: screen lines FIRST..LAST (1-based), attributes kept.
lines() {
	tmux -L "$sock" capture-pane -e -p -t 0 2>/dev/null |
	    sed -n "$1,$2p"
}

# plain: strip the escape sequences of capture-pane -e.
plain() {
	sed 's/\x1b\[[0-9;]*m//g'
}

# selected FIRST LAST: the text of the reverse-video line among them.
selected() {
	lines "$1" "$2" | grep -m1 "$(printf '\033')\[[0-9;]*7m" | plain
}

# row_of TEXT FIRST LAST: the index (0-based) of the line holding TEXT.
row_of() {
	lines "$2" "$3" | plain | grep -nF -m1 -- "$1" | cut -d: -f1 |
	    awk '{ print $1 - 1 }'
}

# bm_sel NAME: the bookmark pane's selected row ('>') is bookmark NAME.
bm_sel() {
	test "$(ui_screen | grep -m1 '^>.* bm[0-9]*$' | grep -o 'bm[0-9]*$')" = "$1"
}

# line_is N TEXT: screen line N is TEXT.
line_is() {
	test "$(lines "$1" "$1" | plain)" = "$2"
}

# same_sel FIRST LAST WANT: the selected line is WANT.
same_sel() {
	test "$(selected "$1" "$2")" = "$3"
}

ui_start NO_COLOR=1 TVIEW_CACHE=off "$tmp/trace"
ok "started" ui_wait "Event"
ui_type ":goto #10000"; ui_keys Enter
ok "in the middle" ui_wait "event 10000 of"

# --- processes: rows on screen lines 19..28
ui_keys P
ok "process pane" ui_wait "Processes:"
ok "threads listed" ui_wait "systemd"
ui_keys g
ok "first thread selected" ui_poll same_sel 19 19 "$(lines 19 19 | plain)"
want=$(lines 24 24 | plain)
first=$(lines 19 19 | plain)
ui_keys C-d
ok "processes: Ctrl-D moves 5 rows" ui_poll same_sel 19 28 "$want"
ui_keys C-u
ok "processes: Ctrl-U moves back" ui_poll same_sel 19 28 "$first"
ui_keys P
ok "closed" ui_wait_gone "Processes:"

# --- fields: rows on screen lines 18..28
ui_keys Enter
ok "fields pane" ui_wait "Fields (Tab"
ui_keys g
ok "first line selected" ui_poll same_sel 18 18 "$(lines 18 18 | plain)"
want=$(lines 23 23 | plain)
first=$(lines 18 18 | plain)
ui_keys C-d
ok "fields: Ctrl-D moves 5 rows" ui_poll same_sel 18 28 "$want"
ui_keys C-u
ok "fields: Ctrl-U moves back" ui_poll same_sel 18 28 "$first"
ui_keys Escape
ok "closed" ui_wait_gone "Fields (Tab"

# --- bookmarks: twelve of them, rows on screen lines 18..28, '>' marks
i=0
while [ "$i" -lt 12 ]; do
	ui_keys m
	ui_wait "bookmark name:" || break
	ui_type "bm$i"; ui_keys Enter
	ui_wait "bookmark text:" || break
	ui_keys Enter j
	i=$((i + 1))
done
ok "12 bookmarks" ui_wait "12 bookmarks"
ui_keys B
ok "bookmark pane" ui_wait "Bookmarks (12)"
ui_keys g
ok "first bookmark selected" ui_poll bm_sel bm0
ok "on the first row" test "$(row_of '>' 18 28)" = 0
ui_keys C-d
ok "bookmarks: Ctrl-D moves 5 rows" ui_poll bm_sel bm5
ui_keys C-u
ok "bookmarks: Ctrl-U moves back" ui_poll bm_sel bm0
ui_keys B
ok "closed" ui_wait_gone "Bookmarks (12)"

# --- help: text on screen lines 2..28, scrolls by 13
ui_keys h
ok "help" ui_wait "tview help"
want=$(lines 15 15 | plain)
first=$(lines 2 2 | plain)
ui_keys C-d
ok "help: Ctrl-D scrolls 13 lines" ui_poll line_is 2 "$want"
ui_keys C-u
ok "help: Ctrl-U scrolls back" ui_poll line_is 2 "$first"
ui_keys q
ok "help closed" ui_wait_gone "tview help"
ok "quits with 0" ui_quit
done_tests
