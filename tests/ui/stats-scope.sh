#!/bin/sh
# The scopes of the statistics pane, and the density strip through a
# filter.  With a filter on, r in the S pane counts the filtered events:
# the title says so and the total and class rows equal --stats --filter
# (itself checked against --dump --filter by tests/stats-scope.sh); r
# again goes back to the whole trace.  :stats bookmarks, on an event
# between two bookmarks, counts from one to the other and :stats A B
# with their names does the same: the total equals --count --begin
# --end at their times, the class rows --stats --begin --end.  The
# density strip (C) with a filter on is labelled "filtered" and each
# column's glyph is what the times of --dump --filter give, at 80x24
# and 200x60 (LANG=C); :filter alone brings back the strip of every
# event.
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 20000 --seed 4
XDG_CACHE_HOME=$tmp/cache
XDG_DATA_HOME=$tmp/data
export XDG_CACHE_HOME XDG_DATA_HOME
f=sched_switch
"$TVIEW" --dump "$tmp/trace" >"$tmp/all" 2>/dev/null
"$TVIEW" --dump --filter "$f" "$tmp/trace" >"$tmp/fdump" 2>/dev/null
"$TVIEW" --stats --filter "$f" "$tmp/trace" >"$tmp/fstats" 2>/dev/null
nf=$(awk '$1 == "events" { print $2 }' "$tmp/fstats")
test "$nf" -gt 100 && test "$nf" -eq "$(wc -l <"$tmp/fdump")" ||
    { echo "FAIL: fixture"; exit 1; }

# the first eight class rows of a --stats output
classes() {
	awk '/^ *EVENTS +CLASS/ { on = 1; next } on && NF == 2 {
	    sub(/^ */, ""); print; if (++n == 8) exit }' "$1"
}
# classes_shown FILE: the pane's first eight class rows are FILE's
classes_shown() {
	ui_screen | grep -E '^ +[0-9]+  [a-z_]+ *$' | sed 's/ *$//' |
	    head -n 8 | sed 's/^ *//' | cmp -s "$1" -
}

ui_start -x 120 -y 60 NO_COLOR=1 LC_ALL=C LANG=C "$tmp/trace"
ok "started" ui_wait "Event"
ui_type ":filter $f"; ui_keys Enter
ok "the filter is on" ui_wait ": $nf of 20000 events"
ui_keys S
ok "S: the whole trace first" ui_wait "Statistics of the whole trace"
ok "all its events" ui_wait "20000 events, 0 lost"
ui_keys r
ok "r: the filtered events" \
    ui_wait "Statistics of the filtered events of the whole trace"
ok "their total ($nf) as --stats --filter" ui_wait "$nf events, 0 lost"
classes "$tmp/fstats" >"$tmp/want"
ok "class rows as --stats --filter" ui_poll classes_shown "$tmp/want"
ok "only the filtered classes" ui_wait_gone "sched_wakeup"
ui_keys Escape
ok "Esc closes" ui_wait_gone "Statistics of"
ui_keys L
ok "L: the filters do not change the latencies" \
    ui_wait "Latencies of the whole trace"
ui_keys Escape
ok "Esc closes" ui_wait_gone "Latencies of"
ui_keys S
ok "S: still the filtered events" \
    ui_wait "Statistics of the filtered events of the whole trace"
ui_keys r
ok "r again: no bookmark, back to the whole trace" \
    ui_wait "Statistics of the whole trace"
ok "all the events again" ui_wait "20000 events, 0 lost"
ui_keys Escape
ok "Esc closes" ui_wait_gone "Statistics of"

# the density strip through the filter, at 80x24 below
ui_stop
ui_start -x 80 -y 24 NO_COLOR=1 LC_ALL=C LANG=C "$tmp/trace"
ok "80x24: started" ui_wait "Event"
ui_type ":filter $f"; ui_keys Enter
ok "80x24: the filter is on" ui_wait ": $nf of 20000 events"
# ns since the first event's second, of every event and the filtered
tons() {
	sed -n 's/^\[\([0-9]*\):\([0-9]*\):\([0-9]*\)\.\([0-9]*\)\].*/\1 \2 \3 \4/p' \
	    "$1" | awk -v s0="$2" '{ s = $1 * 3600 + $2 * 60 + $3
	    printf "%.0f\n", (s - s0) * 1e9 + $4 }'
}
s0=$(sed -n '1s/^\[\([0-9]*\):\([0-9]*\):\([0-9]*\)\..*/\1 \2 \3/p' \
    "$tmp/all" | awk '{ print $1 * 3600 + $2 * 60 + $3 }')
tons "$tmp/all" "$s0" >"$tmp/ns.all"
tons "$tmp/fdump" "$s0" >"$tmp/ns.f"
# expect N: the strip over [first, last + 1) of every event in N
# columns, counting the filtered events
expect() {
	awk -v n="$1" 'NR == FNR { if (FNR == 1) t0 = $1; last = $1; next }
	    { c = int(($1 - t0) * n / (last + 1 - t0)); if (c >= n) c = n - 1
	      cnt[c]++; if (cnt[c] > max) max = cnt[c] }
	    END { g = " .:-=+*#@"
	    for (c = 0; c < n; c++) {
		l = cnt[c] ? int(cnt[c] / max * 8 + 0.999999) : 0
		if (cnt[c] && l < 1) l = 1; if (l > 8) l = 8
		printf "%s", substr(g, l + 1, 1) }
	    printf "\n" }' "$tmp/ns.all" "$tmp/ns.f"
}
strip_is() {
	test "$(ui_screen | sed -n 3p | cut -c "23-$((22 + n))")" = "$1"
}
n=$((80 - 22 - 1))
exp=$(expect "$n")
ui_keys g C
ok "C: the timeline" ui_wait "Timeline:"
ok "the strip is labelled filtered" ui_wait " filtered "
ok "each of $n columns is what --dump --filter's events give" \
    ui_poll strip_is "$exp"
ui_keys C
ui_type ":filter"; ui_keys Enter
ok "filters cleared" ui_wait "filters cleared"
ui_keys C
ok "without a filter the strip counts every event" ui_wait " events "
ok "and differs" ui_poll sh -c "! { $(command -v tmux) -L '$sock' \
    capture-pane -p -t 0 | sed -n 3p | grep -qF -- '$exp'; }"
ui_keys C

# bookmarks "one" at event 5000 and "two" at 15000
mark() {
	ui_type ":goto #$1"; ui_keys Enter
	ui_wait_sel "$(dump_time "$(dump_line "$1" "$tmp/all")")" >/dev/null
	ui_keys m
	ui_wait "name" >/dev/null
	ui_type "$2"; ui_keys Enter
	ui_wait "text" >/dev/null && ui_keys Enter
	ui_wait "bookmark"
}
ok "bookmark one at #5000" mark 5000 one
ok "bookmark two at #15000" mark 15000 two
t1=$(dump_time "$(dump_line 5000 "$tmp/all")")
t2=$(dump_time "$(dump_line 15000 "$tmp/all")")
nr=$("$TVIEW" --count --begin "$t1" --end "$t2" "$tmp/trace")
"$TVIEW" --stats --begin "$t1" --end "$t2" "$tmp/trace" >"$tmp/rstats"
classes "$tmp/rstats" >"$tmp/want"
ui_type ":goto #9000"; ui_keys Enter
ui_type ":stats bookmarks"; ui_keys Enter
ok ":stats bookmarks: between one and two" ui_wait "(bookmarks one - two"
ok "their events ($nr) as --count --begin --end" \
    ui_wait "$nr events, 0 lost"
ok "class rows as --stats --begin --end" ui_poll classes_shown "$tmp/want"
ui_keys r
ok "r: back to the whole trace" ui_wait "Statistics of the whole trace"
ui_keys Escape
ui_type ":stats one two"; ui_keys Enter
ok ":stats one two: the same range" ui_wait "(bookmarks one - two"
ok "the same count" ui_wait "$nr events, 0 lost"
ui_keys Escape
ok "Esc closes" ui_wait_gone "Statistics of"
# the latencies share the range: the wake-ups as --latency --begin --end
nw=$("$TVIEW" --latency wakeup --begin "$t1" --end "$t2" "$tmp/trace" |
    awk '$1 == "wakeup" { print $2 }')
ui_keys L
ok "L: the latencies of the same range" ui_wait "(bookmarks one - two"
ok "$nw wake-ups as --latency wakeup --begin --end" ui_poll sh -c \
    "tmux -L '$sock' capture-pane -p -t 0 | grep -qE '^ wakeup +$nw '"
ui_keys Escape
nfr=$("$TVIEW" --count --filter "$f" --begin "$t1" --end "$t2" "$tmp/trace")
ui_type ":filter $f"; ui_keys Enter
ok "the filter again" ui_wait ": $nf of 20000 events"
ui_type ":stats filter one two"; ui_keys Enter
ok ":stats filter one two: the filtered events of the range" \
    ui_wait "Statistics of the filtered events of $t1"
ok "their count ($nfr) as --count --filter --begin --end" \
    ui_wait "$nfr events, 0 lost"
ui_keys Escape
ui_type ":stats nosuch"; ui_keys Enter
ok "an unknown end is an error" \
    ui_wait "not a time nor a bookmark name: nosuch"
ok "q quits" ui_quit

# the filtered strip at 200x60
ui_start -x 200 -y 60 NO_COLOR=1 LC_ALL=C LANG=C "$tmp/trace"
ok "200x60: started" ui_wait "Event"
ui_type ":filter $f"; ui_keys Enter
ok "200x60: the filter is on" ui_wait ": $nf of 20000 events"
n=$((200 - 22 - 1))
ui_keys g C
ok "200x60: the strip is labelled filtered" ui_wait " filtered "
ok "200x60: each of $n columns is what --dump --filter's events give" \
    ui_poll strip_is "$(expect "$n")"
ui_stop
done_tests
