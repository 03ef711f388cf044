/*
 * The merged timeline.  The merger keeps a position that sits between two
 * records of the total order (ts, stream ordinal, packet, record index),
 * like a text cursor between characters: next() returns the record after
 * the position and moves past it, prev() the record before it and moves
 * before it.  So next() then prev() returns the same record twice, and
 * prev() then next() too.
 *
 * Per stream the position is a (packet, record) gap.  Walking forwards, a
 * min-heap holds each stream's first record after its gap; walking
 * backwards, a max-heap holds each stream's last record before it.  When
 * the direction changes the heap is rebuilt from the gaps, O(streams).
 * Each stream's records must be in time order (they are: the tracer wrote
 * them so); the stream ordinal makes equal timestamps deterministic.
 */
#include "tview/merge.h"
#include "tview/packet-cache.h"
#include "tview/mapfile.h"

#include <stdlib.h>
#include <string.h>

#define MERGE_CACHE_BYTES	((size_t)32 << 20)

enum dir {
	DIR_NONE,	/* heap stale: a seek happened */
	DIR_FWD,
	DIR_BWD,
};

struct cursor {
	struct tv_stream		*s;
	/* the gap: before record pos_idx of packet pos_pkt; pos_pkt ==
	   npackets is the end of the stream */
	uint64_t			 pos_pkt;
	uint64_t			 pos_idx;
	/* the record the heap orders this stream by */
	bool				 has_head;
	uint64_t			 head_pkt;
	uint64_t			 head_idx;
	/* points into pe->recs; head_ts and ord are copies for the heap */
	const struct tv_event_rec	*head;
	int64_t				 head_ts;
	uint32_t			 ord;
	/* pinned: the records of packet head_pkt */
	const struct tv_packet_events	*pe;
	/*
	 * max_end[k]: the latest time any record of packets 0..k can have,
	 * from the packet index; non-decreasing, for binary search.
	 */
	int64_t				*max_end;
	/* sequential: the packets it has gone past */
	struct tv_map_release		 rel;
};

struct tv_merge {
	struct tv_trace_set	*set;
	struct tv_packet_cache	*cache;
	struct cursor		*cursors;
	uint32_t		 ncursors;
	struct cursor		**heap;
	uint32_t		 nheap;
	enum dir		 dir;
	struct tv_error		 err;	/* first decoding error */
	bool			 sequential;	/* release packets behind */
};

/* Total order of the timeline on the parts of an event. */
static inline int
key_cmp(int64_t ts_a, uint32_t ord_a, uint64_t pkt_a, uint64_t idx_a,
    int64_t ts_b, uint32_t ord_b, uint64_t pkt_b, uint64_t idx_b)
{
	if (ts_a != ts_b)
		return ts_a < ts_b ? -1 : 1;
	if (ord_a != ord_b)
		return ord_a < ord_b ? -1 : 1;
	if (pkt_a != pkt_b)
		return pkt_a < pkt_b ? -1 : 1;
	if (idx_a != idx_b)
		return idx_a < idx_b ? -1 : 1;
	return 0;
}

/* Total order of the timeline: <0, 0, >0. */
int
tv_event_cmp(const struct tv_event *a, const struct tv_event *b)
{
	return key_cmp(a->rec.ts, a->stream ? a->stream->ordinal : 0,
	    a->packet, a->index, b->rec.ts, b->stream ? b->stream->ordinal : 0,
	    b->packet, b->index);
}

/* Order of two cursors' heads in the timeline. */
static inline int
cursor_cmp(const struct cursor *a, const struct cursor *b)
{
	return key_cmp(a->head_ts, a->ord, a->head_pkt, a->head_idx,
	    b->head_ts, b->ord, b->head_pkt, b->head_idx);
}

/*
 * Whether @a's head comes before @b's walking forwards.  Two cursors are
 * different streams, whose ordinals differ, so (ts, ordinal) decides;
 * the full key is the fallback for equal ordinals.
 */
static inline bool
fwd_before(const struct cursor *a, const struct cursor *b)
{
	if (a->head_ts != b->head_ts)
		return a->head_ts < b->head_ts;
	return cursor_cmp(a, b) < 0;
}

/* Whether @a belongs above @b in the heap for the current direction. */
static inline bool
heap_before(const struct tv_merge *m, const struct cursor *a,
    const struct cursor *b)
{
	if (m->dir != DIR_BWD)
		return fwd_before(a, b);
	return cursor_cmp(a, b) > 0;
}

/*
 * Restore the heap property below slot @i: the moved cursor is held aside
 * and the smaller child moved up until its place is found.
 */
static void
sift_down(struct tv_merge *m, uint32_t i)
{
	struct cursor *c = m->heap[i];
	uint32_t n = m->nheap;

	for (;;) {
		uint32_t l = 2 * i + 1, best;

		if (l >= n)
			break;
		best = l;
		if (l + 1 < n && heap_before(m, m->heap[l + 1], m->heap[l]))
			best = l + 1;
		if (!heap_before(m, m->heap[best], c))
			break;
		m->heap[i] = m->heap[best];
		i = best;
	}
	m->heap[i] = c;
}

/* See merge.h. */
void
tv_merge_set_sequential(struct tv_merge *m)
{
	uint32_t i, f;

	m->sequential = true;
	for (i = 0; i < m->set->nstreams; i++)
		for (f = 0; f < m->set->streams[i]->nfiles; f++)
			tv_mapfile_advise(&m->set->streams[i]->files[f], true);
}

/* The records of packet @pkt, remembering the first decoding error. */
static const struct tv_packet_events *
get_packet(struct tv_merge *m, struct tv_stream *s, uint64_t pkt)
{
	const struct tv_packet_events *pe;

	pe = tv_packet_cache_get(m->cache, s, pkt);
	if (pe->status != TV_OK && pe->status != TV_NOT_FOUND &&
	    m->err.status == TV_OK) {
		m->err = pe->err;
		if (m->err.status == TV_OK)
			m->err.status = pe->status;
	}
	return pe;
}

/* Make record @idx of @pe (packet @pkt) the cursor's head. */
static void
set_head(struct tv_merge *m, struct cursor *c, uint64_t pkt, uint64_t idx,
    const struct tv_packet_events *pe)
{
	if (c->pe != pe) {
		tv_packet_cache_pin(m->cache, pe);
		if (c->pe)
			tv_packet_cache_unpin(m->cache, c->pe);
		c->pe = pe;
	}
	c->has_head = true;
	c->head_pkt = pkt;
	c->head_idx = idx;
	c->head = &pe->recs[idx];
	c->head_ts = c->head->ts;
}

/* The cursor has no head in the current direction. */
static void
clear_head(struct tv_merge *m, struct cursor *c)
{
	if (c->pe)
		tv_packet_cache_unpin(m->cache, c->pe);
	c->pe = NULL;
	c->head = NULL;
	c->has_head = false;
}

/* Head = the first record at or after (pkt, idx), skipping empty packets. */
static void
head_fwd_from(struct tv_merge *m, struct cursor *c, uint64_t pkt,
    uint64_t idx)
{
	for (; pkt < c->s->npackets; pkt++, idx = 0) {
		const struct tv_packet_events *pe = get_packet(m, c->s, pkt);

		if (idx < pe->count) {
			set_head(m, c, pkt, idx, pe);
			return;
		}
	}
	clear_head(m, c);
}

/* Head = the last record before (pkt, idx), skipping empty packets. */
static void
head_bwd_from(struct tv_merge *m, struct cursor *c, uint64_t pkt,
    uint64_t idx)
{
	const struct tv_packet_events *pe;

	if (pkt > c->s->npackets) {
		pkt = c->s->npackets;
		idx = 0;
	}
	if (pkt < c->s->npackets && idx > 0) {
		pe = get_packet(m, c->s, pkt);
		if (pe->count > 0) {
			set_head(m, c, pkt, TV_MIN(idx, pe->count) - 1, pe);
			return;
		}
	}
	while (pkt > 0) {
		pkt--;
		pe = get_packet(m, c->s, pkt);
		if (pe->count > 0) {
			set_head(m, c, pkt, pe->count - 1, pe);
			return;
		}
	}
	clear_head(m, c);
}

/* Recompute every head for walking in @dir and rebuild the heap. */
static void
rebuild(struct tv_merge *m, enum dir dir)
{
	uint32_t i;

	m->dir = dir;
	m->nheap = 0;
	for (i = 0; i < m->ncursors; i++) {
		struct cursor *c = &m->cursors[i];

		if (dir == DIR_FWD)
			head_fwd_from(m, c, c->pos_pkt, c->pos_idx);
		else
			head_bwd_from(m, c, c->pos_pkt, c->pos_idx);
		if (c->has_head)
			m->heap[m->nheap++] = c;
	}
	for (i = m->nheap / 2; i-- > 0;)
		sift_down(m, i);
}

/*
 * The latest time each prefix of the packet index can hold.  A packet
 * without an end time ends before the next packet with a begin time.
 */
static int64_t *
compute_max_end(const struct tv_stream *s)
{
	int64_t *a = tv_xcalloc(s->npackets ? s->npackets : 1, sizeof(*a));
	int64_t next_begin = INT64_MAX, run = INT64_MIN;
	uint64_t k;

	for (k = s->npackets; k-- > 0;) {
		const struct tv_packet *p = &s->packets[k];

		a[k] = p->ts_end != TV_TIME_NONE ? p->ts_end : next_begin;
		if (p->ts_begin != TV_TIME_NONE)
			next_begin = p->ts_begin;
	}
	for (k = 0; k < s->npackets; k++) {
		run = TV_MAX(run, a[k]);
		a[k] = run;
	}
	return a;
}

/* A merger over every stream of @set, positioned at the beginning. */
struct tv_merge *
tv_merge_create(struct tv_trace_set *set)
{
	struct tv_merge *m = tv_xcalloc(1, sizeof(*m));
	uint32_t i;

	m->set = set;
	m->cache = tv_packet_cache_create(MERGE_CACHE_BYTES);
	m->ncursors = set ? set->nstreams : 0;
	m->cursors = tv_xcalloc(m->ncursors ? m->ncursors : 1,
	    sizeof(*m->cursors));
	m->heap = tv_xcalloc(m->ncursors ? m->ncursors : 1, sizeof(*m->heap));
	for (i = 0; i < m->ncursors; i++) {
		m->cursors[i].s = set->streams[i];
		m->cursors[i].ord = set->streams[i]->ordinal;
		m->cursors[i].max_end = compute_max_end(set->streams[i]);
	}
	tv_error_clear(&m->err);
	tv_merge_seek_begin(m);
	return m;
}

/* Free the merger, its cursors and its cache. */
void
tv_merge_destroy(struct tv_merge *m)
{
	uint32_t i;

	if (!m)
		return;
	for (i = 0; i < m->ncursors; i++) {
		clear_head(m, &m->cursors[i]);
		tv_map_release_flush(&m->cursors[i].rel);
		free(m->cursors[i].max_end);
	}
	tv_packet_cache_destroy(m->cache);
	free(m->cursors);
	free(m->heap);
	free(m);
}

/* Forget the heads: the next next()/prev() rebuilds from the gaps. */
static void
invalidate(struct tv_merge *m)
{
	uint32_t i;

	for (i = 0; i < m->ncursors; i++)
		clear_head(m, &m->cursors[i]);
	m->nheap = 0;
	m->dir = DIR_NONE;
}

/* Position before the first record. */
void
tv_merge_seek_begin(struct tv_merge *m)
{
	uint32_t i;

	invalidate(m);
	for (i = 0; i < m->ncursors; i++) {
		m->cursors[i].pos_pkt = 0;
		m->cursors[i].pos_idx = 0;
	}
}

/* Position after the last record. */
void
tv_merge_seek_end(struct tv_merge *m)
{
	uint32_t i;

	invalidate(m);
	for (i = 0; i < m->ncursors; i++) {
		m->cursors[i].pos_pkt = m->cursors[i].s->npackets;
		m->cursors[i].pos_idx = 0;
	}
}

/*
 * Put the cursor's gap before its first record with ts >= @ts: binary
 * search of the first packet that can hold such a record, then of the
 * record in the packet.
 */
static void
stream_seek(struct tv_merge *m, struct cursor *c, int64_t ts)
{
	uint64_t lo = 0, hi = c->s->npackets, k;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (c->max_end[mid] >= ts)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (k = lo; k < c->s->npackets; k++) {
		const struct tv_packet_events *pe = get_packet(m, c->s, k);
		uint64_t a = 0, b = pe->count;

		while (a < b) {
			uint64_t mid = a + (b - a) / 2;

			if (pe->recs[mid].ts >= ts)
				b = mid;
			else
				a = mid + 1;
		}
		if (a < pe->count) {
			c->pos_pkt = k;
			c->pos_idx = a;
			return;
		}
	}
	c->pos_pkt = c->s->npackets;
	c->pos_idx = 0;
}

/* Position between the last record with ts < @ts and the first >= @ts. */
void
tv_merge_seek_time(struct tv_merge *m, int64_t ts)
{
	uint32_t i;

	invalidate(m);
	for (i = 0; i < m->ncursors; i++)
		stream_seek(m, &m->cursors[i], ts);
}

/*
 * Position just before @ev: in its own stream at its record; in the
 * others before the first record that sorts after it (ts > ev's for
 * streams ordered before ev's, ts >= ev's for those after).
 */
void
tv_merge_seek_event(struct tv_merge *m, const struct tv_event *ev)
{
	uint32_t i, ord = ev->stream ? ev->stream->ordinal : 0;

	invalidate(m);
	for (i = 0; i < m->ncursors; i++) {
		struct cursor *c = &m->cursors[i];

		if (c->s == ev->stream) {
			c->pos_pkt = TV_MIN(ev->packet, c->s->npackets);
			c->pos_idx = ev->packet < c->s->npackets ?
			    ev->index : 0;
		} else if (c->s->ordinal < ord) {
			if (ev->rec.ts == INT64_MAX) {
				c->pos_pkt = c->s->npackets;
				c->pos_idx = 0;
			} else {
				stream_seek(m, c, ev->rec.ts + 1);
			}
		} else {
			stream_seek(m, c, ev->rec.ts);
		}
	}
}

/* Copy a cursor's head into @out. */
static void
emit(const struct cursor *c, struct tv_event *out)
{
	out->stream = c->s;
	out->packet = c->head_pkt;
	out->index = c->head_idx;
	out->rec = *c->head;
}

/* Drop the heap's top after its cursor ran out. */
static void
heap_pop(struct tv_merge *m)
{
	m->heap[0] = m->heap[--m->nheap];
	if (m->nheap)
		sift_down(m, 0);
}

/* The record after the position; the position moves past it. */
enum tv_status
tv_merge_next(struct tv_merge *m, struct tv_event *out)
{
	struct cursor *c;

	if (m->dir != DIR_FWD)
		rebuild(m, DIR_FWD);
	if (m->nheap == 0)
		return TV_END;
	c = m->heap[0];
	emit(c, out);
	c->pos_pkt = c->head_pkt;
	c->pos_idx = c->head_idx + 1;
	if (c->pos_idx < c->pe->count) {
		/* same packet: step the head, no cache or pin work */
		c->head_idx = c->pos_idx;
		c->head++;
		c->head_ts = c->head->ts;
	} else {
		head_fwd_from(m, c, c->pos_pkt + 1, 0);
		/* not pos_pkt itself: the caller decodes *out after this */
		if (m->sequential && c->pos_pkt > 0)
			tv_packet_release(&c->rel, c->s, c->pos_pkt - 1);
	}
	if (!c->has_head)
		heap_pop(m);
	else if (m->nheap > 1 && !(c->head_ts < m->heap[1]->head_ts &&
	    (m->nheap < 3 || c->head_ts < m->heap[2]->head_ts)))
		sift_down(m, 0);	/* else it stays the minimum */
	return TV_OK;
}

/* The record before the position; the position moves before it. */
enum tv_status
tv_merge_prev(struct tv_merge *m, struct tv_event *out)
{
	struct cursor *c;

	if (m->dir != DIR_BWD)
		rebuild(m, DIR_BWD);
	if (m->nheap == 0)
		return TV_END;
	c = m->heap[0];
	emit(c, out);
	c->pos_pkt = c->head_pkt;
	c->pos_idx = c->head_idx;
	if (c->pos_idx > 0)
		set_head(m, c, c->pos_pkt, c->pos_idx - 1, c->pe);
	else
		head_bwd_from(m, c, c->pos_pkt, 0);
	if (c->has_head)
		sift_down(m, 0);
	else
		heap_pop(m);
	return TV_OK;
}

/* The first decoding error met so far. */
const struct tv_error *
tv_merge_error(const struct tv_merge *m)
{
	return &m->err;
}

/* See merge.h. */
void
tv_merge_gap(const struct tv_merge *m, uint32_t i, uint64_t *pkt,
    uint64_t *idx)
{
	*pkt = i < m->ncursors ? m->cursors[i].pos_pkt : 0;
	*idx = i < m->ncursors ? m->cursors[i].pos_idx : 0;
}
