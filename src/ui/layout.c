/*
 * Pane geometry.  The only place that knows where things are on screen,
 * from each pane's place (main, bottom, bottom alone, overlay) and open
 * state; called at start, on KEY_RESIZE and whenever a pane opens, closes
 * or is maximised.  Windows are recreated at their new size each time.
 */
#include "ui-priv.h"

#define MIN_LINES	5
#define MIN_COLS	20

/* Give pane @id the rectangle @y,@x,@h,@w (h == 0 hides it). */
static void
place(struct tv_ui *ui, int id, int y, int x, int h, int w)
{
	struct tv_pane *p = &ui->panes[id];

	if (p->win) {
		delwin(p->win);
		p->win = NULL;
	}
	p->visible = h > 0 && w > 0;
	p->y = y;
	p->x = x;
	p->h = p->visible ? h : 0;
	p->w = p->visible ? w : 0;
	if (!p->visible)
		return;
	p->win = newwin(h, w, y, x);
	if (!p->win) {
		p->visible = false;
		return;
	}
	p->dirty = true;
}

/* Recompute every window from the terminal size and the panes' state. */
void
tv_ui_layout(struct tv_ui *ui)
{
	const struct tv_pane *ov = tv_ui_overlay(ui);
	int area, evh, i, n, k, x, alone = -1;
	int bottom[TV_UI_NPANES];

	getmaxyx(stdscr, ui->lines, ui->cols);
	tv_ui_render_widths(ui);	/* the name column fits the width */
	werase(stdscr);
	wnoutrefresh(stdscr);
	if (ui->status_win)
		delwin(ui->status_win);
	if (ui->msg_win)
		delwin(ui->msg_win);
	ui->status_win = NULL;
	ui->msg_win = NULL;
	ui->too_small = ui->lines < MIN_LINES || ui->cols < MIN_COLS;
	for (i = 0; i < TV_UI_NPANES; i++)
		place(ui, i, 0, 0, 0, 0);
	if (ui->too_small) {
		/* input still needs a window */
		ui->msg_win = newwin(1, TV_MAX(ui->cols, 1),
		    TV_MAX(ui->lines - 1, 0), 0);
		keypad(ui->msg_win, TRUE);
		return;
	}
	/* a long message wraps: the message window grows over the panes */
	ui->msg_lines = tv_ui_msg_lines(ui);
	area = ui->lines - 1 - ui->msg_lines;
	evh = TV_MAX(area * 3 / 5, 2);
	/* the bottom panes that are shown, left to right */
	for (i = 0, n = 0; i < TV_UI_NPANES; i++) {
		if (!tv_ui_pane_shown(ui, i))
			continue;
		if (ui->panes[i].ops->place == TV_PANE_BOTTOM_ALONE)
			alone = i;
		else if (ui->panes[i].ops->place == TV_PANE_BOTTOM)
			bottom[n++] = i;
	}
	if (ov) {
		place(ui, (int)(ov - ui->panes), 0, 0, area, ui->cols);
	} else if (alone >= 0) {
		/* it takes the bottom part alone; maximise does not apply */
		place(ui, TV_UI_PANE_EVENTS, 0, 0, evh, ui->cols);
		place(ui, alone, evh, 0, area - evh, ui->cols);
	} else if (n == 0) {
		place(ui, TV_UI_PANE_EVENTS, 0, 0, area, ui->cols);
	} else if (ui->maximised) {
		place(ui, ui->focus, 0, 0, area, ui->cols);
	} else {
		/* events on top; the bottom panes share the rest */
		place(ui, TV_UI_PANE_EVENTS, 0, 0, evh, ui->cols);
		for (k = 0, x = 0; k < n; k++) {
			int w = ui->cols * (k + 1) / n - x;

			place(ui, bottom[k], evh, x, area - evh, w);
			x += w;
		}
	}
	ui->status_win = newwin(1, ui->cols, area, 0);
	ui->msg_win = newwin(ui->msg_lines, ui->cols, area + 1, 0);
	keypad(ui->msg_win, TRUE);
	for (i = 0; i < TV_UI_NPANES; i++) {
		struct tv_pane *p = &ui->panes[i];

		if (p->visible && p->ops->resize)
			p->ops->resize(ui, p);
	}
	tv_ui_mark_all(ui);
}
