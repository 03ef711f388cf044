/*
 * A pane is one rectangle of the screen with its own curses window and a
 * small vtable; the main loop only knows panes through these operations.
 * The vtable also says where the pane goes (layout.c), which request
 * opens it and how it closes (pane.c), so a new pane is its own file plus
 * one line of TV_UI_PANE_LIST.
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
struct tv_strbuf;

/* Where a pane goes on the screen; layout.c reads it. */
enum tv_pane_place {
	TV_PANE_MAIN,		/* the event list: on top, always open */
	TV_PANE_BOTTOM,		/* under it, beside the other bottom panes */
	TV_PANE_BOTTOM_ALONE,	/* under it, hiding the bottom panes */
	TV_PANE_OVERLAY,	/* the whole area; has the keys while open */
};

/* tv_pane_ops.flags */
#define TV_PANE_TOGGLE		0x1	/* its open request closes it when
					   it has the focus */
#define TV_PANE_ESC_ANYWHERE	0x2	/* Esc in the main pane closes it */

struct tv_pane_ops {
	const char	*name;
	enum tv_pane_place place;
	enum tv_ui_req	 open_req;	/* opens it; NONE for the main pane */
	unsigned	 flags;		/* TV_PANE_* */
	void		(*init)(struct tv_ui *ui, struct tv_pane *p);
	void		(*fini)(struct tv_ui *ui, struct tv_pane *p);
	/* geometry changed: p->win already has the new size; may be NULL */
	void		(*resize)(struct tv_ui *ui, struct tv_pane *p);
	void		(*draw)(struct tv_ui *ui, struct tv_pane *p);
	/* the pane has the focus (or is the open overlay): true if it
	   handled @req; what it leaves goes to the generic handlers */
	bool		(*request)(struct tv_ui *ui, struct tv_pane *p,
			    enum tv_ui_req req);
	/* the selected event changed (ui->sel); may be NULL */
	void		(*sync)(struct tv_ui *ui, struct tv_pane *p);
	/* mouse button 1 at window row @y; may be NULL */
	void		(*click)(struct tv_ui *ui, struct tv_pane *p, int y);
	/* may it open now?  false with a message if not; may be NULL */
	bool		(*can_open)(struct tv_ui *ui, struct tv_pane *p);
	/* it was just closed; may be NULL */
	void		(*closed)(struct tv_ui *ui, struct tv_pane *p);
	/* requests it serves whatever has the focus (m, u in the event
	   list), asked when no generic handler took them; may be NULL */
	bool		(*global)(struct tv_ui *ui, struct tv_pane *p,
			    enum tv_ui_req req);
	/* the longest wait for a key it allows, in ms, -1 for ever, and
	   what to do when that wait ends without a key; may be NULL */
	int		(*wake_ms)(struct tv_ui *ui, struct tv_pane *p);
	/* y and Y with the focus here: its text to copy, false to copy
	   the selected row instead; may be NULL */
	bool		(*copy)(struct tv_ui *ui, struct tv_pane *p,
			    struct tv_strbuf *sb);
	void		(*tick)(struct tv_ui *ui, struct tv_pane *p);
};

struct tv_pane {
	const struct tv_pane_ops *ops;
	WINDOW		*win;		/* NULL while hidden */
	int		 y, x, h, w;
	bool		 open;		/* opened by the user (main: always) */
	bool		 visible;	/* on screen now (open, not hidden by
					   another pane or a maximised one) */
	bool		 dirty;
	void		*priv;
};

/*
 * Every pane, in Tab order (bottom panes also left to right): the id
 * and its ops.  The focus is ui->focus, one of these ids.
 */
#define TV_UI_PANE_LIST(_)						\
	_(EVENTS,	tv_ui_events_ops)				\
	_(FIELDS,	tv_ui_fields_ops)				\
	_(HELP,		tv_ui_help_ops)					\
	_(PROCS,	tv_ui_procs_ops)				\
	_(BOOKMARKS,	tv_ui_bookmarks_ops)				\
	_(TIMELINE,	tv_ui_timeline_ops)				\
	_(STATS,	tv_ui_stats_ops)				\
	_(LATENCY,	tv_ui_latency_ops)

enum tv_ui_pane_id {
#define TV_UI_PANE_ENUM(id, ops) TV_UI_PANE_##id,
	TV_UI_PANE_LIST(TV_UI_PANE_ENUM)
#undef TV_UI_PANE_ENUM
	TV_UI_NPANES
};

#define TV_UI_PANE_EXTERN(id, ops) extern const struct tv_pane_ops ops;
TV_UI_PANE_LIST(TV_UI_PANE_EXTERN)
#undef TV_UI_PANE_EXTERN

/* pane.c */
/** tv_ui_panes_init() - every pane's ops and init; the main one open. */
void	 tv_ui_panes_init(struct tv_ui *ui);
/** tv_ui_pane_open() - open pane @id (focused unless an overlay). */
void	 tv_ui_pane_open(struct tv_ui *ui, int id);
/** tv_ui_pane_close() - close pane @id; the focus goes to the main one. */
void	 tv_ui_pane_close(struct tv_ui *ui, int id);
/** tv_ui_pane_shown() - open and not hidden by another (maximise aside). */
bool	 tv_ui_pane_shown(const struct tv_ui *ui, int id);
/** tv_ui_overlay() - the open overlay pane, or NULL. */
struct tv_pane *tv_ui_overlay(struct tv_ui *ui);
/** tv_ui_has_focus() - whether @p is the focused pane. */
bool	 tv_ui_has_focus(const struct tv_ui *ui, const struct tv_pane *p);
/** tv_ui_pane_request() - a pane's open request: open, focus or close. */
bool	 tv_ui_pane_request(struct tv_ui *ui, enum tv_ui_req req);
/** tv_ui_focus_next() - Tab: the next shown pane, in table order. */
void	 tv_ui_focus_next(struct tv_ui *ui);

#endif /* TVIEW_UI_PANE_H */
