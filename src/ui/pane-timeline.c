/*
 * The timeline pane (C): the control-flow view (one row per thread) under
 * the CPU view (one row per CPU), time across, one letter a column as
 * --timeline prints it, coloured by kind when colours are on.  The data
 * comes from the core (timeline.h) and is rebuilt only when the window,
 * the width or the pass's progress changes.  Left/Right move the column
 * cursor (panning at the edges), + and - zoom around it, < and > pan by
 * half a window, s sorts the threads (TID, name, time running), i hides
 * the threads that did not run in the window, Enter goes to the column's
 * time in the event list.  Above the rows, the density strip: events
 * per column of the window (exact for a small window, from the packet
 * index for a large one), with the column cursor and the bookmarks
 * marked on the line under it.  With a filter on, the strip counts the
 * events it keeps, through the filter pass (density.h), and is built
 * again as that pass goes on.
 */
#include "ui-priv.h"
#include "tview/bookmark.h"
#include "tview/density.h"
#include "tview/merge.h"
#include "tview/timeline.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Columns of the row labels ("  TID name" or "cpu N"). */
#define TL_LABEL	22
/* The narrowest window: a column of at least 1 ns. */
#define TL_MIN_SPAN	16
/* Lines above the rows: title, cursor text, density strip, marks. */
#define TL_TOP		4

enum tl_sort { TL_SORT_TID, TL_SORT_NAME, TL_SORT_RUN, TL_SORT_COUNT };

struct tl_priv {
	struct tv_timeline	*tl;
	struct tv_density	*dens;		/* of the same window */
	unsigned		 dens_gen;	/* of the filter pass it used */
	int64_t			 t0, t1;	/* the window */
	uint32_t		 cols;		/* built for this width */
	bool			 stale;
	bool			 built_done;	/* the pass had ended */
	uint32_t		 cur_col;
	struct tv_ui_list	 list;		/* the row cursor, in rows[] */
	int			 sort;
	bool			 hide_idle;
	bool			 center;	/* put the column cursor on the
						   selected event once built */
	/* display order: CPU rows first, then threads */
	const struct tv_timeline_row **rows;
	size_t			 nrows, ncpu_rows;
};

static int tl_sort_key;		/* qsort has no context argument */

/* Thread order for the current sort. */
static int
tl_cmp(const void *pa, const void *pb)
{
	const struct tv_timeline_row *a = *(const struct tv_timeline_row *
	    const *)pa;
	const struct tv_timeline_row *b = *(const struct tv_timeline_row *
	    const *)pb;
	int c = 0;

	if (tl_sort_key == TL_SORT_NAME)
		c = strcmp(a->name, b->name);
	else if (tl_sort_key == TL_SORT_RUN)
		c = a->running < b->running ? 1 : a->running > b->running ?
		    -1 : 0;
	if (c == 0)
		c = a->machine < b->machine ? -1 : a->machine > b->machine;
	if (c == 0)
		c = a->tid < b->tid ? -1 : a->tid > b->tid;
	return c;
}

/* The display rows of the built timeline. */
static void
tl_rows(struct tl_priv *tp)
{
	const struct tv_timeline *tl = tp->tl;
	size_t i, n = 0;

	free(tp->rows);
	tp->rows = tv_xcalloc(tl->ncpus + tl->nthreads + 1,
	    sizeof(*tp->rows));
	for (i = 0; i < tl->ncpus; i++)
		tp->rows[n++] = &tl->cpus[i];
	tp->ncpu_rows = n;
	for (i = 0; i < tl->nthreads; i++)
		if (!tp->hide_idle || tl->threads[i].running > 0)
			tp->rows[n++] = &tl->threads[i];
	tl_sort_key = tp->sort;
	qsort(tp->rows + tp->ncpu_rows, n - tp->ncpu_rows, sizeof(*tp->rows),
	    tl_cmp);
	tp->nrows = n;
	if (tp->list.cur >= n)
		tp->list.cur = n ? n - 1 : 0;
}

/* Build the timeline of the window for @cols columns. */
static void
tl_build(struct tv_ui *ui, struct tl_priv *tp, uint32_t cols)
{
	struct tv_error err;
	double frac;

	tv_timeline_destroy(tp->tl);
	tp->tl = NULL;
	tp->cols = cols;
	tp->stale = false;
	tp->built_done = !tv_ui_session_progress(ui, &frac);
	if (tv_timeline_build(tv_ui_session_index(ui), ui->set, tp->t0,
	    tp->t1, cols, NULL, &tp->tl, &err) != TV_OK) {
		tv_ui_error(ui, "%s", err.msg);
		return;
	}
	if (tp->center && ui->have_sel && ui->sel.rec.ts >= tp->t0 &&
	    ui->sel.rec.ts < tp->t1)
		tp->cur_col = tv_timeline_col_of(tp->tl, ui->sel.rec.ts);
	tp->center = false;
	if (tp->cur_col >= tp->tl->ncols)
		tp->cur_col = tp->tl->ncols - 1;
	tl_rows(tp);
}

/*
 * The density strip of the window, built again when the window, the
 * width or the filters changed, or while the filter pass runs.
 */
static void
tl_density(struct tv_ui *ui, struct tl_priv *tp, uint32_t cols)
{
	const struct tv_pass *pass;
	struct tv_error err;
	unsigned gen;

	pass = tv_ui_filter_pass(ui, &gen);
	if (tp->dens != NULL && tp->dens->t0 == tp->t0 &&
	    tp->dens->t1 == tp->t1 && tp->dens->ncols == cols &&
	    tp->dens_gen == gen && !tp->dens->partial)
		return;
	tv_density_destroy(tp->dens);
	tp->dens = NULL;
	tp->dens_gen = gen;
	if (tv_density_build(ui->set, tp->t0, tp->t1, cols, pass, NULL,
	    &tp->dens, &err) != TV_OK)
		tv_ui_error(ui, "%s", err.msg);
}

/* Pane op. */
static void
tl_init(struct tv_ui *ui, struct tv_pane *p)
{
	struct tl_priv *tp = tv_xcalloc(1, sizeof(*tp));

	tp->t0 = ui->set->ts_begin;
	tp->t1 = ui->set->ts_end + 1;
	tp->stale = true;
	p->priv = tp;
}

/* Pane op. */
static void
tl_fini(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct tl_priv *tp = p->priv;

	if (tp == NULL)
		return;
	tv_timeline_destroy(tp->tl);
	tv_density_destroy(tp->dens);
	free(tp->rows);
	free(tp);
	p->priv = NULL;
}

/* The attribute a cell is drawn with. */
static chtype
tl_attr(struct tv_ui *ui, enum tv_cell c)
{
	switch (c) {
	case TV_CELL_USER:
		return ui->attrs[TV_UI_A_CELL_RUN];
	case TV_CELL_SYSCALL:
	case TV_CELL_TRAP:
		return ui->attrs[TV_UI_A_CELL_SYS];
	case TV_CELL_IRQ:
	case TV_CELL_SOFTIRQ:
		return ui->attrs[TV_UI_A_CELL_IRQ];
	case TV_CELL_RUNNABLE:
		return ui->attrs[TV_UI_A_CELL_WAIT];
	default:
		return A_NORMAL;
	}
}

/* The label of a row: "cpu N" or "TID name". */
static void
tl_label(const struct tv_timeline_row *r, bool cpu, char *buf, size_t size)
{
	if (cpu)
		snprintf(buf, size, "cpu %d", r->cpu);
	else
		snprintf(buf, size, "%7" PRId64 " %s", r->tid,
		    r->name[0] ? r->name : "-");
}

/* What the cursor cell shows, for the pane's second line. */
static void
tl_cursor_text(struct tv_ui *ui, struct tl_priv *tp, char *buf, size_t size)
{
	const struct tv_timeline_row *r;
	char when[64];
	enum tv_cell c;
	int64_t tid;

	tv_ui_time(ui, tv_timeline_col_time(tp->tl, tp->cur_col),
	    ui->time_style == TV_TIME_RAW ? TV_TIME_RELATIVE : ui->time_style,
	    ui->set->ts_begin, when, sizeof(when));
	if (tp->list.cur >= tp->nrows) {
		snprintf(buf, size, "%s", when);
		return;
	}
	r = tp->rows[tp->list.cur];
	c = (enum tv_cell)r->cells[tp->cur_col];
	if (tp->list.cur < tp->ncpu_rows) {
		tid = r->cell_tid[tp->cur_col];
		if (tid == TV_TID_UNKNOWN)
			snprintf(buf, size, _("%s  cpu %d: %s"), when, r->cpu,
			    _(tv_cell_name(c)));
		else
			snprintf(buf, size, _("%s  cpu %d: %s, TID %" PRId64),
			    when, r->cpu, _(tv_cell_name(c)), tid);
	} else if (r->cell_cpu[tp->cur_col] >= 0) {
		snprintf(buf, size, _("%s  TID %" PRId64 " %s: %s on cpu %d"),
		    when, r->tid, r->name, _(tv_cell_name(c)),
		    r->cell_cpu[tp->cur_col]);
	} else {
		snprintf(buf, size, _("%s  TID %" PRId64 " %s: %s"), when,
		    r->tid, r->name, _(tv_cell_name(c)));
	}
}

/* The bookmarks of @bms (NULL: none) on line @y: 'B' at a start, '=' on. */
static void
tl_draw_marks(const struct tl_priv *tp, struct tv_pane *p, int y, int cells,
    const struct tv_bookmarks *bms)
{
	const struct tv_bookmark *b;
	uint32_t c, c0, c1;
	size_t i;

	for (i = 0; bms != NULL && i < tv_bookmarks_count(bms); i++) {
		b = tv_bookmarks_get(bms, i);
		if (b->start == TV_TIME_NONE || b->end < tp->t0 ||
		    b->start >= tp->t1)
			continue;
		c0 = tv_window_col_of(tp->t0, tp->t1, tp->dens->ncols,
		    b->start);
		c1 = tv_window_col_of(tp->t0, tp->t1, tp->dens->ncols, b->end);
		for (c = c0; c <= c1 && c < (uint32_t)cells; c++)
			mvwaddch(p->win, y, TL_LABEL + (int)c,
			    c == c0 ? 'B' : '=');
	}
}

/*
 * The density strip on line @y: one glyph a column, eight heights (block
 * elements in a UTF-8 locale, ASCII otherwise); and under it the marks:
 * '^' at the column cursor, 'B' at a bookmark, '=' across an interval.
 */
static void
tl_draw_density(struct tv_ui *ui, struct tl_priv *tp, struct tv_pane *p,
    int y, int cells)
{
	static const char *const blocks[9] = {
		" ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83",
		"\xe2\x96\x84", "\xe2\x96\x85", "\xe2\x96\x86",
		"\xe2\x96\x87", "\xe2\x96\x88",
	};
	static const char ascii[9] = " .:-=+*#@";
	bool utf8 = MB_CUR_MAX > 1;
	uint32_t k;
	unsigned l;
	int x;

	uint64_t kept, seen;
	const char *label;
	char buf[TL_LABEL];
	unsigned gen;
	double frac;
	bool done;

	mvwhline(p->win, y, 0, ' ', p->w);
	mvwhline(p->win, y + 1, 0, ' ', p->w);
	if (tp->dens->partial && tv_ui_filter_pass(ui, &gen) != NULL) {
		frac = tv_pass_progress(tv_ui_filter_pass(ui, &gen), &kept,
		    &seen, &done);
		snprintf(buf, sizeof(buf), _("filtering %.0f%%"),
		    100.0 * frac);
		label = buf;
	} else if (tv_ui_filter_active(ui)) {
		label = tp->dens->estimated ? _("filtered ~") : _("filtered");
	} else {
		label = tp->dens->estimated ? _("events ~") : _("events");
	}
	tv_ui_put(p->win, y, 1, label, TL_LABEL - 2);
	for (x = 0; x < cells && (uint32_t)x < tp->dens->ncols; x++) {
		l = tv_density_level(tp->dens, (uint32_t)x, 8);
		if (utf8)
			mvwaddstr(p->win, y, TL_LABEL + x, blocks[l]);
		else
			mvwaddch(p->win, y, TL_LABEL + x,
			    (chtype)(unsigned char)ascii[l]);
	}
	for (k = 0; k < ui->set->ntraces; k++)
		tl_draw_marks(tp, p, y + 1, cells, tv_ui_bm_set(ui, k));
	if (tp->cur_col < (uint32_t)cells)
		mvwaddch(p->win, y + 1, TL_LABEL + (int)tp->cur_col, '^');
}

/* Pane op: title, cursor line, density strip, rows. */
static void
tl_draw(struct tv_ui *ui, struct tv_pane *p)
{
	static const char *const sort_names[TL_SORT_COUNT] = {
		N_("TID"), N_("name"), N_("time running"),
	};
	struct tl_priv *tp = p->priv;
	chtype a = ui->attrs[TV_UI_A_HEADER];
	char title[320], label[64], span[64];
	int cells = p->w - TL_LABEL - 1, h = p->h - TL_TOP, i, x;
	const struct tv_timeline_row *r;
	double frac;
	size_t row;

	if (cells < 1 || h < 1)
		return;
	if (tp->stale || tp->cols != (uint32_t)cells ||
	    (!tp->built_done && !tv_ui_session_progress(ui, &frac)))
		tl_build(ui, tp, (uint32_t)cells);
	werase(p->win);
	wattrset(p->win, a);
	mvwhline(p->win, 0, 0, ' ' | a, p->w);
	if (tp->tl == NULL) {
		tv_ui_put(p->win, 0, 1, _("Timeline: nothing to show"),
		    p->w - 1);
		wattrset(p->win, A_NORMAL);
		return;
	}
	tv_time_format_span((tp->t1 - tp->t0) / (int64_t)tp->tl->ncols, span,
	    sizeof(span));
	snprintf(title, sizeof(title), _("Timeline: %s a column%s, sorted "
	    "by %s (+ - zoom, < > pan, s sort, i idle, Enter: go)"), span,
	    !tp->tl->sampled ? "" : !tp->built_done ?
	    _(" (partial: the background pass is still running)") :
	    _(" (sampled: zoom in for every event)"),
	    _(sort_names[tp->sort]));
	tv_ui_put(p->win, 0, 1, title, p->w - 1);
	wattrset(p->win, ui->attrs[TV_UI_A_SCOPE]);
	tl_cursor_text(ui, tp, title, sizeof(title));
	tv_ui_put(p->win, 1, 1, title, p->w - 1);
	wattrset(p->win, A_NORMAL);
	tl_density(ui, tp, tp->tl->ncols);
	if (tp->dens != NULL)
		tl_draw_density(ui, tp, p, 2, cells);
	tv_ui_list_fit(&tp->list, tp->nrows, h);
	for (i = 0, row = tp->list.top; i < h && row < tp->nrows; i++, row++) {
		r = tp->rows[row];
		tl_label(r, row < tp->ncpu_rows, label, sizeof(label));
		wattrset(p->win, row == tp->list.cur ?
		    ui->attrs[TV_UI_A_SELECTED] : A_NORMAL);
		mvwhline(p->win, i + TL_TOP, 0, ' ', TL_LABEL);
		tv_ui_put(p->win, i + TL_TOP, 0, label, TL_LABEL - 1);
		for (x = 0; x < cells && (uint32_t)x < tp->tl->ncols; x++) {
			enum tv_cell c = (enum tv_cell)r->cells[x];
			chtype at = tl_attr(ui, c);

			if ((uint32_t)x == tp->cur_col)
				at |= A_REVERSE;
			mvwaddch(p->win, i + TL_TOP, TL_LABEL + x,
			    (chtype)(unsigned char)tv_cell_letter(c) | at);
		}
	}
	wattrset(p->win, A_NORMAL);
}

/* Zoom by @num/@den around the cursor column. */
static void
tl_zoom(struct tv_ui *ui, struct tl_priv *tp, int64_t num, int64_t den)
{
	int64_t at, span, t0, t1;
	__int128 off;

	if (tp->tl == NULL)
		return;
	at = tv_timeline_col_time(tp->tl, tp->cur_col);
	span = tp->t1 - tp->t0;
	off = (__int128)(at - tp->t0) * num / den;
	span = (int64_t)((__int128)span * num / den);
	if (span < TL_MIN_SPAN)
		span = TL_MIN_SPAN;
	t0 = at - (int64_t)off;
	t1 = t0 + span;
	/* no further out than the whole trace */
	if (t0 < ui->set->ts_begin)
		t0 = ui->set->ts_begin;
	if (t1 > ui->set->ts_end + 1)
		t1 = ui->set->ts_end + 1;
	if (t1 - t0 < TL_MIN_SPAN)
		return;
	tp->t0 = t0;
	tp->t1 = t1;
	tp->stale = true;
}

/* Move the window by @frac_num/@frac_den of its span (negative: back). */
static void
tl_pan(struct tv_ui *ui, struct tl_priv *tp, int64_t num, int64_t den)
{
	int64_t span = tp->t1 - tp->t0, d = span * num / den;

	if (tp->t0 + d < ui->set->ts_begin)
		d = ui->set->ts_begin - tp->t0;
	if (tp->t1 + d > ui->set->ts_end + 1)
		d = ui->set->ts_end + 1 - tp->t1;
	if (d == 0)
		return;
	tp->t0 += d;
	tp->t1 += d;
	tp->stale = true;
}

/* Enter: the event list goes to the cursor column's first event. */
static void
tl_go(struct tv_ui *ui, struct tl_priv *tp)
{
	struct tv_event ev;

	if (tp->tl == NULL)
		return;
	tv_merge_seek_time(ui->merge,
	    tv_timeline_col_time(tp->tl, tp->cur_col));
	if (tv_merge_next(ui->merge, &ev) != TV_OK)
		return;
	tv_ui_pane_close(ui, TV_UI_PANE_TIMELINE);
	tv_ui_events_goto(ui, &ev);
}

/* Pane op: keys of the timeline. */
static bool
tl_request(struct tv_ui *ui, struct tv_pane *p, enum tv_ui_req req)
{
	struct tl_priv *tp = p->priv;
	uint32_t ncols = tp->tl != NULL ? tp->tl->ncols : 1;

	switch (req) {
	case TV_UI_REQ_LEFT:
		if (tp->cur_col > 0)
			tp->cur_col--;
		else
			tl_pan(ui, tp, -1, 4);
		break;
	case TV_UI_REQ_RIGHT:
		if (tp->cur_col + 1 < ncols)
			tp->cur_col++;
		else
			tl_pan(ui, tp, 1, 4);
		break;
	case TV_UI_REQ_PAN_LEFT:
		tl_pan(ui, tp, -1, 2);
		break;
	case TV_UI_REQ_PAN_RIGHT:
		tl_pan(ui, tp, 1, 2);
		break;
	case TV_UI_REQ_ZOOM_IN:
		tl_zoom(ui, tp, 1, 2);
		break;
	case TV_UI_REQ_ZOOM_OUT:
		tl_zoom(ui, tp, 2, 1);
		break;
	case TV_UI_REQ_SORT:
		tp->sort = (tp->sort + 1) % TL_SORT_COUNT;
		if (tp->tl != NULL)
			tl_rows(tp);
		break;
	case TV_UI_REQ_IDLE_THREADS:
		tp->hide_idle = !tp->hide_idle;
		if (tp->tl != NULL)
			tl_rows(tp);
		break;
	case TV_UI_REQ_FIELDS:
		tl_go(ui, tp);
		return true;
	case TV_UI_REQ_QUIT:
	case TV_UI_REQ_CLOSE:
	case TV_UI_REQ_TIMELINE:
		tv_ui_pane_close(ui, TV_UI_PANE_TIMELINE);
		return true;
	default:
		/* rows: the list engine's moves */
		if (!tv_ui_list_request(&tp->list, tp->nrows, p->h - TL_TOP,
		    req))
			return false;
	}
	p->dirty = true;
	return true;
}

/* Pane op: opening puts the column cursor on the selected event. */
static void
tl_sync(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct tl_priv *tp = p->priv;

	tp->center = true;
	tp->stale = true;
	p->dirty = true;
}

/* Pane op: while the pass runs, redraw as it progresses. */
static int
tl_wake_ms(struct tv_ui *ui, struct tv_pane *p)
{
	struct tl_priv *tp = p->priv;
	double frac;

	if (!p->open)
		return -1;
	if (!tp->built_done && tv_ui_session_progress(ui, &frac))
		return 500;
	return tp->dens != NULL && tp->dens->partial ? 200 : -1;
}

/*
 * Pane op: rebuild with what the pass has reached (the strip, with what
 * the filter pass has: see tl_density()).
 */
static void
tl_tick(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct tl_priv *tp = p->priv;

	tp->stale = tp->stale || !tp->built_done;
	p->dirty = true;
}

const struct tv_pane_ops tv_ui_timeline_ops = {
	.name = "timeline",
	.place = TV_PANE_OVERLAY,
	.open_req = TV_UI_REQ_TIMELINE,
	.flags = TV_PANE_TOGGLE,
	.init = tl_init,
	.fini = tl_fini,
	.draw = tl_draw,
	.request = tl_request,
	.sync = tl_sync,
	.wake_ms = tl_wake_ms,
	.tick = tl_tick,
};
