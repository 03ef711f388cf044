/*
 * Every name an event's owner can have in a trace set, read before the
 * background pass has met them all (tv_state_names_scan): a search for
 * text that no task name holds can then leave the task column alone, as
 * it does once the pass is over (tv_state_index_owner_names).  Workers,
 * one per core, take whole packets in any order and read what each
 * record tells the state (tv_state_read) without applying it; they keep
 * only the names it carries: the names a rule reads (a switch's, a
 * fork's, an exec's file, a wake-up's, a statedump's) and the procname
 * of an event's own fields.  With the names the trace gives its threads
 * before any event and the idle tasks', those are every source of a
 * thread's name in the state (state-apply.c), so the set holds every
 * owner name the pass would find, at most longer (not cut to a comm's 15
 * bytes, so a long one is kept cut too: a cut inside a UTF-8 character
 * shows as an escape): text no name of the set holds, no owner name
 * holds.  No name depends on the order the records are read in (what
 * the scan learns of a class holds for all its records: names_learn),
 * so the scan needs no merge of the streams: that merge on one thread
 * was the bound of an ordered walk.
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
#define NAMES_STOP_EVERY	4096
/* Record-array budget of one worker's packet cache: a packet at a time. */
#define NAMES_CACHE_BYTES	(4u << 20)
/* Most workers, whatever the core count. */
#define NAMES_MAX_THREADS	16

struct tv_name_set {
	struct tv_state_names	 names;
};

/* One packet to read. */
struct names_unit {
	struct tv_stream		*s;
	const struct state_trace	*st;	/* its trace's facts */
	uint8_t				*unsure;	/* its trace's, per
							   class (below) */
	uint64_t			 pkt;
};

/* The scan shared by its workers. */
struct names_job {
	struct tv_state		*s;
	struct names_unit	*units;
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

/* One worker's names, and the last it added per place (most repeat). */
struct names_worker {
	struct names_job	*job;
	pthread_t		 thread;
	bool			 caller;	/* asks the stop function */
	struct tv_state_names	 names;
	char			 last[3][TV_THREAD_NAME_MAX];
};

/* Add @s to @nm unless it is @last (the last added in its place). */
static void
names_add(struct tv_state_names *nm, const char *s, char *last)
{
	size_t n = strnlen(s, TV_THREAD_NAME_MAX - 1);

	if (n == 0 || (strncmp(last, s, TV_THREAD_NAME_MAX) == 0))
		return;
	memcpy(last, s, n);
	last[n] = '\0';
	tv_state_names_add(nm, s, n);
	/* a thread's name is a comm, cut at 15 bytes: cut inside a
	   character, it escapes otherwise */
	if (n > 15)
		tv_state_names_add(nm, s, 15);
}

/* The names known before any event: the trace's and the idle tasks'. */
static void
names_seed(struct tv_state_names *nm, const struct tv_trace_set *set,
    const struct tv_state *s)
{
	const struct tv_thread *t;
	char idle[TV_THREAD_NAME_MAX], last[TV_THREAD_NAME_MAX] = "";
	size_t n, i;

	t = tv_state_threads(s, &n);
	for (i = 0; i < n; i++)
		names_add(nm, t[i].name, last);
	/* as tv_state_get() names a CPU's idle task */
	for (i = 0; i < set->nstreams; i++) {
		if (set->streams[i]->cpu < 0)
			continue;
		snprintf(idle, sizeof(idle), "swapper/%d",
		    (int)set->streams[i]->cpu);
		names_add(nm, idle, last);
	}
}

/*
 * Learn whether the class of @ev (read into @in, decoded in @arena)
 * names its owner, from this record, whichever it is in time: the pass
 * learns it from the first, and the scan must not learn "never" where
 * the pass learns "in these fields".  So "never" is only learnt when no
 * record of the class can name one (tv_event_owner_never); a class
 * whose records may or may not is marked unsure, and each of its records
 * is read for its owner.
 */
static void
names_learn(struct names_worker *w, const struct names_unit *nu,
    const struct tv_event *ev, const struct state_input *in,
    struct tv_arena *arena)
{
	struct tv_event_fields f;
	bool learn = in->owner.from_context;

	if (!learn) {
		tv_arena_reset(arena);
		if (tv_event_decode_scopes(ev, arena, &f, TV_SCOPES_EVENT,
		    NULL) != TV_OK)
			return;
		learn = tv_event_owner_never(&f);
	}
	if (!learn) {
		__atomic_store_n(&nu->unsure[ev->rec.class_index], 1,
		    __ATOMIC_RELAXED);
		return;
	}
	pthread_mutex_lock(&w->job->learn);
	tv_state_learn(w->job->s, ev, in);
	pthread_mutex_unlock(&w->job->learn);
}

/*
 * The names record @ev read into @in carries.  The first read of a
 * class whose owner fact is unknown teaches it (under the lock: the
 * other workers read it), so later reads of a class that names no owner
 * skip decoding, as the pass's do.
 */
static void
names_of_record(struct names_worker *w, const struct names_unit *nu,
    const struct tv_event *ev, const struct state_input *in,
    struct tv_arena *arena)
{
	const struct state_class *sc;

	if (in->how != STATE_IN_READ)
		return;
	if (in->have >> TV_ARG_NAME & 1)
		names_add(&w->names, in->name, w->last[0]);
	if (in->have >> TV_ARG_NAME2 & 1)
		names_add(&w->names, in->name2, w->last[1]);
	names_add(&w->names, in->owner.name, w->last[2]);
	sc = &nu->st->classes[ev->rec.class_index];
	if (__atomic_load_n(&sc->owner, __ATOMIC_ACQUIRE) ==
	    STATE_OWNER_UNKNOWN && !__atomic_load_n(
	    &nu->unsure[ev->rec.class_index], __ATOMIC_RELAXED))
		names_learn(w, nu, ev, in, arena);
}

/*
 * Whether a record of @ev's class (of @st) may carry a name: its rule
 * reads one, or its own fields may name its owner (not known yet, or
 * known to).  The others are not decoded at all.
 */
static bool
names_may_carry(const struct state_trace *st, const struct tv_event *ev)
{
	const struct state_class *sc;

	if (ev->rec.kind != TV_REC_EVENT || ev->rec.class_index >= st->nclasses)
		return false;
	sc = &st->classes[ev->rec.class_index];
	if (sc->rule != NULL && (sc->rule->args[TV_ARG_NAME] != NULL ||
	    sc->rule->args[TV_ARG_NAME2] != NULL))
		return true;
	return __atomic_load_n(&sc->owner, __ATOMIC_ACQUIRE) !=
	    STATE_OWNER_NONE;
}

/* A worker: packets from the shared counter until none, or told to stop. */
static void *
names_worker(void *arg)
{
	struct names_worker *w = arg;
	struct names_job *job = w->job;
	struct tv_packet_cache *pc = tv_packet_cache_create(NAMES_CACHE_BYTES);
	struct state_input in;
	struct tv_arena arena;
	struct tv_event ev;
	uint64_t u, r, recs = 0;

	tv_arena_init(&arena);
	while (!__atomic_load_n(&job->stop, __ATOMIC_RELAXED) &&
	    (u = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED)) <
	    job->nunits) {
		const struct names_unit *nu = &job->units[u];
		const struct tv_packet_events *pe =
		    tv_packet_cache_get(pc, nu->s, nu->pkt);

		ev.stream = nu->s;
		ev.packet = nu->pkt;
		for (r = 0; r < pe->count; r++) {
			if (++recs % NAMES_STOP_EVERY == 0) {
				/* the caller asks; every worker heeds */
				if (w->caller && job->stop_fn(job->stop_arg))
					__atomic_store_n(&job->stop, 1,
					    __ATOMIC_RELAXED);
				if (__atomic_load_n(&job->stop,
				    __ATOMIC_RELAXED))
					break;
			}
			ev.index = r;
			ev.rec = pe->recs[r];
			if (!names_may_carry(nu->st, &ev))
				continue;
			tv_arena_reset(&arena);
			tv_state_read(nu->st, &ev, &arena, &in, false);
			names_of_record(w, nu, &ev, &in, &arena);
		}
		tv_packet_release(nu->s, nu->pkt);
	}
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

/* See state.h. */
struct tv_name_set *
tv_state_names_scan(struct tv_trace_set *set, bool (*stop)(void *arg),
    void *arg)
{
	struct tv_name_set *ns = tv_xcalloc(1, sizeof(*ns));
	struct tv_state *s = tv_state_create(set);
	struct tv_state_names all;
	struct names_worker *ws;
	struct names_job job;
	unsigned nw, i, started;
	uint64_t k, n = 0;
	size_t j;

	memset(&job, 0, sizeof(job));
	memset(&all, 0, sizeof(all));
	job.s = s;
	job.stop_fn = stop;
	job.stop_arg = arg;
	pthread_mutex_init(&job.learn, NULL);
	/* every class resolved before a worker reads one */
	tv_state_prepare(s);
	names_seed(&all, set, s);
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
	nw = TV_MIN(tv_online_cores(), NAMES_MAX_THREADS);
	nw = (unsigned)TV_MAX(TV_MIN((uint64_t)nw, job.nunits), 1);
	ws = tv_xcalloc(nw, sizeof(*ws));
	for (i = 0; i < nw; i++)
		ws[i].job = &job;
	ws[0].caller = stop != NULL;
	/* asked once before any record: a scan may end before a second */
	if (stop != NULL && stop(arg))
		job.stop = 1;
	/* worker 0 is this thread, the one that may ask the stop function;
	   a thread that fails to start is not needed */
	for (started = 1; started < nw; started++)
		if (pthread_create(&ws[started].thread, NULL, names_worker,
		    &ws[started]) != 0)
			break;
	names_worker(&ws[0]);
	for (i = 1; i < started; i++)
		pthread_join(ws[i].thread, NULL);
	for (i = 0; i < nw; i++) {
		for (j = 0; j < ws[i].names.n; j++)
			tv_state_names_add(&all, ws[i].names.v[j],
			    strlen(ws[i].names.v[j]));
		tv_state_names_clear(&ws[i].names);
	}
	if (__atomic_load_n(&job.stop, __ATOMIC_RELAXED)) {
		tv_state_names_clear(&all);
		free(ns);
		ns = NULL;
	} else {
		qsort(all.v, all.n, sizeof(*all.v), names_cmp);
		ns->names = all;
	}
	free(ws);
	for (i = 0; i < s->ntraces; i++)
		free(job.unsure[i]);
	free(job.unsure);
	free(job.units);
	pthread_mutex_destroy(&job.learn);
	tv_state_destroy(s);
	return ns;
}

/* See state.h. */
void
tv_name_set_get(const struct tv_name_set *ns, const char *const **names,
    size_t *n)
{
	*names = ns->names.v;
	*n = ns->names.n;
}

/* See state.h. */
void
tv_name_set_free(struct tv_name_set *ns)
{
	if (ns == NULL)
		return;
	tv_state_names_clear(&ns->names);
	free(ns);
}
