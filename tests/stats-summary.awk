# Latency samples "sample KIND NS", sorted by KIND then NS (sort -k2,2
# -k3,3n), into the columns --latency prints: KIND COUNT MIN MEAN P50
# P99 MAX, in microseconds with three decimals; percentiles are nearest
# rank (the ceil(p * n / 100)-th smallest).

function us(v) { return sprintf("%d.%03d", int(v / 1000), v % 1000) }

function flush(    r50, r99) {
	if (n == 0)
		return
	r50 = int((n * 50 + 99) / 100); if (r50 < 1) r50 = 1
	r99 = int((n * 99 + 99) / 100); if (r99 < 1) r99 = 1
	printf "%s %d %s %s %s %s %s\n", kind, n, us(s[1]),
	    us(int(tot / n)), us(s[r50]), us(s[r99]), us(s[n])
}

$1 == "sample" {
	if ($2 != kind) {
		flush()
		kind = $2; n = 0; tot = 0
	}
	s[++n] = $3 + 0
	tot += $3
}
END { flush() }
