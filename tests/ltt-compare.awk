# Compare `tview --dump` of an LTT trace (first file) with an LTTV textDump
# oracle (second file): same events in the same order, same tracefile, same
# field values, timestamps within +-1 ns (LTTV versions round the TSC to ns
# conversion differently).  The process columns (pid, tgid, name, brand,
# ppid, function, mode) come from LTTV's state engine, not from the trace
# data: they are left out.  Events with equal (+-1 ns) timestamps may come
# in another order.  Prints the number of matching events; exit 1 on any
# difference.  "Identical" counts events at the same place with the same
# ns (LTTV orders equal times by directory order, which may differ
# elsewhere).
#
#   awk -f ltt-compare.awk OURS ORACLE

# Split an event line into key (name, tracefile, fields) and ns; 0 if none.
function parse(line, r,    head, rest, h, t, p) {
	if (!match(line, /^[^ ]+: -?[0-9]+\.[0-9]+ \([^)]*\), /))
		return 0
	head = substr(line, 1, RLENGTH)
	rest = substr(line, RLENGTH + 1)
	split(head, h, " ")
	split(h[2], t, ".")
	p = index(rest, " { ")
	r["key"] = h[1] " " h[3] (p ? substr(rest, p) : "")
	r["ns"] = t[1] * 1000000000 + t[2]
	return 1
}

function near(a, b) {
	return a - b <= 1 && b - a <= 1
}

NR == FNR {
	if (parse($0, r)) {
		okey[n] = r["key"]
		ons[n] = r["ns"]
		used[n] = 0
		n++
	}
	next
}

{
	if (!parse($0, r))
		next
	m++
	while (i < n && used[i])
		i++
	found = -1
	for (j = i; j < n && j < i + 16; j++) {
		if (used[j])
			continue
		if (okey[j] == r["key"] && near(ons[j], r["ns"])) {
			found = j
			break
		}
		if (ons[j] > r["ns"] + 1)
			break
	}
	if (found < 0) {
		bad++
		if (bad <= 5) {
			printf "oracle event %d differs:\n  lttv: %s\n", m, $0
			if (i < n)
				printf "  ours: %s @%d\n", okey[i], ons[i]
		}
		if (i < n)
			used[i] = 1
		next
	}
	used[found] = 1
	good++
	if (found == m - 1 && ons[found] == r["ns"])
		same++
}

END {
	printf "%d of %d oracle events match, %d identical (tview printed " \
	    "%d)\n", good, m, same, n
	exit (bad || good != n) ? 1 : 0
}
