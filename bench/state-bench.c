/*
 * state-bench: the background pass (time, events, checkpoints, snapshot
 * memory) and the latency of "process state at time T" (nearest
 * checkpoint + replay, as the process pane asks it) over N random times.
 * Target: p99 <= 50 ms on the 1 GB generated trace.  Run it with several
 * K to choose TV_STATE_CHECKPOINT_EVERY.
 *
 *   state-bench TRACE [N [K]]
 */
#include "bench.h"

#include <inttypes.h>
#include <string.h>

#include "tview/state.h"

/* qsort comparator for int64_t. */
static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Run the pass once, then N state-at-T queries; print the figures. */
int
main(int argc, char **argv)
{
	struct tv_state_index *idx;
	struct tv_trace_set *set;
	struct tv_state *s;
	struct tv_error err;
	int64_t t0, t_pass, *lat, span, ts;
	uint64_t rng = 0x9e3779b97f4a7c15ULL, n = 200, k = 0, i;
	size_t nthreads;

	if (argc < 2 || argc > 4) {
		fputs("usage: state-bench TRACE [N [K]]\n", stderr);
		return 2;
	}
	if (argc > 2)
		n = strtoull(argv[2], NULL, 10);
	if (argc > 3)
		k = strtoull(argv[3], NULL, 10);
	if (n == 0 || n > 1000000)
		n = 200;
	set = bench_open("state-bench", argv[1]);
	span = set->ts_end - set->ts_begin;
	lat = calloc(n, sizeof(*lat));
	if (!lat || span <= 0) {
		fputs("state-bench: empty trace or out of memory\n", stderr);
		return 1;
	}
	idx = tv_state_index_create(set, k);
	t0 = bench_now_ns();
	if (tv_state_index_run(idx, false, &err) != TV_OK)
		fprintf(stderr, "state-bench: pass: %s\n", err.msg);
	t_pass = bench_now_ns() - t0;
	s = tv_state_create(set);
	for (i = 0; i < n; i++) {
		rng ^= rng >> 12;
		rng ^= rng << 25;
		rng ^= rng >> 27;
		ts = set->ts_begin + (int64_t)((rng * 0x2545f4914f6cdd1dULL) %
		    (uint64_t)span);
		t0 = bench_now_ns();
		(void)tv_state_at(idx, ts, s, NULL);
		lat[i] = bench_now_ns() - t0;
	}
	(void)tv_state_threads(s, &nthreads);
	qsort(lat, n, sizeof(*lat), cmp_i64);
	printf("pass_ms %.0f events %" PRIu64 " checkpoints %zu every %" PRIu64
	    "\n", (double)t_pass / 1e6, tv_state_index_events(idx),
	    tv_state_index_checkpoints(idx),
	    k ? k : (uint64_t)TV_STATE_CHECKPOINT_EVERY);
	printf("state_at %" PRIu64 " median_ms %.1f p99_ms %.1f max_ms %.1f "
	    "threads %zu\n", n, (double)lat[n / 2] / 1e6,
	    (double)lat[n * 99 / 100] / 1e6, (double)lat[n - 1] / 1e6,
	    nthreads);
	free(lat);
	tv_state_destroy(s);
	tv_state_index_destroy(idx);
	tv_trace_set_close(set);
	return 0;
}
