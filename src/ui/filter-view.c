/*
 * The filtered view of the browser: :filter EXPR keeps only the events
 * EXPR matches, :filter-out EXPR hides them; filters stack (an event is
 * kept when it matches every :filter and no :filter-out), F switches them
 * off and on, :filter alone clears them; C, T and E add a filter on the
 * selected event's CPU, process or name.  Every move of the event list
 * goes through tv_ui_merge_step(), which skips what the filters hide, so
 * paging, g/G, :goto, search, n/N and bookmarks work inside the view.
 *
 * For now matches come from the walk itself (no background bitmaps): a
 * rare match costs a walk to it.  The count "N of M events" comes from
 * one pass when a filter is added (Esc stops it; then "N+" is shown).
 * tid, pid and comm need the process state: the view keeps a state
 * index and asks it for each event's owner.
 */
#include "ui-priv.h"
#include "tview/filter.h"
#include "tview/state.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most filters stacked at once. */
#define FVIEW_MAX	16

struct fview_entry {
	struct tv_filter	*f;		/* owned */
	bool			 out;		/* :filter-out */
};

struct tv_ui_fview {
	struct fview_entry	 e[FVIEW_MAX];
	size_t			 n;
	bool			 on;
	bool			 bypass;	/* raw steps (counting) */
	bool			 counted;	/* whole pass done */
	uint64_t		 matches;	/* events kept (so far) */
	uint64_t		 total;		/* events seen (so far) */
	struct tv_arena		 arena;
	struct tv_state_index	*idx;		/* owned, when needed */
	struct tv_state		*st;
};

/* The view of @ui, made on first use. */
static struct tv_ui_fview *
fview(struct tv_ui *ui)
{
	if (ui->fview == NULL) {
		ui->fview = tv_xcalloc(1, sizeof(*ui->fview));
		tv_arena_init(&ui->fview->arena);
	}
	return ui->fview;
}

/* See ui-priv.h. */
bool
tv_ui_filter_active(const struct tv_ui *ui)
{
	return ui->fview && ui->fview->on && ui->fview->n > 0 &&
	    !ui->fview->bypass;
}

/* Whether filter @f matches @ev. */
static bool
matches(struct tv_ui_fview *v, const struct tv_filter *f,
    const struct tv_event *ev)
{
	struct tv_event_owner owner;
	const struct tv_event_owner *o = NULL;

	if (tv_filter_verdict(f, ev) == TV_FILTER_NEVER)
		return false;
	if (tv_filter_needs_state(f) && v->idx != NULL) {
		memset(&owner, 0, sizeof(owner));
		if (tv_state_before_event(v->idx, ev, v->st, NULL) == TV_OK &&
		    tv_state_apply(v->st, ev, &owner, NULL) == TV_OK)
			o = &owner;
	}
	tv_arena_reset(&v->arena);
	return tv_filter_match(f, ev, o, &v->arena);
}

/* See ui-priv.h. */
bool
tv_ui_filter_keep(struct tv_ui *ui, const struct tv_event *ev)
{
	struct tv_ui_fview *v = ui->fview;
	size_t i;

	if (!tv_ui_filter_active(ui) || ev->rec.kind != TV_REC_EVENT)
		return true;
	for (i = 0; i < v->n; i++)
		if (matches(v, v->e[i].f, ev) == v->e[i].out)
			return false;
	return true;
}

/* Count predicate: never a hit, counts kept and seen events. */
static bool
count_pred(struct tv_ui *ui, const struct tv_event *ev, void *arg)
{
	struct tv_ui_fview *v = arg;

	if (ev->rec.kind != TV_REC_EVENT)
		return false;
	v->total++;
	v->bypass = false;
	if (tv_ui_filter_keep(ui, ev))
		v->matches++;
	v->bypass = true;
	return false;
}

/* One pass over the trace: how many events the view keeps. */
static void
count(struct tv_ui *ui)
{
	struct tv_ui_fview *v = ui->fview;
	struct tv_event hit;
	enum tv_status st;

	v->matches = v->total = 0;
	v->counted = false;
	if (!tv_ui_filter_active(ui))
		return;
	v->bypass = true;
	st = tv_ui_scan(ui, NULL, false, +1, false, count_pred, v,
	    _("filtering"), &hit, NULL);
	v->bypass = false;
	v->counted = st == TV_NOT_FOUND;
	ui->status_dirty = true;
}

/* Show the kept event at or after the selection (else before it). */
static bool
reshow(struct tv_ui *ui)
{
	struct tv_event ev;

	if (ui->have_sel) {
		tv_merge_seek_event(ui->merge, &ui->sel);
		if (tv_ui_merge_step(ui, +1, &ev) == TV_OK) {
			tv_ui_events_goto(ui, &ev);
			return true;
		}
		tv_merge_seek_event(ui->merge, &ui->sel);
		if (tv_ui_merge_step(ui, -1, &ev) == TV_OK) {
			tv_ui_events_goto(ui, &ev);
			return true;
		}
		return false;
	}
	tv_merge_seek_begin(ui->merge);
	if (tv_ui_merge_step(ui, +1, &ev) != TV_OK)
		return false;
	tv_ui_events_goto(ui, &ev);
	return true;
}

/* Drop every filter. */
static void
fview_clear(struct tv_ui_fview *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		tv_filter_destroy(v->e[i].f);
	v->n = 0;
	v->counted = false;
}

/* See ui-priv.h. */
void
tv_ui_filter_command(struct tv_ui *ui, const char *arg, bool out)
{
	struct tv_ui_fview *v = fview(ui);
	struct tv_time_ctx tctx;
	struct tv_filter *f;
	struct tv_error err;

	if (arg[0] == '\0') {
		if (out) {
			tv_ui_error(ui, _(":filter-out needs an argument"));
			return;
		}
		fview_clear(v);
		(void)reshow(ui);
		tv_ui_message(ui, _("filters cleared"));
		ui->status_dirty = true;
		return;
	}
	if (v->n == FVIEW_MAX) {
		tv_ui_error(ui, _("too many filters (%d): clear them with "
		    ":filter"), FVIEW_MAX);
		return;
	}
	tctx.begin = ui->set->ts_begin;
	tctx.end = ui->set->ts_end;
	tctx.cursor = ui->have_sel ? ui->sel.rec.ts : ui->set->ts_begin;
	tctx.local = ui->wall_style == TV_TIME_WALL_LOCAL;
	tv_error_clear(&err);
	if (tv_filter_compile(arg, ui->set, &tctx, &f, &err) != TV_OK) {
		char buf[600];

		tv_ui_error(ui, "%s", tv_error_format(&err, buf,
		    sizeof(buf)));
		return;
	}
	if (tv_filter_needs_state(f) && v->idx == NULL) {
		v->idx = tv_state_index_create(ui->set, 0);
		(void)tv_state_index_start(v->idx, true, NULL);
		v->st = tv_state_create(ui->set);
	}
	v->e[v->n].f = f;
	v->e[v->n].out = out;
	v->n++;
	v->on = true;
	if (!reshow(ui)) {
		/* nothing left to show: undo */
		tv_filter_destroy(f);
		v->n--;
		(void)reshow(ui);
		tv_ui_error(ui, _("no event matches the filter"));
		return;
	}
	count(ui);
}

/* See ui-priv.h. */
void
tv_ui_filter_toggle(struct tv_ui *ui)
{
	struct tv_ui_fview *v = fview(ui);

	if (v->n == 0) {
		tv_ui_error(ui, _("no filter (add one with & or :filter)"));
		return;
	}
	v->on = !v->on;
	(void)reshow(ui);
	tv_ui_message(ui, v->on ? _("filters on") : _("filters off"));
	if (v->on && !v->counted)
		count(ui);
	ui->status_dirty = true;
}

/* See ui-priv.h. */
void
tv_ui_filter_quick(struct tv_ui *ui, enum tv_ui_req req)
{
	const struct tv_event_class *c;
	char text[600];
	int64_t pid;

	if (!ui->have_sel || ui->sel.rec.kind != TV_REC_EVENT) {
		tv_ui_error(ui, _("no event selected"));
		return;
	}
	switch (req) {
	case TV_UI_REQ_FILTER_CPU:
		if (ui->sel.stream->cpu == TV_CPU_UNKNOWN) {
			tv_ui_error(ui, _("the selected event has no CPU"));
			return;
		}
		snprintf(text, sizeof(text), "$cpu == %d",
		    (int)ui->sel.stream->cpu);
		break;
	case TV_UI_REQ_FILTER_TASK:
		if (!tv_ui_owner_pid(ui, &ui->sel, +1, &pid)) {
			tv_ui_error(ui, _("the selected event's process is "
			    "unknown"));
			return;
		}
		snprintf(text, sizeof(text), "$pid == %" PRId64, pid);
		break;
	default:
		c = tv_event_class_of(&ui->sel);
		if (c == NULL || strpbrk(c->name, "\"") != NULL) {
			tv_ui_error(ui, _("the selected event has no name"));
			return;
		}
		snprintf(text, sizeof(text), "\"%s\"", c->name);
		break;
	}
	tv_ui_filter_command(ui, text, false);
}

/* See ui-priv.h. */
void
tv_ui_filter_status(struct tv_ui *ui, struct tv_strbuf *sb)
{
	struct tv_ui_fview *v = ui->fview;

	if (v == NULL || v->n == 0)
		return;
	if (!v->on) {
		tv_strbuf_addf(sb, _("filters off (%zu)  "), v->n);
		return;
	}
	tv_strbuf_addf(sb, "%s%s", v->e[v->n - 1].out ? "!" : "&",
	    tv_filter_text(v->e[v->n - 1].f));
	if (v->n > 1)
		tv_strbuf_addf(sb, " (+%zu)", v->n - 1);
	if (v->counted)
		tv_strbuf_addf(sb, _(": %" PRIu64 " of %" PRIu64 " events  "),
		    v->matches, v->total);
	else
		tv_strbuf_addf(sb, _(": %" PRIu64 "+ events  "), v->matches);
}

/* See ui-priv.h. */
void
tv_ui_filter_fini(struct tv_ui *ui)
{
	struct tv_ui_fview *v = ui->fview;

	if (v == NULL)
		return;
	fview_clear(v);
	tv_arena_fini(&v->arena);
	tv_state_index_destroy(v->idx);
	tv_state_destroy(v->st);
	free(v);
	ui->fview = NULL;
}
