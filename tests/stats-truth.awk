# The figures --stats and --latency must print for a gen-ctf trace,
# computed from the simulator's ground truth (gen-ctf --truth) alone,
# between T0 and T1 (-v t0=... -v t1=..., ns as the truth writes them).
#
# CPU time: between two consecutive events of a CPU, the CPU ran the task
# the later event names as current (a switch event names the task it
# switches away from), clipped to [T0, T1].  Latencies: a wake-up ("W")
# to the switch that puts the task on a CPU ("X"); a syscall / IRQ /
# softirq entry to its exit on the same task (event ids of gen-ctf.h).
# Output, one fact a line (tests/stats-summary.awk turns samples into
# the --latency columns):
#   run TID NS        CPU time of a task (not the idle ones)
#   idle CPU NS       swapper/CPU outside interrupts
#   sample KIND NS    one latency (KIND: wakeup syscall irq softirq, or
#                     sys:NAME for one system call)
#
# Timestamps are ~1.8e18: awk's doubles keep their last 15 digits exact.

function ns(s) { return substr(s, length(s) - 14) + 0 }

BEGIN {
	name[8] = "read"; name[10] = "write"; name[12] = "openat"
	name[14] = "close"; name[16] = "futex"
	lo = ns(t0); hi = ns(t1)
}

$1 == "E" {
	ts = ns($2); cpu = $3; tid = $4; id = $6
	if (cpu in last) {
		a = last[cpu] < lo ? lo : last[cpu]
		b = ts > hi ? hi : ts
		if (b > a) {
			if (tid != 0)
				run[tid] += b - a
			else if (!(("irq", cpu) in open) &&
			    !(("softirq", cpu) in open))
				idle[cpu] += b - a
		}
	}
	last[cpu] = ts
	if (ts > hi)
		next
	key = tid == 0 ? cpu : "t" tid
	if (id == 3 || id == 6) {
		open[id == 3 ? "irq" : "softirq", key] = ts
	} else if (id == 4 || id == 7) {
		k = id == 4 ? "irq" : "softirq"
		if ((k, key) in open) {
			if (open[k, key] >= lo)
				print "sample", k, ts - open[k, key]
			delete open[k, key]
		}
	} else if (id >= 8 && id <= 16 && id % 2 == 0) {
		open["syscall", key] = ts
		sysname[key] = name[id]
	} else if (id >= 9 && id <= 17 && id % 2 == 1) {
		if (("syscall", key) in open) {
			st = open["syscall", key]
			if (st >= lo) {
				print "sample", "syscall", ts - st
				print "sample", "sys:" sysname[key], ts - st
			}
			delete open["syscall", key]
		}
	}
	next
}
$1 == "W" && ns($2) <= hi {
	if (!($4 in woken))
		woken[$4] = ns($2)
	next
}
$1 == "X" && ns($2) <= hi {
	if ($4 in woken) {
		if (woken[$4] >= lo)
			print "sample", "wakeup", ns($2) - woken[$4]
		delete woken[$4]
	}
	next
}
END {
	for (t in run)
		if (run[t] > 0)
			printf "run %s %.0f\n", t, run[t]
	for (c in idle)
		printf "idle %s %.0f\n", c, idle[c]
}
