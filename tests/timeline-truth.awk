# Which task ran in which column of a timeline of [T0, T1) cut into N
# columns, from gen-ctf's ground truth alone (-v t0= -v t1= -v cols=).
#
# The truth's E line names the task current on its CPU before the event.
# tview marks a task running in a column (a) at the column's start, if
# it was current on a CPU after every record before that instant: the
# task the next event of that CPU names; (b) after each record of the
# column: the task the following event of that CPU names.
# Output: "run COL TID" for tasks (tid != 0) and "busy COL CPU" when a
# task ran on the CPU in that column, each once.

function ns(s) { return substr(s, length(s) - 14) + 0 }

# the column of time t (the last whose start is <= t)
function col(t,    c) {
	c = int((t - lo) * cols / span)
	while (c + 1 < cols && lo + int(span * (c + 1) / cols) <= t) c++
	while (c > 0 && lo + int(span * c / cols) > t) c--
	return c
}

function mark(c, cpu, tid) {
	if (tid == 0)
		return
	if (!(("r", c, tid) in seen)) {
		seen["r", c, tid] = 1
		print "run", c, tid
	}
	if (!(("b", c, cpu) in seen)) {
		seen["b", c, cpu] = 1
		print "busy", c, cpu
	}
}

BEGIN { lo = ns(t0); hi = ns(t1); span = hi - lo }

$1 == "E" {
	ts = ns($2); cpu = $3; tid = $4
	n[cpu]++
	T[cpu, n[cpu]] = ts
	K[cpu, n[cpu]] = tid
}

END {
	for (cpu in n) {
		# (a) column starts: the first event at or after the start
		j = 1
		for (c = 0; c < cols; c++) {
			b = lo + int(span * c / cols)
			while (j <= n[cpu] && T[cpu, j] < b) j++
			if (j <= n[cpu])
				mark(c, cpu, K[cpu, j])
		}
		# (b) after each record of the window: the next event's task
		for (j = 1; j < n[cpu]; j++) {
			if (T[cpu, j] < lo || T[cpu, j] >= hi)
				continue
			mark(col(T[cpu, j]), cpu, K[cpu, j + 1])
		}
	}
}
