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

/* Draw the status bar into ui->status_win. */
void
tv_ui_status_draw(struct tv_ui *ui)
{
	const struct tv_trace_set *set = ui->set;
	struct tv_strbuf sb, right;
	chtype a = ui->attrs[TV_UI_A_STATUS];
	char wall[64], rel[64];
	uint64_t n, m;
	double frac;
	int rw;

	tv_strbuf_init(&sb);
	tv_strbuf_init(&right);
	tv_strbuf_addc(&sb, ' ');
	if (set->ntraces == 1) {
		const struct tv_trace *t = set->traces[0];

		const char *nm = t->name ? t->name : t->path;

		tv_ui_escape(&sb, nm ? nm : "?", nm ? strlen(nm) : 1);
		if (t->ops && t->ops->name)
			tv_strbuf_addf(&sb, " [%s]", t->ops->name);
	} else {
		tv_strbuf_addf(&sb, P_("%" PRIu32 " trace", "%" PRIu32
		    " traces", set->ntraces), set->ntraces);
	}
	if (ui->have_sel) {
		int64_t span = set->ts_end - set->ts_begin;
		int64_t off = ui->sel.rec.ts - set->ts_begin;
		double pct = span > 0 ? 100.0 * (double)off / (double)span :
		    0.0;

		tv_time_format(ui->sel.rec.ts, ui->wall_style, 0, wall,
		    sizeof(wall));
		tv_time_format(ui->sel.rec.ts, TV_TIME_RELATIVE,
		    set->ts_begin, rel, sizeof(rel));
		tv_strbuf_addf(&sb, "  %s (%s)  ", wall, rel);
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
	if (ui->pattern)
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
	wattrset(ui->status_win, a);
	mvwhline(ui->status_win, 0, 0, ' ' | a, ui->cols);
	tv_ui_put(ui->status_win, 0, 0, sb.buf, ui->cols);
	rw = tv_ui_width(right.buf);
	if (rw) {
		/* right-aligned; cut at the screen edge when too wide */
		int lw = tv_ui_width(sb.buf) + 1;
		int x = ui->cols - rw < lw ? lw : ui->cols - rw;

		if (x < ui->cols)
			tv_ui_put(ui->status_win, 0, x, right.buf,
			    ui->cols - x);
	}
	wattrset(ui->status_win, A_NORMAL);
	tv_strbuf_fini(&sb);
	tv_strbuf_fini(&right);
}

/* Draw the message line into ui->msg_win. */
void
tv_ui_msg_draw(struct tv_ui *ui)
{
	werase(ui->msg_win);
	if (!ui->msg[0])
		return;
	wattrset(ui->msg_win, ui->msg_error ? ui->attrs[TV_UI_A_ERROR] :
	    A_NORMAL);
	tv_ui_put(ui->msg_win, 0, 0, ui->msg, ui->cols - 1);
	wattrset(ui->msg_win, A_NORMAL);
}
