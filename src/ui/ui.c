/*
 * The browser's life cycle: terminal checks, curses set-up with colours
 * that degrade to monochrome (and honour NO_COLOR), and the main loop:
 * read a key, map it to a request, dispatch it (dispatch.c), draw what
 * is dirty; the mouse goes to the pane under it.
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

	if (!ui->too_small && tv_ui_msg_lines(ui) != ui->msg_lines)
		tv_ui_layout(ui);	/* the message needs more or fewer lines */
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
	struct tv_event before = ui->sel;
	bool had = ui->have_sel;
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
		if (p->ops->place != TV_PANE_OVERLAY)
			tv_ui_focus(ui, id);
		if (p->ops->click)
			p->ops->click(ui, p, me.y - p->y);
		tv_ui_jump_moved(ui, had, &before);	/* a click jumps */
	}
}

/*
 * The colours rows take with colour-by: on the default background, six
 * that read on it: a dark terminal loses blue, a light one yellow and
 * cyan (they go bold or are swapped for darker ones).
 */
static void
init_palette(struct tv_ui *ui)
{
	static const short dark[6] = { COLOR_GREEN, COLOR_YELLOW, COLOR_CYAN,
	    COLOR_MAGENTA, COLOR_RED, COLOR_WHITE };
	static const short light[6] = { COLOR_BLUE, COLOR_RED, COLOR_GREEN,
	    COLOR_MAGENTA, COLOR_BLACK, COLOR_CYAN };
	int i;

	if (COLOR_PAIRS <= 16)
		return;
	for (i = 0; i < 6; i++) {
		init_pair((short)(11 + i), ui->light ? light[i] : dark[i], -1);
		ui->palette[i] = COLOR_PAIR(11 + i) |
		    (ui->light && i == 5 ? A_BOLD : 0);
	}
	if (ui->light) {
		/* the dark theme's pairs are made for a dark background */
		init_pair(5, COLOR_BLUE, -1);
		init_pair(6, COLOR_MAGENTA, -1);
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
	ui->attrs[TV_UI_A_CELL_RUN] = A_BOLD;
	ui->attrs[TV_UI_A_MATCH] = A_REVERSE | A_UNDERLINE;
	ui->colour = false;
	if ((nc && nc[0]) || ui->colour_never || !has_colors() ||
	    start_color() != OK)
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
	/* timeline cells: black on a colour reads on dark and light */
	init_pair(7, COLOR_BLACK, COLOR_GREEN);
	init_pair(8, COLOR_BLACK, COLOR_YELLOW);
	init_pair(9, COLOR_BLACK, COLOR_RED);
	init_pair(10, COLOR_BLACK, COLOR_CYAN);
	ui->attrs[TV_UI_A_STATUS] = COLOR_PAIR(1) | A_BOLD;
	ui->attrs[TV_UI_A_SELECTED] = COLOR_PAIR(2);
	ui->attrs[TV_UI_A_ERROR] = COLOR_PAIR(3) | A_BOLD;
	ui->attrs[TV_UI_A_SCOPE] = COLOR_PAIR(4) | A_BOLD;
	ui->attrs[TV_UI_A_TIME] = COLOR_PAIR(5);
	ui->attrs[TV_UI_A_NAME] = COLOR_PAIR(6);
	ui->attrs[TV_UI_A_MATCH] = COLOR_PAIR(8) | A_BOLD;
	if (COLOR_PAIRS > 10) {
		ui->attrs[TV_UI_A_CELL_RUN] = COLOR_PAIR(7);
		ui->attrs[TV_UI_A_CELL_SYS] = COLOR_PAIR(8);
		ui->attrs[TV_UI_A_CELL_IRQ] = COLOR_PAIR(9);
		ui->attrs[TV_UI_A_CELL_WAIT] = COLOR_PAIR(10);
	}
	init_palette(ui);
}

/* Events and packets the tracer says it lost, from the packet indexes. */
void
tv_ui_count_lost(struct tv_ui *ui)
{
	const struct tv_trace_set *set = ui->set;
	uint64_t *events = &ui->lost_total, *packets = &ui->lost_packets;
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

/* As less and vim: back at the cursor time this trace was left at. */
static void
reopen_where_left(struct tv_ui *ui)
{
	int64_t ts;

	if (!ui->have_sel || !tv_ui_lastpos_get(ui->set, &ts) ||
	    ts <= ui->sel.rec.ts || ts > ui->set->ts_end)
		return;
	tv_ui_goto_ts(ui, ts);
	if (!ui->msg[0])	/* a config error says more */
		tv_ui_message(ui, _("back where this trace was left; g: the first "
	    "event, --begin: start elsewhere"));
}

/*
 * A key bound to nothing: say so, and where help is the first time
 * only (less says it every time, which is noise after the first).
 */
static void
unknown_key(struct tv_ui *ui, int key)
{
	char name[32];

	tv_ui_key_text(key, name, sizeof(name));
	if (ui->unknown_said) {
		tv_ui_message(ui, _("unknown key: %s"), name);
		return;
	}
	ui->unknown_said = true;
	tv_ui_message(ui, _("unknown key: %s, F1 for help"), name);
}

/* Curses on, state set up, windows laid out; false if no terminal. */
static bool
ui_init(struct tv_ui *ui, struct tv_trace_set *set,
    const struct tv_ui_options *opts, SCREEN **scr)
{
	const char *delay;

	memset(ui, 0, sizeof(*ui));
	ui->set = set;
	ui->stats_scope.begin = ui->stats_scope.end = TV_TIME_NONE;
	if (strcmp(setlocale(LC_CTYPE, NULL), "C") == 0)
		setlocale(LC_CTYPE, "");
	tv_ui_signals_save_tty();
	*scr = newterm(NULL, stdout, stdin);
	if (!*scr)
		return false;
	set_term(*scr);
	tv_ui_signals_install();
	raw();
	noecho();
	nonl();
	curs_set(0);
	set_escdelay(25);
	tv_ui_mouse_capture(ui, true);
	mouseinterval(0);
	/* --time-format, else the config file's, else the reader's */
	ui->time_style_given = opts && opts->time_style_given;
	ui->time_style = ui->time_style_given ? opts->time_style :
	    tv_ui_default_time_style(set);
	ui->wall_style = tv_ui_wall_style(ui->time_style);
	ui->time_digits = tv_ui_default_time_digits(set);
	tv_ui_config_load(ui);
	init_attrs(ui);

	ui->merge = tv_merge_create(set);
	tv_arena_init(&ui->arena);
	ui->search_dir = +1;
	tv_ui_count_lost(ui);
	delay = getenv("TVIEW_UI_SCAN_DELAY_US");
	if (delay)
		ui->scan_delay_us = (unsigned)strtoul(delay, NULL, 10);
	/* tests: the search's worker walk from the first row, checked */
	delay = getenv("TVIEW_UI_SEARCH_NEAR");
	ui->search_near = delay ? strtoull(delay, NULL, 10) : 4096;
	ui->search_check = getenv("TVIEW_UI_SEARCH_CHECK") != NULL;
	tv_ui_render_widths(ui);
	tv_ui_session_init(ui);
	tv_ui_panes_init(ui);
	tv_ui_layout(ui);
	ui->panes[TV_UI_PANE_EVENTS].ops->request(ui,
	    &ui->panes[TV_UI_PANE_EVENTS], TV_UI_REQ_FIRST);
	if (opts && opts->initial_goto)
		tv_ui_goto_time_text(ui, opts->initial_goto);
	else
		reopen_where_left(ui);
	if (opts && opts->follow) {
		/* as less +F: from the end */
		if (!opts->initial_goto)
			ui->panes[TV_UI_PANE_EVENTS].ops->request(ui,
			    &ui->panes[TV_UI_PANE_EVENTS], TV_UI_REQ_LAST);
		tv_ui_follow_toggle(ui);
	}
	report_merge_error(ui);
	return true;
}

/* Curses off and every resource back. */
static void
ui_fini(struct tv_ui *ui, SCREEN *scr)
{
	int i;

	if (ui->have_sel)
		tv_ui_lastpos_put(ui->set, ui->sel.rec.ts);
	for (i = 0; i < TV_UI_NPANES; i++) {
		ui->panes[i].ops->fini(ui, &ui->panes[i]);
		if (ui->panes[i].win)
			delwin(ui->panes[i].win);
	}
	if (ui->status_win)
		delwin(ui->status_win);
	if (ui->msg_win)
		delwin(ui->msg_win);
	tv_ui_signals_restore();
	endwin();
	delscreen(scr);
	tv_ui_session_fini(ui);
	tv_ui_search_fini(ui);
	tv_ui_filter_fini(ui);
	tv_ui_jump_fini(ui);
	tv_ui_clip_fini(ui);
	tv_ui_position_fini();
	tv_ui_history_fini(ui);
	tv_arena_fini(&ui->arena);
	if (ui->merge)
		tv_merge_destroy(ui->merge);
}

/* The shortest of @ms and the waits the panes allow (-1: for ever). */
static int
wake_ms(struct tv_ui *ui, int ms)
{
	int i, w;

	for (i = 0; i < TV_UI_NPANES; i++) {
		if (!ui->panes[i].ops->wake_ms)
			continue;
		w = ui->panes[i].ops->wake_ms(ui, &ui->panes[i]);
		if (w >= 0 && (ms < 0 || w < ms))
			ms = w;
	}
	return ms;
}

/* A wake-up with no key: each pane looks at what moved beside it. */
static void
tick_panes(struct tv_ui *ui)
{
	int i;

	for (i = 0; i < TV_UI_NPANES; i++)
		if (ui->panes[i].ops->tick)
			ui->panes[i].ops->tick(ui, &ui->panes[i]);
	ui->status_dirty = true;
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
	bool was_running = false;
	int key, ms;

	why = terminal_problem();
	if (why) {
		fprintf(stderr, _("tview: cannot start the browser: %s; "
		    "use --dump to print the trace as text\n"), why);
		return TV_UI_EXIT_NO_TERMINAL;
	}
	if (!ui_init(&ui, set, opts, &scr)) {
		fprintf(stderr, _("tview: cannot start the browser on "
		    "TERM=%s; use --dump to print the trace as text\n"),
		    getenv("TERM"));
		return TV_UI_EXIT_NO_TERMINAL;
	}
	while (!ui.quit) {
		/* asked before drawing: a pass that ends during the draw
		 * still gets one more wake-up to show its final state */
		bool running = tv_ui_session_progress(&ui, &frac) ||
		    tv_ui_filter_running(&ui);

		/* one that ended while a key was handled has had no
		 * wake-up: its "indexing" would stay until the next key */
		if (was_running && !running)
			tick_panes(&ui);
		was_running = running;
		tv_ui_draw(&ui);
		/* while the background pass runs, wake up for its progress */
		ms = tv_ui_follow_wait_ms(&ui);
		if (running && (ms < 0 || ms > 250))
			ms = 250;
		wtimeout(ui.msg_win, wake_ms(&ui, ms));
		key = tv_ui_getkey(&ui, &wch);
		tv_ui_follow_poll(&ui);
		report_merge_error(&ui);
		if (key < 0) {
			tick_panes(&ui);
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
		if (tv_ui_keymap_lookup(key) == TV_UI_REQ_NONE)
			unknown_key(&ui, key);
		else
			tv_ui_dispatch(&ui, tv_ui_keymap_lookup(key));
		tv_ui_filter_key_done(&ui);
		report_merge_error(&ui);
	}
	ui_fini(&ui, scr);
	return 0;
}
