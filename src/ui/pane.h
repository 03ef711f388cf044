/*
 * A pane is one rectangle of the screen with its own curses window and a
 * small vtable; the main loop only knows panes through these operations.
 */
#ifndef TVIEW_UI_PANE_H
#define TVIEW_UI_PANE_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <wchar.h>
#include <curses.h>
#include "request.h"

struct tv_ui;
struct tv_pane;

struct tv_pane_ops {
	const char	*name;
	void		(*init)(struct tv_ui *ui, struct tv_pane *p);
	void		(*fini)(struct tv_ui *ui, struct tv_pane *p);
	/* geometry changed: p->win already has the new size */
	void		(*resize)(struct tv_ui *ui, struct tv_pane *p);
	void		(*draw)(struct tv_ui *ui, struct tv_pane *p);
	/* true if the pane handled @req */
	bool		(*request)(struct tv_ui *ui, struct tv_pane *p,
			    enum tv_ui_req req);
	/* the selected event changed (ui->sel) */
	void		(*sync)(struct tv_ui *ui, struct tv_pane *p);
	/* mouse button 1 at window row @y; may be NULL */
	void		(*click)(struct tv_ui *ui, struct tv_pane *p, int y);
};

struct tv_pane {
	const struct tv_pane_ops *ops;
	WINDOW		*win;		/* NULL while hidden */
	int		 y, x, h, w;
	bool		 visible;
	bool		 dirty;
	void		*priv;
};

enum tv_ui_pane_id {
	TV_UI_PANE_EVENTS,
	TV_UI_PANE_FIELDS,
	TV_UI_PANE_HELP,
	TV_UI_PANE_PROCS,
	TV_UI_PANE_BOOKMARKS,
	TV_UI_NPANES,
};

extern const struct tv_pane_ops tv_ui_events_ops;
extern const struct tv_pane_ops tv_ui_fields_ops;
extern const struct tv_pane_ops tv_ui_help_ops;
extern const struct tv_pane_ops tv_ui_procs_ops;
extern const struct tv_pane_ops tv_ui_bookmarks_ops;

#endif /* TVIEW_UI_PANE_H */
