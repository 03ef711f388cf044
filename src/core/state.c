/*
 * The process state's tables: threads in a dense array found through an
 * open-addressing hash table keyed by (machine, tid), per-CPU current
 * threads, reading them and snapshots.  The transitions that change them
 * are in state-apply.c.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/i18n.h"
#include "tview/util.h"
#include "state-priv.h"

/* Hard cap: hostile traces cannot make the table grow without bound. */
#define STATE_MAX_THREADS	(1u << 20)

/* ---- names ---- */

/*
 * The only list of state and mode names: English in data (--processes),
 * translated with _() where a person reads them (the process pane).
 */
static const char *const state_names[TV_TS_COUNT] = {
	N_("unknown"), N_("running"), N_("runnable"), N_("blocked"),
	N_("zombie"), N_("exited"),
};

static const char *const mode_names[TV_MODE_COUNT] = {
	N_("unknown"), N_("user"), N_("syscall"), N_("irq"), N_("softirq"),
	N_("trap"),
};

/* See state.h. */
const char *
tv_thread_state_name(enum tv_thread_state st)
{
	return (unsigned)st < TV_TS_COUNT ? state_names[st] : "?";
}

/* See state.h. */
const char *
tv_exec_mode_name(enum tv_exec_mode m)
{
	return (unsigned)m < TV_MODE_COUNT ? mode_names[m] : "?";
}

/* See state.h. */
void
tv_thread_modes_text(const struct tv_thread *t, bool translate, char *buf,
    size_t size)
{
	size_t n = 0;
	uint8_t i;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < t->nmodes && i < TV_MODE_STACK_MAX; i++) {
		const char *m = tv_exec_mode_name((enum tv_exec_mode)
		    t->modes[i]);

		n += (size_t)snprintf(buf + TV_MIN(n, size - 1),
		    size - TV_MIN(n, size - 1), "%s%s", i ? ">" : "",
		    translate ? _(m) : m);
	}
	if (buf[0] == '\0')
		snprintf(buf, size, "-");
}

/* See state-priv.h: comm semantics, at most 15 bytes. */
void
tv_thread_set_name(struct tv_thread *t, const char *name)
{
	size_t n = strnlen(name, 15);

	if (n == 0)
		return;
	memcpy(t->name, name, n);
	t->name[n] = '\0';
}

/* ---- creation ---- */

/* Traces of one host (same "hostname" env) share a machine number. */
static uint32_t
state_machine_for(struct tv_state *s, uint32_t i)
{
	const struct tv_env_entry *h, *o;
	uint32_t j;

	h = tv_trace_env_get(s->traces[i].trace, "hostname");
	if (h == NULL || h->str == NULL)
		return s->nmachines++;
	for (j = 0; j < i; j++) {
		o = tv_trace_env_get(s->traces[j].trace, "hostname");
		if (o != NULL && o->str != NULL && strcmp(o->str, h->str) == 0)
			return s->traces[j].machine;
	}
	return s->nmachines++;
}

/*
 * Threads the traces name before any event (saved cmdlines...): known
 * by name from the start, their state still unknown.
 */
static void
state_seed_trace(struct tv_state *s, uint32_t i)
{
	const struct tv_known_thread *k;
	struct tv_thread *t;
	uint32_t j;

	for (j = 0; j < s->traces[i].trace->nknown; j++) {
		k = &s->traces[i].trace->known[j];
		if (k->tid <= 0 || k->name == NULL)
			continue;
		t = tv_state_get(s, s->traces[i].machine, k->tid,
		    TV_CPU_UNKNOWN);
		if (t == NULL)
			return;
		tv_thread_set_name(t, k->name);
		if (k->pid != INT64_MIN && k->pid > 0)
			t->pid = k->pid;
	}
}

/* The threads every trace names: see state_seed_trace(). */
static void
state_seed(struct tv_state *s)
{
	uint32_t i;

	for (i = 0; i < s->ntraces; i++)
		state_seed_trace(s, i);
}

/*
 * Take in the traces the set gained since @s was made (a followed trace
 * set opens new ones, tv_trace_set_extend): their machine numbers come
 * after the others', which do not change.
 */
static void
state_add_traces(struct tv_state *s)
{
	uint32_t i, old = s->ntraces, oldm = s->nmachines;

	s->traces = tv_xreallocarray(s->traces, s->set->ntraces,
	    sizeof(*s->traces));
	s->last_stream = NULL;
	s->last_trace = NULL;
	for (i = old; i < s->set->ntraces; i++) {
		s->traces[i].trace = s->set->traces[i];
		s->traces[i].nclasses = s->set->traces[i]->nclasses;
		s->traces[i].classes = tv_xcalloc(
		    TV_MAX(s->traces[i].nclasses, 1u),
		    sizeof(struct state_class));
		s->ntraces = i + 1;
		s->traces[i].machine = state_machine_for(s, i);
	}
	if (s->nmachines > oldm) {
		s->cpus = tv_xreallocarray(s->cpus, s->nmachines,
		    sizeof(*s->cpus));
		s->ncpus = tv_xreallocarray(s->ncpus, s->nmachines,
		    sizeof(*s->ncpus));
		for (i = oldm; i < s->nmachines; i++) {
			s->cpus[i] = NULL;
			s->ncpus[i] = 0;
		}
	}
	for (i = old; i < s->ntraces; i++)
		state_seed_trace(s, i);
}

/* See state-priv.h. */
void
tv_state_grow_traces(struct tv_state *s)
{
	if (s->set->ntraces > s->ntraces)
		state_add_traces(s);
}

/* See state.h. */
struct tv_state *
tv_state_create(const struct tv_trace_set *set)
{
	struct tv_state *s = tv_xcalloc(1, sizeof(*s));
	uint32_t i;

	s->set = set;
	s->ntraces = set->ntraces;
	s->traces = tv_xcalloc(TV_MAX(s->ntraces, 1u), sizeof(*s->traces));
	for (i = 0; i < s->ntraces; i++) {
		s->traces[i].trace = set->traces[i];
		s->traces[i].nclasses = set->traces[i]->nclasses;
		s->traces[i].classes = tv_xcalloc(
		    TV_MAX(s->traces[i].nclasses, 1u),
		    sizeof(struct state_class));
		s->traces[i].machine = state_machine_for(s, i);
	}
	s->cpus = tv_xcalloc(TV_MAX(s->nmachines, 1u), sizeof(*s->cpus));
	s->ncpus = tv_xcalloc(TV_MAX(s->nmachines, 1u), sizeof(*s->ncpus));
	s->time = TV_TIME_NONE;
	tv_arena_init(&s->arena);
	state_seed(s);
	return s;
}

/* See state.h. */
void
tv_state_destroy(struct tv_state *s)
{
	uint32_t i, k;

	if (s == NULL)
		return;
	for (i = 0; i < s->ntraces; i++) {
		for (k = 0; k < s->traces[i].nclasses; k++) {
			free(s->traces[i].classes[k].plan);
			free(s->traces[i].classes[k].flat);
		}
		free(s->traces[i].classes);
	}
	for (i = 0; i < s->nmachines; i++)
		free(s->cpus[i]);
	free(s->cpus);
	free(s->ncpus);
	free(s->traces);
	free(s->threads);
	free(s->table);
	tv_arena_fini(&s->arena);
	free(s);
}

/* See state.h. */
void
tv_state_clear(struct tv_state *s)
{
	uint32_t i;

	s->nthreads = 0;
	if (s->table != NULL)
		memset(s->table, 0, s->table_cap * sizeof(*s->table));
	for (i = 0; i < s->nmachines; i++)
		s->ncpus[i] = 0;
	s->time = TV_TIME_NONE;
	state_seed(s);
}

/* ---- the thread table ---- */

/* Hash of a key; the idle tasks (tid 0) are one per CPU. */
static size_t
state_hash(uint32_t machine, int64_t tid, int32_t cpu)
{
	uint64_t h = (uint64_t)tid * 0x9e3779b97f4a7c15ULL;

	h ^= ((uint64_t)machine << 32) ^ (uint64_t)(uint32_t)cpu;
	h *= 0xbf58476d1ce4e5b9ULL;
	return (size_t)(h ^ (h >> 29));
}

/* Whether thread @t has the key (machine, tid, idle cpu). */
static bool
state_key_eq(const struct tv_thread *t, uint32_t machine, int64_t tid,
    int32_t cpu)
{
	return t->tid == tid && t->machine == machine &&
	    (tid != 0 || t->cpu == cpu);
}

/* Key cpu: only the idle task (tid 0) is told apart by CPU. */
static int32_t
state_key_cpu(int64_t tid, int32_t cpu)
{
	return tid == 0 ? cpu : 0;
}

/* Table slot holding the key, or the empty slot where it would go. */
static size_t
state_slot(const struct tv_state *s, uint32_t machine, int64_t tid,
    int32_t cpu)
{
	size_t mask = s->table_cap - 1;
	size_t i = state_hash(machine, tid, state_key_cpu(tid, cpu)) & mask;
	uint32_t v;

	while ((v = s->table[i]) != 0) {
		if (state_key_eq(&s->threads[v - 1], machine, tid, cpu))
			return i;
		i = (i + 1) & mask;
	}
	return i;
}

/* Rebuild the hash table at @cap slots from the thread array. */
static void
state_rehash(struct tv_state *s, size_t cap)
{
	const struct tv_thread *t;
	size_t i, j, mask = cap - 1;

	free(s->table);
	s->table = tv_xcalloc(cap, sizeof(*s->table));
	s->table_cap = cap;
	for (i = 0; i < s->nthreads; i++) {
		t = &s->threads[i];
		j = state_hash(t->machine, t->tid,
		    state_key_cpu(t->tid, t->cpu)) & mask;
		while (s->table[j] != 0)
			j = (j + 1) & mask;
		s->table[j] = (uint32_t)i + 1;
	}
}

/* The thread with this key, or NULL. */
struct tv_thread *
tv_state_lookup(const struct tv_state *s, uint32_t machine, int64_t tid,
    int32_t cpu)
{
	size_t i;

	if (s->table_cap == 0)
		return NULL;
	i = state_slot(s, machine, tid, cpu);
	return s->table[i] ? &s->threads[s->table[i] - 1] : NULL;
}

/* The thread with this key, created in state "unknown" if new. */
struct tv_thread *
tv_state_get(struct tv_state *s, uint32_t machine, int64_t tid, int32_t cpu)
{
	struct tv_thread *t;
	size_t i;

	t = tv_state_lookup(s, machine, tid, cpu);
	if (t != NULL)
		return t;
	if (s->nthreads >= STATE_MAX_THREADS)
		return NULL;
	if ((s->nthreads + 1) * 2 > s->table_cap)
		state_rehash(s, s->table_cap ? s->table_cap * 2 : 256);
	TV_VEC_GROW(s->threads, s->nthreads, s->threads_cap);
	t = &s->threads[s->nthreads];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = tid == 0 ? 0 : TV_TID_UNKNOWN;
	t->ppid = tid == 0 ? 0 : TV_TID_UNKNOWN;
	t->since = TV_TIME_NONE;
	t->woken = TV_TIME_NONE;
	t->machine = machine;
	t->cpu = tid == 0 ? cpu : TV_CPU_UNKNOWN;
	t->state = TV_TS_UNKNOWN;
	/* the kernel's name for the idle task, till an event says one */
	if (tid == 0 && cpu >= 0)
		snprintf(t->name, sizeof(t->name), "swapper/%d", (int)cpu);
	i = state_slot(s, machine, tid, cpu);
	s->table[i] = (uint32_t)s->nthreads + 1;
	s->nthreads++;
	return t;
}

/* Remove @t: backward-shift deletion, then the last thread fills its slot. */
void
tv_state_remove(struct tv_state *s, struct tv_thread *t)
{
	size_t mask = s->table_cap - 1, i, j, k;
	size_t idx = (size_t)(t - s->threads), last = s->nthreads - 1;
	const struct tv_thread *u;

	i = state_slot(s, t->machine, t->tid, t->cpu);
	s->table[i] = 0;
	j = i;
	for (;;) {
		j = (j + 1) & mask;
		if (s->table[j] == 0)
			break;
		u = &s->threads[s->table[j] - 1];
		k = state_hash(u->machine, u->tid,
		    state_key_cpu(u->tid, u->cpu)) & mask;
		/* move j back to i unless its home lies in (i, j] */
		if ((j > i && (k <= i || k > j)) ||
		    (j < i && (k <= i && k > j))) {
			s->table[i] = s->table[j];
			s->table[j] = 0;
			i = j;
		}
	}
	if (idx != last) {
		u = &s->threads[last];
		i = state_slot(s, u->machine, u->tid, u->cpu);
		s->table[i] = (uint32_t)idx + 1;
		s->threads[idx] = s->threads[last];
	}
	s->nthreads--;
}

/* The CPU record of (@machine, @cpu), grown on demand; NULL if absurd. */
struct tv_state_cpu *
tv_state_cpu_of(struct tv_state *s, uint32_t machine, int32_t cpu)
{
	struct tv_state_cpu *c;
	uint32_t n, i;

	if (cpu < 0 || cpu >= STATE_MAX_CPU || machine >= s->nmachines)
		return NULL;
	n = s->ncpus[machine];
	if ((uint32_t)cpu >= n) {
		s->cpus[machine] = tv_xreallocarray(s->cpus[machine],
		    (size_t)cpu + 1, sizeof(**s->cpus));
		for (i = n; i <= (uint32_t)cpu; i++) {
			c = &s->cpus[machine][i];
			memset(c, 0, sizeof(*c));
			c->machine = machine;
			c->cpu = (int32_t)i;
			c->cur = TV_TID_UNKNOWN;
			c->out = TV_TID_UNKNOWN;
			c->uncertain = 0;
		}
		s->ncpus[machine] = (uint32_t)cpu + 1;
	}
	return &s->cpus[machine][cpu];
}

/* ---- reading ---- */

/* See state.h. */
const struct tv_thread *
tv_state_threads(const struct tv_state *s, size_t *count)
{
	*count = s->nthreads;
	return s->threads;
}

/* See state.h. */
const struct tv_thread *
tv_state_find(const struct tv_state *s, uint32_t machine, int64_t tid)
{
	size_t i;

	if (tid != 0)
		return tv_state_lookup(s, machine, tid, 0);
	for (i = 0; i < s->nthreads; i++)
		if (s->threads[i].tid == 0 && s->threads[i].machine == machine)
			return &s->threads[i];
	return NULL;
}

/* See state.h. */
const struct tv_thread *
tv_state_running(const struct tv_state *s, uint32_t machine, int32_t cpu)
{
	const struct tv_state_cpu *c;

	if (machine >= s->nmachines || cpu < 0 ||
	    (uint32_t)cpu >= s->ncpus[machine])
		return NULL;
	c = &s->cpus[machine][cpu];
	if (c->cur == TV_TID_UNKNOWN)
		return NULL;
	return tv_state_lookup(s, machine, c->cur, cpu);
}

/* See state.h. */
uint32_t
tv_state_machine_of(const struct tv_state *s, const struct tv_stream *stream)
{
	uint32_t i;

	for (i = 0; i < s->ntraces; i++)
		if (s->traces[i].trace == stream->trace)
			return s->traces[i].machine;
	return 0;
}

/* See state.h. */
uint32_t
tv_state_machines(const struct tv_state *s)
{
	return s->nmachines;
}

/* See state.h. */
const char *
tv_state_machine_name(const struct tv_state *s, uint32_t machine)
{
	const struct tv_env_entry *h;
	uint32_t i;

	for (i = 0; i < s->ntraces; i++) {
		if (s->traces[i].machine != machine)
			continue;
		h = tv_trace_env_get(s->traces[i].trace, "hostname");
		if (h != NULL && h->str != NULL)
			return h->str;
		return s->traces[i].trace->name != NULL ?
		    s->traces[i].trace->name : "?";
	}
	return "?";
}

/* See state.h. */
int64_t
tv_state_time(const struct tv_state *s)
{
	return s->time;
}

/* ---- snapshots ---- */

/* See state-priv.h. */
struct tv_state_snap *
tv_state_snap_new(size_t nthreads, size_t ncpus)
{
	struct tv_state_snap *snap = tv_xcalloc(1, sizeof(*snap));

	snap->nthreads = nthreads;
	snap->ncpus = ncpus;
	snap->threads = tv_xcalloc(TV_MAX(nthreads, (size_t)1),
	    sizeof(*snap->threads));
	snap->cpus = tv_xcalloc(TV_MAX(ncpus, (size_t)1),
	    sizeof(*snap->cpus));
	snap->time = TV_TIME_NONE;
	return snap;
}

/* See state.h. */
struct tv_state_snap *
tv_state_save(const struct tv_state *s)
{
	struct tv_state_snap *snap;
	size_t ncpus = 0, k = 0;
	uint32_t m;

	for (m = 0; m < s->nmachines; m++)
		ncpus += s->ncpus[m];
	snap = tv_state_snap_new(s->nthreads, ncpus);
	if (s->nthreads > 0)
		memcpy(snap->threads, s->threads,
		    s->nthreads * sizeof(*s->threads));
	for (m = 0; m < s->nmachines; m++) {
		if (s->ncpus[m] == 0)
			continue;
		memcpy(snap->cpus + k, s->cpus[m],
		    s->ncpus[m] * sizeof(**s->cpus));
		k += s->ncpus[m];
	}
	snap->time = s->time;
	return snap;
}

/* See state.h. */
void
tv_state_restore(struct tv_state *s, const struct tv_state_snap *snap)
{
	struct tv_state_cpu *c;
	size_t i, cap = 256;

	/* a checkpoint of a set that has grown since this state was made */
	tv_state_grow_traces(s);
	tv_state_clear(s);
	if (snap->nthreads > s->threads_cap) {
		s->threads = tv_xreallocarray(s->threads, snap->nthreads,
		    sizeof(*s->threads));
		s->threads_cap = snap->nthreads;
	}
	if (snap->nthreads > 0)
		memcpy(s->threads, snap->threads,
		    snap->nthreads * sizeof(*s->threads));
	s->nthreads = snap->nthreads;
	while (cap < s->nthreads * 2)
		cap *= 2;
	state_rehash(s, TV_MAX(cap, s->table_cap));
	for (i = 0; i < snap->ncpus; i++) {
		c = tv_state_cpu_of(s, snap->cpus[i].machine,
		    snap->cpus[i].cpu);
		if (c != NULL)
			*c = snap->cpus[i];
	}
	s->time = snap->time;
}

/* See state.h. */
void
tv_state_snap_free(struct tv_state_snap *snap)
{
	if (snap == NULL)
		return;
	free(snap->threads);
	free(snap->cpus);
	free(snap);
}

/* See state.h. */
size_t
tv_state_snap_bytes(const struct tv_state_snap *snap)
{
	return sizeof(*snap) + snap->nthreads * sizeof(*snap->threads) +
	    snap->ncpus * sizeof(*snap->cpus);
}

