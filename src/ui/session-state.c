/*
 * The browser's process state, a service of the whole session rather
 * than of one pane: the state index (the background pass started with
 * the browser, its progress in the status bar, checkpoints for the state
 * at any event) and the owner windows, which thread each event belongs
 * to, computed in windows of events from the nearest checkpoint so that
 * ] [ p and :pid scan without replaying the trace at every event.  The
 * process pane draws from it; the jumps in search.c ask it for owners.
 * A scan that is handed the records in timeline order already (the
 * search's parallel walk) takes their owners from an owner walk instead:
 * the same state applied to each record it is given, without a merger
 * reading the trace a second time.
 */
#include "ui-priv.h"
#include "tview/state.h"
#include "tview/owner.h"

#include <stdlib.h>
#include <string.h>

/* Events per owner window. */
#define OWNER_WINDOW	4096
/* Fraction of the trace the pass may have walked when :pid of an id
   the pass has not met yet reads the owners scan rather than wait. */
#define OWNERS_SCAN_BEFORE	0.5

/* One event of an owner window: where it is, whose it is. */
struct owner {
	struct tv_event		 pos;
	struct tv_event_owner	 o;
};

struct tv_ui_session {
	struct tv_state_index	*idx;
	/* the owner window */
	struct tv_state		*wst;		/* state inside the window */
	struct tv_merge		*wm;		/* its own merger */
	struct owner		*win;		/* OWNER_WINDOW entries */
	size_t			 nwin;
	bool			 wforward;	/* wm stands right after the
						   window, wst matches it */
	/* every owner name and id, read before the pass ended: for this
	   set as it is */
	struct tv_owner_set	*owners;
};

/* See ui-priv.h. */
void
tv_ui_session_init(struct tv_ui *ui)
{
	struct tv_ui_session *ss = tv_xcalloc(1, sizeof(*ss));

	ss->idx = tv_state_index_create(ui->set, 0);
	ss->wst = tv_state_create(ui->set);
	ui->session = ss;
	if (tv_state_index_start(ss->idx, true, NULL) != TV_OK)
		tv_ui_error(ui, _("cannot start the background pass"));
}

/* See ui-priv.h. */
void
tv_ui_session_fini(struct tv_ui *ui)
{
	struct tv_ui_session *ss = ui->session;

	if (ss == NULL)
		return;
	tv_state_index_destroy(ss->idx);
	tv_owner_set_free(ss->owners);
	tv_state_destroy(ss->wst);
	if (ss->wm != NULL)
		tv_merge_destroy(ss->wm);
	free(ss->win);
	free(ss);
	ui->session = NULL;
}

/* See ui-priv.h. */
void
tv_ui_session_pause(struct tv_ui *ui)
{
	struct tv_ui_session *ss = ui->session;

	tv_state_index_stop(ss->idx);
	/* the set is about to gain records, and owners with them */
	tv_owner_set_free(ss->owners);
	ss->owners = NULL;
	/* the window's merger has per-stream arrays: made again */
	if (ss->wm != NULL)
		tv_merge_destroy(ss->wm);
	ss->wm = NULL;
	ss->nwin = 0;
	ss->wforward = false;
}

/* See ui-priv.h. */
void
tv_ui_session_extend(struct tv_ui *ui)
{
	if (tv_state_index_extend(ui->session->idx, NULL) != TV_OK)
		tv_ui_error(ui, _("cannot start the background pass"));
}

/* See ui-priv.h. */
bool
tv_ui_session_progress(struct tv_ui *ui, double *frac)
{
	bool done = true;

	if (ui->session == NULL)
		return false;
	*frac = tv_state_index_progress(ui->session->idx, &done);
	return !done;
}

/* See ui-priv.h. */
struct tv_state_index *
tv_ui_session_index(struct tv_ui *ui)
{
	return ui->session->idx;
}

/* What the owners scan asks between two stretches of records. */
struct owners_poll {
	struct tv_ui		*ui;
	struct tv_ui_typeahead	*ta;
	int64_t			 t0;
	uint64_t		 n;
	bool			 cancelled;
};

/* The owners scan's stop function: Esc, and a word on the message line. */
static bool
owners_stop(void *arg)
{
	struct owners_poll *op = arg;

	if (tv_ui_poll_cancel(op->ui, op->ta)) {
		op->cancelled = true;
		return true;
	}
	if (++op->n % 64 == 0 && tv_clock_ms() - op->t0 >= PROGRESS_MS) {
		tv_ui_message(op->ui, _("reading the tasks of the trace... "
		    "(Esc cancels)"));
		tv_ui_draw(op->ui);
	}
	return false;
}

/*
 * The owner set of the session, read now on every core when not yet
 * (the caller holds the pass: the person waits for this); NULL with
 * *@cancelled when Esc stopped it.
 */
static const struct tv_owner_set *
session_owners(struct tv_ui *ui, struct tv_ui_typeahead *ta, bool *cancelled)
{
	struct tv_ui_session *ss = ui->session;
	struct owners_poll op = { ui, ta, tv_clock_ms(), 0, false };

	if (ss->owners == NULL)
		ss->owners = tv_state_owners_scan(ui->set, owners_stop, &op);
	*cancelled = op.cancelled;
	return ss->owners;
}

/* See ui-priv.h. */
int
tv_ui_session_owner_names(struct tv_ui *ui, struct tv_ui_typeahead *ta,
    const char *const **names, size_t *n)
{
	const struct tv_owner_set *os;
	bool cancelled;

	if (ui->session == NULL)
		return 0;
	if (tv_state_index_owner_names(ui->session->idx, names, n))
		return 1;
	if ((os = session_owners(ui, ta, &cancelled)) == NULL)
		return cancelled ? -1 : 0;
	tv_owner_set_names(os, names, n);
	return 1;
}

/* See ui-priv.h. */
int
tv_ui_session_owner_absent(struct tv_ui *ui, struct tv_ui_typeahead *ta,
    int64_t id)
{
	const struct tv_owner_set *os;
	bool cancelled, done;
	int r;

	if (ui->session == NULL)
		return 0;
	/* the scan reads what the pass reads, on the same cores, in about
	   half its time: past half the trace, waiting for the pass is as
	   quick, and quicker for an id that is there */
	if (ui->session->owners == NULL &&
	    tv_state_index_progress(ui->session->idx, &done) >
	    OWNERS_SCAN_BEFORE)
		return 0;
	tv_state_index_hold(ui->session->idx, true);
	os = session_owners(ui, ta, &cancelled);
	tv_state_index_hold(ui->session->idx, false);
	if (os == NULL)
		r = cancelled ? -1 : 0;
	else
		r = !tv_owner_set_has_id(os, id);
	return r;
}

/* See ui-priv.h. */
bool
tv_ui_session_reached(struct tv_ui *ui, int64_t ts)
{
	const struct tv_trace_set *set = ui->set;
	double frac;
	bool done;

	frac = tv_state_index_progress(ui->session->idx, &done);
	if (done || set->ts_end <= set->ts_begin)
		return true;
	return ts <= set->ts_begin + (int64_t)(frac *
	    (double)(set->ts_end - set->ts_begin));
}

/* See ui-priv.h. */
void
tv_ui_session_state_at(struct tv_ui *ui, const struct tv_event *ev,
    struct tv_state *st)
{
	if (ev == NULL) {
		tv_state_clear(st);
		return;
	}
	(void)tv_state_before_event(ui->session->idx, ev, st, NULL);
	(void)tv_state_apply(st, ev, NULL, NULL);
}

/* Whether two positions are the same record. */
static bool
same(const struct tv_event *a, const struct tv_event *b)
{
	return a->stream == b->stream && a->packet == b->packet &&
	    a->index == b->index;
}

/* Append @e and its owner @o to the window. */
static void
push(struct tv_ui_session *ss, const struct tv_event *e,
    const struct tv_event_owner *o)
{
	ss->win[ss->nwin].pos = *e;
	ss->win[ss->nwin].o = *o;
	ss->nwin++;
}

/*
 * Owners of up to OWNER_WINDOW events from @ev onwards (@dir > 0) or up
 * to it (@dir < 0), from the state just before the window's first event.
 */
static void
fill_window(struct tv_ui *ui, struct tv_ui_session *ss,
    const struct tv_event *ev, int dir)
{
	struct tv_event_owner o;
	struct tv_event e, start = *ev;
	size_t n;

	if (ss->wm == NULL)
		ss->wm = tv_merge_create(ui->set);
	if (ss->win == NULL)
		ss->win = tv_xcalloc(OWNER_WINDOW, sizeof(*ss->win));
	/*
	 * A forward scan asks for the event right after the window: go on
	 * from where the window's state and merger are, no replay.
	 */
	if (dir > 0 && ss->wforward && ss->nwin > 0 &&
	    tv_merge_next(ss->wm, &e) == TV_OK) {
		if (same(&e, ev)) {
			ss->nwin = 0;
			do {
				(void)tv_state_apply(ss->wst, &e, &o, NULL);
				push(ss, &e, &o);
			} while (ss->nwin < OWNER_WINDOW &&
			    tv_merge_next(ss->wm, &e) == TV_OK);
			return;
		}
	}
	ss->wforward = dir > 0;
	if (dir < 0) {
		tv_merge_seek_event(ss->wm, ev);
		for (n = 0; n + 1 < OWNER_WINDOW &&
		    tv_merge_prev(ss->wm, &e) == TV_OK; n++)
			start = e;
	}
	(void)tv_state_before_event(ss->idx, &start, ss->wst, NULL);
	tv_merge_seek_event(ss->wm, &start);
	ss->nwin = 0;
	while (ss->nwin < OWNER_WINDOW &&
	    tv_merge_next(ss->wm, &e) == TV_OK) {
		(void)tv_state_apply(ss->wst, &e, &o, NULL);
		push(ss, &e, &o);
		if (dir < 0 && same(&e, ev))
			break;
	}
}

/*
 * The scan direction of a lookup of @ev that did not say: backwards when
 * @ev lies before the window (a backward search), else forwards.
 */
static int
guess_dir(const struct tv_ui_session *ss, const struct tv_event *ev)
{
	if (ss->nwin > 0 && tv_event_cmp(ev, &ss->win[0].pos) < 0)
		return -1;
	return +1;
}

/* See ui-priv.h. */
const struct tv_event_owner *
tv_ui_session_owner_of(struct tv_ui *ui, const struct tv_event *ev, int dir)
{
	struct tv_ui_session *ss = ui->session;
	size_t lo, hi, mid;
	int c, pass;

	if (ss == NULL || ev->rec.kind != TV_REC_EVENT)
		return NULL;
	if (dir == 0)
		dir = guess_dir(ss, ev);
	for (pass = 0; pass < 2; pass++) {
		lo = 0;
		hi = ss->nwin;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			c = tv_event_cmp(&ss->win[mid].pos, ev);
			if (c == 0 && same(&ss->win[mid].pos, ev))
				return &ss->win[mid].o;
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		fill_window(ui, ss, ev, dir);
	}
	return NULL;
}

/* See ui-priv.h. */
bool
tv_ui_session_owner(struct tv_ui *ui, const struct tv_event *ev, int dir,
    int64_t *tid, int64_t *pid)
{
	const struct tv_event_owner *o = tv_ui_session_owner_of(ui, ev, dir);

	if (o == NULL)
		return false;
	*tid = o->tid;
	*pid = o->pid;
	return true;
}

/* An owner walk: its own state, applied to each record it is given. */
struct tv_ui_owner_walk {
	struct tv_state		*st;
	bool			 started;
	struct tv_event_owner	 o;
};

/* See ui-priv.h. */
struct tv_ui_owner_walk *
tv_ui_owner_walk_create(struct tv_ui *ui)
{
	struct tv_ui_owner_walk *ow = tv_xcalloc(1, sizeof(*ow));

	if (ui->session != NULL)
		ow->st = tv_state_create(ui->set);
	return ow;
}

/* See ui-priv.h. */
const struct tv_event_owner *
tv_ui_owner_walk_next(struct tv_ui *ui, struct tv_ui_owner_walk *ow,
    const struct tv_event *ev)
{
	if (ow->st == NULL)
		return NULL;
	/* from the state just before the first, as an owner window is */
	if (!ow->started) {
		(void)tv_state_before_event(ui->session->idx, ev, ow->st,
		    NULL);
		ow->started = true;
	}
	(void)tv_state_apply(ow->st, ev, &ow->o, NULL);
	return ev->rec.kind == TV_REC_EVENT ? &ow->o : NULL;
}

/* See ui-priv.h. */
void
tv_ui_owner_walk_destroy(struct tv_ui_owner_walk *ow)
{
	if (ow == NULL)
		return;
	tv_state_destroy(ow->st);
	free(ow);
}
