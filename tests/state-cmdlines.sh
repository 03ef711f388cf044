#!/bin/sh
# trace.dat saved cmdlines name threads in the process state: on every
# sample of $TVIEW_SHARED/traces/ftrace that trace-cmd can open, each
# thread --processes lists as "unknown" (no sched event proved anything)
# and that the cmdlines name must carry the cmdlines' name (what
# `trace-cmd dump --cmd-lines` prints, cut to 15 bytes like comm), and
# the name `trace-cmd report` prints in its comm-pid column for it.  At
# least one such thread must exist over all samples.

: "${TVIEW:=./tview}"
if test -z "$TVIEW_SHARED"; then
	echo "skip: TVIEW_SHARED not set (no ftrace samples)"
	exit 77
fi
if ! command -v trace-cmd >/dev/null 2>&1; then
	echo "skip: trace-cmd not installed (the oracle)"
	exit 77
fi
# trace-cmd report, retried past its raw-timestamp flukes (tc-report)
tc_report=$(cd "$(dirname "$0")" && pwd)/tc-report
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tview-cmdlines.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
total=0

for f in "$TVIEW_SHARED"/traces/ftrace/*/*.dat; do
	test -f "$f" || continue
	flock -o "${TMPDIR:-/tmp}/tview-ftrace-record.lock" \
	    trace-cmd dump --cmd-lines "$f" >"$tmp/cl" 2>/dev/null || continue
	grep -q '^[0-9][0-9]* ' "$tmp/cl" || continue
	sh "$tc_report" "$f" >"$tmp/rep" 2>/dev/null || : >"$tmp/rep"
	if ! TVIEW_CACHE=off "$TVIEW" --processes "$f" >"$tmp/pr" \
	    2>"$tmp/err"; then
		echo "FAIL: $f: tview --processes failed:"
		head -n 3 "$tmp/err"
		fail=1
		continue
	fi
	n=$(awk -v CL="$tmp/cl" -v REP="$tmp/rep" '
	BEGIN {
		while ((getline l < CL) > 0) {
			if (l !~ /^[0-9]+ /)
				continue
			tid = l; sub(/ .*/, "", tid)
			nm = l; sub(/^[0-9]+ /, "", nm)
			cl[tid] = substr(nm, 1, 15)
		}
		while ((getline l < REP) > 0) {
			if (!match(l, /^ *.*-[0-9]+ +\[[0-9]+\]/))
				continue
			h = substr(l, 1, RLENGTH)
			sub(/ +\[[0-9]+\]$/, "", h)
			sub(/^ +/, "", h)
			tid = h; sub(/.*-/, "", tid)
			nm = h; sub(/-[0-9]+$/, "", nm)
			rep[tid] = substr(nm, 1, 15)
		}
	}
	NR > 1 && $0 ~ / unknown / {
		tid = $2
		nm = substr($0, 25, 15); sub(/ +$/, "", nm)
		if (!(tid in cl))
			next
		if (nm != cl[tid]) {
			printf "FAIL: tid %s: name \"%s\", cmdlines \"%s\"\n", \
			    tid, nm, cl[tid] > "/dev/stderr"
			bad = 1
		}
		if ((tid in rep) && rep[tid] != nm) {
			printf "FAIL: tid %s: name \"%s\", report \"%s\"\n", \
			    tid, nm, rep[tid] > "/dev/stderr"
			bad = 1
		}
		ok++
	}
	END { print ok + 0; exit bad }' "$tmp/pr") || fail=1
	echo "$(basename "$(dirname "$f")"): $n unknown threads named by cmdlines"
	total=$((total + n))
done
if test "$total" -eq 0; then
	echo "FAIL: no thread was named by the saved cmdlines"
	fail=1
fi
exit $fail
