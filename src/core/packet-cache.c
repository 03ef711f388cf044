/*
 * The packet cache: decoded record arrays of recently used packets, kept
 * in an LRU list bounded by bytes and found through a hash table keyed by
 * (stream, packet), so a lookup is O(1) and memory stays bounded however
 * large the trace.
 */
#include "tview/packet-cache.h"
#include "tview/format.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct cache_entry {
	struct tv_packet_events	 pe;	/* first: see entry_of() */
	struct tv_stream	*s;
	uint64_t		 pkt;
	size_t			 bytes;
	uint32_t		 pins;
	struct cache_entry	*lru_prev;	/* towards most recent */
	struct cache_entry	*lru_next;	/* towards least recent */
	struct cache_entry	*hnext;		/* hash chain */
};

struct tv_packet_cache {
	size_t			 max_bytes;
	size_t			 bytes;
	struct cache_entry	**buckets;
	size_t			 nbuckets;	/* power of two */
	size_t			 count;
	struct cache_entry	*mru;		/* list head */
	struct cache_entry	*lru;		/* list tail */
	/* what get returns for a packet that does not exist */
	struct tv_packet_events	 empty;
	/*
	 * The record array of the last evicted entry, handed to the next
	 * decode: saves a large malloc/free (mmap/munmap and page faults)
	 * and the growth copies per packet in a sequential pass.
	 */
	struct tv_event_rec	*spare;
	uint64_t		 spare_cap;
};

/* The entry holding @pe (pe is its first member). */
static struct cache_entry *
entry_of(const struct tv_packet_events *pe)
{
	return (struct cache_entry *)(void *)((char *)(uintptr_t)pe -
	    offsetof(struct cache_entry, pe));
}

/* Hash of a (stream, packet) key. */
static size_t
key_hash(const struct tv_stream *s, uint64_t pkt)
{
	uint64_t h = (uint64_t)(uintptr_t)s * 0x9e3779b97f4a7c15ULL;

	h ^= pkt + 0x7f4a7c159e3779b9ULL + (h << 6) + (h >> 2);
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	return (size_t)h;
}

/* A cache keeping about @max_bytes of records (0: the default). */
struct tv_packet_cache *
tv_packet_cache_create(size_t max_bytes)
{
	struct tv_packet_cache *c = tv_xcalloc(1, sizeof(*c));

	c->max_bytes = max_bytes ? max_bytes : (size_t)32 << 20;
	c->nbuckets = 64;
	c->buckets = tv_xcalloc(c->nbuckets, sizeof(*c->buckets));
	c->empty.status = TV_NOT_FOUND;
	tv_error_set(&c->empty.err, TV_NOT_FOUND, NULL, _("no such packet"));
	return c;
}

/* Free one entry's records and the entry. */
static void
entry_free(struct cache_entry *e)
{
	tv_packet_events_fini(&e->pe);
	free(e);
}

/* Free every entry, pinned or not, and the cache. */
void
tv_packet_cache_destroy(struct tv_packet_cache *c)
{
	struct cache_entry *e, *next;

	if (!c)
		return;
	for (e = c->mru; e; e = next) {
		next = e->lru_next;
		entry_free(e);
	}
	free(c->spare);
	free(c->buckets);
	free(c);
}

/* Unlink @e from the LRU list. */
static void
lru_unlink(struct tv_packet_cache *c, struct cache_entry *e)
{
	if (e->lru_prev)
		e->lru_prev->lru_next = e->lru_next;
	else
		c->mru = e->lru_next;
	if (e->lru_next)
		e->lru_next->lru_prev = e->lru_prev;
	else
		c->lru = e->lru_prev;
	e->lru_prev = e->lru_next = NULL;
}

/* Put @e at the most recently used end. */
static void
lru_push_front(struct tv_packet_cache *c, struct cache_entry *e)
{
	e->lru_prev = NULL;
	e->lru_next = c->mru;
	if (c->mru)
		c->mru->lru_prev = e;
	c->mru = e;
	if (!c->lru)
		c->lru = e;
}

/* Remove @e from its hash chain. */
static void
hash_remove(struct tv_packet_cache *c, struct cache_entry *e)
{
	struct cache_entry **pp = &c->buckets[key_hash(e->s, e->pkt) &
	    (c->nbuckets - 1)];

	while (*pp && *pp != e)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = e->hnext;
}

/* Double the bucket array when chains would get long. */
static void
hash_grow(struct tv_packet_cache *c)
{
	size_t n = c->nbuckets * 2, i;
	struct cache_entry **b = tv_xcalloc(n, sizeof(*b));

	for (i = 0; i < c->nbuckets; i++) {
		struct cache_entry *e = c->buckets[i], *next;

		for (; e; e = next) {
			size_t h = key_hash(e->s, e->pkt) & (n - 1);

			next = e->hnext;
			e->hnext = b[h];
			b[h] = e;
		}
	}
	free(c->buckets);
	c->buckets = b;
	c->nbuckets = n;
}

/* Drop least recently used unpinned entries (but @keep) to the budget. */
static void
evict(struct tv_packet_cache *c, const struct cache_entry *keep)
{
	struct cache_entry *e = c->lru, *prev;

	while (c->bytes > c->max_bytes && e) {
		prev = e->lru_prev;
		if (e != keep && e->pins == 0) {
			lru_unlink(c, e);
			hash_remove(c, e);
			c->bytes -= e->bytes;
			c->count--;
			if (e->pe.cap > c->spare_cap) {
				free(c->spare);
				c->spare = e->pe.recs;
				c->spare_cap = e->pe.cap;
				e->pe.recs = NULL;
			}
			entry_free(e);
		}
		e = prev;
	}
}

/* See packet-cache.h. */
void
tv_packet_note(struct tv_stream *s, uint64_t pkt,
    const struct tv_packet_events *pe)
{
	struct tv_packet *p = &s->packets[pkt];
	uint64_t i, n = 0;

	/*
	 * The index is shared by every thread's cache and walk: these
	 * stores race benignly (same values), so make them atomic to keep
	 * them defined.
	 */
	if (pe->status != TV_OK)
		__atomic_fetch_or(&p->flags, TV_PACKET_CORRUPT,
		    __ATOMIC_RELAXED);
	if (__atomic_load_n(&p->event_count, __ATOMIC_RELAXED) ==
	    TV_COUNT_UNKNOWN) {
		for (i = 0; i < pe->count; i++)
			n += pe->recs[i].kind == TV_REC_EVENT;
		__atomic_store_n(&p->event_count, n, __ATOMIC_RELAXED);
	}
}

/* Decode packet @pkt of @s into a new entry (reusing the spare array). */
static struct cache_entry *
decode(struct tv_packet_cache *c, struct tv_stream *s, uint64_t pkt)
{
	struct cache_entry *e = tv_xcalloc(1, sizeof(*e));
	enum tv_status st;

	e->s = s;
	e->pkt = pkt;
	e->pe.recs = c->spare;
	e->pe.cap = c->spare_cap;
	c->spare = NULL;
	c->spare_cap = 0;
	tv_error_clear(&e->pe.err);
	st = tv_stream_decode_packet(s, pkt, &e->pe);
	if (st != TV_OK && e->pe.status == TV_OK) {
		e->pe.status = st;
		if (e->pe.err.status == TV_OK)
			tv_error_set(&e->pe.err, st, NULL, "%s",
			    tv_status_str(st));
	}
	tv_packet_note(s, pkt, &e->pe);
	e->bytes = sizeof(*e) + e->pe.cap * sizeof(*e->pe.recs);
	return e;
}

/* The records of packet @pkt of @s, from the cache or freshly decoded. */
const struct tv_packet_events *
tv_packet_cache_get(struct tv_packet_cache *c, struct tv_stream *s,
    uint64_t pkt)
{
	struct cache_entry *e;
	size_t h;

	if (!s || pkt >= s->npackets)
		return &c->empty;
	h = key_hash(s, pkt) & (c->nbuckets - 1);
	for (e = c->buckets[h]; e; e = e->hnext) {
		if (e->s == s && e->pkt == pkt) {
			if (c->mru != e) {
				lru_unlink(c, e);
				lru_push_front(c, e);
			}
			return &e->pe;
		}
	}
	e = decode(c, s, pkt);
	e->hnext = c->buckets[h];
	c->buckets[h] = e;
	lru_push_front(c, e);
	c->bytes += e->bytes;
	c->count++;
	evict(c, e);
	if (c->count > c->nbuckets)
		hash_grow(c);
	return &e->pe;
}

/* Keep @pe resident until a matching unpin. */
void
tv_packet_cache_pin(struct tv_packet_cache *c,
    const struct tv_packet_events *pe)
{
	if (!pe || pe == &c->empty)
		return;
	entry_of(pe)->pins++;
}

/* Undo one pin; the entry may be evicted by a later miss. */
void
tv_packet_cache_unpin(struct tv_packet_cache *c,
    const struct tv_packet_events *pe)
{
	struct cache_entry *e;

	if (!pe || pe == &c->empty)
		return;
	e = entry_of(pe);
	if (e->pins)
		e->pins--;
}
