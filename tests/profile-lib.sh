# shellcheck shell=sh disable=SC2154 # top_srcdir, TVIEW, tmp: lib.sh
# Sourced by the tests that hold tview's latencies against trace-cmd
# report --profile (profile-wakeup.sh, profile-syscall.sh): the figures
# of each side as "COUNT TOTAL_NS", and the instances where their rules
# differ (doc/tview.1, "Differences from trace-cmd report --profile"),
# found from report's own lines.  Needs lib.sh sourced first.

# report ARGS...: trace-cmd report under the recordings' lock, retried
# past its raw-timestamp flukes (tests/tc-report).
report() {
	sh "$top_srcdir/tests/tc-report" "$@" 2>/dev/null
}

# tview_latency KIND FILE: "count total_ns" of tview's KIND row (the mean
# is printed in us with three decimals, whole ns, truncated: the total is
# count * mean plus less than count ns).
tview_latency() {
	"$TVIEW" --latency "$1" "$2" 2>"$tmp/err" | awk -v k="$1" '$1 == k {
	    printf "%d %.0f\n", $2, $2 * $4 * 1000 }'
}

# same_as COUNT TOTAL ECOUNT ETOTAL: tview's COUNT and TOTAL (from
# tview_latency) are ECOUNT and ETOTAL, but for the mean's truncation.
same_as() {
	test "$1" = "$3" && awk -v t="$2" -v e="$4" -v n="$1" \
	    'BEGIN { d = e - t; exit !(d >= 0 && d <= n + 1) }'
}

# profile_rows EVENT: "count total_ns" of the EVENT rows of the report
# --profile output on standard input, summed over tasks and values
# (sched_wakeup; sys_enter, one row per system call number,
# "syscall:NAME" when trace-cmd has libaudit).
profile_rows() {
	awk -v e="$1" '
	    $1 == "Event:" && (index($2, e ":") == 1 ||
	    (e == "sys_enter" && index($2, "syscall:") == 1)) {
		c = $3; gsub(/[()]/, "", c); n += c
		if ($4 == "Total:") s += $5
	    }
	    END { printf "%d %.0f\n", n, s }'
}

# report_lines FILE: report -t, each record as "pid cpu ns event rest"
# (the comm before "-pid" may hold spaces; ns is the timestamp in ns).
report_lines() {
	report -t -i "$1" | awk '{
		for (i = 2; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) break
		if (i > NF) next
		p = $(i - 1); sub(/.*-/, "", p)
		c = $i; gsub(/[][]/, "", c)
		t = $(i + 1); sub(/:$/, "", t); split(t, q, ".")
		r = ""; for (j = i + 3; j <= NF; j++) r = r " " $j
		printf "%s %d %s%09d %s%s\n", p, c, q[1], q[2], $(i + 2), r
	    }'
}

# syscall_facts FILE: the raw_syscalls entries and exits of report's
# lines paired by each rule, as "tn ts pn ps mn ms nn":
#  - tview's: a thread's entry to its next exit, whatever number the
#    exit carries; an entry while one is open adds nothing; a negative
#    time is dropped (tn calls, ts ns);
#  - the profile's: an exit ends the last open entry of its thread with
#    the same number; a negative time counts as 0 (pn, ps);
#  - the calls tview times whose exit carries another number than their
#    entry (an x86 rt_sigreturn exits with -1): mn, ms;
#  - the entries while one of the thread is open (an exit lost) and
#    the pairs with a negative time: nn.
# Without those, tn = pn + mn and ts = ps + ms.
# The syscalls:* events (sys_enter_NAME) are left out: neither counts
# them when raw_syscalls:* is there.
syscall_facts() {
	report_lines "$1" | awk '
	    $4 == "sys_enter:" {
		k = $1 SUBSEP $6; st[k] = st[k] " " $3
		if (!($1 in open)) { open[$1] = $3; nr[$1] = $6 }
		else nn++
	    }
	    $4 == "sys_exit:" {
		k = $1 SUBSEP $6
		if (st[k] != "") {
			c = split(st[k], a, " "); d = $3 - a[c]
			pn++; if (d > 0) ps += d
			st[k] = ""; for (j = 1; j < c; j++) st[k] = st[k] " " a[j]
		}
		if ($1 in open) {
			d = $3 - open[$1]
			if (d < 0)
				nn++
			else {
				tn++; ts += d
				if ($6 != nr[$1]) { mn++; ms += d }
			}
			delete open[$1]
		}
	    }
	    END { printf "%d %.0f %d %.0f %d %.0f %d\n", tn, ts, pn, ps, mn, ms,
		nn }'
}

# wakeup_facts FILE: the wake-ups of report's lines timed by each rule,
# as "tn ts pn ps", for a trace whose wake-ups are sched_wakeup records
# (no sched_waking, no sched_wakeup_new):
#  - tview's: a wake-up of a thread neither running nor runnable (its
#    state unknown before the trace shows it) ends at the first record
#    that shows it on a CPU: the switch to it, or its own record where
#    the trace lacks that switch, but not when that record is the
#    switch out of it (the state ends the wake-up there); such a record
#    also leaves the thread it displaces in an unknown state (tn
#    wake-ups, ts ns);
#  - the profile's: a wake-up of a task whose last switch out was not
#    "R" ends at the next switch to it, the last wake-up first (pn, ps).
# Records of no rule of tview's (sched_stat_runtime...) from the thread
# a switch just put out prove nothing: it is still leaving; nor do stack
# traces, which echo the record before them.
wakeup_facts() {
	report_lines "$1" | awk '
	function proves(q, c, t, timed) {
		if (cur[c] != "" && cur[c] != q && S[cur[c]] == "run")
			S[cur[c]] = "unknown"
		cur[c] = q; S[q] = "run"
		if (timed && (q in W)) { tn++; ts += t - W[q] }
		if (timed) delete W[q]
	}
	{
		p = $1; c = $2; t = $3; ev = $4
		if (ev == "sched_switch:") {
			for (j = 5; j <= NF; j++) if ($j == "==>") a = j
			o = $(a - 3); sub(/.*:/, "", o); st = $(a - 1)
			q = $(NF - 1); sub(/.*:/, "", q)	# comm may hold spaces
			if (cur[c] != p) proves(p, c, t, 0)
			S[o] = st == "R" || st == "R+" ? "runnable" : "blocked"
			out[c] = o; cur[c] = ""; delete W[o]
			proves(q, c, t, 1)
			sleeping[o] = st != "R"
			if (pw[q] != "") {
				k = split(pw[q], x, " "); pn++; ps += t - x[k]
				pw[q] = ""; for (j = 1; j < k; j++) pw[q] = pw[q] " " x[j]
			}
			next
		}
		if (ev ~ /^(kernel|user)_stack:/)
			next		# echoes: they prove nothing
		passive = ev !~ /^(sched_(wakeup|process_)|sys_(enter|exit)|irq_handler_|softirq_(entry|exit))/
		if (cur[c] != p && !(passive && p == out[c])) proves(p, c, t, 1)
		if (cur[c] == p) out[c] = ""
		if (ev == "sched_wakeup:") {
			# "COMM:PID [PRIO]": COMM may hold spaces
			for (j = 6; j <= NF && $j !~ /^\[[0-9]+\]$/; j++)
				;
			q = $(j - 1); sub(/.*:/, "", q)
			if (S[q] != "run" && S[q] != "runnable") W[q] = t
			if (S[q] != "run") S[q] = "runnable"
			if (sleeping[q]) { sleeping[q] = 0; pw[q] = pw[q] " " t }
		}
	}
	END { printf "%d %.0f %d %.0f\n", tn, ts, pn, ps }'
}

# syscall_check NAME FILE: tview and the profile (report --profile's
# output in $tmp/profile) against the pairings of report's lines
# (syscall_facts); the checks are lib.sh's ok.
syscall_check() {
	# shellcheck disable=SC2046 # numbers, split on purpose
	set -- "$1" "$2" $(syscall_facts "$2")
	tn=$3 ts=$4 pn=$5 ps=$6 mn=$7 ms=$8 nn=$9
	# shellcheck disable=SC2046
	set -- "$1" "$2" $(profile_rows sys_enter <"$tmp/profile") $(tview_latency syscall "$2")
	ok "$1: profile times $3 calls, $4 ns: report's lines paired by number ($pn, $ps)" \
	    test "$3 $4" = "$pn $ps"
	ok "$1: tview times $5 calls, $6 ns: paired to the next exit ($tn, $ts)" \
	    same_as "$5" "$6" "$tn" "$ts"
	if [ "$nn" = 0 ]; then
		ok "$1: tview's $tn calls are the profile's $pn and $mn whose exit carries another number" \
		    test "$tn $ts" = "$((pn + mn)) $((ps + ms))"
	else
		echo "# $1: $nn entries while a call was open (or negative" \
		    "times): the rules part further"
	fi
	ok "$1: nothing on stderr" test ! -s "$tmp/err"
}
