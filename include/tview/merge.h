/*
 * The merged timeline: a heap of per-stream cursors ordered by
 * (timestamp, stream ordinal, bit offset), a total order, so output is the
 * same on every run.  It walks forwards and backwards at the same cost and
 * seeks to a time by binary search in each stream's packet index.
 */
#ifndef TVIEW_MERGE_H
#define TVIEW_MERGE_H

#include "tview/trace.h"

struct tv_merge;

/** tv_merge_create() - a merger over every stream of @set, at the start. */
struct tv_merge	*tv_merge_create(struct tv_trace_set *set);
void		 tv_merge_destroy(struct tv_merge *m);

/**
 * tv_merge_set_sequential() - @m will mostly walk forwards once through
 * the trace (--dump, counts): read ahead, and release the mapped pages
 * of each packet next() leaves behind.
 */
void		 tv_merge_set_sequential(struct tv_merge *m);

/** tv_merge_seek_begin() - next() returns the first record. */
void		 tv_merge_seek_begin(struct tv_merge *m);
/** tv_merge_seek_end() - prev() returns the last record. */
void		 tv_merge_seek_end(struct tv_merge *m);
/**
 * tv_merge_seek_time() - next() returns the first record with ts >= @ts,
 * prev() the last one with ts < @ts.  O(streams * log packets) plus one
 * packet decode per stream.
 */
void		 tv_merge_seek_time(struct tv_merge *m, int64_t ts);
/** tv_merge_seek_event() - next() returns @ev itself, prev() the one before. */
void		 tv_merge_seek_event(struct tv_merge *m, const struct tv_event *ev);

/**
 * tv_merge_next() / tv_merge_prev() - the following / preceding record.
 * TV_END at either end.  Records of every kind come out (events, discarded
 * events, lost packets); callers skip what they do not show.  When a
 * packet could not be decoded fully, its readable records still come out
 * and the error is reported once through tv_merge_error().
 *
 * The position sits between two records, like a text cursor between
 * characters: after next() returned X, prev() returns X again (and after
 * prev() returned X, next() returns X).  Seeks only move the position.
 */
enum tv_status	 tv_merge_next(struct tv_merge *m, struct tv_event *out);
enum tv_status	 tv_merge_prev(struct tv_merge *m, struct tv_event *out);

/**
 * tv_merge_error() - the first decoding error met so far (status TV_OK if
 * none), so batch modes can exit non-zero after printing what was readable.
 */
const struct tv_error *tv_merge_error(const struct tv_merge *m);

/**
 * tv_merge_gap() - where the position is in stream @i of the set: before
 * record *@idx of packet *@pkt (*@pkt == npackets: after its last).
 */
void		 tv_merge_gap(const struct tv_merge *m, uint32_t i,
		    uint64_t *pkt, uint64_t *idx);

/** tv_event_cmp() - total order of the timeline: <0, 0, >0. */
int		 tv_event_cmp(const struct tv_event *a, const struct tv_event *b);

#endif /* TVIEW_MERGE_H */
