/*
 * The ordered parallel walk (tview/pwalk.h).  Packets are units of work
 * sorted by their begin time, as the reader will need them.  A unit is
 * FREE, BUSY (a worker or the reader is on it) or DONE; its result (the
 * decoded records, the bytes the work function made, a flag per record)
 * is published under the lock and freed by the reader once it has read
 * past the packet.  The reader merges the done packets exactly as the
 * merger does, on (ts, stream ordinal, packet, record), a run at a time:
 * the top stream's records up to the next stream's first, found by one
 * comparison each, with no heap work and no copy (a merge step per
 * record was two fifths of a header count's time).
 */
#include "tview/pwalk.h"
#include "tview/mapfile.h"
#include "tview/merge.h"
#include "tview/packet-cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Most workers, whatever the core count. */
#define PWALK_MAX_THREADS	16
/* Done packets each worker may keep ahead of the reader. */
#define PWALK_AHEAD		4

enum { UNIT_FREE, UNIT_BUSY, UNIT_DONE };

/* What the work made of one packet. */
struct result {
	struct tv_packet_events	 pe;
	struct tv_strbuf	 text;
	size_t			*ends;		/* end of record r's bytes */
	uint8_t			*flags;
	uint64_t		 cap;		/* of ends and flags */
	struct result		*next_free;
	uint64_t		 bad;		/* first record whose work failed,
						   pe.count if none */
	enum tv_status		 bad_status;
	struct tv_error		 bad_err;
};

struct unit {
	uint32_t	 stream;	/* index in set->streams */
	int		 state;		/* atomic; DONE under the lock */
	uint64_t	 pkt;
	struct result	*res;
};

/*
 * The reader's place in one stream.  idx and pkt are not side by side:
 * the compiler copied them out with one 16-byte load, which the store
 * to idx just before cannot forward to (a stall measured at 40% of the
 * reader's time).
 */
struct cursor {
	struct tv_stream *s;
	uint32_t	 stream;
	uint32_t	 ord;
	uint64_t	 idx;
	int64_t		 ts;		/* of record idx */
	uint64_t	 pkt;
	struct result	*res;		/* of packet pkt */
	uint64_t	 unit;
};

/*
 * The work state of one thread: its arena.  Cache lines of its own
 * (PWALK_LINE, in a block aligned to it): every allocation writes the
 * arena, and two workers' arenas side by side made each core steal the
 * other's line (2.5 times the CPU time of one thread, measured).
 */
#define PWALK_LINE	64
struct worker {
	struct tv_pwalk	*w;
	struct tv_arena	 arena;
	struct tv_map_release rel;	/* packets it is done with */
} __attribute__((aligned(PWALK_LINE)));

struct tv_pwalk {
	struct tv_trace_set	*set;
	tv_pwalk_fn		 fn;
	void			*arg;
	enum tv_walk_pages	 pages;

	struct unit		*units;
	uint64_t		 nunits;
	uint64_t		 next;		/* atomic: next unit to try */
	uint64_t		**unit_of;	/* [stream][pkt - first[stream]] */
	uint64_t		*first;		/* [stream]: first packet walked */
	uint64_t		*first_idx;	/* [stream]: its first record */
	uint64_t		*stop;		/* [stream]: past the last one */
	int64_t			 end;		/* no work for records after */

	pthread_mutex_t		 lock;
	pthread_cond_t		 done;		/* a unit became DONE */
	pthread_cond_t		 room;		/* a result was freed */
	uint64_t		 held;		/* DONE and not yet freed */
	struct result		*free_list;	/* results to reuse */
	uint64_t		 window;
	int			 cancel;	/* under the lock */

	pthread_t		 threads[PWALK_MAX_THREADS];
	struct worker		*workers;	/* [PWALK_MAX_THREADS + 1],
						   the last the reader's */
	unsigned		 nthreads;
	struct worker		*self;		/* the reader's own */

	struct cursor		*cursors;
	struct cursor		**heap;		/* or a sorted array */
	uint32_t		 nheap;
	bool			 sorted;	/* nheap <= PWALK_SORTED_MAX */
	bool			 started;
	struct cursor		*pending;	/* to step on the next call */
	uint64_t		 pending_n;	/* past this many records */
	struct tv_pwalk_run	 run;		/* tv_pwalk_next()'s */
	uint64_t		 run_at;	/* its next record */
	struct tv_error		 err;		/* first decoding error */
};

/* Timeline order of units: packet begin time, then stream ordinal. */
static int
unit_cmp(const void *a, const void *b, void *arg)
{
	const struct unit *x = a, *y = b;
	struct tv_trace_set *set = arg;
	const struct tv_stream *sx = set->streams[x->stream];
	const struct tv_stream *sy = set->streams[y->stream];
	int64_t tx = sx->packets[x->pkt].ts_begin;
	int64_t ty = sy->packets[y->pkt].ts_begin;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	if (sx->ordinal != sy->ordinal)
		return sx->ordinal < sy->ordinal ? -1 : 1;
	return x->pkt < y->pkt ? -1 : x->pkt > y->pkt;
}

/* Decode unit @u and run the work on each of its records; publish it. */
static void
do_unit(struct tv_pwalk *w, struct worker *wk, uint64_t u)
{
	struct unit *un = &w->units[u];
	struct tv_stream *s = w->set->streams[un->stream];
	struct result *res;
	struct tv_error e;
	struct tv_event ev;
	enum tv_status st;
	uint64_t r;

	/*
	 * A result freed by the reader, its arrays kept: a packet's record
	 * array is past malloc's mmap threshold, and mapping and unmapping
	 * it for every packet costs more in page faults than the decoding.
	 */
	pthread_mutex_lock(&w->lock);
	res = w->free_list;
	if (res != NULL)
		w->free_list = res->next_free;
	pthread_mutex_unlock(&w->lock);
	if (res == NULL) {
		res = tv_xcalloc(1, sizeof(*res));
		tv_strbuf_init(&res->text);
	}
	res->pe.count = 0;
	res->pe.status = TV_OK;
	tv_error_clear(&res->pe.err);
	tv_strbuf_reset(&res->text);
	tv_packet_populate(s, un->pkt);
	st = tv_stream_decode_packet(s, un->pkt, &res->pe);
	if (st != TV_OK && res->pe.status == TV_OK) {
		res->pe.status = st;
		if (res->pe.err.status == TV_OK)
			tv_error_set(&res->pe.err, st, NULL, "%s",
			    tv_status_str(st));
	}
	/* the pass may end before the index's counter has counted it */
	tv_packet_note(s, un->pkt, &res->pe);
	res->bad = res->pe.count;
	if (w->fn == NULL)
		goto publish;	/* order only: no bytes, no flags */
	if (res->cap < res->pe.count + 1) {
		res->cap = res->pe.count + 1;
		free(res->ends);
		free(res->flags);
		res->ends = tv_xcalloc(res->cap, sizeof(*res->ends));
		res->flags = tv_xcalloc(res->cap, sizeof(*res->flags));
	} else {
		memset(res->flags, 0, res->pe.count + 1);
	}
	ev.stream = s;
	ev.packet = un->pkt;
	for (r = 0; r < res->pe.count; r++) {
		ev.index = r;
		ev.rec = res->pe.recs[r];
		/* outside the walk: read past, never shown */
		if ((un->pkt == w->first[un->stream] &&
		    r < w->first_idx[un->stream]) ||
		    (ev.rec.ts > w->end && ev.rec.ts != TV_TIME_NONE)) {
			res->ends[r] = res->text.len;
			continue;
		}
		tv_arena_reset(&wk->arena);
		tv_error_clear(&e);
		st = w->fn(w->arg, &ev, &wk->arena, &res->text,
		    &res->flags[r], &e);
		res->ends[r] = res->text.len;
		if (st != TV_OK && res->bad == res->pe.count) {
			res->bad = r;
			res->bad_status = st;
			res->bad_err = e;
		}
	}
publish:
	if (w->pages != TV_PAGES_KEEP)
		tv_packet_release(&wk->rel, s, un->pkt);
	pthread_mutex_lock(&w->lock);
	un->res = res;
	__atomic_store_n(&un->state, UNIT_DONE, __ATOMIC_RELEASE);
	w->held++;
	pthread_cond_broadcast(&w->done);
	pthread_mutex_unlock(&w->lock);
}

/* A worker: the units in order, while the window has room. */
static void *
worker_main(void *arg)
{
	struct worker *wk = arg;
	struct tv_pwalk *w = wk->w;
	uint64_t u;
	int expect;

	for (;;) {
		pthread_mutex_lock(&w->lock);
		while (!w->cancel && w->held >= w->window)
			pthread_cond_wait(&w->room, &w->lock);
		if (w->cancel) {
			pthread_mutex_unlock(&w->lock);
			break;
		}
		pthread_mutex_unlock(&w->lock);
		u = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED);
		if (u >= w->nunits)
			break;
		expect = UNIT_FREE;
		if (__atomic_compare_exchange_n(&w->units[u].state, &expect,
		    UNIT_BUSY, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			do_unit(w, wk, u);
	}
	tv_map_release_flush(&wk->rel);
	return NULL;
}

/* The result of unit @u: done by the reader itself if nobody took it. */
static struct result *
need(struct tv_pwalk *w, uint64_t u)
{
	int expect = UNIT_FREE;

	if (__atomic_compare_exchange_n(&w->units[u].state, &expect,
	    UNIT_BUSY, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		do_unit(w, w->self, u);
	pthread_mutex_lock(&w->lock);
	while (__atomic_load_n(&w->units[u].state, __ATOMIC_ACQUIRE) !=
	    UNIT_DONE)
		pthread_cond_wait(&w->done, &w->lock);
	pthread_mutex_unlock(&w->lock);
	return w->units[u].res;
}

/* Free a result. */
static void
result_free(struct result *res)
{
	if (res == NULL)
		return;
	free(res->pe.recs);
	tv_strbuf_fini(&res->text);
	free(res->ends);
	free(res->flags);
	free(res);
}

/* The reader is done with unit @u: free it, make room for the workers. */
static void
release(struct tv_pwalk *w, uint64_t u)
{
	struct result *res;

	pthread_mutex_lock(&w->lock);
	res = w->units[u].res;
	w->units[u].res = NULL;
	if (res != NULL) {
		res->next_free = w->free_list;
		w->free_list = res;
	}
	w->held--;
	pthread_cond_signal(&w->room);
	pthread_mutex_unlock(&w->lock);
}

/*
 * Make the cursor's record the first at or after record @idx of packet
 * @pkt, skipping empty packets; false when its stream has no more.
 */
static bool
open_from(struct tv_pwalk *w, struct cursor *c, uint64_t pkt, uint64_t idx)
{
	for (; pkt < w->stop[c->stream]; pkt++, idx = 0) {
		uint64_t u = w->unit_of[c->stream][pkt - w->first[c->stream]];
		struct result *res = need(w, u);

		if (res->pe.status != TV_OK &&
		    res->pe.status != TV_NOT_FOUND && w->err.status == TV_OK) {
			w->err = res->pe.err;
			if (w->err.status == TV_OK)
				w->err.status = res->pe.status;
		}
		if (idx < res->pe.count) {
			c->pkt = pkt;
			c->idx = idx;
			c->res = res;
			c->unit = u;
			c->ts = res->pe.recs[idx].ts;
			return true;
		}
		release(w, u);
	}
	c->res = NULL;
	return false;
}

/* Whether cursor @a's record comes before @b's. */
static inline bool
before(const struct cursor *a, const struct cursor *b)
{
	if (a->ts != b->ts)
		return a->ts < b->ts;
	if (a->ord != b->ord)
		return a->ord < b->ord;
	return a->stream < b->stream;
}

/*
 * Few streams (most traces: one per CPU) are kept in a sorted array
 * rather than a heap: after a run its stream's next record comes after
 * the next stream's, so the top moves right a place or two, one
 * comparison each, and the runner-up is always slot 1 (a sift down the
 * heap and the look at both children cost a header count of the 4-CPU
 * generated trace 90 instructions per run of 6 records).  With many
 * streams the top would move right past half of them: a heap then.
 */
#define PWALK_SORTED_MAX	16

/* Slot 0 moved on: put it back in order (sorted array). */
static void
resort_top(struct tv_pwalk *w)
{
	struct cursor *c = w->heap[0];
	uint32_t i = 0;

	while (i + 1 < w->nheap && before(w->heap[i + 1], c)) {
		w->heap[i] = w->heap[i + 1];
		i++;
	}
	w->heap[i] = c;
}

/* Restore the min-heap below slot @i. */
static void
sift_down(struct tv_pwalk *w, uint32_t i)
{
	struct cursor *c = w->heap[i];

	for (;;) {
		uint32_t l = 2 * i + 1, best = l;

		if (l >= w->nheap)
			break;
		if (l + 1 < w->nheap && before(w->heap[l + 1], w->heap[l]))
			best = l + 1;
		if (!before(w->heap[best], c))
			break;
		w->heap[i] = w->heap[best];
		i = best;
	}
	w->heap[i] = c;
}

/*
 * The packet of stream @s past the last one the walk needs: the first
 * that begins after @end (packets are in time order).
 */
static uint64_t
stop_of(const struct tv_stream *s, uint64_t first, int64_t end)
{
	uint64_t lo = first, hi = s->npackets, mid;

	if (end == INT64_MAX)
		return s->npackets;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->packets[mid].ts_begin != TV_TIME_NONE &&
		    s->packets[mid].ts_begin > end)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* See pwalk.h. */
struct tv_pwalk *
tv_pwalk_start(struct tv_trace_set *set, int64_t begin, int64_t end,
    tv_pwalk_fn fn, void *arg, unsigned nthreads,
    enum tv_walk_pages pages)
{
	struct tv_pwalk *w = tv_xcalloc(1, sizeof(*w));
	uint32_t n = set->nstreams, i, f;
	uint64_t k, nu = 0;

	w->set = set;
	w->fn = fn;
	w->arg = arg;
	w->pages = pages;
	w->end = end;
	tv_error_clear(&w->err);
	w->first = tv_xcalloc(n + 1, sizeof(*w->first));
	w->first_idx = tv_xcalloc(n + 1, sizeof(*w->first_idx));
	w->stop = tv_xcalloc(n + 1, sizeof(*w->stop));
	w->unit_of = tv_xcalloc(n + 1, sizeof(*w->unit_of));
	w->cursors = tv_xcalloc(n + 1, sizeof(*w->cursors));
	w->heap = tv_xcalloc(n + 1, sizeof(*w->heap));
	if (begin != INT64_MIN && n > 0) {
		/* the merger's seek says where each stream starts */
		struct tv_merge *m = tv_merge_create(set);

		tv_merge_seek_time(m, begin);
		for (i = 0; i < n; i++)
			tv_merge_gap(m, i, &w->first[i], &w->first_idx[i]);
		w->err = *tv_merge_error(m);
		tv_merge_destroy(m);
	}
	for (i = 0; i < n; i++) {
		w->first[i] = TV_MIN(w->first[i], set->streams[i]->npackets);
		w->stop[i] = stop_of(set->streams[i], w->first[i], end);
		nu += w->stop[i] - w->first[i];
		if (pages == TV_PAGES_SEQUENTIAL)
			for (f = 0; f < set->streams[i]->nfiles; f++)
				tv_mapfile_advise(&set->streams[i]->files[f],
				    true);
	}
	w->units = tv_xcalloc(nu + 1, sizeof(*w->units));
	for (i = 0; i < n; i++)
		for (k = w->first[i]; k < w->stop[i]; k++) {
			w->units[w->nunits].stream = i;
			w->units[w->nunits++].pkt = k;
		}
	qsort_r(w->units, w->nunits, sizeof(*w->units), unit_cmp, set);
	for (i = 0; i < n; i++)
		w->unit_of[i] = tv_xcalloc(w->stop[i] - w->first[i] + 1,
		    sizeof(**w->unit_of));
	for (k = 0; k < w->nunits; k++)
		w->unit_of[w->units[k].stream][w->units[k].pkt -
		    w->first[w->units[k].stream]] = k;

	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->done, NULL);
	pthread_cond_init(&w->room, NULL);
	if (nthreads == 0)
		nthreads = tv_online_cores();
	nthreads = TV_MIN(nthreads, PWALK_MAX_THREADS);
	w->window = (uint64_t)n + (uint64_t)PWALK_AHEAD * nthreads;
	w->workers = tv_xcalloc_aligned(PWALK_LINE,
	    sizeof(*w->workers) * (PWALK_MAX_THREADS + 1));
	w->self = &w->workers[PWALK_MAX_THREADS];
	w->self->w = w;
	tv_arena_init(&w->self->arena);
	/* one worker is the reader itself: a single core needs no thread */
	for (i = 0; i < nthreads && nthreads > 1; i++) {
		struct worker *wk = &w->workers[w->nthreads];

		wk->w = w;
		tv_arena_init(&wk->arena);
		if (pthread_create(&w->threads[w->nthreads], NULL,
		    worker_main, wk) != 0) {
			tv_arena_fini(&wk->arena);
			break;
		}
		w->nthreads++;
	}
	return w;
}

/*
 * Move cursor @c, the heap's top, past the @n records of its last run
 * and put it back in the heap.
 */
static void
step(struct tv_pwalk *w, struct cursor *c, uint64_t n)
{
	bool live = true;

	c->idx += n;
	if (c->idx < c->res->pe.count) {
		c->ts = c->res->pe.recs[c->idx].ts;
	} else {
		release(w, c->unit);
		c->res = NULL;
		live = open_from(w, c, c->pkt + 1, 0);
	}
	if (w->sorted) {
		if (!live)
			memmove(w->heap, w->heap + 1,
			    sizeof(*w->heap) * --w->nheap);
		else
			resort_top(w);
	} else if (!live) {
		w->heap[0] = w->heap[--w->nheap];
		if (w->nheap)
			sift_down(w, 0);
	} else {
		sift_down(w, 0);
	}
}

/*
 * The last timestamp a record of the top cursor @c may have and still
 * come before every other stream's next record and be in the walk, in
 * *@hi: its run goes on while its records' timestamps are at most that.
 * False if no record can (another stream's is first at the least time).
 * A record with no timestamp (TV_TIME_NONE, the least) is in the walk
 * whatever its end, and sorts as in before().
 */
static bool
run_bound(const struct tv_pwalk *w, const struct cursor *c, int64_t *hi)
{
	const struct cursor *l;

	*hi = w->end;
	if (w->nheap < 2)
		return true;
	l = w->heap[1];
	if (!w->sorted && w->nheap > 2 && before(w->heap[2], l))
		l = w->heap[2];
	if (c->ord < l->ord || (c->ord == l->ord && c->stream < l->stream)) {
		*hi = TV_MIN(*hi, l->ts);	/* c wins a tie */
		return true;
	}
	if (l->ts == INT64_MIN)
		return false;
	*hi = TV_MIN(*hi, l->ts - 1);
	return true;
}

/* See pwalk.h. */
enum tv_status
tv_pwalk_next_run(struct tv_pwalk *w, struct tv_pwalk_run *run)
{
	const struct tv_event_rec *recs;
	struct result *res;
	struct cursor *c;
	uint64_t j, count;
	int64_t hi;
	uint32_t i;

	if (!w->started) {
		w->started = true;
		for (i = 0; i < w->set->nstreams; i++) {
			c = &w->cursors[i];
			c->stream = i;
			c->s = w->set->streams[i];
			c->ord = c->s->ordinal;
			if (open_from(w, c, w->first[i], w->first_idx[i]))
				w->heap[w->nheap++] = c;
		}
		w->sorted = w->nheap <= PWALK_SORTED_MAX;
		for (i = 0; w->sorted && i < w->nheap; i++) {
			uint32_t k = i;	/* insertion sort */

			c = w->heap[i];
			for (; k > 0 && before(c, w->heap[k - 1]); k--)
				w->heap[k] = w->heap[k - 1];
			w->heap[k] = c;
		}
		for (i = w->nheap / 2; !w->sorted && i-- > 0;)
			sift_down(w, i);
	}
	if (w->pending != NULL) {
		step(w, w->pending, w->pending_n);
		w->pending = NULL;
	}
	if (w->nheap == 0)
		return TV_END;
	c = w->heap[0];
	if (c->ts > w->end && c->ts != TV_TIME_NONE)
		return TV_END;		/* the rest is past the range */
	res = c->res;
	recs = res->pe.recs;
	count = res->pe.count;
	j = c->idx + 1;
	if (run_bound(w, c, &hi))
		while (j < count && recs[j].ts <= hi)
			j++;
	run->stream = c->s;
	run->packet = c->pkt;
	run->index = c->idx;
	run->n = j - c->idx;
	run->recs = recs + c->idx;
	if (w->fn == NULL) {
		run->text = "";
		run->begin = 0;
		run->ends = NULL;
		run->flags = NULL;
	} else {
		run->text = res->text.buf ? res->text.buf : "";
		run->begin = c->idx ? res->ends[c->idx - 1] : 0;
		run->ends = res->ends + c->idx;
		run->flags = res->flags + c->idx;
	}
	run->bad = res->bad >= c->idx && res->bad < j ? res->bad - c->idx :
	    run->n;
	run->status = run->bad < run->n ? res->bad_status : TV_OK;
	run->err = run->bad < run->n ? &res->bad_err : NULL;
	w->pending = c;
	w->pending_n = run->n;
	return TV_OK;
}

/* See pwalk.h. */
enum tv_status
tv_pwalk_next(struct tv_pwalk *w, struct tv_pwalk_item *item)
{
	struct tv_pwalk_run *run = &w->run;
	uint64_t k;

	if (w->run_at >= run->n) {
		w->run_at = 0;
		run->n = 0;
		if (tv_pwalk_next_run(w, run) != TV_OK)
			return TV_END;
	}
	k = w->run_at++;
	item->ev.stream = run->stream;
	item->ev.packet = run->packet;
	item->ev.index = run->index + k;
	item->ev.rec = run->recs[k];
	item->bytes = tv_pwalk_run_bytes(run, k, &item->len);
	item->flags = run->flags ? run->flags[k] : 0;
	item->status = k == run->bad ? run->status : TV_OK;
	item->err = k == run->bad ? run->err : NULL;
	return TV_OK;
}

/* See pwalk.h. */
const struct tv_error *
tv_pwalk_error(const struct tv_pwalk *w)
{
	return &w->err;
}

/* See pwalk.h. */
void
tv_pwalk_destroy(struct tv_pwalk *w)
{
	uint64_t k;
	uint32_t i;

	if (w == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	w->cancel = 1;
	pthread_cond_broadcast(&w->room);
	pthread_mutex_unlock(&w->lock);
	for (i = 0; i < w->nthreads; i++) {
		pthread_join(w->threads[i], NULL);
		tv_map_release_flush(&w->workers[i].rel);
		tv_arena_fini(&w->workers[i].arena);
	}
	tv_map_release_flush(&w->self->rel);
	tv_arena_fini(&w->self->arena);
	free(w->workers);
	for (k = 0; k < w->nunits; k++)
		result_free(w->units[k].res);
	while (w->free_list != NULL) {
		struct result *res = w->free_list;

		w->free_list = res->next_free;
		result_free(res);
	}
	for (i = 0; i < w->set->nstreams; i++)
		free(w->unit_of[i]);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->done);
	pthread_cond_destroy(&w->room);
	free(w->unit_of);
	free(w->first);
	free(w->first_idx);
	free(w->stop);
	free(w->units);
	free(w->cursors);
	free(w->heap);
	free(w);
}
