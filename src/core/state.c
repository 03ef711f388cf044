/*
 * The process state itself: threads in a dense array found through an
 * open-addressing hash table keyed by (machine, tid), per-CPU current
 * threads, and tv_state_apply(), which resolves each event class to its
 * rule once (cached by class index), decodes only events that a rule or
 * an owner context field needs, and applies the transition.  Nothing is
 * allocated per event once the tables have grown to the trace's size.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/format.h"
#include "tview/util.h"
#include "state-priv.h"

/* Hard caps: hostile traces cannot make the tables grow without bound. */
#define STATE_MAX_THREADS	(1u << 20)
#define STATE_MAX_CPU		4096

/* prev_state bits (Linux): exiting tasks. */
#define LINUX_EXIT_BITS		0x30	/* EXIT_DEAD | EXIT_ZOMBIE */

/* Lazily resolved facts about one event class. */
struct state_class {
	const struct tv_state_rule *rule;
	uint8_t		 resolved;
	uint8_t		 owner_known;	/* checked for owner fields */
	uint8_t		 has_owner;	/* has tid/pid/procname context */
	uint8_t		 reads_fields;	/* the rule reads payload fields */
	uint16_t	 arg_idx[TV_ARG_COUNT];	/* member index hint */
};

/* Per trace of the set: its machine and class cache. */
struct state_trace {
	const struct tv_trace	*trace;
	uint32_t		 machine;
	struct state_class	*classes;	/* nclasses, owned */
	uint32_t		 nclasses;
	uint8_t			 fmt_ok;	/* any rule may apply */
};

struct tv_state {
	const struct tv_trace_set *set;
	struct state_trace	*traces;	/* set->ntraces */
	uint32_t		 ntraces;
	uint32_t		 nmachines;
	const struct tv_stream	*last_stream;	/* lookup cache */
	struct state_trace	*last_trace;
	/* threads */
	struct tv_thread	*threads;
	size_t			 nthreads;
	size_t			 threads_cap;
	uint32_t		*table;		/* thread index + 1; 0 empty */
	size_t			 table_cap;	/* power of two */
	/* CPUs: per machine, indexed by cpu number */
	struct tv_state_cpu	**cpus;		/* nmachines arrays */
	uint32_t		*ncpus;
	int64_t			 time;
	struct tv_arena		 arena;		/* decoded fields */
};

/* ---- names ---- */

static const char *const state_names[TV_TS_COUNT] = {
	"unknown", "running", "runnable", "blocked", "zombie", "exited",
};

static const char *const mode_names[TV_MODE_COUNT] = {
	"unknown", "user", "syscall", "irq", "softirq", "trap",
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

static struct tv_thread *state_get(struct tv_state *s, uint32_t machine,
		    int64_t tid, int32_t cpu);
static void	 state_name(struct tv_thread *t, const char *name);

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
state_seed(struct tv_state *s)
{
	const struct tv_known_thread *k;
	struct tv_thread *t;
	uint32_t i, j;

	for (i = 0; i < s->ntraces; i++) {
		for (j = 0; j < s->traces[i].trace->nknown; j++) {
			k = &s->traces[i].trace->known[j];
			if (k->tid <= 0 || k->name == NULL)
				continue;
			t = state_get(s, s->traces[i].machine, k->tid,
			    TV_CPU_UNKNOWN);
			if (t == NULL)
				return;
			state_name(t, k->name);
			if (k->pid != INT64_MIN && k->pid > 0)
				t->pid = k->pid;
		}
	}
}

/* See state.h. */
struct tv_state *
tv_state_create(const struct tv_trace_set *set)
{
	struct tv_state *s = tv_xcalloc(1, sizeof(*s));
	const char *fmt;
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
		fmt = set->traces[i]->ops != NULL ?
		    set->traces[i]->ops->name : NULL;
		s->traces[i].fmt_ok = fmt != NULL;
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
	uint32_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->ntraces; i++)
		free(s->traces[i].classes);
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
static struct tv_thread *
state_lookup(const struct tv_state *s, uint32_t machine, int64_t tid,
    int32_t cpu)
{
	size_t i;

	if (s->table_cap == 0)
		return NULL;
	i = state_slot(s, machine, tid, cpu);
	return s->table[i] ? &s->threads[s->table[i] - 1] : NULL;
}

/* The thread with this key, created in state "unknown" if new. */
static struct tv_thread *
state_get(struct tv_state *s, uint32_t machine, int64_t tid, int32_t cpu)
{
	struct tv_thread *t;
	size_t i;

	t = state_lookup(s, machine, tid, cpu);
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
	i = state_slot(s, machine, tid, cpu);
	s->table[i] = (uint32_t)s->nthreads + 1;
	s->nthreads++;
	return t;
}

/* Remove @t: backward-shift deletion, then the last thread fills its slot. */
static void
state_remove(struct tv_state *s, struct tv_thread *t)
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
static struct tv_state_cpu *
state_cpu(struct tv_state *s, uint32_t machine, int32_t cpu)
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
		return state_lookup(s, machine, tid, 0);
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
	return state_lookup(s, machine, c->cur, cpu);
}

/* The state_trace of @stream's trace (cached: streams come in runs). */
static struct state_trace *
state_trace_of(struct tv_state *s, const struct tv_stream *stream)
{
	uint32_t i;

	if (stream == s->last_stream)
		return s->last_trace;
	for (i = 0; i < s->ntraces; i++) {
		if (s->traces[i].trace == stream->trace) {
			s->last_stream = stream;
			s->last_trace = &s->traces[i];
			return s->last_trace;
		}
	}
	return NULL;
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
		c = state_cpu(s, snap->cpus[i].machine, snap->cpus[i].cpu);
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

/* ---- reading decoded fields ---- */

/*
 * Member @name of struct value @v, trying the index that matched last
 * time first (the same class has the same layout); NULL if none.
 */
static const struct tv_value *
state_member(const struct tv_value *v, const char *name, uint16_t *hint)
{
	uint32_t i;

	if (v == NULL || v->fc == NULL || v->fc->kind != TV_FC_STRUCT)
		return NULL;
	if (*hint < v->kids.count && v->kids.items[*hint].name != NULL &&
	    strcmp(v->kids.items[*hint].name, name) == 0)
		return &v->kids.items[*hint];
	for (i = 0; i < v->kids.count; i++) {
		if (v->kids.items[i].name != NULL &&
		    strcmp(v->kids.items[i].name, name) == 0) {
			*hint = (uint16_t)TV_MIN(i, 0xffffu);
			return &v->kids.items[i];
		}
	}
	return NULL;
}

/* The first of the '|'-separated field names @names present in @v. */
static const struct tv_value *
state_arg(const struct tv_value *v, const char *names, uint16_t *hint)
{
	const struct tv_value *f;
	const char *bar;
	char one[64];
	size_t n;

	if (names == NULL)
		return NULL;
	for (;;) {
		bar = strchr(names, '|');
		if (bar == NULL)
			return state_member(v, names, hint);
		n = TV_MIN((size_t)(bar - names), sizeof(one) - 1);
		memcpy(one, names, n);
		one[n] = '\0';
		f = state_member(v, one, hint);
		if (f != NULL)
			return f;
		names = bar + 1;
	}
}

/* Integer argument @a of the event; false if absent. */
static bool
state_int(const struct tv_value *payload, struct state_class *sc,
    enum tv_state_arg a, int64_t *out)
{
	const struct tv_value *f;

	f = state_arg(payload, sc->rule->args[a], &sc->arg_idx[a]);
	return f != NULL && tv_value_as_int(f, out);
}

/*
 * Copy a string or char-array value into @buf (NUL-terminated, cut at
 * the first NUL); false if @f is neither.
 */
static bool
state_value_str(const struct tv_value *f, char *buf, size_t size)
{
	size_t n = 0, i;
	int64_t c;

	if (f == NULL || f->fc == NULL || size == 0)
		return false;
	if (f->fc->kind == TV_FC_STRING) {
		n = strnlen(f->str.ptr, TV_MIN(f->str.len, size - 1));
		memcpy(buf, f->str.ptr, n);
	} else if (f->fc->kind == TV_FC_ARRAY ||
	    f->fc->kind == TV_FC_SEQUENCE) {
		for (i = 0; i < f->kids.count && n < size - 1; i++) {
			if (!tv_value_as_int(&f->kids.items[i], &c) || c == 0)
				break;
			buf[n++] = (char)c;
		}
	} else {
		return false;
	}
	buf[n] = '\0';
	return true;
}

/* String argument @a of the event; false if absent. */
static bool
state_str(const struct tv_value *payload, struct state_class *sc,
    enum tv_state_arg a, char *buf, size_t size)
{
	const struct tv_value *f;

	f = state_arg(payload, sc->rule->args[a], &sc->arg_idx[a]);
	return state_value_str(f, buf, size);
}

/* The scopes an owner field may live in, most specific first. */
static const enum tv_scope owner_scopes[] = {
	TV_SCOPE_EVENT_SPECIFIC_CONTEXT,
	TV_SCOPE_EVENT_COMMON_CONTEXT,
	TV_SCOPE_EVENT_PAYLOAD,
};

/*
 * The owner the event's own fields name: LTTng tid/vtid, pid/vpid and
 * procname contexts, ftrace common_pid.  True if a tid was found.
 */
static bool
state_context_owner(const struct tv_event_fields *f,
    struct tv_event_owner *o)
{
	const struct tv_value *v, *x;
	bool found = false;
	uint16_t hint = 0;
	size_t i;
	int64_t n;

	for (i = 0; i < TV_ARRAY_SIZE(owner_scopes); i++) {
		v = f->scope[owner_scopes[i]];
		if (v == NULL)
			continue;
		if (owner_scopes[i] == TV_SCOPE_EVENT_PAYLOAD) {
			x = state_member(v, "common_pid", &hint);
			if (!found && x != NULL && tv_value_as_int(x, &n)) {
				o->tid = n;
				found = true;
			}
			continue;
		}
		x = state_arg(v, "tid|vtid|common_pid", &hint);
		if (!found && x != NULL && tv_value_as_int(x, &n)) {
			o->tid = n;
			found = true;
		}
		x = state_arg(v, "pid|vpid", &hint);
		if (x != NULL && o->pid == TV_TID_UNKNOWN &&
		    tv_value_as_int(x, &n))
			o->pid = n;
		x = state_member(v, "procname", &hint);
		if (x != NULL && o->name[0] == '\0')
			state_value_str(x, o->name, sizeof(o->name));
	}
	return found;
}

/* ---- transitions ---- */

/* Set @t's scheduling state at @ts; the state is proved, not guessed. */
static void
state_set(struct tv_thread *t, enum tv_thread_state st, int64_t ts)
{
	if (t->state != st || t->since == TV_TIME_NONE)
		t->since = ts;
	t->state = (uint8_t)st;
	t->uncertain = false;
}

/* Name @t (comm semantics: at most 15 bytes). */
static void
state_name(struct tv_thread *t, const char *name)
{
	size_t n = strnlen(name, 15);

	if (n == 0)
		return;
	memcpy(t->name, name, n);
	t->name[n] = '\0';
}

/* Push/pop execution modes. */
static void
state_mode_push(struct tv_thread *t, enum tv_exec_mode m)
{
	if (t->nmodes == 0 && (m == TV_MODE_SYSCALL || m == TV_MODE_TRAP))
		t->modes[t->nmodes++] = TV_MODE_USER;
	if (t->nmodes < TV_MODE_STACK_MAX)
		t->modes[t->nmodes++] = (uint8_t)m;
}

/* Pop mode @m if it is on top; a stray exit only tells the mode below. */
static void
state_mode_pop(struct tv_thread *t, enum tv_exec_mode m)
{
	if (t->nmodes > 0 && t->modes[t->nmodes - 1] == m) {
		t->nmodes--;
		return;
	}
	if (t->nmodes == 0 && m == TV_MODE_SYSCALL)
		t->modes[t->nmodes++] = TV_MODE_USER;
}

/* Scheduling state of a thread switched out with Linux prev_state @ps. */
static enum tv_thread_state
state_from_prev(const struct tv_thread *t, int64_t ps, bool have)
{
	if (t->state == TV_TS_ZOMBIE || t->state == TV_TS_EXITED)
		return (enum tv_thread_state)t->state;
	if (!have)
		return TV_TS_UNKNOWN;
	if ((ps & 0xff) == 0)
		return TV_TS_RUNNABLE;		/* preempted */
	if (ps & LINUX_EXIT_BITS)
		return TV_TS_ZOMBIE;
	return TV_TS_BLOCKED;
}

/* LTTng/LTTV statedump status to a state; UNKNOWN when it proves none. */
static enum tv_thread_state
state_from_status(int64_t status)
{
	switch (status) {
	case 1:		/* WAIT_FORK */
	case 2:		/* WAIT_CPU */
	case 6:		/* RUN: running or runnable, we cannot tell */
		return TV_TS_RUNNABLE;
	case 3:		/* EXIT */
	case 4:		/* ZOMBIE */
		return TV_TS_ZOMBIE;
	case 5:		/* WAIT */
		return TV_TS_BLOCKED;
	case 7:		/* DEAD */
		return TV_TS_EXITED;
	default:
		return TV_TS_UNKNOWN;
	}
}

/* Make @tid current on @c, running since @ts. */
static struct tv_thread *
state_switch_in(struct tv_state *s, uint32_t machine, struct tv_state_cpu *c,
    int64_t tid, int64_t ts)
{
	struct tv_thread *t = state_get(s, machine, tid, c->cpu);

	c->cur = tid;
	c->uncertain = 0;
	if (t == NULL)
		return NULL;
	state_set(t, TV_TS_RUNNING, ts);
	t->cpu = c->cpu;
	return t;
}

/* Apply sched_switch (all formats). */
static void
state_do_switch(struct tv_state *s, uint32_t machine, struct tv_state_cpu *c,
    const struct tv_value *p, struct state_class *sc, int64_t ts)
{
	struct tv_thread *prev = NULL, *next;
	char name[TV_THREAD_NAME_MAX];
	int64_t tid, ntid, ps;
	bool have_ps;

	if (!state_int(p, sc, TV_ARG_TID2, &ntid))
		return;
	if (state_int(p, sc, TV_ARG_TID, &tid))
		prev = state_get(s, machine, tid, c->cpu);
	else if (c->cur != TV_TID_UNKNOWN)
		prev = state_get(s, machine, c->cur, c->cpu);
	if (prev != NULL) {
		prev->woken = TV_TIME_NONE;
		have_ps = state_int(p, sc, TV_ARG_STATE, &ps);
		state_set(prev, state_from_prev(prev, ps, have_ps), ts);
		if (!have_ps)
			prev->uncertain = true;
		prev->cpu = c->cpu;
		if (state_str(p, sc, TV_ARG_NAME, name, sizeof(name)))
			state_name(prev, name);
	}
	next = state_switch_in(s, machine, c, ntid, ts);
	if (next != NULL && state_str(p, sc, TV_ARG_NAME2, name, sizeof(name)))
		state_name(next, name);
}

/* Apply a fork: the child exists, runnable, with its parent's name. */
static void
state_do_fork(struct tv_state *s, uint32_t machine, struct tv_state_cpu *c,
    const struct tv_value *p, struct state_class *sc, int64_t ts)
{
	struct tv_thread *parent = NULL, *child;
	char name[TV_THREAD_NAME_MAX];
	int64_t ptid, ppid = TV_TID_UNKNOWN, ctid, cpid = TV_TID_UNKNOWN;
	int64_t pppid = TV_TID_UNKNOWN;
	char pname[TV_THREAD_NAME_MAX] = "";

	if (!state_int(p, sc, TV_ARG_TID2, &ctid))
		return;
	if (state_int(p, sc, TV_ARG_TID, &ptid) ||
	    (c != NULL && (ptid = c->cur) != TV_TID_UNKNOWN)) {
		parent = state_get(s, machine, ptid, c != NULL ? c->cpu : 0);
		if (parent != NULL) {
			if (state_int(p, sc, TV_ARG_PID, &ppid))
				parent->pid = ppid;
			ppid = parent->pid;
			pppid = parent->ppid;
			if (state_str(p, sc, TV_ARG_NAME, name, sizeof(name)))
				state_name(parent, name);
			memcpy(pname, parent->name, sizeof(pname));
		}
	}
	(void)state_int(p, sc, TV_ARG_PID2, &cpid);
	child = state_lookup(s, machine, ctid, 0);
	if (child != NULL && ctid != 0)
		state_remove(s, child);		/* a reused tid */
	child = state_get(s, machine, ctid, c != NULL ? c->cpu : 0);
	if (child == NULL)
		return;
	child->pid = cpid;
	if (cpid != TV_TID_UNKNOWN && cpid != ctid)
		child->ppid = pppid;		/* a thread of the parent's */
	else if (cpid == ctid)
		child->ppid = ppid;
	memcpy(child->name, pname, sizeof(child->name));
	if (state_str(p, sc, TV_ARG_NAME2, name, sizeof(name)))
		state_name(child, name);
	state_set(child, TV_TS_RUNNABLE, ts);
}

/* Apply a statedump entry: identity always, state only if unknown yet. */
static void
state_do_statedump(struct tv_state *s, uint32_t machine,
    const struct tv_value *p, struct state_class *sc, int64_t ts)
{
	struct tv_thread *t;
	char name[TV_THREAD_NAME_MAX];
	enum tv_thread_state st;
	int64_t tid, v;

	if (!state_int(p, sc, TV_ARG_TID, &tid) || tid == 0)
		return;
	t = state_get(s, machine, tid, 0);
	if (t == NULL)
		return;
	if (state_int(p, sc, TV_ARG_PID, &v))
		t->pid = v;
	if (state_int(p, sc, TV_ARG_PPID, &v))
		t->ppid = v;
	if (state_str(p, sc, TV_ARG_NAME, name, sizeof(name)))
		state_name(t, name);
	if (t->state == TV_TS_UNKNOWN &&
	    state_int(p, sc, TV_ARG_STATE, &v)) {
		st = state_from_status(v);
		if (st != TV_TS_UNKNOWN) {
			state_set(t, st, ts);
			/* "RUN" may mean running on a CPU we do not know */
			t->uncertain = v == 6;
		}
	}
	if (t->cpu == TV_CPU_UNKNOWN && state_int(p, sc, TV_ARG_CPU, &v) &&
	    v >= 0 && v < STATE_MAX_CPU)
		t->cpu = (int32_t)v;
}

/* The thread a rule's optional TID argument names, or the current one. */
static struct tv_thread *
state_subject(struct tv_state *s, uint32_t machine, struct tv_state_cpu *c,
    const struct tv_value *p, struct state_class *sc)
{
	int64_t tid;

	if (state_int(p, sc, TV_ARG_TID, &tid))
		return state_get(s, machine, tid, c != NULL ? c->cpu : 0);
	if (c == NULL || c->cur == TV_TID_UNKNOWN)
		return NULL;
	return state_get(s, machine, c->cur, c->cpu);
}

/*
 * 2004 LTT core.process: the sub-event (enum label) says what happened
 * to the process in event_data1: WAKEUP, FORK (a new child), EXIT (the
 * current process), KTHREAD (a new kernel thread).
 */
static void
state_do_ltt_process(struct tv_state *s, uint32_t machine,
    struct tv_state_cpu *c, const struct tv_value *p, struct state_class *sc,
    int64_t ts)
{
	const struct tv_value *f;
	struct tv_thread *t, *parent;
	const char *label;
	int64_t sub, tid;

	f = state_arg(p, sc->rule->args[TV_ARG_STATE],
	    &sc->arg_idx[TV_ARG_STATE]);
	if (f == NULL || !tv_value_as_int(f, &sub) || f->fc == NULL ||
	    f->fc->kind != TV_FC_ENUM)
		return;
	label = tv_enum_label(f->fc, (uint64_t)sub);
	if (label == NULL || !state_int(p, sc, TV_ARG_TID, &tid))
		return;
	if (strstr(label, "WAKEUP") != NULL) {
		t = state_get(s, machine, tid, c != NULL ? c->cpu : 0);
		if (t != NULL && t->state != TV_TS_RUNNING)
			state_set(t, TV_TS_RUNNABLE, ts);
	} else if (strstr(label, "FORK") != NULL ||
	    strstr(label, "KTHREAD") != NULL) {
		t = state_lookup(s, machine, tid, 0);
		if (t != NULL && tid != 0)
			state_remove(s, t);
		t = state_get(s, machine, tid, 0);
		if (t == NULL)
			return;
		t->pid = tid;
		parent = c != NULL && c->cur != TV_TID_UNKNOWN ?
		    state_lookup(s, machine, c->cur, c->cpu) : NULL;
		if (parent != NULL) {
			t->ppid = parent->pid;
			memcpy(t->name, parent->name, sizeof(t->name));
		}
		state_set(t, TV_TS_RUNNABLE, ts);
	} else if (strstr(label, "EXIT") != NULL && c != NULL &&
	    c->cur != TV_TID_UNKNOWN) {
		t = state_get(s, machine, c->cur, c->cpu);
		if (t != NULL)
			state_set(t, TV_TS_ZOMBIE, ts);
	}
}

/* Apply the rule of one decoded event. */
static void
state_do_rule(struct tv_state *s, uint32_t machine, struct tv_state_cpu *c,
    const struct tv_value *p, struct state_class *sc, int64_t ts)
{
	char name[TV_THREAD_NAME_MAX * 4];
	struct tv_thread *t;
	const char *base;
	int64_t v;

	switch (sc->rule->action) {
	case TV_SA_SWITCH:
		if (c != NULL)
			state_do_switch(s, machine, c, p, sc, ts);
		return;
	case TV_SA_FORK:
		state_do_fork(s, machine, c, p, sc, ts);
		return;
	case TV_SA_STATEDUMP:
		state_do_statedump(s, machine, p, sc, ts);
		return;
	case TV_SA_LTT_PROCESS:
		state_do_ltt_process(s, machine, c, p, sc, ts);
		return;
	default:
		break;
	}
	t = state_subject(s, machine, c, p, sc);
	if (t == NULL)
		return;
	switch (sc->rule->action) {
	case TV_SA_EXEC:
		if (state_str(p, sc, TV_ARG_NAME, name, sizeof(name))) {
			base = strrchr(name, '/');
			state_name(t, base != NULL ? base + 1 : name);
		}
		break;
	case TV_SA_EXIT:
		state_set(t, t->pid != TV_TID_UNKNOWN && t->pid != t->tid ?
		    TV_TS_EXITED : TV_TS_ZOMBIE, ts);
		break;
	case TV_SA_FREE:
		if (t->tid != 0 && (c == NULL || c->cur != t->tid))
			state_remove(s, t);
		else
			state_set(t, TV_TS_EXITED, ts);
		break;
	case TV_SA_WAKEUP:
		/* only a wake-up from a wait starts a wake-up latency */
		if (t->state != TV_TS_RUNNING && t->state != TV_TS_RUNNABLE)
			t->woken = ts;
		if (t->state != TV_TS_RUNNING || t->uncertain)
			state_set(t, TV_TS_RUNNABLE, ts);
		if (state_str(p, sc, TV_ARG_NAME, name, TV_THREAD_NAME_MAX))
			state_name(t, name);
		if (state_int(p, sc, TV_ARG_CPU, &v) && v >= 0 &&
		    v < STATE_MAX_CPU && t->state != TV_TS_RUNNING &&
		    t->tid != 0)
			t->cpu = (int32_t)v;
		break;
	case TV_SA_KTHREAD:
		if (t->pid == TV_TID_UNKNOWN)
			t->pid = t->tid;
		break;
	case TV_SA_SYSCALL_ENTRY:
		state_mode_push(t, TV_MODE_SYSCALL);
		break;
	case TV_SA_SYSCALL_EXIT:
		state_mode_pop(t, TV_MODE_SYSCALL);
		break;
	case TV_SA_IRQ_ENTRY:
		state_mode_push(t, TV_MODE_IRQ);
		break;
	case TV_SA_IRQ_EXIT:
		state_mode_pop(t, TV_MODE_IRQ);
		break;
	case TV_SA_SOFTIRQ_ENTRY:
		state_mode_push(t, TV_MODE_SOFTIRQ);
		break;
	case TV_SA_SOFTIRQ_EXIT:
		state_mode_pop(t, TV_MODE_SOFTIRQ);
		break;
	case TV_SA_TRAP_ENTRY:
		state_mode_push(t, TV_MODE_TRAP);
		break;
	case TV_SA_TRAP_EXIT:
		state_mode_pop(t, TV_MODE_TRAP);
		break;
	default:
		break;
	}
}

/* Lost events on @stream's CPU: what we knew there is now uncertain. */
static void
state_lost(struct tv_state *s, uint32_t machine, int32_t cpu)
{
	struct tv_state_cpu *c = state_cpu(s, machine, cpu);
	size_t i;

	if (c != NULL)
		c->uncertain = 1;
	for (i = 0; i < s->nthreads; i++) {
		if (s->threads[i].machine == machine &&
		    (c == NULL || s->threads[i].cpu == cpu))
			s->threads[i].uncertain = true;
	}
}

/* Resolve the class facts of @sc once. */
static void
state_resolve(struct state_trace *st, struct state_class *sc,
    const struct tv_event_class *cls)
{
	size_t i;

	sc->resolved = 1;
	sc->rule = st->fmt_ok ? tv_state_rule_find(cls->name,
	    st->trace->ops->name) : NULL;
	for (i = 0; sc->rule != NULL && i < TV_ARG_COUNT; i++)
		if (sc->rule->args[i] != NULL)
			sc->reads_fields = 1;
}

/* Fill @o from the thread current on the event's CPU. */
static void
state_owner_from_cpu(const struct tv_state *s, uint32_t machine,
    const struct tv_state_cpu *c, struct tv_event_owner *o)
{
	const struct tv_thread *t;

	if (c == NULL || c->cur == TV_TID_UNKNOWN)
		return;
	o->tid = c->cur;
	t = state_lookup(s, machine, c->cur, c->cpu);
	if (t == NULL)
		return;
	o->pid = t->pid;
	memcpy(o->name, t->name, sizeof(o->name));
}

/*
 * An event whose own context names the thread running on its CPU proves
 * who runs there: fill in an unknown CPU, and when it contradicts what we
 * had (a switch the trace lacks), trust the event and make the thread we
 * believed in unknown.
 */
static void
state_context_proves(struct tv_state *s, uint32_t machine,
    struct tv_state_cpu *c, int64_t tid, int64_t ts)
{
	struct tv_thread *was, *t;
	bool contra = c->cur != TV_TID_UNKNOWN && c->cur != tid;

	if (c->cur == tid && !c->uncertain)
		return;
	if (contra) {
		was = state_lookup(s, machine, c->cur, c->cpu);
		if (was != NULL && was->state == TV_TS_RUNNING) {
			state_set(was, TV_TS_UNKNOWN, ts);
			was->uncertain = true;
		}
	}
	t = state_switch_in(s, machine, c, tid, ts);
	/* running, but since when the trace does not say */
	if (t != NULL && contra)
		t->uncertain = true;
}

/* See state.h. */
enum tv_status
tv_state_apply(struct tv_state *s, const struct tv_event *ev,
    struct tv_event_owner *owner, struct tv_error *err)
{
	const struct tv_event_class *cls;
	struct tv_event_owner o, *op = owner != NULL ? owner : &o;
	struct tv_event_fields f;
	struct state_trace *st;
	struct state_class *sc;
	struct tv_state_cpu *c;
	const struct tv_thread *t;
	uint32_t machine;
	bool need;

	(void)err;
	op->tid = TV_TID_UNKNOWN;
	op->pid = TV_TID_UNKNOWN;
	op->name[0] = '\0';
	op->from_context = false;
	st = state_trace_of(s, ev->stream);
	if (st == NULL)
		return TV_OK;
	machine = st->machine;
	if (ev->rec.ts != TV_TIME_NONE)
		s->time = ev->rec.ts;
	c = state_cpu(s, machine, ev->stream->cpu);
	if (ev->rec.kind != TV_REC_EVENT) {
		state_lost(s, machine, ev->stream->cpu);
		return TV_OK;
	}
	if (ev->rec.class_index >= st->nclasses)
		return TV_OK;
	sc = &st->classes[ev->rec.class_index];
	cls = st->trace->classes[ev->rec.class_index];
	if (!sc->resolved)
		state_resolve(st, sc, cls);
	need = sc->reads_fields || !sc->owner_known || sc->has_owner;
	if (!need) {
		/* syscall, IRQ, ...: no field to read, no decoding */
		state_owner_from_cpu(s, machine, c, op);
		if (sc->rule != NULL)
			state_do_rule(s, machine, c, NULL, sc, ev->rec.ts);
		return TV_OK;
	}
	tv_arena_reset(&s->arena);
	if (tv_event_decode(ev, &s->arena, &f, NULL) != TV_OK) {
		state_owner_from_cpu(s, machine, c, op);
		return TV_OK;
	}
	if (!sc->owner_known) {
		sc->owner_known = 1;
		sc->has_owner = state_context_owner(&f, op);
		op->tid = TV_TID_UNKNOWN;
		op->pid = TV_TID_UNKNOWN;
		op->name[0] = '\0';
	}
	if (sc->has_owner && state_context_owner(&f, op)) {
		op->from_context = true;
		t = state_lookup(s, machine, op->tid, ev->stream->cpu);
		if (t != NULL) {
			if (op->pid == TV_TID_UNKNOWN)
				op->pid = t->pid;
			if (op->name[0] == '\0')
				memcpy(op->name, t->name, sizeof(op->name));
		}
		if (c != NULL && (sc->rule == NULL ||
		    sc->rule->action != TV_SA_ECHO))
			state_context_proves(s, machine, c, op->tid,
			    ev->rec.ts);
	} else {
		state_owner_from_cpu(s, machine, c, op);
	}
	if (sc->rule != NULL)
		state_do_rule(s, machine, c, f.scope[TV_SCOPE_EVENT_PAYLOAD],
		    sc, ev->rec.ts);
	return TV_OK;
}
