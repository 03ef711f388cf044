/*
 * Scanning the timeline from the cursor: regex search over the rendered
 * rows (/ ? n N; its long part on every core in search-walk.c), jumps to the next event of a PID, CPU, name or of
 * the thread the process pane restricts the jumps to.  One
 * worker-less scan loop serves them all: it polls the keyboard every few
 * hundred events, shows progress on a long scan, and stops on Esc or
 * Ctrl-C leaving the cursor where it was.
 */
#include "ui-priv.h"
#include "tview/owner.h"
#include "tview/state.h"
#include "tview/match.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


/* See ui-priv.h. */
bool
tv_ui_poll_cancel(struct tv_ui *ui, struct tv_ui_typeahead *ta)
{
	bool cancel = false;
	wint_t wch;
	int key;

	wtimeout(ui->msg_win, 0);
	while ((key = tv_ui_getkey(ui, &wch)) >= 0) {
		if (key == TV_UI_ESC || key == TV_UI_CTRL('c'))
			cancel = true;
		else if (key == (KEY_RESIZE | TV_UI_KEY_FN))
			ta->resized = true;	/* not now: it seeks */
		else if (ta->n < (int)TV_ARRAY_SIZE(ta->keys))
			ta->keys[ta->n++] = key;
	}
	wtimeout(ui->msg_win, -1);
	return cancel;
}

/* See ui-priv.h. */
void
tv_ui_replay_keys(struct tv_ui_typeahead *ta)
{
	while (ta->n > 0) {
		int key = ta->keys[--ta->n];

		if (key & TV_UI_KEY_FN)
			ungetch(key & ~TV_UI_KEY_FN);
		else
			unget_wch((wchar_t)key);
	}
}

/* See ui-priv.h: "searching... at 42% (Esc cancels)", drawn now. */
void
tv_ui_scan_progress(struct tv_ui *ui, const char *what,
    const struct tv_event *ev)
{
	int64_t span = ui->set->ts_end - ui->set->ts_begin;
	double pct = span > 0 ?
	    100.0 * (double)(ev->rec.ts - ui->set->ts_begin) / (double)span :
	    0.0;

	tv_ui_message(ui, _("%s... at %.0f%% of the trace (Esc cancels)"),
	    what, pct);
	tv_ui_draw(ui);
}

/*
 * Walk from @from (NULL: from the first or last event) in direction
 * @dir until @pred holds.  TV_OK with *hit, TV_NOT_FOUND, or
 * TV_CANCELLED (with a message) when the user stopped it.  With @wrap
 * the walk continues at the other end, once, and *wrapped says so.
 * With @stop, TV_END when the walk reaches it (forwards: @stop itself is
 * not looked at; backwards: it is, and nothing before it).  With @limit,
 * TV_END and the last record looked at in *hit after that many.
 */
static enum tv_status
scan_loop(struct tv_ui *ui, const struct tv_event *from, bool inclusive,
    int dir, bool wrap, tv_ui_scan_pred pred, void *arg, const char *what,
    struct tv_event *hit, bool *wrapped, struct tv_ui_typeahead *ta,
    const struct tv_event *stop, uint64_t limit)
{
	struct tv_event ev;
	struct timespec delay;
	enum tv_status st;
	bool around = false;
	int64_t t0 = tv_clock_ms();
	uint64_t n = 0;

	if (wrapped)
		*wrapped = false;
	delay.tv_sec = ui->scan_delay_us / 1000000;
	delay.tv_nsec = (long)(ui->scan_delay_us % 1000000) * 1000;
	if (from) {
		tv_merge_seek_event(ui->merge, from);
		if (tv_ui_merge_step_raw(ui, +1, &ev) != TV_OK)
			return TV_NOT_FOUND;
		if (inclusive && tv_ui_filter_keep(ui, &ev) &&
		    pred(ui, &ev, arg)) {
			*hit = ev;
			return TV_OK;
		}
		if (dir < 0)
			tv_merge_seek_event(ui->merge, from);
	} else if (dir > 0) {
		tv_merge_seek_begin(ui->merge);
	} else {
		tv_merge_seek_end(ui->merge);
	}
	for (;;) {
		if ((st = tv_ui_merge_step(ui, dir, &ev)) != TV_OK) {
			if (st == TV_CANCELLED)
				return TV_CANCELLED;	/* Esc: no wrap */
			if (!wrap || around || !from)
				return TV_NOT_FOUND;
			around = true;
			if (wrapped)
				*wrapped = true;
			if (dir > 0)
				tv_merge_seek_begin(ui->merge);
			else
				tv_merge_seek_end(ui->merge);
			continue;
		}
		if (stop != NULL && (dir > 0 ? tv_event_cmp(&ev, stop) >= 0 :
		    tv_event_cmp(&ev, stop) < 0))
			return TV_END;
		if (around) {
			int c = tv_event_cmp(&ev, from);

			if ((dir > 0 && c > 0) || (dir < 0 && c < 0))
				return TV_NOT_FOUND;
		}
		if (pred(ui, &ev, arg)) {
			*hit = ev;
			if (ui->msg[0] && !ui->msg_error) {
				ui->msg[0] = '\0';
				ui->msg_dirty = true;
			}
			return TV_OK;
		}
		if (limit != 0 && n + 1 >= limit) {
			*hit = ev;
			return TV_END;
		}
		if (ui->scan_delay_us)
			nanosleep(&delay, NULL);
		if (++n % POLL_EVERY == 0 || ui->scan_delay_us) {
			if (tv_ui_poll_cancel(ui, ta)) {
				tv_ui_message(ui, _("%s: cancelled"), what);
				return TV_CANCELLED;
			}
			if (tv_clock_ms() - t0 >= PROGRESS_MS &&
			    (n % (POLL_EVERY * 16) == 0 ||
			    ui->scan_delay_us))
				tv_ui_scan_progress(ui, what, &ev);
		}
	}
}

/* scan_loop() with the keys typed meanwhile replayed afterwards. */
enum tv_status
tv_ui_scan(struct tv_ui *ui, const struct tv_event *from, bool inclusive,
    int dir, bool wrap, tv_ui_scan_pred pred, void *arg, const char *what,
    struct tv_event *hit, bool *wrapped)
{
	struct tv_ui_typeahead ta;
	enum tv_status st;

	ta.n = 0;
	ta.resized = false;
	st = scan_loop(ui, from, inclusive, dir, wrap, pred, arg, what, hit,
	    wrapped, &ta, NULL, 0);
	if (ta.resized)
		tv_ui_layout(ui);
	tv_ui_replay_keys(&ta);
	return st;
}

/* Regex predicate: does the rendered row match? */
static bool
regex_pred(struct tv_ui *ui, const struct tv_event *ev, void *arg)
{
	struct tv_strbuf *sb = arg;
	int rc;

	tv_strbuf_reset(sb);
	tv_ui_render_row(ui, ev, sb);
	rc = pcre2_match(ui->re, (PCRE2_SPTR)sb->buf, sb->len, 0, 0, ui->md,
	    NULL);
	return rc >= 0;
}

/* See ui-priv.h. */
bool
tv_ui_search_span(struct tv_ui *ui, const char *s, size_t len, size_t from,
    size_t *b, size_t *e)
{
	PCRE2_SIZE *ov;

	if (ui->re == NULL || from >= len ||
	    pcre2_match(ui->re, (PCRE2_SPTR)s, len, from, 0, ui->md,
	    NULL) < 0)
		return false;
	ov = pcre2_get_ovector_pointer(ui->md);
	*b = ov[0];
	*e = ov[1];
	return *e > *b && *e <= len;
}

/* True if @p has an upper-case letter outside an escape (smart case). */
static bool
has_upper(const char *p)
{
	for (; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p >= 'A' && *p <= 'Z')
			return true;
	}
	return false;
}

/*
 * A regular expression: the code units PCRE2 found every match holds
 * (its first, its last required), to rule rows out by.
 */
static void
required_units(const pcre2_code *re, struct tv_ui_literal *lit)
{
	uint32_t type, units[2];
	size_t n = 0;

	if (pcre2_pattern_info(re, PCRE2_INFO_FIRSTCODETYPE, &type) == 0 &&
	    type == 1 && pcre2_pattern_info(re, PCRE2_INFO_FIRSTCODEUNIT,
	    &units[n]) == 0)
		n++;
	if (pcre2_pattern_info(re, PCRE2_INFO_LASTCODETYPE, &type) == 0 &&
	    type == 1 && pcre2_pattern_info(re, PCRE2_INFO_LASTCODEUNIT,
	    &units[n]) == 0)
		n++;
	tv_ui_literal_required(units, n, lit);
}

/* Forget the compiled pattern. */
void
tv_ui_search_fini(struct tv_ui *ui)
{
	if (ui->md)
		pcre2_match_data_free(ui->md);
	if (ui->re)
		pcre2_code_free(ui->re);
	free(ui->pattern);
	ui->md = NULL;
	ui->re = NULL;
	ui->pattern = NULL;
	ui->lit.ok = false;
	ui->lit.prune = false;
}

/*
 * The current search in direction @dir from the selection, wrapping at
 * the trace's end once: the first rows on this thread, the rest on
 * every core (search-walk.c).
 */
static enum tv_status
search(struct tv_ui *ui, int dir, struct tv_event *hit, bool *wrapped,
    struct tv_ui_typeahead *ta)
{
	struct tv_strbuf sb;
	struct tv_event last;
	enum tv_status st;

	tv_strbuf_init(&sb);
	st = ui->search_near == 0 ? TV_END : scan_loop(ui, &ui->sel, false,
	    dir, false, regex_pred, &sb, _("searching"), &last, NULL, ta,
	    NULL, ui->search_near);
	if (ui->search_near == 0)
		last = ui->sel;
	tv_strbuf_fini(&sb);
	*wrapped = false;
	if (st == TV_OK)
		*hit = last;
	if (st == TV_END)
		st = tv_ui_search_walk(ui, &last, dir, NULL, hit, ta);
	if (st != TV_NOT_FOUND)
		return st;
	*wrapped = true;
	return tv_ui_search_walk(ui, NULL, dir, &ui->sel, hit, ta);
}

/* Run the current search in direction @dir from the selection. */
static void
run_search(struct tv_ui *ui, int dir)
{
	struct tv_ui_typeahead ta;
	struct tv_event hit;
	enum tv_status st;
	bool wrapped;

	if (!ui->have_sel)
		return;
	ta.n = 0;
	ta.resized = false;
	st = search(ui, dir, &hit, &wrapped, &ta);
	if (ta.resized)
		tv_ui_layout(ui);
	tv_ui_replay_keys(&ta);
	/* a pattern found nowhere does not stay on the status bar */
	ui->search_failed = st == TV_NOT_FOUND;
	if (st == TV_OK) {
		tv_ui_events_goto(ui, &hit);
		if (wrapped)
			tv_ui_message(ui, dir > 0 ?
			    _("search wrapped: continued from the first event") :
			    _("search wrapped: continued from the last event"));
	} else if (st == TV_NOT_FOUND) {
		tv_ui_error(ui, _("pattern not found: %s"), ui->pattern);
	}
	ui->status_dirty = true;
}

/* A new search: compile @pattern (NULL: reuse the last one) and run it. */
void
tv_ui_search_set(struct tv_ui *ui, const char *pattern, int dir)
{
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
	pcre2_code *re;
	int code;

	if (!pattern) {
		if (!ui->re) {
			tv_ui_error(ui, _("no previous search"));
			return;
		}
		ui->search_dir = dir;
		run_search(ui, dir);
		return;
	}
	if (!has_upper(pattern))
		opts |= PCRE2_CASELESS;
	re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, opts,
	    &code, &off, NULL);
	if (!re) {
		pcre2_get_error_message(code, msg, sizeof(msg));
		tv_ui_error(ui, _("bad regular expression at offset %zu: %s"),
		    (size_t)off, (const char *)msg);
		return;
	}
	/* matched against every row of a search: JIT when available */
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	tv_ui_search_fini(ui);
	ui->re = re;
	ui->md = pcre2_match_data_create_from_pattern(re, NULL);
	ui->pattern = tv_xstrdup(pattern);
	/* plain text: the workers answer most rows without the engine */
	if (!tv_ui_literal_compile(pattern, (opts & PCRE2_CASELESS) != 0,
	    &ui->lit))
		required_units(re, &ui->lit);
	ui->search_dir = dir;
	run_search(ui, dir);
}

/* n / N: the last search again, the same or the other way. */
void
tv_ui_search_repeat(struct tv_ui *ui, bool reverse)
{
	if (!ui->re) {
		tv_ui_error(ui, _("no previous search"));
		return;
	}
	run_search(ui, reverse ? -ui->search_dir : ui->search_dir);
}

/*
 * The PID of @ev, as --with-pid names it: the state layer's owner
 * (tv_event_owner() of its fields, completed from the state), else,
 * without a state index, tv_event_owner() alone: a pid only the fields
 * give, which the state layer would have given too.  @dir is the scan
 * direction (the owners are computed in windows).
 */
bool
tv_ui_owner_pid(struct tv_ui *ui, const struct tv_event *ev, int dir,
    int64_t *pid)
{
	struct tv_event_owner o;
	struct tv_event_fields f;
	int64_t tid;

	if (ev->rec.kind != TV_REC_EVENT)
		return false;
	if (tv_ui_session_owner(ui, ev, dir, &tid, pid) &&
	    *pid != TV_TID_UNKNOWN)
		return true;
	tv_arena_reset(&ui->arena);
	if (tv_event_decode_scopes(ev, &ui->arena, &f, TV_SCOPES_EVENT,
	    NULL) != TV_OK || !tv_event_owner(&f, &o) ||
	    o.pid == TV_TID_UNKNOWN)
		return false;
	*pid = o.pid;
	return true;
}

/* What the PID predicate looks for. */
struct pid_arg {
	int64_t	 pid;
	int	 dir;
};

/* PID predicate. */
static bool
pid_pred(struct tv_ui *ui, const struct tv_event *ev, void *arg)
{
	const struct pid_arg *a = arg;
	int64_t pid;

	return tv_ui_owner_pid(ui, ev, a->dir, &pid) && pid == a->pid;
}

/*
 * A moment's wait for the background pass to build more owner filters,
 * the keyboard polled (true: Esc or Ctrl-C) and, after PROGRESS_MS since
 * @t0, how far the pass is on the message line.
 */
static bool
wait_pass(struct tv_ui *ui, struct tv_ui_typeahead *ta, const char *what,
    int64_t t0)
{
	struct timespec nap = { 0, 20 * 1000000L };
	double frac = 0.0;

	nanosleep(&nap, NULL);
	if (tv_ui_poll_cancel(ui, ta)) {
		tv_ui_message(ui, _("%s: cancelled"), what);
		return true;
	}
	if (tv_clock_ms() - t0 >= PROGRESS_MS) {
		(void)tv_ui_session_progress(ui, &frac);
		tv_ui_message(ui, _("%s... waiting for the background pass, "
		    "at %.0f%% of the trace (Esc cancels)"), what,
		    100.0 * frac);
		tv_ui_draw(ui);
	}
	return false;
}

/*
 * tv_ui_scan() from the selection for an event owned by @id (a tid or a
 * pid), only through the stretches of the trace whose owner filters
 * (from the background pass) may hold one: a PID absent from a 1 GB
 * trace answers at once, a rare one is reached without walking the
 * stretches between its events.  While the pass runs, the stretches it
 * has built filters for answer the same way; past them, an id that no
 * record of the trace names (the owners scan, read on every core in a
 * fraction of the pass's time) is not found, and any other waits for
 * the pass.
 */
static enum tv_status
scan_owner(struct tv_ui *ui, int64_t id, int dir, tv_ui_scan_pred pred,
    void *arg, const char *what, struct tv_event *hit)
{
	struct tv_state_index *idx = tv_ui_session_index(ui);
	struct tv_state_stretch sr;
	struct tv_ui_typeahead ta;
	struct tv_event from = ui->sel;
	bool inclusive = false, asked = false;
	enum tv_status st;
	int64_t t0 = tv_clock_ms();
	int r, absent;

	ta.n = 0;
	ta.resized = false;
	for (;;) {
		r = idx != NULL ?
		    tv_state_index_owner_seek(idx, id, &from, dir, &sr) : 0;
		if (r < 0) {
			st = TV_NOT_FOUND;
			break;
		}
		/* an id no record names is nowhere: said at once rather
		   than after the pass */
		absent = r == 2 && !asked ?
		    tv_ui_session_owner_absent(ui, &ta, id) : 0;
		asked = asked || r == 2;
		if (absent != 0) {
			if (absent < 0)
				tv_ui_message(ui, _("%s: cancelled"), what);
			st = absent > 0 ? TV_NOT_FOUND : TV_CANCELLED;
			break;
		}
		if (r == 2) {
			/* the pass walks the rest anyway: wait for it
			 * rather than walk beside it on the same cores */
			if (wait_pass(ui, &ta, what, t0)) {
				st = TV_CANCELLED;
				break;
			}
			continue;
		}
		if (r == 0) {
			st = scan_loop(ui, &from, inclusive, dir, false, pred,
			    arg, what, hit, NULL, &ta, NULL, 0);
			break;
		}
		if (!sr.from_here) {
			from = sr.start;
			inclusive = dir > 0;
		}
		st = scan_loop(ui, &from, inclusive, dir, false, pred, arg,
		    what, hit, NULL, &ta, sr.has_stop ? &sr.stop : NULL, 0);
		if (st != TV_END)
			break;
		/* the stretch held none: on from its edge */
		from = sr.stop;
		inclusive = dir > 0;
	}
	if (ta.resized)
		tv_ui_layout(ui);
	tv_ui_replay_keys(&ta);
	return st;
}

/* The next (@dir > 0) or previous event of PID @pid. */
void
tv_ui_jump_pid(struct tv_ui *ui, int64_t pid, int dir)
{
	struct pid_arg arg = { pid, dir };
	struct tv_event hit;
	enum tv_status st;

	if (!ui->have_sel)
		return;
	st = scan_owner(ui, pid, dir, pid_pred, &arg,
	    _("looking for the PID"), &hit);
	if (st == TV_OK)
		tv_ui_events_goto(ui, &hit);
	else if (st == TV_NOT_FOUND)
		tv_ui_error(ui, dir > 0 ? _("no later event of PID %lld") :
		    _("no earlier event of PID %lld"), (long long)pid);
}

/* Name predicate. */
static bool
name_pred(struct tv_ui *ui TV_UNUSED, const struct tv_event *ev, void *arg)
{
	return strcmp(tv_ui_event_name(ev), arg) == 0;
}

/* The next or previous event named @name. */
void
tv_ui_jump_name(struct tv_ui *ui, const char *name, int dir)
{
	struct tv_event hit;
	enum tv_status st;
	char *copy;

	if (!ui->have_sel)
		return;
	copy = tv_xstrdup(name);	/* may point into ui->sel's class */
	st = tv_ui_scan(ui, &ui->sel, false, dir, false, name_pred, copy,
	    _("looking for the event"), &hit, NULL);
	if (st == TV_OK)
		tv_ui_events_goto(ui, &hit);
	else if (st == TV_NOT_FOUND)
		tv_ui_error(ui, dir > 0 ? _("no later event named %s") :
		    _("no earlier event named %s"), copy);
	free(copy);
}

/* CPU predicate. */
static bool
cpu_pred(struct tv_ui *ui TV_UNUSED, const struct tv_event *ev, void *arg)
{
	return tv_ui_event_cpu(ev) == *(int *)arg;
}

/* The next or previous event on CPU @cpu. */
void
tv_ui_jump_cpu(struct tv_ui *ui, int cpu, int dir)
{
	struct tv_event hit;
	enum tv_status st;

	if (!ui->have_sel)
		return;
	st = tv_ui_scan(ui, &ui->sel, false, dir, false, cpu_pred, &cpu,
	    _("looking for the CPU"), &hit, NULL);
	if (st == TV_OK)
		tv_ui_events_goto(ui, &hit);
	else if (st == TV_NOT_FOUND)
		tv_ui_error(ui, dir > 0 ? _("no later event on CPU %d") :
		    _("no earlier event on CPU %d"), cpu);
}

/* What the thread predicate looks for. */
struct thread_arg {
	int	 dir;
	bool	 by_pid;
};

/* Whether @ev belongs to the restricted thread (or its process). */
static bool
thread_pred(struct tv_ui *ui, const struct tv_event *ev, void *arg)
{
	const struct thread_arg *a = arg;
	int64_t tid, pid;

	if (!tv_ui_session_owner(ui, ev, a->dir, &tid, &pid))
		return false;
	if (a->by_pid && ui->proc_pid != TV_TID_UNKNOWN)
		return pid == ui->proc_pid;
	return tid == ui->proc_tid;
}

/* The next or previous event of the thread the process pane restricts
 * the jumps to (@by_pid: of its process). */
void
tv_ui_jump_thread(struct tv_ui *ui, int dir, bool by_pid)
{
	struct thread_arg arg = { dir, by_pid };
	bool pid = by_pid && ui->proc_pid != TV_TID_UNKNOWN;
	int64_t id = pid ? ui->proc_pid : ui->proc_tid;
	struct tv_event hit;
	enum tv_status st;

	if (!ui->have_sel)
		return;
	st = scan_owner(ui, id, dir, thread_pred, &arg,
	    _("looking for the process"), &hit);
	if (st == TV_OK)
		tv_ui_events_goto(ui, &hit);
	else if (st == TV_NOT_FOUND && pid)
		tv_ui_error(ui, dir > 0 ? _("no later event of PID %lld") :
		    _("no earlier event of PID %lld"), (long long)id);
	else if (st == TV_NOT_FOUND)
		tv_ui_error(ui, dir > 0 ? _("no later event of TID %" PRId64) :
		    _("no earlier event of TID %" PRId64), id);
}

/* Predicate of the forward match: feed each record to the matcher. */
static bool
match_pred(struct tv_ui *ui TV_UNUSED, const struct tv_event *ev, void *arg)
{
	return tv_match_step(arg, ev);
}

/* See ui-priv.h. */
void
tv_ui_jump_match(struct tv_ui *ui)
{
	struct tv_match *m = NULL;
	enum tv_match_kind kind;
	struct tv_event hit;
	struct tv_error err;
	enum tv_status st;

	if (!ui->have_sel)
		return;
	st = tv_match_begin(tv_ui_session_index(ui), ui->set, &ui->sel, &m,
	    &hit, &kind, &err);
	if (st == TV_OK && m != NULL) {
		st = tv_ui_scan(ui, &ui->sel, false, +1, false, match_pred, m,
		    _("looking for the matching event"), &hit, NULL);
		tv_match_destroy(m);
	}
	if (st == TV_OK)
		tv_ui_events_goto(ui, &hit);
	else if (st == TV_NOT_FOUND && kind == TV_MATCH_NONE)
		tv_ui_error(ui, _("%% pairs entry and exit, wake-up and "
		    "switch-in, function and return: this event is none of "
		    "them"));
	else if (st == TV_NOT_FOUND)
		tv_ui_error(ui, _("the matching event is not in the trace"));
	else if (st != TV_CANCELLED)
		tv_ui_error(ui, "%s", err.msg);
}
