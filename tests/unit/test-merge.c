/*
 * Unit tests of the merger and the packet cache, over a fake in-memory
 * driver whose decode_packet makes records from tables: streams with
 * interleaved and equal timestamps, empty packets, packets without index
 * times, a stream without packets and a packet that fails part-way.
 * Every walk is checked against an oracle: all records sorted by
 * (ts, stream ordinal, packet, index).
 */
#include "tview/merge.h"
#include "tview/format.h"
#include "tview/packet-cache.h"
#include "../tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct fake_packet {
	int64_t		*ts;
	uint32_t	 n;
	bool		 corrupt;	/* decoding fails after the records */
};

struct fake_stream {
	struct fake_packet	*pk;
	uint32_t		 npk;
};

static unsigned long ndecodes;

/* decode_packet of the fake driver: one record per table entry. */
static enum tv_status
fake_decode_packet(struct tv_stream *s, uint64_t pkt,
    struct tv_packet_events *out)
{
	const struct fake_stream *fs = s->priv;
	const struct fake_packet *fp = &fs->pk[pkt];
	uint32_t i;

	ndecodes++;
	for (i = 0; i < fp->n; i++) {
		struct tv_event_rec *r = tv_packet_events_push(out);

		r->ts = fp->ts[i];
		r->bit_offset = (uint64_t)i * 64;
		r->kind = TV_REC_EVENT;
		r->count = (uint64_t)fp->ts[i];
	}
	if (fp->corrupt) {
		out->status = tv_error_at(&out->err, TV_CORRUPT, s->name,
		    (uint64_t)fp->n * 8, "fake corruption");
		return TV_CORRUPT;
	}
	return TV_OK;
}

/* close of the fake driver: free the tables. */
static void
fake_close(struct tv_trace *t)
{
	uint32_t i, j;

	for (i = 0; i < t->nstreams; i++) {
		struct fake_stream *fs = t->streams[i]->priv;

		for (j = 0; j < fs->npk; j++)
			free(fs->pk[j].ts);
		free(fs->pk);
		free(fs);
	}
}

static const struct tv_format_ops fake_ops = {
	.name = "fake",
	.description = "in-memory test driver",
	.decode_packet = fake_decode_packet,
	.close = fake_close,
};

/* Append a packet of @n timestamps to @s; index times from the data. */
static void
add_packet(struct tv_stream *s, const int64_t *ts, uint32_t n, bool corrupt,
    bool index_times)
{
	struct fake_stream *fs = s->priv;
	struct fake_packet *fp;
	struct tv_packet *p;

	fs->pk = realloc(fs->pk, (fs->npk + 1) * sizeof(*fs->pk));
	fp = &fs->pk[fs->npk++];
	fp->ts = malloc((n ? n : 1) * sizeof(*fp->ts));
	if (n)
		memcpy(fp->ts, ts, n * sizeof(*ts));
	fp->n = n;
	fp->corrupt = corrupt;
	p = tv_stream_add_packet(s);
	if (index_times && n) {
		p->ts_begin = ts[0];
		p->ts_end = ts[n - 1];
	}
}

/* A stream of the fake trace. */
static struct tv_stream *
add_stream(struct tv_trace *t, const char *name)
{
	struct tv_stream *s = tv_trace_add_stream(t, name);

	s->priv = calloc(1, sizeof(struct fake_stream));
	return s;
}

/* A one-trace set over @t, numbered as tv_trace_set_open does. */
static struct tv_trace_set *
make_set(struct tv_trace *t)
{
	struct tv_trace_set *set = calloc(1, sizeof(*set));
	uint32_t i;

	set->traces = malloc(sizeof(*set->traces));
	set->traces[0] = t;
	set->ntraces = 1;
	set->streams = calloc(t->nstreams + 1, sizeof(*set->streams));
	for (i = 0; i < t->nstreams; i++) {
		t->streams[i]->ordinal = i;
		set->streams[set->nstreams++] = t->streams[i];
	}
	return set;
}

/* The hand-made set: ties, empty packets, missing times, corruption. */
static struct tv_trace_set *
make_small(void)
{
	struct tv_trace *t = tv_trace_create(&fake_ops, "/fake/small");
	struct tv_stream *s;

	s = add_stream(t, "s0");
	add_packet(s, (int64_t[]){ 10, 20, 30 }, 3, false, true);
	add_packet(s, NULL, 0, false, true);
	add_packet(s, (int64_t[]){ 30, 40, 40 }, 3, false, true);
	add_packet(s, (int64_t[]){ 50 }, 1, false, true);
	s = add_stream(t, "s1");
	add_packet(s, (int64_t[]){ 10, 10, 25 }, 3, false, false);
	add_packet(s, (int64_t[]){ 40, 60 }, 2, false, true);
	s->packets[1].ts_end = TV_TIME_NONE;
	s = add_stream(t, "s2");
	add_packet(s, NULL, 0, false, true);
	add_packet(s, NULL, 0, false, true);
	add_packet(s, (int64_t[]){ 5, 70 }, 2, false, true);
	add_stream(t, "s3-no-packets");
	s = add_stream(t, "s4");
	add_packet(s, (int64_t[]){ 15, 30, 30, 30 }, 4, false, true);
	add_packet(s, (int64_t[]){ 30, 30, 90 }, 3, true, true);
	add_packet(s, NULL, 0, false, true);
	return make_set(t);
}

static const struct tv_format_ops fake_file_ops;

/* probe of the fake file driver: files that start with "FAKE". */
static enum tv_status
fake_probe(const char *path, struct tv_error *err)
{
	char magic[4] = "";
	FILE *fp = fopen(path, "rb");

	(void)err;
	if (fp == NULL)
		return TV_FORMAT;
	if (fread(magic, 1, sizeof(magic), fp) != sizeof(magic))
		magic[0] = '\0';
	fclose(fp);
	return memcmp(magic, "FAKE", 4) == 0 ? TV_OK : TV_FORMAT;
}

/* open of the fake file driver: two streams, interleaved. */
static enum tv_status
fake_open(const char *path, unsigned flags,
    struct tv_trace ***out, uint32_t *nout,
    struct tv_error *err)
{
	struct tv_trace *t = tv_trace_create(&fake_file_ops, path);
	struct tv_stream *s;

	(void)flags;
	(void)err;
	s = add_stream(t, "a");
	add_packet(s, (int64_t[]){ 1, 3, 5 }, 3, false, true);
	s = add_stream(t, "b");
	add_packet(s, (int64_t[]){ 2, 4 }, 2, false, true);
	*out = malloc(sizeof(**out));
	(*out)[0] = t;
	*nout = 1;
	return TV_OK;
}

/* The fake driver as a registry entry: probed and opened from a file. */
static const struct tv_format_ops fake_file_ops = {
	.name = "fake-file",
	.description = "test driver reached through a registry",
	.probe = fake_probe,
	.open = fake_open,
	.decode_packet = fake_decode_packet,
	.close = fake_close,
};

static uint64_t rng_state = 88172645463325252ULL;

/* xorshift64: deterministic pseudo-random numbers. */
static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A bigger random set: many ties, empty packets, missing index times. */
static struct tv_trace_set *
make_random(uint32_t nstreams, uint32_t npackets)
{
	struct tv_trace *t = tv_trace_create(&fake_ops, "/fake/random");
	int64_t ts[40];
	uint32_t i, j, k;

	for (i = 0; i < nstreams; i++) {
		struct tv_stream *s = add_stream(t, "r");
		int64_t now = (int64_t)(rng() % 50) - 25;

		for (j = 0; j < npackets; j++) {
			uint32_t n = (uint32_t)(rng() % 40);

			if (rng() % 5 == 0)
				n = 0;
			for (k = 0; k < n; k++) {
				now += (int64_t)(rng() % 4);
				ts[k] = now;
			}
			add_packet(s, ts, n, false, rng() % 7 != 0);
		}
	}
	return make_set(t);
}

/* Every record of the set, in the order the merger must produce. */
struct oracle {
	struct tv_event	*ev;
	size_t		 n;
};

/* qsort comparator on the timeline order. */
static int
cmp_ev(const void *a, const void *b)
{
	return tv_event_cmp(a, b);
}

/* Collect and sort every record of @set (decoding directly). */
static void
oracle_build(struct tv_trace_set *set, struct oracle *o)
{
	uint32_t i;
	uint64_t k, j;

	o->ev = NULL;
	o->n = 0;
	for (i = 0; i < set->nstreams; i++) {
		struct tv_stream *s = set->streams[i];

		for (k = 0; k < s->npackets; k++) {
			struct tv_packet_events pe;

			memset(&pe, 0, sizeof(pe));
			fake_decode_packet(s, k, &pe);
			for (j = 0; j < pe.count; j++) {
				o->ev = realloc(o->ev, (o->n + 1) *
				    sizeof(*o->ev));
				o->ev[o->n].stream = s;
				o->ev[o->n].packet = k;
				o->ev[o->n].index = j;
				o->ev[o->n].rec = pe.recs[j];
				o->n++;
			}
			tv_packet_events_fini(&pe);
		}
	}
	qsort(o->ev, o->n, sizeof(*o->ev), cmp_ev);
}

/* Whether @a and @b are the same record. */
static bool
same(const struct tv_event *a, const struct tv_event *b)
{
	return a->stream == b->stream && a->packet == b->packet &&
	    a->index == b->index && a->rec.ts == b->rec.ts &&
	    a->rec.bit_offset == b->rec.bit_offset;
}

/* Forward and backward walks, twice, against the oracle. */
static void
check_walks(struct tv_merge *m, const struct oracle *o, const char *name)
{
	struct tv_event ev;
	size_t i;
	bool good;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		tv_merge_seek_begin(m);
		good = true;
		for (i = 0; i < o->n; i++)
			if (tv_merge_next(m, &ev) != TV_OK ||
			    !same(&ev, &o->ev[i])) {
				diag("forward differs at %zu", i);
				good = false;
				break;
			}
		ok(good, "%s: forward walk %d matches the sorted oracle "
		    "(%zu records)", name, pass + 1, o->n);
		is_int(tv_merge_next(m, &ev), TV_END, "%s: then TV_END", name);
		is_int(tv_merge_next(m, &ev), TV_END, "%s: TV_END again",
		    name);
	}
	tv_merge_seek_end(m);
	good = true;
	for (i = o->n; i-- > 0;)
		if (tv_merge_prev(m, &ev) != TV_OK || !same(&ev, &o->ev[i])) {
			diag("backward differs at %zu", i);
			good = false;
			break;
		}
	ok(good, "%s: backward walk is the exact reverse", name);
	is_int(tv_merge_prev(m, &ev), TV_END, "%s: then TV_END", name);
	/* From the start after the backward walk: the first record. */
	ok(tv_merge_next(m, &ev) == TV_OK && o->n && same(&ev, &o->ev[0]),
	    "%s: next after backward TV_END is the first record", name);
}

/* next/prev alternation: the position sits between records. */
static void
check_alternation(struct tv_merge *m, const struct oracle *o,
    const char *name)
{
	struct tv_event ev;
	bool good = true;
	size_t i;

	tv_merge_seek_begin(m);
	is_int(tv_merge_prev(m, &ev), TV_END, "%s: prev at begin is TV_END",
	    name);
	for (i = 0; i < o->n && good; i++) {
		good &= tv_merge_next(m, &ev) == TV_OK && same(&ev, &o->ev[i]);
		good &= tv_merge_prev(m, &ev) == TV_OK && same(&ev, &o->ev[i]);
		good &= tv_merge_next(m, &ev) == TV_OK && same(&ev, &o->ev[i]);
		if (!good)
			diag("alternation fails at %zu", i);
	}
	ok(good, "%s: next, prev, next return the same record everywhere",
	    name);
	tv_merge_seek_end(m);
	good = true;
	for (i = o->n; i-- > 0 && good;) {
		good &= tv_merge_prev(m, &ev) == TV_OK && same(&ev, &o->ev[i]);
		good &= tv_merge_next(m, &ev) == TV_OK && same(&ev, &o->ev[i]);
		good &= tv_merge_prev(m, &ev) == TV_OK && same(&ev, &o->ev[i]);
	}
	ok(good, "%s: prev, next, prev from the end likewise", name);
}

/* The oracle index of the first record with ts >= @ts. */
static size_t
first_at(const struct oracle *o, int64_t ts)
{
	size_t i = 0;

	while (i < o->n && o->ev[i].rec.ts < ts)
		i++;
	return i;
}

/* seek_time to before, at, between and after every timestamp. */
static void
check_seek_time(struct tv_merge *m, const struct oracle *o,
    const char *name)
{
	struct tv_event ev;
	bool good = true;
	int64_t lo = o->n ? o->ev[0].rec.ts - 3 : 0;
	int64_t hi = o->n ? o->ev[o->n - 1].rec.ts + 3 : 0;
	int64_t ts;

	for (ts = lo; ts <= hi && good; ts++) {
		size_t i = first_at(o, ts);
		enum tv_status st;

		tv_merge_seek_time(m, ts);
		st = tv_merge_next(m, &ev);
		good &= i < o->n ? st == TV_OK && same(&ev, &o->ev[i]) :
		    st == TV_END;
		tv_merge_seek_time(m, ts);
		st = tv_merge_prev(m, &ev);
		good &= i > 0 ? st == TV_OK && same(&ev, &o->ev[i - 1]) :
		    st == TV_END;
		if (!good)
			diag("seek_time(%lld) wrong (oracle %zu)",
			    (long long)ts, i);
	}
	ok(good, "%s: seek_time before/at/between/after every timestamp "
	    "(%lld..%lld)", name, (long long)lo, (long long)hi);
	tv_merge_seek_time(m, INT64_MIN);
	ok(tv_merge_next(m, &ev) == TV_OK && same(&ev, &o->ev[0]),
	    "%s: seek_time(INT64_MIN) is the beginning", name);
	tv_merge_seek_time(m, INT64_MAX);
	ok(tv_merge_next(m, &ev) == TV_END, "%s: seek_time(INT64_MAX) is "
	    "the end", name);
}

/* seek_event to every record: next returns it, prev the one before. */
static void
check_seek_event(struct tv_merge *m, const struct oracle *o,
    const char *name)
{
	struct tv_event ev;
	bool good = true;
	size_t i;

	for (i = 0; i < o->n && good; i++) {
		tv_merge_seek_event(m, &o->ev[i]);
		good &= tv_merge_next(m, &ev) == TV_OK && same(&ev, &o->ev[i]);
		if (i + 1 < o->n)
			good &= tv_merge_next(m, &ev) == TV_OK &&
			    same(&ev, &o->ev[i + 1]);
		tv_merge_seek_event(m, &o->ev[i]);
		if (i > 0)
			good &= tv_merge_prev(m, &ev) == TV_OK &&
			    same(&ev, &o->ev[i - 1]);
		else
			good &= tv_merge_prev(m, &ev) == TV_END;
		if (!good)
			diag("seek_event(%zu) wrong", i);
	}
	ok(good, "%s: seek_event to each of %zu records", name, o->n);
}

/* Random mixed next/prev (and some seeks) against the oracle position. */
static void
check_random_walk(struct tv_merge *m, const struct oracle *o,
    const char *name, int steps)
{
	struct tv_event ev;
	size_t pos = 0;		/* records before the position */
	bool good = true;
	int i;

	tv_merge_seek_begin(m);
	for (i = 0; i < steps && good; i++) {
		uint64_t r = rng() % 100;
		enum tv_status st;

		if (r < 2 && o->n) {
			pos = (size_t)(rng() % o->n);
			tv_merge_seek_event(m, &o->ev[pos]);
		} else if (r < 4) {
			int64_t ts = o->n ? o->ev[rng() % o->n].rec.ts +
			    (int64_t)(rng() % 3) - 1 : 0;

			pos = first_at(o, ts);
			tv_merge_seek_time(m, ts);
		} else if (r < 52) {
			st = tv_merge_next(m, &ev);
			if (pos == o->n) {
				good = st == TV_END;
			} else {
				good = st == TV_OK && same(&ev, &o->ev[pos]);
				pos++;
			}
		} else {
			st = tv_merge_prev(m, &ev);
			if (pos == 0) {
				good = st == TV_END;
			} else {
				pos--;
				good = st == TV_OK && same(&ev, &o->ev[pos]);
			}
		}
		if (!good)
			diag("random walk fails at step %d (pos %zu)", i, pos);
	}
	ok(good, "%s: random walk of %d mixed steps", name, steps);
}

/* Free the set and every trace in it. */
static void
free_set(struct tv_trace_set *set)
{
	tv_trace_set_close(set);
}

/* Everything on one set. */
static void
check_set(struct tv_trace_set *set, const char *name, int steps)
{
	struct oracle o;
	struct tv_merge *m = tv_merge_create(set);

	oracle_build(set, &o);
	check_walks(m, &o, name);
	check_alternation(m, &o, name);
	check_seek_time(m, &o, name);
	check_seek_event(m, &o, name);
	check_random_walk(m, &o, name, steps);
	tv_merge_destroy(m);
	free(o.ev);
}

/* The hand-made set, plus error reporting and event counts. */
static void
test_small(void)
{
	struct tv_trace_set *set = make_small();
	struct tv_merge *m = tv_merge_create(set);
	struct tv_event ev;
	uint64_t n = 0;

	is_int(tv_merge_error(m)->status, TV_OK, "small: no error yet");
	while (tv_merge_next(m, &ev) == TV_OK)
		n++;
	is_int((int64_t)n, 21, "small: 21 records, including the readable "
	    "ones of the corrupt packet");
	is_int(tv_merge_error(m)->status, TV_CORRUPT,
	    "small: the decode error is reported");
	is_str(tv_merge_error(m)->path, "s4", "small: error has its position");
	is_int((int64_t)set->streams[0]->packets[1].event_count, 0,
	    "small: empty packet counted");
	is_int((int64_t)set->streams[4]->packets[0].event_count, 4,
	    "small: event_count filled on decode");
	ok(set->streams[4]->packets[1].flags & TV_PACKET_CORRUPT,
	    "small: corrupt packet flagged");
	tv_merge_destroy(m);
	check_set(set, "small", 3000);
	free_set(set);
}

/* The cache: hits do not decode, the budget evicts, pins hold. */
static void
test_cache(void)
{
	struct tv_trace_set *set = make_random(2, 30);
	struct tv_stream *s = set->streams[0];
	struct tv_packet_cache *c = tv_packet_cache_create(1);
	const struct tv_packet_events *pe, *pinned;
	unsigned long before;
	struct tv_event_rec first;
	uint64_t k;
	bool good = true;

	pe = tv_packet_cache_get(c, s, 3);
	before = ndecodes;
	ok(tv_packet_cache_get(c, s, 3) == pe && ndecodes == before,
	    "cache: a hit does not decode");
	pinned = tv_packet_cache_get(c, s, 4);
	tv_packet_cache_pin(c, pinned);
	first = pinned->count ? pinned->recs[0] : (struct tv_event_rec){ 0 };
	for (k = 0; k < s->npackets; k++)
		tv_packet_cache_get(c, set->streams[1], k);
	before = ndecodes;
	tv_packet_cache_get(c, s, 3);
	ok(ndecodes == before + 1, "cache: over budget, old entries evicted");
	before = ndecodes;
	ok(tv_packet_cache_get(c, s, 4) == pinned && ndecodes == before,
	    "cache: pinned entry stays");
	ok(!pinned->count || memcmp(&pinned->recs[0], &first,
	    sizeof(first)) == 0, "cache: pinned records intact");
	tv_packet_cache_unpin(c, pinned);
	for (k = 0; k < s->npackets; k++) {
		pe = tv_packet_cache_get(c, s, k);
		good &= pe->count == s->packets[k].event_count;
	}
	ok(good, "cache: event_count matches the records");
	pe = tv_packet_cache_get(c, s, s->npackets);
	ok(pe->count == 0 && pe->status == TV_NOT_FOUND,
	    "cache: out-of-range packet is empty, TV_NOT_FOUND");
	tv_packet_cache_destroy(c);

	c = tv_packet_cache_create(0);
	for (k = 0; k < s->npackets; k++)
		tv_packet_cache_get(c, s, k);
	before = ndecodes;
	for (k = 0; k < s->npackets; k++)
		tv_packet_cache_get(c, s, k);
	ok(ndecodes == before, "cache: default budget keeps a small trace");
	tv_packet_cache_destroy(c);
	free_set(set);
}

/* Empty sets: no streams, or streams without records. */
static void
test_empty(void)
{
	struct tv_trace *t = tv_trace_create(&fake_ops, "/fake/empty");
	struct tv_trace_set *set;
	struct tv_merge *m;
	struct tv_event ev;

	add_stream(t, "nothing");
	add_packet(t->streams[0], NULL, 0, false, false);
	set = make_set(t);
	m = tv_merge_create(set);
	is_int(tv_merge_next(m, &ev), TV_END, "empty: next is TV_END");
	is_int(tv_merge_prev(m, &ev), TV_END, "empty: prev is TV_END");
	tv_merge_seek_time(m, 5);
	is_int(tv_merge_next(m, &ev), TV_END, "empty: after seek too");
	tv_merge_destroy(m);
	free_set(set);
}

/* Opening sets: missing paths, non-traces, partial failures. */
static void
test_trace_set(void)
{
	const char *shared = getenv("TVIEW_SHARED");
	char good[4096], notrace[] = "/tmp/tview-notrace-XXXXXX", buf[1200];
	const char *paths[3];
	struct tv_trace_set *set = NULL;
	struct tv_error e;
	enum tv_status st;
	int fd = mkstemp(notrace);

	paths[0] = "/nonexistent/trace";
	st = tv_trace_set_open(&set, paths, 1, tv_format_registry(), &e);
	ok(st == TV_IO && set == NULL, "set: missing path is TV_IO, no set");
	is_str(tv_error_format(&e, buf, sizeof(buf)),
	    "/nonexistent/trace: No such file or directory",
	    "set: the message names the path");
	if (fd >= 0) {
		if (write(fd, "hello\n", 6) != 6)
			diag("short write");
		close(fd);
		paths[0] = notrace;
		st = tv_trace_set_open(&set, paths, 1,
		    tv_format_registry(), &e);
		ok(st == TV_FORMAT && set == NULL,
		    "set: a text file is TV_FORMAT");
		snprintf(good, sizeof(good),
		    "%s: not a trace in a known format", notrace);
		is_str(tv_error_format(&e, buf, sizeof(buf)), good,
		    "set: 'path: not a trace in a known format'");
	}
	st = tv_trace_set_open(&set, paths, 0, tv_format_registry(), &e);
	ok(st != TV_OK && set == NULL, "set: no path is an error");
	if (!shared || !*shared) {
		tv_skip("set: partial failure needs TVIEW_SHARED");
		unlink(notrace);
		return;
	}
	snprintf(good, sizeof(good), "%s/traces/ctf/bt-multi-domains",
	    shared);
	paths[0] = "/nonexistent/trace";
	paths[1] = good;
	paths[2] = notrace;
	st = tv_trace_set_open(&set, paths, 3, tv_format_registry(), &e);
	ok(st == TV_IO && set && set->ntraces >= 1,
	    "set: partial failure keeps the readable trace, first error "
	    "returned");
	if (set) {
		uint32_t i;
		bool ords = true;

		for (i = 0; i < set->nstreams; i++)
			ords &= set->streams[i]->ordinal == i;
		ok(ords && set->nstreams > 1, "set: %u streams numbered in "
		    "order", set->nstreams);
		ok(set->ts_begin != TV_TIME_NONE &&
		    set->ts_begin <= set->ts_end, "set: time span known");
	}
	tv_trace_set_close(set);
	unlink(notrace);
}

/*
 * tv_trace_set_open reaches drivers only through the registry it is
 * given: a test's own driver opens its files, the built-in ones do not.
 */
static void
test_registry(void)
{
	static const struct tv_format_ops *const only_fake[] = {
		&fake_file_ops, NULL,
	};
	char path[] = "/tmp/tview-fake-XXXXXX", want[600], got[1200];
	const char *paths[1] = { path };
	struct tv_trace_set *set = NULL;
	struct tv_merge *m;
	struct tv_event ev;
	struct tv_error e;
	int64_t prev = INT64_MIN;
	int fd = mkstemp(path), n = 0;
	bool sorted = true;

	if (fd < 0 || write(fd, "FAKE", 4) != 4) {
		tv_skip("registry: cannot write %s", path);
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	ok(tv_trace_set_open(&set, paths, 1, only_fake, &e) == TV_OK &&
	    set != NULL && set->ntraces == 1 &&
	    set->traces[0]->ops == &fake_file_ops,
	    "registry: a fake driver given to tv_trace_set_open opens its file");
	if (set != NULL) {
		m = tv_merge_create(set);
		while (tv_merge_next(m, &ev) == TV_OK) {
			sorted &= ev.rec.ts > prev;
			prev = ev.rec.ts;
			n++;
		}
		ok(n == 5 && sorted, "registry: its 5 records merged in order "
		    "(%d)", n);
		tv_merge_destroy(m);
		tv_trace_set_close(set);
	}
	set = NULL;
	ok(tv_trace_set_open(&set, paths, 1, tv_format_registry(), &e) ==
	    TV_FORMAT && set == NULL,
	    "registry: the built-in drivers do not read the fake file");
	snprintf(want, sizeof(want), "%s: not a trace in a known format",
	    path);
	is_str(tv_error_format(&e, got, sizeof(got)), want,
	    "registry: 'path: not a trace in a known format'");
	unlink(path);
}

/*
 * The merger over real CTF traces from $TVIEW_SHARED (the shared sample
 * traces, absent on most machines: then skipped): backward is the reverse
 * of forward, seeks land where the forward walk says.
 */
static void
test_real(const char *name)
{
	const char *shared = getenv("TVIEW_SHARED");
	struct tv_trace_set *set = NULL;
	struct tv_error e;
	struct tv_merge *m;
	struct oracle o = { NULL, 0 };
	struct tv_event ev;
	char path[4096];
	size_t i, cap = 0;
	bool good = true, sorted = true;
	const char *paths[1] = { path };

	if (!shared || !*shared) {
		tv_skip("real %s: TVIEW_SHARED not set", name);
		return;
	}
	snprintf(path, sizeof(path), "%s/traces/ctf/%s", shared, name);
	if (access(path, R_OK) != 0) {
		tv_skip("real %s: %s absent", name, path);
		return;
	}
	if (tv_trace_set_open(&set, paths, 1,
	    tv_format_registry(), &e) != TV_OK || !set) {
		ok(false, "real %s: opens (%s)", name, e.msg);
		tv_trace_set_close(set);
		return;
	}
	m = tv_merge_create(set);
	while (tv_merge_next(m, &ev) == TV_OK) {
		if (o.n == cap) {
			cap = cap ? cap * 2 : 1024;
			o.ev = realloc(o.ev, cap * sizeof(*o.ev));
		}
		if (o.n && tv_event_cmp(&o.ev[o.n - 1], &ev) >= 0)
			sorted = false;
		o.ev[o.n++] = ev;
	}
	ok(sorted && o.n > 0, "real %s: forward walk strictly ordered "
	    "(%zu records, %u streams)", name, o.n, set->nstreams);
	tv_merge_seek_end(m);
	for (i = o.n; i-- > 0 && good;)
		good = tv_merge_prev(m, &ev) == TV_OK && same(&ev, &o.ev[i]);
	ok(good, "real %s: backward walk is the exact reverse", name);
	good = true;
	for (i = 0; i < 200 && good && o.n; i++) {
		size_t k = (size_t)(rng() % o.n);
		size_t want = first_at(&o, o.ev[k].rec.ts);

		tv_merge_seek_time(m, o.ev[k].rec.ts);
		good = tv_merge_next(m, &ev) == TV_OK &&
		    same(&ev, &o.ev[want]);
		if (!good)
			diag("seek_time to record %zu (ts %lld) gave stream %u "
			    "pkt %llu idx %llu ts %lld, want %zu", k,
			    (long long)o.ev[k].rec.ts, ev.stream->ordinal,
			    (unsigned long long)ev.packet,
			    (unsigned long long)ev.index, (long long)ev.rec.ts,
			    want);
		tv_merge_seek_event(m, &o.ev[k]);
		good &= tv_merge_prev(m, &ev) == (k ? TV_OK : TV_END) &&
		    (!k || same(&ev, &o.ev[k - 1]));
		/* after prev() returned k - 1, next() returns it again */
		if (k)
			good &= tv_merge_next(m, &ev) == TV_OK &&
			    same(&ev, &o.ev[k - 1]);
		good &= tv_merge_next(m, &ev) == TV_OK && same(&ev, &o.ev[k]);
		if (!good)
			diag("seek_event to record %zu wrong", k);
	}
	ok(good, "real %s: 200 random seeks by time and by event", name);
	check_random_walk(m, &o, name, 20000);
	tv_merge_destroy(m);
	free(o.ev);
	tv_trace_set_close(set);
}

/* Run every merger test; the exit status says whether all passed. */
int
main(void)
{
	struct tv_trace_set *set;

	tv_plan(0);
	test_small();
	test_cache();
	test_empty();
	set = make_random(4, 40);
	check_set(set, "random-4x40", 20000);
	free_set(set);
	set = make_random(1, 60);
	check_set(set, "random-1x60", 5000);
	free_set(set);
	test_trace_set();
	test_registry();
	test_real("tc-many-threads");
	test_real("bt-multi-domains");
	test_real("bt-trace-with-index");
	return tv_done();
}
