/*
 * seek-bench: latency of "go to time T" in the merged timeline, as the
 * UI does it (tv_merge_seek_time + tv_merge_next), over N random times
 * spread over the trace; prints the open time, the median and the p99,
 * and checks that every seek lands on the first event at or after T.
 *
 *   seek-bench TRACE [N [SEED]]
 */
#include "bench.h"

#include <inttypes.h>
#include <string.h>

/* qsort comparator for int64_t. */
static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	struct tv_trace_set *set;
	struct tv_merge *m;
	struct tv_event ev, pv;
	int64_t t0, t_open, *lat, span, ts;
	uint64_t rng, n = 1000, i, bad = 0;

	if (argc < 2 || argc > 4) {
		fputs("usage: seek-bench TRACE [N [SEED]]\n", stderr);
		return 2;
	}
	if (argc > 2)
		n = strtoull(argv[2], NULL, 10);
	rng = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
	rng = rng * 0x9e3779b97f4a7c15ULL | 1;
	if (n == 0 || n > 10000000)
		n = 1000;
	t0 = bench_now_ns();
	set = bench_open("seek-bench", argv[1]);
	m = tv_merge_create(set);
	t_open = bench_now_ns() - t0;
	span = set->ts_end - set->ts_begin;
	lat = calloc(n, sizeof(*lat));
	if (!m || !lat || span <= 0) {
		fputs("seek-bench: empty trace or out of memory\n", stderr);
		return 1;
	}
	for (i = 0; i < n; i++) {
		rng ^= rng >> 12;
		rng ^= rng << 25;
		rng ^= rng >> 27;
		ts = set->ts_begin + (int64_t)((rng * 0x2545f4914f6cdd1dULL) %
		    (uint64_t)span);
		t0 = bench_now_ns();
		tv_merge_seek_time(m, ts);
		if (tv_merge_next(m, &ev) != TV_OK) {
			lat[i] = bench_now_ns() - t0;
			continue;
		}
		lat[i] = bench_now_ns() - t0;
		/* landed right: at or after ts, and the one before is before */
		if (ev.rec.ts < ts)
			bad++;
		if (tv_merge_prev(m, &pv) == TV_OK &&
		    tv_merge_prev(m, &pv) == TV_OK && pv.rec.ts >= ts)
			bad++;
	}
	qsort(lat, n, sizeof(*lat), cmp_i64);
	printf("span %" PRId64 " %" PRId64 "\n", set->ts_begin, set->ts_end);
	printf("open_ms %.1f\n", (double)t_open / 1e6);
	printf("seeks %" PRIu64 " median_us %.1f p99_us %.1f max_us %.1f "
	    "wrong %" PRIu64 "\n", n, (double)lat[n / 2] / 1e3,
	    (double)lat[n * 99 / 100] / 1e3, (double)lat[n - 1] / 1e3, bad);
	free(lat);
	tv_merge_destroy(m);
	tv_trace_set_close(set);
	return bad ? 1 : 0;
}
