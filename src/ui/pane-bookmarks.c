/*
 * Bookmarks in the browser: m marks the selected event, M starts and ends
 * an interval, u / U jump to the next / previous bookmark, B opens the
 * bookmark pane (time, end, CPU, name, text) where Enter jumps, e edits,
 * d deletes and u brings a deletion back.  Each open trace has its own
 * store (its own bookmarks.xml): a bookmark goes to the store of the
 * trace of its event, and the pane lists the union by time.  Additions
 * and edits are saved at once; deletions when something else changes, on
 * quit, or after a few idle seconds, so they can be undone until then.
 * The event list asks tv_ui_bm_mark_of() for its gutter marks.
 */
#include "ui-priv.h"
#include "tview/bookmark.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BM_SAVE_IDLE_S	5	/* a pending deletion is saved after this */

/* The bookmarks of one trace of the set. */
struct bm_store {
	struct tv_bookmarks	*bms;		/* NULL: unavailable */
	char			 why[600];	/* why unavailable */
	bool			 told_where;	/* status said where once */
};

/* One row of the pane: bookmark @i of store @set. */
struct bm_row {
	int64_t			 start;
	uint32_t		 set;
	size_t			 i;
};

struct bm_priv {
	struct bm_store		*stores;	/* one per trace, like
						   set->traces */
	uint32_t		 nstores;
	struct bm_row		*rows;		/* the union, by time */
	size_t			 nrows;
	bool			 stale;		/* rows to rebuild */
	struct tv_ui_list	 list;		/* rows of the pane */
	bool			 have_start;	/* M pressed once */
	struct tv_event		 start;
	bool			 save_due;	/* deletion not saved yet */
	time_t			 due_since;
	uint32_t		 deleted_set;	/* store of the last deletion */
	size_t			 deleted_at;	/* row of the last deletion */
	struct tv_strbuf	 sb;
};

/* The pane's state (the pane exists from start to end of the browser). */
static struct bm_priv *
priv(struct tv_ui *ui)
{
	return ui->panes[TV_UI_PANE_BOOKMARKS].priv;
}

/* Open the bookmarks of trace @k of the set into store @k. */
static void
store_open(struct tv_ui *ui, struct bm_priv *bp, uint32_t k)
{
	const struct tv_trace_set *set = ui->set;
	const struct tv_clock *clk = NULL;
	struct bm_store *s = &bp->stores[k];
	struct tv_error err;
	uint32_t i;

	tv_error_clear(&err);
	if (tv_bookmarks_open(&s->bms, set->traces[k]->path, &err) != TV_OK) {
		s->bms = NULL;
		tv_error_format(&err, s->why, sizeof(s->why));
		tv_ui_error(ui, _("bookmarks unavailable: %s"), s->why);
		return;
	}
	for (i = 0; i < set->nstreams && !clk; i++)
		if (set->streams[i]->trace == set->traces[k])
			clk = set->streams[i]->clock;
	tv_bookmarks_set_clock(s->bms, clk);
	if (tv_bookmarks_fallback(s->bms))
		tv_ui_message(ui, _("the trace's directory is not "
		    "writable: bookmarks saved in %s"),
		    tv_bookmarks_path(s->bms));
}

/*
 * One store per trace of the set, opened for the traces it gained since
 * (a set followed as it is written opens new ones).
 */
static void
stores_grow(struct tv_ui *ui, struct bm_priv *bp)
{
	uint32_t n = ui->set->ntraces, k;

	if (bp == NULL || n <= bp->nstores)
		return;
	bp->stores = tv_xreallocarray(bp->stores, n, sizeof(*bp->stores));
	memset(bp->stores + bp->nstores, 0,
	    (n - bp->nstores) * sizeof(*bp->stores));
	for (k = bp->nstores; k < n; k++)
		store_open(ui, bp, k);
	bp->nstores = n;
	bp->stale = true;
}

/* The store index of @ev's trace (0 when not found). */
static uint32_t
store_of(struct tv_ui *ui, const struct tv_event *ev)
{
	uint32_t k;

	stores_grow(ui, ui->panes[TV_UI_PANE_BOOKMARKS].priv);
	for (k = 0; k < ui->set->ntraces; k++)
		if (ev->stream && ui->set->traces[k] == ev->stream->trace)
			return k;
	return 0;
}

/* Rows by start (unknown times last), then trace, then index. */
static int
row_cmp(const void *a, const void *b)
{
	const struct bm_row *x = a, *y = b;

	if (x->start != y->start) {
		if (x->start == TV_TIME_NONE || y->start == TV_TIME_NONE)
			return x->start == TV_TIME_NONE ? 1 : -1;
		return x->start < y->start ? -1 : 1;
	}
	if (x->set != y->set)
		return x->set < y->set ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The rows of the pane, rebuilt after any change to a store. */
static size_t
count_rows(struct bm_priv *bp)
{
	size_t n = 0, i;
	uint32_t k;

	if (!bp->stale)
		return bp->nrows;
	for (k = 0; k < bp->nstores; k++)
		n += tv_bookmarks_count(bp->stores[k].bms);
	free(bp->rows);
	bp->rows = n ? tv_xcalloc(n, sizeof(*bp->rows)) : NULL;
	bp->nrows = 0;
	for (k = 0; k < bp->nstores; k++)
		for (i = 0; i < tv_bookmarks_count(bp->stores[k].bms); i++) {
			struct bm_row *r = &bp->rows[bp->nrows++];

			r->start = tv_bookmarks_get(bp->stores[k].bms,
			    i)->start;
			r->set = k;
			r->i = i;
		}
	if (bp->nrows > 1)
		qsort(bp->rows, bp->nrows, sizeof(*bp->rows), row_cmp);
	bp->stale = false;
	return bp->nrows;
}

/* Bookmark of row @r (NULL past the end); its store in *@set. */
static const struct tv_bookmark *
row_get(struct bm_priv *bp, size_t r, uint32_t *set)
{
	if (r >= count_rows(bp))
		return NULL;
	*set = bp->rows[r].set;
	return tv_bookmarks_get(bp->stores[*set].bms, bp->rows[r].i);
}

/* The row of bookmark @i of store @set (0 if none). */
static size_t
row_of(struct bm_priv *bp, uint32_t set, size_t i)
{
	size_t r, n = count_rows(bp);

	for (r = 0; r < n; r++)
		if (bp->rows[r].set == set && bp->rows[r].i == i)
			return r;
	return 0;
}

/* Save store @k now; say where on its first save, or what went wrong. */
static void
save_one(struct tv_ui *ui, uint32_t k)
{
	struct bm_store *s = &priv(ui)->stores[k];
	struct tv_error err;
	char buf[1200];
	bool was_fallback;

	if (!s->bms || !tv_bookmarks_dirty(s->bms))
		return;
	priv(ui)->stale = true;	/* a save merges what others wrote */
	tv_error_clear(&err);
	was_fallback = tv_bookmarks_fallback(s->bms);
	if (tv_bookmarks_save(s->bms, &err) != TV_OK) {
		tv_ui_error(ui, _("bookmarks not saved: %s"),
		    tv_error_format(&err, buf, sizeof(buf)));
		return;
	}
	if (!was_fallback && tv_bookmarks_fallback(s->bms)) {
		/* the trace's file system is full or read-only */
		s->told_where = true;
		tv_ui_message(ui, _("cannot write beside the trace: bookmarks "
		    "saved in %s"), tv_bookmarks_path(s->bms));
	} else if (!s->told_where) {
		s->told_where = true;
		tv_ui_message(ui, tv_bookmarks_fallback(s->bms) ?
		    _("the trace's directory is not writable: bookmarks "
		    "saved in %s") : _("bookmarks saved in %s"),
		    tv_bookmarks_path(s->bms));
	}
	ui->status_dirty = true;
}

/* Save every store with changes. */
static void
save(struct tv_ui *ui)
{
	struct bm_priv *bp = priv(ui);
	uint32_t k;

	bp->save_due = false;
	for (k = 0; k < bp->nstores; k++)
		save_one(ui, k);
}

/* Add @spec to store @k and save; false (and why) when refused. */
static bool
add(struct tv_ui *ui, uint32_t k, const struct tv_bookmark_spec *spec)
{
	struct bm_priv *bp = priv(ui);
	struct tv_error err;
	char buf[1200];
	size_t i;

	if (!bp->stores[k].bms) {
		tv_ui_error(ui, _("bookmarks unavailable: %s"),
		    bp->stores[k].why);
		return false;
	}
	tv_error_clear(&err);
	if (tv_bookmarks_add(bp->stores[k].bms, spec, &i, &err) != TV_OK) {
		tv_ui_error(ui, _("no bookmark: %s"),
		    tv_error_format(&err, buf, sizeof(buf)));
		return false;
	}
	bp->stale = true;
	bp->list.cur = row_of(bp, k, i);
	save(ui);
	return true;
}

/* Something changed: redraw the list and the marks. */
static void
changed(struct tv_ui *ui)
{
	struct bm_priv *bp = priv(ui);
	size_t n;

	bp->stale = true;
	n = count_rows(bp);
	if (bp->list.cur >= n)
		bp->list.cur = n > 0 ? n - 1 : 0;
	tv_ui_mark_all(ui);
}

/* False (and a message) when no trace's bookmarks can be used. */
static bool
usable(struct tv_ui *ui)
{
	struct bm_priv *bp = priv(ui);
	uint32_t k;

	for (k = 0; k < bp->nstores; k++)
		if (bp->stores[k].bms)
			return true;
	tv_ui_error(ui, _("bookmarks unavailable: %s"),
	    bp->nstores ? bp->stores[0].why : "");
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
	if (!add(ui, store_of(ui, &ui->sel), &spec))
		return;
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
	if (!add(ui, store_of(ui, &bp->start), &spec))
		return;
	changed(ui);
	if (!ui->msg[0])
		tv_ui_message(ui, _("interval bookmarked"));
}

/* Select the first event at or after the start of the bookmark of row @r. */
static void
jump_to(struct tv_ui *ui, size_t r)
{
	struct bm_priv *bp = priv(ui);
	const struct tv_bookmark *b;
	struct tv_event ev;
	enum tv_status st;
	uint32_t set;

	b = row_get(bp, r, &set);
	if (!b || b->start == TV_TIME_NONE)
		return;
	bp->list.cur = r;
	tv_merge_seek_time(ui->merge, b->start);
	if ((st = tv_ui_merge_step(ui, +1, &ev)) != TV_OK) {
		if (st == TV_CANCELLED)
			return;		/* Esc in a filtered walk: stay */
		tv_merge_seek_end(ui->merge);
		if (tv_ui_merge_step(ui, -1, &ev) != TV_OK)
			return;
	}
	tv_ui_events_goto(ui, &ev);
	tv_ui_message(ui, "%s%s%s", b->name, b->name[0] && b->text[0] ?
	    ": " : "", b->text);
	ui->panes[TV_UI_PANE_BOOKMARKS].dirty = true;
}

/* u / U: the next or previous bookmark of any trace from the selection. */
static void
step(struct tv_ui *ui, int dir)
{
	struct bm_priv *bp = priv(ui);
	int64_t ts = ui->have_sel ? ui->sel.rec.ts :
	    dir > 0 ? INT64_MIN : INT64_MAX;
	size_t r, n;
	long found = -1;

	if (!usable(ui))
		return;
	n = count_rows(bp);
	for (r = 0; r < n; r++) {
		if (bp->rows[r].start == TV_TIME_NONE)
			continue;
		if (dir > 0 && bp->rows[r].start > ts) {
			found = (long)r;
			break;
		}
		if (dir < 0 && bp->rows[r].start < ts)
			found = (long)r;
	}
	if (found < 0) {
		tv_ui_message(ui, dir > 0 ? _("no bookmark after this event") :
		    _("no bookmark before this event"));
		return;
	}
	jump_to(ui, (size_t)found);
}

/* e: new name and text for bookmark @i of store @set. */
static void
edit(struct tv_ui *ui, uint32_t set, long i)
{
	struct bm_priv *bp = priv(ui);
	struct tv_bookmarks *bms = bp->stores[set].bms;
	const struct tv_bookmark *b = i < 0 ? NULL :
	    tv_bookmarks_get(bms, (size_t)i);
	char name[512], text[1024], buf[1200];
	struct tv_error err;

	if (!b) {
		tv_ui_message(ui, _("no bookmark here"));
		return;
	}
	snprintf(name, sizeof(name), "%s", b->name);
	snprintf(text, sizeof(text), "%s", b->text);
	if (!ask(ui, name, sizeof(name), text, sizeof(text)))
		return;
	tv_error_clear(&err);
	if (tv_bookmarks_edit(bms, (size_t)i, name, text, &err) != TV_OK) {
		tv_ui_error(ui, _("bookmark not changed: %s"),
		    tv_error_format(&err, buf, sizeof(buf)));
		return;
	}
	bp->stale = true;
	save(ui);
	changed(ui);
}

/* e in the pane: edit the bookmark of the selected row. */
static void
edit_row(struct tv_ui *ui)
{
	struct bm_priv *bp = priv(ui);

	if (bp->list.cur >= count_rows(bp)) {
		tv_ui_message(ui, _("no bookmark here"));
		return;
	}
	edit(ui, bp->rows[bp->list.cur].set, (long)bp->rows[bp->list.cur].i);
}

/* d: delete the selected bookmark; saved later, so u can undo it. */
static void
delete(struct tv_ui *ui)
{
	struct bm_priv *bp = priv(ui);
	const struct bm_row *r;

	if (bp->list.cur >= count_rows(bp))
		return;
	r = &bp->rows[bp->list.cur];
	tv_bookmarks_delete(bp->stores[r->set].bms, r->i);
	bp->deleted_set = r->set;
	bp->deleted_at = bp->list.cur;
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
	struct tv_bookmarks *bms = bp->nstores ?
	    bp->stores[bp->deleted_set].bms : NULL;

	if (!bms || !tv_bookmarks_undo(bms)) {
		tv_ui_message(ui, _("nothing to undo"));
		return;
	}
	if (!tv_bookmarks_dirty(bms))
		bp->save_due = false;
	bp->list.cur = bp->deleted_at;
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
	uint32_t k;

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
		if (usable(ui) && ui->have_sel) {
			k = store_of(ui, &ui->sel);
			edit(ui, k, tv_bookmarks_covering(bp->stores[k].bms,
			    ui->sel.rec.ts, -1));
		}
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
	const struct tv_bookmarks *bms;
	const struct tv_bookmark *b;
	uint32_t k;
	long i;

	if (!bp || bp->nstores == 0)
		return 0;
	k = store_of(ui, ev);	/* may grow the stores: first */
	bms = bp->stores[k].bms;
	if (!bms || tv_bookmarks_count(bms) == 0)
		return 0;
	i = tv_bookmarks_covering(bms, ev->rec.ts, tv_ui_event_cpu(ev));
	if (i < 0)
		return 0;
	b = tv_bookmarks_get(bms, (size_t)i);
	return b->start == ev->rec.ts ? '*' : '|';
}

/* See ui-priv.h. */
const struct tv_bookmarks *
tv_ui_bm_set(struct tv_ui *ui, uint32_t k)
{
	struct bm_priv *bp = priv(ui);

	return bp != NULL && k < bp->nstores ? bp->stores[k].bms : NULL;
}

/* See ui-priv.h. */
bool
tv_ui_bm_range(struct tv_ui *ui, int64_t ts, int64_t *begin, int64_t *end,
    char *what, size_t size)
{
	struct bm_priv *bp = priv(ui);
	const struct tv_bookmark *b, *prev = NULL, *next = NULL;
	uint32_t set;
	size_t r;

	for (r = 0; bp != NULL && r < count_rows(bp); r++) {
		b = row_get(bp, r, &set);
		if (b->start == TV_TIME_NONE)
			continue;
		if (b->interval && b->start <= ts && ts <= b->end) {
			*begin = b->start;
			*end = b->end;
			snprintf(what, size, "%s", b->name[0] ? b->name :
			    _("interval"));
			return true;
		}
		if (b->start <= ts)
			prev = b;
		else if (next == NULL)
			next = b;
	}
	if (prev == NULL && next == NULL)
		return false;
	*begin = prev != NULL ? prev->start : TV_TIME_NONE;
	*end = next != NULL ? next->start : TV_TIME_NONE;
	snprintf(what, size, "%s - %s", prev == NULL ? "" : prev->name[0] ?
	    prev->name : "B", next == NULL ? "" : next->name[0] ?
	    next->name : "B");
	return true;
}

/* See ui-priv.h. */
bool
tv_ui_bm_named(struct tv_ui *ui, const char *name, int64_t *start,
    int64_t *end)
{
	struct bm_priv *bp = priv(ui);
	const struct tv_bookmark *b;
	uint32_t set;
	size_t r;

	for (r = 0; bp != NULL && r < count_rows(bp); r++) {
		b = row_get(bp, r, &set);
		if (b->start != TV_TIME_NONE && strcmp(b->name, name) == 0) {
			*start = b->start;
			*end = b->end;
			return true;
		}
	}
	return false;
}

/* See ui-priv.h. */
void
tv_ui_bm_status(struct tv_ui *ui, struct tv_strbuf *sb)
{
	struct bm_priv *bp = priv(ui);
	bool fallback = false, any = false;
	size_t n = 0;
	uint32_t k;

	if (!bp)
		return;
	for (k = 0; k < bp->nstores; k++) {
		if (!bp->stores[k].bms)
			continue;
		any = true;
		n += tv_bookmarks_count(bp->stores[k].bms);
		fallback |= tv_bookmarks_fallback(bp->stores[k].bms);
	}
	if (!any || (n == 0 && !fallback))
		return;
	tv_strbuf_addf(sb, P_("%zu bookmark", "%zu bookmarks", n), n);
	if (fallback)
		tv_strbuf_adds(sb, _(" (in $XDG_DATA_HOME)"));
	tv_strbuf_adds(sb, "  ");
}

/* Pane op: open the bookmarks of every trace. */
static void
bm_init(struct tv_ui *ui, struct tv_pane *p)
{
	struct bm_priv *bp = tv_xcalloc(1, sizeof(*bp));

	tv_strbuf_init(&bp->sb);
	p->priv = bp;
	bp->stale = true;
	stores_grow(ui, bp);
}

/* Try to save every store with changes; false and why in @buf if one fails. */
static bool
save_all(struct bm_priv *bp, char *buf, size_t size)
{
	struct tv_error err;
	bool ok = true;
	uint32_t k;

	for (k = 0; k < bp->nstores; k++) {
		struct tv_bookmarks *bms = bp->stores[k].bms;

		if (!bms || !tv_bookmarks_dirty(bms))
			continue;
		tv_error_clear(&err);
		if (tv_bookmarks_save(bms, &err) != TV_OK) {
			tv_error_format(&err, buf, size);
			ok = false;
		}
	}
	bp->stale = true;
	return ok;
}

/*
 * q: save what is pending; when that fails, quit only if the user says
 * so (y), else stay with the bookmarks in memory (the next change or q
 * tries again, after the disk has room perhaps).
 */
bool
tv_ui_bm_may_quit(struct tv_ui *ui)
{
	struct bm_priv *bp = priv(ui);
	char buf[1200];
	wint_t wch;
	int key;

	if (!bp)
		return true;
	bp->save_due = false;
	if (save_all(bp, buf, sizeof(buf)))
		return true;
	for (;;) {
		tv_ui_error(ui, _("quit and lose unsaved bookmarks? (y/n) "
		    "not saved: %s"), buf);
		tv_ui_draw(ui);
		key = tv_ui_getkey(ui, &wch);
		if (key == 'y' || key == 'Y')
			return true;
		if (key == 'n' || key == 'N' || key == TV_UI_ESC ||
		    key == TV_UI_CTRL('c') || key == TV_UI_CTRL('g'))
			break;
		if (key == (KEY_RESIZE | TV_UI_KEY_FN))
			tv_ui_layout(ui);
	}
	tv_ui_message(ui, _("bookmarks kept in memory: q tries to save "
	    "them again"));
	return false;
}

/* Pane op: save what is pending and free. */
static void
bm_fini(struct tv_ui *ui, struct tv_pane *p)
{
	struct bm_priv *bp = p->priv;
	char buf[1200];
	uint32_t k;

	if (!bp)
		return;
	if (!save_all(bp, buf, sizeof(buf)))
		fprintf(stderr, _("tview: bookmarks not saved: %s\n"), buf);
	(void)ui;
	for (k = 0; k < bp->nstores; k++)
		tv_bookmarks_destroy(bp->stores[k].bms);
	free(bp->stores);
	free(bp->rows);
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
		tv_strbuf_adds(sb, tv_ui_time(ui, ns, ui->wall_style, 0, buf,
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

	n = (int)count_rows(bp);
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
	tv_ui_list_fit(&bp->list, (size_t)n, rows);
	for (i = 0; i < rows && bp->list.top + (size_t)i < (size_t)n; i++) {
		size_t row = bp->list.top + (size_t)i;
		uint32_t set;
		const struct tv_bookmark *b = row_get(bp, row, &set);
		bool sel = row == bp->list.cur;

		tv_strbuf_reset(&bp->sb);
		tv_strbuf_addc(&bp->sb, sel ? '>' : ' ');
		if (bp->nstores > 1) {
			/* whose file holds it, named as the Trace column */
			add_text(&bp->sb, ui->set->traces[set]->name ?
			    ui->set->traces[set]->name : "?");
			tv_strbuf_adds(&bp->sb, "  ");
		}
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
	int n = (int)count_rows(bp), h = TV_MAX(p->h - 1, 1);

	switch (req) {
	case TV_UI_REQ_FIELDS:
		if (n > 0)
			jump_to(ui, bp->list.cur);
		break;
	case TV_UI_REQ_BM_NEXT:
		undo(ui);
		break;
	case TV_UI_REQ_BM_EDIT:
		edit_row(ui);
		break;
	case TV_UI_REQ_BM_DELETE:
		delete(ui);
		break;
	default:
		if (!tv_ui_list_request(&bp->list, (size_t)n, h, req))
			return false;
		break;
	}
	p->dirty = true;
	return true;
}

/* Pane op: a click selects a row. */
static void
bm_click(struct tv_ui *ui TV_UNUSED, struct tv_pane *p, int y)
{
	struct bm_priv *bp = p->priv;

	if (tv_ui_list_click(&bp->list, count_rows(bp),
	    TV_MAX(p->h - 1, 1), y - 1))
		p->dirty = true;
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
