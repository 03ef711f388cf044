#!/bin/sh
# The statistics pane of a trace followed while it is written (issue 15,
# point 2: open views extend in place).  A gen-ctf trace is copied into
# the followed directory in parts, each stream file cut in the middle of
# a packet, CPU 1 lagging behind CPU 0 as a real consumer's buffers do:
#  - S, opened on the first part, counts its events, "counted up to"
#    the time both streams have reached;
#  - once CPU 0 is whole and CPU 1 at 70%, the pane counts more, still
#    up to the lagging stream's time;
#  - F stops following: the walk goes on to the last record, and the
#    pane's total and class counts equal `tview --stats` of the files
#    as they are, L's wake-up row `tview --latency`'s;
#  - q exits with 0.
# That the walk goes on rather than starting over is the unit test's
# part (tests/unit/test-follow-pass.c counts the records it reads).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/src" --cpus 2 --events 40000 --seed 8 --packet-size 4096
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME
mkdir "$tmp/live" && cp "$tmp/src/metadata" "$tmp/live/" || exit 99
# copy: FILE PERCENT: grow the live copy of FILE to PERCENT of its bytes
copy() {
	_size=$(wc -c <"$tmp/src/$1")
	_have=$(wc -c <"$tmp/live/$1" 2>/dev/null || echo 0)
	_want=$((_size * $2 / 100))
	tail -c +$((_have + 1)) "$tmp/src/$1" | head -c $((_want - _have)) \
	    >>"$tmp/live/$1"
}
copy channel0_0 40 && copy channel0_1 25 || exit 99

ui_start -x 110 -y 60 --follow "$tmp/live"
ok "following the first part" ui_wait "Event"
ui_keys S
ok "S counts the first part up to a time" ui_wait "counted up to"
counted() {
	ui_screen | sed -n 's/^ *\([0-9][0-9]*\) events, 0 lost.*/\1/p' |
	    head -n 1
}
first=$(counted)
ok "some events (${first:-none})" test "${first:-0}" -gt 0
copy channel0_0 100 && copy channel0_1 70 || exit 99
more_counted() {
	_n=$(counted)
	test -n "$_n" && test "$_n" -gt "$first" &&
	    ui_screen | grep -q "counted up to"
}
ok "the trace grew: the pane counts more than $first, up to a time" \
    ui_poll more_counted
ui_keys F
"$TVIEW" --stats "$tmp/live" >"$tmp/stats" 2>/dev/null
"$TVIEW" --latency wakeup "$tmp/live" >"$tmp/lat" 2>/dev/null
total=$(awk '$1 == "events" { print $2 }' "$tmp/stats")
ok "F stops following: the pane counts all ${total:-?} events in" \
    ui_wait " ${total:-?} events, 0 lost"
ok "and says no more 'counted up to'" ui_wait_gone "counted up to"
awk '/^ *EVENTS +CLASS/ { on = 1; next } on && NF == 2 { print; if (++n == 8)
    exit }' "$tmp/stats" | sed 's/^ *//' >"$tmp/classes"
classes_shown() {
	ui_screen | grep -E '^ +[0-9]+  [a-z_]+ *$' | sed 's/ *$//' |
	    head -n 8 | sed 's/^ *//' | cmp -s - "$tmp/classes"
}
ok "class counts equal --stats" ui_poll classes_shown
ui_keys Escape L
# shellcheck disable=SC2046 # three words
set -- $(awk '$1 == "wakeup" { print $2, $3, $7 }' "$tmp/lat")
ok "L: wakeup count $1, min $2, max $3 as --latency" ui_poll sh -c \
    "tmux -L '$sock' capture-pane -p | grep -qE '^ wakeup +$1 +$2 .* $3\$'"
ok "quits with 0" ui_quit
done_tests
