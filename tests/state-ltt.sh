#!/bin/sh
# Process attribution on LTT 0.x traces against LTTV: the textDump files
# in $TVIEW_SHARED/traces/oracles/ltt0/ carry, per event, the pid LTTV's
# state engine gave it.  LTTV prints the state *after* the event, tview
# (--dump --with-pid) the thread the event belongs to, i.e. the state
# *before* it: for a sched_schedule, the task switched out.  So tview's
# TID of an event must equal LTTV's pid of the previous event on the same
# CPU (the task running there when the event happened), and LTTV's pid
# of a sched_schedule must be its next_pid.  LTTV prints an unknown process
# as 0, tview as "-": they are the same.  Required: >= 99.9% agree.

: "${TVIEW:=./tview}"
if test -z "$TVIEW_SHARED"; then
	echo "skip: TVIEW_SHARED not set (no LTT traces, no LTTV oracle)"
	exit 77
fi
oracles=$TVIEW_SHARED/traces/oracles/ltt0
set -- "$oracles"/*.lttv-textdump.txt.gz
if ! test -f "$1"; then
	echo "skip: no LTTV dumps in $oracles"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tview-state-ltt.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
checked=0

for o in "$@"; do
	name=$(basename "$o" .lttv-textdump.txt.gz)
	trace=$TVIEW_SHARED/traces/ltt0/$name
	test -d "$trace" || continue
	if ! TVIEW_CACHE=off "$TVIEW" --dump --with-pid "$trace" \
	    >"$tmp/tv" 2>"$tmp/err"; then
		if grep -q "not a trace in a known format" "$tmp/err"; then
			echo "skip: the LTT 0.x reader has not landed ($name)"
			exit 77
		fi
		echo "FAIL: $name: tview --dump --with-pid failed:"
		head -n 3 "$tmp/err"
		fail=1
		continue
	fi
	# event lines only: "channel.event: sec.nsec (tracefile), ..."
	re='^[A-Za-z0-9_]+\.[A-Za-z0-9_]+: [0-9]+\.[0-9]+ \('
	gzip -dc "$o" | grep -E "$re" >"$tmp/or"
	awk -F '\t' -v re="$re" '$4 ~ re' "$tmp/tv" >"$tmp/tvev"
	n_or=$(wc -l <"$tmp/or")
	n_tv=$(wc -l <"$tmp/tvev")
	if test "$n_or" -ne "$n_tv"; then
		echo "FAIL: $name: $n_tv events, LTTV has $n_or"
		fail=1
		continue
	fi
	# Events are matched by (tracefile, rank in it): both readers list a
	# tracefile in file order, but order events of equal timestamps in
	# different tracefiles differently.
	awk -F '\t' -v name="$name" '
	# key, CPU and LTTV pid of an oracle line (a tview line without the
	# three prefix columns)
	function parse(line,	f, tf) {
		split(line, f, ", ")
		tf = f[1]
		sub(/.* \(/, "", tf)
		sub(/\)$/, "", tf)
		cpu = tf
		sub(/.*_/, "", cpu)
		key = tf "#" (++rank[FILENAME, tf])
		pid = f[2] + 0
	}
	FILENAME == ARGV[1] {
		parse($0)
		before[key] = after[cpu] + 0
		ts[key] = $0
		after[cpu] = pid
		if ($0 ~ /sched_schedule: / &&
		    match($0, /next_pid = [0-9]+/) &&
		    substr($0, RSTART + 11, RLENGTH - 11) + 0 != pid)
			sched_bad++
		next
	}
	{
		parse($4)
		tid = $2 == "-" ? 0 : $2
		n++
		if (!(key in before)) {
			missing++
		} else if (tid == before[key]) {
			same++
		} else if (bad++ < 5) {
			printf "  %s: %s: tview %s, LTTV before it %d\n",
			    name, key, $2, before[key]
		}
	}
	END {
		printf "%s: %d events, %d agree with LTTV (%.3f%%), " \
		    "%d unmatched, %d sched_schedule not at next_pid\n",
		    name, n, same, n ? 100 * same / n : 0, missing, sched_bad
		exit !(n > 0 && same * 1000 >= n * 999 && sched_bad == 0 &&
		    missing == 0)
	}' "$tmp/or" "$tmp/tvev" || fail=1
	checked=$((checked + 1))
done
if test "$checked" -eq 0 && test "$fail" -eq 0; then
	echo "skip: no LTT trace with an LTTV dump"
	exit 77
fi
exit $fail
