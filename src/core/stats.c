/*
 * The statistics walk (see stats.h): one pass over the merged timeline
 * with a private tv_state.  Around each record it reads the state of the
 * record's CPU before and after: the interval since the CPU's previous
 * record is charged to whoever ran there before; a change of the running
 * thread whose new thread was woken gives a wake-up latency; a deeper or
 * shallower mode stack on the same thread starts or ends a system call,
 * IRQ or softirq.  Per-thread figures sit beside a thread-map.h index.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/format.h"
#include "tview/merge.h"
#include "tview/span.h"
#include "tview/util.h"
#include "state-priv.h"
#include "stats-priv.h"
#include "thread-map.h"

/* Records between two polls of the cancel flag. */
#define STATS_POLL_EVERY	4096
/* CPU numbers beyond this are not given rows (hostile traces). */
#define STATS_MAX_CPU		4096
/* Nesting depths of function spans whose entry record is remembered. */
#define STATS_SPAN_DEPTH	32

/*
 * A thread: its public row, the start of each level of its modes, and
 * its mode stack as the walk last saw it (depth and top), which is what
 * a record that also put it on its CPU changed.
 */
struct stats_thread {
	struct tv_time_row	 row;
	int64_t			 start[TV_MODE_STACK_MAX];
	const char		*label[TV_MODE_STACK_MAX];
	uint8_t			 nmodes;
	uint8_t			 top;		/* enum tv_exec_mode */
	int64_t			 woken;		/* the wake-up last timed */
};

/*
 * A CPU: its row, the time of its previous record, and the time of the
 * open function span entry record at each depth.
 */
struct stats_cpu {
	struct tv_time_row	 row;
	int64_t			 last;		/* TV_TIME_NONE before any */
	int64_t			 span[STATS_SPAN_DEPTH];
	bool			 used;
};

/* Per trace: a label per event class (what a syscall entry names). */
struct stats_trace {
	const char		**labels;	/* nclasses; NULL = not yet */
	uint64_t		*counts;	/* records per class */
	uint32_t		 nclasses;	/* of labels and counts */
};

/* One system call's or function's series. */
struct stats_named {
	enum tv_lat_kind	 kind;
	const char		*label;
	struct tv_series	 series;
};

struct tv_stats {
	struct tv_trace_set	*set;
	struct tv_state		*state;
	struct stats_trace	*traces;	/* ntraces */
	uint32_t		 ntraces;
	/* threads, indexed as in @map */
	struct tv_thread_map	 map;
	struct stats_thread	*threads;
	size_t			 nthreads, threads_cap;
	/* CPUs: machines * cpus, grown as met */
	struct stats_cpu	*cpus;
	uint32_t		 ncpus;		/* per machine */
	uint32_t		 nmachines;
	/* latencies */
	struct tv_series	 kinds[TV_LAT_COUNT];
	struct stats_named	*named;		/* by kind and label */
	size_t			 nnamed, named_cap;
	/* named[] by (kind, interned label): index + 1, 0 empty */
	uint32_t		*slots;
	size_t			 nslots;		/* power of 2 */
	struct tv_span_reader	*spans;
	struct tv_intern	*names;		/* function names */
	/* results */
	struct tv_class_count	*classes;
	size_t			 nclasses;
	struct tv_time_row	*cpu_rows;
	size_t			 ncpu_rows;
	struct tv_time_row	*thread_rows;
	size_t			 nthread_rows;
	struct tv_lat_series	*lat[TV_LAT_COUNT];
	size_t			 nlat[TV_LAT_COUNT];
	uint64_t		 events, lost;
	int64_t			 begin, end;
	/*
	 * The walk so far (tv_stats_walk): every record before @until has
	 * been walked and none after; @ended once past the range's end.
	 * @until is TV_TIME_NONE before the first walk, INT64_MAX after one
	 * to the end of a trace not followed.  The class counts of each
	 * trace it saw, for tv_trace_set_classes_grew().
	 */
	int64_t			 until;
	int64_t			 last_ts;
	bool			 ended;
	uint64_t		 walked;	/* by the last walk */
	uint32_t		*seen_classes;	/* per trace */
	uint32_t		 nseen_classes;
	struct tv_stream	**seen_streams;	/* set->streams then */
	uint32_t		 nseen_streams;
	/* the filtered view: see tv_stats_set_keep() */
	tv_pass_pred		 keep;
	void			*keep_arg;
	enum tv_walk_pages	 pages;		/* tv_stats_set_sequential */
	struct tv_arena		 arena;
};

static const char *const lat_names[TV_LAT_COUNT] = {
	"wakeup", "syscall", "irq", "softirq", "function",
};

/* See stats.h. */
const char *
tv_lat_kind_name(enum tv_lat_kind kind)
{
	return kind < TV_LAT_COUNT ? lat_names[kind] : "?";
}

/* See stats.h. */
bool
tv_lat_kind_parse(const char *name, enum tv_lat_kind *out)
{
	size_t i;

	for (i = 0; i < TV_LAT_COUNT; i++) {
		if (strcmp(name, lat_names[i]) == 0) {
			*out = (enum tv_lat_kind)i;
			return true;
		}
	}
	return false;
}

/*
 * The counts of trace @i of the set, grown to the traces and classes
 * it has now: a trace followed gains classes and traces while the
 * statistics are kept (tv_trace_set_extend).
 */
static struct stats_trace *
stats_trace_at(struct tv_stats *st, uint32_t i)
{
	const struct tv_trace *tr = st->set->traces[i];
	struct stats_trace *s;

	if (i >= st->ntraces) {
		st->traces = tv_xreallocarray(st->traces, st->set->ntraces,
		    sizeof(*st->traces));
		memset(st->traces + st->ntraces, 0, sizeof(*st->traces) *
		    (st->set->ntraces - st->ntraces));
		st->ntraces = st->set->ntraces;
	}
	s = &st->traces[i];
	if (s->nclasses < tr->nclasses) {
		s->labels = tv_xreallocarray(s->labels, tr->nclasses,
		    sizeof(*s->labels));
		s->counts = tv_xreallocarray(s->counts, tr->nclasses,
		    sizeof(*s->counts));
		memset(s->labels + s->nclasses, 0, sizeof(*s->labels) *
		    (tr->nclasses - s->nclasses));
		memset(s->counts + s->nclasses, 0, sizeof(*s->counts) *
		    (tr->nclasses - s->nclasses));
		s->nclasses = tr->nclasses;
	}
	return s;
}

/* Empty accumulators over @st->set, the range open, nothing walked. */
static void
stats_init(struct tv_stats *st)
{
	uint32_t i;

	for (i = 0; i < TV_LAT_COUNT; i++)
		tv_series_init(&st->kinds[i], lat_names[i]);
	st->begin = st->end = TV_TIME_NONE;
	st->until = st->last_ts = TV_TIME_NONE;
	tv_thread_map_init(&st->map);
	st->spans = tv_span_reader_create(st->set);
	st->names = tv_intern_create();
	tv_arena_init(&st->arena);
}

/* The published tables, freed before they are made again. */
static void
stats_clear_results(struct tv_stats *st)
{
	size_t i;

	for (i = 0; i < TV_LAT_COUNT; i++) {
		free(st->lat[i]);
		st->lat[i] = NULL;
		st->nlat[i] = 0;
	}
	free(st->classes);
	free(st->cpu_rows);
	free(st->thread_rows);
	st->classes = NULL;
	st->cpu_rows = st->thread_rows = NULL;
	st->nclasses = st->ncpu_rows = st->nthread_rows = 0;
}

/* Free everything stats_init() and the walks made. */
static void
stats_clear(struct tv_stats *st)
{
	size_t i;

	tv_state_destroy(st->state);
	for (i = 0; i < st->ntraces; i++) {
		free(st->traces[i].labels);
		free(st->traces[i].counts);
	}
	free(st->traces);
	free(st->threads);
	tv_thread_map_fini(&st->map);
	free(st->cpus);
	for (i = 0; i < TV_LAT_COUNT; i++)
		tv_series_fini(&st->kinds[i]);
	for (i = 0; i < st->nnamed; i++)
		tv_series_fini(&st->named[i].series);
	free(st->named);
	free(st->slots);
	tv_span_reader_destroy(st->spans);
	tv_intern_destroy(st->names);
	tv_arena_fini(&st->arena);
	stats_clear_results(st);
	free(st->seen_classes);
	free(st->seen_streams);
}

/*
 * Start over: the same set, range and filter, nothing counted (the
 * trace changed in a way a walk cannot go on from).
 */
static void
stats_reset(struct tv_stats *st)
{
	struct tv_trace_set *set = st->set;
	tv_pass_pred keep = st->keep;
	void *keep_arg = st->keep_arg;
	int64_t begin = st->begin, end = st->end;

	stats_clear(st);
	memset(st, 0, sizeof(*st));
	st->set = set;
	stats_init(st);
	st->keep = keep;
	st->keep_arg = keep_arg;
	st->begin = begin;
	st->end = end;
}

/* See stats.h. */
struct tv_stats *
tv_stats_create(struct tv_trace_set *set)
{
	struct tv_stats *st = tv_xcalloc(1, sizeof(*st));

	st->set = set;
	st->pages = TV_PAGES_RELEASE;
	stats_init(st);
	return st;
}

/* See stats.h. */
void
tv_stats_destroy(struct tv_stats *st)
{
	if (st == NULL)
		return;
	stats_clear(st);
	free(st);
}

/* ---- threads ---- */

/* The entry of thread @t (created empty when new). */
static struct stats_thread *
stats_thread(struct tv_stats *st, const struct tv_thread *t)
{
	struct stats_thread *e;
	bool added;
	size_t i, l;

	i = tv_thread_map_get(&st->map, t->machine, t->tid, t->cpu, &added);
	if (!added)
		return &st->threads[i];
	TV_VEC_GROW(st->threads, st->nthreads, st->threads_cap);
	e = &st->threads[st->nthreads++];
	memset(e, 0, sizeof(*e));
	e->row.machine = t->machine;
	e->row.tid = t->tid;
	e->row.pid = t->pid;
	e->row.cpu = t->tid == 0 ? t->cpu : TV_CPU_UNKNOWN;
	for (l = 0; l < TV_MODE_STACK_MAX; l++)
		e->start[l] = TV_TIME_NONE;
	e->woken = TV_TIME_NONE;
	return e;
}

/* The entry of thread @t, its name and PID refreshed from the state. */
static struct stats_thread *
stats_thread_named(struct tv_stats *st, const struct tv_thread *t)
{
	struct stats_thread *e = stats_thread(st, t);

	if (t->name[0] != '\0' && strcmp(e->row.name, t->name) != 0)
		memcpy(e->row.name, t->name, sizeof(e->row.name));
	if (t->pid != TV_TID_UNKNOWN)
		e->row.pid = t->pid;
	return e;
}

/* The entry of CPU @cpu of @machine, or NULL out of range. */
static struct stats_cpu *
stats_cpu(struct tv_stats *st, uint32_t machine, int32_t cpu)
{
	struct stats_cpu *grown;
	uint32_t ncpus, nmach, m, c, l;

	if (cpu < 0 || cpu >= STATS_MAX_CPU || machine > 1024)
		return NULL;
	if (machine >= st->nmachines || (uint32_t)cpu >= st->ncpus) {
		ncpus = TV_MAX(st->ncpus, (uint32_t)cpu + 1);
		nmach = TV_MAX(st->nmachines, machine + 1);
		grown = tv_xcalloc((size_t)ncpus * nmach, sizeof(*grown));
		for (m = 0; m < nmach; m++) {
			for (c = 0; c < ncpus; c++) {
				struct stats_cpu *g = &grown[m * ncpus + c];

				if (m < st->nmachines && c < st->ncpus) {
					*g = st->cpus[m * st->ncpus + c];
					continue;
				}
				g->row.machine = m;
				g->row.cpu = (int32_t)c;
				g->row.tid = TV_TID_UNKNOWN;
				g->row.pid = TV_TID_UNKNOWN;
				g->last = TV_TIME_NONE;
				for (l = 0; l < STATS_SPAN_DEPTH; l++)
					g->span[l] = TV_TIME_NONE;
			}
		}
		free(st->cpus);
		st->cpus = grown;
		st->ncpus = ncpus;
		st->nmachines = nmach;
	}
	return &st->cpus[machine * st->ncpus + (uint32_t)cpu];
}

/* ---- accounting ---- */

/* The mode on top of @t's stack (UNKNOWN when it has none). */
static enum tv_exec_mode
stats_top(const struct tv_thread *t)
{
	return t->nmodes > 0 ?
	    (enum tv_exec_mode)t->modes[t->nmodes - 1] : TV_MODE_UNKNOWN;
}

/* Charge [@from, @to] clipped to the range to what runs on @c. */
static void
stats_charge(struct tv_stats *st, struct stats_cpu *c,
    const struct tv_thread *t, int64_t from, int64_t to)
{
	enum tv_exec_mode m;
	int64_t dt;

	if (st->begin != TV_TIME_NONE && from < st->begin)
		from = st->begin;
	if (st->end != TV_TIME_NONE && to > st->end)
		to = st->end;
	if (to <= from)
		return;
	dt = to - from;
	if (t == NULL) {
		c->row.unknown_ns += dt;
		return;
	}
	m = stats_top(t);
	if (t->tid == 0 && m != TV_MODE_IRQ && m != TV_MODE_SOFTIRQ) {
		c->row.idle_ns += dt;
		return;
	}
	c->row.ns[m] += dt;
	stats_thread_named(st, t)->row.ns[m] += dt;
}

/* The label of @ev's class: the part of its name the rule leaves. */
static const char *
stats_label(struct tv_stats *st, const struct tv_event *ev)
{
	const struct tv_trace *tr = ev->stream->trace;
	const struct tv_event_class *cls = tv_event_class_of(ev);
	struct stats_trace *s;
	const char *label;
	uint32_t i;

	if (cls == NULL)
		return "?";
	for (i = 0; i < st->set->ntraces && st->set->traces[i] != tr; i++)
		;
	if (i == st->set->ntraces)
		return cls->name;
	s = stats_trace_at(st, i);
	if (cls->index >= s->nclasses)
		return cls->name;
	if (s->labels[cls->index] == NULL) {
		/* interned: one pointer per name across traces */
		label = tv_state_rule_label(tv_state_rule_find(cls->name,
		    tr->ops), cls->name);
		s->labels[cls->index] = tv_intern(st->names, label,
		    strlen(label));
	}
	return s->labels[cls->index];
}

/* The slot of (@kind, @label) in the table: its entry or an empty one. */
static uint32_t *
stats_slot(struct tv_stats *st, enum tv_lat_kind kind, const char *label)
{
	uint64_t h = ((uint64_t)(uintptr_t)label ^ (uint64_t)kind) *
	    UINT64_C(0x9e3779b97f4a7c15);
	size_t i = (size_t)(h >> 32) & (st->nslots - 1);
	const struct stats_named *n;

	for (;; i = (i + 1) & (st->nslots - 1)) {
		if (st->slots[i] == 0)
			return &st->slots[i];
		n = &st->named[st->slots[i] - 1];
		if (n->kind == kind && n->label == label)
			return &st->slots[i];
	}
}

/*
 * The series of system call or function @label (interned: equal names
 * are one pointer), created when new; a hash, as a function_graph trace
 * names thousands of functions and looks one up per exit record.
 */
static struct tv_series *
stats_named(struct tv_stats *st, enum tv_lat_kind kind, const char *label)
{
	uint32_t *slot;
	size_t i;

	if (st->nnamed * 2 >= st->nslots) {
		free(st->slots);
		st->nslots = st->nslots ? st->nslots * 2 : 64;
		st->slots = tv_xcalloc(st->nslots, sizeof(*st->slots));
		for (i = 0; i < st->nnamed; i++)
			*stats_slot(st, st->named[i].kind,
			    st->named[i].label) = (uint32_t)i + 1;
	}
	slot = stats_slot(st, kind, label);
	if (*slot != 0)
		return &st->named[*slot - 1].series;
	TV_VEC_GROW(st->named, st->nnamed, st->named_cap);
	st->named[st->nnamed].kind = kind;
	st->named[st->nnamed].label = label;
	tv_series_init(&st->named[st->nnamed].series, label);
	*slot = (uint32_t)++st->nnamed;
	return &st->named[st->nnamed - 1].series;
}

/* A mode level that ended at @ts: its latency, when its start is known. */
static void
stats_mode_end(struct tv_stats *st, struct stats_thread *e, uint8_t level,
    enum tv_exec_mode m, int64_t ts, int32_t cpu)
{
	struct tv_lat_instance in;
	enum tv_lat_kind kind;

	if (level >= TV_MODE_STACK_MAX || e->start[level] == TV_TIME_NONE)
		return;
	switch (m) {
	case TV_MODE_SYSCALL:
		kind = TV_LAT_SYSCALL;
		break;
	case TV_MODE_IRQ:
		kind = TV_LAT_IRQ;
		break;
	case TV_MODE_SOFTIRQ:
		kind = TV_LAT_SOFTIRQ;
		break;
	default:
		e->start[level] = TV_TIME_NONE;
		return;
	}
	in.ts = e->start[level];
	in.dur = ts - e->start[level];
	in.tid = e->row.tid;
	in.cpu = cpu;
	in.machine = e->row.machine;
	e->start[level] = TV_TIME_NONE;
	if (in.dur < 0 || (st->begin != TV_TIME_NONE && in.ts < st->begin))
		return;
	tv_series_add(&st->kinds[kind], &in);
	if (kind == TV_LAT_SYSCALL && e->label[level] != NULL)
		tv_series_add(stats_named(st, kind, e->label[level]), &in);
}

/*
 * Thread @t of entry @e went from @before_n modes (@before_top on top) to
 * its present ones at record @ev: a level pushed starts a system call,
 * IRQ, softirq or trap; the level popped ends one.
 */
static void
stats_moved(struct tv_stats *st, struct stats_thread *e,
    const struct tv_thread *t, const struct tv_event *ev, uint8_t before_n,
    enum tv_exec_mode before_top, int32_t cpu)
{
	int64_t ts = ev->rec.ts;
	uint8_t l;

	if (t->nmodes > before_n) {
		for (l = before_n; l < t->nmodes; l++) {
			e->start[l] = TV_TIME_NONE;
			e->label[l] = NULL;
		}
		l = (uint8_t)(t->nmodes - 1);
		if (stats_top(t) != TV_MODE_USER) {
			e->start[l] = ts;
			e->label[l] = stats_label(st, ev);
		}
	} else if (t->nmodes < before_n) {
		/* popped: the level that was on top ended */
		stats_mode_end(st, e, (uint8_t)(before_n - 1), before_top, ts,
		    cpu);
		for (l = t->nmodes; l + 1 < before_n; l++)
			e->start[l] = TV_TIME_NONE;
	}
	e->nmodes = t->nmodes;
	e->top = (uint8_t)stats_top(t);
}

/*
 * After a record @ev on @cpu, owned by @o: compare the state with what
 * it was before (@before_tid running, @before_n modes with @before_top
 * on top).
 */
static void
stats_after(struct tv_stats *st, const struct tv_event *ev,
    const struct tv_event_owner *o, uint32_t machine, int32_t cpu,
    int64_t before_tid, uint8_t before_n, enum tv_exec_mode before_top)
{
	const struct tv_thread *t = tv_state_running(st->state, machine, cpu);
	struct tv_lat_instance in;
	struct stats_thread *e;
	int64_t ts = ev->rec.ts;

	if (t == NULL)
		return;
	if (t->tid != before_tid) {
		/*
		 * Switched in: a wake-up latency if it waited after one.
		 * Once: the state keeps the wake-up until the thread is
		 * switched out, and a thread displaced by records of another
		 * (switches the trace lacks) comes back without one.
		 */
		e = stats_thread(st, t);
		if (t->woken != TV_TIME_NONE && ts >= t->woken &&
		    t->woken != e->woken &&
		    (st->begin == TV_TIME_NONE || t->woken >= st->begin)) {
			e->woken = t->woken;
			in.ts = t->woken;
			in.dur = ts - t->woken;
			in.tid = t->tid;
			in.cpu = cpu;
			in.machine = machine;
			tv_series_add(&st->kinds[TV_LAT_WAKEUP], &in);
		}
		/*
		 * Put there by its own record, not by a switch (the trace
		 * lacks the switch, or the CPU's first records): that record
		 * may also have entered or left a system call, which the
		 * modes it had when the walk last saw it tell.  A switch
		 * changes no modes: the entry only catches up.
		 */
		if (o->from_context && o->tid == t->tid)
			stats_moved(st, e, t, ev, e->nmodes,
			    (enum tv_exec_mode)e->top, cpu);
		e->nmodes = t->nmodes;
		e->top = (uint8_t)stats_top(t);
		return;
	}
	if (t->nmodes == before_n)
		return;
	stats_moved(st, stats_thread(st, t), t, ev, before_n, before_top, cpu);
}

/*
 * A function span record on CPU @c: an entry is remembered at its depth;
 * an exit inside the range gives the function's duration, from the call
 * and return times it carries.  The instance starts at its entry record
 * when that was seen (so a jump lands on it), else that long before the
 * exit record.
 */
static void
stats_span(struct tv_stats *st, const struct tv_event *ev,
    const struct tv_event_owner *o, struct stats_cpu *c, uint32_t machine,
    bool in)
{
	struct tv_lat_instance li;
	struct tv_span sp;
	char name[128];
	int64_t *entry;

	if (!tv_span_read(st->spans, ev, &sp))
		return;
	entry = c != NULL && sp.depth >= 0 && sp.depth < STATS_SPAN_DEPTH ?
	    &c->span[sp.depth] : NULL;
	if (sp.end == TV_SPAN_ENTRY) {
		if (entry != NULL)
			*entry = ev->rec.ts;
		return;
	}
	if (entry != NULL && *entry != TV_TIME_NONE && *entry <= ev->rec.ts)
		li.ts = *entry;
	else if (__builtin_sub_overflow(ev->rec.ts, sp.dur, &li.ts))
		li.ts = ev->rec.ts;	/* hostile times */
	if (entry != NULL)
		*entry = TV_TIME_NONE;
	if (!in || (st->begin != TV_TIME_NONE && li.ts < st->begin))
		return;
	li.dur = sp.dur;
	li.tid = o->tid;
	li.cpu = ev->stream->cpu;
	li.machine = machine;
	tv_span_name(ev, &sp, name, sizeof(name));
	tv_series_add(&st->kinds[TV_LAT_FUNCTION], &li);
	tv_series_add(stats_named(st, TV_LAT_FUNCTION,
	    tv_intern(st->names, name, strlen(name))), &li);
}

/* Count one record inside the range. */
static void
stats_count(struct tv_stats *st, const struct tv_event *ev,
    const struct tv_event_owner *o, struct stats_cpu *c, uint32_t machine)
{
	const struct tv_thread *t;
	struct stats_thread *e;
	uint32_t i;

	if (ev->rec.kind != TV_REC_EVENT) {
		st->lost += ev->rec.count;
		return;
	}
	if (st->keep != NULL) {
		tv_arena_reset(&st->arena);
		if (!st->keep(st->keep_arg, ev, o, &st->arena))
			return;
	}
	st->events++;
	for (i = 0; i < st->set->ntraces; i++) {
		if (st->set->traces[i] == ev->stream->trace) {
			struct stats_trace *s = stats_trace_at(st, i);

			if (ev->rec.class_index < s->nclasses)
				s->counts[ev->rec.class_index]++;
			break;
		}
	}
	if (c != NULL)
		c->row.events++;
	if (o->tid == TV_TID_UNKNOWN)
		return;
	t = tv_state_find(st->state, machine, o->tid);
	if (t == NULL || (o->tid == 0 && (t = tv_state_running(st->state,
	    machine, ev->stream->cpu)) == NULL) || t->tid != o->tid)
		return;
	e = stats_thread_named(st, t);
	e->row.events++;
}

/* ---- results ---- */

/* Classes by name for merging, then by count. */
static int
class_name_cmp(const void *pa, const void *pb)
{
	const struct tv_class_count *a = pa, *b = pb;

	return strcmp(a->name, b->name);
}

static int
class_count_cmp(const void *pa, const void *pb)
{
	const struct tv_class_count *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* See stats.h. */
int64_t
tv_time_row_running(const struct tv_time_row *r)
{
	int64_t sum = 0;
	size_t m;

	for (m = 0; m < TV_MODE_COUNT; m++)
		sum += r->ns[m];
	return sum;
}

static int
thread_row_cmp(const void *pa, const void *pb)
{
	const struct tv_time_row *a = pa, *b = pb;
	int64_t ta = tv_time_row_running(a);
	int64_t tb = tv_time_row_running(b);

	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (a->events != b->events)
		return a->events > b->events ? -1 : 1;
	if (a->machine != b->machine)
		return a->machine < b->machine ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
}

static int
named_cmp(const void *pa, const void *pb)
{
	const struct tv_lat_series *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* A row changed for the tables only, and what it held before. */
struct stats_saved {
	bool			 thread;	/* else a CPU */
	size_t			 i;
	struct tv_time_row	 row;
};

/*
 * Make every result table from the accumulators, which stay as they
 * are so the walk can go on: the interval each CPU is in when the walk
 * stopped is charged for the tables and then taken back.  It runs to
 * the end of the range when the walk went that far, else to the last
 * record walked.
 */
static void
stats_publish(struct tv_stats *st)
{
	const struct tv_thread *t;
	struct stats_saved *saved;
	struct stats_cpu *c;
	size_t i, j, n, nsaved = 0, ncpus;
	int64_t to;
	uint32_t k;

	stats_clear_results(st);
	to = st->last_ts;
	if (st->end != TV_TIME_NONE && (st->ended || st->until == INT64_MAX))
		to = st->end;
	ncpus = (size_t)st->nmachines * st->ncpus;
	saved = tv_xcalloc(2 * ncpus + 1, sizeof(*saved));
	for (i = 0; i < ncpus; i++) {
		c = &st->cpus[i];
		if (!c->used || c->last == TV_TIME_NONE)
			continue;
		t = tv_state_running(st->state, c->row.machine, c->row.cpu);
		saved[nsaved].thread = false;
		saved[nsaved].i = i;
		saved[nsaved++].row = c->row;
		if (t != NULL) {
			j = (size_t)(stats_thread_named(st, t) - st->threads);
			saved[nsaved].thread = true;
			saved[nsaved].i = j;
			saved[nsaved++].row = st->threads[j].row;
		}
		stats_charge(st, c, t, c->last, to);
	}
	/* classes, merged by name across traces */
	n = 0;
	for (k = 0; k < st->ntraces; k++)
		n += st->traces[k].nclasses;
	st->classes = tv_xcalloc(n + 1, sizeof(*st->classes));
	for (k = 0; k < st->ntraces; k++) {
		for (j = 0; j < st->traces[k].nclasses; j++) {
			if (st->traces[k].counts[j] == 0)
				continue;
			st->classes[st->nclasses].name =
			    st->set->traces[k]->classes[j]->name;
			st->classes[st->nclasses++].count =
			    st->traces[k].counts[j];
		}
	}
	qsort(st->classes, st->nclasses, sizeof(*st->classes),
	    class_name_cmp);
	for (i = 0, j = 0; i < st->nclasses; i++) {
		if (j > 0 && strcmp(st->classes[j - 1].name,
		    st->classes[i].name) == 0)
			st->classes[j - 1].count += st->classes[i].count;
		else
			st->classes[j++] = st->classes[i];
	}
	st->nclasses = j;
	qsort(st->classes, st->nclasses, sizeof(*st->classes),
	    class_count_cmp);
	/* CPUs that had records */
	st->cpu_rows = tv_xcalloc((size_t)st->nmachines * st->ncpus + 1,
	    sizeof(*st->cpu_rows));
	for (i = 0; i < (size_t)st->nmachines * st->ncpus; i++)
		if (st->cpus[i].used)
			st->cpu_rows[st->ncpu_rows++] = st->cpus[i].row;
	/* threads with time or events, named as the state last knew them */
	st->thread_rows = tv_xcalloc(st->nthreads + 1,
	    sizeof(*st->thread_rows));
	for (i = 0; i < st->nthreads; i++) {
		struct tv_time_row *r = &st->threads[i].row;

		if (tv_time_row_running(r) == 0 && r->events == 0)
			continue;
		if (r->tid == 0 && r->name[0] == '\0')
			memcpy(r->name, "swapper", sizeof("swapper"));
		st->thread_rows[st->nthread_rows++] = *r;
	}
	qsort(st->thread_rows, st->nthread_rows, sizeof(*st->thread_rows),
	    thread_row_cmp);
	/* latencies: the kind first, then one series per name */
	for (i = 0; i < st->nnamed; i++)
		tv_series_finish(&st->named[i].series);
	for (k = 0; k < TV_LAT_COUNT; k++) {
		st->lat[k] = tv_xcalloc(st->nnamed + 1, sizeof(*st->lat[k]));
		tv_series_finish(&st->kinds[k]);
		st->lat[k][0] = st->kinds[k].pub;
		for (i = 0, n = 0; i < st->nnamed; i++)
			if (st->named[i].kind == (enum tv_lat_kind)k)
				st->lat[k][1 + n++] = st->named[i].series.pub;
		qsort(st->lat[k] + 1, n, sizeof(*st->lat[k]), named_cmp);
		st->nlat[k] = n + 1;
	}
	/* back as the walk left them, the last saved first */
	while (nsaved-- > 0) {
		if (saved[nsaved].thread)
			st->threads[saved[nsaved].i].row = saved[nsaved].row;
		else
			st->cpus[saved[nsaved].i].row = saved[nsaved].row;
	}
	free(saved);
}

/* See stats.h. */
void
tv_stats_set_keep(struct tv_stats *st, tv_pass_pred keep, void *arg)
{
	st->keep = keep;
	st->keep_arg = arg;
}

/* Note what the walk reads: the traces' classes, the streams. */
static void
stats_note_set(struct tv_stats *st)
{
	tv_trace_set_note_classes(st->set, &st->seen_classes,
	    &st->nseen_classes);
	st->seen_streams = tv_xreallocarray(st->seen_streams,
	    TV_MAX(st->set->nstreams, 1u), sizeof(*st->seen_streams));
	st->nseen_streams = st->set->nstreams;
	if (st->nseen_streams > 0)	/* no streams: set->streams NULL */
		memcpy(st->seen_streams, st->set->streams,
		    st->nseen_streams * sizeof(*st->seen_streams));
}

/*
 * Whether a stream the last walk did not know may hold records before
 * where it stopped (a file that appeared since, an application's
 * buffers): the streams it knew gain packets only after their last one,
 * which ended at or after the settled time it stopped at.
 */
static bool
stats_streams_changed(const struct tv_stats *st)
{
	const struct tv_stream *s;
	uint32_t i;

	if (tv_trace_set_renumbered(st->set, st->seen_streams,
	    st->nseen_streams))
		return true;
	for (i = st->nseen_streams; i < st->set->nstreams; i++) {
		s = st->set->streams[i];
		if (s->npackets > 0 &&
		    (s->packets[0].ts_begin == TV_TIME_NONE ||
		    s->packets[0].ts_begin < st->until))
			return true;
	}
	return false;
}

/*
 * Can the walk go on from where it stopped?  Not when a trace gained
 * event classes since (packets read before the metadata grew may hold
 * records the walk did not see), nor when a stream it did not know may
 * hold earlier records, nor when it ran to the end of a trace not
 * followed then and is now asked to stop at a settled time.
 */
static bool
stats_can_go_on(const struct tv_stats *st, int64_t until)
{
	if (st->state == NULL)
		return true;
	if (st->until == INT64_MAX && until < INT64_MAX)
		return false;
	return !tv_trace_set_classes_grew(st->set, st->seen_classes,
	    st->nseen_classes) && !stats_streams_changed(st);
}

/* One record of the walk, applied to the state by @w in the middle. */
static void
stats_record(struct tv_stats *st, struct tv_state_walk *w,
    const struct tv_event *ev)
{
	struct tv_event_owner o;
	const struct tv_thread *t;
	struct stats_cpu *c;
	int64_t before_tid;
	enum tv_exec_mode before_top;
	uint8_t before_n;
	uint32_t machine;
	bool in;

	in = st->begin == TV_TIME_NONE || ev->rec.ts >= st->begin;
	machine = tv_state_machine_of(st->state, ev->stream);
	c = stats_cpu(st, machine, ev->stream->cpu);
	t = c != NULL ? tv_state_running(st->state, machine,
	    ev->stream->cpu) : NULL;
	before_tid = t != NULL ? t->tid : TV_TID_UNKNOWN;
	before_n = t != NULL ? t->nmodes : 0;
	before_top = t != NULL ? stats_top(t) : TV_MODE_UNKNOWN;
	if (c != NULL) {
		if (c->last != TV_TIME_NONE)
			stats_charge(st, c, t, c->last, ev->rec.ts);
		c->last = ev->rec.ts;
		c->used = c->used || in;
	}
	tv_state_walk_apply(w, &o);
	if (in)
		stats_count(st, ev, &o, c, machine);
	if (ev->rec.kind == TV_REC_EVENT)
		stats_span(st, ev, &o, c, machine, in);
	if (c != NULL && ev->rec.kind == TV_REC_EVENT)
		stats_after(st, ev, &o, machine, ev->stream->cpu, before_tid,
		    before_n, before_top);
	st->last_ts = ev->rec.ts;
}

/*
 * See stats.h.  The records are read on every core and applied to the
 * state here (tv_state_walk), as the figures need it before and after.
 */
enum tv_status
tv_stats_walk(struct tv_stats *st, int64_t until,
    const volatile bool *cancel, struct tv_error *err)
{
	struct tv_state_walk *w;
	struct tv_pwalk_item it;
	const struct tv_event *ev = &it.ev;
	const struct tv_error *werr;
	enum tv_status s;
	int64_t limit = until, from = INT64_MIN;
	bool poll = false;

	st->walked = 0;
	if (!stats_can_go_on(st, limit))
		stats_reset(st);
	/*
	 * Nothing to walk: the range is done, or the settled time did not
	 * move on (it goes back while a new file is not readable yet: the
	 * figures so far stay right, that stream's records come later).
	 */
	if (st->ended || (st->state != NULL && limit <= st->until)) {
		stats_publish(st);
		return TV_OK;
	}
	if (st->state == NULL)
		st->state = tv_state_create(st->set);
	else
		from = st->until;
	stats_note_set(st);
	/* records at the settled time and after are left for later */
	w = tv_state_walk_start(st->set, st->state, from,
	    limit > INT64_MIN && limit < INT64_MAX ? limit - 1 : limit,
	    NULL, NULL, NULL, 0, st->pages);
	while ((s = tv_state_walk_next(w, &it)) == TV_OK) {
		if (ev->rec.ts >= limit)
			break;
		if (st->end != TV_TIME_NONE && ev->rec.ts > st->end) {
			st->ended = true;
			break;
		}
		/*
		 * Stopped only between two times: a walk going on seeks to
		 * the time it stopped at, which must have none walked.
		 */
		if (++st->walked % STATS_POLL_EVERY == 0)
			poll = cancel != NULL;
		if (poll && ev->rec.ts != st->last_ts) {
			poll = false;
			if (__atomic_load_n(cancel, __ATOMIC_RELAXED)) {
				st->walked--;
				st->until = ev->rec.ts;
				tv_state_walk_destroy(w);
				return tv_error_set(err, TV_CANCELLED, NULL,
				    _("statistics cancelled"));
			}
		}
		stats_record(st, w, ev);
	}
	st->until = limit;
	werr = tv_state_walk_error(w);
	stats_publish(st);
	if (werr->status != TV_OK) {
		if (err != NULL)
			*err = *werr;
		tv_state_walk_destroy(w);
		return TV_CORRUPT;
	}
	tv_state_walk_destroy(w);
	return TV_OK;
}

/* See stats.h. */
void
tv_stats_set_sequential(struct tv_stats *st)
{
	st->pages = TV_PAGES_SEQUENTIAL;
}

/* See stats.h. */
void
tv_stats_set_range(struct tv_stats *st, int64_t begin, int64_t end)
{
	if (st->state != NULL && (begin != st->begin || end != st->end))
		stats_reset(st);
	st->begin = begin;
	st->end = end;
}

/* See stats.h. */
enum tv_status
tv_stats_run(struct tv_stats *st, int64_t begin, int64_t end,
    const volatile bool *cancel, struct tv_error *err)
{
	tv_stats_set_range(st, begin, end);
	return tv_stats_walk(st, INT64_MAX, cancel, err);
}

/* See stats.h. */
uint64_t
tv_stats_walked(const struct tv_stats *st)
{
	return st->walked;
}

/* See stats.h. */
int64_t
tv_stats_counted_to(const struct tv_stats *st)
{
	return st->ended ? INT64_MAX : st->until;
}

/* See stats.h. */
const struct tv_class_count *
tv_stats_classes(const struct tv_stats *st, size_t *n)
{
	*n = st->nclasses;
	return st->classes;
}

/* See stats.h. */
const struct tv_time_row *
tv_stats_cpus(const struct tv_stats *st, size_t *n)
{
	*n = st->ncpu_rows;
	return st->cpu_rows;
}

/* See stats.h. */
const struct tv_time_row *
tv_stats_threads(const struct tv_stats *st, size_t *n)
{
	*n = st->nthread_rows;
	return st->thread_rows;
}

/* See stats.h. */
void
tv_stats_totals(const struct tv_stats *st, uint64_t *events, uint64_t *lost,
    int64_t *begin, int64_t *end)
{
	*events = st->events;
	*lost = st->lost;
	*begin = st->begin;
	*end = st->end;
}

/* See stats.h. */
const struct tv_lat_series *
tv_stats_latency(const struct tv_stats *st, enum tv_lat_kind kind, size_t *n)
{
	if (kind >= TV_LAT_COUNT || st->lat[kind] == NULL) {
		*n = 0;
		return NULL;
	}
	*n = st->nlat[kind];
	return st->lat[kind];
}

/* See stats.h. */
bool
tv_stats_has_latency(const struct tv_stats *st, enum tv_lat_kind kind)
{
	if (kind >= TV_LAT_COUNT)
		return false;
	return kind != TV_LAT_FUNCTION || st->kinds[kind].pub.count > 0;
}
