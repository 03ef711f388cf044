/*
 * Event density (density.h): the packet index says how much of the trace
 * overlaps the window; a small window is counted record by record through
 * the merger, a large one spread from the packets' time spans.
 */
#include "tview/tview.h"

#include <stdlib.h>

#include "tview/density.h"
#include "tview/merge.h"
#include "tview/time.h"
#include "tview/util.h"

/* Records between two polls of the cancel flag. */
#define DENSITY_POLL_EVERY	4096

/* The column of @ts (clamped to the window). */
static uint32_t
density_col(const struct tv_density *d, int64_t ts)
{
	return tv_window_col_of(d->t0, d->t1, d->ncols, ts);
}

/*
 * Bytes of packet content overlapping the window, counted up to just
 * past TV_DENSITY_EXACT_BYTES (all the caller asks).
 */
static uint64_t
density_bytes(const struct tv_trace_set *set, int64_t t0, int64_t t1)
{
	const struct tv_packet *p;
	uint64_t sum = 0, i;
	uint32_t s;

	for (s = 0; s < set->nstreams; s++) {
		for (i = 0; i < set->streams[s]->npackets; i++) {
			p = &set->streams[s]->packets[i];
			if (p->ts_begin == TV_TIME_NONE || p->ts_end < t0 ||
			    p->ts_begin >= t1)
				continue;
			sum += p->content_bits / 8;
			if (sum > TV_DENSITY_EXACT_BYTES)
				return sum;
		}
	}
	return sum;
}

/*
 * The share of a packet's events the pass keeps where it has not been
 * yet: what it kept so far (all of them before it has seen any).
 */
static double
density_ratio(const struct tv_pass *pass)
{
	uint64_t kept, seen;
	bool done;

	(void)tv_pass_progress(pass, &kept, &seen, &done);
	return seen > 0 ? (double)kept / (double)seen : 1.0;
}

/*
 * Events @pass kept per byte of the window's packets it has done (0 if
 * none): the weight of a packet it has not reached and whose record
 * count is not known yet either.
 */
static double
density_kept_per_byte(const struct tv_trace_set *set,
    const struct tv_pass *pass, const struct tv_density *d)
{
	const struct tv_packet *p;
	uint64_t i, kept, sum = 0, bytes = 0;
	uint32_t s;

	for (s = 0; s < set->nstreams; s++) {
		for (i = 0; i < set->streams[s]->npackets; i++) {
			p = &set->streams[s]->packets[i];
			if (p->ts_begin == TV_TIME_NONE || p->ts_end < d->t0 ||
			    p->ts_begin >= d->t1 ||
			    !tv_pass_kept(pass, set->streams[s], i, &kept))
				continue;
			sum += kept;
			bytes += p->content_bits / 8;
		}
	}
	return bytes > 0 ? (double)sum / (double)bytes : 0.0;
}

/* Spread each packet's weight evenly over the columns its span covers. */
static void
density_estimate(const struct tv_trace_set *set, const struct tv_pass *pass,
    struct tv_density *d)
{
	double ratio = pass != NULL ? density_ratio(pass) : 1.0;
	double per_byte = pass != NULL ?
	    density_kept_per_byte(set, pass, d) : 0.0;
	const struct tv_packet *p;
	int64_t b, e, lo, hi, w0;
	double weight, span;
	uint32_t s, c, c0, c1;
	uint64_t i, count;

	for (s = 0; s < set->nstreams; s++) {
		for (i = 0; i < set->streams[s]->npackets; i++) {
			p = &set->streams[s]->packets[i];
			b = p->ts_begin;
			e = p->ts_end;
			if (b == TV_TIME_NONE || e < d->t0 || b >= d->t1)
				continue;
			if (e < b)
				e = b;
			/* counts are stored by the passes' threads */
			count = __atomic_load_n(&p->event_count,
			    __ATOMIC_RELAXED);
			weight = count != TV_COUNT_UNKNOWN ? (double)count :
			    (double)(p->content_bits / 8);
			if (pass != NULL && tv_pass_kept(pass, set->streams[s],
			    i, &count)) {
				weight = (double)count;
			} else if (pass != NULL) {
				weight = count == TV_COUNT_UNKNOWN &&
				    per_byte > 0.0 ? (double)(p->content_bits /
				    8) * per_byte : weight * ratio;
				d->partial = true;
			}
			span = (double)(e - b) + 1.0;
			c0 = density_col(d, TV_MAX(b, d->t0));
			c1 = density_col(d, TV_MIN(e, d->t1 - 1));
			for (c = c0; c <= c1; c++) {
				/* the part of [b, e] inside column c */
				w0 = tv_window_col_time(d->t0, d->t1,
				    d->ncols, c);
				lo = TV_MAX(b, w0);
				hi = TV_MIN(e + 1, c + 1 < d->ncols ?
				    tv_window_col_time(d->t0, d->t1, d->ncols,
				    c + 1) : d->t1);
				if (hi > lo)
					d->cols[c] += weight *
					    (double)(hi - lo) / span;
			}
		}
	}
}

/*
 * What record @ev weighs: 1, or with @pass, 1 if it keeps the event, 0
 * if not, @ratio while it has not been through @ev's packet.
 */
static double
density_weight(const struct tv_pass *pass, double ratio,
    const struct tv_event *ev, struct tv_density *d)
{
	bool keep;

	if (pass == NULL)
		return 1.0;
	if (ev->rec.kind != TV_REC_EVENT)
		return 0.0;
	if (!tv_pass_keeps(pass, ev, &keep)) {
		d->partial = true;
		return ratio;
	}
	return keep ? 1.0 : 0.0;
}

/* Count every record of the window (with @pass, every event it keeps). */
static enum tv_status
density_count(struct tv_trace_set *set, const struct tv_pass *pass,
    struct tv_density *d, const volatile bool *cancel, struct tv_error *err)
{
	struct tv_merge *mg = tv_merge_create(set);
	double ratio = pass != NULL ? density_ratio(pass) : 1.0;
	struct tv_event ev;
	enum tv_status st;
	uint64_t n = 0;

	tv_merge_seek_time(mg, d->t0);
	while ((st = tv_merge_next(mg, &ev)) == TV_OK && ev.rec.ts < d->t1) {
		if (cancel != NULL && ++n % DENSITY_POLL_EVERY == 0 &&
		    *cancel) {
			tv_merge_destroy(mg);
			return tv_error_set(err, TV_CANCELLED, NULL,
			    _("density cancelled"));
		}
		if (ev.rec.ts >= d->t0)
			d->cols[density_col(d, ev.rec.ts)] +=
			    density_weight(pass, ratio, &ev, d);
	}
	/*
	 * A record that cannot be decoded ends the count there: the strip
	 * shows what was readable, the event list says what is damaged.
	 */
	(void)st;
	(void)err;
	tv_merge_destroy(mg);
	return TV_OK;
}

/* See density.h. */
enum tv_status
tv_density_build(struct tv_trace_set *set, int64_t t0, int64_t t1,
    uint32_t ncols, const struct tv_pass *pass, const volatile bool *cancel,
    struct tv_density **out, struct tv_error *err)
{
	struct tv_density *d;
	enum tv_status st = TV_OK;
	uint32_t c;

	*out = NULL;
	if (ncols == 0)
		ncols = 1;
	if (t1 <= t0)
		t1 = t0 + 1;
	d = tv_xcalloc(1, sizeof(*d));
	d->t0 = t0;
	d->t1 = t1;
	d->ncols = ncols;
	d->cols = tv_xcalloc(ncols, sizeof(*d->cols));
	if (density_bytes(set, t0, t1) <= TV_DENSITY_EXACT_BYTES) {
		st = density_count(set, pass, d, cancel, err);
	} else {
		d->estimated = true;
		density_estimate(set, pass, d);
	}
	if (st != TV_OK) {
		tv_density_destroy(d);
		return st;
	}
	for (c = 0; c < ncols; c++)
		if (d->cols[c] > d->max)
			d->max = d->cols[c];
	*out = d;
	return TV_OK;
}

/* See density.h. */
void
tv_density_destroy(struct tv_density *d)
{
	if (d == NULL)
		return;
	free(d->cols);
	free(d);
}

/* See density.h. */
unsigned
tv_density_level(const struct tv_density *d, uint32_t col, unsigned levels)
{
	double v;
	unsigned l;

	if (col >= d->ncols || d->cols[col] <= 0.0 || d->max <= 0.0)
		return 0;
	v = d->cols[col] / d->max;
	l = (unsigned)(v * levels + 0.999999);
	return l < 1 ? 1 : l > levels ? levels : l;
}
