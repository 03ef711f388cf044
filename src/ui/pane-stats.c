/*
 * The statistics pane (S) and the latency pane (L): two views of one
 * statistics walk (stats.h) over the whole trace, run on a worker thread
 * when either opens first so no keystroke waits for it; the panes show
 * its progress until it ends (Esc cancels).  Statistics lists events per
 * class, CPU time per CPU and per thread; Enter on a class goes to the
 * next event of that name, on a CPU to the next event on it, on a thread
 * to the next event of its process.  Latencies lists each kind's count,
 * min, mean, p50, p99 and max, then the longest instances; Enter on an
 * instance goes to its start.
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
	pthread_t	 thread;
	bool		 started;
	volatile bool	 cancel;
	int		 done;		/* atomic */
	enum tv_status	 status;
	struct tv_error	 err;
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

struct stats_priv {
	bool		 latency;	/* which view */
	struct line	*lines;
	size_t		 n, cap;
	bool		 built;
	size_t		 cur, top;
};

/* The worker: one walk over the whole trace. */
static void *
job_main(void *arg)
{
	struct tv_ui_stats_job *job = arg;

	job->status = tv_stats_run(job->st, TV_TIME_NONE, TV_TIME_NONE,
	    &job->cancel, &job->err);
	__atomic_store_n(&job->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Start the walk once, for whichever pane opens first. */
static struct tv_ui_stats_job *
job_get(struct tv_ui *ui)
{
	struct tv_ui_stats_job *job = ui->stats_job;

	if (job != NULL)
		return job;
	job = tv_xcalloc(1, sizeof(*job));
	job->st = tv_stats_create(ui->set);
	ui->stats_job = job;
	if (pthread_create(&job->thread, NULL, job_main, job) == 0)
		job->started = true;
	else
		job_main(job);
	return job;
}

/* See ui-priv.h: cancel and join the walk, free it. */
void
tv_ui_stats_job_fini(struct tv_ui *ui)
{
	struct tv_ui_stats_job *job = ui->stats_job;

	if (job == NULL)
		return;
	job->cancel = true;
	if (job->started)
		pthread_join(job->thread, NULL);
	tv_stats_destroy(job->st);
	free(job);
	ui->stats_job = NULL;
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

/* The lines of the statistics view. */
static void
build_stats(struct tv_ui *ui TV_UNUSED, struct stats_priv *sp,
    const struct tv_stats *st)
{
	const struct tv_class_count *cls;
	const struct tv_time_row *r;
	uint64_t events, lost;
	int64_t b, e, run;
	char t1[32], t2[32], t3[32], t4[32];
	size_t n, i, m;
	struct line *l;

	tv_stats_totals(st, &events, &lost, &b, &e);
	add(sp, L_TEXT, _("%" PRIu64 " events, %" PRIu64 " lost"), events,
	    lost);
	add(sp, L_HEAD, "%10s  %s", _("EVENTS"), _("CLASS"));
	cls = tv_stats_classes(st, &n);
	for (i = 0; i < n; i++) {
		l = add(sp, L_CLASS, "%10" PRIu64 "  %s", cls[i].count,
		    cls[i].name);
		l->name = cls[i].name;
	}
	add(sp, L_TEXT, "%s", "");
	add(sp, L_HEAD, "%5s %10s %14s %14s %14s %14s", _("CPU"), _("EVENTS"),
	    _("BUSY s"), _("IDLE s"), _("SYSCALL s"), _("IRQ+SOFTIRQ s"));
	r = tv_stats_cpus(st, &n);
	for (i = 0; i < n; i++) {
		for (run = 0, m = 0; m < TV_MODE_COUNT; m++)
			run += r[i].ns[m];
		l = add(sp, L_CPU, "%5d %10" PRIu64 " %14s %14s %14s %14s",
		    r[i].cpu, r[i].events, secs(run, t1, sizeof(t1)),
		    secs(r[i].idle_ns, t2, sizeof(t2)),
		    secs(r[i].ns[TV_MODE_SYSCALL], t3, sizeof(t3)),
		    secs(r[i].ns[TV_MODE_IRQ] + r[i].ns[TV_MODE_SOFTIRQ], t4,
		    sizeof(t4)));
		l->id = r[i].cpu;
	}
	add(sp, L_TEXT, "%s", "");
	add(sp, L_HEAD, "%7s %7s %-16s %10s %14s %14s", _("TID"), _("PID"),
	    _("NAME"), _("EVENTS"), _("RUNNING s"), _("SYSCALL s"));
	r = tv_stats_threads(st, &n);
	for (i = 0; i < n; i++) {
		for (run = 0, m = 0; m < TV_MODE_COUNT; m++)
			run += r[i].ns[m];
		l = add(sp, L_THREAD, "%7" PRId64 " %7" PRId64 " %-16s %10"
		    PRIu64 " %14s %14s", r[i].tid, r[i].pid,
		    r[i].name[0] ? r[i].name : "-", r[i].events,
		    secs(run, t1, sizeof(t1)),
		    secs(r[i].ns[TV_MODE_SYSCALL], t2, sizeof(t2)));
		l->id = r[i].pid != TV_TID_UNKNOWN ? r[i].pid : r[i].tid;
	}
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

	for (k = 0; k < TV_LAT_COUNT; k++) {
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
			tv_time_format(s[0].top[j].ts, ui->time_style ==
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

/* Pane op: the job's progress, or the lines. */
static void
stats_draw(struct tv_ui *ui, struct tv_pane *p)
{
	struct stats_priv *sp = p->priv;
	struct tv_ui_stats_job *job = job_get(ui);
	chtype a = ui->attrs[TV_UI_A_HEADER];
	const char *title;
	size_t row;
	int i, h = p->h - 1;

	werase(p->win);
	title = sp->latency ? _("Latencies of the whole trace (Enter: go to "
	    "an instance, Esc closes)") : _("Statistics of the whole trace "
	    "(Enter: next event of the row, Esc closes)");
	wattrset(p->win, a);
	mvwhline(p->win, 0, 0, ' ' | a, p->w);
	tv_ui_put(p->win, 0, 1, title, p->w - 1);
	wattrset(p->win, A_NORMAL);
	if (!job_done(job)) {
		tv_ui_put(p->win, 2, 1, _("counting the whole trace... (Esc "
		    "cancels)"), p->w - 1);
		return;
	}
	if (job->status != TV_OK && job->status != TV_CORRUPT) {
		wattrset(p->win, ui->attrs[TV_UI_A_ERROR]);
		tv_ui_put(p->win, 2, 1, job->err.msg, p->w - 1);
		wattrset(p->win, A_NORMAL);
		return;
	}
	if (!sp->built) {
		sp->built = true;
		if (sp->latency)
			build_latency(ui, sp, job->st);
		else
			build_stats(ui, sp, job->st);
	}
	if (h < 1)
		return;
	if (sp->cur < sp->top)
		sp->top = sp->cur;
	if (sp->cur >= sp->top + (size_t)h)
		sp->top = sp->cur - (size_t)h + 1;
	for (i = 0, row = sp->top; i < h && row < sp->n; i++, row++) {
		chtype at = sp->lines[row].kind == L_HEAD ?
		    ui->attrs[TV_UI_A_SCOPE] : A_NORMAL;

		if (row == sp->cur)
			at = ui->attrs[TV_UI_A_SELECTED];
		wattrset(p->win, at);
		if (row == sp->cur)
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

	if (sp->cur >= sp->n)
		return;
	l = &sp->lines[sp->cur];
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

/* Pane op: move, Enter, close. */
static bool
stats_request(struct tv_ui *ui, struct tv_pane *p, enum tv_ui_req req)
{
	struct stats_priv *sp = p->priv;
	size_t h = (size_t)TV_MAX(p->h - 1, 1);

	switch (req) {
	case TV_UI_REQ_DOWN:
		if (sp->cur + 1 < sp->n)
			sp->cur++;
		break;
	case TV_UI_REQ_UP:
		if (sp->cur > 0)
			sp->cur--;
		break;
	case TV_UI_REQ_PAGE_DOWN:
	case TV_UI_REQ_HALF_DOWN:
		sp->cur += req == TV_UI_REQ_PAGE_DOWN ? h : h / 2;
		if (sp->cur >= sp->n)
			sp->cur = sp->n ? sp->n - 1 : 0;
		break;
	case TV_UI_REQ_PAGE_UP:
	case TV_UI_REQ_HALF_UP:
		h = req == TV_UI_REQ_PAGE_UP ? h : h / 2;
		sp->cur = sp->cur > h ? sp->cur - h : 0;
		break;
	case TV_UI_REQ_FIRST:
		sp->cur = 0;
		break;
	case TV_UI_REQ_LAST:
		sp->cur = sp->n ? sp->n - 1 : 0;
		break;
	case TV_UI_REQ_FIELDS:
		stats_enter(ui, p, sp);
		return true;
	case TV_UI_REQ_QUIT:
	case TV_UI_REQ_CLOSE:
	case TV_UI_REQ_CANCEL:
		if (ui->stats_job != NULL && !job_done(ui->stats_job))
			tv_ui_stats_job_fini(ui);
		tv_ui_pane_close(ui, (int)(p - ui->panes));
		return true;
	default:
		return false;
	}
	p->dirty = true;
	return true;
}

/* Pane op: poll the walk while it runs. */
static int
stats_wake_ms(struct tv_ui *ui, struct tv_pane *p)
{
	return p->open && ui->stats_job != NULL &&
	    !job_done(ui->stats_job) ? 200 : -1;
}

/* Pane op: redraw to show the result once there. */
static void
stats_tick(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	p->dirty = true;
}

const struct tv_pane_ops tv_ui_stats_ops = {
	.name = "statistics",
	.place = TV_PANE_OVERLAY,
	.open_req = TV_UI_REQ_STATS,
	.flags = TV_PANE_TOGGLE,
	.init = stats_init,
	.fini = stats_fini,
	.draw = stats_draw,
	.request = stats_request,
	.wake_ms = stats_wake_ms,
	.tick = stats_tick,
};

const struct tv_pane_ops tv_ui_latency_ops = {
	.name = "latency",
	.place = TV_PANE_OVERLAY,
	.open_req = TV_UI_REQ_LATENCY,
	.flags = TV_PANE_TOGGLE,
	.init = stats_init,
	.fini = stats_fini,
	.draw = stats_draw,
	.request = stats_request,
	.wake_ms = stats_wake_ms,
	.tick = stats_tick,
};
