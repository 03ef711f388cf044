/*
 * The statistics pane (S) and the latency pane (L): two views of one
 * statistics walk (stats.h), run on a worker thread when either opens
 * first so no keystroke waits for it; the panes show its progress until
 * it ends (Esc cancels).  The walk has a scope (ui->stats_scope): the
 * whole trace, or a range (two times or bookmarks, or the bookmarks
 * around the selected event), and all events or those the filters keep
 * (through the filter pass's bitmaps).  r in a pane, or :stats, changes
 * it; the title says which it is.  Statistics lists events per
 * class, CPU time per CPU and per thread; Enter on a class goes to the
 * next event of that name, on a CPU to the next event on it, on a thread
 * to the next event of its process.  Latencies lists each kind's count,
 * min, mean, p50, p99 and max, then the longest instances; Enter on an
 * instance goes to its start.  While the trace is followed (F), the
 * walk goes on from where it stopped each time the trace grows, up to
 * the time before which every record is in (tv_trace_set_settled), and
 * the panes keep showing the last figures until the new ones are made.
 */
#include "ui-priv.h"
#include "tview/merge.h"
#include "tview/stats.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The walk shared by both panes. */
struct tv_ui_stats_job {
	struct tv_stats	*st;
	struct tv_ui_stats_scope scope;	/* what it counts */
	bool		 filtered;	/* through the filters, which were on */
	pthread_t	 thread;
	bool		 started;
	volatile bool	 cancel;
	int		 done;		/* atomic */
	enum tv_status	 status;
	struct tv_error	 err;
	int64_t		 until;		/* this walk's end (tv_stats_walk) */
	bool		 stale;		/* the trace grew: walk on */
	unsigned	 gen;		/* walks ended with tables */
};

/* One line of a pane: text, and what Enter does on it. */
enum line_kind { L_TEXT, L_HEAD, L_CLASS, L_CPU, L_THREAD, L_INSTANCE };

struct line {
	enum line_kind	 kind;
	char		 text[200];
	const char	*name;		/* L_CLASS */
	int64_t		 id;		/* L_CPU cpu, L_THREAD pid */
	int64_t		 ts;		/* L_INSTANCE */
};

/*
 * s: the order of the rows.  By CPU time is the walk's own (classes by
 * count, CPUs by number, threads by running time); by events puts the
 * busiest CPUs and threads first; by name sorts classes and threads by
 * name, as a user scanning for one looks for it.
 */
enum stats_sort { SORT_TIME, SORT_EVENTS, SORT_NAME, SORT_COUNT };

struct stats_priv {
	bool		 latency;	/* which view */
	enum stats_sort	 sort;
	/*
	 * The last draw said "counting": wake up once more even if the
	 * walk ended since, or the result would wait for a key.
	 */
	bool		 drew_counting;
	struct line	*lines;
	size_t		 n, cap;
	bool		 built;		/* from the current job */
	unsigned	 gen;		/* the job's gen it was built from */
	struct tv_ui_list list;
};

/* The worker: the walk over the trace, or over what it gained. */
static void *
job_main(void *arg)
{
	struct tv_ui_stats_job *job = arg;

	job->status = tv_stats_walk(job->st, job->until, &job->cancel,
	    &job->err);
	if (job->status != TV_CANCELLED)
		job->gen++;
	__atomic_store_n(&job->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Cancel the walk and wait for it; what it counted is kept. */
static void
job_stop(struct tv_ui_stats_job *job)
{
	__atomic_store_n(&job->cancel, true, __ATOMIC_RELAXED);
	if (job->started)
		pthread_join(job->thread, NULL);
	job->started = false;
}

/*
 * Start the walk: to the end of the trace, or, while it is followed,
 * to the time before which every record is in.
 */
static void
job_start(struct tv_ui *ui, struct tv_ui_stats_job *job)
{
	job_stop(job);
	job->until = ui->following ? tv_trace_set_settled(ui->set) :
	    INT64_MAX;
	job->cancel = false;
	job->stale = false;
	__atomic_store_n(&job->done, 0, __ATOMIC_RELAXED);
	tv_error_clear(&job->err);
	if (pthread_create(&job->thread, NULL, job_main, job) == 0)
		job->started = true;
	else
		job_main(job);
}

/*
 * The walk of the scope wanted, started once for whichever pane opens
 * first; a walk of another scope is replaced, one over a trace that
 * grew goes on.
 */
static struct tv_ui_stats_job *
job_get(struct tv_ui *ui)
{
	struct tv_ui_stats_job *job = ui->stats_job;
	const struct tv_ui_stats_scope *want = &ui->stats_scope;
	bool filtered = want->filtered && tv_ui_filter_active(ui);
	tv_pass_pred keep;
	void *arg;

	if (job != NULL && job->filtered == filtered &&
	    job->scope.filtered == want->filtered &&
	    job->scope.begin == want->begin && job->scope.end == want->end &&
	    strcmp(job->scope.what, want->what) == 0) {
		if (job->stale) {
			job_stop(job);	/* before its filter is touched */
			if (job->filtered &&
			    tv_ui_filter_keeper(ui, &keep, &arg))
				tv_stats_set_keep(job->st, keep, arg);
			job_start(ui, job);
		}
		return job;
	}
	tv_ui_stats_job_fini(ui);
	job = tv_xcalloc(1, sizeof(*job));
	job->scope = *want;
	job->st = tv_stats_create(ui->set);
	tv_stats_set_range(job->st, want->begin, want->end);
	job->filtered = filtered &&
	    tv_ui_filter_keeper(ui, &keep, &arg);
	if (job->filtered)
		tv_stats_set_keep(job->st, keep, arg);
	ui->stats_job = job;
	job_start(ui, job);
	return job;
}

/* See ui-priv.h. */
void
tv_ui_stats_pause(struct tv_ui *ui)
{
	if (ui->stats_job != NULL)
		job_stop(ui->stats_job);
}

/* See ui-priv.h. */
void
tv_ui_stats_extend(struct tv_ui *ui)
{
	if (ui->stats_job != NULL)
		ui->stats_job->stale = true;
}

/* See ui-priv.h: cancel and join the walk, free it. */
void
tv_ui_stats_job_fini(struct tv_ui *ui)
{
	struct tv_ui_stats_job *job = ui->stats_job;
	struct stats_priv *sp;
	int id;

	if (job == NULL)
		return;
	/* the panes' lines point into the walk's results */
	for (id = 0; id < TV_UI_NPANES; id++) {
		if (ui->panes[id].ops != &tv_ui_stats_ops &&
		    ui->panes[id].ops != &tv_ui_latency_ops)
			continue;
		if ((sp = ui->panes[id].priv) == NULL)
			continue;
		sp->built = false;
		sp->n = 0;
		ui->panes[id].dirty = true;
	}
	job_stop(job);
	tv_stats_destroy(job->st);
	free(job);
	ui->stats_job = NULL;
}

/* See ui-priv.h. */
void
tv_ui_stats_filters_changed(struct tv_ui *ui)
{
	if (ui->stats_job != NULL && ui->stats_job->filtered)
		tv_ui_stats_job_fini(ui);
}

/* Whether the walk has ended. */
static bool
job_done(const struct tv_ui_stats_job *job)
{
	return __atomic_load_n(&job->done, __ATOMIC_ACQUIRE) != 0;
}

/* Append a line. */
static struct line *
add(struct stats_priv *sp, enum line_kind kind, const char *fmt, ...)
    TV_PRINTFLIKE(3, 4);

static struct line *
add(struct stats_priv *sp, enum line_kind kind, const char *fmt, ...)
{
	struct line *l;
	va_list ap;

	TV_VEC_GROW(sp->lines, sp->n, sp->cap);
	l = &sp->lines[sp->n++];
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	va_start(ap, fmt);
	vsnprintf(l->text, sizeof(l->text), fmt, ap);
	va_end(ap);
	return l;
}

/* Seconds with six decimals, for CPU times. */
static const char *
secs(int64_t ns, char *buf, size_t size)
{
	snprintf(buf, size, "%.6f", (double)ns / 1e9);
	return buf;
}

/* Microseconds with three decimals, for latencies. */
static const char *
usecs(int64_t ns, char *buf, size_t size)
{
	snprintf(buf, size, "%.3f", (double)ns / 1e3);
	return buf;
}

/* The name of @sort, for the title. */
static const char *
sort_name(enum stats_sort sort)
{
	switch (sort) {
	case SORT_EVENTS:
		return _("events");
	case SORT_NAME:
		return _("name");
	default:
		return _("CPU time");
	}
}

/* qsort orders over pointers to rows; the last key keeps them total. */
static int
cmp_class_name(const void *a, const void *b)
{
	const struct tv_class_count *x = *(const struct tv_class_count *
	    const *)a, *y = *(const struct tv_class_count *const *)b;

	return strcmp(x->name, y->name);
}

static int
cmp_row_events(const void *a, const void *b)
{
	const struct tv_time_row *x = *(const struct tv_time_row *const *)a,
	    *y = *(const struct tv_time_row *const *)b;

	if (x->events != y->events)
		return x->events < y->events ? 1 : -1;
	return (x->tid > y->tid) - (x->tid < y->tid) +
	    2 * ((x->cpu > y->cpu) - (x->cpu < y->cpu));
}

static int
cmp_row_name(const void *a, const void *b)
{
	const struct tv_time_row *x = *(const struct tv_time_row *const *)a,
	    *y = *(const struct tv_time_row *const *)b;
	int c = strcmp(x->name, y->name);

	return c != 0 ? c : (x->tid > y->tid) - (x->tid < y->tid);
}

/* The @n rows of @v as pointers, ordered by @cmp (NULL: as given). */
static const void **
sorted(const void *v, size_t size, size_t n,
    int (*cmp)(const void *, const void *))
{
	const void **out = tv_xcalloc(n ? n : 1, sizeof(*out));
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = (const char *)v + i * size;
	if (cmp != NULL && n > 1)
		qsort(out, n, sizeof(*out), cmp);
	return out;
}

/*
 * While the trace is followed, the walk stops where records may still
 * come in before: say up to when the figures go.
 */
static void
add_counted_to(struct tv_ui *ui, struct stats_priv *sp,
    const struct tv_stats *st)
{
	int64_t to = tv_stats_counted_to(st);
	char when[64];

	if (to == INT64_MAX || to == TV_TIME_NONE || to > ui->set->ts_end)
		return;
	tv_ui_time(ui, to, ui->time_style == TV_TIME_RAW ? TV_TIME_RELATIVE :
	    ui->time_style, ui->set->ts_begin, when, sizeof(when));
	add(sp, L_TEXT, _("counted up to %s; the trace is still being "
	    "written"), when);
}

/* The lines of the statistics view. */
static void
build_stats(struct tv_ui *ui, struct stats_priv *sp,
    const struct tv_stats *st)
{
	const struct tv_class_count *cls, **cv;
	const struct tv_time_row *r, **rv;
	uint64_t events, lost;
	int64_t b, e;
	char t1[32], t2[32], t3[32], t4[32];
	size_t n, i;
	struct line *l;

	tv_stats_totals(st, &events, &lost, &b, &e);
	add(sp, L_TEXT, _("%" PRIu64 " events, %" PRIu64 " lost"), events,
	    lost);
	add_counted_to(ui, sp, st);
	add(sp, L_HEAD, "%10s  %s", _("EVENTS"), _("CLASS"));
	cls = tv_stats_classes(st, &n);
	cv = (const struct tv_class_count **)sorted(cls, sizeof(*cls), n,
	    sp->sort == SORT_NAME ? cmp_class_name : NULL);
	for (i = 0; i < n; i++) {
		l = add(sp, L_CLASS, "%10" PRIu64 "  %s", cv[i]->count,
		    cv[i]->name);
		l->name = cv[i]->name;
	}
	free(cv);
	add(sp, L_TEXT, "%s", "");
	add(sp, L_HEAD, "%5s %10s %14s %14s %14s %14s", _("CPU"), _("EVENTS"),
	    _("BUSY s"), _("IDLE s"), _("SYSCALL s"), _("IRQ+SOFTIRQ s"));
	r = tv_stats_cpus(st, &n);
	rv = (const struct tv_time_row **)sorted(r, sizeof(*r), n,
	    sp->sort == SORT_EVENTS ? cmp_row_events : NULL);
	for (i = 0; i < n; i++) {
		l = add(sp, L_CPU, "%5d %10" PRIu64 " %14s %14s %14s %14s",
		    rv[i]->cpu, rv[i]->events,
		    secs(tv_time_row_running(rv[i]), t1, sizeof(t1)),
		    secs(rv[i]->idle_ns, t2, sizeof(t2)),
		    secs(rv[i]->ns[TV_MODE_SYSCALL], t3, sizeof(t3)),
		    secs(rv[i]->ns[TV_MODE_IRQ] + rv[i]->ns[TV_MODE_SOFTIRQ],
		    t4, sizeof(t4)));
		l->id = rv[i]->cpu;
	}
	free(rv);
	add(sp, L_TEXT, "%s", "");
	add(sp, L_HEAD, "%7s %7s %-16s %10s %14s %14s", _("TID"), _("PID"),
	    _("NAME"), _("EVENTS"), _("RUNNING s"), _("SYSCALL s"));
	r = tv_stats_threads(st, &n);
	rv = (const struct tv_time_row **)sorted(r, sizeof(*r), n,
	    sp->sort == SORT_EVENTS ? cmp_row_events :
	    sp->sort == SORT_NAME ? cmp_row_name : NULL);
	for (i = 0; i < n; i++) {
		l = add(sp, L_THREAD, "%7" PRId64 " %7" PRId64 " %-16s %10"
		    PRIu64 " %14s %14s", rv[i]->tid, rv[i]->pid,
		    rv[i]->name[0] ? rv[i]->name : "-", rv[i]->events,
		    secs(tv_time_row_running(rv[i]), t1, sizeof(t1)),
		    secs(rv[i]->ns[TV_MODE_SYSCALL], t2, sizeof(t2)));
		l->id = rv[i]->pid != TV_TID_UNKNOWN ? rv[i]->pid :
		    rv[i]->tid;
	}
	free(rv);
}

/* The lines of the latency view. */
static void
build_latency(struct tv_ui *ui, struct stats_priv *sp,
    const struct tv_stats *st)
{
	const struct tv_lat_series *s;
	char b[6][32], when[64];
	struct line *l;
	size_t n, i;
	uint32_t k, j;

	add_counted_to(ui, sp, st);
	for (k = 0; k < TV_LAT_COUNT; k++) {
		if (!tv_stats_has_latency(st, (enum tv_lat_kind)k))
			continue;
		s = tv_stats_latency(st, (enum tv_lat_kind)k, &n);
		add(sp, L_HEAD, "%-22s %9s %12s %12s %12s %12s %12s",
		    _("LATENCY (us)"), _("COUNT"), _("MIN"), _("MEAN"),
		    _("P50"), _("P99"), _("MAX"));
		for (i = 0; i < n; i++)
			add(sp, L_TEXT, "%-22s %9" PRIu64 " %12s %12s %12s "
			    "%12s %12s%s", i == 0 ?
			    tv_lat_kind_name((enum tv_lat_kind)k) : s[i].name,
			    s[i].count, usecs(s[i].min, b[0], sizeof(b[0])),
			    usecs(s[i].count ? s[i].total /
			    (int64_t)s[i].count : 0, b[1], sizeof(b[1])),
			    usecs(s[i].p50, b[2], sizeof(b[2])),
			    usecs(s[i].p99, b[3], sizeof(b[3])),
			    usecs(s[i].max, b[4], sizeof(b[4])),
			    s[i].exact ? "" : " ~");
		for (j = 0; n > 0 && j < s[0].ntop; j++) {
			tv_ui_time(ui, s[0].top[j].ts, ui->time_style ==
			    TV_TIME_RAW ? TV_TIME_RELATIVE : ui->time_style,
			    ui->set->ts_begin, when, sizeof(when));
			l = add(sp, L_INSTANCE, _("  longest %u: %s  %s us  "
			    "TID %" PRId64 "  cpu %d"), j + 1, when,
			    usecs(s[0].top[j].dur, b[5], sizeof(b[5])),
			    s[0].top[j].tid, s[0].top[j].cpu);
			l->ts = s[0].top[j].ts;
		}
		add(sp, L_TEXT, "%s", "");
	}
}

/* Pane op (both panes). */
static void
stats_init(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct stats_priv *sp = tv_xcalloc(1, sizeof(*sp));

	sp->latency = p->ops->open_req == TV_UI_REQ_LATENCY;
	p->priv = sp;
}

/* Pane op. */
static void
stats_fini(struct tv_ui *ui, struct tv_pane *p)
{
	struct stats_priv *sp = p->priv;

	tv_ui_stats_job_fini(ui);
	if (sp == NULL)
		return;
	free(sp->lines);
	free(sp);
	p->priv = NULL;
}

/* A time of the scope for the title: "the start" / "the end" if open. */
static const char *
scope_time(struct tv_ui *ui, int64_t ts, bool end, char *buf, size_t size)
{
	if (ts == TV_TIME_NONE)
		snprintf(buf, size, "%s", end ? _("the end") : _("the start"));
	else
		tv_time_format(ts, ui->time_style == TV_TIME_RAW ?
		    TV_TIME_RELATIVE : ui->time_style, ui->set->ts_begin, buf,
		    size);
	return buf;
}

/*
 * What the job counts, in words for the title; not @filtered for the
 * latencies, which the filters do not change.
 */
static void
scope_text(struct tv_ui *ui, const struct tv_ui_stats_job *job,
    bool filtered, char *buf, size_t size)
{
	const struct tv_ui_stats_scope *sc = &job->scope;
	char range[300], t1[64], t2[64];

	if (sc->begin == TV_TIME_NONE && sc->end == TV_TIME_NONE)
		snprintf(range, sizeof(range), "%s", _("the whole trace"));
	else if (sc->what[0] != '\0')
		snprintf(range, sizeof(range), _("%s to %s (bookmarks %s)"),
		    scope_time(ui, sc->begin, false, t1, sizeof(t1)),
		    scope_time(ui, sc->end, true, t2, sizeof(t2)), sc->what);
	else
		snprintf(range, sizeof(range), _("%s to %s"),
		    scope_time(ui, sc->begin, false, t1, sizeof(t1)),
		    scope_time(ui, sc->end, true, t2, sizeof(t2)));
	if (job->filtered && filtered)
		snprintf(buf, size, _("the filtered events of %s"), range);
	else
		snprintf(buf, size, "%s", range);
}

/* Pane op: the job's progress, or the lines. */
static void
stats_draw(struct tv_ui *ui, struct tv_pane *p)
{
	struct stats_priv *sp = p->priv;
	struct tv_ui_stats_job *job = job_get(ui);
	chtype a = ui->attrs[TV_UI_A_HEADER];
	char title[600], what[500];
	size_t row;
	int i, h = p->h - 1;

	werase(p->win);
	scope_text(ui, job, !sp->latency, what, sizeof(what));
	if (sp->latency)
		snprintf(title, sizeof(title), _("Latencies of %s (r: scope, "
		    "Enter: go to an instance, Esc closes)"), what);
	else
		snprintf(title, sizeof(title), _("Statistics of %s, by %s "
		    "(r: scope, s: sort, Enter: next event of the row, Esc "
		    "closes)"), what, sort_name(sp->sort));
	wattrset(p->win, a);
	mvwhline(p->win, 0, 0, ' ' | a, p->w);
	tv_ui_put(p->win, 0, 1, title, p->w - 1);
	wattrset(p->win, A_NORMAL);
	sp->drew_counting = !job_done(job);
	/* a walk going on over a grown trace: the last figures meanwhile */
	if (sp->drew_counting && !sp->built) {
		tv_ui_put(p->win, 2, 1, _("counting... (Esc cancels)"),
		    p->w - 1);
		return;
	}
	if (!sp->drew_counting && job->status != TV_OK &&
	    job->status != TV_CORRUPT) {
		wattrset(p->win, ui->attrs[TV_UI_A_ERROR]);
		tv_ui_put(p->win, 2, 1, job->err.msg, p->w - 1);
		wattrset(p->win, A_NORMAL);
		return;
	}
	if (!sp->drew_counting && (!sp->built || sp->gen != job->gen)) {
		sp->built = true;
		sp->gen = job->gen;
		sp->n = 0;
		if (sp->latency)
			build_latency(ui, sp, job->st);
		else
			build_stats(ui, sp, job->st);
	}
	if (h < 1)
		return;
	tv_ui_list_fit(&sp->list, sp->n, h);
	for (i = 0, row = sp->list.top; i < h && row < sp->n; i++, row++) {
		chtype at = sp->lines[row].kind == L_HEAD ?
		    ui->attrs[TV_UI_A_SCOPE] : A_NORMAL;

		if (row == sp->list.cur)
			at = ui->attrs[TV_UI_A_SELECTED];
		wattrset(p->win, at);
		if (row == sp->list.cur)
			mvwhline(p->win, i + 1, 0, ' ' | at, p->w);
		tv_ui_put(p->win, i + 1, 1, sp->lines[row].text, p->w - 1);
	}
	wattrset(p->win, A_NORMAL);
}

/* Enter: what the selected line leads to. */
static void
stats_enter(struct tv_ui *ui, struct tv_pane *p, struct stats_priv *sp)
{
	const struct line *l;
	struct tv_event ev;
	int id = (int)(p - ui->panes);

	if (sp->list.cur >= sp->n)
		return;
	l = &sp->lines[sp->list.cur];
	switch (l->kind) {
	case L_CLASS:
		tv_ui_pane_close(ui, id);
		tv_ui_jump_name(ui, l->name, 1);
		break;
	case L_CPU:
		tv_ui_pane_close(ui, id);
		tv_ui_jump_cpu(ui, (int)l->id, 1);
		break;
	case L_THREAD:
		tv_ui_pane_close(ui, id);
		tv_ui_jump_pid(ui, l->id, 1);
		break;
	case L_INSTANCE:
		tv_merge_seek_time(ui->merge, l->ts);
		if (tv_merge_next(ui->merge, &ev) == TV_OK) {
			tv_ui_pane_close(ui, id);
			tv_ui_events_goto(ui, &ev);
		}
		break;
	default:
		break;
	}
}

/*
 * r: the next scope - the whole trace, the filtered events (when a
 * filter is on; not for the @latency pane, whose figures do not depend
 * on it), the bookmarks around the selected event (when there are
 * bookmarks), and back.
 */
static void
scope_next(struct tv_ui *ui, bool latency)
{
	struct tv_ui_stats_scope *sc = &ui->stats_scope;
	int64_t ts = ui->have_sel ? ui->sel.rec.ts : ui->set->ts_begin;
	bool ranged = sc->begin != TV_TIME_NONE || sc->end != TV_TIME_NONE;

	if (!ranged && !sc->filtered && !latency && tv_ui_filter_active(ui)) {
		sc->filtered = true;
		return;
	}
	sc->filtered = false;
	if (!ranged && tv_ui_bm_range(ui, ts, &sc->begin, &sc->end,
	    sc->what, sizeof(sc->what)))
		return;
	sc->begin = sc->end = TV_TIME_NONE;
	sc->what[0] = '\0';
}

/*
 * One end of :stats A B: a bookmark's start (@end: its end), else a time
 * as :goto takes it.
 */
static bool
scope_end(struct tv_ui *ui, const char *word, bool end, int64_t *out,
    bool *named)
{
	struct tv_time_ctx ctx;
	struct tv_error err;
	int64_t s, e;

	*named = tv_ui_bm_named(ui, word, &s, &e);
	if (*named) {
		*out = end ? e : s;
		return true;
	}
	ctx.begin = ui->set->ts_begin;
	ctx.end = ui->set->ts_end;
	ctx.cursor = ui->have_sel ? ui->sel.rec.ts : ui->set->ts_begin;
	ctx.local = ui->wall_style == TV_TIME_WALL_LOCAL;
	tv_error_clear(&err);
	if (tv_time_parse(word, &ctx, out, &err) == TV_OK)
		return true;
	tv_ui_error(ui, _("not a time nor a bookmark name: %s"), word);
	return false;
}

/* See ui-priv.h. */
void
tv_ui_stats_command(struct tv_ui *ui, const char *arg)
{
	struct tv_ui_stats_scope sc;
	char buf[512], *w[5], *save = NULL;
	int64_t ts = ui->have_sel ? ui->sel.rec.ts : ui->set->ts_begin, t;
	bool named0 = false, named1 = false;
	size_t n = 0, i = 0;

	memset(&sc, 0, sizeof(sc));
	sc.begin = sc.end = TV_TIME_NONE;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (w[n] = strtok_r(buf, " \t", &save); w[n] != NULL && n < 4;
	    w[++n] = strtok_r(NULL, " \t", &save))
		;
	i = n > 0 && strcmp(w[0], "filter") == 0;
	if (n - i > 2) {
		tv_ui_error(ui, _(":stats takes [filter] and at most two "
		    "ends"));
		return;
	}
	if (i == 1) {
		if (!tv_ui_filter_active(ui)) {
			tv_ui_error(ui, _("no filter is on (add one with & or "
			    ":filter)"));
			return;
		}
		sc.filtered = true;
	}
	if (i < n && strcmp(w[i], "bookmarks") == 0 && i + 1 == n) {
		if (!tv_ui_bm_range(ui, ts, &sc.begin, &sc.end, sc.what,
		    sizeof(sc.what))) {
			tv_ui_error(ui, _("no bookmark to count between"));
			return;
		}
	} else if (i < n) {
		if (!scope_end(ui, w[i], false, &sc.begin, &named0))
			return;
		if (i + 1 < n &&
		    !scope_end(ui, w[i + 1], true, &sc.end, &named1))
			return;
		if (i + 1 == n && named0) {
			/* an interval bookmark alone: its range */
			(void)scope_end(ui, w[i], true, &t, &named0);
			if (t > sc.begin)
				sc.end = t;
		}
		if (sc.end != TV_TIME_NONE && sc.end < sc.begin) {
			t = sc.begin;
			sc.begin = sc.end;
			sc.end = t;
		}
		if (named0 || (i + 1 < n && named1))
			snprintf(sc.what, sizeof(sc.what), "%s%s%s", w[i],
			    i + 1 < n ? " - " : "", i + 1 < n ? w[i + 1] :
			    "");
	}
	ui->stats_scope = sc;
	if (!ui->panes[TV_UI_PANE_STATS].open &&
	    !ui->panes[TV_UI_PANE_LATENCY].open)
		tv_ui_pane_open(ui, TV_UI_PANE_STATS);
	ui->panes[TV_UI_PANE_STATS].dirty = true;
	ui->panes[TV_UI_PANE_LATENCY].dirty = true;
}

/* Pane op: move (the list engine), Enter, close. */
static bool
stats_request(struct tv_ui *ui, struct tv_pane *p, enum tv_ui_req req)
{
	struct stats_priv *sp = p->priv;

	switch (req) {
	case TV_UI_REQ_FIELDS:
		stats_enter(ui, p, sp);
		return true;
	case TV_UI_REQ_STATS_SCOPE:
		scope_next(ui, sp->latency);
		break;
	case TV_UI_REQ_SORT:
		if (sp->latency)
			return false;
		sp->sort = (enum stats_sort)((sp->sort + 1) % SORT_COUNT);
		sp->built = false;
		sp->n = 0;
		sp->list.cur = sp->list.top = 0;
		break;
	case TV_UI_REQ_QUIT:
	case TV_UI_REQ_CLOSE:
	case TV_UI_REQ_CANCEL:
		if (ui->stats_job != NULL && !job_done(ui->stats_job))
			tv_ui_stats_job_fini(ui);
		tv_ui_pane_close(ui, (int)(p - ui->panes));
		return true;
	default:
		if (!tv_ui_list_request(&sp->list, sp->n, p->h - 1, req))
			return false;
	}
	p->dirty = true;
	return true;
}

/* Pane op: poll the walk while it runs. */
static int
stats_wake_ms(struct tv_ui *ui, struct tv_pane *p)
{
	const struct stats_priv *sp = p->priv;

	return p->open && ui->stats_job != NULL &&
	    (!job_done(ui->stats_job) || (sp != NULL && sp->drew_counting)) ?
	    200 : -1;
}

/* Pane op: redraw to show the result once there. */
static void
stats_tick(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	p->dirty = true;
}

/* The two panes differ only in their name and the request opening them. */
#define STATS_PANE_OPS(pane_name, req) {				\
	.name = (pane_name),						\
	.place = TV_PANE_OVERLAY,					\
	.open_req = (req),						\
	.flags = TV_PANE_TOGGLE,					\
	.init = stats_init,						\
	.fini = stats_fini,						\
	.draw = stats_draw,						\
	.request = stats_request,					\
	.wake_ms = stats_wake_ms,					\
	.tick = stats_tick,						\
}

const struct tv_pane_ops tv_ui_stats_ops =
    STATS_PANE_OPS("statistics", TV_UI_REQ_STATS);
const struct tv_pane_ops tv_ui_latency_ops =
    STATS_PANE_OPS("latency", TV_UI_REQ_LATENCY);
