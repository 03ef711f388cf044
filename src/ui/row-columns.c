/*
 * The columns of an event row that are not the event's own text: the
 * task (comm-tid, and the process when it is another thread's) from the
 * session's owner windows, so that the row, the search over it and the
 * process pane name the same task; and the trace a row comes from, when
 * several are open; and the style the time column starts in.  Kept
 * apart from render.c so that column layout and what a column says
 * change independently.
 */
#include "ui-priv.h"
#include "tview/format.h"
#include "tview/owner.h"

#include <string.h>

/*
 * See ui-priv.h.  "comm-tid" as trace-cmd and KernelShark print it,
 * "comm-tid (pid)" when the thread is not its process's leader, "<...>"
 * for a name nobody told, "-" when the owner is unknown.
 */
void
tv_ui_task_text(struct tv_ui *ui, const struct tv_event *ev,
    struct tv_strbuf *sb)
{
	tv_ui_owner_text(tv_ui_session_owner_of(ui, ev, 0), sb);
}

/* See ui-priv.h: the task column's text of owner @o (NULL: unknown). */
void
tv_ui_owner_text(const struct tv_event_owner *o, struct tv_strbuf *sb)
{
	if (o == NULL || o->tid == TV_TID_UNKNOWN) {
		tv_strbuf_addc(sb, '-');
		return;
	}
	if (o->name[0] != '\0')
		tv_ui_escape(sb, o->name, strnlen(o->name, sizeof(o->name)));
	else
		tv_strbuf_adds(sb, "<...>");
	/* no printf: a search puts this in every row of a kernel trace */
	tv_strbuf_addc(sb, '-');
	tv_strbuf_add_i64(sb, o->tid);
	if (o->pid != TV_TID_UNKNOWN && o->pid != o->tid) {
		tv_strbuf_add(sb, " (", 2);
		tv_strbuf_add_i64(sb, o->pid);
		tv_strbuf_addc(sb, ')');
	}
}

/* How @t's reference reader shows its times. */
static enum tv_time_style
trace_style(const struct tv_trace *t)
{
	uint32_t i;

	for (i = 0; i < t->nclocks; i++)
		if (t->clocks[i].absolute)
			return TV_TIME_WALL_UTC;
	return t->ops ? t->ops->plain_clock_style : TV_TIME_WALL_UTC;
}

/* See ui.h: the readers' style when every trace agrees, else the wall. */
enum tv_time_style
tv_ui_default_time_style(const struct tv_trace_set *set)
{
	enum tv_time_style st;
	uint32_t i;

	if (set == NULL || set->ntraces == 0)
		return TV_TIME_WALL_UTC;
	st = trace_style(set->traces[0]);
	for (i = 1; i < set->ntraces; i++)
		if (trace_style(set->traces[i]) != st)
			return TV_TIME_WALL_UTC;
	return st;
}

/* See ui.h: the readers' digits when every trace agrees, else 9. */
int
tv_ui_default_time_digits(const struct tv_trace_set *set)
{
	int d = 0;
	uint32_t i;

	for (i = 0; set != NULL && i < set->ntraces; i++) {
		const struct tv_format_ops *ops = set->traces[i]->ops;
		int t = ops != NULL && ops->time_digits ? ops->time_digits : 9;

		if (d != 0 && t != d)
			return 9;
		d = t;
	}
	return d != 0 ? d : 9;
}

/* See ui-priv.h. */
char *
tv_ui_time(const struct tv_ui *ui, int64_t ns, enum tv_time_style style,
    int64_t ref, char *buf, size_t size)
{
	return tv_time_format_prec(ns, style, ref, ui->time_digits, buf,
	    size);
}

/*
 * See ui-priv.h: the absolute form the status bar and fields pane use
 * beside @style: seconds or local time when chosen, else UTC.
 */
enum tv_time_style
tv_ui_wall_style(enum tv_time_style style)
{
	return style == TV_TIME_WALL_LOCAL || style == TV_TIME_SECONDS ?
	    style : TV_TIME_WALL_UTC;
}

/* See ui-priv.h: a trace column only when several traces are open. */
int
tv_ui_trace_width(const struct tv_ui *ui)
{
	uint32_t i;
	int w = 0;

	if (ui->set->ntraces < 2)
		return 0;
	for (i = 0; i < ui->set->ntraces; i++)
		w = TV_MAX(w, tv_ui_width(ui->set->traces[i]->name ?
		    ui->set->traces[i]->name : "?"));
	return TV_MIN(TV_MAX(w, 5), 24);
}

/* See ui-priv.h. */
void
tv_ui_trace_text(struct tv_ui *ui TV_UNUSED, const struct tv_event *ev,
    struct tv_strbuf *sb)
{
	const struct tv_trace *t = ev->stream ? ev->stream->trace : NULL;
	const char *n = t && t->name ? t->name : "?";

	tv_ui_escape(sb, n, strlen(n));
}

/* The first and last event times of @t; false if it has none. */
static bool
trace_span(const struct tv_trace *t, int64_t *b, int64_t *e)
{
	uint32_t i;

	*b = *e = TV_TIME_NONE;
	for (i = 0; i < t->nstreams; i++) {
		const struct tv_stream *s = t->streams[i];

		if (s->ev_first == TV_TIME_NONE)
			continue;
		if (*b == TV_TIME_NONE || s->ev_first < *b)
			*b = s->ev_first;
		if (*e == TV_TIME_NONE || s->ev_last > *e)
			*e = s->ev_last;
	}
	return *b != TV_TIME_NONE;
}

/*
 * See ui-priv.h.  A trace whose span meets another's shares a clock
 * with it (one host, one session): measured from the set's first event.
 * A trace alone in its span (a boot clock beside a wall clock, another
 * day) from its own first event, or relative times would be decades.
 */
int64_t
tv_ui_relative_origin(struct tv_ui *ui, const struct tv_event *ev)
{
	const struct tv_trace *t = ev->stream ? ev->stream->trace : NULL;
	int64_t b, e, ob, oe;
	uint32_t i;

	if (ui->set->ntraces < 2 || t == NULL || !trace_span(t, &b, &e))
		return ui->set->ts_begin;
	for (i = 0; i < ui->set->ntraces; i++)
		if (ui->set->traces[i] != t &&
		    trace_span(ui->set->traces[i], &ob, &oe) &&
		    ob <= e && b <= oe)
			return ui->set->ts_begin;
	return b;
}
