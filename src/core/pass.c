/*
 * The background match pass (tview/pass.h): per-packet bitmaps filled by
 * a pool of workers taking packets in timeline order from a shared
 * counter, or, when the predicate needs the process state, by one thread
 * applying and judging the merged timeline in order while a pool reads
 * its records (tv_state_walk).  A bitmap is published with a
 * release store once complete; readers load it with acquire.
 */
#include "tview/pass.h"
#include "tview/packet-cache.h"
#include "tview/merge.h"
#include "tview/owner.h"
#include "tview/state.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Record-array budget of one worker's packet cache. */
#define PASS_CACHE_BYTES	(4u << 20)
/* Most workers, whatever the core count. */
#define PASS_MAX_THREADS	16
/* Records between two looks at the cancel flag (sequential mode). */
#define PASS_CANCEL_EVERY	4096

/* One unit of work: a packet, in timeline order. */
struct unit {
	uint32_t	 stream;	/* ordinal */
	uint64_t	 pkt;
};

struct tv_pass {
	struct tv_trace_set	*set;
	tv_pass_pred		 pred;
	void			*arg;
	bool			 needs_state;
	unsigned		 want_threads;
	/* the streams the arrays below were made for, and their sizes */
	struct tv_stream	**streams;	/* [ordinal] */
	uint64_t		*npk;		/* [ordinal]: packets */
	uint32_t		 nstreams;
	uint64_t		 ntotal;	/* packets in all */
	uint32_t		*nclasses;	/* [trace]: classes when run */
	uint32_t		 ntraces;
	uint64_t		***bits;	/* [ordinal][packet] */
	uint64_t		**nkept;	/* [ordinal][packet], set
						   before the bits publish */
	uint64_t		**nrecs;	/* [ordinal][packet]: records
						   the bitmap covers, likewise */
	struct unit		*units;
	uint64_t		 nunits;
	uint64_t		 next;		/* atomic: next unit to take */
	uint64_t		 ndone;		/* atomic */
	uint64_t		 kept;		/* atomic */
	uint64_t		 seen;		/* atomic */
	int			 cancel;	/* atomic */
	pthread_t		 threads[PASS_MAX_THREADS];
	unsigned		 nthreads;
};

/* Timeline order of units: packet start time, then stream ordinal. */
static int
unit_cmp(const void *a, const void *b, void *arg)
{
	const struct unit *x = a, *y = b;
	struct tv_trace_set *set = arg;
	int64_t tx = set->streams[x->stream]->packets[x->pkt].ts_begin;
	int64_t ty = set->streams[y->stream]->packets[y->pkt].ts_begin;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->pkt < y->pkt ? -1 : x->pkt > y->pkt;
}

/*
 * Publish @bits, covering @nrecs records with @kept events, as packet
 * @pkt's bitmap of stream @s.  @nrecs is what this decoding of the packet
 * gave: another decoding (the browser's) may give more records if the
 * file changed in between, and those have no bit.
 */
static void
publish(struct tv_pass *p, uint32_t s, uint64_t pkt, uint64_t *bits,
    uint64_t kept, uint64_t nrecs)
{
	p->nkept[s][pkt] = kept;
	p->nrecs[s][pkt] = nrecs;
	__atomic_store_n(&p->bits[s][pkt], bits, __ATOMIC_RELEASE);
	__atomic_add_fetch(&p->ndone, 1, __ATOMIC_ACQ_REL);
}

/* Whether to keep record @ev; counts it. */
static bool
judge(struct tv_pass *p, const struct tv_event *ev,
    const struct tv_event_owner *o, struct tv_arena *arena,
    uint64_t *kept, uint64_t *seen)
{
	bool keep;

	if (ev->rec.kind != TV_REC_EVENT)
		return true;
	tv_arena_reset(arena);
	keep = p->pred(p->arg, ev, o, arena);
	(*seen)++;
	*kept += keep;
	return keep;
}

/* A worker of the pool: packets from the shared counter until none. */
static void *
pool_worker(void *arg)
{
	struct tv_pass *p = arg;
	struct tv_packet_cache *pc = tv_packet_cache_create(PASS_CACHE_BYTES);
	struct tv_map_release rel = TV_MAP_RELEASE_INIT;
	struct tv_arena arena;
	struct tv_event ev;
	uint64_t u, r, kept, seen;

	tv_arena_init(&arena);
	while (!__atomic_load_n(&p->cancel, __ATOMIC_ACQUIRE) &&
	    (u = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED)) <
	    p->nunits) {
		struct tv_stream *s = p->set->streams[p->units[u].stream];
		const struct tv_packet_events *pe;
		uint64_t *bits;

		ev.stream = s;
		ev.packet = p->units[u].pkt;
		/* never NULL: an unreadable packet has no records */
		pe = tv_packet_cache_get(pc, s, ev.packet);
		bits = tv_xcalloc(pe->count / 64 + 1, sizeof(*bits));
		kept = seen = 0;
		for (r = 0; r < pe->count; r++) {
			ev.index = r;
			ev.rec = pe->recs[r];
			if (judge(p, &ev, NULL, &arena, &kept, &seen))
				bits[r / 64] |= (uint64_t)1 << (r % 64);
		}
		__atomic_add_fetch(&p->kept, kept, __ATOMIC_RELAXED);
		__atomic_add_fetch(&p->seen, seen, __ATOMIC_RELAXED);
		publish(p, p->units[u].stream, ev.packet, bits, kept,
		    pe->count);
		tv_packet_release(&rel, s, ev.packet);
	}
	tv_map_release_flush(&rel);
	tv_arena_fini(&arena);
	tv_packet_cache_destroy(pc);
	return NULL;
}

/* The bitmap being filled for one stream's current packet. */
struct open_bits {
	uint64_t	 pkt;
	uint64_t	*bits;
	uint64_t	 cap;		/* words */
	uint64_t	 kept;		/* events kept */
	uint64_t	 n;		/* records seen: highest index + 1 */
	bool		 open;
};

/* Set or clear bit @r of @ob, growing it. */
static void
open_set(struct open_bits *ob, uint64_t r, bool keep)
{
	if (r / 64 >= ob->cap) {
		uint64_t cap = TV_MAX(ob->cap * 2, r / 64 + 1);

		ob->bits = tv_xrealloc(ob->bits, cap * sizeof(*ob->bits));
		memset(ob->bits + ob->cap, 0,
		    (cap - ob->cap) * sizeof(*ob->bits));
		ob->cap = cap;
	}
	if (keep)
		ob->bits[r / 64] |= (uint64_t)1 << (r % 64);
	ob->n = TV_MAX(ob->n, r + 1);
}

/* Publish the packet @ob holds, if any. */
static void
open_close(struct tv_pass *p, uint32_t s, struct open_bits *ob)
{
	if (!ob->open)
		return;
	if (ob->bits == NULL)
		ob->bits = tv_xcalloc(1, sizeof(*ob->bits));
	publish(p, s, ob->pkt, ob->bits, ob->kept, TV_MIN(ob->n,
	    ob->cap * 64));
	ob->bits = NULL;
	ob->cap = 0;
	ob->kept = 0;
	ob->n = 0;
	ob->open = false;
}

/*
 * The thread of a state pass: the merged timeline in order, its records
 * read on every core (tv_state_walk) and applied and judged here.
 */
static void *
state_worker(void *arg)
{
	struct tv_pass *p = arg;
	struct tv_trace_set *set = p->set;
	struct open_bits *ob = tv_xcalloc(TV_MAX(set->nstreams, 1u),
	    sizeof(*ob));
	struct tv_state *st = tv_state_create(set);
	struct tv_state_walk *w;
	struct tv_event_owner o;
	struct tv_pwalk_item it;
	struct tv_arena arena;
	uint64_t n = 0, kept = 0, seen = 0;
	uint32_t i;
	bool keep;

	tv_arena_init(&arena);
	/*
	 * Pages given back but not advised sequential: the browser reads
	 * the same mappings at random while this runs.
	 */
	w = tv_state_walk_start(set, st, INT64_MIN, INT64_MAX, NULL, NULL,
	    NULL, 0, TV_PAGES_RELEASE);
	while (tv_state_walk_next(w, &it) == TV_OK) {
		struct open_bits *b = &ob[it.ev.stream->ordinal];

		if (++n % PASS_CANCEL_EVERY == 0) {
			__atomic_add_fetch(&p->kept, kept, __ATOMIC_RELAXED);
			__atomic_add_fetch(&p->seen, seen, __ATOMIC_RELAXED);
			kept = seen = 0;
			if (__atomic_load_n(&p->cancel, __ATOMIC_ACQUIRE))
				break;
		}
		if (b->open && b->pkt != it.ev.packet)
			open_close(p, it.ev.stream->ordinal, b);
		b->open = true;
		b->pkt = it.ev.packet;
		tv_state_walk_apply(w, &o);
		keep = judge(p, &it.ev, &o, &arena, &kept, &seen);
		open_set(b, it.ev.index, keep);
		b->kept += keep && it.ev.rec.kind == TV_REC_EVENT;
	}
	tv_state_walk_destroy(w);
	__atomic_add_fetch(&p->kept, kept, __ATOMIC_RELAXED);
	__atomic_add_fetch(&p->seen, seen, __ATOMIC_RELAXED);
	for (i = 0; i < set->nstreams; i++) {
		if (!__atomic_load_n(&p->cancel, __ATOMIC_ACQUIRE))
			open_close(p, i, &ob[i]);
		free(ob[i].bits);
	}
	/* packets without records: done, nothing to keep */
	for (i = 0; i < set->nstreams &&
	    !__atomic_load_n(&p->cancel, __ATOMIC_ACQUIRE); i++) {
		uint64_t k;

		for (k = 0; k < set->streams[i]->npackets; k++)
			if (__atomic_load_n(&p->bits[i][k],
			    __ATOMIC_RELAXED) == NULL)
				publish(p, i, k, tv_xcalloc(1, sizeof(uint64_t)),
				    0, 0);
	}
	free(ob);
	tv_arena_fini(&arena);
	tv_state_destroy(st);
	return NULL;
}

/* @a grown to @n elements of @size, those from @from on zeroed. */
static void *
grow_zeroed(void *a, size_t from, size_t n, size_t size)
{
	a = tv_xreallocarray(a, n, size);
	memset((char *)a + from * size, 0, (n - from) * size);
	return a;
}

/*
 * Size the per-packet arrays to the streams and packets the set has now
 * (new entries NULL or zero: not done), and note them.  Streams and
 * packets are only ever appended: what was there stays.
 */
static void
pass_size(struct tv_pass *p)
{
	struct tv_trace_set *set = p->set;
	uint32_t i, n = TV_MAX(set->nstreams, 1u);
	uint64_t np, from;

	p->bits = grow_zeroed(p->bits, p->nstreams, n, sizeof(*p->bits));
	p->nkept = grow_zeroed(p->nkept, p->nstreams, n, sizeof(*p->nkept));
	p->nrecs = grow_zeroed(p->nrecs, p->nstreams, n, sizeof(*p->nrecs));
	p->npk = grow_zeroed(p->npk, p->nstreams, n, sizeof(*p->npk));
	p->streams = tv_xreallocarray(p->streams, n, sizeof(*p->streams));
	p->ntotal = 0;
	for (i = 0; i < set->nstreams; i++) {
		np = set->streams[i]->npackets;
		from = TV_MIN(p->npk[i], np);
		p->bits[i] = grow_zeroed(p->bits[i], from, np + 1,
		    sizeof(**p->bits));
		p->nkept[i] = grow_zeroed(p->nkept[i], from, np + 1,
		    sizeof(**p->nkept));
		p->nrecs[i] = grow_zeroed(p->nrecs[i], from, np + 1,
		    sizeof(**p->nrecs));
		p->npk[i] = np;
		p->streams[i] = set->streams[i];
		p->ntotal += np;
	}
	p->nstreams = set->nstreams;
}

/* Forget every packet done: the pass starts over. */
static void
pass_forget(struct tv_pass *p)
{
	uint32_t i;
	uint64_t k;

	for (i = 0; i < p->nstreams; i++)
		for (k = 0; k < p->npk[i]; k++) {
			free(p->bits[i][k]);
			p->bits[i][k] = NULL;
		}
	p->ndone = 0;
	p->kept = 0;
	p->seen = 0;
}

/*
 * Start the workers on the packets not done: the pool on those, in
 * timeline order, or the one walker of a state pass on the whole trace.
 */
static void
pass_run(struct tv_pass *p)
{
	struct tv_trace_set *set = p->set;
	uint64_t n = 0, k;
	uint32_t i;

	p->next = 0;
	p->nunits = 0;
	tv_trace_set_note_classes(p->set, &p->nclasses, &p->ntraces);
	if (p->needs_state) {
		if (pthread_create(&p->threads[0], NULL, state_worker, p) == 0)
			p->nthreads = 1;
		else
			state_worker(p);
		return;
	}
	free(p->units);
	p->units = tv_xcalloc(TV_MAX(p->ntotal, 1u), sizeof(*p->units));
	for (i = 0; i < set->nstreams; i++)
		for (k = 0; k < set->streams[i]->npackets; k++) {
			if (p->bits[i][k] != NULL)
				continue;
			p->units[n].stream = i;
			p->units[n++].pkt = k;
		}
	qsort_r(p->units, n, sizeof(*p->units), unit_cmp, set);
	p->nunits = n;
	while (p->nthreads < p->want_threads &&
	    pthread_create(&p->threads[p->nthreads], NULL, pool_worker,
	    p) == 0)
		p->nthreads++;
	if (p->nthreads == 0)
		pool_worker(p);
}

/* See pass.h. */
struct tv_pass *
tv_pass_start(struct tv_trace_set *set, bool needs_state, tv_pass_pred pred,
    void *arg, unsigned nthreads)
{
	struct tv_pass *p = tv_xcalloc(1, sizeof(*p));

	p->set = set;
	p->pred = pred;
	p->arg = arg;
	p->needs_state = needs_state;
	if (nthreads == 0)
		nthreads = tv_online_cores();
	p->want_threads = TV_MAX(TV_MIN(nthreads, PASS_MAX_THREADS), 1u);
	pass_size(p);
	pass_run(p);
	return p;
}

/* See pass.h. */
void
tv_pass_stop(struct tv_pass *p)
{
	uint32_t i;

	if (p == NULL)
		return;
	__atomic_store_n(&p->cancel, 1, __ATOMIC_RELEASE);
	for (i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	p->nthreads = 0;
	__atomic_store_n(&p->cancel, 0, __ATOMIC_RELEASE);
}

/* See pass.h. */
void
tv_pass_extend(struct tv_pass *p)
{
	tv_pass_stop(p);
	/*
	 * From the start: a state pass (the owners of old events change
	 * when records before them arrive late), streams renumbered (a
	 * bitmap is per ordinal), and metadata that grew (a packet done
	 * before may hold events of the new classes past where its decoding
	 * stopped, which the driver does not always say; rare: a provider
	 * registering).  Otherwise only the packets new since.  (Packets
	 * the driver forgets the counts of after a metadata growth decode
	 * as before when no class was added.)
	 */
	if (tv_trace_set_renumbered(p->set, p->streams, p->nstreams) ||
	    p->needs_state ||
	    tv_trace_set_classes_grew(p->set, p->nclasses, p->ntraces))
		pass_forget(p);
	pass_size(p);
	pass_run(p);
}

/* See pass.h. */
void
tv_pass_destroy(struct tv_pass *p)
{
	uint32_t i;
	uint64_t k;

	if (p == NULL)
		return;
	tv_pass_stop(p);
	for (i = 0; i < p->nstreams; i++) {
		for (k = 0; k < p->npk[i]; k++)
			free(p->bits[i][k]);
		free(p->bits[i]);
		free(p->nkept[i]);
		free(p->nrecs[i]);
	}
	free(p->bits);
	free(p->nkept);
	free(p->nrecs);
	free(p->streams);
	free(p->npk);
	free(p->nclasses);
	free(p->units);
	free(p);
}

/* The bitmap of packet @pkt of @s, or NULL while not done. */
static const uint64_t *
pass_bits(const struct tv_pass *p, const struct tv_stream *s, uint64_t pkt)
{
	if (p == NULL || s->ordinal >= p->nstreams ||
	    p->streams[s->ordinal] != s || pkt >= p->npk[s->ordinal])
		return NULL;
	return __atomic_load_n(&p->bits[s->ordinal][pkt], __ATOMIC_ACQUIRE);
}

/* See pass.h. */
bool
tv_pass_keeps(const struct tv_pass *p, const struct tv_event *ev,
    bool *keep)
{
	const uint64_t *bits = pass_bits(p, ev->stream, ev->packet);

	if (bits == NULL ||
	    ev->index >= p->nrecs[ev->stream->ordinal][ev->packet])
		return false;
	*keep = bits[ev->index / 64] >> (ev->index % 64) & 1;
	return true;
}

/* See pass.h. */
bool
tv_pass_done(const struct tv_pass *p, const struct tv_stream *s,
    uint64_t pkt)
{
	return pass_bits(p, s, pkt) != NULL;
}

/* See pass.h. */
bool
tv_pass_kept(const struct tv_pass *p, const struct tv_stream *s,
    uint64_t pkt, uint64_t *kept)
{
	if (pass_bits(p, s, pkt) == NULL)
		return false;
	*kept = p->nkept[s->ordinal][pkt];
	return true;
}

/* See pass.h. */
double
tv_pass_progress(const struct tv_pass *p, uint64_t *kept, uint64_t *seen,
    bool *done)
{
	uint64_t d = __atomic_load_n(&p->ndone, __ATOMIC_ACQUIRE);

	*kept = __atomic_load_n(&p->kept, __ATOMIC_RELAXED);
	*seen = __atomic_load_n(&p->seen, __ATOMIC_RELAXED);
	*done = d >= p->ntotal;
	return p->ntotal ? (double)d / (double)p->ntotal : 1.0;
}
