#!/bin/sh
# The statistics (S) and latency (L) panes (at 110x80, so that every
# latency kind fits): what they list equals what
# --stats and --latency print for the trace (class counts; each latency
# kind's count, min and max), Enter on a class row goes to the next event
# of that class, Enter on a longest instance goes to its start, s sorts
# the statistics (by events, by name, back to CPU time), Esc closes.
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 20000 --seed 4
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME
"$TVIEW" --stats "$tmp/trace" >"$tmp/stats" 2>/dev/null
"$TVIEW" --latency all "$tmp/trace" >"$tmp/lat" 2>/dev/null
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null

ui_start -x 110 -y 80 "$tmp/trace"
ok "started" ui_wait "Event"
ui_keys S
ok "S opens the statistics" ui_wait "Statistics of the whole trace"
total=$(awk '$1 == "events" { print $2 }' "$tmp/stats")
ok "the total ($total events)" ui_wait "$total events, 0 lost"
# the first eight class rows, as --stats prints them
awk '/^ *EVENTS +CLASS/ { on = 1; next } on && NF == 2 { print; if (++n == 8)
    exit }' "$tmp/stats" >"$tmp/classes"
classes_shown() {
	ui_screen | grep -E '^ +[0-9]+  [a-z_]+ *$' | sed 's/ *$//' |
	    head -n 8 | sed 's/^ *//' >"$tmp/shown"
	sed 's/^ *//' "$tmp/classes" | cmp -s - "$tmp/shown"
}
ok "class counts equal --stats" ui_poll classes_shown
first=$(awk 'NR == 1 { print $2 }' "$tmp/classes")
ui_keys Down Down Enter
ok "Enter on $first closes the pane" ui_wait_gone "Statistics of"
ok "and selects the next $first" ui_wait_sel "$first"

ui_keys L
ok "L opens the latencies" ui_wait "Latencies of the whole trace"
for k in wakeup syscall irq softirq; do
	row=$(awk -v k="$k" '$1 == k { print $2, $3, $7 }' "$tmp/lat")
	set -- $row
	ok "$k: count $1, min $2, max $3 as --latency" ui_poll sh -c \
	    "tmux -L '$sock' capture-pane -p | grep -qE '^ $k +$1 +$2 .* $3\$'"
done
# the longest wake-up: its start, as --latency lists it first
start=$(awk '/^LONGEST/ { getline; print $1; exit }' "$tmp/lat")
ui_keys Down Down Enter
ok "Enter on the longest wake-up closes the pane" \
    ui_wait_gone "Latencies of"
ok "and selects its start ($start)" ui_wait_sel "$start"
ui_keys S
ok "S again" ui_wait "Statistics of the whole trace"

# s: by events, then by name, then back; the orders from --stats' rows
awk '/^ *TID +PID +NAME/ { on = 1; next } on && NF > 5 { print $1, $2, $3,
    $5 }' "$tmp/stats" | sort -k4,4nr -k1,1n | head -n 5 >"$tmp/by-events"
cpu_first=$(awk '/^ *CPU +EVENTS/ { on = 1; next } on && NF > 5 { print $2,
    $1 }' "$tmp/stats" | sort -k1,1nr -k2,2n | awk 'NR == 1 { print $2 }')
awk '/^ *EVENTS +CLASS/ { on = 1; next } on && NF == 2 { print $1, $2 }
    on && NF != 2 { exit }' "$tmp/stats" | LC_ALL=C sort -k2,2 |
    head -n 8 >"$tmp/by-name"
threads_shown() {
	ui_screen | awk 'NF == 6 && $1 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/ &&
	    $5 ~ /\./ { print $1, $2, $3, $4 }' | head -n 5 |
	    cmp -s - "$tmp/by-events"
}
cpu_shown_first() {
	ui_screen | awk -v c="$1" 'NF == 6 && $3 ~ /\./ && $1 ~ /^[0-9]+$/ {
	    exit !($1 == c) }'
}
names_shown() {
	ui_screen | grep -E '^ +[0-9]+  [a-z_]+ *$' | head -n 8 |
	    awk '{ print $1, $2 }' | cmp -s - "$tmp/by-name"
}
ui_keys s
ok "s: by events" ui_wait "Statistics of the whole trace, by events"
ok "the threads with the most events first, as --stats counts them" \
    ui_poll threads_shown
ok "the CPU with the most events first (CPU $cpu_first)" \
    ui_poll cpu_shown_first "$cpu_first"
ui_keys s
ok "s: by name" ui_wait "Statistics of the whole trace, by name"
ok "the classes by name, with --stats' counts" ui_poll names_shown
ui_keys s
ok "s: back to CPU time" ui_wait "Statistics of the whole trace, by CPU time"
ok "the classes by count again" ui_poll classes_shown
ui_keys Escape
ok "Esc closes it" ui_wait_gone "Statistics of"
ok "q quits" ui_quit
done_tests
