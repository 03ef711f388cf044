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
	struct tv_ui_list	 list;
	int			 sort;		/* enum procs_sort */
	bool			 waiting;	/* the pass has not reached
						   the cursor yet */
};

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
	if (pp->list.cur < pp->nrows)
		keep_tid = pp->rows[pp->list.cur]->tid;
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
			pp->list.cur = i;
		}
	}
	if (pp->list.cur >= n)
		pp->list.cur = n ? n - 1 : 0;
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

/*
 * The pane's columns, fitted by the event list's rule (columns.c): side
 * by side with the fields pane it is half the screen wide, so the
 * columns of least priority go first and the name is cut in its middle;
 * the thread stays identified by TID and name.
 */
enum { PC_PID, PC_TID, PC_PPID, PC_NAME, PC_STATE, PC_CPU, PC_SINCE,
    PC_MODE, PC_COUNT };
static const struct tv_ui_col procs_cols[PC_COUNT] = {
	[PC_PID] = { "pid", N_("PID"), 1, 7, 0 },
	[PC_TID] = { "tid", N_("TID"), 0, 7, 0 },
	[PC_PPID] = { "ppid", N_("PPID"), 4, 7, 0 },
	[PC_NAME] = { "name", N_("NAME"), 0, 15, 12 },
	[PC_STATE] = { "state", N_("STATE"), 2, 9, 0 },
	[PC_CPU] = { "cpu", N_("CPU"), 3, 3, 0 },
	[PC_SINCE] = { "since", N_("SINCE"), 5, 18, 0 },
	[PC_MODE] = { "mode", N_("MODE"), 6, 4, 0 },
};

/* Widths of the columns in @room columns; 0: not shown. */
static void
procs_fit(int room, int *width)
{
	struct tv_ui_colfit fit[PC_COUNT];
	int i;

	for (i = 0; i < PC_COUNT; i++) {
		fit[i].want = procs_cols[i].width;
		fit[i].min = procs_cols[i].min ? procs_cols[i].min :
		    procs_cols[i].width;
		fit[i].priority = procs_cols[i].priority;
	}
	tv_ui_columns_fit(fit, PC_COUNT, room, 1);
	for (i = 0; i < PC_COUNT; i++)
		width[i] = fit[i].width;
}

/* A line of the pane: @cell[i] in the columns @width shows, ids and the
   CPU right-aligned, the last column as long as it is. */
static void
procs_line(struct tv_strbuf *sb, const char *const *cell, const int *width)
{
	int i, w;

	tv_strbuf_reset(sb);
	for (i = 0; i < PC_COUNT; i++) {
		if (width[i] <= 0)
			continue;
		if (sb->len)
			tv_strbuf_addc(sb, ' ');
		if (i == PC_MODE) {
			tv_strbuf_adds(sb, cell[i]);
			continue;
		}
		if (i <= PC_PPID || i == PC_CPU) {
			for (w = tv_ui_width(cell[i]); w < width[i]; w++)
				tv_strbuf_addc(sb, ' ');
			tv_strbuf_adds(sb, cell[i]);
		} else {
			tv_ui_add_cut(sb, cell[i], width[i]);
		}
	}
}

/* Rows of threads under the title and the column header. */
static int
procs_rows(const struct tv_pane *p)
{
	return TV_MAX(p->h - 2, 1);
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
	char state[64], modes[160];
	const char *cell[PC_COUNT];
	int width[PC_COUNT];
	struct tv_strbuf line, name;
	const struct tv_thread *t;
	chtype a = ui->attrs[TV_UI_A_HEADER];
	size_t row;
	int i, h = procs_rows(p);

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
	tv_strbuf_init(&line);
	tv_strbuf_init(&name);
	procs_fit(p->w - 1, width);
	for (i = 0; i < PC_COUNT; i++)
		cell[i] = _(procs_cols[i].title);
	procs_line(&line, cell, width);
	if (p->h > 1)
		tv_ui_put(p->win, 1, 1, line.buf, p->w - 1);
	if (h < 1)
		h = 1;
	tv_ui_list_fit(&pp->list, pp->nrows, h);
	for (i = 0, row = pp->list.top; i < h && row < pp->nrows; i++, row++) {
		t = pp->rows[row];
		if (t->since == TV_TIME_NONE)
			snprintf(since, sizeof(since), "-");
		else
			/* a state's start has no cycle value: relative */
			tv_ui_time(ui, t->since, ui->time_style == TV_TIME_RAW ?
			    TV_TIME_RELATIVE : ui->time_style,
			    ui->set->ts_begin, since, sizeof(since));
		if (t->cpu == TV_CPU_UNKNOWN)
			snprintf(cpu, sizeof(cpu), "-");
		else
			snprintf(cpu, sizeof(cpu), "%d", t->cpu);
		snprintf(state, sizeof(state), "%s%s",
		    _(tv_thread_state_name((enum tv_thread_state)t->state)),
		    t->uncertain ? "?" : "");
		tv_thread_modes_text(t, true, modes, sizeof(modes));
		tv_strbuf_reset(&name);
		tv_ui_escape(&name, t->name, strnlen(t->name,
		    sizeof(t->name)));
		cell[PC_PID] = procs_id(t->pid, pid, sizeof(pid));
		cell[PC_TID] = procs_id(t->tid, tid, sizeof(tid));
		cell[PC_PPID] = procs_id(t->ppid, ppid, sizeof(ppid));
		cell[PC_NAME] = name.len ? name.buf : "-";
		cell[PC_STATE] = state;
		cell[PC_CPU] = cpu;
		cell[PC_SINCE] = since;
		cell[PC_MODE] = modes;
		procs_line(&line, cell, width);
		a = ui->attrs[TV_UI_A_NORMAL];
		if (row == pp->list.cur)
			a = ui->attrs[focused ? TV_UI_A_SELECTED :
			    TV_UI_A_SELECTED_DIM];
		wattrset(p->win, a);
		if (row == pp->list.cur)
			mvwhline(p->win, i + 2, 0, ' ' | a, p->w);
		tv_ui_put(p->win, i + 2, 1, line.buf, p->w - 1);
	}
	wattrset(p->win, A_NORMAL);
	tv_strbuf_fini(&line);
	tv_strbuf_fini(&name);
}

/* Enter: restrict the jumps to the selected thread, or lift it. */
static void
procs_toggle_filter(struct tv_ui *ui, struct procs_priv *pp)
{
	const struct tv_thread *t;

	if (pp->list.cur >= pp->nrows)
		return;
	t = pp->rows[pp->list.cur];
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

	switch (req) {
	case TV_UI_REQ_SORT:
		pp->sort = (pp->sort + 1) % SORT_COUNT;
		pp->stale = true;
		break;
	case TV_UI_REQ_FIELDS:
		procs_toggle_filter(ui, pp);
		break;
	default:
		if (!tv_ui_list_request(&pp->list, pp->nrows, procs_rows(p),
		    req))
			return false;
		break;
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

	tv_ui_list_click(&pp->list, pp->nrows, procs_rows(p), y - 2);
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
