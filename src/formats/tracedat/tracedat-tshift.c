/*
 * Host/guest clocks in trace.dat: the TIME_SHIFT option of a guest's file
 * (per guest CPU, samples of the offset, and a fixed-point scaling, from
 * the guest clock to the host's) and the GUEST option of a host's file
 * (a guest's name, trace id and vCPU count).  A guest timestamp is mapped
 * as trace-cmd's report maps it: with one sample, raw + offset; else the
 * two samples around it (the first or last two outside them) give the
 * offset (interpolated when the flags say so) and the scaling, applied
 * to the raw value before TSC2NSEC and OFFSET/DATE.  Every file is shifted
 * on its own, so a guest opened alone or with its host lands on the host
 * clock either way.
 */
#include "tview/tview.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tview/i18n.h"
#include "tracedat-priv.h"

/* Samples per CPU accepted (trace-cmd records a few per second). */
#define TD_MAX_TSAMPLES		(1u << 20)
#define TD_TSYNC_INTERPOLATE	0x1

/* Order samples by time, for qsort. */
static int
tsample_cmp(const void *pa, const void *pb)
{
	const struct td_tsample *a = pa, *b = pb;

	return a->time < b->time ? -1 : a->time > b->time;
}

/* Read @n signed 64-bit values into field @field of @s's samples. */
static enum tv_status
read_column(struct td_cur *d, struct td_tshift_cpu *tc, size_t field,
    struct tv_error *err)
{
	uint64_t v;
	uint32_t i;

	for (i = 0; i < tc->n; i++) {
		if (td_read_u64(d, &v, err) != TV_OK)
			return TV_CORRUPT;
		memcpy((char *)&tc->s[i] + field, &(int64_t){ (int64_t)v },
		    sizeof(int64_t));
	}
	return TV_OK;
}

/*
 * TIME_SHIFT: peer trace id (8), flags (4), CPU count (4), per CPU a
 * sample count (4) and that many times, offsets and scalings (8 each);
 * then, optionally, per CPU that many fraction bits (8 each).
 */
enum tv_status
td_opt_time_shift(struct td_file *f, struct td_cur *d, struct tv_error *err)
{
	uint32_t ncpu, i, j, k;
	uint64_t peer;
	uint32_t flags;

	if (d->len < 16)
		return TV_OK;		/* report ignores it too */
	td_tshift_free(f);
	if (td_read_u64(d, &peer, err) != TV_OK ||
	    td_read_u32(d, &flags, err) != TV_OK ||
	    td_read_u32(d, &ncpu, err) != TV_OK)
		return TV_CORRUPT;
	if (ncpu > TD_MAX_CPUS || (uint64_t)ncpu * 4 > d->len - d->pos)
		return td_error(d, err, _("TIME_SHIFT: %u CPUs do not fit "
		    "in the option"), ncpu);
	f->tshift = tv_xcalloc(TV_MAX(ncpu, 1u), sizeof(*f->tshift));
	f->tshift_cpus = ncpu;
	f->tshift_flags = flags;
	f->tshift_peer = peer;
	for (i = 0; i < ncpu; i++) {
		struct td_tshift_cpu *tc = &f->tshift[i];
		uint32_t n;

		if (td_read_u32(d, &n, err) != TV_OK)
			goto bad;
		if (n > TD_MAX_TSAMPLES ||
		    (uint64_t)n * 24 > d->len - d->pos) {
			td_error(d, err, _("TIME_SHIFT: %u samples of CPU %u "
			    "do not fit in the option"), n, i);
			goto bad;
		}
		tc->n = n;
		tc->s = tv_xcalloc(TV_MAX(n, 1u), sizeof(*tc->s));
		if (read_column(d, tc, offsetof(struct td_tsample, time),
		    err) != TV_OK ||
		    read_column(d, tc, offsetof(struct td_tsample, offset),
		    err) != TV_OK ||
		    read_column(d, tc, offsetof(struct td_tsample, scaling),
		    err) != TV_OK)
			goto bad;
	}
	if (d->pos < d->len) {
		for (i = 0; i < ncpu; i++)
			if (read_column(d, &f->tshift[i],
			    offsetof(struct td_tsample, fraction), err) !=
			    TV_OK)
				goto bad;
	}
	for (i = 0; i < ncpu; i++) {
		struct td_tshift_cpu *tc = &f->tshift[i];

		for (k = 0; k < tc->n; k++)
			if (tc->s[k].fraction < 0 || tc->s[k].fraction > 63) {
				td_error(d, err, _("TIME_SHIFT: fraction bits "
				    "%lld out of range"),
				    (long long)tc->s[k].fraction);
				goto bad;
			}
		qsort(tc->s, tc->n, sizeof(*tc->s), tsample_cmp);
		for (j = 0, k = 0; k < tc->n; k++)
			if (k == 0 || tc->s[k].time != tc->s[k - 1].time)
				tc->s[j++] = tc->s[k];
		tc->n = j;
	}
	return TV_OK;
bad:
	td_tshift_free(f);
	return TV_CORRUPT;
}

/*
 * GUEST: name, trace id (8), vCPU count (4), then (vCPU, host PID) pairs.
 * Malformed ones are ignored, as report ignores them.
 */
enum tv_status
td_opt_guest(struct td_file *f, struct td_cur *d, struct tv_error *err)
{
	const char *name;
	uint64_t id;
	uint32_t n;

	(void)err;
	if (f->nguests >= TD_MAX_BUFFERS ||
	    td_read_str(d, &name, NULL) != TV_OK ||
	    td_read_u64(d, &id, NULL) != TV_OK ||
	    td_read_u32(d, &n, NULL) != TV_OK ||
	    (uint64_t)n * 8 > d->len - d->pos)
		return TV_OK;
	f->guests = tv_xreallocarray(f->guests, f->nguests + 1,
	    sizeof(*f->guests));
	f->guests[f->nguests].name = tv_xstrdup(name);
	f->guests[f->nguests].trace_id = id;
	f->guests[f->nguests].vcpus = n;
	f->nguests++;
	return TV_OK;
}

/* Clamp a 128-bit time to what a raw timestamp holds. */
static uint64_t
clamp_u64(__int128 v)
{
	if (v < 0)
		return 0;
	if (v > (__int128)UINT64_MAX)
		return UINT64_MAX;
	return (uint64_t)v;
}

/* The host time of guest time @ts between samples @lo and @hi. */
static uint64_t
correct(uint64_t ts, uint32_t flags, const struct td_tsample *lo,
    const struct td_tsample *hi)
{
	__int128 cor, scaled;

	cor = lo->offset;
	if (flags & TD_TSYNC_INTERPOLATE) {
		__int128 delta = (__int128)hi->time - lo->time;
		__int128 num = ((__int128)ts - lo->time) *
		    ((__int128)hi->offset - lo->offset);

		if (delta != 0) {
			/* C division truncates toward zero, as report's */
			cor = lo->offset + (num + delta / 2) / delta;
		}
	}
	scaled = ((__int128)ts * lo->scaling) >> lo->fraction;
	return clamp_u64(scaled + cor);
}

/* Map raw guest time @ts of @cpu onto the host clock (no-op without). */
uint64_t
td_tshift_apply(const struct td_file *f, uint32_t cpu, uint64_t ts)
{
	const struct td_tshift_cpu *tc;
	uint32_t lo, hi, mid;

	if (f->tshift == NULL || cpu >= f->tshift_cpus)
		return ts;
	tc = &f->tshift[cpu];
	if (tc->n == 0)
		return ts;
	if (tc->n == 1)
		return clamp_u64((__int128)ts + tc->s[0].offset);
	if (tc->n == 2 || (int64_t)ts <= tc->s[0].time)
		return correct(ts, f->tshift_flags, &tc->s[0], &tc->s[1]);
	if ((int64_t)ts >= tc->s[tc->n - 1].time)
		return correct(ts, f->tshift_flags, &tc->s[tc->n - 2],
		    &tc->s[tc->n - 1]);
	/* the last sample at or before ts: s[lo].time <= ts < s[hi].time */
	lo = 0;
	hi = tc->n - 1;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (tc->s[mid].time <= (int64_t)ts)
			lo = mid;
		else
			hi = mid;
	}
	return correct(ts, f->tshift_flags, &tc->s[lo], &tc->s[lo + 1]);
}

/* Free the TIME_SHIFT samples and the GUEST list. */
void
td_tshift_free(struct td_file *f)
{
	uint32_t i;

	for (i = 0; i < f->tshift_cpus; i++)
		free(f->tshift[i].s);
	free(f->tshift);
	f->tshift = NULL;
	f->tshift_cpus = 0;
}
