/*
 * A bounded LRU of decoded packets (their record arrays), so that walking
 * backwards costs what walking forwards costs, and memory stays bounded
 * whatever the size of the trace.  Not thread-safe: one per thread.
 */
#ifndef TVIEW_PACKET_CACHE_H
#define TVIEW_PACKET_CACHE_H

#include "tview/trace.h"

struct tv_packet_cache;

/** tv_packet_cache_create() - keep at most @max_bytes of record arrays. */
struct tv_packet_cache	*tv_packet_cache_create(size_t max_bytes);
void			 tv_packet_cache_destroy(struct tv_packet_cache *c);

/**
 * tv_packet_note() - what a whole decode @pe of packet @pkt of @s tells
 * its index entry: its event count when unknown, and whether it is
 * corrupt.  Every decode of a whole packet notes it (the caches, the
 * ordered walk): the browser's "event N of M" waits for every count.
 */
void			 tv_packet_note(struct tv_stream *s, uint64_t pkt,
			    const struct tv_packet_events *pe);
/**
 * tv_packet_cache_get() - the records of packet @pkt of @s, decoding it
 * through the driver if needed.  The pointer stays valid until the next
 * get on this cache that misses (pinned entries excepted).  A packet whose
 * decoding failed part-way returns its readable records with ->status set;
 * the packet's event_count is filled in the index on first decode.
 */
const struct tv_packet_events *tv_packet_cache_get(struct tv_packet_cache *c,
			    struct tv_stream *s, uint64_t pkt);

/**
 * tv_packet_cache_pin() / tv_packet_cache_unpin() - keep @pe (a pointer
 * returned by get) resident and valid until unpinned; pins nest.  Pinned
 * entries may push the cache over its budget; a merger pins one packet
 * per stream.
 */
void			 tv_packet_cache_pin(struct tv_packet_cache *c,
			    const struct tv_packet_events *pe);
void			 tv_packet_cache_unpin(struct tv_packet_cache *c,
			    const struct tv_packet_events *pe);

#endif /* TVIEW_PACKET_CACHE_H */
