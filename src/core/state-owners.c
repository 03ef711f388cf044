/*
 * Every name and every id (tid or pid) an event's owner can have in a
 * trace set, read before the background pass has met them all
 * (tv_state_owners_scan): a search for text that no task name holds can
 * then leave the task column alone, as it does once the pass is over
 * (tv_state_index_owner_names), and :pid of a PID no record names
 * answers at once instead of waiting for the pass's owner filters.
 * Workers, one per core, take whole packets in any order and read what
 * each record tells the state (tv_state_read) without applying it; they
 * keep only the names and ids it carries: those a rule reads (a
 * switch's, a fork's, an exec's file, a wake-up's, a statedump's) and
 * the owner fields of an event's own context (tid, pid, procname).
 * With the threads the trace names before any event and the idle tasks,
 * those are every source of a thread's name and id in the state
 * (state-apply.c: a CPU's current thread is a rule's or a context's tid,
 * a pid is a rule's, a context's or a tid), so the sets hold every owner
 * name and id the pass would find; a name perhaps longer (not cut to a
 * comm's 15 bytes, so a long one is kept cut too: a cut inside a UTF-8
 * character shows as an escape), an id perhaps no event's owner (a
 * parent's ppid).  No name or id depends on the order the records are
 * read in (what the scan learns of a class holds for all its records:
 * owners_learn), so the scan needs no merge of the streams: that merge
 * on one thread was the bound of an ordered walk.
 */
#include "tview/tview.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/owner.h"
#include "tview/packet-cache.h"
#include "tview/util.h"
#include "state-priv.h"

/* Records between two asks of the caller's stop function. */
#define OWNERS_STOP_EVERY	4096
/* Record-array budget of one worker's packet cache: a packet at a time. */
#define OWNERS_CACHE_BYTES	(4u << 20)
/* Most workers, whatever the core count. */
#define OWNERS_MAX_THREADS	16
/* Slots of a worker's cache of the ids it added last (a power of two). */
#define OWNERS_RECENT		4096
/* Ids a worker's list holds before it is first made unique. */
#define OWNERS_IDS_COMPACT	(1u << 20)

struct tv_owner_set {
	struct tv_state_names	 names;
	int64_t			*ids;		/* sorted, each once */
	size_t			 nids;
};

/* One packet to read. */
struct owners_unit {
	struct tv_stream		*s;
	const struct state_trace	*st;	/* its trace's facts */
	uint8_t				*unsure;	/* its trace's, per
							   class (below) */
	uint64_t			 pkt;
};

/* The scan shared by its workers. */
struct owners_job {
	struct tv_state		*s;
	struct owners_unit	*units;
	uint64_t		 nunits;
	uint64_t		 next;		/* atomic: next unit to take */
	int			 stop;		/* atomic: the caller said so */
	bool			(*stop_fn)(void *arg);
	void			*stop_arg;
	/* a class's owner fact is learnt once, by one worker at a time */
	pthread_mutex_t		 learn;
	/* per trace and class (atomic): its records may or may not name
	   their owner, each must be read */
	uint8_t			**unsure;
};

/*
 * Ids as they come, each perhaps several times: appending is a store
 * where a hash set's probe missed the cache once its table outgrew it
 * (a trace's tids number in the hundreds of thousands).  Sorted and
 * made unique when it doubles, so it holds at most twice the distinct
 * ids (and OWNERS_IDS_COMPACT).
 */
struct id_list {
	int64_t			*v;
	size_t			 n;
	size_t			 cap;
	size_t			 compact_at;
};

/*
 * One worker's names and ids, and the names and ids it added lately:
 * most repeat (a switch's two tasks, in turns, for as long as they
 * share a CPU; a switch's previous task is the one the switch before
 * put there).
 */
struct owners_worker {
	struct owners_job	*job;
	bool			 caller;	/* asks the stop function */
	struct tv_state_names	 names;
	/* per place (a rule's two names, the owner's): the whole buffer
	   it was last given, compared as a block before any string */
	char			 last[3][TV_THREAD_NAME_MAX];
	struct id_list		 ids;
	int64_t			 recent[OWNERS_RECENT];
};

/* Add name @s to @nm (each once: tv_state_names_add). */
static void
names_add(struct tv_state_names *nm, const char *s)
{
	size_t n = strnlen(s, TV_THREAD_NAME_MAX - 1);

	if (n == 0)
		return;
	tv_state_names_add(nm, s, n);
	/* a thread's name is a comm, cut at 15 bytes: cut inside a
	   character, it escapes otherwise */
	if (n > 15)
		tv_state_names_add(nm, s, 15);
}

/*
 * names_add() of name buffer @buf (a whole TV_THREAD_NAME_MAX array,
 * every byte defined) given in place @at: a buffer equal to the last
 * one given in any place holds the same name (most records repeat
 * their task's; a switch's previous task is the one the switch before
 * put there, and a rule's names come zero-padded), which block
 * compares say without a string function.
 */
static void
names_add_at(struct owners_worker *w, unsigned at,
    const char buf[TV_THREAD_NAME_MAX])
{
	if (memcmp(w->last[at], buf, TV_THREAD_NAME_MAX) == 0 ||
	    memcmp(w->last[(at + 1) % 3], buf, TV_THREAD_NAME_MAX) == 0 ||
	    memcmp(w->last[(at + 2) % 3], buf, TV_THREAD_NAME_MAX) == 0)
		return;
	memcpy(w->last[at], buf, TV_THREAD_NAME_MAX);
	names_add(&w->names, buf);
}

/* Ids in order, for sorting and a binary search. */
static int
ids_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Sort @l and keep each id once. */
static void
ids_unique(struct id_list *l)
{
	size_t i, k = 0;

	qsort(l->v, l->n, sizeof(*l->v), ids_cmp);
	for (i = 0; i < l->n; i++)
		if (k == 0 || l->v[i] != l->v[k - 1])
			l->v[k++] = l->v[i];
	l->n = k;
}

/* Add @id to @l unless unknown, or in @recent (NULL: no cache). */
static void
ids_add(struct id_list *l, int64_t *recent, int64_t id)
{
	int64_t *slot = recent != NULL ?
	    &recent[(uint64_t)id & (OWNERS_RECENT - 1)] : NULL;

	if (id == TV_TID_UNKNOWN || (slot != NULL && *slot == id))
		return;
	if (slot != NULL)
		*slot = id;
	if (l->n >= l->compact_at) {
		ids_unique(l);
		l->compact_at = TV_MAX(2 * l->n, (size_t)OWNERS_IDS_COMPACT);
	}
	TV_VEC_GROW(l->v, l->n, l->cap);
	l->v[l->n++] = id;
}

/*
 * The names and ids known before any event: the trace's threads, and
 * the idle tasks (tid and pid 0, named as tv_state_get() names them).
 */
static void
owners_seed(struct tv_state_names *nm, struct id_list *ids,
    const struct tv_trace_set *set, const struct tv_state *s)
{
	const struct tv_thread *t;
	char idle[TV_THREAD_NAME_MAX];
	size_t n, i;

	t = tv_state_threads(s, &n);
	for (i = 0; i < n; i++) {
		names_add(nm, t[i].name);
		ids_add(ids, NULL, t[i].tid);
		ids_add(ids, NULL, t[i].pid);
	}
	ids_add(ids, NULL, 0);
	for (i = 0; i < set->nstreams; i++) {
		if (set->streams[i]->cpu < 0)
			continue;
		snprintf(idle, sizeof(idle), "swapper/%d",
		    (int)set->streams[i]->cpu);
		names_add(nm, idle);
	}
}

/*
 * Learn whether the class of @ev (read into @in, decoded in @arena)
 * names its owner, from this record, whichever it is in time: the pass
 * learns it from the first, and the scan must not learn "never" where
 * the pass learns "in these fields".  So "never" is only learnt when the
 * members that name an owner are the same for every record of the class
 * (tv_event_owner_sources: no scope is a variant), so this one's answer
 * is every one's; a class whose records may or may not is marked
 * unsure, and each of its records is read for its owner.
 */
static void
owners_learn(struct owners_worker *w, const struct owners_unit *ou,
    const struct tv_event *ev, const struct state_input *in,
    struct tv_arena *arena)
{
	struct tv_owner_source src;
	struct tv_event_fields f;
	bool learn = in->owner.from_context;

	if (!learn) {
		tv_arena_reset(arena);
		if (tv_event_decode_scopes(ev, arena, &f, TV_SCOPES_EVENT,
		    NULL) != TV_OK)
			return;
		learn = tv_event_owner_sources(&f, NULL, &src);
	}
	if (!learn) {
		__atomic_store_n(&ou->unsure[ev->rec.class_index], 1,
		    __ATOMIC_RELAXED);
		return;
	}
	pthread_mutex_lock(&w->job->learn);
	tv_state_learn(w->job->s, ev, in);
	pthread_mutex_unlock(&w->job->learn);
}

/*
 * The names and ids record @ev read into @in carries: every integer a
 * rule reads is a tid or a pid (the CPU excepted), and so are the owner
 * fields.  The first read of a class whose owner fact is unknown
 * teaches it (under the lock: the other workers read it), so later
 * reads of a class that names no owner skip decoding, as the pass's do.
 */
static void
owners_of_record(struct owners_worker *w, const struct owners_unit *ou,
    const struct tv_event *ev, const struct state_input *in,
    struct tv_arena *arena)
{
	const struct state_class *sc;
	unsigned a, ids;

	if (in->how != STATE_IN_READ)
		return;
	if (in->have >> TV_ARG_NAME & 1)
		names_add_at(w, 0, in->name);
	if (in->have >> TV_ARG_NAME2 & 1)
		names_add_at(w, 1, in->name2);
	names_add_at(w, 2, in->owner.name);
	/* the integers read but a state and a CPU, a bit at a time (most
	   records have none: a context names their owner) */
	for (ids = in->have & ~(1u << TV_ARG_NAME | 1u << TV_ARG_NAME2 |
	    1u << TV_ARG_STATE | 1u << TV_ARG_CPU); ids != 0;
	    ids &= ids - 1) {
		a = (unsigned)__builtin_ctz(ids);
		ids_add(&w->ids, w->recent, in->arg[a]);
	}
	ids_add(&w->ids, w->recent, in->owner.tid);
	ids_add(&w->ids, w->recent, in->owner.pid);
	sc = &ou->st->classes[ev->rec.class_index];
	if (__atomic_load_n(&sc->owner, __ATOMIC_ACQUIRE) ==
	    STATE_OWNER_UNKNOWN && !__atomic_load_n(
	    &ou->unsure[ev->rec.class_index], __ATOMIC_RELAXED))
		owners_learn(w, ou, ev, in, arena);
}

/* A worker: packets from the shared counter until none, or told to stop. */
static void *
owners_worker(void *arg)
{
	struct owners_worker *w = arg;
	struct owners_job *job = w->job;
	struct tv_packet_cache *pc = tv_packet_cache_create(OWNERS_CACHE_BYTES);
	struct tv_map_release rel = TV_MAP_RELEASE_INIT;
	struct state_input in;
	struct tv_arena arena;
	struct tv_event ev;
	uint64_t u, r, recs = 0;

	tv_arena_init(&arena);
	/* every byte of its name buffers defined (names_add_at) */
	memset(&in, 0, sizeof(in));
	while (!__atomic_load_n(&job->stop, __ATOMIC_RELAXED) &&
	    (u = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED)) <
	    job->nunits) {
		const struct owners_unit *ou = &job->units[u];
		const struct tv_packet_events *pe =
		    tv_packet_cache_get(pc, ou->s, ou->pkt);

		ev.stream = ou->s;
		ev.packet = ou->pkt;
		for (r = 0; r < pe->count; r++) {
			if (++recs % OWNERS_STOP_EVERY == 0) {
				/* the caller asks; every worker heeds */
				if (w->caller && job->stop_fn(job->stop_arg))
					__atomic_store_n(&job->stop, 1,
					    __ATOMIC_RELAXED);
				if (__atomic_load_n(&job->stop,
				    __ATOMIC_RELAXED))
					break;
			}
			/* a record that may carry neither is not read (most
			   of a kernel trace's: syscalls, interrupts) */
			if (pe->recs[r].kind == TV_REC_EVENT &&
			    pe->recs[r].class_index < ou->st->nclasses &&
			    !tv_state_class_reads(&ou->st->classes[
			    pe->recs[r].class_index]))
				continue;
			ev.index = r;
			ev.rec = pe->recs[r];
			/* most reads are flat: nothing in the arena */
			if (arena.total != 0)
				tv_arena_reset(&arena);
			tv_state_read(ou->st, &ev, &arena, &in, false);
			owners_of_record(w, ou, &ev, &in, &arena);
		}
		tv_packet_release(&rel, ou->s, ou->pkt);
	}
	tv_map_release_flush(&rel);
	tv_arena_fini(&arena);
	tv_packet_cache_destroy(pc);
	return NULL;
}

/* Names in byte order, so the set does not depend on who read what. */
static int
names_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every worker's names and ids (and @ids) into @os, each once, sorted. */
static void
owners_gather(struct tv_owner_set *os, struct owners_worker *ws,
    unsigned nw, struct id_list *ids)
{
	unsigned i;
	size_t j;

	for (i = 0; i < nw; i++) {
		for (j = 0; j < ws[i].names.n; j++)
			tv_state_names_add(&os->names, ws[i].names.v[j],
			    strlen(ws[i].names.v[j]));
		for (j = 0; j < ws[i].ids.n; j++)
			ids_add(ids, NULL, ws[i].ids.v[j]);
	}
	qsort(os->names.v, os->names.n, sizeof(*os->names.v), names_cmp);
	ids_unique(ids);
	/* the list's array becomes the set's (the seed put 0 in it) */
	os->ids = ids->v != NULL ? ids->v : tv_xcalloc(1, sizeof(*os->ids));
	os->nids = ids->n;
	memset(ids, 0, sizeof(*ids));
}

/* See state.h. */
struct tv_owner_set *
tv_state_owners_scan(struct tv_trace_set *set, bool (*stop)(void *arg),
    void *arg)
{
	struct tv_owner_set *os = tv_xcalloc(1, sizeof(*os));
	struct tv_state *s = tv_state_create(set);
	struct id_list ids;
	struct owners_worker *ws;
	struct owners_job job;
	unsigned nw, i;
	uint64_t k, n = 0;

	memset(&job, 0, sizeof(job));
	memset(&ids, 0, sizeof(ids));
	ids.compact_at = OWNERS_IDS_COMPACT;
	job.s = s;
	job.stop_fn = stop;
	job.stop_arg = arg;
	pthread_mutex_init(&job.learn, NULL);
	/* every class resolved before a worker reads one */
	tv_state_prepare(s);
	owners_seed(&os->names, &ids, set, s);
	for (i = 0; i < set->nstreams; i++)
		n += set->streams[i]->npackets;
	job.units = tv_xcalloc(n + 1, sizeof(*job.units));
	job.unsure = tv_xcalloc(s->ntraces + 1, sizeof(*job.unsure));
	for (i = 0; i < s->ntraces; i++)
		job.unsure[i] = tv_xcalloc(s->traces[i].nclasses + 1, 1);
	for (i = 0; i < set->nstreams; i++) {
		struct tv_stream *st = set->streams[i];
		const struct state_trace *t = tv_state_trace_of(s, st);

		if (t == NULL)
			continue;
		for (k = 0; k < st->npackets; k++) {
			job.units[job.nunits].s = st;
			job.units[job.nunits].st = t;
			job.units[job.nunits].unsure =
			    job.unsure[t - s->traces];
			job.units[job.nunits++].pkt = k;
		}
	}
	nw = tv_worker_count(job.nunits, OWNERS_MAX_THREADS);
	ws = tv_xcalloc(nw, sizeof(*ws));
	for (i = 0; i < nw; i++) {
		ws[i].job = &job;
		ws[i].ids.compact_at = OWNERS_IDS_COMPACT;
		/* no id is TV_TID_UNKNOWN: an empty slot */
		for (k = 0; k < OWNERS_RECENT; k++)
			ws[i].recent[k] = TV_TID_UNKNOWN;
	}
	ws[0].caller = stop != NULL;
	/* asked once before any record: a scan may end before a second */
	if (stop != NULL && stop(arg))
		job.stop = 1;
	/* worker 0, this thread, is the one that may ask the stop function */
	tv_run_workers(nw, owners_worker, ws, sizeof(*ws));
	if (__atomic_load_n(&job.stop, __ATOMIC_RELAXED)) {
		tv_owner_set_free(os);
		os = NULL;
	} else {
		owners_gather(os, ws, nw, &ids);
	}
	for (i = 0; i < nw; i++) {
		tv_state_names_clear(&ws[i].names);
		free(ws[i].ids.v);
	}
	free(ws);
	free(ids.v);
	for (i = 0; i < s->ntraces; i++)
		free(job.unsure[i]);
	free(job.unsure);
	free(job.units);
	pthread_mutex_destroy(&job.learn);
	tv_state_destroy(s);
	return os;
}

/* See state.h. */
void
tv_owner_set_names(const struct tv_owner_set *os, const char *const **names,
    size_t *n)
{
	*names = os->names.v;
	*n = os->names.n;
}

/* See state.h. */
bool
tv_owner_set_has_id(const struct tv_owner_set *os, int64_t id)
{
	return bsearch(&id, os->ids, os->nids, sizeof(*os->ids),
	    ids_cmp) != NULL;
}

/* See state.h. */
void
tv_owner_set_free(struct tv_owner_set *os)
{
	if (os == NULL)
		return;
	tv_state_names_clear(&os->names);
	free(os->ids);
	free(os);
}
