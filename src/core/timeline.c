/*
 * Building a timeline (timeline.h).  Two ways, chosen by how many
 * records the window holds (the checkpoints know):
 *
 *   exact    the state at the window's start (checkpoint + replay), then
 *            every record of the window: at each column boundary every
 *            thread's and CPU's state is written into the new column,
 *            and after each record the thread running on its CPU is
 *            marked running in the record's column;
 *   sampled  each column gets the state of the last checkpoint before
 *            its start, restored without replay.
 *
 * A cell keeps the highest enum tv_cell it was given, so a thread that
 * ran for a microsecond in a column shows there.  The idle threads have
 * no row of their own: the CPU rows show them.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/merge.h"
#include "tview/timeline.h"
#include "tview/util.h"
#include "thread-map.h"

/* Records between two polls of the cancel flag. */
#define TL_POLL_EVERY	4096

static const char *const cell_names[TV_CELL_COUNT] = {
	N_("none"), N_("unknown"), N_("exited"), N_("zombie"),
	N_("blocked"), N_("runnable"), N_("idle"), N_("irq"), N_("softirq"),
	N_("trap"), N_("syscall"), N_("running"),
};

/* ' ' none, '?' unknown, 'x' exited, 'z' zombie, '.' blocked,
   '-' runnable, '_' idle, 'I' irq, 's' softirq, 'T' trap, 'S' syscall,
   'R' user */
static const char cell_letters[TV_CELL_COUNT] = " ?xz.-_IsTSR";

/* See timeline.h. */
const char *
tv_cell_name(enum tv_cell c)
{
	return c < TV_CELL_COUNT ? cell_names[c] : "?";
}

/* See timeline.h. */
char
tv_cell_letter(enum tv_cell c)
{
	return c < TV_CELL_COUNT ? cell_letters[c] : '?';
}

/* See timeline.h. */
int64_t
tv_timeline_col_time(const struct tv_timeline *tl, uint32_t col)
{
	return tv_window_col_time(tl->t0, tl->t1, tl->ncols, col);
}

/* See timeline.h. */
uint32_t
tv_timeline_col_of(const struct tv_timeline *tl, int64_t ts)
{
	return tv_window_col_of(tl->t0, tl->t1, tl->ncols, ts);
}

/* The rows being built, thread rows and CPU rows each behind a map. */
struct tl_build {
	struct tv_timeline	*tl;
	struct tv_state		*state;
	struct tv_thread_map	 tmap;
	size_t			 tcap;
	struct tv_thread_map	 cmap;		/* key tid = CPU + 1 */
	size_t			 ccap;
};

/* A new row with every cell NONE. */
static void
tl_row_init(struct tv_timeline_row *r, uint32_t ncols, bool cpu_row)
{
	uint32_t i;

	memset(r, 0, sizeof(*r));
	r->cells = tv_xcalloc(ncols, 1);
	if (cpu_row) {
		r->cell_tid = tv_xcalloc(ncols, sizeof(*r->cell_tid));
		for (i = 0; i < ncols; i++)
			r->cell_tid[i] = TV_TID_UNKNOWN;
	} else {
		r->cell_cpu = tv_xcalloc(ncols, sizeof(*r->cell_cpu));
		for (i = 0; i < ncols; i++)
			r->cell_cpu[i] = -1;
	}
}

/* The row of thread @t, created when new, its name kept current. */
static struct tv_timeline_row *
tl_thread_row(struct tl_build *b, const struct tv_thread *t)
{
	struct tv_timeline *tl = b->tl;
	struct tv_timeline_row *r;
	bool added;
	size_t i;

	i = tv_thread_map_get(&b->tmap, t->machine, t->tid, t->cpu, &added);
	if (added) {
		TV_VEC_GROW(tl->threads, tl->nthreads, b->tcap);
		r = &tl->threads[tl->nthreads++];
		tl_row_init(r, tl->ncols, false);
		r->machine = t->machine;
		r->tid = t->tid;
		r->cpu = TV_CPU_UNKNOWN;
	}
	r = &tl->threads[i];
	if (t->name[0] != '\0' && strcmp(r->name, t->name) != 0)
		memcpy(r->name, t->name, sizeof(r->name));
	r->pid = t->pid;
	return r;
}

/* The row of CPU @cpu of @machine, created when new. */
static struct tv_timeline_row *
tl_cpu_row(struct tl_build *b, uint32_t machine, int32_t cpu)
{
	struct tv_timeline *tl = b->tl;
	struct tv_timeline_row *r;
	bool added;
	size_t i;

	i = tv_thread_map_get(&b->cmap, machine, (int64_t)cpu + 1,
	    TV_CPU_UNKNOWN, &added);
	if (added) {
		TV_VEC_GROW(tl->cpus, tl->ncpus, b->ccap);
		r = &tl->cpus[tl->ncpus++];
		tl_row_init(r, tl->ncols, true);
		r->machine = machine;
		r->cpu = cpu;
		r->tid = TV_TID_UNKNOWN;
		r->pid = TV_TID_UNKNOWN;
	}
	return &tl->cpus[i];
}

/* What a running thread shows: its mode (idle for the idle thread). */
static enum tv_cell
tl_running_cell(const struct tv_thread *t)
{
	enum tv_exec_mode m = t->nmodes > 0 ?
	    (enum tv_exec_mode)t->modes[t->nmodes - 1] : TV_MODE_UNKNOWN;

	switch (m) {
	case TV_MODE_SYSCALL:
		return TV_CELL_SYSCALL;
	case TV_MODE_IRQ:
		return TV_CELL_IRQ;
	case TV_MODE_SOFTIRQ:
		return TV_CELL_SOFTIRQ;
	case TV_MODE_TRAP:
		return TV_CELL_TRAP;
	default:
		return t->tid == 0 ? TV_CELL_IDLE : TV_CELL_USER;
	}
}

/* What a thread shows when nothing ran it in the column. */
static enum tv_cell
tl_state_cell(const struct tv_thread *t)
{
	switch ((enum tv_thread_state)t->state) {
	case TV_TS_RUNNING:
		return tl_running_cell(t);
	case TV_TS_RUNNABLE:
		return TV_CELL_RUNNABLE;
	case TV_TS_BLOCKED:
		return TV_CELL_BLOCKED;
	case TV_TS_ZOMBIE:
		return TV_CELL_ZOMBIE;
	case TV_TS_EXITED:
		return TV_CELL_EXITED;
	default:
		return TV_CELL_UNKNOWN;
	}
}

/* Raise cell @col of @r to @c. */
static void
tl_raise(struct tv_timeline_row *r, uint32_t col, enum tv_cell c)
{
	if (c > r->cells[col])
		r->cells[col] = (uint8_t)c;
}

/* Thread @t runs on @cpu in column @col: mark its row and the CPU's. */
static void
tl_mark_running(struct tl_build *b, const struct tv_thread *t, int32_t cpu,
    uint32_t col)
{
	struct tv_timeline_row *r, *c;
	enum tv_cell cell = tl_running_cell(t);

	c = tl_cpu_row(b, t->machine, cpu);
	tl_raise(c, col, cell);
	if (c->cell_tid[col] == TV_TID_UNKNOWN ||
	    (c->cell_tid[col] == 0 && t->tid != 0))
		c->cell_tid[col] = t->tid;
	if (t->tid == 0)
		return;
	r = tl_thread_row(b, t);
	if (r->cells[col] < TV_CELL_IDLE)
		r->running++;
	tl_raise(r, col, cell);
	r->cell_cpu[col] = cpu;
	r->cpu = cpu;
}

/* Write the whole state into column @col (its start). */
static void
tl_fill(struct tl_build *b, uint32_t col)
{
	const struct tv_thread *threads, *t;
	struct tv_timeline_row *r;
	size_t n, i;

	threads = tv_state_threads(b->state, &n);
	for (i = 0; i < n; i++) {
		t = &threads[i];
		if (t->tid == 0)
			continue;
		if (t->state == TV_TS_RUNNING && t->cpu != TV_CPU_UNKNOWN &&
		    tv_state_running(b->state, t->machine, t->cpu) == t) {
			tl_mark_running(b, t, t->cpu, col);
			continue;
		}
		r = tl_thread_row(b, t);
		tl_raise(r, col, t->state == TV_TS_RUNNING ?
		    TV_CELL_UNKNOWN : tl_state_cell(t));
	}
	for (i = 0; i < b->tl->ncpus; i++) {
		r = &b->tl->cpus[i];
		t = tv_state_running(b->state, r->machine, r->cpu);
		if (t != NULL)
			tl_mark_running(b, t, r->cpu, col);
		else
			tl_raise(r, col, TV_CELL_UNKNOWN);
	}
}

/* Thread rows by machine and TID; CPU rows by machine and number. */
static int
tl_row_cmp(const void *pa, const void *pb)
{
	const struct tv_timeline_row *a = pa, *b = pb;

	if (a->machine != b->machine)
		return a->machine < b->machine ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
}

/*
 * Every record of the window, after the state at its start: read on
 * every core, applied here (tv_state_walk).
 */
static enum tv_status
tl_exact(struct tl_build *b, struct tv_state_index *idx,
    struct tv_trace_set *set, const volatile bool *cancel,
    struct tv_error *err)
{
	struct tv_timeline *tl = b->tl;
	struct tv_state_walk *w;
	struct tv_pwalk_item it;
	const struct tv_thread *t;
	enum tv_status s;
	uint32_t col = 0, c, machine;
	uint64_t n = 0;

	s = tv_state_at(idx, tl->t0 - 1, b->state, err);
	if (s != TV_OK)
		return s;
	tl_fill(b, 0);
	w = tv_state_walk_start(set, b->state, tl->t0,
	    tl->t1 > INT64_MIN ? tl->t1 - 1 : tl->t1, NULL, NULL, NULL, 0,
	    tv_state_index_pages(idx));
	while (tv_state_walk_next(w, &it) == TV_OK) {
		if (it.ev.rec.ts >= tl->t1)
			break;
		if (cancel != NULL && ++n % TL_POLL_EVERY == 0 && *cancel) {
			tv_state_walk_destroy(w);
			return tv_error_set(err, TV_CANCELLED, NULL,
			    _("timeline cancelled"));
		}
		c = tv_timeline_col_of(tl, it.ev.rec.ts);
		while (col < c)
			tl_fill(b, ++col);
		tv_state_walk_apply(w, NULL);
		if (it.ev.rec.kind != TV_REC_EVENT)
			continue;
		machine = tv_state_machine_of(b->state, it.ev.stream);
		t = tv_state_running(b->state, machine, it.ev.stream->cpu);
		if (t != NULL)
			tl_mark_running(b, t, it.ev.stream->cpu, col);
	}
	tv_state_walk_destroy(w);
	while (col + 1 < tl->ncols)
		tl_fill(b, ++col);
	return TV_OK;
}

/*
 * Each column from the checkpoint before its start, up to @reached
 * (where the pass is): the columns past it stay empty until it gets
 * there, rather than replaying the rest of the trace meanwhile.
 */
static void
tl_sampled(struct tl_build *b, struct tv_state_index *idx, int64_t reached)
{
	int64_t at, ts;
	uint32_t col;

	for (col = 0; col < b->tl->ncols; col++) {
		ts = tv_timeline_col_time(b->tl, col);
		if (ts > reached)
			break;
		if (tv_state_near(idx, ts, b->state, &at))
			tl_fill(b, col);
	}
}

/* Where the pass is: the end of the trace once it is done. */
static int64_t
tl_reached(struct tv_state_index *idx, const struct tv_trace_set *set)
{
	double f = tv_state_index_progress(idx, NULL);

	return set->ts_begin + (int64_t)(f * (double)(set->ts_end -
	    set->ts_begin));
}

/* See timeline.h. */
enum tv_status
tv_timeline_build(struct tv_state_index *idx, struct tv_trace_set *set,
    int64_t t0, int64_t t1, uint32_t ncols, const volatile bool *cancel,
    struct tv_timeline **out, struct tv_error *err)
{
	struct tv_timeline *tl;
	struct tl_build b;
	enum tv_status s = TV_OK;
	uint64_t events;
	uint32_t i;

	*out = NULL;
	if (t1 <= t0 || ncols == 0)
		return tv_error_set(err, TV_SEMANTIC, NULL,
		    _("empty timeline window"));
	if (ncols > TV_TIMELINE_MAX_COLS)
		ncols = TV_TIMELINE_MAX_COLS;
	if ((uint64_t)(t1 - t0) < ncols)
		ncols = (uint32_t)(t1 - t0);
	tl = tv_xcalloc(1, sizeof(*tl));
	tl->t0 = t0;
	tl->t1 = t1;
	tl->ncols = ncols;
	memset(&b, 0, sizeof(b));
	b.tl = tl;
	b.state = tv_state_create(set);
	tv_thread_map_init(&b.tmap);
	tv_thread_map_init(&b.cmap);
	/* every CPU of every stream has a row, even a quiet one */
	for (i = 0; i < set->nstreams; i++)
		if (set->streams[i]->cpu != TV_CPU_UNKNOWN)
			(void)tl_cpu_row(&b, tv_state_machine_of(b.state,
			    set->streams[i]), set->streams[i]->cpu);
	/* unknown: the pass has not reached t1 yet */
	events = tv_state_index_events_between(idx, t0, t1);
	tl->sampled = events == TV_COUNT_UNKNOWN ||
	    events > TV_TIMELINE_REPLAY_MAX;
	if (tl->sampled)
		tl_sampled(&b, idx, events == TV_COUNT_UNKNOWN ?
		    tl_reached(idx, set) : t1);
	else
		s = tl_exact(&b, idx, set, cancel, err);
	tv_state_destroy(b.state);
	tv_thread_map_fini(&b.tmap);
	tv_thread_map_fini(&b.cmap);
	if (s != TV_OK) {
		tv_timeline_destroy(tl);
		return s;
	}
	/* no rows yet (a window the pass has not reached): no array either */
	if (tl->nthreads > 1)
		qsort(tl->threads, tl->nthreads, sizeof(*tl->threads),
		    tl_row_cmp);
	if (tl->ncpus > 1)
		qsort(tl->cpus, tl->ncpus, sizeof(*tl->cpus), tl_row_cmp);
	*out = tl;
	return TV_OK;
}

/* See timeline.h. */
void
tv_timeline_destroy(struct tv_timeline *tl)
{
	size_t i;

	if (tl == NULL)
		return;
	for (i = 0; i < tl->nthreads; i++) {
		free(tl->threads[i].cells);
		free(tl->threads[i].cell_cpu);
	}
	for (i = 0; i < tl->ncpus; i++) {
		free(tl->cpus[i].cells);
		free(tl->cpus[i].cell_tid);
	}
	free(tl->threads);
	free(tl->cpus);
	free(tl);
}
