/*
 * Bookmarks in the browser: m marks the selected event, M starts and ends
 * an interval, u / U jump to the next / previous bookmark, B opens the
 * bookmark pane (time, end, CPU, name, text) where Enter jumps, e edits,
 * d deletes and u brings a deletion back.  Additions and edits are saved
 * at once; deletions when something else changes, on quit, or after a few
 * idle seconds, so they can be undone until then.  The event list asks
 * tv_ui_bm_mark_of() for its gutter marks.
 */
#include "ui-priv.h"
#include "tview/bookmark.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BM_SAVE_IDLE_S	5	/* a pending deletion is saved after this */

struct bm_priv {
	struct tv_bookmarks	*bms;		/* NULL: unavailable */
	char			 why[600];	/* why unavailable */
	int			 cur;		/* selected row */
	int			 top;		/* first row shown */
	bool			 have_start;	/* M pressed once */
	struct tv_event		 start;
	bool			 save_due;	/* deletion not saved yet */
	time_t			 due_since;
	bool			 told_where;	/* status said where once */
	int			 deleted_at;	/* row of the last deletion */
	struct tv_strbuf	 sb;
};

/* The pane's state (the pane exists from start to end of the browser). */
static struct bm_priv *
priv(struct tv_ui *ui)
{
	return ui->panes[TV_UI_PANE_BOOKMARKS].priv;
}

/* Save now; say where on the first save, or what went wrong. */
static void
save(struct tv_ui *ui)
{
	struct bm_priv *bp = priv(ui);
	struct tv_error err;
	char buf[1200];

	bp->save_due = false;
	if (!bp->bms || !tv_bookmarks_dirty(bp->bms))
		return;
	tv_error_clear(&err);
	if (tv_bookmarks_save(bp->bms, &err) != TV_OK) {
		tv_ui_error(ui, _("bookmarks not saved: %s"),
		    tv_error_format(&err, buf, sizeof(buf)));
		return;
	}
	if (!bp->told_where) {
		bp->told_where = true;
		tv_ui_message(ui, tv_bookmarks_fallback(bp->bms) ?
		    _("the trace's directory is not writable: bookmarks "
		    "saved in %s") : _("bookmarks saved in %s"),
		    tv_bookmarks_path(bp->bms));
	}
	ui->status_dirty = true;
}

/* Something changed: redraw the list and the marks. */
static void
changed(struct tv_ui *ui)
{
	struct bm_priv *bp = priv(ui);
	int n = (int)tv_bookmarks_count(bp->bms);

	if (bp->cur >= n)
		bp->cur = n > 0 ? n - 1 : 0;
	tv_ui_mark_all(ui);
}

/* False (and a message) when bookmarks cannot be used. */
static bool
usable(struct tv_ui *ui)
{
	struct bm_priv *bp = priv(ui);

	if (bp->bms)
		return true;
	tv_ui_error(ui, _("bookmarks unavailable: %s"), bp->why);
	return false;
}

/* The CPU of @ev, or TV_BM_NO_CPU. */
static int32_t
ev_cpu(const struct tv_event *ev)
{
	int cpu = tv_ui_event_cpu(ev);

	return cpu >= 0 ? cpu : TV_BM_NO_CPU;
}

/* Ask for a name and a text (both optional); false if cancelled. */
static bool
ask(struct tv_ui *ui, char *name, size_t nsize, char *text, size_t tsize)
{
	if (!tv_ui_prompt(ui, TV_UI_HIST_BOOKMARK, _("bookmark name: "),
	    name, nsize))
		return false;
	return tv_ui_prompt(ui, TV_UI_HIST_BOOKMARK, _("bookmark text: "),
	    text, tsize);
}

/* m: bookmark the selected event. */
static void
mark(struct tv_ui *ui)
{
	struct bm_priv *bp = priv(ui);
	struct tv_bookmark_spec spec;
	char name[512] = "", text[1024] = "";

	if (!usable(ui) || !ui->have_sel)
		return;
	if (!ask(ui, name, sizeof(name), text, sizeof(text))) {
		tv_ui_message(ui, _("no bookmark"));
		return;
	}
	spec.name = name;
	spec.text = text;
	spec.cpu = ev_cpu(&ui->sel);
	spec.interval = false;
	spec.start = spec.end = ui->sel.rec.ts;
	bp->cur = (int)tv_bookmarks_add(bp->bms, &spec);
	save(ui);
	changed(ui);
	if (!ui->msg[0])
		tv_ui_message(ui, _("bookmarked"));
}

/* M: the first press remembers the start, the second adds the interval. */
static void
mark_interval(struct tv_ui *ui)
{
	struct bm_priv *bp = priv(ui);
	struct tv_bookmark_spec spec;
	char name[512] = "", text[1024] = "";

	if (!usable(ui) || !ui->have_sel)
		return;
	if (!bp->have_start) {
		bp->have_start = true;
		bp->start = ui->sel;
		tv_ui_message(ui, _("interval starts here; M at its end"));
		return;
	}
	bp->have_start = false;
	if (!ask(ui, name, sizeof(name), text, sizeof(text))) {
		tv_ui_message(ui, _("no bookmark"));
		return;
	}
	spec.name = name;
	spec.text = text;
	spec.cpu = ev_cpu(&bp->start) == ev_cpu(&ui->sel) ?
	    ev_cpu(&ui->sel) : TV_BM_NO_CPU;
	spec.interval = true;
	spec.start = TV_MIN(bp->start.rec.ts, ui->sel.rec.ts);
	spec.end = TV_MAX(bp->start.rec.ts, ui->sel.rec.ts);
	bp->cur = (int)tv_bookmarks_add(bp->bms, &spec);
	save(ui);
	changed(ui);
	if (!ui->msg[0])
		tv_ui_message(ui, _("interval bookmarked"));
}

/* Select the first event at or after bookmark @i's start. */
static void
jump_to(struct tv_ui *ui, size_t i)
{
	const struct tv_bookmark *b = tv_bookmarks_get(priv(ui)->bms, i);
	struct tv_event ev;

	if (!b || b->start == TV_TIME_NONE)
		return;
	priv(ui)->cur = (int)i;
	tv_merge_seek_time(ui->merge, b->start);
	if (tv_ui_merge_step(ui, +1, &ev) != TV_OK) {
		tv_merge_seek_end(ui->merge);
		if (tv_ui_merge_step(ui, -1, &ev) != TV_OK)
			return;
	}
	tv_ui_events_goto(ui, &ev);
	tv_ui_message(ui, "%s%s%s", b->name, b->name[0] && b->text[0] ?
	    ": " : "", b->text);
	ui->panes[TV_UI_PANE_BOOKMARKS].dirty = true;
}

/* u / U: the next or previous bookmark from the selected event. */
static void
step(struct tv_ui *ui, int dir)
{
	long i;

	if (!usable(ui))
		return;
	i = tv_bookmarks_next(priv(ui)->bms, ui->have_sel ? ui->sel.rec.ts :
	    dir > 0 ? INT64_MIN : INT64_MAX, dir);
	if (i < 0) {
		tv_ui_message(ui, dir > 0 ? _("no bookmark after this event") :
		    _("no bookmark before this event"));
		return;
	}
	jump_to(ui, (size_t)i);
}

/* e: new name and text for bookmark @i. */
static void
edit(struct tv_ui *ui, long i)
{
	struct bm_priv *bp = priv(ui);
	const struct tv_bookmark *b = tv_bookmarks_get(bp->bms, (size_t)i);
	char name[512], text[1024];

	if (!b) {
		tv_ui_message(ui, _("no bookmark here"));
		return;
	}
	snprintf(name, sizeof(name), "%s", b->name);
	snprintf(text, sizeof(text), "%s", b->text);
	if (!ask(ui, name, sizeof(name), text, sizeof(text)))
		return;
	tv_bookmarks_edit(bp->bms, (size_t)i, name, text);
	save(ui);
	changed(ui);
}

/* d: delete the selected bookmark; saved later, so u can undo it. */
static void
delete(struct tv_ui *ui)
{
	struct bm_priv *bp = priv(ui);

	if (bp->cur >= (int)tv_bookmarks_count(bp->bms))
		return;
	tv_bookmarks_delete(bp->bms, (size_t)bp->cur);
	bp->deleted_at = bp->cur;
	if (!bp->save_due)
		bp->due_since = time(NULL);
	bp->save_due = true;
	changed(ui);
	tv_ui_message(ui, _("bookmark deleted; u brings it back"));
}

/* u in the pane: undo the last deletion. */
static void
undo(struct tv_ui *ui)
{
	struct bm_priv *bp = priv(ui);

	if (!tv_bookmarks_undo(bp->bms)) {
		tv_ui_message(ui, _("nothing to undo"));
		return;
	}
	if (!tv_bookmarks_dirty(bp->bms))
		bp->save_due = false;
	bp->cur = bp->deleted_at;
	changed(ui);
	tv_ui_message(ui, _("bookmark restored"));
}

/* Pane op: B opens the pane only when bookmarks work. */
static bool
bm_can_open(struct tv_ui *ui, struct tv_pane *p TV_UNUSED)
{
	return usable(ui);
}

/* Pane op: closing saves a pending deletion. */
static void
bm_closed(struct tv_ui *ui, struct tv_pane *p TV_UNUSED)
{
	if (priv(ui)->save_due)
		save(ui);
}

/* Pane op: m, M, u, U, e, d from the event list (or any pane). */
static bool
bm_global(struct tv_ui *ui, struct tv_pane *p TV_UNUSED, enum tv_ui_req req)
{
	struct bm_priv *bp = priv(ui);

	switch (req) {
	case TV_UI_REQ_BM_MARK:
		mark(ui);
		return true;
	case TV_UI_REQ_BM_INTERVAL:
		mark_interval(ui);
		return true;
	case TV_UI_REQ_BM_NEXT:
		step(ui, +1);
		return true;
	case TV_UI_REQ_BM_PREV:
		step(ui, -1);
		return true;
	case TV_UI_REQ_BM_EDIT:
		if (usable(ui) && ui->have_sel)
			edit(ui, tv_bookmarks_covering(bp->bms,
			    ui->sel.rec.ts, -1));
		return true;
	case TV_UI_REQ_BM_DELETE:
		if (usable(ui))
			tv_ui_message(ui, _("d deletes in the bookmark pane "
			    "(B)"));
		return true;
	default:
		return false;
	}
}

/* Pane op: save a deletion left pending long enough. */
static void
bm_tick(struct tv_ui *ui, struct tv_pane *p TV_UNUSED)
{
	struct bm_priv *bp = priv(ui);

	if (bp->save_due && time(NULL) - bp->due_since >= BM_SAVE_IDLE_S)
		save(ui);
}

/* Pane op: a pending deletion wants a look every second. */
static int
bm_wake_ms(struct tv_ui *ui, struct tv_pane *p TV_UNUSED)
{
	return priv(ui)->save_due ? 1000 : -1;
}

/* See ui-priv.h. */
char
tv_ui_bm_mark_of(struct tv_ui *ui, const struct tv_event *ev)
{
	struct bm_priv *bp = priv(ui);
	const struct tv_bookmark *b;
	long i;

	if (!bp || !bp->bms || tv_bookmarks_count(bp->bms) == 0)
		return 0;
	i = tv_bookmarks_covering(bp->bms, ev->rec.ts, tv_ui_event_cpu(ev));
	if (i < 0)
		return 0;
	b = tv_bookmarks_get(bp->bms, (size_t)i);
	return b->start == ev->rec.ts ? '*' : '|';
}

/* See ui-priv.h. */
void
tv_ui_bm_status(struct tv_ui *ui, struct tv_strbuf *sb)
{
	struct bm_priv *bp = priv(ui);
	size_t n;

	if (!bp || !bp->bms)
		return;
	n = tv_bookmarks_count(bp->bms);
	if (n == 0 && !tv_bookmarks_fallback(bp->bms))
		return;
	tv_strbuf_addf(sb, P_("%zu bookmark", "%zu bookmarks", n), n);
	if (tv_bookmarks_fallback(bp->bms))
		tv_strbuf_adds(sb, _(" (in $XDG_DATA_HOME)"));
	tv_strbuf_adds(sb, "  ");
}

/* Pane op: open the trace's bookmarks. */
static void
bm_init(struct tv_ui *ui, struct tv_pane *p)
{
	struct bm_priv *bp = tv_xcalloc(1, sizeof(*bp));
	const struct tv_clock *clk = NULL;
	struct tv_error err;
	uint32_t i;

	tv_strbuf_init(&bp->sb);
	p->priv = bp;
	tv_error_clear(&err);
	if (ui->set->ntraces == 0)
		return;
	if (tv_bookmarks_open(&bp->bms, ui->set->traces[0]->path, &err) !=
	    TV_OK) {
		tv_error_format(&err, bp->why, sizeof(bp->why));
		tv_ui_error(ui, _("bookmarks unavailable: %s"), bp->why);
		return;
	}
	for (i = 0; i < ui->set->nstreams && !clk; i++)
		clk = ui->set->streams[i]->clock;
	tv_bookmarks_set_clock(bp->bms, clk);
	if (tv_bookmarks_fallback(bp->bms))
		tv_ui_message(ui, _("the trace's directory is not writable: "
		    "bookmarks saved in %s"), tv_bookmarks_path(bp->bms));
}

/* Pane op: save what is pending and free. */
static void
bm_fini(struct tv_ui *ui, struct tv_pane *p)
{
	struct bm_priv *bp = p->priv;
	struct tv_error err;
	char buf[1200];

	if (!bp)
		return;
	if (bp->bms && tv_bookmarks_dirty(bp->bms) &&
	    tv_bookmarks_save(bp->bms, &err) != TV_OK)
		fprintf(stderr, _("tview: bookmarks not saved: %s\n"),
		    tv_error_format(&err, buf, sizeof(buf)));
	(void)ui;
	tv_bookmarks_destroy(bp->bms);
	tv_strbuf_fini(&bp->sb);
	free(bp);
	p->priv = NULL;
}

/* One bookmark time in the browser's wall style, or "?". */
static void
add_time(struct tv_ui *ui, struct tv_strbuf *sb, int64_t ns)
{
	char buf[64];

	if (ns == TV_TIME_NONE)
		tv_strbuf_adds(sb, "?");
	else
		tv_strbuf_adds(sb, tv_time_format(ns, ui->wall_style, 0, buf,
		    sizeof(buf)));
}

/* Append @s with control characters shown escaped, cut at @max cols. */
static void
add_text(struct tv_strbuf *sb, const char *s)
{
	tv_ui_escape(sb, s, strlen(s));
}

/* Pane op: a title, then one line per bookmark. */
static void
bm_draw(struct tv_ui *ui, struct tv_pane *p)
{
	struct bm_priv *bp = p->priv;
	bool focused = tv_ui_has_focus(ui, p);
	chtype a = ui->attrs[TV_UI_A_HEADER];
	int rows = p->h - 1, n, i;

	n = (int)tv_bookmarks_count(bp->bms);
	tv_strbuf_reset(&bp->sb);
	tv_strbuf_addf(&bp->sb, _(" Bookmarks (%d): Enter jumps, e edits, "
	    "d deletes, u undoes"), n);
	wattrset(p->win, a);
	mvwhline(p->win, 0, 0, ' ' | a, p->w);
	tv_ui_put(p->win, 0, 0, bp->sb.buf, p->w);
	wattrset(p->win, A_NORMAL);
	if (n == 0) {
		tv_ui_put(p->win, 1, 1, _("(no bookmarks: m marks the selected "
		    "event, M an interval)"), p->w - 1);
		return;
	}
	if (rows < 1)
		return;
	if (bp->cur < bp->top)
		bp->top = bp->cur;
	if (bp->cur >= bp->top + rows)
		bp->top = bp->cur - rows + 1;
	for (i = 0; i < rows && bp->top + i < n; i++) {
		const struct tv_bookmark *b = tv_bookmarks_get(bp->bms,
		    (size_t)(bp->top + i));
		bool sel = bp->top + i == bp->cur;

		tv_strbuf_reset(&bp->sb);
		tv_strbuf_addc(&bp->sb, sel ? '>' : ' ');
		add_time(ui, &bp->sb, b->start);
		tv_strbuf_adds(&bp->sb, b->interval ? " - " : "   ");
		if (b->interval)
			add_time(ui, &bp->sb, b->end);
		else
			tv_strbuf_addf(&bp->sb, "%*s", ui->time_width, "");
		if (b->cpu >= 0)
			tv_strbuf_addf(&bp->sb, "  %3" PRId32 "  ", b->cpu);
		else
			tv_strbuf_adds(&bp->sb, "    -  ");
		add_text(&bp->sb, b->name[0] ? b->name : "-");
		tv_strbuf_adds(&bp->sb, "  ");
		add_text(&bp->sb, b->text);
		a = sel ? ui->attrs[focused ? TV_UI_A_SELECTED :
		    TV_UI_A_SELECTED_DIM] : A_NORMAL;
		wattrset(p->win, a);
		if (sel)
			mvwhline(p->win, i + 1, 0, ' ' | a, p->w);
		tv_ui_put(p->win, i + 1, 0, bp->sb.buf, p->w);
	}
	wattrset(p->win, A_NORMAL);
}

/* Pane op: motion and Enter. */
static bool
bm_request(struct tv_ui *ui, struct tv_pane *p, enum tv_ui_req req)
{
	struct bm_priv *bp = p->priv;
	int n = (int)tv_bookmarks_count(bp->bms), h = TV_MAX(p->h - 1, 1);

	switch (req) {
	case TV_UI_REQ_DOWN:
		bp->cur = TV_MIN(bp->cur + 1, TV_MAX(n - 1, 0));
		break;
	case TV_UI_REQ_UP:
		bp->cur = TV_MAX(bp->cur - 1, 0);
		break;
	case TV_UI_REQ_PAGE_DOWN:
	case TV_UI_REQ_HALF_DOWN:
		bp->cur = TV_MIN(bp->cur + h, TV_MAX(n - 1, 0));
		break;
	case TV_UI_REQ_PAGE_UP:
	case TV_UI_REQ_HALF_UP:
		bp->cur = TV_MAX(bp->cur - h, 0);
		break;
	case TV_UI_REQ_FIRST:
		bp->cur = 0;
		break;
	case TV_UI_REQ_LAST:
		bp->cur = TV_MAX(n - 1, 0);
		break;
	case TV_UI_REQ_FIELDS:
		if (n > 0)
			jump_to(ui, (size_t)bp->cur);
		break;
	case TV_UI_REQ_BM_NEXT:
		undo(ui);
		break;
	case TV_UI_REQ_BM_EDIT:
		edit(ui, bp->cur);
		break;
	case TV_UI_REQ_BM_DELETE:
		delete(ui);
		break;
	default:
		return false;
	}
	p->dirty = true;
	return true;
}

/* Pane op: a click selects a row. */
static void
bm_click(struct tv_ui *ui TV_UNUSED, struct tv_pane *p, int y)
{
	struct bm_priv *bp = p->priv;
	int i = bp->top + y - 1;

	if (y >= 1 && i < (int)tv_bookmarks_count(bp->bms)) {
		bp->cur = i;
		p->dirty = true;
	}
}

const struct tv_pane_ops tv_ui_bookmarks_ops = {
	.name = "bookmarks",
	.place = TV_PANE_BOTTOM_ALONE,
	.open_req = TV_UI_REQ_BOOKMARKS,
	.flags = TV_PANE_TOGGLE,
	.init = bm_init,
	.fini = bm_fini,
	.draw = bm_draw,
	.request = bm_request,
	.click = bm_click,
	.can_open = bm_can_open,
	.closed = bm_closed,
	.global = bm_global,
	.wake_ms = bm_wake_ms,
	.tick = bm_tick,
};
