/*
 * The background pass over a trace set: a state walk (state-walk.c)
 * whose workers read what each record tells the state on every core,
 * while this thread applies the records in timeline order, records a
 * checkpoint (a state snapshot) every K events, and counts events per
 * class and per CPU (the per-packet counts land in the packet index as
 * packets are decoded).  The state at any time T is then the nearest
 * checkpoint before T plus a short replay.  Progress and the checkpoint
 * list are safe to read from the UI thread while it runs.
 *
 * Reading beside applying pays when what crosses between threads is
 * small: an earlier split that handed decoded value trees to the
 * applying thread was measured no faster than one thread (bench/
 * state-bench, 1 GB gen-ctf trace, 2 vCPUs: 7.1-7.9 s against 7.2-7.6 s),
 * as the applier's reads of trees made on the other core cost what the
 * reader saved.  The state walk hands over a packed input of a few bytes
 * a record (state-read.c).  Beside it, a counter thread decodes every
 * packet in file order through its own small packet cache, which fills
 * each packet's event count, so the exact "event N of M" and :goto #N
 * are ready long before the state pass ends.
 *
 * A trace followed as it is written grows under the pass: the walk leaves
 * a carry when it stops (its counts, and per stream the last event it
 * counted), and tv_state_index_extend() walks on from the last checkpoint
 * before anything new, so a growing trace is never walked again from its
 * start and no event is counted twice.
 */
#include "tview/tview.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tview/merge.h"
#include "tview/packet-cache.h"
#include "tview/util.h"
#include "state-priv.h"

/* CPUs counted per machine in the per-CPU counts. */
#define INDEX_MAX_CPU	1024
/* How long a held pass sleeps between two looks (5 ms). */
#define INDEX_HELD_NS		5000000L
/* Records between two checks of the cancel flag. */
#define INDEX_CANCEL_EVERY	4096
/* Owner ids remembered as already noted, per stretch (a power of two). */
#define INDEX_WHO_RECENT	256
/* The counter thread's packet cache: it only needs the counts. */
#define INDEX_COUNT_CACHE	((size_t)4 << 20)

/* Per-class counters of the set, published when a walk ends. */
struct index_counts {
	uint64_t	**classes;	/* per trace, n[trace] each */
	uint32_t	 *n;		/* the classes counted of each trace */
	uint32_t	  ntraces;
};

/* The last event of a stream a walk counted: later ones are new. */
struct index_mark {
	bool		 valid;
	uint64_t	 packet;
	uint64_t	 index;
	int64_t		 ts;
};

/*
 * What a walk leaves when it stops, for the next one to go on from
 * (tv_state_index_extend): the streams and their packet counts as they
 * were, and whether it reached their end.
 */
struct index_carry {
	bool			 kept;		/* a walk stopped cleanly */
	bool			 finished;	/* ... at the end */
	int64_t			 last_ts;	/* the last record walked */
	struct tv_stream	**streams;	/* [ordinal], as walked */
	uint64_t		*npackets;	/* their packets then */
	uint32_t		 nstreams;
};

struct tv_state_index {
	struct tv_trace_set	*set;
	uint64_t		 every;
	/* worker */
	pthread_t		 thread;
	bool			 started;
	int			 cancel;	/* atomic */
	int			 held;		/* atomic: tv_state_index_hold */
	int			 done;		/* atomic */
	int64_t			 reached;	/* atomic: last ts walked */
	uint64_t		 events;	/* atomic */
	bool			 from_cache;
	enum tv_walk_pages	 pages;		/* RELEASE, or SEQUENTIAL: batch */
	enum tv_status		 status;	/* of the pass, once done */
	struct tv_error		 err;
	/* checkpoints, appended by the worker under @lock */
	pthread_mutex_t		 lock;
	struct tv_state_ckpt	*ckpts;
	size_t			 nckpts;
	size_t			 ckpts_cap;
	/* the owners seen since the last checkpoint (the worker's) */
	int64_t			*who_ids;
	size_t			 nwho_ids;
	size_t			 who_cap;
	bool			 who_open;	/* the last one's is collecting */
	/* ids surely in who_ids: most events repeat a recent owner, and a
	   stretch's sort is then over its owners, not its events */
	int64_t			 who_recent[INDEX_WHO_RECENT];
	bool			 who_done;	/* every filter complete */
	/* counts, read once done; kept from one walk to the next */
	uint64_t		 cpu_events[INDEX_MAX_CPU];
	struct index_counts	 k;
	struct index_mark	*marks;		/* [ordinal] */
	uint32_t		 nmarks;
	/* where the next walk starts (tv_state_index_extend) */
	struct index_carry	 carry;
	bool			 resume;	/* not from the start: */
	bool			 resume_at_ck;	/* ... from resume_ck */
	struct tv_state_ckpt	 resume_ck;	/* owned while resume_at_ck */
	size_t			 snap_bytes;	/* of the checkpoints kept */
	uint64_t		 walked;	/* atomic: records this walk */
	/* queries (one thread at a time) */
	struct tv_merge		*qmerge;
	/* every owner name of the walk: complete once names_ok */
	struct tv_state_names	 names;
	bool			 names_ok;
	char			 last_name[INDEX_MAX_CPU][TV_THREAD_NAME_MAX];
};

static void	counts_free(struct index_counts *k);
static void	index_who_empty(struct tv_state_index *idx);

/* See state.h. */
struct tv_state_index *
tv_state_index_create(struct tv_trace_set *set, uint64_t every)
{
	struct tv_state_index *idx = tv_xcalloc(1, sizeof(*idx));

	idx->set = set;
	idx->every = every ? every : TV_STATE_CHECKPOINT_EVERY;
	idx->reached = TV_TIME_NONE;
	idx->pages = TV_PAGES_RELEASE;
	index_who_empty(idx);
	pthread_mutex_init(&idx->lock, NULL);
	return idx;
}

/* See state.h. */
void
tv_state_index_destroy(struct tv_state_index *idx)
{
	size_t i;

	if (idx == NULL)
		return;
	if (idx->started) {
		__atomic_store_n(&idx->cancel, 1, __ATOMIC_RELEASE);
		pthread_join(idx->thread, NULL);
	}
	for (i = 0; i < idx->nckpts; i++) {
		tv_state_snap_free(idx->ckpts[i].snap);
		free(idx->ckpts[i].who.words);
	}
	free(idx->ckpts);
	free(idx->who_ids);
	counts_free(&idx->k);
	free(idx->marks);
	free(idx->carry.streams);
	free(idx->carry.npackets);
	tv_state_snap_free(idx->resume_ck.snap);
	free(idx->resume_ck.who.words);
	if (idx->qmerge != NULL)
		tv_merge_destroy(idx->qmerge);
	tv_state_names_clear(&idx->names);
	pthread_mutex_destroy(&idx->lock);
	free(idx);
}

/* See state-priv.h. */
void
tv_state_names_add(struct tv_state_names *nm, const char *s, size_t len)
{
	const char *p;
	size_t before;

	if (len == 0)
		return;
	if (nm->pool == NULL)
		nm->pool = tv_intern_create();
	before = tv_intern_count(nm->pool);
	p = tv_intern(nm->pool, s, len);
	if (tv_intern_count(nm->pool) == before)
		return;
	TV_VEC_GROW(nm->v, nm->n, nm->cap);
	nm->v[nm->n++] = p;
}

/* See state-priv.h. */
void
tv_state_names_clear(struct tv_state_names *nm)
{
	if (nm->pool != NULL)
		tv_intern_destroy(nm->pool);
	free(nm->v);
	memset(nm, 0, sizeof(*nm));
}

/* Note the name of @ev's owner @o; the CPU's last one costs nothing. */
static void
index_name_add(struct tv_state_index *idx, const struct tv_event *ev,
    const struct tv_event_owner *o)
{
	int cpu = ev->stream->cpu;
	char *last;

	if (o->name[0] == '\0')
		return;
	if (cpu >= 0 && cpu < INDEX_MAX_CPU) {
		last = idx->last_name[cpu];
		if (memcmp(last, o->name, sizeof(o->name)) == 0)
			return;
		memcpy(last, o->name, sizeof(o->name));
	}
	tv_state_names_add(&idx->names, o->name,
	    strnlen(o->name, sizeof(o->name)));
}

/* See state.h. */
bool
tv_state_index_owner_names(struct tv_state_index *idx,
    const char *const **names, size_t *n)
{
	if (!__atomic_load_n(&idx->done, __ATOMIC_ACQUIRE) || !idx->names_ok)
		return false;
	*names = idx->names.v;
	*n = idx->names.n;
	return true;
}

/* The @k-th probe (0, 1, 2) of owner @id in a filter of @nbits. */
static uint32_t
who_bit(int64_t id, unsigned k, uint32_t nbits)
{
	uint64_t h = ((uint64_t)id + k) * UINT64_C(0x9e3779b97f4a7c15);

	h ^= h >> 31;
	h *= UINT64_C(0xbf58476d1ce4e5b9);
	h ^= h >> 29;
	return (uint32_t)(h & (nbits - 1));
}

/* Order of owner ids. */
static int
id_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* See state-priv.h. */
void
tv_state_who_build(struct tv_state_who *who, int64_t *ids, size_t n)
{
	size_t i, m = 0;
	uint32_t nbits = 64, b;
	unsigned k;

	who->nwords = 0;
	who->words = NULL;
	if (n > 0)	/* ids is NULL before the first owner */
		qsort(ids, n, sizeof(*ids), id_cmp);
	for (i = 0; i < n; i++)
		if (m == 0 || ids[i] != ids[m - 1])
			ids[m++] = ids[i];
	if (m > TV_STATE_WHO_MAX)
		return;
	while (nbits < 16 * m)
		nbits *= 2;
	who->nwords = nbits / 64;
	who->words = tv_xcalloc(who->nwords, sizeof(*who->words));
	for (i = 0; i < m; i++)
		for (k = 0; k < 3; k++) {
			b = who_bit(ids[i], k, nbits);
			who->words[b / 64] |= (uint64_t)1 << (b % 64);
		}
}

/* See state-priv.h. */
bool
tv_state_who_has(const struct tv_state_who *who, int64_t id)
{
	uint32_t nbits = who->nwords * 64, b;
	unsigned k;

	if (who->nwords == 0)
		return true;
	for (k = 0; k < 3; k++) {
		b = who_bit(id, k, nbits);
		if (!(who->words[b / 64] >> (b % 64) & 1))
			return false;
	}
	return true;
}

/* No owner noted for the stretch being walked. */
static void
index_who_empty(struct tv_state_index *idx)
{
	size_t i;

	idx->nwho_ids = 0;
	/* TV_TID_UNKNOWN is never noted */
	for (i = 0; i < INDEX_WHO_RECENT; i++)
		idx->who_recent[i] = TV_TID_UNKNOWN;
}

/*
 * The last checkpoint's owners are all seen: build its filter (under
 * the lock) and start collecting the next one's.
 */
static void
index_who_close(struct tv_state_index *idx)
{
	if (idx->nckpts > 0 && idx->who_open)
		tv_state_who_build(&idx->ckpts[idx->nckpts - 1].who,
		    idx->who_ids, idx->nwho_ids);
	idx->who_open = false;
	index_who_empty(idx);
}

/* Note owner @id of an event of the current checkpoint's stretch. */
static void
index_who_add(struct tv_state_index *idx, int64_t id)
{
	int64_t *recent = &idx->who_recent[((uint64_t)id *
	    UINT64_C(0x9e3779b97f4a7c15)) >> 56 & (INDEX_WHO_RECENT - 1)];

	if (*recent == id)
		return;
	*recent = id;
	TV_VEC_GROW(idx->who_ids, idx->nwho_ids, idx->who_cap);
	idx->who_ids[idx->nwho_ids++] = id;
}

/*
 * Append a checkpoint of @s before record @ev (the @ordinal-th event);
 * returns the bytes it holds.
 */
static size_t
index_checkpoint(struct tv_state_index *idx, const struct tv_state *s,
    const struct tv_event *ev, uint64_t ordinal)
{
	struct tv_state_ckpt ck;

	ck.stream = ev->stream->ordinal;
	ck.packet = ev->packet;
	ck.index = ev->index;
	ck.ts = ev->rec.ts;
	ck.ordinal = ordinal;
	ck.snap = tv_state_save(s);
	memset(&ck.who, 0, sizeof(ck.who));
	pthread_mutex_lock(&idx->lock);
	index_who_close(idx);
	TV_VEC_GROW(idx->ckpts, idx->nckpts, idx->ckpts_cap);
	idx->ckpts[idx->nckpts++] = ck;
	idx->who_open = true;
	pthread_mutex_unlock(&idx->lock);
	return tv_state_snap_bytes(ck.snap);
}

/* Grow @k to the traces and classes @set has now (a followed trace gains
 * both), new counters at zero. */
static void
counts_grow(struct index_counts *k, const struct tv_trace_set *set)
{
	uint32_t i, n;

	if (set->ntraces > k->ntraces) {
		k->classes = tv_xreallocarray(k->classes, set->ntraces,
		    sizeof(*k->classes));
		k->n = tv_xreallocarray(k->n, set->ntraces, sizeof(*k->n));
		for (i = k->ntraces; i < set->ntraces; i++) {
			k->classes[i] = NULL;
			k->n[i] = 0;
		}
		k->ntraces = set->ntraces;
	}
	for (i = 0; i < k->ntraces; i++) {
		n = set->traces[i]->nclasses;
		if (n <= k->n[i])
			continue;
		k->classes[i] = tv_xreallocarray(k->classes[i], n,
		    sizeof(uint64_t));
		memset(k->classes[i] + k->n[i], 0,
		    (n - k->n[i]) * sizeof(uint64_t));
		k->n[i] = n;
	}
}

/* Forget every count. */
static void
counts_free(struct index_counts *k)
{
	uint32_t i;

	for (i = 0; i < k->ntraces; i++)
		free(k->classes[i]);
	free(k->classes);
	free(k->n);
	memset(k, 0, sizeof(*k));
}

/* Store the class counts into the model (atomically: the UI reads). */
static void
index_publish_counts(struct tv_trace_set *set, struct index_counts *k)
{
	struct tv_trace *tr;
	uint32_t i, j;

	for (i = 0; i < k->ntraces && i < set->ntraces; i++) {
		tr = set->traces[i];
		for (j = 0; j < k->n[i] && j < tr->nclasses; j++)
			__atomic_store_n(&tr->classes[j]->count,
			    k->classes[i][j], __ATOMIC_RELAXED);
	}
}

/* Index of @tr in @set. */
static uint32_t
index_trace_no(const struct tv_trace_set *set, const struct tv_trace *tr)
{
	uint32_t i;

	for (i = 0; i < set->ntraces; i++)
		if (set->traces[i] == tr)
			return i;
	return 0;
}

/* What the counter thread needs: the set and when to stop. */
struct index_counter {
	struct tv_trace_set	*set;
	int			*cancel;	/* the index's, atomic */
	int			*held;		/* the index's, atomic */
	int			 stop;		/* atomic: the walk ended */
};

/* While @held (tv_state_index_hold) and not @cancel: wait, idle. */
static void
index_wait_held(const int *held, const int *cancel)
{
	struct timespec ts = { 0, INDEX_HELD_NS };

	while (__atomic_load_n(held, __ATOMIC_ACQUIRE) &&
	    !__atomic_load_n(cancel, __ATOMIC_ACQUIRE))
		nanosleep(&ts, NULL);
}

/* See state.h. */
void
tv_state_index_hold(struct tv_state_index *idx, bool hold)
{
	__atomic_store_n(&idx->held, hold ? 1 : 0, __ATOMIC_RELEASE);
}

/*
 * Counter thread: decode every packet whose event count is unknown, so
 * that the packet index holds every count early.  Decoding errors are the
 * walk's to report; here they only leave the count as decoded.
 */
static void *
index_counter(void *arg)
{
	struct index_counter *c = arg;
	struct tv_packet_cache *pc;
	struct tv_stream *s;
	uint32_t i;
	uint64_t j;

	pc = tv_packet_cache_create(INDEX_COUNT_CACHE);
	/* tests: TVIEW_TEST_SLOW_COUNTER=MS holds it there, so that the
	   walk ends first and must leave every count known itself */
	tv_test_hold("TVIEW_TEST_SLOW_COUNTER");
	for (i = 0; i < c->set->nstreams; i++) {
		s = c->set->streams[i];
		for (j = 0; j < s->npackets; j++) {
			/* not held past the walk's end: it joins this */
			if (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE))
				index_wait_held(c->held, c->cancel);
			if (__atomic_load_n(c->cancel, __ATOMIC_ACQUIRE) ||
			    __atomic_load_n(&c->stop, __ATOMIC_ACQUIRE))
				goto out;
			if (__atomic_load_n(&s->packets[j].event_count,
			    __ATOMIC_RELAXED) == TV_COUNT_UNKNOWN)
				(void)tv_packet_cache_get(pc, s, j);
		}
	}
out:
	tv_packet_cache_destroy(pc);
	return NULL;
}

/*
 * Count event @ev unless an earlier walk did (it lies at or before its
 * stream's mark): each event is counted once however often the trace
 * grows and the walk goes back over its last stretch.
 */
static void
index_count(struct tv_state_index *idx, const struct tv_event *ev)
{
	struct index_mark *mk = &idx->marks[ev->stream->ordinal];
	uint32_t i;

	if (mk->valid && (ev->packet < mk->packet ||
	    (ev->packet == mk->packet && ev->index <= mk->index)))
		return;
	mk->valid = true;
	mk->packet = ev->packet;
	mk->index = ev->index;
	mk->ts = ev->rec.ts;
	if (ev->stream->cpu >= 0 && ev->stream->cpu < INDEX_MAX_CPU)
		idx->cpu_events[ev->stream->cpu]++;
	i = index_trace_no(idx->set, ev->stream->trace);
	if (i < idx->k.ntraces && ev->rec.class_index < idx->k.n[i])
		idx->k.classes[i][ev->rec.class_index]++;
}

/* Note where the walk stopped, for the next one (tv_state_index_extend). */
static void
index_keep_carry(struct tv_state_index *idx, bool finished, int64_t last_ts)
{
	struct index_carry *c = &idx->carry;
	const struct tv_trace_set *set = idx->set;
	uint32_t i;

	c->nstreams = set->nstreams;
	c->streams = tv_xreallocarray(c->streams, TV_MAX(c->nstreams, 1u),
	    sizeof(*c->streams));
	c->npackets = tv_xreallocarray(c->npackets, TV_MAX(c->nstreams, 1u),
	    sizeof(*c->npackets));
	for (i = 0; i < c->nstreams; i++) {
		c->streams[i] = set->streams[i];
		c->npackets[i] = set->streams[i]->npackets;
	}
	c->finished = finished;
	c->last_ts = last_ts;
	c->kept = true;
}

/*
 * Where the walk starts: the trace start with an empty state (false), or
 * the checkpoint tv_state_index_extend() chose (true), the state restored
 * from it and its record in @first; *@n: the events before it.
 */
static bool
index_walk_start(struct tv_state_index *idx, struct tv_state *s,
    struct tv_event *first, uint64_t *n)
{
	*n = 0;
	if (!idx->resume_at_ck)
		return false;
	tv_state_restore(s, idx->resume_ck.snap);
	memset(first, 0, sizeof(*first));
	first->stream = idx->set->streams[idx->resume_ck.stream];
	first->packet = idx->resume_ck.packet;
	first->index = idx->resume_ck.index;
	first->rec.ts = idx->resume_ck.ts;
	tv_state_snap_free(idx->resume_ck.snap);
	idx->resume_ck.snap = NULL;
	idx->resume_at_ck = false;
	*n = idx->resume_ck.ordinal;
	return true;
}

/* Give back every page of @set's mappings (the browser's pass is done). */
static void
index_release_all(const struct tv_trace_set *set)
{
	uint32_t i, f;

	for (i = 0; i < set->nstreams; i++)
		for (f = 0; f < set->streams[i]->nfiles; f++)
			tv_mapfile_release(&set->streams[i]->files[f], 0,
			    set->streams[i]->files[f].size);
}

/*
 * The pass itself: walk, apply, count, checkpoint; honours cancel.  The
 * records are read on every core (tv_state_walk) and applied here.
 */
static enum tv_status
index_walk(struct tv_state_index *idx, struct tv_error *err)
{
	struct index_counter ctr = { idx->set, &idx->cancel, &idx->held, 0 };
	pthread_t counter;
	bool counting;
	struct tv_trace_set *set = idx->set;
	struct tv_state_walk *w;
	struct tv_pwalk_item it;
	struct tv_state *s;
	struct tv_event first;
	struct tv_event_owner owner;
	enum tv_status st = TV_OK;
	uint64_t n, recs = 0, every = idx->every, next_ck;
	int64_t last_ts = TV_TIME_NONE;
	size_t snap_bytes = idx->snap_bytes;
	bool resume;

	counts_grow(&idx->k, set);
	if (set->nstreams > idx->nmarks) {
		idx->marks = tv_xreallocarray(idx->marks, set->nstreams,
		    sizeof(*idx->marks));
		memset(idx->marks + idx->nmarks, 0, (set->nstreams -
		    idx->nmarks) * sizeof(*idx->marks));
		idx->nmarks = set->nstreams;
	}
	s = tv_state_create(set);
	resume = index_walk_start(idx, s, &first, &n);
	next_ck = n;
	/*
	 * The browser's pass keeps the pages while it runs: the scans a
	 * key starts read the same ones alongside it, and each release
	 * would have them read again (an absent :pid typed at open took a
	 * third longer); it gives them all back once done.
	 */
	w = tv_state_walk_start(set, s, INT64_MIN, INT64_MAX,
	    resume ? &first : NULL, NULL, NULL, 0,
	    idx->pages == TV_PAGES_SEQUENTIAL ? TV_PAGES_SEQUENTIAL :
	    TV_PAGES_KEEP);
	/* the counts come early for the browser; a batch pass is only
	   slowed by a second reading of every packet */
	counting = idx->pages != TV_PAGES_SEQUENTIAL &&
	    pthread_create(&counter, NULL, index_counter, &ctr) == 0;
	for (;;) {
		if (++recs % INDEX_CANCEL_EVERY == 0) {
			index_wait_held(&idx->held, &idx->cancel);
			if (__atomic_load_n(&idx->cancel, __ATOMIC_ACQUIRE)) {
				st = TV_CANCELLED;
				break;
			}
		}
		st = tv_state_walk_next(w, &it);
		if (st == TV_END) {
			st = TV_OK;
			break;
		}
		if (st != TV_OK)
			break;
		if (it.ev.rec.kind == TV_REC_EVENT) {
			if (n == next_ck) {
				snap_bytes += index_checkpoint(idx, s, &it.ev,
				    n);
				/* tests: TVIEW_TEST_SLOW_PASS=MS holds the
				 * walk there, two stretches' owner filters
				 * built and the rest not walked */
				if (idx->nckpts == 3)
					tv_test_hold("TVIEW_TEST_SLOW_PASS");
				/* bounded memory whatever the thread count */
				if (snap_bytes > TV_STATE_CHECKPOINT_BUDGET) {
					every *= 2;
					snap_bytes /= 2;
				}
				next_ck = n + every;
			}
			n++;
			index_count(idx, &it.ev);
		}
		tv_state_walk_apply(w, &owner);
		if (it.ev.rec.kind == TV_REC_EVENT) {
			index_name_add(idx, &it.ev, &owner);
			if (owner.tid != TV_TID_UNKNOWN)
				index_who_add(idx, owner.tid);
			if (owner.pid != TV_TID_UNKNOWN &&
			    owner.pid != owner.tid)
				index_who_add(idx, owner.pid);
		}
		if (it.ev.rec.ts != TV_TIME_NONE) {
			last_ts = it.ev.rec.ts;
			__atomic_store_n(&idx->reached, it.ev.rec.ts,
			    __ATOMIC_RELAXED);
		}
		__atomic_store_n(&idx->events, n, __ATOMIC_RELAXED);
		__atomic_store_n(&idx->walked, recs, __ATOMIC_RELAXED);
	}
	if (counting) {
		__atomic_store_n(&ctr.stop, 1, __ATOMIC_RELEASE);
		pthread_join(counter, NULL);
	}
	idx->every = every;
	idx->snap_bytes = snap_bytes;
	if (st == TV_OK || st == TV_CANCELLED)
		index_keep_carry(idx, st == TV_OK, last_ts);
	if (st == TV_OK) {
		pthread_mutex_lock(&idx->lock);
		index_who_close(idx);
		idx->who_done = true;
		pthread_mutex_unlock(&idx->lock);
		idx->names_ok = true;
		index_publish_counts(set, &idx->k);
		if (tv_state_walk_error(w)->status != TV_OK && err != NULL)
			*err = *tv_state_walk_error(w);
		if (idx->pages == TV_PAGES_RELEASE)
			index_release_all(set);
	} else if (st != TV_CANCELLED) {
		tv_error_set(err, st, NULL, "%s", tv_status_str(st));
	}
	tv_state_walk_destroy(w);
	tv_state_destroy(s);
	return st;
}

/* Try the cache file; true if the checkpoints came from it. */
static bool
index_load_cache(struct tv_state_index *idx)
{
	struct tv_state_ckpt *ck = NULL;
	size_t nck = 0;
	uint64_t nev = 0;
	char *path;
	enum tv_status st;

	path = tv_state_cache_path(idx->set);
	if (path == NULL)
		return false;
	tv_state_names_clear(&idx->names);
	memset(idx->last_name, 0, sizeof(idx->last_name));
	st = tv_state_cache_load(path, idx->set, &ck, &nck, &nev,
	    &idx->names, NULL);
	free(path);
	if (st != TV_OK) {
		tv_state_names_clear(&idx->names);
		return false;
	}
	idx->names_ok = true;
	pthread_mutex_lock(&idx->lock);
	idx->ckpts = ck;
	idx->nckpts = idx->ckpts_cap = nck;
	idx->who_done = true;	/* under the lock: owner seeks read it */
	pthread_mutex_unlock(&idx->lock);
	__atomic_store_n(&idx->events, nev, __ATOMIC_RELAXED);
	__atomic_store_n(&idx->reached, idx->set->ts_end, __ATOMIC_RELAXED);
	idx->from_cache = true;
	return true;
}

/* Save the checkpoints for the next run; failures only cost speed. */
static void
index_save_cache(struct tv_state_index *idx)
{
	char *path = tv_state_cache_path(idx->set);

	if (path == NULL)
		return;
	(void)tv_state_cache_save(path, idx->set, idx->ckpts, idx->nckpts,
	    idx->events, &idx->names, NULL);
	free(path);
}

/* The whole pass: cache or walk, then mark done. */
static enum tv_status
index_pass(struct tv_state_index *idx, bool use_cache)
{
	enum tv_status st = TV_OK;

	tv_error_clear(&idx->err);
	/* a walk that goes on from an earlier one is of a trace still
	 * being written: no cache either way */
	if (idx->resume) {
		st = index_walk(idx, &idx->err);
	} else if (!use_cache || !index_load_cache(idx)) {
		st = index_walk(idx, &idx->err);
		if (st == TV_OK && use_cache)
			index_save_cache(idx);
	}
	idx->status = st;
	__atomic_store_n(&idx->done, 1, __ATOMIC_RELEASE);
	return st;
}

/* Worker thread entry; the use_cache flag rides in from_cache. */
static void *
index_thread(void *arg)
{
	struct tv_state_index *idx = arg;
	bool use_cache = idx->from_cache;

	idx->from_cache = false;
	(void)index_pass(idx, use_cache);
	return NULL;
}

/* See state.h. */
enum tv_status
tv_state_index_start(struct tv_state_index *idx, bool use_cache,
    struct tv_error *err)
{
	if (idx->started)
		return TV_OK;
	idx->from_cache = use_cache;
	if (pthread_create(&idx->thread, NULL, index_thread, idx) != 0) {
		idx->from_cache = false;
		return tv_error_set(err, TV_NOMEM, NULL,
		    _("cannot start the background pass"));
	}
	idx->started = true;
	return TV_OK;
}

/* See state.h. */
void
tv_state_index_set_sequential(struct tv_state_index *idx)
{
	idx->pages = TV_PAGES_SEQUENTIAL;
}

/* See state.h. */
enum tv_walk_pages
tv_state_index_pages(const struct tv_state_index *idx)
{
	return idx->pages;
}

/* See state.h. */
enum tv_status
tv_state_index_run(struct tv_state_index *idx, bool use_cache,
    struct tv_error *err)
{
	enum tv_status st;

	if (idx->started)
		return tv_error_set(err, TV_UNSUPPORTED, NULL,
		    "state index already running");
	st = index_pass(idx, use_cache);
	if (st != TV_OK && err != NULL)
		*err = idx->err;
	return st;
}

/* See state.h. */
void
tv_state_index_stop(struct tv_state_index *idx)
{
	if (!idx->started)
		return;
	__atomic_store_n(&idx->cancel, 1, __ATOMIC_RELEASE);
	pthread_join(idx->thread, NULL);
	idx->started = false;
	__atomic_store_n(&idx->cancel, 0, __ATOMIC_RELEASE);
}

/* Drop checkpoints @from.. (under the lock: queries read them). */
static void
index_drop_ckpts(struct tv_state_index *idx, size_t from)
{
	size_t i;

	pthread_mutex_lock(&idx->lock);
	for (i = from; i < idx->nckpts; i++) {
		if (idx->ckpts[i].snap != NULL)
			idx->snap_bytes -= TV_MIN(idx->snap_bytes,
			    tv_state_snap_bytes(idx->ckpts[i].snap));
		tv_state_snap_free(idx->ckpts[i].snap);
		free(idx->ckpts[i].who.words);
	}
	idx->nckpts = TV_MIN(idx->nckpts, from);
	idx->who_open = false;
	idx->who_done = false;
	index_who_empty(idx);
	pthread_mutex_unlock(&idx->lock);
}

/* Back to nothing walked: every checkpoint, count and mark forgotten. */
static void
index_forget(struct tv_state_index *idx)
{
	index_drop_ckpts(idx, 0);
	idx->snap_bytes = 0;
	counts_free(&idx->k);
	if (idx->nmarks > 0)	/* none when the pass came from the cache */
		memset(idx->marks, 0, idx->nmarks * sizeof(*idx->marks));
	memset(idx->cpu_events, 0, sizeof(idx->cpu_events));
	tv_state_names_clear(&idx->names);
	memset(idx->last_name, 0, sizeof(idx->last_name));
	idx->from_cache = false;
	idx->resume_at_ck = false;
	__atomic_store_n(&idx->events, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&idx->reached, TV_TIME_NONE, __ATOMIC_RELAXED);
}

/*
 * The earliest time a record the last walk did not see may have: the
 * first packet of a stream that appeared, the last event counted of a
 * stream that gained packets (a stream's records are in time order), and
 * where the walk stopped if it did not reach the end.  INT64_MIN when
 * the carry cannot be used (streams renumbered: the merge order of
 * records with equal times could change; classes added, see below).
 */
static int64_t
index_new_since(const struct tv_state_index *idx)
{
	const struct index_carry *c = &idx->carry;
	const struct tv_trace_set *set = idx->set;
	const struct tv_stream *s;
	int64_t r, since;
	uint32_t i;

	if (!c->kept || idx->from_cache ||
	    tv_trace_set_renumbered(set, c->streams, c->nstreams))
		return INT64_MIN;
	/*
	 * The metadata grew: a packet decoded before may hold events of
	 * the new classes past where its decoding stopped, which the driver
	 * does not always say.  Rare (a provider registering): start over.
	 */
	if (tv_trace_set_classes_grew(set, idx->k.n, idx->k.ntraces))
		return INT64_MIN;
	since = c->finished ? INT64_MAX : c->last_ts;
	if (since == TV_TIME_NONE)
		return INT64_MIN;
	for (i = 0; i < set->nstreams; i++) {
		s = set->streams[i];
		if (i < c->nstreams && s->npackets == c->npackets[i])
			continue;
		if (i < idx->nmarks && idx->marks[i].valid)
			r = idx->marks[i].ts;
		else if (s->npackets > 0)
			r = s->packets[0].ts_begin;
		else
			continue;
		if (r == TV_TIME_NONE)
			return INT64_MIN;
		since = TV_MIN(since, r);
	}
	return since;
}

/* See state.h. */
enum tv_status
tv_state_index_extend(struct tv_state_index *idx, struct tv_error *err)
{
	int64_t since;
	size_t c;

	tv_state_index_stop(idx);
	since = index_new_since(idx);
	if (since == INT64_MIN) {
		index_forget(idx);
		idx->resume = false;
	} else {
		/* the last checkpoint strictly before anything new: the
		 * records before it, and their order, did not change */
		pthread_mutex_lock(&idx->lock);
		for (c = idx->nckpts; c > 0 && idx->ckpts[c - 1].ts >= since;
		    c--)
			;
		if (c > 0) {
			idx->resume_ck = idx->ckpts[c - 1];
			free(idx->resume_ck.who.words);
			memset(&idx->resume_ck.who, 0,
			    sizeof(idx->resume_ck.who));
			idx->ckpts[c - 1].snap = NULL;
			idx->ckpts[c - 1].who.words = NULL;
			idx->resume_at_ck = true;
		}
		pthread_mutex_unlock(&idx->lock);
		index_drop_ckpts(idx, c > 0 ? c - 1 : 0);
		if (c > 0)
			idx->snap_bytes -= TV_MIN(idx->snap_bytes,
			    tv_state_snap_bytes(idx->resume_ck.snap));
		__atomic_store_n(&idx->events,
		    c > 0 ? idx->resume_ck.ordinal : 0, __ATOMIC_RELAXED);
		__atomic_store_n(&idx->reached,
		    c > 0 ? idx->resume_ck.ts : TV_TIME_NONE,
		    __ATOMIC_RELAXED);
		idx->resume = true;
	}
	idx->carry.kept = false;
	/* kept when resuming: a superset until the walk completes them */
	idx->names_ok = false;
	__atomic_store_n(&idx->walked, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&idx->done, 0, __ATOMIC_RELEASE);
	/* the query merger's arrays are per stream */
	if (idx->qmerge != NULL) {
		tv_merge_destroy(idx->qmerge);
		idx->qmerge = NULL;
	}
	return tv_state_index_start(idx, false, err);
}

/* See state.h. */
uint64_t
tv_state_index_walked(const struct tv_state_index *idx)
{
	return __atomic_load_n(&idx->walked, __ATOMIC_RELAXED);
}

/* See state.h. */
double
tv_state_index_progress(const struct tv_state_index *idx, bool *done)
{
	int64_t r = __atomic_load_n(&idx->reached, __ATOMIC_RELAXED);
	int64_t b = idx->set->ts_begin, e = idx->set->ts_end;
	bool d = __atomic_load_n(&idx->done, __ATOMIC_ACQUIRE) != 0;

	if (done != NULL)
		*done = d;
	if (d)
		return 1.0;
	if (r == TV_TIME_NONE || e <= b || r <= b)
		return 0.0;
	if (r >= e)
		return 1.0;
	return (double)(r - b) / (double)(e - b);
}

/* See state.h. */
uint64_t
tv_state_index_events(const struct tv_state_index *idx)
{
	return __atomic_load_n(&idx->events, __ATOMIC_RELAXED);
}

/* See state.h. */
size_t
tv_state_index_checkpoints(const struct tv_state_index *idx)
{
	struct tv_state_index *w = (struct tv_state_index *)idx;
	size_t n;

	pthread_mutex_lock(&w->lock);
	n = w->nckpts;
	pthread_mutex_unlock(&w->lock);
	return n;
}

/* See state.h. */
uint64_t
tv_state_index_cpu_events(const struct tv_state_index *idx, int32_t cpu)
{
	if (cpu < 0 || cpu >= INDEX_MAX_CPU ||
	    !__atomic_load_n(&idx->done, __ATOMIC_ACQUIRE))
		return 0;
	return idx->cpu_events[cpu];
}

/* See state.h. */
bool
tv_state_index_from_cache(const struct tv_state_index *idx)
{
	return __atomic_load_n(&idx->done, __ATOMIC_ACQUIRE) &&
	    idx->from_cache;
}

/*
 * The last checkpoint before which every record is at or before @ts
 * (or strictly before @ev when @ev is not NULL); false if none.
 */
static bool
index_find(struct tv_state_index *idx, int64_t ts, const struct tv_event *ev,
    struct tv_state_ckpt *out)
{
	struct tv_event at;
	size_t lo = 0, hi, mid;
	bool ok = false;

	pthread_mutex_lock(&idx->lock);
	hi = idx->nckpts;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ev != NULL) {
			at.stream = idx->set->streams[idx->ckpts[mid].stream];
			at.packet = idx->ckpts[mid].packet;
			at.index = idx->ckpts[mid].index;
			at.rec.ts = idx->ckpts[mid].ts;
			at.rec.bit_offset = 0;
			if (tv_event_cmp(&at, ev) <= 0)
				lo = mid + 1;
			else
				hi = mid;
		} else if (idx->ckpts[mid].ts <= ts) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	if (lo > 0) {
		*out = idx->ckpts[lo - 1];
		ok = true;
	}
	pthread_mutex_unlock(&idx->lock);
	return ok;
}

/* Shared by tv_state_at and tv_state_before_event. */
static enum tv_status
index_replay(struct tv_state_index *idx, int64_t ts,
    const struct tv_event *stop, struct tv_state *out, struct tv_error *err)
{
	struct tv_state_ckpt ck;
	struct tv_event ev;
	enum tv_status st;

	if (idx->qmerge == NULL)
		idx->qmerge = tv_merge_create(idx->set);
	if (index_find(idx, ts, stop, &ck) && ck.stream < idx->set->nstreams) {
		tv_state_restore(out, ck.snap);
		memset(&ev, 0, sizeof(ev));
		ev.stream = idx->set->streams[ck.stream];
		ev.packet = ck.packet;
		ev.index = ck.index;
		ev.rec.ts = ck.ts;
		tv_merge_seek_event(idx->qmerge, &ev);
	} else {
		tv_state_clear(out);
		tv_merge_seek_begin(idx->qmerge);
	}
	for (;;) {
		st = tv_merge_next(idx->qmerge, &ev);
		if (st == TV_END)
			return TV_OK;
		if (st != TV_OK)
			return tv_error_set(err, st, NULL, "%s",
			    tv_status_str(st));
		if (stop != NULL) {
			if (ev.stream == stop->stream &&
			    ev.packet == stop->packet &&
			    ev.index == stop->index)
				return TV_OK;
			if (tv_event_cmp(&ev, stop) > 0)
				return TV_OK;
		} else if (ev.rec.ts != TV_TIME_NONE && ev.rec.ts > ts) {
			return TV_OK;
		}
		(void)tv_state_apply(out, &ev, NULL, NULL);
	}
}

/* See state.h. */
enum tv_status
tv_state_at(struct tv_state_index *idx, int64_t ts, struct tv_state *out,
    struct tv_error *err)
{
	return index_replay(idx, ts, NULL, out, err);
}

/* See state.h. */
enum tv_status
tv_state_before_event(struct tv_state_index *idx, const struct tv_event *ev,
    struct tv_state *out, struct tv_error *err)
{
	return index_replay(idx, ev->rec.ts, ev, out, err);
}

/* See state.h. */
bool
tv_state_near(struct tv_state_index *idx, int64_t ts, struct tv_state *out,
    int64_t *at)
{
	struct tv_state_ckpt ck;

	if (!index_find(idx, ts, NULL, &ck))
		return false;
	tv_state_restore(out, ck.snap);
	*at = ck.ts;
	return true;
}

/* See state.h. */
uint64_t
tv_state_index_events_between(struct tv_state_index *idx, int64_t t0,
    int64_t t1)
{
	uint64_t first = 0, last = TV_COUNT_UNKNOWN;
	int64_t r = __atomic_load_n(&idx->reached, __ATOMIC_RELAXED);
	size_t i;

	pthread_mutex_lock(&idx->lock);
	for (i = 0; i < idx->nckpts; i++) {
		if (idx->ckpts[i].ts <= t0)
			first = idx->ckpts[i].ordinal;
		if (idx->ckpts[i].ts > t1) {
			last = idx->ckpts[i].ordinal;
			break;
		}
	}
	/* the events walked so far bound those up to where the pass is */
	if (last == TV_COUNT_UNKNOWN && (__atomic_load_n(&idx->done,
	    __ATOMIC_ACQUIRE) || (r != TV_TIME_NONE && r >= t1)))
		last = __atomic_load_n(&idx->events, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&idx->lock);
	return last == TV_COUNT_UNKNOWN ? last : last - first;
}

/* See state-priv.h. */
bool
tv_state_index_ckpt_before(struct tv_state_index *idx,
    const struct tv_event *ev, size_t back, struct tv_state *out,
    struct tv_event *pos)
{
	struct tv_event at;
	size_t lo = 0, hi, mid;
	bool ok = false;

	pthread_mutex_lock(&idx->lock);
	hi = idx->nckpts;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		memset(&at, 0, sizeof(at));
		at.stream = idx->set->streams[idx->ckpts[mid].stream];
		at.packet = idx->ckpts[mid].packet;
		at.index = idx->ckpts[mid].index;
		at.rec.ts = idx->ckpts[mid].ts;
		if (tv_event_cmp(&at, ev) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > back && idx->ckpts[lo - 1 - back].stream <
	    idx->set->nstreams) {
		const struct tv_state_ckpt *ck = &idx->ckpts[lo - 1 - back];

		tv_state_restore(out, ck->snap);
		memset(pos, 0, sizeof(*pos));
		pos->stream = idx->set->streams[ck->stream];
		pos->packet = ck->packet;
		pos->index = ck->index;
		pos->rec.ts = ck->ts;
		ok = true;
	}
	pthread_mutex_unlock(&idx->lock);
	return ok;
}

/* Checkpoint @i's position as an event (@set's stream pointer). */
static void
ckpt_event(const struct tv_state_index *idx, size_t i, struct tv_event *at)
{
	const struct tv_state_ckpt *ck = &idx->ckpts[i];

	memset(at, 0, sizeof(*at));
	at->stream = idx->set->streams[ck->stream];
	at->packet = ck->packet;
	at->index = ck->index;
	at->rec.ts = ck->ts;
}

/* See state.h. */
int
tv_state_index_owner_seek(struct tv_state_index *idx, int64_t id,
    const struct tv_event *from, int dir, struct tv_state_stretch *out)
{
	struct tv_event ck;
	size_t lo = 0, hi, mid, j, c, closed;
	bool found = false, running;
	int cmp;

	pthread_mutex_lock(&idx->lock);
	running = !__atomic_load_n(&idx->done, __ATOMIC_ACQUIRE);
	/* a pass that failed or was stopped left filters it cannot vouch
	 * for: look everywhere */
	if (!idx->who_done && !running) {
		pthread_mutex_unlock(&idx->lock);
		return 0;
	}
	/* the filters built: every stretch but the one still collecting */
	closed = idx->nckpts - (idx->nckpts > 0 && idx->who_open &&
	    !idx->who_done ? 1 : 0);
	/*
	 * j: the stretch of the first event to look at: forwards the last
	 * checkpoint at or before @from, backwards the last one before it
	 * (a backward walk looks at the events before @from).
	 */
	hi = idx->nckpts;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		ckpt_event(idx, mid, &ck);
		cmp = tv_event_cmp(&ck, from);
		if (cmp < 0 || (cmp == 0 && dir > 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (idx->nckpts == 0) {
		/* no event walked yet, or none at all */
		pthread_mutex_unlock(&idx->lock);
		return idx->who_done ? -1 : 2;
	}
	if (lo == 0) {
		/* before the first checkpoint, the first event: none before */
		pthread_mutex_unlock(&idx->lock);
		return dir < 0 ? -1 : 0;
	}
	j = lo - 1;
	c = j;
	if (dir > 0) {
		for (; c < closed && !found; c++)
			found = tv_state_who_has(&idx->ckpts[c].who, id);
		c--;
	} else if (j < closed) {
		for (c++; c-- > 0 && !found;)
			found = tv_state_who_has(&idx->ckpts[c].who, id);
		c++;
	}
	if (!found) {
		pthread_mutex_unlock(&idx->lock);
		/* what the pass has not reached may still hold one */
		return idx->who_done ? -1 : 2;
	}
	out->from_here = c == j;
	if (dir > 0) {
		ckpt_event(idx, c, &out->start);
		out->has_stop = c + 1 < idx->nckpts;
		if (out->has_stop)
			ckpt_event(idx, c + 1, &out->stop);
	} else {
		out->has_stop = true;
		ckpt_event(idx, c, &out->stop);
		if (c + 1 < idx->nckpts)
			ckpt_event(idx, c + 1, &out->start);
		else
			out->from_here = true;	/* the last stretch */
	}
	pthread_mutex_unlock(&idx->lock);
	return 1;
}
