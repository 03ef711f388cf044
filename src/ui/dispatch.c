/*
 * What a request does, as tig's view_driver: the open overlay or the
 * focused pane is asked first (its request op: motion, Enter, x, s...),
 * then a pane's open request (pane.c), then the generic handlers of the
 * table below (prompts, searches, jumps, quit), and last the panes'
 * global ops (bookmarks from the event list, x from anywhere).
 */
#include "ui-priv.h"

#include <stdlib.h>

typedef void (*tv_ui_handler)(struct tv_ui *ui, enum tv_ui_req req);

/* q: quit (an open overlay took it before). */
static void
req_quit(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	ui->quit = tv_ui_bm_may_quit(ui);
}

/* Ctrl-C outside a scan. */
static void
req_cancel(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	tv_ui_message(ui, _("type q to quit"));
}

/* : the command line. */
static void
req_command(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	char buf[1024];

	if (tv_ui_prompt(ui, TV_UI_HIST_COMMAND, ":", buf, sizeof(buf)))
		tv_ui_command(ui, buf);
}

/* t: go to a time. */
static void
req_time_prompt(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	char buf[1024];

	if (tv_ui_prompt(ui, TV_UI_HIST_TIME, _("time: "), buf, sizeof(buf)))
		tv_ui_goto_time_text(ui, buf);
}

/* / and ?: a new search. */
static void
req_search(struct tv_ui *ui, enum tv_ui_req req)
{
	bool fwd = req == TV_UI_REQ_SEARCH_FWD;
	char buf[1024];

	if (tv_ui_prompt(ui, TV_UI_HIST_SEARCH, fwd ? "/" : "?", buf,
	    sizeof(buf)))
		tv_ui_search_set(ui, buf[0] ? buf : NULL, fwd ? +1 : -1);
}

/* n and N. */
static void
req_search_repeat(struct tv_ui *ui, enum tv_ui_req req)
{
	tv_ui_search_repeat(ui, req == TV_UI_REQ_SEARCH_PREV);
}

/* p: the restricted process's next event, or ask for a PID. */
static void
req_pid_prompt(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	char buf[64], *end;
	long long pid;

	if (ui->proc_filter) {
		tv_ui_jump_thread(ui, +1, true);
		return;
	}
	if (!tv_ui_prompt(ui, TV_UI_HIST_PID, _("pid: "), buf, sizeof(buf)))
		return;
	pid = strtoll(buf, &end, 10);
	if (end == buf || *end != '\0') {
		tv_ui_error(ui, _("not a PID: %s"), buf);
		return;
	}
	tv_ui_jump_pid(ui, pid, +1);
}

/* ] and [: the restricted thread, else the selected row's PID. */
static void
req_pid_step(struct tv_ui *ui, enum tv_ui_req req)
{
	int dir = req == TV_UI_REQ_PID_NEXT ? +1 : -1;
	int64_t pid;

	if (ui->proc_filter) {
		tv_ui_jump_thread(ui, dir, false);
		return;
	}
	if (!ui->have_sel)
		return;
	if (!tv_ui_owner_pid(ui, &ui->sel, dir, &pid)) {
		tv_ui_error(ui, _("the selected event has no PID field"));
		return;
	}
	tv_ui_jump_pid(ui, pid, dir);
}

/* } and {. */
static void
req_name_step(struct tv_ui *ui, enum tv_ui_req req)
{
	if (ui->have_sel)
		tv_ui_jump_name(ui, tv_ui_event_name(&ui->sel),
		    req == TV_UI_REQ_NAME_NEXT ? +1 : -1);
}

/* c: wall -> relative -> seconds -> raw clock -> wall. */
static void
req_time_style(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	switch (ui->time_style) {
	case TV_TIME_WALL_UTC:
	case TV_TIME_WALL_LOCAL:
		ui->time_style = TV_TIME_RELATIVE;
		tv_ui_message(ui, _("time: relative to the trace start"));
		break;
	case TV_TIME_RELATIVE:
		ui->time_style = TV_TIME_SECONDS;
		tv_ui_message(ui, _("time: seconds"));
		break;
	case TV_TIME_SECONDS:
		ui->time_style = TV_TIME_RAW;
		tv_ui_message(ui, _("time: raw clock (cycles)"));
		break;
	default:
		ui->time_style = ui->wall_style;
		tv_ui_message(ui, _("time: wall clock"));
		break;
	}
	tv_ui_render_widths(ui);
	tv_ui_mark_all(ui);
}

/* Tab. */
static void
req_focus_next(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	tv_ui_focus_next(ui);
}

/* z. */
static void
req_maximise(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	ui->maximised = !ui->maximised;
	tv_ui_layout(ui);
}

/*
 * Esc: the focused pane closes (the overlay took it before); from the
 * main pane, a pane that closes from anywhere; else the message goes.
 */
static void
req_close(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	int i;

	if (ui->focus != TV_UI_PANE_EVENTS && ui->panes[ui->focus].open) {
		tv_ui_pane_close(ui, ui->focus);
		return;
	}
	for (i = 0; i < TV_UI_NPANES; i++) {
		if (ui->panes[i].open &&
		    (ui->panes[i].ops->flags & TV_PANE_ESC_ANYWHERE)) {
			tv_ui_pane_close(ui, i);
			return;
		}
	}
	ui->msg[0] = '\0';
	ui->msg_dirty = true;
}

/* Ctrl-L. */
static void
req_redraw(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	clearok(curscr, TRUE);
	tv_ui_mark_all(ui);
}

/* The generic handlers; a request without one is the panes' business. */
/* %: the matching event. */
static void
req_match(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	tv_ui_jump_match(ui);
}

/* &: a filter to keep only what it matches. */
static void
req_filter_prompt(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	char buf[1024];

	if (tv_ui_prompt(ui, TV_UI_HIST_COMMAND, _("filter: "), buf,
	    sizeof(buf)) && buf[0])
		tv_ui_filter_command(ui, buf, false);
}

/* F: the filters off, or back on. */
static void
req_filter_toggle(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	tv_ui_filter_toggle(ui);
}

/* O, T, E: keep only the selected event's CPU, process or name. */
static void
req_filter_quick(struct tv_ui *ui, enum tv_ui_req req)
{
	tv_ui_filter_quick(ui, req);
}

static const tv_ui_handler handlers[TV_UI_REQ_COUNT] = {
	[TV_UI_REQ_FILTER_PROMPT] = req_filter_prompt,
	[TV_UI_REQ_FILTER_TOGGLE] = req_filter_toggle,
	[TV_UI_REQ_FILTER_CPU] = req_filter_quick,
	[TV_UI_REQ_FILTER_TASK] = req_filter_quick,
	[TV_UI_REQ_FILTER_NAME] = req_filter_quick,
	[TV_UI_REQ_MATCH] = req_match,
	[TV_UI_REQ_QUIT] = req_quit,
	[TV_UI_REQ_CANCEL] = req_cancel,
	[TV_UI_REQ_COMMAND] = req_command,
	[TV_UI_REQ_TIME_PROMPT] = req_time_prompt,
	[TV_UI_REQ_SEARCH_FWD] = req_search,
	[TV_UI_REQ_SEARCH_BWD] = req_search,
	[TV_UI_REQ_SEARCH_NEXT] = req_search_repeat,
	[TV_UI_REQ_SEARCH_PREV] = req_search_repeat,
	[TV_UI_REQ_PID_PROMPT] = req_pid_prompt,
	[TV_UI_REQ_PID_NEXT] = req_pid_step,
	[TV_UI_REQ_PID_PREV] = req_pid_step,
	[TV_UI_REQ_NAME_NEXT] = req_name_step,
	[TV_UI_REQ_NAME_PREV] = req_name_step,
	[TV_UI_REQ_TIME_STYLE] = req_time_style,
	[TV_UI_REQ_FOCUS_NEXT] = req_focus_next,
	[TV_UI_REQ_MAXIMISE] = req_maximise,
	[TV_UI_REQ_CLOSE] = req_close,
	[TV_UI_REQ_REDRAW] = req_redraw,
};

/* See ui-priv.h. */
void
tv_ui_dispatch(struct tv_ui *ui, enum tv_ui_req req)
{
	struct tv_pane *ov = tv_ui_overlay(ui);
	struct tv_pane *p = ov ? ov : &ui->panes[ui->focus];
	int i;

	if ((unsigned)req >= TV_UI_REQ_COUNT || req == TV_UI_REQ_NONE)
		return;
	if (p->visible && p->ops->request && p->ops->request(ui, p, req))
		return;
	if (tv_ui_pane_request(ui, req))
		return;
	if (handlers[req]) {
		handlers[req](ui, req);
		return;
	}
	if (ov)
		return;		/* the panes' own keys wait */
	for (i = 0; i < TV_UI_NPANES; i++) {
		p = &ui->panes[i];
		if (p->ops->global && p->ops->global(ui, p, req))
			return;
	}
}
