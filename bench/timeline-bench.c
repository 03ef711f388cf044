/*
 * timeline-bench: time to draw the control-flow and CPU views (one
 * tv_timeline holds the rows of both) with the density strip atop them,
 * as the timeline pane builds them (tv_timeline_build, tv_density_build),
 * for a 10 ms, a 1 s and the whole-trace window; first while the
 * background pass runs on its worker, then after it.  Target: well under
 * 100 ms for any window of the 1 GB trace after the pass.
 *
 *   timeline-bench TRACE [N [COLS]]
 *
 * N windows of 10 ms and of 1 s at random places (a fixed seed), 5 of
 * the whole trace, COLS columns (default 200, a wide terminal).  Prints
 * one line per window size and phase: "after 10ms n 20 median_ms ...
 * p99_ms ... max_ms ... sampled K density_median_ms ..." (K: builds
 * that sampled checkpoints instead of replaying, see timeline.h; the
 * last figure is the density strip's part of the draw).
 */
#include "bench.h"

#include <inttypes.h>
#include <string.h>

#include "tview/density.h"
#include "tview/state.h"
#include "tview/timeline.h"

/* The window sizes; 0 is the whole trace. */
static const struct {
	const char	*name;
	int64_t		 ns;
} sizes[] = {
	{ "10ms", 10000000 },
	{ "1s", 1000000000 },
	{ "whole", 0 },
};
#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))

/* qsort comparator for int64_t. */
static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* xorshift: the next pseudo-random number. */
static uint64_t
next_rand(uint64_t *r)
{
	*r ^= *r >> 12;
	*r ^= *r << 25;
	*r ^= *r >> 27;
	return *r * 0x2545f4914f6cdd1dULL;
}

/*
 * One draw of [t0, t1): its time in ns (*dens_ns: the density strip's
 * part), *sampled set; -1 on error.
 */
static int64_t
draw(struct tv_state_index *idx, struct tv_trace_set *set, int64_t t0,
    int64_t t1, uint32_t cols, bool *sampled, int64_t *dens_ns)
{
	struct tv_timeline *tl = NULL;
	struct tv_density *d = NULL;
	struct tv_error err;
	int64_t start = bench_now_ns(), mid = 0, ns;

	if (tv_timeline_build(idx, set, t0, t1, cols, NULL, &tl, &err) !=
	    TV_OK || (mid = bench_now_ns(), tv_density_build(set, t0, t1,
	    cols, NULL, NULL, &d, &err)) != TV_OK) {
		fprintf(stderr, "timeline-bench: %s\n", err.msg);
		tv_timeline_destroy(tl);
		return -1;
	}
	ns = bench_now_ns() - start;
	*dens_ns = start + ns - mid;
	*sampled = tl->sampled;
	tv_timeline_destroy(tl);
	tv_density_destroy(d);
	return ns;
}

/* The window of size @k number @i: [*t0, *t1). */
static void
window(const struct tv_trace_set *set, size_t k, uint64_t *rng,
    int64_t *t0, int64_t *t1)
{
	int64_t span = set->ts_end - set->ts_begin, w = sizes[k].ns;

	if (w == 0 || w >= span) {
		*t0 = set->ts_begin;
		*t1 = set->ts_end + 1;
		return;
	}
	*t0 = set->ts_begin + (int64_t)(next_rand(rng) %
	    (uint64_t)(span - w));
	*t1 = *t0 + w;
}

/*
 * Print one line of figures for @n draws in @lat, of which @dens the
 * density strip's parts (both sorted here).
 */
static void
report(const char *phase, size_t k, int64_t *lat, int64_t *dens, size_t n,
    size_t nsampled)
{
	if (n == 0) {
		printf("%s %s n 0\n", phase, sizes[k].name);
		return;
	}
	qsort(lat, n, sizeof(*lat), cmp_i64);
	qsort(dens, n, sizeof(*dens), cmp_i64);
	printf("%s %s n %zu median_ms %.1f p99_ms %.1f max_ms %.1f "
	    "sampled %zu density_median_ms %.1f\n", phase, sizes[k].name, n,
	    (double)lat[n / 2] / 1e6, (double)lat[n * 99 / 100] / 1e6,
	    (double)lat[n - 1] / 1e6, nsampled, (double)dens[n / 2] / 1e6);
}

/* The pass on its worker, draws while it runs, then draws after it. */
int
main(int argc, char **argv)
{
	struct tv_state_index *idx;
	struct tv_trace_set *set;
	struct tv_error err;
	uint64_t rng = 0x9e3779b97f4a7c15ULL, n = 20, cols = 200;
	int64_t *lat[NSIZES], *dns[NSIZES], t0, t1, ns, dn, start;
	size_t nlat[NSIZES], nsam[NSIZES], k, i, reps;
	bool done = false, sampled;

	if (argc < 2 || argc > 4) {
		fputs("usage: timeline-bench TRACE [N [COLS]]\n", stderr);
		return 2;
	}
	if (argc > 2)
		n = strtoull(argv[2], NULL, 10);
	if (argc > 3)
		cols = strtoull(argv[3], NULL, 10);
	if (n == 0 || n > 10000)
		n = 20;
	if (cols == 0 || cols > TV_TIMELINE_MAX_COLS)
		cols = 200;
	set = bench_open("timeline-bench", argv[1]);
	if (set->ts_end <= set->ts_begin) {
		fputs("timeline-bench: empty trace\n", stderr);
		return 1;
	}
	for (k = 0; k < NSIZES; k++) {
		lat[k] = calloc(n < 5 ? 5 : n, sizeof(*lat[k]));
		dns[k] = calloc(n < 5 ? 5 : n, sizeof(*dns[k]));
	}

	/* During the pass: the three sizes in turn until it is done. */
	idx = tv_state_index_create(set, 0);
	start = bench_now_ns();
	if (tv_state_index_start(idx, false, &err) != TV_OK) {
		fprintf(stderr, "timeline-bench: pass: %s\n", err.msg);
		return 1;
	}
	memset(nlat, 0, sizeof(nlat));
	memset(nsam, 0, sizeof(nsam));
	for (k = 0;; k = (k + 1) % NSIZES) {
		(void)tv_state_index_progress(idx, &done);
		if (done)
			break;
		window(set, k, &rng, &t0, &t1);
		ns = draw(idx, set, t0, t1, (uint32_t)cols, &sampled, &dn);
		if (ns >= 0 && nlat[k] < n) {
			nsam[k] += sampled;
			dns[k][nlat[k]] = dn;
			lat[k][nlat[k]++] = ns;
		}
	}
	printf("pass_ms %.0f (with draws alongside) events %" PRIu64 "\n",
	    (double)(bench_now_ns() - start) / 1e6,
	    tv_state_index_events(idx));
	for (k = 0; k < NSIZES; k++)
		report("during", k, lat[k], dns[k], nlat[k], nsam[k]);

	/* After it. */
	for (k = 0; k < NSIZES; k++) {
		nsam[k] = 0;
		reps = sizes[k].ns == 0 ? 5 : n;
		for (i = 0; i < reps; i++) {
			window(set, k, &rng, &t0, &t1);
			ns = draw(idx, set, t0, t1, (uint32_t)cols, &sampled,
			    &dn);
			if (ns < 0)
				return 1;
			nsam[k] += sampled;
			lat[k][i] = ns;
			dns[k][i] = dn;
		}
		report("after", k, lat[k], dns[k], reps, nsam[k]);
		free(lat[k]);
		free(dns[k]);
	}
	tv_state_index_destroy(idx);
	tv_trace_set_close(set);
	return 0;
}
