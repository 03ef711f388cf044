/*
 * The event list.  Rows are made on demand from the merger: the pane only
 * keeps the positions (struct tv_event) of the rows on screen, and every
 * move re-seeks and walks at most two screens, forwards or backwards at
 * the same cost, so a 10 GB trace scrolls like a small one.
 */
#include "ui-priv.h"

#include <stdlib.h>
#include <string.h>

struct events_priv {
	struct tv_event	*rows;		/* on screen, top first */
	int		 nrows;
	int		 cur;		/* selected row */
	struct tv_event	*above;		/* scratch: events before a target */
	struct tv_event	*below;		/* scratch: target and after */
	int		 cap;
	struct tv_strbuf sb;
	bool		 waiting;	/* rows drawn before the pass reached
					   them: their tasks show "..." */
};

/* Rows of events that fit under the column header. */
static int
view_height(const struct tv_pane *p)
{
	return TV_MAX(p->h - 1, 1);
}

/* Make room for @h rows in every array. */
static void
ensure_cap(struct events_priv *ep, int h)
{
	if (h <= ep->cap)
		return;
	ep->rows = tv_xreallocarray(ep->rows, (size_t)h, sizeof(*ep->rows));
	ep->above = tv_xreallocarray(ep->above, (size_t)h,
	    sizeof(*ep->above));
	ep->below = tv_xreallocarray(ep->below, (size_t)h,
	    sizeof(*ep->below));
	ep->cap = h;
}

/*
 * Next or previous record of the merger: events, and the markers of lost
 * events and packets, shown where the tracer lost them.
 */
enum tv_status
tv_ui_merge_step_raw(struct tv_ui *ui, int dir, struct tv_event *out)
{
	return dir > 0 ? tv_merge_next(ui->merge, out) :
	    tv_merge_prev(ui->merge, out);
}

/*
 * The same, inside the filtered view: the records it shows.  A long
 * walk over hidden records can be cancelled (TV_CANCELLED).
 */
enum tv_status
tv_ui_merge_step(struct tv_ui *ui, int dir, struct tv_event *out)
{
	enum tv_status st;
	uint64_t skipped = 0;

	while ((st = tv_ui_merge_step_raw(ui, dir, out)) == TV_OK &&
	    !tv_ui_filter_keep(ui, out))
		if (tv_ui_filter_skip(ui, ++skipped, out))
			return TV_CANCELLED;
	return st;
}

/*
 * Up to @n events after (dir > 0) or before @from, nearest first, into
 * @out (may be NULL: then only the last one is kept in *last).  Returns
 * how many there were.
 */
static int
fetch(struct tv_ui *ui, const struct tv_event *from, int dir, int n,
    struct tv_event *out, struct tv_event *last)
{
	struct tv_event ev;
	int got = 0;

	tv_merge_seek_event(ui->merge, from);
	if (dir > 0 && tv_ui_merge_step_raw(ui, +1, &ev) != TV_OK)
		return 0;		/* @from itself */
	while (got < n && tv_ui_merge_step(ui, dir, &ev) == TV_OK) {
		if (out)
			out[got] = ev;
		if (last)
			*last = ev;
		got++;
	}
	return got;
}

/* The selection moved inside the rows: tell everybody. */
static void
selected(struct tv_ui *ui, struct tv_pane *p)
{
	struct events_priv *ep = p->priv;

	p->dirty = true;
	tv_ui_select(ui, ep->nrows ? &ep->rows[ep->cur] : NULL);
}

/*
 * Fill the screen around @ev, putting it on row @want when the events
 * before and after allow, and select it.
 */
static void
show_around(struct tv_ui *ui, struct tv_pane *p, const struct tv_event *ev,
    int want)
{
	struct events_priv *ep = p->priv;
	int h = view_height(p), na, nb, nabove, i, n = 0;

	ensure_cap(ep, h);
	want = TV_MAX(0, TV_MIN(want, h - 1));
	na = fetch(ui, ev, -1, h - 1, ep->above, NULL);
	ep->below[0] = *ev;
	nb = 1 + fetch(ui, ev, +1, h - 1, ep->below + 1, NULL);
	nabove = TV_MIN(want, na);
	if (nabove + nb < h)
		nabove = TV_MIN(na, h - nb);
	for (i = nabove - 1; i >= 0; i--)
		ep->rows[n++] = ep->above[i];
	for (i = 0; i < nb && n < h; i++)
		ep->rows[n++] = ep->below[i];
	ep->nrows = n;
	ep->cur = nabove;
	selected(ui, p);
}

/* Show the first (@dir < 0) or last event of the timeline. */
static void
show_end(struct tv_ui *ui, struct tv_pane *p, int dir)
{
	struct events_priv *ep = p->priv;
	struct tv_event ev;
	enum tv_status st;

	if (dir < 0) {
		tv_merge_seek_begin(ui->merge);
		st = tv_ui_merge_step(ui, +1, &ev);
	} else {
		tv_merge_seek_end(ui->merge);
		st = tv_ui_merge_step(ui, -1, &ev);
	}
	if (st == TV_CANCELLED)
		return;		/* Esc in a filtered walk: stay */
	if (st == TV_OK) {
		show_around(ui, p, &ev, dir < 0 ? 0 : view_height(p) - 1);
		return;
	}
	ep->nrows = 0;
	ep->cur = 0;
	selected(ui, p);
}

/* Move the selection @n events in direction @dir, keeping its row. */
static void
move_sel(struct tv_ui *ui, struct tv_pane *p, int dir, int n)
{
	struct events_priv *ep = p->priv;
	struct tv_event target;

	if (ep->nrows == 0)
		return;
	if (n == 1) {
		if (dir > 0 && ep->cur + 1 < ep->nrows) {
			ep->cur++;
			selected(ui, p);
			return;
		}
		if (dir < 0 && ep->cur > 0) {
			ep->cur--;
			selected(ui, p);
			return;
		}
	}
	if (fetch(ui, &ep->rows[ep->cur], dir, n, NULL, &target) == 0) {
		if (dir > 0)
			tv_ui_message(ui, _("at the last event"));
		else
			tv_ui_message(ui, _("at the first event"));
		return;
	}
	if (n == 1)
		show_around(ui, p, &target, dir > 0 ? view_height(p) - 1 : 0);
	else
		show_around(ui, p, &target, ep->cur);
}

/* Select @ev: on screen if it is there, else centred. */
void
tv_ui_events_goto(struct tv_ui *ui, const struct tv_event *ev)
{
	struct tv_pane *p = &ui->panes[TV_UI_PANE_EVENTS];
	struct events_priv *ep = p->priv;
	int i;

	for (i = 0; i < ep->nrows; i++) {
		if (tv_event_cmp(&ep->rows[i], ev) == 0) {
			ep->cur = i;
			selected(ui, p);
			return;
		}
	}
	show_around(ui, p, ev, (view_height(p) - 1) / 2);
}

/* Pane op: allocate the row arrays. */
static void
events_init(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct events_priv *ep = tv_xcalloc(1, sizeof(*ep));

	tv_strbuf_init(&ep->sb);
	p->priv = ep;
}

/* Pane op: free the row arrays. */
static void
events_fini(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct events_priv *ep = p->priv;

	if (!ep)
		return;
	free(ep->rows);
	free(ep->above);
	free(ep->below);
	tv_strbuf_fini(&ep->sb);
	free(ep);
	p->priv = NULL;
}

/* Pane op: new height; the selected event stays selected and on its row. */
static void
events_resize(struct tv_ui *ui, struct tv_pane *p)
{
	struct events_priv *ep = p->priv;
	struct tv_event sel;

	if (ep->nrows == 0)
		return;
	sel = ep->rows[ep->cur];
	show_around(ui, p, &sel, TV_MIN(ep->cur, view_height(p) - 1));
}

/* See ui-priv.h. */
void
tv_ui_events_reload(struct tv_ui *ui, bool to_end)
{
	struct tv_pane *p = &ui->panes[TV_UI_PANE_EVENTS];
	struct events_priv *ep = p->priv;

	if (to_end || ep->nrows == 0)
		show_end(ui, p, +1);
	else
		events_resize(ui, p);
	p->dirty = true;
}

/* Draw bytes [@b, @e) of @s at column @x, at most @cols - @x columns. */
static int
put_part(WINDOW *w, int y, int x, int cols, char *s, size_t b, size_t e)
{
	char c = s[e];
	int n;

	s[e] = '\0';
	n = tv_ui_put(w, y, x, s + b, cols - x);
	s[e] = c;
	return n;
}

/*
 * Draw row text @sb (a gutter byte, then the row) on line @y in
 * attribute @a, with what the current search matches highlighted (in
 * the row only, as the search sees it; at most a few spans).
 */
static void
put_row(struct tv_ui *ui, WINDOW *w, int y, int cols, struct tv_strbuf *sb,
    chtype a, bool sel)
{
	chtype hl = sel ? a | A_UNDERLINE | A_BOLD : ui->attrs[TV_UI_A_MATCH];
	size_t at = 1, b, e;
	int x, spans = 0;

	if (sb->len == 0)
		return;
	x = put_part(w, y, 0, cols, sb->buf, 0, 1);
	while (x < cols && spans++ < 16 && tv_ui_search_span(ui,
	    sb->buf + 1, sb->len - 1, at - 1, &b, &e)) {
		x += put_part(w, y, x, cols, sb->buf, at, b + 1);
		wattrset(w, hl);
		x += put_part(w, y, x, cols, sb->buf, b + 1, e + 1);
		wattrset(w, a);
		at = e + 1;
	}
	if (x < cols)
		(void)put_part(w, y, x, cols, sb->buf, at, sb->len);
}

/* Pane op: header line and one line per row, the selection marked. */
static void
events_draw(struct tv_ui *ui, struct tv_pane *p)
{
	struct events_priv *ep = p->priv;
	bool focused = tv_ui_has_focus(ui, p);
	chtype a;
	int i;

	tv_strbuf_reset(&ep->sb);
	tv_strbuf_addc(&ep->sb, ' ');
	tv_ui_render_header(ui, &ep->sb);
	a = ui->attrs[TV_UI_A_HEADER];
	wattrset(p->win, a);
	mvwhline(p->win, 0, 0, ' ' | a, p->w);
	tv_ui_put(p->win, 0, 0, ep->sb.buf, p->w);
	wattrset(p->win, A_NORMAL);
	ep->waiting = false;
	if (ep->nrows == 0) {
		tv_ui_put(p->win, 1, 1, _("(no events)"), p->w - 1);
		return;
	}
	/*
	 * Asked before the rows are drawn: the pass only goes forwards, so
	 * a row drawn "..." below is one it had not reached then, and rows
	 * are in time order, so the last drawn is the latest.
	 */
	i = TV_MIN(ep->nrows, p->h - 1);
	ep->waiting = ui->session != NULL && i > 0 &&
	    !tv_ui_session_reached(ui, ep->rows[i - 1].rec.ts);
	for (i = 0; i < ep->nrows && i + 1 < p->h; i++) {
		bool sel = i == ep->cur;
		char bm = tv_ui_bm_mark_of(ui, &ep->rows[i]);

		tv_strbuf_reset(&ep->sb);
		tv_strbuf_addc(&ep->sb, sel ? '>' : bm ? bm : ' ');
		tv_ui_render_shown(ui, &ep->rows[i], &ep->sb);
		a = sel ? ui->attrs[focused ? TV_UI_A_SELECTED :
		    TV_UI_A_SELECTED_DIM] : tv_ui_row_attr(ui, &ep->rows[i]) |
		    (bm ? A_BOLD : A_NORMAL);
		wattrset(p->win, a);
		if (sel)
			mvwhline(p->win, i + 1, 0, ' ' | a, p->w);
		put_row(ui, p->win, i + 1, p->w, &ep->sb, a, sel);
	}
	wattrset(p->win, A_NORMAL);
}

/* Pane op: the pass went on; redrawn while rows wait for it. */
static void
events_tick(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct events_priv *ep = p->priv;

	if (ep->waiting)
		p->dirty = true;
}

/* Pane op: the motion keys. */
static bool
events_request(struct tv_ui *ui, struct tv_pane *p, enum tv_ui_req req)
{
	int h = view_height(p);

	switch (req) {
	case TV_UI_REQ_DOWN:
		move_sel(ui, p, +1, 1);
		return true;
	case TV_UI_REQ_UP:
		move_sel(ui, p, -1, 1);
		return true;
	case TV_UI_REQ_PAGE_DOWN:
		move_sel(ui, p, +1, h);
		return true;
	case TV_UI_REQ_PAGE_UP:
		move_sel(ui, p, -1, h);
		return true;
	case TV_UI_REQ_HALF_DOWN:
		move_sel(ui, p, +1, TV_MAX(h / 2, 1));
		return true;
	case TV_UI_REQ_HALF_UP:
		move_sel(ui, p, -1, TV_MAX(h / 2, 1));
		return true;
	case TV_UI_REQ_FIRST:
		show_end(ui, p, -1);
		return true;
	case TV_UI_REQ_LAST:
		show_end(ui, p, +1);
		return true;
	default:
		return false;
	}
}

/* Pane op: a click on row @y selects it. */
static void
events_click(struct tv_ui *ui, struct tv_pane *p, int y)
{
	struct events_priv *ep = p->priv;

	if (y < 1 || y - 1 >= ep->nrows)
		return;
	ep->cur = y - 1;
	selected(ui, p);
}

const struct tv_pane_ops tv_ui_events_ops = {
	.name = "events",
	.place = TV_PANE_MAIN,
	.open_req = TV_UI_REQ_NONE,
	.init = events_init,
	.fini = events_fini,
	.resize = events_resize,
	.draw = events_draw,
	.request = events_request,
	.sync = NULL,
	.click = events_click,
	.tick = events_tick,
};

/* See ui-priv.h: what the tracer lost among the rows on screen. */
void
tv_ui_events_lost_in_view(struct tv_ui *ui, uint64_t *events,
    uint64_t *packets)
{
	const struct events_priv *ep = ui->panes[TV_UI_PANE_EVENTS].priv;
	int i;

	*events = 0;
	*packets = 0;
	if (ep == NULL || !ui->panes[TV_UI_PANE_EVENTS].visible)
		return;
	for (i = 0; i < ep->nrows; i++) {
		if (ep->rows[i].rec.kind == TV_REC_DISCARDED)
			*events += ep->rows[i].rec.count;
		else if (ep->rows[i].rec.kind == TV_REC_LOST_PACKETS)
			*packets += ep->rows[i].rec.count;
	}
}
