/*
 * Pane geometry.  The only place that knows where things are on screen;
 * called at start, on KEY_RESIZE and whenever a pane opens, closes or is
 * maximised.  Windows are recreated at their new size each time.
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

/* Recompute every window from the terminal size and the pane flags. */
void
tv_ui_layout(struct tv_ui *ui)
{
	int area, evh, i;

	getmaxyx(stdscr, ui->lines, ui->cols);
	werase(stdscr);
	wnoutrefresh(stdscr);
	if (ui->status_win)
		delwin(ui->status_win);
	if (ui->msg_win)
		delwin(ui->msg_win);
	ui->status_win = NULL;
	ui->msg_win = NULL;
	ui->too_small = ui->lines < MIN_LINES || ui->cols < MIN_COLS;
	if (ui->too_small) {
		for (i = 0; i < TV_UI_NPANES; i++)
			place(ui, i, 0, 0, 0, 0);
		/* input still needs a window */
		ui->msg_win = newwin(1, TV_MAX(ui->cols, 1),
		    TV_MAX(ui->lines - 1, 0), 0);
		keypad(ui->msg_win, TRUE);
		return;
	}
	area = ui->lines - 2;
	place(ui, TV_UI_PANE_PROCS, 0, 0, 0, 0);
	place(ui, TV_UI_PANE_BOOKMARKS, 0, 0, 0, 0);
	if (ui->bm_open && !ui->help_open) {
		/* the bookmark pane takes the bottom part alone */
		evh = TV_MAX(area * 3 / 5, 2);
		place(ui, TV_UI_PANE_EVENTS, 0, 0, evh, ui->cols);
		place(ui, TV_UI_PANE_FIELDS, 0, 0, 0, 0);
		place(ui, TV_UI_PANE_HELP, 0, 0, 0, 0);
		place(ui, TV_UI_PANE_BOOKMARKS, evh, 0, area - evh, ui->cols);
	} else if (ui->help_open) {
		place(ui, TV_UI_PANE_EVENTS, 0, 0, 0, 0);
		place(ui, TV_UI_PANE_FIELDS, 0, 0, 0, 0);
		place(ui, TV_UI_PANE_HELP, 0, 0, area, ui->cols);
	} else if (!ui->fields_open && !ui->procs_open) {
		place(ui, TV_UI_PANE_EVENTS, 0, 0, area, ui->cols);
		place(ui, TV_UI_PANE_FIELDS, 0, 0, 0, 0);
		place(ui, TV_UI_PANE_HELP, 0, 0, 0, 0);
	} else if (ui->maximised) {
		bool ev = ui->focus == TV_UI_PANE_EVENTS;
		bool fl = ui->focus == TV_UI_PANE_FIELDS;

		place(ui, TV_UI_PANE_EVENTS, 0, 0, ev ? area : 0, ui->cols);
		place(ui, TV_UI_PANE_FIELDS, 0, 0, fl ? area : 0, ui->cols);
		place(ui, TV_UI_PANE_PROCS, 0, 0, !ev && !fl ? area : 0,
		    ui->cols);
		place(ui, TV_UI_PANE_HELP, 0, 0, 0, 0);
	} else {
		/* events on top; fields and processes share the bottom */
		int half = ui->cols / 2;

		evh = TV_MAX(area * 3 / 5, 2);
		place(ui, TV_UI_PANE_EVENTS, 0, 0, evh, ui->cols);
		if (ui->fields_open && ui->procs_open) {
			place(ui, TV_UI_PANE_FIELDS, evh, 0, area - evh, half);
			place(ui, TV_UI_PANE_PROCS, evh, half, area - evh,
			    ui->cols - half);
		} else if (ui->fields_open) {
			place(ui, TV_UI_PANE_FIELDS, evh, 0, area - evh,
			    ui->cols);
		} else {
			place(ui, TV_UI_PANE_FIELDS, 0, 0, 0, 0);
			place(ui, TV_UI_PANE_PROCS, evh, 0, area - evh,
			    ui->cols);
		}
		place(ui, TV_UI_PANE_HELP, 0, 0, 0, 0);
	}
	ui->status_win = newwin(1, ui->cols, ui->lines - 2, 0);
	ui->msg_win = newwin(1, ui->cols, ui->lines - 1, 0);
	keypad(ui->msg_win, TRUE);
	for (i = 0; i < TV_UI_NPANES; i++) {
		struct tv_pane *p = &ui->panes[i];

		if (p->visible && p->ops->resize)
			p->ops->resize(ui, p);
	}
	tv_ui_mark_all(ui);
}
