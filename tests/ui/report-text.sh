#!/bin/sh
# trace.dat rows and fields show what trace-cmd report prints: function
# names from the trace's kallsyms, function_graph durations and depth,
# whole symbolised kernel stacks, decoded common_flags; the search
# matches that text.  Oracles: the shared report outputs, and report -l
# (run under the recordings' lock) for the flags.  Skips without
# ../shared.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ft=$TVIEW_SHARED/traces/ftrace
or=$TVIEW_SHARED/traces/oracles/ftrace
fn=$ft/labsisop-function-sched_batch/sched_batch_trace.dat
test -f "$fn" && test -f "$or/langraph-v7-zstd.trace-cmd-report.txt.gz" ||
    { echo "skip: no shared ftrace samples"; exit 77; }

# function: the row is report's text; /switch_mm finds the next event
# report prints it on (the events are report's lines after cpus=).
gzip -dc "$or/labsisop-function-sched_batch.trace-cmd-report.txt.gz" \
    >"$tmp/fn.txt"
n2=$(awk 'NR > 1 && /switch_mm/ { n++; if (n == 2) { print NR - 1; exit } }' \
    "$tmp/fn.txt")
sym1=$(sed -n 2p "$tmp/fn.txt" | sed 's/.*function: *//')
echo "# first function $sym1, second switch_mm at event $n2"
ui_start -x 120 -y 60 "$fn"
ok "function row: report's $sym1" ui_wait_sel "function         $sym1"
ui_keys /; ui_wait "/" >/dev/null
ui_type "switch_mm"; ui_keys Enter
ok "/switch_mm: event $n2, as report" ui_wait "event $n2 of"
ui_keys g
ok "back on event 1" ui_wait "event 1 of"
ui_keys Enter
ok "fields: ip symbolised" ui_wait "ip = 0x"
ok "... as report names it" ui_wait "<$sym1>"
ok "... parent_ip too" sh -c "tmux -L '$sock' capture-pane -p -t 0 |
    grep -q 'parent_ip = 0x[0-9a-f]*  <[a-z_]'"
if command -v trace-cmd >/dev/null 2>&1; then
	# report -l's layout shifts now and then on a loaded machine (as
	# its raw timestamps do, see tests/tc-report): three tries
	for _try in 1 2 3; do
		fl=$(sh "$top_srcdir/tests/tc-report" -l -i "$fn" 2>/dev/null |
		    sed -n 2p | awk '{ print substr($2, length($2) - 4, 1) }')
		[ "$fl" = d ] && break
	done
	if [ "$fl" = d ]; then
		ok "common_flags decoded: irqs-off (report -l: d)" \
		    ui_wait "common_flags = 1  <irqs-off>"
	else
		echo "# report -l flags of event 1: '$fl'; expected d"
		ok "report -l says irqs off on event 1" false
	fi
fi
ok "quits" ui_quit

# function_graph: durations and depth as report prints them.
fg=$ft/labsisop-funcgraph/trace.dat
gzip -dc "$or/labsisop-funcgraph.trace-cmd-report.txt.gz" >"$tmp/fg.txt"
x3=$(sed -n 4p "$tmp/fg.txt" | sed 's/.*funcgraph_exit: *//')
ui_start -x 120 -y 30 "$fg"
ok "funcgraph_entry: report's text" ui_wait_sel "|  do_IRQ() {"
ok "funcgraph_exit: report's duration '$x3'" ui_wait "funcgraph_exit     $x3"
ok "quits" ui_quit

# kernel_stack: every frame, symbolised, in the row and the fields.
ks=$ft/langraph-v7-zstd/trace.dat
gzip -dc "$or/langraph-v7-zstd.trace-cmd-report.txt.gz" |
    awk 'NR > 2 && /^=>/ { n++; last = $2; next } NR > 2 { if (n) exit }
	END { print n, last }' >"$tmp/ks"
read -r nf lastf <"$tmp/ks"
echo "# first kernel stack: $nf frames, the last $lastf"
ui_start -x 200 -y 60 "$ks"
ok "opened" ui_wait "event 1 of"
ui_keys Down
ok "kernel_stack row: report's frames" \
    ui_wait_sel "<stack trace > => try_to_wake_up (ffffffffa8902e5f) =>"
ui_keys Enter
ok "fields: caller[$nf], every frame (the format says 8)" \
    ui_wait "caller[$nf]"
ui_keys G
ok "... the last one symbolised: $lastf" ui_wait "<$lastf>"
ok "... its text's first line above the payload" ui_wait "  <stack trace >"
ok "quits" ui_quit
done_tests
