/*
 * The browser's life cycle: terminal checks, curses set-up with colours
 * that degrade to monochrome (and honour NO_COLOR), and the main loop:
 * read a key, map it to a request, dispatch it, draw what is dirty.
 */
#include "ui-priv.h"

#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WHEEL_STEP	3

/* Put a formatted message on the message line. */
static void
vmessage(struct tv_ui *ui, bool error, const char *fmt, va_list ap)
{
	vsnprintf(ui->msg, sizeof(ui->msg), fmt, ap);
	ui->msg_error = error;
	ui->msg_dirty = true;
}

/* Show an informational message until the next one. */
void
tv_ui_message(struct tv_ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(ui, false, fmt, ap);
	va_end(ap);
}

/* Show an error message until the next one. */
void
tv_ui_error(struct tv_ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(ui, true, fmt, ap);
	va_end(ap);
	beep();
}

/* Everything needs drawing again (resize, redraw, style change). */
void
tv_ui_mark_all(struct tv_ui *ui)
{
	int i;

	for (i = 0; i < TV_UI_NPANES; i++)
		ui->panes[i].dirty = true;
	ui->status_dirty = true;
	ui->msg_dirty = true;
}

/* Make @ev the selected event and tell every pane. */
void
tv_ui_select(struct tv_ui *ui, const struct tv_event *ev)
{
	int i;

	if (ev) {
		ui->sel = *ev;
		ui->have_sel = true;
	} else {
		ui->have_sel = false;
	}
	for (i = 0; i < TV_UI_NPANES; i++)
		if (ui->panes[i].ops->sync)
			ui->panes[i].ops->sync(ui, &ui->panes[i]);
	ui->status_dirty = true;
}

/* Move the focus to pane @pane and redraw the selection marks. */
void
tv_ui_focus(struct tv_ui *ui, int pane)
{
	if (ui->focus == pane)
		return;
	ui->focus = pane;
	if (ui->maximised)
		tv_ui_layout(ui);
	tv_ui_mark_all(ui);
}

/* Draw whatever is dirty and push it to the terminal at once. */
void
tv_ui_draw(struct tv_ui *ui)
{
	int i;

	if (ui->too_small) {
		werase(stdscr);
		tv_ui_put(stdscr, 0, 0, _("terminal too small"), COLS);
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	for (i = 0; i < TV_UI_NPANES; i++) {
		struct tv_pane *p = &ui->panes[i];

		if (!p->visible || !p->win || !p->dirty)
			continue;
		werase(p->win);
		p->ops->draw(ui, p);
		wnoutrefresh(p->win);
		p->dirty = false;
	}
	if (ui->status_dirty) {
		tv_ui_status_draw(ui);
		wnoutrefresh(ui->status_win);
		ui->status_dirty = false;
	}
	if (ui->msg_dirty) {
		tv_ui_msg_draw(ui);
		wnoutrefresh(ui->msg_win);
		ui->msg_dirty = false;
	}
	doupdate();
}

/* Wait for one key; returns its code (see tv_ui_key_code) or -1. */
int
tv_ui_getkey(struct tv_ui *ui, wint_t *wch)
{
	int ret;

	ret = wget_wch(ui->msg_win, wch);
	if (ret == ERR)
		return -1;
	return tv_ui_key_code(ret, *wch);
}

/* The pane that gets motion keys: help when shown, else the focus. */
static struct tv_pane *
target_pane(struct tv_ui *ui)
{
	if (ui->help_open)
		return &ui->panes[TV_UI_PANE_HELP];
	return &ui->panes[ui->focus];
}

/* The pane under screen cell @y,@x, or -1. */
static int
pane_at(struct tv_ui *ui, int y, int x)
{
	int i;

	for (i = 0; i < TV_UI_NPANES; i++) {
		struct tv_pane *p = &ui->panes[i];

		if (p->visible && y >= p->y && y < p->y + p->h &&
		    x >= p->x && x < p->x + p->w)
			return i;
	}
	return -1;
}

/* Mouse: button 1 selects, the wheel scrolls the pane under it. */
static void
handle_mouse(struct tv_ui *ui)
{
	MEVENT me;
	struct tv_pane *p;
	int i, id;

	if (getmouse(&me) != OK)
		return;
	id = pane_at(ui, me.y, me.x);
	if (id < 0)
		return;
	p = &ui->panes[id];
	if (me.bstate & (BUTTON4_PRESSED)) {
		for (i = 0; i < WHEEL_STEP; i++)
			p->ops->request(ui, p, TV_UI_REQ_UP);
		return;
	}
#ifdef BUTTON5_PRESSED
	if (me.bstate & (BUTTON5_PRESSED)) {
		for (i = 0; i < WHEEL_STEP; i++)
			p->ops->request(ui, p, TV_UI_REQ_DOWN);
		return;
	}
#endif
	if (me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED |
	    BUTTON1_DOUBLE_CLICKED)) {
		if (id != TV_UI_PANE_HELP)
			tv_ui_focus(ui, id);
		if (p->ops->click)
			p->ops->click(ui, p, me.y - p->y);
	}
}

/* Ask for a PID and jump to its next event. */
static void
pid_prompt(struct tv_ui *ui)
{
	char buf[64], *end;
	long long pid;

	if (!tv_ui_prompt(ui, TV_UI_HIST_PID, _("pid: "), buf, sizeof(buf)))
		return;
	pid = strtoll(buf, &end, 10);
	if (end == buf || *end != '\0') {
		tv_ui_error(ui, _("not a PID: %s"), buf);
		return;
	}
	tv_ui_jump_pid(ui, pid, +1);
}

/* ] and [: the PID of the selected row (state layer, else its fields). */
static void
pid_step(struct tv_ui *ui, int dir)
{
	int64_t pid;

	if (!ui->have_sel)
		return;
	if (!tv_ui_owner_pid(ui, &ui->sel, dir, &pid)) {
		tv_ui_error(ui, _("the selected event has no PID field"));
		return;
	}
	tv_ui_jump_pid(ui, pid, dir);
}

/* Cycle wall -> relative -> seconds -> raw clock -> wall. */
static void
cycle_time_style(struct tv_ui *ui)
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

/* Tab with the process pane open: events -> fields -> processes. */
static void
focus_cycle(struct tv_ui *ui)
{
	int f = ui->focus;

	do
		f = f == TV_UI_PANE_EVENTS ? TV_UI_PANE_FIELDS :
		    f == TV_UI_PANE_FIELDS ? TV_UI_PANE_PROCS :
		    TV_UI_PANE_EVENTS;
	while (f == TV_UI_PANE_FIELDS && !ui->fields_open);
	tv_ui_focus(ui, f);
}

/* P: open the process pane (focused), or close it when focused. */
static void
procs_toggle(struct tv_ui *ui)
{
	if (ui->help_open)
		return;
	if (ui->procs_open && ui->focus == TV_UI_PANE_PROCS) {
		ui->procs_open = false;
		ui->maximised = false;
		ui->focus = TV_UI_PANE_EVENTS;
		tv_ui_layout(ui);
		return;
	}
	if (!ui->procs_open) {
		ui->procs_open = true;
		ui->focus = TV_UI_PANE_PROCS;
		tv_ui_layout(ui);
		tv_ui_select(ui, ui->have_sel ? &ui->sel : NULL);
		return;
	}
	tv_ui_focus(ui, TV_UI_PANE_PROCS);
}

/* Requests that are not about moving in a pane. */
static void
dispatch(struct tv_ui *ui, enum tv_ui_req req)
{
	char buf[1024];
	struct tv_pane *p;

	switch (req) {
	case TV_UI_REQ_NONE:
		break;
	case TV_UI_REQ_QUIT:
		if (ui->help_open) {
			ui->help_open = false;
			tv_ui_layout(ui);
		} else {
			ui->quit = true;
		}
		break;
	case TV_UI_REQ_CANCEL:
		tv_ui_message(ui, _("type q to quit"));
		break;
	case TV_UI_REQ_COMMAND:
		if (tv_ui_prompt(ui, TV_UI_HIST_COMMAND, ":", buf,
		    sizeof(buf)))
			tv_ui_command(ui, buf);
		break;
	case TV_UI_REQ_FILTER_PROMPT:
		if (tv_ui_prompt(ui, TV_UI_HIST_COMMAND, _("filter: "), buf,
		    sizeof(buf)) && buf[0])
			tv_ui_filter_command(ui, buf, false);
		break;
	case TV_UI_REQ_FILTER_TOGGLE:
		tv_ui_filter_toggle(ui);
		break;
	case TV_UI_REQ_FILTER_CPU:
	case TV_UI_REQ_FILTER_TASK:
	case TV_UI_REQ_FILTER_NAME:
		tv_ui_filter_quick(ui, req);
		break;
	case TV_UI_REQ_TIME_PROMPT:
		if (tv_ui_prompt(ui, TV_UI_HIST_TIME, _("time: "), buf,
		    sizeof(buf)))
			tv_ui_goto_time_text(ui, buf);
		break;
	case TV_UI_REQ_SEARCH_FWD:
	case TV_UI_REQ_SEARCH_BWD:
		if (!tv_ui_prompt(ui, TV_UI_HIST_SEARCH,
		    req == TV_UI_REQ_SEARCH_FWD ? "/" : "?", buf,
		    sizeof(buf)))
			break;
		tv_ui_search_set(ui, buf[0] ? buf : NULL,
		    req == TV_UI_REQ_SEARCH_FWD ? +1 : -1);
		break;
	case TV_UI_REQ_SEARCH_NEXT:
		tv_ui_search_repeat(ui, false);
		break;
	case TV_UI_REQ_SEARCH_PREV:
		tv_ui_search_repeat(ui, true);
		break;
	case TV_UI_REQ_PID_PROMPT:
		if (ui->proc_filter)
			tv_ui_procs_jump(ui, +1, true);
		else
			pid_prompt(ui);
		break;
	case TV_UI_REQ_PID_NEXT:
	case TV_UI_REQ_PID_PREV:
		if (ui->proc_filter)
			tv_ui_procs_jump(ui, req == TV_UI_REQ_PID_NEXT ? +1 : -1,
			    false);
		else
			pid_step(ui, req == TV_UI_REQ_PID_NEXT ? +1 : -1);
		break;
	case TV_UI_REQ_PROCS:
		procs_toggle(ui);
		break;
	case TV_UI_REQ_BM_MARK:
	case TV_UI_REQ_BM_INTERVAL:
	case TV_UI_REQ_BM_NEXT:
	case TV_UI_REQ_BM_PREV:
	case TV_UI_REQ_BOOKMARKS:
	case TV_UI_REQ_BM_EDIT:
	case TV_UI_REQ_BM_DELETE:
		tv_ui_bm_request(ui, req);
		break;
	case TV_UI_REQ_NAME_NEXT:
	case TV_UI_REQ_NAME_PREV:
		if (ui->have_sel)
			tv_ui_jump_name(ui, tv_ui_event_name(&ui->sel),
			    req == TV_UI_REQ_NAME_NEXT ? +1 : -1);
		break;
	case TV_UI_REQ_TIME_STYLE:
		cycle_time_style(ui);
		break;
	case TV_UI_REQ_FIELDS:
		if (ui->help_open)
			break;
		if (ui->focus == TV_UI_PANE_BOOKMARKS && ui->bm_open) {
			p = &ui->panes[TV_UI_PANE_BOOKMARKS];
			p->ops->request(ui, p, req);
			break;
		}
		if (ui->focus == TV_UI_PANE_PROCS && ui->procs_open) {
			p = &ui->panes[TV_UI_PANE_PROCS];
			p->ops->request(ui, p, req);
			break;
		}
		if (!ui->fields_open) {
			ui->fields_open = true;
			ui->focus = TV_UI_PANE_FIELDS;
			tv_ui_layout(ui);
			tv_ui_select(ui, ui->have_sel ? &ui->sel : NULL);
		} else {
			tv_ui_focus(ui, TV_UI_PANE_FIELDS);
		}
		break;
	case TV_UI_REQ_HEX:
		/* from any pane: open the fields pane with the dump */
		if (ui->help_open)
			break;
		if (!ui->fields_open)
			dispatch(ui, TV_UI_REQ_FIELDS);
		p = &ui->panes[TV_UI_PANE_FIELDS];
		p->ops->request(ui, p, req);
		break;
	case TV_UI_REQ_FOCUS_NEXT:
		if (ui->bm_open && !ui->help_open)
			tv_ui_focus(ui, ui->focus == TV_UI_PANE_EVENTS ?
			    TV_UI_PANE_BOOKMARKS : TV_UI_PANE_EVENTS);
		else if (ui->procs_open && !ui->help_open)
			focus_cycle(ui);
		else if (ui->fields_open && !ui->help_open)
			tv_ui_focus(ui, ui->focus == TV_UI_PANE_EVENTS ?
			    TV_UI_PANE_FIELDS : TV_UI_PANE_EVENTS);
		break;
	case TV_UI_REQ_MAXIMISE:
		ui->maximised = !ui->maximised;
		tv_ui_layout(ui);
		break;
	case TV_UI_REQ_CLOSE:
		if (ui->help_open) {
			ui->help_open = false;
		} else if (ui->bm_open && ui->focus == TV_UI_PANE_BOOKMARKS) {
			tv_ui_bm_request(ui, TV_UI_REQ_BOOKMARKS);
			break;
		} else if (ui->procs_open && ui->focus == TV_UI_PANE_PROCS) {
			ui->procs_open = false;
			ui->maximised = false;
			ui->focus = TV_UI_PANE_EVENTS;
		} else if (ui->fields_open) {
			ui->fields_open = false;
			ui->maximised = false;
			ui->focus = TV_UI_PANE_EVENTS;
		} else {
			ui->msg[0] = '\0';
			ui->msg_dirty = true;
			break;
		}
		tv_ui_layout(ui);
		break;
	case TV_UI_REQ_HELP:
		ui->help_open = !ui->help_open;
		tv_ui_layout(ui);
		break;
	case TV_UI_REQ_REDRAW:
		clearok(curscr, TRUE);
		tv_ui_mark_all(ui);
		break;
	default:
		p = target_pane(ui);
		if (p->visible)
			p->ops->request(ui, p, req);
		break;
	}
}

/* Colours when the terminal has them and NO_COLOR is unset. */
static void
init_attrs(struct tv_ui *ui)
{
	const char *nc = getenv("NO_COLOR");
	int i;

	for (i = 0; i < TV_UI_A_COUNT; i++)
		ui->attrs[i] = A_NORMAL;
	ui->attrs[TV_UI_A_HEADER] = A_BOLD | A_UNDERLINE;
	ui->attrs[TV_UI_A_SELECTED] = A_REVERSE;
	ui->attrs[TV_UI_A_SELECTED_DIM] = A_UNDERLINE;
	ui->attrs[TV_UI_A_STATUS] = A_REVERSE;
	ui->attrs[TV_UI_A_ERROR] = A_BOLD;
	ui->attrs[TV_UI_A_SCOPE] = A_BOLD;
	ui->colour = false;
	if ((nc && nc[0]) || !has_colors() || start_color() != OK)
		return;
	use_default_colors();
	if (COLORS < 8 || COLOR_PAIRS < 8)
		return;
	ui->colour = true;
	init_pair(1, COLOR_WHITE, COLOR_BLUE);
	init_pair(2, COLOR_BLACK, COLOR_CYAN);
	init_pair(3, COLOR_RED, -1);
	init_pair(4, COLOR_YELLOW, -1);
	init_pair(5, COLOR_GREEN, -1);
	init_pair(6, COLOR_CYAN, -1);
	ui->attrs[TV_UI_A_STATUS] = COLOR_PAIR(1) | A_BOLD;
	ui->attrs[TV_UI_A_SELECTED] = COLOR_PAIR(2);
	ui->attrs[TV_UI_A_ERROR] = COLOR_PAIR(3) | A_BOLD;
	ui->attrs[TV_UI_A_SCOPE] = COLOR_PAIR(4) | A_BOLD;
	ui->attrs[TV_UI_A_TIME] = COLOR_PAIR(5);
	ui->attrs[TV_UI_A_NAME] = COLOR_PAIR(6);
}

/* Events and packets the tracer says it lost, from the packet indexes. */
static void
count_lost(const struct tv_trace_set *set, uint64_t *events,
    uint64_t *packets)
{
	uint64_t p;
	uint32_t i;

	*events = *packets = 0;
	for (i = 0; i < set->nstreams; i++) {
		const struct tv_stream *s = set->streams[i];

		for (p = 0; p < s->npackets; p++) {
			const struct tv_packet *pk = &s->packets[p];

			*events += pk->discarded;
			if ((pk->flags & TV_PACKET_LOST_BEFORE) && p > 0 &&
			    pk->seq_num != TV_COUNT_UNKNOWN &&
			    s->packets[p - 1].seq_num != TV_COUNT_UNKNOWN &&
			    pk->seq_num > s->packets[p - 1].seq_num)
				*packets += pk->seq_num -
				    s->packets[p - 1].seq_num - 1;
		}
	}
}

/* Why there is no browser, or NULL when the terminal looks usable. */
static const char *
terminal_problem(void)
{
	const char *term = getenv("TERM");

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return _("standard input and output are not a terminal");
	if (!term || !term[0])
		return _("TERM is not set");
	if (strcmp(term, "dumb") == 0)
		return _("the terminal is dumb (TERM=dumb)");
	return NULL;
}

/* Say once that part of the trace could not be decoded, and where. */
static void
report_merge_error(struct tv_ui *ui)
{
	const struct tv_error *err = tv_merge_error(ui->merge);
	char buf[1200];

	if (ui->merge_err_shown || !err || err->status == TV_OK)
		return;
	ui->merge_err_shown = true;
	tv_ui_error(ui, "%s", tv_error_format(err, buf, sizeof(buf)));
}

/* Curses on, state set up, windows laid out; false if no terminal. */
static bool
ui_init(struct tv_ui *ui, struct tv_trace_set *set,
    const struct tv_ui_options *opts, SCREEN **scr)
{
	const char *delay;
	int i;

	memset(ui, 0, sizeof(*ui));
	ui->set = set;
	if (strcmp(setlocale(LC_CTYPE, NULL), "C") == 0)
		setlocale(LC_CTYPE, "");
	*scr = newterm(NULL, stdout, stdin);
	if (!*scr)
		return false;
	set_term(*scr);
	raw();
	noecho();
	nonl();
	curs_set(0);
	set_escdelay(25);
	mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED |
	    BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
	    | BUTTON5_PRESSED
#endif
	    , NULL);
	mouseinterval(0);
	init_attrs(ui);

	ui->merge = tv_merge_create(set);
	tv_arena_init(&ui->arena);
	ui->time_style = opts ? opts->time_style : TV_TIME_WALL_UTC;
	ui->wall_style = ui->time_style == TV_TIME_WALL_LOCAL ?
	    TV_TIME_WALL_LOCAL : TV_TIME_WALL_UTC;
	ui->search_dir = +1;
	count_lost(set, &ui->lost_total, &ui->lost_packets);
	delay = getenv("TVIEW_UI_SCAN_DELAY_US");
	if (delay)
		ui->scan_delay_us = (unsigned)strtoul(delay, NULL, 10);
	tv_ui_render_widths(ui);
	ui->panes[TV_UI_PANE_EVENTS].ops = &tv_ui_events_ops;
	ui->panes[TV_UI_PANE_FIELDS].ops = &tv_ui_fields_ops;
	ui->panes[TV_UI_PANE_HELP].ops = &tv_ui_help_ops;
	ui->panes[TV_UI_PANE_PROCS].ops = &tv_ui_procs_ops;
	ui->panes[TV_UI_PANE_BOOKMARKS].ops = &tv_ui_bookmarks_ops;
	ui->focus = TV_UI_PANE_EVENTS;
	for (i = 0; i < TV_UI_NPANES; i++)
		ui->panes[i].ops->init(ui, &ui->panes[i]);
	tv_ui_layout(ui);
	ui->panes[TV_UI_PANE_EVENTS].ops->request(ui,
	    &ui->panes[TV_UI_PANE_EVENTS], TV_UI_REQ_FIRST);
	if (opts && opts->initial_goto)
		tv_ui_goto_time_text(ui, opts->initial_goto);
	report_merge_error(ui);
	return true;
}

/* Curses off and every resource back. */
static void
ui_fini(struct tv_ui *ui, SCREEN *scr)
{
	int i;

	for (i = 0; i < TV_UI_NPANES; i++) {
		ui->panes[i].ops->fini(ui, &ui->panes[i]);
		if (ui->panes[i].win)
			delwin(ui->panes[i].win);
	}
	if (ui->status_win)
		delwin(ui->status_win);
	if (ui->msg_win)
		delwin(ui->msg_win);
	endwin();
	delscreen(scr);
	tv_ui_search_fini(ui);
	tv_ui_filter_fini(ui);
	tv_ui_position_fini();
	tv_ui_history_fini(ui);
	tv_arena_fini(&ui->arena);
	if (ui->merge)
		tv_merge_destroy(ui->merge);
}

/* The browser: see tview/ui.h. */
int
tv_ui_run(struct tv_trace_set *set, const struct tv_ui_options *opts)
{
	struct tv_ui ui;
	const char *why;
	SCREEN *scr;
	wint_t wch;
	double frac;
	int key;

	why = terminal_problem();
	if (why) {
		fprintf(stderr, _("tview: cannot start the browser: %s; "
		    "use --dump to print the trace as text\n"), why);
		return 1;
	}
	if (!ui_init(&ui, set, opts, &scr)) {
		fprintf(stderr, _("tview: cannot start the browser on "
		    "TERM=%s; use --dump to print the trace as text\n"),
		    getenv("TERM"));
		return 1;
	}
	while (!ui.quit) {
		/* asked before drawing: a pass that ends during the draw
		 * still gets one more wake-up to show its final state */
		bool running = tv_ui_procs_progress(&ui, &frac);

		tv_ui_draw(&ui);
		/* while the background pass runs, wake up for its progress */
		wtimeout(ui.msg_win, running ? 250 :
		    tv_ui_bm_pending(&ui) ? 1000 : -1);
		key = tv_ui_getkey(&ui, &wch);
		if (key < 0) {
			tv_ui_bm_tick(&ui);
			ui.status_dirty = true;
			continue;
		}
		if (key == (KEY_RESIZE | TV_UI_KEY_FN)) {
			tv_ui_layout(&ui);
			continue;
		}
		if (key == (KEY_MOUSE | TV_UI_KEY_FN)) {
			handle_mouse(&ui);
			continue;
		}
		if (ui.msg[0]) {
			/* a new key clears an old message */
			ui.msg[0] = '\0';
			ui.msg_dirty = true;
		}
		dispatch(&ui, tv_ui_keymap_lookup(key));
		report_merge_error(&ui);
	}
	ui_fini(&ui, scr);
	return 0;
}
