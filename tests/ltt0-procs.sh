#!/bin/sh
# LTTV textDump's process columns (pid, tgid, name, brand, ppid, function,
# mode) in `tview --dump` of the LTTng 0.x samples, from tview's process
# state, against the LTTV dumps of ../shared (line by line: both print
# the events in the same order on these samples):
#  - pid and tgid equal LTTV's on every event;
#  - a name differs only where LTTV names a process by the full path of
#    its exec (tview: the basename, cut at 15 bytes as the kernel's comm)
#    or where LTTV names the idle task "swapper" before it ran;
#  - trace-1021events-nolost-1cpu is LTTV's dump byte for byte but for
#    one line: LTTV puts the idle task in SYSCALL mode only once it has
#    been switched out.
# ppid and mode differences are counted and printed, not failed.
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
	if ! awk -v name="$t" '
	function cols(line, c,    h, r) {
		if (!match(line, /^[^ ]+: -?[0-9]+\.[0-9]+ \([^)]*\), /))
			return 0
		r = substr(line, RLENGTH + 1)
		h = index(r, " { ")
		if (h)
			r = substr(r, 1, h - 1)
		return split(r, c, ", ")
	}
	NR == FNR { ours[FNR] = $0; next }
	{
		if (!cols($0, o))
			next
		n++
		if (!cols(ours[FNR], m)) { bad++; next }
		if (o[1] != m[1] || o[2] != m[2]) {
			if (bad++ < 3)
				print name ": line " FNR ": pid/tgid " m[1] "/" \
				    m[2] ", LTTV " o[1] "/" o[2]
		}
		if (o[3] != m[3]) {
			b = o[3]
			sub(/.*\//, "", b)
			if (substr(b, 1, 15) == m[3] && o[3] ~ /\//)
				paths++
			else if (o[1] == 0 && m[3] == "" && o[3] == "swapper")
				idle++
			else if (bad++ < 3)
				print name ": line " FNR ": name \"" m[3] \
				    "\", LTTV \"" o[3] "\""
		}
		if (o[5] != m[5])
			ppid++
		if (o[7] != m[7])
			mode++
	}
	END {
		printf "%s: %d events, pid and tgid equal; names: %d exec " \
		    "paths, %d idle; ppid differs on %d, mode on %d\n", name,
		    n, paths, idle, ppid, mode
		exit bad > 0
	}' "$work/out" "$work/oracle"; then
		echo "FAIL: $t: process columns differ"
		failed=$((failed + 1))
	fi
	case $t in
	trace-1021events-nolost-1cpu)
		n=$(diff "$work/out" "$work/oracle" | grep -c '^[<>]')
		if [ "$n" -ne 2 ]; then
			echo "FAIL: $t: $((n / 2)) lines differ from LTTV's dump, want 1"
			diff "$work/out" "$work/oracle" | head -6
			failed=$((failed + 1))
		fi
		;;
	esac
done
[ "$failed" -eq 0 ]
