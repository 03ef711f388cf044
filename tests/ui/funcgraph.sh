#!/bin/sh
# function_graph in the browser, on the interleaved two-CPU variant of
# the shared labsisop-funcgraph sample (td-fgraph-variants): % on a
# funcgraph_entry goes to the funcgraph_exit of the same CPU and depth,
# not to the other CPU's records in between, and % comes back; the
# latency pane (L) lists the function kind and do_IRQ with the count,
# min and max that --latency function prints.  Skips without ../shared.
. "$(dirname "$0")/lib.sh"

gen=$top_builddir/td-fgraph-variants
src="$TVIEW_SHARED/traces/ftrace/labsisop-funcgraph/trace.dat"
test -f "$src" || { echo "skip: no shared traces"; exit 77; }
test -x "$gen" || { echo "skip: no $gen"; exit 77; }
"$gen" "$src" "$tmp" >/dev/null || { echo "FAIL: td-fgraph-variants"; exit 1; }
t=$tmp/interleaved.dat
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME
# the events in order, "CPU TIME NAME", times as seconds with five
# decimals (cut, not rounded: a part of any style the browser shows)
"$TVIEW" --dump --time-format seconds "$t" 2>/dev/null | awk 'NR > 1 {
    c = $0; sub(/.*\[0*/, "", c); sub(/\].*/, "", c); if (c == "") c = 0
    s = $0; sub(/.*\] */, "", s); split(s, w, /:? +/)
    print c, substr(w[1], 1, length(w[1]) - 1), w[2] }' >"$tmp/ev"
"$TVIEW" --latency function "$t" >"$tmp/lat" 2>/dev/null
# event 1: CPU 0's first entry; its exit: the next exit of CPU 0
e1=$(awk 'NR == 1 { print $2 }' "$tmp/ev")
x1=$(awk '$1 == 0 && $3 == "funcgraph_exit" { print $2; exit }' "$tmp/ev")
between=$(awk -v x="$x1" '$2 == x { exit } NR > 1 && $1 == 1 { n++ }
    END { print n + 0 }' "$tmp/ev")
ok "CPU 1 has records between CPU 0's entry and exit ($between)" \
    test "$between" -gt 0
# event 2: CPU 1's first entry and its exit
e2=$(awk 'NR == 2 { print $1 == 1 ? $2 : "" }' "$tmp/ev")
x2=$(awk '$1 == 1 && $3 == "funcgraph_exit" { print $2; exit }' "$tmp/ev")

ui_start -x 120 -y 40 "$t"
ok "started" ui_wait "funcgraph_entry"
ui_type ":goto #1"; ui_keys Enter
ok "on CPU 0's first entry ($e1)" ui_wait_sel "$e1"
ui_type "%"
ok "% goes to CPU 0's exit ($x1)" ui_wait_sel "$x1"
ui_type "%"
ok "% comes back to the entry" ui_wait_sel "$e1"
ui_type ":goto #2"; ui_keys Enter
ok "on CPU 1's first entry ($e2)" ui_wait_sel "$e2"
ui_type "%"
ok "% goes to CPU 1's exit ($x2)" ui_wait_sel "$x2"

ui_keys L
ok "L opens the latencies" ui_wait "Latencies of the whole trace"
for k in function do_IRQ; do
	# shellcheck disable=SC2046  # count min max, split on purpose
	set -- $(awk -v k="$k" '$1 == k { print $2, $3, $7 }' "$tmp/lat")
	ok "$k: $1 instances, min $2, max $3 as --latency prints" \
	    ui_wait "$k" && ui_screen | grep -E "^ *$k +$1 +$2 .* $3( |$)" >/dev/null
done
ui_keys Escape
ok "Esc closes the pane" ui_wait_gone "Latencies of the whole trace"
ok "q quits" ui_quit
done_tests
