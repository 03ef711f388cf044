/*
 * The process pane: the threads at the selected event (PID, TID, PPID,
 * name, state, CPU, since, execution-mode stack), sortable by column,
 * following the cursor; the state comes from the session's state index
 * (session-state.c).  Enter on a thread restricts ] and [ to its events
 * and p to its process's (the jumps are in search.c); Enter again lifts
 * it.
 */
#include "ui-priv.h"
#include "tview/state.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum procs_sort {
	SORT_PID,
	SORT_TID,
	SORT_NAME,
	SORT_STATE,
	SORT_CPU,
	SORT_SINCE,
	SORT_COUNT,
};

struct procs_priv {
	struct tv_state		*st;		/* at the selected event */
	bool			 stale;
	const struct tv_thread	**rows;
	size_t			 nrows;
	size_t			 rows_cap;
	size_t			 cur;
	size_t			 top;
	int			 sort;		/* enum procs_sort */
	bool			 waiting;	/* the pass has not reached
						   the cursor yet */
};

/* Translated state name for the pane (--processes keeps English). */
static const char *
procs_state_name(uint8_t st)
{
	switch (st) {
	case TV_TS_RUNNING:
		return _("running");
	case TV_TS_RUNNABLE:
		return _("runnable");
	case TV_TS_BLOCKED:
		return _("blocked");
	case TV_TS_ZOMBIE:
		return _("zombie");
	case TV_TS_EXITED:
		return _("exited");
	default:
		return _("unknown");
	}
}

/* Translated execution mode for the pane (--processes keeps English). */
static const char *
procs_mode_name(uint8_t m)
{
	switch (m) {
	case TV_MODE_USER:
		return _("user");
	case TV_MODE_SYSCALL:
		return _("syscall");
	case TV_MODE_IRQ:
		return _("irq");
	case TV_MODE_SOFTIRQ:
		return _("softirq");
	case TV_MODE_TRAP:
		return _("trap");
	default:
		return "?";
	}
}

/* The mode stack, outermost first ("user>syscall>irq"), or "-". */
static void
procs_modes(const struct tv_thread *t, char *buf, size_t size)
{
	size_t n = 0;
	uint8_t i;

	buf[0] = '\0';
	for (i = 0; i < t->nmodes && i < TV_MODE_STACK_MAX; i++)
		n += (size_t)snprintf(buf + TV_MIN(n, size - 1),
		    size - TV_MIN(n, size - 1), "%s%s", i ? ">" : "",
		    procs_mode_name(t->modes[i]));
	if (buf[0] == '\0')
		snprintf(buf, size, "-");
}

/* Compare two ids with unknown last. */
static int
procs_cmp_id(int64_t a, int64_t b)
{
	if (a == TV_TID_UNKNOWN)
		a = INT64_MAX;
	if (b == TV_TID_UNKNOWN)
		b = INT64_MAX;
	return a < b ? -1 : a > b;
}

static int procs_sort_key;	/* qsort has no context argument */

/* Row order for the current sort column, then PID, then TID. */
static int
procs_cmp(const void *pa, const void *pb)
{
	const struct tv_thread *a = *(const struct tv_thread *const *)pa;
	const struct tv_thread *b = *(const struct tv_thread *const *)pb;
	int c = 0;

	switch (procs_sort_key) {
	case SORT_TID:
		c = procs_cmp_id(a->tid, b->tid);
		break;
	case SORT_NAME:
		c = strcmp(a->name, b->name);
		break;
	case SORT_STATE:
		c = (int)a->state - (int)b->state;
		break;
	case SORT_CPU:
		c = a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
		break;
	case SORT_SINCE:
		c = a->since < b->since ? 1 : a->since > b->since ? -1 : 0;
		break;
	default:
		break;
	}
	if (c == 0)
		c = procs_cmp_id(a->pid, b->pid);
	if (c == 0)
		c = procs_cmp_id(a->tid, b->tid);
	if (c == 0)
		c = a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	return c;
}

/* Recompute the state at the selected event and the sorted rows. */
static void
procs_rebuild(struct tv_ui *ui, struct procs_priv *pp)
{
	const struct tv_thread *threads, *keep = NULL;
	int64_t keep_tid = TV_TID_UNKNOWN;
	size_t n, i;

	pp->stale = false;
	if (pp->cur < pp->nrows)
		keep_tid = pp->rows[pp->cur]->tid;
	tv_ui_session_state_at(ui, ui->have_sel ? &ui->sel : NULL, pp->st);
	threads = tv_state_threads(pp->st, &n);
	if (n > pp->rows_cap) {
		pp->rows = tv_xreallocarray(pp->rows, n, sizeof(*pp->rows));
		pp->rows_cap = n;
	}
	for (i = 0; i < n; i++)
		pp->rows[i] = &threads[i];
	pp->nrows = n;
	procs_sort_key = pp->sort;
	if (n > 1)
		qsort(pp->rows, n, sizeof(*pp->rows), procs_cmp);
	/* the selection stays on the same thread when it still exists */
	for (i = 0; i < n && keep == NULL; i++) {
		if (pp->rows[i]->tid == keep_tid) {
			keep = pp->rows[i];
			pp->cur = i;
		}
	}
	if (pp->cur >= n)
		pp->cur = n ? n - 1 : 0;
}

/*
 * Whether to wait for the pass rather than replay from its last
 * checkpoint to a cursor far ahead of it (seconds on a big trace).
 */
static bool
procs_wait(struct tv_ui *ui, struct procs_priv *pp)
{
	pp->waiting = ui->have_sel &&
	    !tv_ui_session_reached(ui, ui->sel.rec.ts);
	return pp->waiting;
}

/* Pane op: the state at the selected event. */
static void
procs_init(struct tv_ui *ui, struct tv_pane *p)
{
	struct procs_priv *pp = tv_xcalloc(1, sizeof(*pp));

	pp->st = tv_state_create(ui->set);
	pp->stale = true;
	p->priv = pp;
}

/* Pane op: free everything. */
static void
procs_fini(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct procs_priv *pp = p->priv;

	if (pp == NULL)
		return;
	tv_state_destroy(pp->st);
	free(pp->rows);
	free(pp);
	p->priv = NULL;
}

/* A column id as text, or "-". */
static const char *
procs_id(int64_t v, char *buf, size_t size)
{
	if (v == TV_TID_UNKNOWN)
		return "-";
	snprintf(buf, size, "%" PRId64, v);
	return buf;
}

/* Pane op: title, column header, rows. */
static void
procs_draw(struct tv_ui *ui, struct tv_pane *p)
{
	static const char *const sort_names[SORT_COUNT] = {
		N_("PID"), N_("TID"), N_("name"), N_("state"), N_("CPU"),
		N_("since"),
	};
	struct procs_priv *pp = p->priv;
	bool focused = tv_ui_has_focus(ui, p);
	char title[256], pid[24], tid[24], ppid[24], cpu[16], since[64];
	char line[384], state[64], modes[160];
	const struct tv_thread *t;
	chtype a = ui->attrs[TV_UI_A_HEADER];
	size_t row;
	int i, h = p->h - 2;

	if (pp->stale && procs_wait(ui, pp)) {
		wattrset(p->win, a);
		mvwhline(p->win, 0, 0, ' ' | a, p->w);
		tv_ui_put(p->win, 0, 1, _("Processes: waiting for the "
		    "background pass to reach the cursor"), p->w - 1);
		wattrset(p->win, A_NORMAL);
		return;
	}
	if (pp->stale)
		procs_rebuild(ui, pp);
	if (ui->proc_filter)
		snprintf(title, sizeof(title), _("Processes: %zu, sorted by "
		    "%s (s: sort, Enter: follow)  ] [ p: %s %" PRId64),
		    pp->nrows, _(sort_names[pp->sort]), ui->proc_name,
		    ui->proc_tid);
	else
		snprintf(title, sizeof(title), _("Processes: %zu, sorted by "
		    "%s (s: sort, Enter: follow)"), pp->nrows,
		    _(sort_names[pp->sort]));
	wattrset(p->win, a);
	mvwhline(p->win, 0, 0, ' ' | a, p->w);
	tv_ui_put(p->win, 0, 1, title, p->w - 1);
	wattrset(p->win, ui->attrs[TV_UI_A_SCOPE]);
	snprintf(line, sizeof(line), "%7s %7s %7s %-15s %-9s %3s %-18s %s",
	    _("PID"), _("TID"), _("PPID"), _("NAME"), _("STATE"), _("CPU"),
	    _("SINCE"), _("MODE"));
	if (p->h > 1)
		tv_ui_put(p->win, 1, 1, line, p->w - 1);
	if (h < 1)
		h = 1;
	if (pp->cur < pp->top)
		pp->top = pp->cur;
	if (pp->cur >= pp->top + (size_t)h)
		pp->top = pp->cur - (size_t)h + 1;
	for (i = 0, row = pp->top; i < h && row < pp->nrows; i++, row++) {
		t = pp->rows[row];
		if (t->since == TV_TIME_NONE)
			snprintf(since, sizeof(since), "-");
		else
			/* a state's start has no cycle value: relative */
			tv_time_format(t->since, ui->time_style == TV_TIME_RAW ?
			    TV_TIME_RELATIVE : ui->time_style,
			    ui->set->ts_begin, since, sizeof(since));
		if (t->cpu == TV_CPU_UNKNOWN)
			snprintf(cpu, sizeof(cpu), "-");
		else
			snprintf(cpu, sizeof(cpu), "%d", t->cpu);
		snprintf(state, sizeof(state), "%s%s",
		    procs_state_name(t->state), t->uncertain ? "?" : "");
		procs_modes(t, modes, sizeof(modes));
		snprintf(line, sizeof(line),
		    "%7s %7s %7s %-15s %-9s %3s %-18s %s",
		    procs_id(t->pid, pid, sizeof(pid)),
		    procs_id(t->tid, tid, sizeof(tid)),
		    procs_id(t->ppid, ppid, sizeof(ppid)),
		    t->name[0] ? t->name : "-", state, cpu, since, modes);
		a = ui->attrs[TV_UI_A_NORMAL];
		if (row == pp->cur)
			a = ui->attrs[focused ? TV_UI_A_SELECTED :
			    TV_UI_A_SELECTED_DIM];
		wattrset(p->win, a);
		if (row == pp->cur)
			mvwhline(p->win, i + 2, 0, ' ' | a, p->w);
		tv_ui_put(p->win, i + 2, 1, line, p->w - 1);
	}
	wattrset(p->win, A_NORMAL);
}

/* Enter: restrict the jumps to the selected thread, or lift it. */
static void
procs_toggle_filter(struct tv_ui *ui, struct procs_priv *pp)
{
	const struct tv_thread *t;

	if (pp->cur >= pp->nrows)
		return;
	t = pp->rows[pp->cur];
	if (ui->proc_filter && ui->proc_tid == t->tid &&
	    ui->proc_machine == t->machine) {
		ui->proc_filter = false;
		tv_ui_message(ui, _("] [ and p follow the selected event "
		    "again"));
	} else {
		ui->proc_filter = true;
		ui->proc_tid = t->tid;
		ui->proc_pid = t->pid;
		ui->proc_machine = t->machine;
		snprintf(ui->proc_name, sizeof(ui->proc_name), "%s",
		    t->name[0] ? t->name : "-");
		tv_ui_message(ui, _("] [ go to the events of TID %" PRId64
		    ", p to those of its process"), t->tid);
	}
	ui->status_dirty = true;
}

/* Pane op: move, sort, Enter. */
static bool
procs_request(struct tv_ui *ui, struct tv_pane *p, enum tv_ui_req req)
{
	struct procs_priv *pp = p->priv;
	size_t h = (size_t)TV_MAX(p->h - 2, 1);

	switch (req) {
	case TV_UI_REQ_DOWN:
		if (pp->cur + 1 < pp->nrows)
			pp->cur++;
		break;
	case TV_UI_REQ_UP:
		if (pp->cur > 0)
			pp->cur--;
		break;
	case TV_UI_REQ_PAGE_DOWN:
	case TV_UI_REQ_HALF_DOWN:
		pp->cur += req == TV_UI_REQ_PAGE_DOWN ? h : h / 2 + 1;
		if (pp->cur >= pp->nrows)
			pp->cur = pp->nrows ? pp->nrows - 1 : 0;
		break;
	case TV_UI_REQ_PAGE_UP:
	case TV_UI_REQ_HALF_UP:
		h = req == TV_UI_REQ_PAGE_UP ? h : h / 2 + 1;
		pp->cur = pp->cur > h ? pp->cur - h : 0;
		break;
	case TV_UI_REQ_FIRST:
		pp->cur = 0;
		break;
	case TV_UI_REQ_LAST:
		pp->cur = pp->nrows ? pp->nrows - 1 : 0;
		break;
	case TV_UI_REQ_SORT:
		pp->sort = (pp->sort + 1) % SORT_COUNT;
		pp->stale = true;
		break;
	case TV_UI_REQ_FIELDS:
		procs_toggle_filter(ui, pp);
		break;
	default:
		return false;
	}
	p->dirty = true;
	return true;
}

/* Pane op: the cursor moved; recomputed when next drawn. */
static void
procs_sync(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct procs_priv *pp = p->priv;

	pp->stale = true;
	p->dirty = true;
}

/* Pane op: a click selects a row. */
static void
procs_click(struct tv_ui *ui TV_UNUSED, struct tv_pane *p, int y)
{
	struct procs_priv *pp = p->priv;

	if (y >= 2 && pp->top + (size_t)(y - 2) < pp->nrows)
		pp->cur = pp->top + (size_t)(y - 2);
	p->dirty = true;
}

/* Pane op: while it waits for the background pass, look again often. */
static int
procs_wake_ms(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct procs_priv *pp = p->priv;

	return pp->waiting ? 250 : -1;
}

/* Pane op: the wait ended; redrawn if the pass may have reached us. */
static void
procs_tick(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct procs_priv *pp = p->priv;

	if (pp->waiting)
		p->dirty = true;
}

const struct tv_pane_ops tv_ui_procs_ops = {
	.name = "procs",
	.place = TV_PANE_BOTTOM,
	.open_req = TV_UI_REQ_PROCS,
	.flags = TV_PANE_TOGGLE,
	.init = procs_init,
	.fini = procs_fini,
	.draw = procs_draw,
	.request = procs_request,
	.sync = procs_sync,
	.click = procs_click,
	.wake_ms = procs_wake_ms,
	.tick = procs_tick,
};
