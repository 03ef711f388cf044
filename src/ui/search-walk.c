/*
 * The long part of a regex search, on every core: the rows are rendered
 * by the ordered parallel walk's workers (tview/pwalk.h), each packet on
 * one of them, and the UI thread only puts in the task column where the
 * workers could not (a worker names it when the event's own fields give
 * all of it, see render.c; else the owner comes from the process state,
 * which the UI thread applies to the records as the walk hands them
 * over: an owner walk, no second reading of the trace), asks the filters
 * and runs the pattern, in timeline order, polling the keyboard as the
 * one-thread scan does.  Backwards, the walk goes forwards over windows
 * of time that double as they go back from the cursor, keeping the last
 * match of each: a search that finds nothing costs about what the
 * forward one costs, a near match a small window.
 *
 * A search first scans a few thousand rows on the UI thread (search.c):
 * a match that close answers before the workers would have started.
 */
#include "ui-priv.h"
#include "tview/format.h"
#include "tview/merge.h"
#include "tview/owner.h"
#include "tview/pwalk.h"
#include "tview/state.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define WINDOWS		512		/* a backward walk's first window:
					   this part of the trace's span */

/* What a worker puts before the row it renders: where the task goes. */
struct row_head {
	uint32_t	 at;
	int32_t		 width;
};

/*
 * A worker's verdict on a row, in the walk item's flags, when the
 * pattern is plain text (literal.c): no row then goes to the UI thread,
 * unless the search checks every row (tests).
 */
enum verdict {
	V_ROW = 0,	/* the row follows: the UI thread decides */
	V_HIT,		/* matches, whatever its task */
	V_MISS,		/* does not, its task included */
	V_MISS_TASK	/* does not outside its task: the UI thread looks
			   at the task the owner walk names */
};

/* One search walk. */
struct walk {
	struct tv_ui		*ui;
	/*
	 * What the workers render the rows with: a copy of the UI taken
	 * before they start, so that the UI thread may redraw (progress)
	 * while they read it.
	 */
	struct tv_ui		 snap;
	struct tv_strbuf	 row;
	struct tv_ui_owner_walk	*ow;		/* this walk_range's */
	/* the last owner whose task text the pattern was tried on */
	struct tv_event_owner	 task_o;
	struct tv_strbuf	 task_text;	/* task_o's */
	bool			 task_have;	/* task_o holds one */
	bool			 task_hit;	/* its verdict */
	struct tv_event		 row_hi;	/* a backward window's end */
	struct tv_ui_typeahead	*ta;
	int64_t			 t0;
	uint64_t		 n;
	struct timespec		 delay;
	bool			 cancelled;
	bool			 mismatch;	/* tests: a row differed */
};

/* The verdict on a row of plain text @row (@len bytes), its task at @at
 * (UINT32_MAX: in it already). */
static enum verdict
row_verdict(const struct tv_ui_literal *lit, const char *row, size_t len,
    uint32_t at)
{
	if (at == UINT32_MAX)
		return tv_ui_literal_find(lit, row, len) ? V_HIT : V_MISS;
	/*
	 * The task's place is between spaces (or at an end), and the text
	 * has none: it matches on one side or in the task, never across.
	 */
	if (at > len || (at > 0 && row[at - 1] != ' ') ||
	    (at < len && row[at] != ' '))
		return V_ROW;
	return tv_ui_literal_find(lit, row, at) ||
	    tv_ui_literal_find(lit, row + at, len - at) ? V_HIT : V_MISS_TASK;
}

/* What this walk knows of @ev's class (see rule_classes()), or NULL. */
static const struct tv_ui_ruled *
ruled_of(const struct tv_ui_literal *lit, const struct tv_event *ev)
{
	uint32_t i;

	for (i = 0; i < lit->nruled; i++)
		if (lit->ruled[i].trace == ev->stream->trace)
			return ev->rec.class_index < lit->ruled[i].n ?
			    &lit->ruled[i] : NULL;
	return NULL;
}

/*
 * For this walk, what each class's own text says (tv_ui_class_text()):
 * the classes whose rows are ruled out by it alone (no text of the
 * record's own, an anchor missing from the class's) when no task can
 * hold the text either; for the others, the anchors the class's text
 * holds, so a row only has its record's text looked at.
 */
static void
rule_classes(struct tv_ui *ui)
{
	struct tv_ui_literal *lit = &ui->lit;
	const struct tv_trace_set *set = ui->set;
	enum tv_ui_class_text kind;
	struct tv_ui_ruled *r;
	uint64_t seen;
	uint32_t i, k;

	if (!lit->prune || lit->anchors == 0 || set->ntraces == 0)
		return;
	lit->ruled = tv_xcalloc(set->ntraces, sizeof(*lit->ruled));
	lit->nruled = set->ntraces;
	for (i = 0; i < set->ntraces; i++) {
		r = &lit->ruled[i];
		r->trace = set->traces[i];
		r->n = r->trace->nclasses;
		r->cls = tv_xcalloc(TV_MAX(r->n, 1u), 1);
		r->seen_ok = tv_xcalloc(TV_MAX(r->n, 1u), 1);
		r->seen = tv_xcalloc(TV_MAX(r->n, 1u), sizeof(*r->seen));
		for (k = 0; k < r->n; k++) {
			if (r->trace->classes[k] == NULL)
				continue;
			kind = tv_ui_class_text(ui, r->trace,
			    r->trace->classes[k], &seen);
			/* plain text lies in the task or outside it, a
			   regex may take letters from both */
			r->cls[k] = kind == TV_UI_CLASS_STATIC &&
			    (lit->ok ? lit->task_never &&
			    (seen & lit->anchors) != lit->anchors :
			    ((seen | lit->task_anchors) & lit->anchors) !=
			    lit->anchors);
			r->seen_ok[k] = kind != TV_UI_CLASS_OWN;
			r->seen[k] = seen;
		}
	}
}

/* Free what rule_classes() made. */
static void
unrule_classes(struct tv_ui_literal *lit)
{
	uint32_t i;

	for (i = 0; i < lit->nruled; i++) {
		free(lit->ruled[i].cls);
		free(lit->ruled[i].seen_ok);
		free(lit->ruled[i].seen);
	}
	free(lit->ruled);
	lit->ruled = NULL;
	lit->nruled = 0;
}

/*
 * Whether the row of @ev can be ruled out before it is put into text
 * (see literal.c): V_MISS or V_MISS_TASK, or V_HIT when only its task,
 * named by its own fields, holds the text; V_ROW when it has to be
 * rendered.  The decoded scopes stay in *@f for that render.
 */
static enum verdict
row_ruled_out(struct tv_ui *snap, const struct tv_event *ev,
    struct tv_arena *arena, struct tv_event_fields *f, bool *decoded,
    struct tv_strbuf *scratch)
{
	const struct tv_ui_ruled *r;
	struct tv_event_owner o;
	size_t mark = scratch->len;
	uint64_t seen;
	bool hit;

	*decoded = false;
	if (ev->rec.kind != TV_REC_EVENT || snap->lit.anchors == 0)
		return V_ROW;
	r = ruled_of(&snap->lit, ev);
	if (r != NULL && r->cls[ev->rec.class_index]) {
		/* read past, to fail as the row's decode would (the packet
		   walk did, when its format reads every field) */
		if (ev->stream->trace->ops != NULL &&
		    ev->stream->trace->ops->walk_reads_fields)
			return V_MISS;
		return tv_event_decode_scopes(ev, arena, f, 0, NULL) ==
		    TV_OK ? V_MISS : V_ROW;
	}
	/*
	 * When no task can hold the text and the row's other text is its
	 * class's, only the payload's text is left to look at: its members
	 * one by one, with no tree (the tree was most of a search's
	 * time).  A payload that does not decode makes the row, which says
	 * why.
	 */
	if (snap->lit.task_never && r != NULL &&
	    r->seen_ok[ev->rec.class_index]) {
		bool may;

		seen = r->seen[ev->rec.class_index] |
		    (snap->lit.ok ? 0 : snap->lit.task_anchors);
		if (tv_ui_payload_may_hold(snap, ev, arena, seen, &may) !=
		    TV_OK || may)
			return V_ROW;
		return V_MISS;
	}
	/*
	 * When no task can hold the text, the contexts (which name the
	 * task) are only read past, not built: a context the decoder could
	 * not read past fails this decode as it would the row's.  The
	 * render then leaves the task to the UI thread, which does not
	 * look at it.
	 */
	if (tv_event_decode_scopes(ev, arena, f, snap->lit.task_never ?
	    TV_SCOPE_BIT(TV_SCOPE_EVENT_PAYLOAD) : TV_SCOPES_EVENT, NULL) !=
	    TV_OK)
		return V_ROW;	/* the row says why: render it */
	*decoded = true;
	if (r != NULL && !r->seen_ok[ev->rec.class_index])
		return V_ROW;	/* the format writes the row's text */
	if (!snap->lit.ok) {
		/* a regex's letters: the row's and any task's together */
		if (r == NULL)
			return V_ROW;
		seen = r->seen[ev->rec.class_index] | snap->lit.task_anchors;
		return tv_ui_row_may_hold(snap, ev, f, &seen) ? V_ROW :
		    V_MISS;
	}
	if (tv_ui_row_may_hold(snap, ev, f, r != NULL ?
	    &r->seen[ev->rec.class_index] : NULL))
		return V_ROW;
	if (snap->lit.task_never)
		return V_MISS;	/* a task its fields name is a known one */
	if (!tv_ui_fields_owner(f, &o))
		return V_MISS_TASK;
	tv_ui_owner_text(&o, scratch);
	hit = tv_ui_literal_find(&snap->lit, scratch->buf + mark,
	    scratch->len - mark);
	scratch->len = mark;
	return hit ? V_HIT : V_MISS;
}

/*
 * The pwalk work: the row of @ev without its task, behind a row_head;
 * for plain text, the verdict instead when it can be given here.
 */
static enum tv_status
row_work(void *arg, const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *out, uint8_t *flags, struct tv_error *err TV_UNUSED)
{
	struct tv_ui *snap = arg;
	struct tv_ui_row_task task = { 0, 0, false };
	struct row_head h = { 0, 0 };
	struct tv_event_fields f;
	enum verdict v = V_ROW;
	size_t mark = out->len;
	bool decoded = false;

	if (snap->lit.prune) {
		v = row_ruled_out(snap, ev, arena, &f, &decoded, out);
		*flags = (uint8_t)v;
		if (v != V_ROW && !snap->search_check)
			return TV_OK;
	}
	tv_strbuf_add(out, (const char *)&h, sizeof(h));
	tv_ui_render_row_deferred(snap, ev, arena, out, &task,
	    decoded ? &f : NULL);
	h.at = task.done ? UINT32_MAX :
	    (uint32_t)TV_MIN(task.at, out->len - mark - sizeof(h));
	h.width = task.width;
	memcpy(out->buf + mark, &h, sizeof(h));
	if (!snap->lit.ok || v != V_ROW)
		return TV_OK;
	v = row_verdict(&snap->lit, out->buf + mark + sizeof(h),
	    out->len - mark - sizeof(h), h.at);
	*flags = (uint8_t)v;
	if (v != V_ROW && !snap->search_check)
		out->len = mark;	/* the verdict says it all */
	return TV_OK;
}

/*
 * Tests (TVIEW_UI_SEARCH_CHECK): the row a worker made, @s, against the
 * one this thread renders; the first difference on the message line.
 */
static void
check_row(struct walk *wk, const struct tv_event *ev, const char *s,
    size_t len)
{
	struct tv_strbuf one;

	if (wk->mismatch)
		return;
	tv_strbuf_init(&one);
	tv_ui_render_row(wk->ui, ev, &one);
	if (one.len != len || memcmp(one.buf, s, len) != 0) {
		wk->mismatch = true;
		tv_ui_error(wk->ui, "search check: the workers' row [%.*s] "
		    "is not [%s]", (int)len, s, one.buf ? one.buf : "");
		fprintf(stderr, "%s\n", wk->ui->msg);
	}
	tv_strbuf_fini(&one);
}

/*
 * The owner of @it, from the walk's owner walk: started at the first
 * row a worker could not name the task of, then given every record.
 */
static const struct tv_event_owner *
row_owner(struct walk *wk, const struct tv_pwalk_item *it, bool needed)
{
	if (wk->ow == NULL) {
		if (!needed)
			return NULL;
		wk->ow = tv_ui_owner_walk_create(wk->ui);
	}
	return tv_ui_owner_walk_next(wk->ui, wk->ow, &it->ev);
}

/* Whether the task text of owner @o (NULL: unknown) holds the plain
 * text; the last owner's answer kept, as a run of rows shares one. */
static bool
task_hit(struct walk *wk, const struct tv_event_owner *o)
{
	struct tv_event_owner none;

	if (o == NULL) {
		memset(&none, 0, sizeof(none));
		tv_event_owner_reset(&none);
		o = &none;
	}
	if (wk->task_have && wk->task_o.tid == o->tid &&
	    wk->task_o.pid == o->pid &&
	    strncmp(wk->task_o.name, o->name, sizeof(o->name)) == 0)
		return wk->task_hit;
	tv_strbuf_reset(&wk->task_text);
	tv_ui_owner_text(o, &wk->task_text);
	wk->task_o = *o;
	wk->task_have = true;
	wk->task_hit = tv_ui_literal_find(&wk->ui->lit, wk->task_text.buf,
	    wk->task_text.len);
	return wk->task_hit;
}

/*
 * Whether every name an owner can have would tell this search something
 * (task_never(), task_anchors()): plain text that only a name can hold,
 * or a regex's letters.
 */
static bool
names_matter(const struct tv_ui *ui)
{
	const struct tv_ui_literal *lit = &ui->lit;

	if (ui->session == NULL)
		return false;
	if (!lit->ok)
		return lit->prune;
	return strpbrk(lit->s, "-()") == NULL &&
	    strspn(lit->s, "0123456789") != lit->len &&
	    !tv_ui_literal_find(lit, "<...>", 5);
}

/*
 * Whether no task column can hold the plain text: then a row the workers
 * rule out outside its task is out, and the owner walk is spared.  A task
 * reads "name-tid (pid)", "<...>-tid" or "-" (row-columns.c); text with
 * no '-', '(' or ')' and not all digits can only lie in the name, and
 * @names (@n of them, when @known) holds every name an owner can have.
 */
static bool
task_never(struct tv_ui *ui, bool known, const char *const *names, size_t n)
{
	const struct tv_ui_literal *lit = &ui->lit;
	struct tv_strbuf sb;
	bool never = true;
	size_t i;

	if (!lit->ok || strpbrk(lit->s, "-()") != NULL ||
	    strspn(lit->s, "0123456789") == lit->len ||
	    tv_ui_literal_find(lit, "<...>", 5))
		return false;
	if (ui->session == NULL)
		return true;	/* no owner walk: every task is "-" */
	if (!known)
		return false;
	tv_strbuf_init(&sb);
	for (i = 0; i < n && never; i++) {
		tv_strbuf_reset(&sb);
		tv_ui_escape(&sb, names[i], strlen(names[i]));
		never = !tv_ui_literal_find(lit, sb.buf, sb.len);
	}
	tv_strbuf_fini(&sb);
	return never;
}

/*
 * For a regex's letters (tv_ui_literal_required()): those some task
 * column may hold, from every name an owner can have (@names, @n, when
 * @known; all of them when not).
 */
static uint64_t
task_anchors(struct tv_ui *ui, bool known, const char *const *names,
    size_t n)
{
	const struct tv_ui_literal *lit = &ui->lit;
	uint64_t seen = 0;
	size_t i;

	if (lit->ok || !lit->prune)
		return 0;
	if (ui->session == NULL)
		return 0;	/* no owner walk: every task is "-" */
	if (!known)
		return lit->anchors;
	/* "name-tid (pid)", "<...>-tid", "-": letters from names only;
	   an escape (\x..) writes none but generated ones */
	for (i = 0; i < n && (seen & lit->anchors) != lit->anchors; i++)
		tv_ui_literal_see_str(lit, names[i], &seen);
	return seen;
}

/*
 * Tests: the worker's verdict @v on the row @s (@len bytes, as the UI
 * thread sees it whole, @matched by the pattern) and its task's owner @o:
 * any disagreement on the message line, and the search stops.
 */
static void
check_verdict(struct walk *wk, enum verdict v, const struct tv_event_owner *o,
    const char *s, size_t len, bool matched)
{
	bool said = v == V_HIT || (v == V_MISS_TASK && !wk->ui->lit.task_never &&
	    task_hit(wk, o));

	if (v == V_ROW || said == matched || wk->mismatch)
		return;
	wk->mismatch = true;
	tv_ui_error(wk->ui, "search check: the workers said %s of row [%.*s]",
	    said ? "match" : "no match", (int)len, s);
	/* stderr too: the message line is gone at the next key */
	fprintf(stderr, "%s\n", wk->ui->msg);
}

/*
 * Whether the row a worker made of @it matches the pattern; @keep:
 * whether the filters keep it (else only its owner is followed).
 */
static bool
row_matches(struct walk *wk, const struct tv_pwalk_item *it, bool keep)
{
	struct tv_ui *ui = wk->ui;
	const struct tv_event_owner *o;
	struct tv_ui_row_task task;
	enum verdict v = (enum verdict)it->flags;
	struct row_head h;
	const char *s;
	size_t len;
	bool matched;

	if (v != V_ROW && !ui->search_check) {
		if (v == V_MISS_TASK && wk->ui->lit.task_never) {
			(void)row_owner(wk, it, false);
			return false;
		}
		o = row_owner(wk, it, v == V_MISS_TASK);
		return keep && (v == V_HIT ||
		    (v == V_MISS_TASK && task_hit(wk, o)));
	}
	if (it->len < sizeof(h)) {
		(void)row_owner(wk, it, false);
		return false;
	}
	memcpy(&h, it->bytes, sizeof(h));
	o = row_owner(wk, it, h.at != UINT32_MAX);
	if (!keep)
		return false;
	s = it->bytes + sizeof(h);
	len = it->len - sizeof(h);
	if (h.at != UINT32_MAX) {	/* else the worker put the task in */
		task.at = h.at;
		task.done = false;
		task.width = h.width;
		tv_strbuf_reset(&wk->row);
		tv_ui_render_row_task(o, s, len, &task, &wk->row);
		s = wk->row.buf;
		len = wk->row.len;
	}
	matched = pcre2_match(ui->re, (PCRE2_SPTR)s, len, 0, 0, ui->md,
	    NULL) >= 0;
	if (ui->search_check) {
		check_row(wk, &it->ev, s, len);
		check_verdict(wk, v, o, s, len, matched);
	}
	return matched;
}

/* Every POLL_EVERY rows: Esc, typed keys, progress.  True: cancelled. */
static bool
poll(struct walk *wk, const struct tv_event *ev)
{
	if (wk->ui->scan_delay_us)
		nanosleep(&wk->delay, NULL);
	if (++wk->n % POLL_EVERY != 0 && !wk->ui->scan_delay_us)
		return false;
	if (tv_ui_poll_cancel(wk->ui, wk->ta)) {
		tv_ui_message(wk->ui, _("%s: cancelled"), _("searching"));
		wk->cancelled = true;
		return true;
	}
	if (tv_clock_ms() - wk->t0 >= PROGRESS_MS &&
	    (wk->n % (POLL_EVERY * 16) == 0 || wk->ui->scan_delay_us))
		tv_ui_scan_progress(wk->ui, _("searching"), ev);
	return false;
}

/* One end of a walk's range: a record, itself in the range or not. */
struct bound {
	const struct tv_event	*ev;		/* NULL: the trace's end */
	bool			 incl;
};

/* Whether @ev is after @lo, the range's start. */
static bool
after_lo(const struct tv_event *ev, const struct bound *lo)
{
	int c;

	if (lo->ev == NULL)
		return true;
	c = tv_event_cmp(ev, lo->ev);
	return c > 0 || (c == 0 && lo->incl);
}

/* Whether @ev is past @hi, the range's end. */
static bool
past_hi(const struct tv_event *ev, const struct bound *hi)
{
	int c;

	if (hi->ev == NULL)
		return false;
	c = tv_event_cmp(ev, hi->ev);
	return c > 0 || (c == 0 && !hi->incl);
}

/*
 * The records of the range @lo..@hi walked forwards from the first with
 * ts >= @begin: the first match (@last false) or the last one into
 * *hit.  *first: the first record of the range met, if *have_first is
 * still false.  TV_OK, TV_NOT_FOUND or TV_CANCELLED.
 */
static enum tv_status
walk_range(struct walk *wk, int64_t begin, const struct bound *lo,
    const struct bound *hi, bool last, struct tv_event *hit,
    struct tv_event *first, bool *have_first)
{
	struct tv_pwalk *w = tv_pwalk_start(wk->ui->set, begin,
	    hi->ev != NULL ? hi->ev->rec.ts : INT64_MAX, row_work, &wk->snap,
	    0, TV_PAGES_RELEASE);
	struct tv_pwalk_item it;
	enum tv_status st = TV_NOT_FOUND;

	while (tv_pwalk_next(w, &it) == TV_OK) {
		if (!after_lo(&it.ev, lo))
			continue;
		if (past_hi(&it.ev, hi))
			break;
		if (!*have_first) {
			*first = it.ev;
			*have_first = true;
		}
		if (poll(wk, &it.ev)) {
			st = TV_CANCELLED;
			break;
		}
		if (row_matches(wk, &it, tv_ui_filter_keep(wk->ui, &it.ev))) {
			*hit = it.ev;
			st = TV_OK;
			if (!last)
				break;
		}
	}
	tv_pwalk_destroy(w);
	tv_ui_owner_walk_destroy(wk->ow);
	wk->ow = NULL;
	return st;
}

/*
 * Backwards through @lo..@hi: windows of time, each twice the one
 * before, walked forwards for their last match.
 */
static enum tv_status
walk_backward(struct walk *wk, const struct bound *lo, struct bound hi,
    struct tv_event *hit)
{
	const struct tv_trace_set *set = wk->ui->set;
	int64_t top = hi.ev != NULL ? hi.ev->rec.ts : set->ts_end;
	int64_t step = TV_MAX((set->ts_end - set->ts_begin) / WINDOWS, 1);
	int64_t floor = lo->ev != NULL ? lo->ev->rec.ts : set->ts_begin;
	struct tv_event first;
	enum tv_status st;
	bool have_first, final;
	int64_t begin;

	for (;;) {
		begin = top > INT64_MIN + step ? top - step : INT64_MIN;
		final = begin <= floor;
		if (final)
			begin = lo->ev != NULL ? floor : INT64_MIN;
		have_first = false;
		st = walk_range(wk, begin, lo, &hi, true, hit, &first,
		    &have_first);
		if (st != TV_NOT_FOUND || final)
			return st;
		if (have_first) {
			wk->row_hi = first;
			hi.ev = &wk->row_hi;
			hi.incl = false;
		}
		top = begin;
		step = step > INT64_MAX / 2 ? INT64_MAX : step * 2;
	}
}

/* See ui-priv.h. */
enum tv_status
tv_ui_search_walk(struct tv_ui *ui, const struct tv_event *from, int dir,
    const struct tv_event *stop, struct tv_event *hit,
    struct tv_ui_typeahead *ta)
{
	struct walk wk;
	struct tv_event first;
	struct bound lo, hi;
	const char *const *names = NULL;
	size_t nnames = 0;
	bool have_first = false;
	enum tv_status st;
	int known = 0;

	memset(&wk, 0, sizeof(wk));
	wk.ui = ui;
	/* the person waits for this, not for the background pass */
	if (ui->session != NULL)
		tv_state_index_hold(tv_ui_session_index(ui), true);
	/*
	 * Every name an owner can have: the pass's, or read now when it has
	 * not ended (a fraction of the owner walk's time on a kernel trace,
	 * whose tasks the state names).
	 */
	if (names_matter(ui)) {
		known = tv_ui_session_owner_names(ui, ta, &names, &nnames);
		if (known < 0) {
			tv_state_index_hold(tv_ui_session_index(ui), false);
			tv_ui_message(ui, _("%s: cancelled"), _("searching"));
			return TV_CANCELLED;
		}
	}
	/* known and none (a trace without tasks) is not "not known" */
	ui->lit.task_never = task_never(ui, known > 0, names, nnames);
	ui->lit.task_anchors = task_anchors(ui, known > 0, names, nnames);
	rule_classes(ui);
	wk.snap = *ui;
	wk.ta = ta;
	wk.t0 = tv_clock_ms();
	wk.delay.tv_sec = ui->scan_delay_us / 1000000;
	wk.delay.tv_nsec = (long)(ui->scan_delay_us % 1000000) * 1000;
	tv_strbuf_init(&wk.row);
	tv_strbuf_init(&wk.task_text);
	if (dir > 0) {
		lo.ev = from;
		lo.incl = false;
		hi.ev = stop;
		hi.incl = true;
		st = walk_range(&wk, from != NULL ? from->rec.ts : INT64_MIN,
		    &lo, &hi, false, hit, &first, &have_first);
	} else {
		lo.ev = stop;
		lo.incl = true;
		hi.ev = from;
		hi.incl = false;
		st = walk_backward(&wk, &lo, hi, hit);
	}
	if (ui->session != NULL)
		tv_state_index_hold(tv_ui_session_index(ui), false);
	tv_strbuf_fini(&wk.row);
	tv_strbuf_fini(&wk.task_text);
	unrule_classes(&ui->lit);
	/* tests: the check's message stays, as after Esc */
	return wk.mismatch ? TV_CANCELLED : st;
}
