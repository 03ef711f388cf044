#!/bin/sh
# Process state on real recordings made during the run, against the
# readers that made them (never committed; each part skips with a note
# when its tool is missing or we are not root):
#  - trace.dat (tools/record-ftrace-trace.sh, sched irq tlb raw_syscalls
#    syscalls together), against trace-cmd report:
#    * a task switched out dead (prev_state X or Z) stays dead although
#      ftrace tags the TLB flush of the switch with it, and the task
#      switched in is not made unknown by that event;
#    * a system call is counted once, not once per raw_syscalls:* and
#      syscalls:* event: no mode stack "syscall>syscall", and the syscall
#      latency count is at most report's raw sys_enter count;
#    * events of the idle task (pid 0, report's <idle>) are named
#      swapper/CPU, never "-" (also on two shared samples and their
#      report oracles);
#  - perf record + perf data convert --to-ctf, a per-task recording:
#    * every event's PID and TID are its perf_pid and perf_tid;
#    * modes do not pile up: no "syscall>syscall";
#    * the workload's processes have their PID in --processes.
#
# Usage: tests/state-recorded.sh   (env: TVIEW, TVIEW_SHARED)

: "${TVIEW:=./tview}"
# trace-cmd report, retried past its raw-timestamp flukes (tc-report)
tc_report=$(cd "$(dirname "$0")" && pwd)/tc-report
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tview-state-rec.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
lock=${TMPDIR:-/tmp}/tview-ftrace-record.lock
failed=0 ran=0
export TVIEW_CACHE=off

fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# idle WITHPID REPORT WHAT: report prints <idle>-0, we name it swapper/CPU
idle() {
	_n=$(grep -c '<idle>-0 ' "$2")
	_bad=$(awk -F '\t' '$2 == "0" {
		if (!match($4, /\[[0-9]+\]/)) next
		cpu = substr($4, RSTART + 1, RLENGTH - 2) + 0
		if ($3 != "swapper/" cpu) { print $3; exit } }' "$1")
	[ -z "$_bad" ] || fail "$3: an idle event is named \"$_bad\""
	_ours=$(awk -F '\t' '$2 == "0"' "$1" | wc -l)
	[ "$_ours" -eq "$_n" ] ||
	    fail "$3: $_ours idle events, report has $_n <idle>-0"
	echo "ok: $3: $_n idle events named swapper/CPU"
}

# ---- trace.dat ----
record=${TVIEW_SHARED:+$TVIEW_SHARED/tools/record-ftrace-trace.sh}
if [ "$(id -u)" -ne 0 ] || ! command -v trace-cmd >/dev/null 2>&1 ||
    [ -z "$record" ] || ! [ -f "$record" ]; then
	echo "note: ftrace part skipped (needs root, trace-cmd and" \
	    "tools/record-ftrace-trace.sh of ../shared)"
elif ! flock -o "$lock" bash "$record" --events \
    "sched irq tlb raw_syscalls syscalls" --buffer-kb 2048 "$tmp/r.dat" \
    -- sh -c 'for i in $(seq 1 20); do /bin/true; ls / >/dev/null; done' \
    >"$tmp/rec.log" 2>&1; then
	echo "note: ftrace part skipped: recording failed:" \
	    "$(tail -1 "$tmp/rec.log")"
else
	ran=$((ran + 1))
	sh "$tc_report" -i "$tmp/r.dat" >"$tmp/report" \
	    2>/dev/null || fail "trace-cmd report failed"
	"$TVIEW" --processes --format tsv "$tmp/r.dat" >"$tmp/procs" ||
	    fail "tview --processes failed"
	"$TVIEW" --dump --with-pid "$tmp/r.dat" >"$tmp/pid" ||
	    fail "tview --dump --with-pid failed"
	# the tasks report shows switched out dead, and whether a TLB flush
	# of the switch carried one
	awk '/ sched_switch: .* [XZ] ==> / {
		n = split($0, w, " "); for (i = 1; i <= n; i++)
			if (w[i] == "==>") { k = split(w[i - 3], a, ":");
			    dead[a[k]] = 1 }
	    }
	    / tlb_flush: / { k = split($1, c, "-"); if (c[k] in dead)
		tagged++ }
	    END { for (p in dead) print p > "/dev/stderr";
		print tagged + 0 }' "$tmp/report" 2>"$tmp/dead" >"$tmp/tagged"
	ndead=$(wc -l <"$tmp/dead")
	if [ "$ndead" -eq 0 ]; then
		echo "note: no task exited during the recording"
	else
		# TSV: HOST PID TID PPID NAME STATE CPU SINCE MODE
		bad=$(awk -F '\t' 'NR == FNR { dead[$1] = 1; next }
		    ($3 in dead) && $6 != "zombie" && $6 != "exited" {
			print $3 " " $6 }' "$tmp/dead" "$tmp/procs")
		[ -z "$bad" ] ||
		    fail "tasks switched out dead shown alive: $(echo $bad)"
		echo "ok: $ndead tasks switched out dead stay dead" \
		    "($(cat "$tmp/tagged") TLB flushes carried one)"
	fi
	unk=$(awk -F '\t' 'NR > 1 && $6 ~ /\?$/' "$tmp/procs" | wc -l)
	echo "note: $unk threads uncertain at the end (switches the" \
	    "trace lacks)"
	if grep -q 'syscall>syscall' "$tmp/procs"; then
		fail "system calls nest: $(grep -m1 'syscall>syscall' \
		    "$tmp/procs")"
	fi
	nent=$(grep -c ' sys_enter: ' "$tmp/report")
	nsys=$("$TVIEW" --latency=syscall "$tmp/r.dat" |
	    awk '$1 == "syscall" { print $2; exit }')
	if [ -z "$nsys" ] || [ "$nsys" -gt "$nent" ] ||
	    [ "$nsys" -lt $((nent / 2)) ]; then
		fail "syscall count ${nsys:-none}, report has $nent sys_enter"
	else
		echo "ok: $nsys system calls, report has $nent sys_enter"
	fi
	idle "$tmp/pid" "$tmp/report" recording
fi

# the shared samples' report oracles have idle events a busy machine's
# recording lacks (trappy-tests: one CPU's idle task never switched)
for t in lisa-sched_load trappy-tests; do
	f=${TVIEW_SHARED:+$TVIEW_SHARED/traces/ftrace/$t}
	o=${TVIEW_SHARED:+$TVIEW_SHARED/traces/oracles/ftrace/$t.trace-cmd-report.txt.gz}
	[ -n "$f" ] && [ -d "$f" ] && [ -f "$o" ] || continue
	for d in "$f"/*.dat; do
		ran=$((ran + 1))
		gzip -dc "$o" >"$tmp/sreport"
		"$TVIEW" --dump --with-pid "$d" >"$tmp/spid" ||
		    fail "$t: tview --dump --with-pid failed"
		idle "$tmp/spid" "$tmp/sreport" "$t"
		break
	done
done

# ---- perf CTF ----
if [ "$(id -u)" -ne 0 ] || ! command -v perf >/dev/null 2>&1; then
	echo "note: perf part skipped (needs root and perf)"
elif ! flock -o "$lock" perf record -q -o "$tmp/perf.data" -e 'raw_syscalls:sys_enter,raw_syscalls:sys_exit,sched:sched_switch,sched:sched_process_fork,sched:sched_process_exit' \
    -- sh -c 'for i in $(seq 1 10); do ls / >/dev/null; done' \
    >"$tmp/perf.log" 2>&1 ||
    ! perf data convert -i "$tmp/perf.data" --to-ctf "$tmp/ctf" \
    >>"$tmp/perf.log" 2>&1; then
	echo "note: perf part skipped: $(tail -1 "$tmp/perf.log")"
else
	ran=$((ran + 1))
	"$TVIEW" --dump --with-pid "$tmp/ctf" >"$tmp/ppid" ||
	    fail "tview --dump --with-pid on perf CTF failed"
	bad=$(awk -F '\t' '{
		if (!match($4, /perf_tid = [0-9]+/)) next
		tid = substr($4, RSTART + 11, RLENGTH - 11)
		match($4, /perf_pid = [0-9]+/)
		pid = substr($4, RSTART + 11, RLENGTH - 11)
		if ($1 != pid || $2 != tid) { print NR ": " $1 " " $2; exit }
	    }' "$tmp/ppid")
	[ -z "$bad" ] || fail "perf event owner differs from perf_pid/tid: $bad"
	"$TVIEW" --processes --format tsv "$tmp/ctf" >"$tmp/pprocs" ||
	    fail "tview --processes on perf CTF failed"
	if grep -q 'syscall>syscall' "$tmp/pprocs"; then
		fail "perf: system calls pile up: $(grep -m1 \
		    'syscall>syscall' "$tmp/pprocs")"
	fi
	nls=$(awk -F '\t' '$5 == "ls" && $2 != "-"' "$tmp/pprocs" | wc -l)
	[ "$nls" -ge 10 ] || fail "perf: $nls ls processes with a PID, want 10"
	echo "ok: perf CTF: $(wc -l <"$tmp/ppid") events owned by" \
	    "perf_pid/perf_tid, $nls ls with their PID"
fi

[ "$ran" -gt 0 ] || { echo "SKIP: no recording could be made"; exit 77; }
[ "$failed" -eq 0 ]
