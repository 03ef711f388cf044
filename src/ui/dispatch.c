/*
 * What a request does, as tig's view_driver: the open overlay or the
 * focused pane is asked first (its request op: motion, Enter, x, s...),
 * then a pane's open request (pane.c), then the generic handlers of the
 * table below (prompts, searches, jumps, quit), and last the panes'
 * global ops (bookmarks from the event list, x from anywhere).
 */
#include "ui-priv.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

typedef void (*tv_ui_handler)(struct tv_ui *ui, enum tv_ui_req req);

/*
 * q: as in tig and lnav, the focused pane closes; from the event list,
 * quit (an open overlay took it before).
 */
static void
req_quit(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	if (ui->focus != TV_UI_PANE_EVENTS && ui->panes[ui->focus].open) {
		tv_ui_pane_close(ui, ui->focus);
		return;
	}
	ui->quit = tv_ui_bm_may_quit(ui);
}

/*
 * Left / Right in the event list: scroll the fields column sideways by
 * a quarter of the screen (the time, CPU and name columns stay), as
 * less -S and tig do; the timeline pane takes them before when focused.
 */
static void
req_hscroll(struct tv_ui *ui, enum tv_ui_req req)
{
	int step = TV_MAX(ui->cols / 4, 4);

	if (ui->focus != TV_UI_PANE_EVENTS)
		return;
	if (req == TV_UI_REQ_LEFT)
		ui->hscroll = TV_MAX(ui->hscroll - step, 0);
	else if (ui->hscroll < 4096)
		ui->hscroll += step;
	ui->panes[TV_UI_PANE_EVENTS].dirty = true;
}

/* y, Y, # and K. */
static void
req_clip(struct tv_ui *ui, enum tv_ui_req req)
{
	if (req == TV_UI_REQ_COLOUR_BY)
		tv_ui_colour_cycle(ui);
	else if (req == TV_UI_REQ_COPY)
		tv_ui_clip_copy(ui);
	else if (req == TV_UI_REQ_APPEND)
		tv_ui_clip_append(ui);
	else
		tv_ui_mouse_toggle(ui);
}

/* Ctrl-O; Ctrl-I (only from the help's table: the terminal sends Tab). */
static void
req_jump_step(struct tv_ui *ui, enum tv_ui_req req)
{
	tv_ui_jump_step(ui, req == TV_UI_REQ_JUMP_OLDER ? -1 : +1);
}

/* ': a second ' (or `) goes to the place before the last jump. */
static void
req_jump_mark(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	char name[32];
	wint_t wch;
	int key;

	wtimeout(ui->msg_win, -1);
	key = tv_ui_getkey(ui, &wch);
	if (key == '\'' || key == '`') {
		tv_ui_jump_last(ui);
	} else if (key >= 0) {
		tv_ui_key_text(key, name, sizeof(name));
		tv_ui_message(ui, _("'%s: only '' is known (back to before the "
		    "last jump)"), name);
	}
}

/*
 * Ctrl-Z: raw mode keeps the terminal from sending SIGTSTP, so send it
 * ourselves with the terminal given back first; when fg resumes us the
 * screen is redrawn (the terminal may have changed size meanwhile).
 */
static void
req_suspend(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	struct sigaction dfl, old;

	def_prog_mode();
	endwin();
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGTSTP, &dfl, &old);
	raise(SIGTSTP);
	sigaction(SIGTSTP, &old, NULL);
	reset_prog_mode();
	clearok(curscr, TRUE);
	tv_ui_layout(ui);
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

	/* the forms in the prompt; Enter with nothing typed cancels */
	/* xgettext:no-c-format */
	if (tv_ui_prompt(ui, TV_UI_HIST_TIME, _("time (HH:MM:SS[.N], "
	    "+1.5ms, -200us, 50%, #N): "), buf, sizeof(buf)) &&
	    buf[strspn(buf, " \t")])
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

/* c: wall -> relative -> seconds -> raw clock -> wall; seconds -> relative
 * -> raw -> seconds when seconds are the trace's own style. */
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
		if (ui->wall_style == TV_TIME_SECONDS) {
			ui->time_style = TV_TIME_RAW;
			tv_ui_message(ui, _("time: raw clock (cycles)"));
			break;
		}
		ui->time_style = TV_TIME_SECONDS;
		tv_ui_message(ui, _("time: seconds"));
		break;
	case TV_TIME_SECONDS:
		/* seconds are the home style of a trace.dat boot clock */
		if (ui->wall_style == TV_TIME_SECONDS) {
			ui->time_style = TV_TIME_RELATIVE;
			tv_ui_message(ui,
			    _("time: relative to the trace start"));
			break;
		}
		ui->time_style = TV_TIME_RAW;
		tv_ui_message(ui, _("time: raw clock (cycles)"));
		break;
	default:
		ui->time_style = ui->wall_style;
		tv_ui_message(ui, ui->wall_style == TV_TIME_SECONDS ?
		    _("time: seconds") : _("time: wall clock"));
		break;
	}
	tv_ui_render_widths(ui);
	tv_ui_mark_all(ui);
}

/* .: microseconds <-> nanoseconds, everywhere a time is shown. */
static void
req_time_precision(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	ui->time_digits = ui->time_digits == 6 ? 9 : 6;
	tv_ui_message(ui, ui->time_digits == 6 ?
	    _("time: to the microsecond") : _("time: to the nanosecond"));
	tv_ui_render_widths(ui);
	tv_ui_mark_all(ui);
}

/* Tab; Ctrl-I, which is the same byte, when no other pane is shown. */
static void
req_focus_next(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	int i;

	for (i = 0; i < TV_UI_NPANES; i++)
		if (i != TV_UI_PANE_EVENTS && tv_ui_pane_shown(ui, i) &&
		    ui->panes[i].ops->place != TV_PANE_OVERLAY) {
			tv_ui_focus_next(ui);
			return;
		}
	if (!tv_ui_overlay(ui))
		tv_ui_jump_step(ui, +1);
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

/* f: the filters off, or back on. */
static void
req_filter_toggle(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	tv_ui_filter_toggle(ui);
}

/* F: follow the trace as it is written, or stop. */
static void
req_follow(struct tv_ui *ui, enum tv_ui_req req TV_UNUSED)
{
	tv_ui_follow_toggle(ui);
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
	[TV_UI_REQ_FOLLOW] = req_follow,
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
	[TV_UI_REQ_TIME_PRECISION] = req_time_precision,
	[TV_UI_REQ_FOCUS_NEXT] = req_focus_next,
	[TV_UI_REQ_MAXIMISE] = req_maximise,
	[TV_UI_REQ_CLOSE] = req_close,
	[TV_UI_REQ_REDRAW] = req_redraw,
	[TV_UI_REQ_JUMP_OLDER] = req_jump_step,
	[TV_UI_REQ_JUMP_NEWER] = req_jump_step,
	[TV_UI_REQ_JUMP_MARK] = req_jump_mark,
	[TV_UI_REQ_SUSPEND] = req_suspend,
	[TV_UI_REQ_COPY] = req_clip,
	[TV_UI_REQ_COLOUR_BY] = req_clip,
	[TV_UI_REQ_LEFT] = req_hscroll,
	[TV_UI_REQ_RIGHT] = req_hscroll,
	[TV_UI_REQ_APPEND] = req_clip,
	[TV_UI_REQ_MOUSE] = req_clip,
};

/* The request to whoever takes it first (see the top of the file). */
static void
dispatch(struct tv_ui *ui, enum tv_ui_req req)
{
	struct tv_pane *ov = tv_ui_overlay(ui);
	struct tv_pane *p = ov ? ov : &ui->panes[ui->focus];
	int i;
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

/* See ui-priv.h: a jump leaves where it started in the jump list. */
void
tv_ui_dispatch(struct tv_ui *ui, enum tv_ui_req req)
{
	struct tv_event before = ui->sel;
	bool had = ui->have_sel;

	if ((unsigned)req >= TV_UI_REQ_COUNT || req == TV_UI_REQ_NONE)
		return;
	if (!tv_ui_jump_req(ui, req)) {
		dispatch(ui, req);
		return;
	}
	dispatch(ui, req);
	tv_ui_jump_moved(ui, had, &before);
}
