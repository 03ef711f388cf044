/*
 * The filtered view of the browser: :filter EXPR keeps only the events
 * EXPR matches, :filter-out EXPR hides them; filters stack (an event is
 * kept when it matches every :filter and no :filter-out), f switches them
 * off and on, :filter alone clears them; C, T and E add a filter on the
 * selected event's CPU, process or name.  Every move of the event list
 * goes through tv_ui_merge_step(), which skips what the filters hide, so
 * paging, g/G, :goto, search, n/N and bookmarks work inside the view.
 *
 * Matches come from a background pass (tview/pass.h) that fills one
 * bitmap per packet on every core; the count "N of M events" fills as it
 * runs.  Where the pass has not been yet, the walk asks the filters
 * itself, the owners (tid, pid, comm) coming from the session's owner
 * windows.  A long walk over hidden events polls the keyboard, says how
 * far it is, and stops on Esc.
 */
#include "ui-priv.h"
#include "tview/filter.h"
#include "tview/owner.h"
#include "tview/pass.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Most filters stacked at once. */
#define FVIEW_MAX	16
/* Hidden records skipped between two looks at the keyboard. */
#define SKIP_POLL	256
/* A skip longer than this (ms) says how far it is. */
#define SKIP_PROGRESS_MS	150

struct fview_entry {
	struct tv_filter	*f;		/* owned */
	bool			 out;		/* :filter-out */
};

/* What the background pass evaluates: a copy of the stack. */
struct fview_stack {
	struct fview_entry	 e[FVIEW_MAX];
	size_t			 n;
};

struct tv_ui_fview {
	struct fview_entry	 e[FVIEW_MAX];
	size_t			 n;
	bool			 on;
	struct tv_arena		 arena;
	struct tv_pass		*pass;		/* owned, while on */
	unsigned		 pass_gen;	/* one more per pass */
	struct fview_stack	 stack;		/* the pass's argument */
	struct fview_keeper {			/* tv_ui_filter_keeper() */
		const struct tv_pass	*pass;
		struct fview_stack	*stack;
	} keeper;
	/* the walk over hidden events (tv_ui_filter_skip) */
	struct tv_ui_typeahead	 ta;
	bool			 cancelled;	/* Esc: until the next key */
	int64_t			 skip_t0;
	char			 progress[sizeof(((struct tv_ui *)0)->msg)];
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
	return ui->fview && ui->fview->on && ui->fview->n > 0;
}

/* Whether the stack @k keeps @ev, whose owner is @o (may be NULL). */
static bool
stack_keeps(const struct fview_stack *k, const struct tv_event *ev,
    const struct tv_event_owner *o, struct tv_arena *arena)
{
	size_t i;
	bool m;

	for (i = 0; i < k->n; i++) {
		m = tv_filter_verdict(k->e[i].f, ev) != TV_FILTER_NEVER;
		if (m) {
			tv_arena_reset(arena);
			m = tv_filter_match(k->e[i].f, ev, o, arena);
		}
		if (m == k->e[i].out)
			return false;
	}
	return true;
}

/* The pass's predicate: see tv_pass_pred. */
static bool
pass_pred(void *arg, const struct tv_event *ev,
    const struct tv_event_owner *o, struct tv_arena *arena)
{
	return stack_keeps(arg, ev, o, arena);
}

/* Whether a filter of the stack reads the process state. */
static bool
needs_state(const struct tv_ui_fview *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (tv_filter_needs_state(v->e[i].f))
			return true;
	return false;
}

/*
 * Stop the background pass, and first any other walk reading the stack
 * (the statistics): the filters may go after this.
 */
static void
drop_pass(struct tv_ui *ui)
{
	struct tv_ui_fview *v = ui->fview;

	tv_ui_stats_filters_changed(ui);
	tv_pass_destroy(v->pass);
	v->pass = NULL;
	v->pass_gen++;
}

/* Stop the background pass; start a new one for the stack if it is on. */
static void
restart_pass(struct tv_ui *ui)
{
	struct tv_ui_fview *v = ui->fview;

	drop_pass(ui);
	if (!tv_ui_filter_active(ui))
		return;
	memcpy(v->stack.e, v->e, sizeof(v->e));
	v->stack.n = v->n;
	v->pass = tv_pass_start(ui->set, needs_state(v), pass_pred,
	    &v->stack, 0);
	ui->status_dirty = true;
}

/* See ui-priv.h: the pass stops, keeping the packets it did. */
void
tv_ui_filter_suspend(struct tv_ui *ui)
{
	if (ui->fview == NULL || ui->fview->pass == NULL)
		return;
	tv_ui_stats_filters_changed(ui);
	tv_pass_stop(ui->fview->pass);
}

/*
 * See ui-priv.h.  The filters are compiled for the classes the trace
 * gained first: until then their events would match none.  The pass
 * then goes on with the packets it has not done (tv_pass_extend).
 */
void
tv_ui_filter_resume(struct tv_ui *ui)
{
	struct tv_ui_fview *v = ui->fview;
	struct tv_error err;
	char buf[1200];
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; i < v->n; i++) {
		tv_error_clear(&err);
		if (tv_filter_extend(v->e[i].f, &err) != TV_OK)
			tv_ui_error(ui, "%s", tv_error_format(&err, buf,
			    sizeof(buf)));
	}
	if (v->pass == NULL || !tv_ui_filter_active(ui)) {
		restart_pass(ui);
		return;
	}
	tv_pass_extend(v->pass);
	v->pass_gen++;		/* the density strip counts the new part */
	ui->status_dirty = true;
}

/* "searching... P%" on the message line, drawn now. */
static void
show_progress(struct tv_ui *ui, double pct)
{
	struct tv_ui_fview *v = ui->fview;

	tv_ui_message(ui, _("searching... %.0f%% (Esc cancels)"), pct);
	snprintf(v->progress, sizeof(v->progress), "%s", ui->msg);
	tv_ui_msg_draw(ui);
	wnoutrefresh(ui->msg_win);
	doupdate();
}

/*
 * The pass's verdict on @ev (tv_pass_keeps), waited for (a few ms at a
 * time, the keyboard polled) when the pass has not reached its packet
 * but will soon: one more core asking the filters would only slow the
 * workers down.  False when it is far ahead, or on Esc: then the caller
 * asks itself.
 */
static bool
wait_keeps(struct tv_ui *ui, const struct tv_event *ev, bool *keep)
{
	struct tv_ui_fview *v = ui->fview;
	struct timespec d = { 0, 2 * 1000 * 1000 };
	int64_t t0 = tv_clock_ms();
	uint64_t kept, seen;
	double frac;
	bool done;

	if (ui->scan_delay_us || v->cancelled)
		return false;
	for (;;) {
		frac = tv_pass_progress(v->pass, &kept, &seen, &done);
		if (done)
			break;
		/* the pass goes in timeline order: is @ev near its front? */
		if (ui->set->ts_end > ui->set->ts_begin &&
		    (double)(ev->rec.ts - ui->set->ts_begin) / (double)(
		    ui->set->ts_end - ui->set->ts_begin) > frac + 0.05)
			break;
		nanosleep(&d, NULL);
		if (tv_pass_done(v->pass, ev->stream, ev->packet))
			break;
		if (tv_clock_ms() - t0 >= 50) {
			t0 = tv_clock_ms();
			if (tv_ui_poll_cancel(ui, &v->ta)) {
				v->cancelled = true;
				tv_ui_message(ui, _("filter: cancelled"));
				break;
			}
			show_progress(ui, 100.0 * frac);
		}
	}
	return tv_pass_keeps(v->pass, ev, keep);
}

/* See ui-priv.h. */
bool
tv_ui_filter_keep(struct tv_ui *ui, const struct tv_event *ev)
{
	struct tv_ui_fview *v = ui->fview;
	const struct tv_event_owner *o = NULL;
	bool keep;

	if (!tv_ui_filter_active(ui) || ev->rec.kind != TV_REC_EVENT)
		return true;
	if (tv_pass_keeps(v->pass, ev, &keep) ||
	    (!needs_state(v) && wait_keeps(ui, ev, &keep)))
		return keep;
	if (needs_state(v))
		o = tv_ui_session_owner_of(ui, ev, 0);
	return stack_keeps(&v->stack, ev, o, &v->arena);
}

/* See ui-priv.h. */
bool
tv_ui_filter_skip(struct tv_ui *ui, uint64_t skipped,
    const struct tv_event *at)
{
	struct tv_ui_fview *v = ui->fview;
	int64_t span = ui->set->ts_end - ui->set->ts_begin;
	double pct;

	if (v != NULL && ui->scan_delay_us) {
		/* tests: a slow walk, polled at every record */
		struct timespec d = { (time_t)(ui->scan_delay_us / 1000000),
		    (long)(ui->scan_delay_us % 1000000) * 1000 };

		nanosleep(&d, NULL);
		skipped *= SKIP_POLL * 16;
	}
	if (v == NULL || skipped == 0 || skipped % SKIP_POLL != 0)
		return false;
	if (v->cancelled)
		return true;
	if (skipped == SKIP_POLL || v->skip_t0 == 0)
		v->skip_t0 = tv_clock_ms();
	if (tv_ui_poll_cancel(ui, &v->ta)) {
		v->cancelled = true;
		tv_ui_message(ui, _("filter: cancelled"));
		return true;
	}
	if (tv_clock_ms() - v->skip_t0 < SKIP_PROGRESS_MS ||
	    skipped % (SKIP_POLL * 16) != 0)
		return false;
	pct = span > 0 ? 100.0 * (double)(at->rec.ts - ui->set->ts_begin) /
	    (double)span : 0.0;
	show_progress(ui, pct);
	return false;
}

/* See ui-priv.h. */
void
tv_ui_filter_key_done(struct tv_ui *ui)
{
	struct tv_ui_fview *v = ui->fview;

	if (v == NULL)
		return;
	if (v->progress[0] && strcmp(v->progress, ui->msg) == 0) {
		ui->msg[0] = '\0';	/* the walk ended: no stale progress */
		ui->msg_dirty = true;
	}
	v->progress[0] = '\0';
	v->cancelled = false;
	v->skip_t0 = 0;
	if (v->ta.resized) {
		v->ta.resized = false;
		tv_ui_layout(ui);
	}
	tv_ui_replay_keys(&v->ta);
}

/* See ui-priv.h. */
bool
tv_ui_filter_running(const struct tv_ui *ui)
{
	uint64_t kept, seen;
	bool done;

	if (ui->fview == NULL || ui->fview->pass == NULL)
		return false;
	(void)tv_pass_progress(ui->fview->pass, &kept, &seen, &done);
	return !done;
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
fview_clear(struct tv_ui *ui)
{
	struct tv_ui_fview *v = ui->fview;
	size_t i;

	drop_pass(ui);
	for (i = 0; i < v->n; i++)
		tv_filter_destroy(v->e[i].f);
	v->n = 0;
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
		fview_clear(ui);
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
	drop_pass(ui);
	v->e[v->n].f = f;
	v->e[v->n].out = out;
	v->n++;
	v->on = true;
	restart_pass(ui);
	if (!reshow(ui)) {
		bool cancelled = v->cancelled;

		/* nothing left to show (or Esc): undo */
		drop_pass(ui);
		tv_filter_destroy(f);
		v->n--;
		restart_pass(ui);
		v->cancelled = false;
		(void)reshow(ui);
		if (cancelled)
			tv_ui_message(ui, _("filter: cancelled"));
		else
			tv_ui_error(ui, _("no event matches the filter"));
		return;
	}
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
	restart_pass(ui);
	(void)reshow(ui);
	tv_ui_message(ui, v->on ? _("filters on") : _("filters off"));
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
const struct tv_pass *
tv_ui_filter_pass(const struct tv_ui *ui, unsigned *gen)
{
	*gen = ui->fview != NULL ? ui->fview->pass_gen : 0;
	return tv_ui_filter_active(ui) ? ui->fview->pass : NULL;
}

/* The keeper's predicate: see tv_ui_filter_keeper(). */
static bool
keeper_pred(void *arg, const struct tv_event *ev,
    const struct tv_event_owner *o, struct tv_arena *arena)
{
	const struct fview_keeper *k = arg;
	bool keep;

	if (tv_pass_keeps(k->pass, ev, &keep))
		return keep;
	return stack_keeps(k->stack, ev, o, arena);
}

/* See ui-priv.h. */
bool
tv_ui_filter_keeper(struct tv_ui *ui, tv_pass_pred *pred, void **arg)
{
	struct tv_ui_fview *v = ui->fview;

	if (!tv_ui_filter_active(ui))
		return false;
	v->keeper.pass = v->pass;
	v->keeper.stack = &v->stack;
	*pred = keeper_pred;
	*arg = &v->keeper;
	return true;
}

/* See ui-priv.h. */
void
tv_ui_filter_status(struct tv_ui *ui, struct tv_strbuf *sb)
{
	struct tv_ui_fview *v = ui->fview;
	uint64_t kept, seen;
	double frac;
	bool done;

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
	if (v->pass == NULL)
		return;
	frac = tv_pass_progress(v->pass, &kept, &seen, &done);
	if (done)
		tv_strbuf_addf(sb, _(": %" PRIu64 " of %" PRIu64 " events  "),
		    kept, seen);
	else
		tv_strbuf_addf(sb, _(": %" PRIu64 " of %" PRIu64 "+ events "
		    "(filtering %.0f%%)  "), kept, seen, 100.0 * frac);
}

/* See ui-priv.h. */
void
tv_ui_filter_fini(struct tv_ui *ui)
{
	struct tv_ui_fview *v = ui->fview;

	if (v == NULL)
		return;
	fview_clear(ui);
	tv_arena_fini(&v->arena);
	free(v);
	ui->fview = NULL;
}
