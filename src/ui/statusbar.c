/*
 * The status bar (trace, format, cursor time as wall clock and relative
 * to the start, position: exact "event N of M" once every packet's count
 * is known, else approximate in the time span; active search, lost
 * events in the trace and in view, background work) and the message
 * line under it.
 */
#include "ui-priv.h"
#include "tview/format.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/*
 * Lay the status bar out by priority at any width: the position (time,
 * "event N of M") and the modes on the right (filter, search, indexing,
 * bookmarks) stay; the relative time goes first, then the trace name is
 * cut in its middle, then the modes are cut at the screen edge.
 */
static void
draw_fitted(struct tv_ui *ui, struct tv_strbuf *name, struct tv_strbuf *wall,
    struct tv_strbuf *rel, struct tv_strbuf *rank, struct tv_strbuf *right)
{
	int cols = ui->cols, ww = tv_ui_width(wall->buf);
	int kw = tv_ui_width(rank->buf), rw = tv_ui_width(right->buf);
	int relw = tv_ui_width(rel->buf), nw = tv_ui_width(name->buf);
	int room, x;

	/* " NAME  WALL (REL)  RANK  ...  RIGHT" */
	if (1 + nw + 2 + ww + relw + 2 + kw + 2 + rw > cols)
		relw = 0;
	room = cols - 1 - 2 - ww - relw - 2 - kw - 2 - rw;
	if (nw > room)
		nw = room >= 8 ? room : 0;
	x = 1;
	if (nw > 0) {
		tv_ui_put_cut(ui->status_win, 0, x, name->buf, nw);
		x += nw + 2;
	}
	x += tv_ui_put(ui->status_win, 0, x, wall->buf, cols - x);
	if (relw)
		x += tv_ui_put(ui->status_win, 0, x, rel->buf, cols - x);
	if (kw) {
		x += 2;
		x += tv_ui_put(ui->status_win, 0, x, rank->buf, cols - x);
	}
	if (rw) {
		/* right-aligned; cut at the screen edge when too wide */
		int rx = cols - rw < x + 1 ? x + 1 : cols - rw;

		if (rx < cols)
			tv_ui_put(ui->status_win, 0, rx, right->buf, cols - rx);
	}
}

/* Draw the status bar into ui->status_win. */
void
tv_ui_status_draw(struct tv_ui *ui)
{
	const struct tv_trace_set *set = ui->set;
	struct tv_strbuf sb, name, wall_sb, rel_sb, right;
	chtype a = ui->attrs[TV_UI_A_STATUS];
	char wall[64], rel[64];
	uint64_t n, m;
	double frac;

	tv_strbuf_init(&sb);
	tv_strbuf_init(&name);
	tv_strbuf_init(&wall_sb);
	tv_strbuf_init(&rel_sb);
	tv_strbuf_init(&right);
	if (set->ntraces == 1) {
		const struct tv_trace *t = set->traces[0];

		const char *nm = t->name ? t->name : t->path;

		tv_ui_escape(&name, nm ? nm : "?", nm ? strlen(nm) : 1);
		if (t->ops && t->ops->name)
			tv_strbuf_addf(&name, " [%s]", t->ops->name);
	} else {
		tv_strbuf_addf(&name, P_("%" PRIu32 " trace", "%" PRIu32
		    " traces", set->ntraces), set->ntraces);
	}
	if (ui->have_sel) {
		int64_t span = set->ts_end - set->ts_begin;
		int64_t off = ui->sel.rec.ts - set->ts_begin;
		double pct = span > 0 ? 100.0 * (double)off / (double)span :
		    0.0;

		tv_ui_time(ui, ui->sel.rec.ts, ui->wall_style, 0, wall,
		    sizeof(wall));
		tv_ui_time(ui, ui->sel.rec.ts, TV_TIME_RELATIVE,
		    tv_ui_relative_origin(ui, &ui->sel), rel, sizeof(rel));
		tv_strbuf_addf(&wall_sb, "%s", wall);
		tv_strbuf_addf(&rel_sb, " (%s)", rel);
		if (ui->time_style == TV_TIME_RAW &&
		    ui->sel.rec.kind == TV_REC_EVENT)
			tv_strbuf_addf(&sb, _("cycles %" PRIu64 "  "),
			    ui->sel.rec.count);
		if (tv_ui_event_rank(ui, &ui->sel, &n, &m))
			tv_strbuf_addf(&sb, _("event %" PRIu64 " of %" PRIu64),
			    n, m);
		else
			tv_strbuf_addf(&sb, "%s%.0f%%",
			    MB_CUR_MAX > 1 ? "\xe2\x89\x88" : "~", pct);
	}
	if (tv_ui_session_progress(ui, &frac))
		tv_strbuf_addf(&right, _("indexing %.0f%%  "), 100.0 * frac);
	if (ui->proc_filter)
		tv_strbuf_addf(&right, "[%s %" PRId64 "]  ", ui->proc_name,
		    ui->proc_tid);
	tv_ui_filter_status(ui, &right);
	if (ui->pattern && !ui->search_failed)
		tv_strbuf_addf(&right, "%c%s  ", ui->search_dir > 0 ? '/' : '?',
		    ui->pattern);
	tv_ui_bm_status(ui, &right);
	if (ui->lost_total)
		tv_strbuf_addf(&right, _("lost events: %" PRIu64 "  "),
		    ui->lost_total);
	if (ui->lost_packets)
		tv_strbuf_addf(&right, _("lost packets: %" PRIu64 "  "),
		    ui->lost_packets);
	tv_ui_events_lost_in_view(ui, &n, &m);
	if (n)
		tv_strbuf_addf(&right, _("in view: %" PRIu64 " lost  "), n);
	if (m)
		tv_strbuf_addf(&right, _("in view: %" PRIu64 " packets lost  "),
		    m);
	if (ui->mouse_off)
		tv_strbuf_adds(&right, _("mouse off  "));
	if (!ui->help_seen)
		tv_strbuf_adds(&right, _("F1 help "));
	wattrset(ui->status_win, a);
	mvwhline(ui->status_win, 0, 0, ' ' | a, ui->cols);
	draw_fitted(ui, &name, &wall_sb, &rel_sb, &sb, &right);
	wattrset(ui->status_win, A_NORMAL);
	tv_strbuf_fini(&sb);
	tv_strbuf_fini(&name);
	tv_strbuf_fini(&wall_sb);
	tv_strbuf_fini(&rel_sb);
	tv_strbuf_fini(&right);
}

/* Bytes of @s that fill at most @cols display columns. */
static size_t
fit_bytes(const char *s, int cols)
{
	mbstate_t st;
	size_t len = strlen(s), n, i = 0;
	wchar_t wc;
	int w;

	memset(&st, 0, sizeof(st));
	while (i < len) {
		n = mbrtowc(&wc, s + i, len - i, &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof(st));
			n = 1;
			w = 1;
		} else {
			w = wcwidth(wc) < 0 ? 1 : wcwidth(wc);
		}
		if (w > cols)
			break;
		cols -= w;
		i += n;
	}
	return i;
}

/* See ui-priv.h: lines a message takes, wrapped (at most MSG_LINES). */
int
tv_ui_msg_lines(const struct tv_ui *ui)
{
	int w = ui->cols - 1;

	if (!ui->msg[0] || w < 10)
		return 1;
	/* never more than leaves the panes a few lines */
	return TV_MIN(TV_MIN((tv_ui_width(ui->msg) + w - 1) / w,
	    TV_UI_MSG_LINES), TV_MAX(ui->lines - 4, 1));
}

/* Draw the message line(s) into ui->msg_win: a long message wraps. */
void
tv_ui_msg_draw(struct tv_ui *ui)
{
	const char *s = ui->msg;
	char line[sizeof(ui->msg)];
	int y, h = getmaxy(ui->msg_win);
	size_t n;

	werase(ui->msg_win);
	if (!ui->msg[0])
		return;
	wattrset(ui->msg_win, ui->msg_error ? ui->attrs[TV_UI_A_ERROR] :
	    A_NORMAL);
	for (y = 0; y < h && *s; y++) {
		n = y == h - 1 ? strlen(s) : fit_bytes(s, ui->cols - 1);
		if (n == 0)
			break;
		memcpy(line, s, n);
		line[n] = '\0';
		tv_ui_put(ui->msg_win, y, 0, line, ui->cols - 1);
		s += n;
	}
	wattrset(ui->msg_win, A_NORMAL);
}
