#!/bin/sh
# `tview --dump` of the six LTTng 0.x samples of ../shared/traces/ltt0
# against LTTV's textDump of each (oracles/ltt0): byte for byte, the
# process columns (pid, tgid, name, brand, ppid, function, mode) included,
# no difference allowed.  pid and tgid come from tview's process state,
# name, ppid and mode from the LTT driver's replay of LTTV's conventions
# (src/formats/ltt/ltt-lttv.c), whose rules differ between the LTTV
# builds of formats 2.3, 2.5 and 2.6: a wrong rule or a wrong version
# shows here as differing lines (the 2.3 rules alone change 11809 lines
# of trace-15471events_nolost_newformat).  The replay needs every record
# from the trace start: --begin and --filter must print LTTV's lines, the
# columns included (trace-2.6 from 50%, its schedchanges alone).
# Lost-event warnings go to stderr and are checked by ltt0-oracle.sh.
# Skips without ../shared.

tview=${TVIEW:-./tview}
dir="$TVIEW_SHARED/traces/ltt0"
odir="$TVIEW_SHARED/traces/oracles/ltt0"
[ -n "$TVIEW_SHARED" ] && [ -d "$dir" ] && [ -d "$odir" ] ||
	{ echo "SKIP: no shared traces (../shared is not beside the tree)"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tview-ltt0-procs.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
failed=0
export TVIEW_CACHE=off
for t in trace-1021events-nolost-1cpu trace-15316events_nolost_newformat \
    trace-15471events_nolost_newformat trace-2.6 trace_211064ev_nolost \
    trace-618339events-1293lost-1cpu; do
	[ -d "$dir/$t" ] || { echo "FAIL: $t: missing"; failed=$((failed + 1)); continue; }
	gunzip -c "$odir/$t.lttv-textdump.txt.gz" >"$work/oracle" || exit 99
	"$tview" --dump "$dir/$t" >"$work/out" 2>/dev/null ||
		{ echo "FAIL: $t: tview --dump failed"; failed=$((failed + 1)); continue; }
	if cmp -s "$work/out" "$work/oracle"; then
		echo "ok: $t: $(wc -l <"$work/out") lines equal LTTV's"
		continue
	fi
	n=$(diff "$work/out" "$work/oracle" | grep -c '^<')
	echo "FAIL: $t: $n lines differ from LTTV's dump (< tview, > LTTV):"
	diff "$work/out" "$work/oracle" | head -6
	failed=$((failed + 1))
done

# --begin: the oracle's lines from the first event printed on
t=trace-2.6
gunzip -c "$odir/$t.lttv-textdump.txt.gz" >"$work/oracle" || exit 99
"$tview" --dump --begin 50% "$dir/$t" 2>/dev/null | grep -E '^[a-z_]+\.' \
    >"$work/part"
first=$(head -1 "$work/part" | cut -d' ' -f1-3)
grep -E '^[a-z_]+\.' "$work/oracle" |
	awk -v f="$first" 'index($0, f) == 1 { on = 1 } on' >"$work/want"
if [ ! -s "$work/part" ] || ! cmp -s "$work/part" "$work/want"; then
	echo "FAIL: $t --begin 50%: $(wc -l <"$work/part") lines, LTTV's" \
	    "tail $(wc -l <"$work/want")"
	diff "$work/part" "$work/want" | head -4
	failed=$((failed + 1))
else
	echo "ok: $t --begin 50%: $(wc -l <"$work/part") lines equal LTTV's"
fi

# --filter: the oracle's lines of that event
"$tview" --dump --filter kernel.sched_schedule "$dir/$t" 2>/dev/null |
	grep -E '^[a-z_]+\.' >"$work/part"
grep '^kernel\.sched_schedule: ' "$work/oracle" >"$work/want"
if [ ! -s "$work/part" ] || ! cmp -s "$work/part" "$work/want"; then
	echo "FAIL: $t --filter: $(diff "$work/part" "$work/want" |
	    grep -c '^<') lines differ from LTTV's"
	diff "$work/part" "$work/want" | head -4
	failed=$((failed + 1))
else
	echo "ok: $t --filter: $(wc -l <"$work/part") lines equal LTTV's"
fi
[ "$failed" -eq 0 ]
