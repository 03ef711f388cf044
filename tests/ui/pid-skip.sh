#!/bin/sh
# :pid and ]/[ skip the stretches of the trace that hold no event of the
# PID, from the background pass's per-checkpoint owner filters: a PID
# that is nowhere answers at once, one that first shows up near the end
# is reached without walking what comes before, even while the pass is
# still building the filters.  TVIEW_UI_SCAN_DELAY_US
# makes a walk of the whole trace take minutes, so a scan that does not
# skip times out here, whatever the machine's speed.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 200000 --seed 21
"$TVIEW" --dump --with-pid "$tmp/trace" >"$tmp/dump" 2>/dev/null
# a PID whose first event lies between the 150,000th and the 190,000th
late=$(awk -F'\t' '$1 != "-" && !($1 in first) { first[$1] = NR }
    END { for (p in first) if (first[p] > 150000 && first[p] < 190000)
    { print first[p], p; exit } }' "$tmp/dump")
test -n "$late" || { echo "no late PID in the generated trace"; exit 99; }
line=${late% *}
pid=${late#* }
t=$(dump_time "$(sed -n "${line}p" "$tmp/dump" | cut -f4-)")

ui_start TVIEW_UI_SCAN_DELAY_US=2000 "$tmp/trace"
ok "started" ui_wait "Event"
ok "the background pass ends" ui_wait_gone "indexing"
ui_type ":pid 987654"; ui_keys Enter
ok "an absent PID is answered without a walk" \
    ui_wait "no later event of PID 987654"
ui_type ":pid $pid"; ui_keys Enter
ok "PID $pid is reached at its first event, line $line" ui_wait_sel "$t"
ui_keys '['
ok "and there is none before it" \
    ui_wait "no earlier event of PID $pid"
ok "quits with 0" ui_quit

# While the pass runs (held 4 s at its third checkpoint by
# TVIEW_TEST_SLOW_PASS; no state cache, which would spare the walk), the
# stretches it has built filters for are skipped the same way.  Past
# them, a PID that no record names is answered at once from the owners
# scan (every tid and pid the trace's records name, read on every
# core), and a PID the trace has makes the scan wait for the pass
# instead of walking the rest itself (which would take 400 s here).
ui_start TVIEW_UI_SCAN_DELAY_US=2000 TVIEW_TEST_SLOW_PASS=4000 TVIEW_CACHE=off \
    "$tmp/trace"
ok "started again" ui_wait "Event"
ui_type ":pid 987654"; ui_keys Enter
ok "during the pass, an absent PID is answered at once" \
    ui_wait "no later event of PID 987654"
ok "before the pass has ended" ui_wait "indexing" 1
ui_type ":pid $pid"; ui_keys Enter
ok "a PID the trace has waits for the pass" \
    ui_wait "waiting for the background pass"
ok "and reaches PID $pid at line $line" ui_wait_sel "$t" 60
ok "quits with 0 again" ui_quit
done_tests
