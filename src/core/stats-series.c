/*
 * One latency series: count, min, max, total, the longest instances, and
 * the samples for percentiles.  Samples are kept (exact percentiles) up
 * to TV_LAT_EXACT_MAX; past it they fold into a log-linear histogram of
 * 64 sub-buckets per power of two, so memory stays bounded on any trace
 * while p50/p99 keep a relative error under 1/64.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/util.h"
#include "stats-priv.h"

/* Sub-buckets per power of two, and the buckets of any int64 value. */
#define SERIES_SUB_BITS	6
#define SERIES_SUB	(1 << SERIES_SUB_BITS)
#define SERIES_BUCKETS	(SERIES_SUB * 2 + SERIES_SUB * 57)

/* Bucket of @v >= 0: exact below 2*SUB, then SUB per power of two. */
static size_t
series_bucket(int64_t v)
{
	uint64_t u = v < 0 ? 0 : (uint64_t)v;
	int shift;

	if (u < 2 * SERIES_SUB)
		return (size_t)u;
	shift = 63 - __builtin_clzll(u) - SERIES_SUB_BITS;
	return (size_t)(shift + 1) * SERIES_SUB + (size_t)((u >> shift) -
	    SERIES_SUB);
}

/* Lowest value of bucket @b (the inverse of series_bucket). */
static int64_t
series_bucket_low(size_t b)
{
	size_t shift;

	if (b < 2 * SERIES_SUB)
		return (int64_t)b;
	shift = b / SERIES_SUB - 1;
	return (int64_t)(((uint64_t)(b % SERIES_SUB) + SERIES_SUB) << shift);
}

/* See stats-priv.h. */
void
tv_series_init(struct tv_series *s, const char *name)
{
	memset(s, 0, sizeof(*s));
	s->pub.name = name;
	s->pub.exact = true;
}

/* See stats-priv.h. */
void
tv_series_fini(struct tv_series *s)
{
	free(s->samples);
	free(s->hist);
	memset(s, 0, sizeof(*s));
}

/* Keep @in among the longest instances of @p, longest first. */
static void
series_top(struct tv_lat_series *p, const struct tv_lat_instance *in)
{
	uint32_t i;

	if (p->ntop == TV_LAT_TOP && in->dur <= p->top[TV_LAT_TOP - 1].dur)
		return;
	i = p->ntop < TV_LAT_TOP ? p->ntop++ : TV_LAT_TOP - 1;
	/* ties keep the earlier instance first */
	while (i > 0 && p->top[i - 1].dur < in->dur) {
		p->top[i] = p->top[i - 1];
		i--;
	}
	p->top[i] = *in;
}

/* Fold every kept sample into the histogram and stop keeping them. */
static void
series_fold(struct tv_series *s)
{
	size_t i;

	s->hist = tv_xcalloc(SERIES_BUCKETS, sizeof(*s->hist));
	for (i = 0; i < s->nsamples; i++)
		s->hist[series_bucket(s->samples[i])]++;
	free(s->samples);
	s->samples = NULL;
	s->nsamples = s->nsorted = s->cap = 0;
	s->pub.exact = false;
}

/* See stats-priv.h. */
void
tv_series_add(struct tv_series *s, const struct tv_lat_instance *in)
{
	struct tv_lat_series *p = &s->pub;

	if (p->count == 0 || in->dur < p->min)
		p->min = in->dur;
	if (p->count == 0 || in->dur > p->max)
		p->max = in->dur;
	p->count++;
	p->total += in->dur;
	series_top(p, in);
	if (s->hist != NULL) {
		s->hist[series_bucket(in->dur)]++;
		return;
	}
	if (s->nsamples == TV_LAT_EXACT_MAX) {
		series_fold(s);
		s->hist[series_bucket(in->dur)]++;
		return;
	}
	TV_VEC_GROW(s->samples, s->nsamples, s->cap);
	s->samples[s->nsamples++] = in->dur;
}

/* Ascending int64 order for qsort. */
static int
series_cmp(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return a < b ? -1 : a > b;
}

/* The nearest-rank @pct percentile (1-based rank ceil(pct * n / 100)). */
static int64_t
series_pct(const struct tv_series *s, unsigned pct)
{
	uint64_t n = s->pub.count, rank, seen = 0;
	size_t b;

	if (n == 0)
		return 0;
	rank = (n * pct + 99) / 100;
	if (rank == 0)
		rank = 1;
	if (s->hist == NULL)
		return s->samples[rank - 1];
	for (b = 0; b < SERIES_BUCKETS; b++) {
		seen += s->hist[b];
		if (seen >= rank)
			return TV_MAX(series_bucket_low(b), s->pub.min);
	}
	return s->pub.max;
}

/*
 * Sort the samples added since the last finish and merge them into the
 * sorted ones: a walk that goes on as a followed trace grows finishes
 * its series at each step, in time linear in the samples.
 */
static void
series_sort(struct tv_series *s)
{
	size_t n = s->nsamples, m = s->nsorted, i = 0, j, k = 0;
	int64_t *merged;

	if (m >= n)
		return;
	qsort(s->samples + m, n - m, sizeof(*s->samples), series_cmp);
	if (m > 0 && s->samples[m - 1] > s->samples[m]) {
		merged = tv_xreallocarray(NULL, n, sizeof(*merged));
		for (j = m; i < m && j < n;)
			merged[k++] = s->samples[i] <= s->samples[j] ?
			    s->samples[i++] : s->samples[j++];
		while (i < m)
			merged[k++] = s->samples[i++];
		while (j < n)
			merged[k++] = s->samples[j++];
		memcpy(s->samples, merged, n * sizeof(*merged));
		free(merged);
	}
	s->nsorted = n;
}

/* See stats-priv.h. */
void
tv_series_finish(struct tv_series *s)
{
	if (s->hist == NULL)
		series_sort(s);
	s->pub.p50 = series_pct(s, 50);
	s->pub.p99 = series_pct(s, 99);
}
