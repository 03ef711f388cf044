#!/bin/sh
# The six LTTng 0.x marker-era traces of ../shared/traces/ltt0 (formats 2.3,
# 2.5, 2.6) against the LTTV textDump oracles: same events in the same
# order, same tracefiles and field values (metadata.* events included),
# timestamps within 1 ns (tests/ltt-compare.awk).  The 618k-event trace
# must also report its 1293 lost events, on stderr as LTTV does and in
# --info.  Skips without ../shared.

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
tview=${TVIEW:-./tview}
dir="$TVIEW_SHARED/traces/ltt0"
odir="$TVIEW_SHARED/traces/oracles/ltt0"
[ -n "$TVIEW_SHARED" ] && [ -d "$dir" ] && [ -d "$odir" ] ||
	{ echo "SKIP: no shared traces (../shared is not beside the tree)"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tview-ltt0.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
failed=0 total=0
for t in trace-1021events-nolost-1cpu trace-15316events_nolost_newformat \
    trace-15471events_nolost_newformat trace-2.6 trace_211064ev_nolost \
    trace-618339events-1293lost-1cpu; do
	if [ ! -d "$dir/$t" ]; then
		echo "FAIL: $t: missing from $dir"; failed=$((failed + 1))
		continue
	fi
	gunzip -c "$odir/$t.lttv-textdump.txt.gz" >"$work/oracle" || exit 99
	if ! "$tview" --dump "$dir/$t" >"$work/out" 2>"$work/err"; then
		echo "FAIL: $t: tview --dump failed: $(head -1 "$work/err")"
		failed=$((failed + 1))
		continue
	fi
	if awk -f "$top_srcdir/tests/ltt-compare.awk" "$work/out" \
	    "$work/oracle" >"$work/cmp"; then
		echo "ok: $t: $(tail -1 "$work/cmp")"
		n=$(tail -1 "$work/cmp" | cut -d' ' -f1)
		total=$((total + n))
	else
		echo "FAIL: $t:"; cat "$work/cmp"; failed=$((failed + 1))
	fi
	case $t in
	*1293lost*)
		want="WARNING: 1293 events lost so far in tracefile vm_state_0 at block 1"
		if [ "$(cat "$work/err")" != "$want" ]; then
			echo "FAIL: $t: lost events: got \"$(cat "$work/err")\""
			failed=$((failed + 1))
		fi
		"$tview" --info "$dir/$t" >"$work/info" 2>&1
		if ! grep -Eq '^Discarded events: 1293$' "$work/info"; then
			echo "FAIL: $t: --info does not report 1293 lost events"
			failed=$((failed + 1))
		fi
		;;
	*)
		if [ -s "$work/err" ]; then
			echo "FAIL: $t: unexpected stderr: $(head -1 "$work/err")"
			failed=$((failed + 1))
		fi
		;;
	esac
done
echo "$total events match the LTTV dumps"
[ "$failed" -eq 0 ]
