#!/bin/sh
# ] [ p and :pid follow the state layer's PID attribution: an event
# belongs to the process of its context fields or, without them, of the
# thread current on its CPU (tview --dump --with-pid is the oracle), so
# kernel events that carry no PID field (syscalls, IRQs) are found too.
# Events it cannot attribute belong to nobody, even when their payload
# names a tid (tests/ui/pid.sh).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 3000 --seed 15
"$TVIEW" --dump --with-pid "$tmp/trace" >"$tmp/owned" 2>/dev/null ||
    { echo "FAIL: --dump --with-pid"; exit 1; }

# The busiest non-idle PID that the state layer attributes.
pid=$(cut -f1 "$tmp/owned" | grep -vxE -- '-|0' | sort | uniq -c |
    sort -rn | awk '{ print $2; exit }')
test -n "$pid" || { echo "FAIL: no attributed PID in the fixture"; exit 1; }
# Lines of its events: those --with-pid gives to P.
awk -F '\t' -v p="$pid" '$1 == p { print NR }' "$tmp/owned" >"$tmp/lines"
# Start on one of its events that has no tid field at all.
a=$(awk -F '\t' -v p="$pid" '$1 == p && $4 !~ /[{,] (tid|vtid|pid) = / {
    print NR; exit }' "$tmp/owned")
test -n "$a" || { echo "FAIL: PID $pid has no event without a PID field"; exit 1; }
b=$(awk -v a="$a" '$1 > a { print; exit }' "$tmp/lines")
c=$(awk -v a="$b" '$1 > a { print; exit }' "$tmp/lines")
first=$(sed -n 1p "$tmp/lines")
tm() { dump_time "$(sed -n "${1}p" "$tmp/owned" | cut -f4)"; }
ta=$(tm "$a"); tb=$(tm "$b"); tc=$(tm "$c"); tf=$(tm "$first")

ui_start "$tmp/trace"
ok "started" ui_wait "Event"
ui_type ":goto #$a"; ui_keys Enter
ok "on an event of PID $pid without a PID field (line $a)" ui_wait_sel "$ta"
ui_keys "]"
ok "] next event of PID $pid (line $b)" ui_wait_sel "$tb"
ui_keys "]"
ok "] again (line $c)" ui_wait_sel "$tc"
ui_keys "["
ok "[ back (line $b)" ui_wait_sel "$tb"
ui_keys g
if [ "$first" -gt 1 ]; then
	ui_keys p; ui_wait "pid:" >/dev/null
	ui_type "$pid"; ui_keys Enter
	ok "p $pid from the start (line $first)" ui_wait_sel "$tf"
	ui_keys g
	ui_type ":pid $pid"; ui_keys Enter
	ok ":pid $pid (line $first)" ui_wait_sel "$tf"
fi
ok "quits with 0" ui_quit
done_tests
