/*
 * Shared inside src/ui/ only: the browser's whole state (struct tv_ui) and
 * the entry points of its modules.  Nothing outside src/ui/ sees curses.
 */
#ifndef TVIEW_UI_PRIV_H
#define TVIEW_UI_PRIV_H

#include "tview/tview.h"
#include "tview/error.h"
#include "tview/trace.h"
#include "tview/merge.h"
#include "tview/time.h"
#include "tview/ui.h"
#include "tview/util.h"
#include "tview/i18n.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <wchar.h>
#include <curses.h>
#include "pane.h"
#include "request.h"

/* Function keys are stored with this bit so they never clash with chars. */
#define TV_UI_KEY_FN		0x40000000
#define TV_UI_CTRL(c)		((c) & 0x1f)
#define TV_UI_ESC		27

/* Attribute slots; colour pairs when allowed, plain attributes if not. */
enum tv_ui_attr {
	TV_UI_A_NORMAL,
	TV_UI_A_HEADER,
	TV_UI_A_SELECTED,
	TV_UI_A_SELECTED_DIM,	/* selection of an unfocused pane */
	TV_UI_A_STATUS,
	TV_UI_A_ERROR,
	TV_UI_A_SCOPE,
	TV_UI_A_TIME,
	TV_UI_A_NAME,
	TV_UI_A_CELL_RUN,	/* timeline: running */
	TV_UI_A_CELL_SYS,	/* timeline: in a system call or trap */
	TV_UI_A_CELL_IRQ,	/* timeline: in an interrupt */
	TV_UI_A_CELL_WAIT,	/* timeline: runnable, waiting for a CPU */
	TV_UI_A_COUNT,
};

enum tv_ui_hist_kind {
	TV_UI_HIST_COMMAND,
	TV_UI_HIST_SEARCH,
	TV_UI_HIST_TIME,
	TV_UI_HIST_PID,
	TV_UI_HIST_BOOKMARK,	/* prompt pre-filled with the caller's out */
	TV_UI_HIST_COUNT,
};

#define TV_UI_HIST_MAX	100

struct tv_ui_history {
	char		*items[TV_UI_HIST_MAX];	/* oldest first */
	int		 count;
};

struct tv_ui {
	struct tv_trace_set	*set;
	struct tv_merge		*merge;
	struct tv_arena		 arena;		/* decoded fields, per event */
	struct tv_pane		 panes[TV_UI_NPANES];
	int			 focus;		/* enum tv_ui_pane_id */
	bool			 maximised;
	struct tv_ui_session	*session;	/* owned: session-state.c */
	struct tv_ui_stats_job	*stats_job;	/* owned: pane-stats.c */
	int			 lines, cols;
	bool			 too_small;
	WINDOW			*status_win;
	WINDOW			*msg_win;	/* messages, prompts, input */
	bool			 status_dirty;
	bool			 msg_dirty;
	bool			 colour;
	chtype			 attrs[TV_UI_A_COUNT];
	enum tv_time_style	 time_style;
	enum tv_time_style	 wall_style;	/* UTC or local */
	int			 time_width;	/* columns of the time column */
	int			 name_width;	/* columns of the name column */
	bool			 have_sel;
	struct tv_event		 sel;		/* the selected event */
	char			 msg[512];
	bool			 msg_error;
	/* search */
	void			*re;		/* pcre2_code_8 */
	void			*md;		/* pcre2_match_data_8 */
	char			*pattern;
	int			 search_dir;	/* +1 or -1 */
	struct tv_ui_history	 hist[TV_UI_HIST_COUNT];
	uint64_t		 lost_total;	/* events the tracer lost */
	uint64_t		 lost_packets;
	unsigned		 scan_delay_us;	/* tests: slow scans down */
	/* process pane: Enter restricts ] [ and p to one thread */
	bool			 proc_filter;
	int64_t			 proc_tid;
	int64_t			 proc_pid;
	uint32_t		 proc_machine;
	char			 proc_name[32];
	bool			 merge_err_shown;	/* reported once */
	struct tv_ui_fview	*fview;		/* filter-view.c, owned */
	bool			 quit;
};

/* ui.c */
void	 tv_ui_message(struct tv_ui *ui, const char *fmt, ...)
	    TV_PRINTFLIKE(2, 3);
void	 tv_ui_error(struct tv_ui *ui, const char *fmt, ...)
	    TV_PRINTFLIKE(2, 3);
void	 tv_ui_draw(struct tv_ui *ui);
int	 tv_ui_getkey(struct tv_ui *ui, wint_t *wch);
void	 tv_ui_select(struct tv_ui *ui, const struct tv_event *ev);
void	 tv_ui_mark_all(struct tv_ui *ui);
void	 tv_ui_focus(struct tv_ui *ui, int pane);

/* list.c: cursor, paging and clicks of the list panes */
struct tv_ui_list {
	size_t		 cur;		/* the selected row */
	size_t		 top;		/* the first row shown */
	bool		 no_cursor;	/* text: only scrolls */
};
/** tv_ui_list_request() - a motion request over @n rows, @h shown. */
bool	 tv_ui_list_request(struct tv_ui_list *l, size_t n, int h,
	    enum tv_ui_req req);
/** tv_ui_list_fit() - keep the cursor on screen (before drawing). */
void	 tv_ui_list_fit(struct tv_ui_list *l, size_t n, int h);
/** tv_ui_list_click() - select shown row @row (0: the first); false if
 * there is none. */
bool	 tv_ui_list_click(struct tv_ui_list *l, size_t n, int h, int row);

/* layout.c */
void	 tv_ui_layout(struct tv_ui *ui);

/* keymap.c */
struct tv_ui_binding {
	int		 key;		/* char, or KEY_* | TV_UI_KEY_FN */
	const char	*label;		/* N_() key name for the help */
	enum tv_ui_req	 req;
};
enum tv_ui_req	 tv_ui_keymap_lookup(int key);
const struct tv_ui_binding *tv_ui_keymap(size_t *count);
int		 tv_ui_key_code(int ret, wint_t wch);

/* render.c */
void	 tv_ui_escape(struct tv_strbuf *sb, const char *s, size_t len);
void	 tv_ui_render_value(struct tv_strbuf *sb, const struct tv_value *v);
void	 tv_ui_render_int(struct tv_strbuf *sb, const struct tv_value *v);
int	 tv_ui_event_cpu(const struct tv_event *ev);
const char *tv_ui_event_name(const struct tv_event *ev);
void	 tv_ui_render_row(struct tv_ui *ui, const struct tv_event *ev,
	    struct tv_strbuf *sb);
void	 tv_ui_render_header(struct tv_ui *ui, struct tv_strbuf *sb);
void	 tv_ui_render_widths(struct tv_ui *ui);
void	 tv_ui_time_text(struct tv_ui *ui, const struct tv_event *ev,
	    char *buf, size_t size);
int	 tv_ui_put(WINDOW *w, int y, int x, const char *s, int maxcols);
int	 tv_ui_width(const char *s);

/* pane-events.c */
void	 tv_ui_events_goto(struct tv_ui *ui, const struct tv_event *ev);
enum tv_status tv_ui_merge_step(struct tv_ui *ui, int dir,
	    struct tv_event *out);
enum tv_status tv_ui_merge_step_raw(struct tv_ui *ui, int dir,
	    struct tv_event *out);
void	 tv_ui_events_lost_in_view(struct tv_ui *ui, uint64_t *events,
	    uint64_t *packets);

/* pane-fields.c, pane-help.c have only their ops. */

/* filter-view.c */
struct tv_ui_fview;
/** tv_ui_filter_command() - :filter EXPR (@out: :filter-out EXPR). */
void	 tv_ui_filter_command(struct tv_ui *ui, const char *arg, bool out);
/** tv_ui_filter_toggle() - F: the filters off / back on. */
void	 tv_ui_filter_toggle(struct tv_ui *ui);
/** tv_ui_filter_quick() - C, T, E: filter on the selection's CPU... */
void	 tv_ui_filter_quick(struct tv_ui *ui, enum tv_ui_req req);
/** tv_ui_filter_active() - filters stacked and on. */
bool	 tv_ui_filter_active(const struct tv_ui *ui);
/** tv_ui_filter_keep() - whether the filtered view shows @ev. */
bool	 tv_ui_filter_keep(struct tv_ui *ui, const struct tv_event *ev);
/** tv_ui_filter_status() - the status bar's filter and "N of M". */
void	 tv_ui_filter_status(struct tv_ui *ui, struct tv_strbuf *sb);
void	 tv_ui_filter_fini(struct tv_ui *ui);

/* position.c */
/** tv_ui_event_rank() - "event *n of *m" once every count is known. */
bool	 tv_ui_event_rank(struct tv_ui *ui, const struct tv_event *ev,
	    uint64_t *n, uint64_t *m);
void	 tv_ui_position_fini(void);

/* statusbar.c */
void	 tv_ui_status_draw(struct tv_ui *ui);
void	 tv_ui_msg_draw(struct tv_ui *ui);

/* prompt.c */
bool	 tv_ui_prompt(struct tv_ui *ui, enum tv_ui_hist_kind kind,
	    const char *label, char *out, size_t size);
void	 tv_ui_history_fini(struct tv_ui *ui);

/* command.c */
/* What a : command takes after its name. */
enum tv_ui_arg {
	TV_UI_ARG_NONE,		/* nothing (anything given is ignored) */
	TV_UI_ARG_TEXT,		/* free text, required */
	TV_UI_ARG_OPT_TEXT,	/* free text, may be empty */
	TV_UI_ARG_INT,		/* a decimal integer, required */
	TV_UI_ARG_EVENT,	/* an event name, required; Tab completes */
};

/* One line of a command's help: ":name ARGS   what it does". */
struct tv_ui_cmd_usage {
	const char	*args;		/* N_() synopsis, "" if none */
	const char	*help;		/* N_() */
};

struct tv_ui_cmd {
	const char	*name;
	const char	*alias;		/* NULL if none */
	enum tv_ui_arg	 arg;
	/* @n is the parsed number for TV_UI_ARG_INT, else 0 */
	void		(*run)(struct tv_ui *ui, const char *arg,
			    long long n);
	const struct tv_ui_cmd_usage *usage;	/* ended by { NULL } */
};
/** tv_ui_commands() - the table of : commands, for the help pane. */
const struct tv_ui_cmd *tv_ui_commands(size_t *count);
void	 tv_ui_command(struct tv_ui *ui, const char *line);
void	 tv_ui_goto_time_text(struct tv_ui *ui, const char *text);
void	 tv_ui_complete(struct tv_ui *ui, const char *line, size_t pos,
	    char ***cands, size_t *ncands);

/* dispatch.c */
/** tv_ui_dispatch() - do @req: focused pane, pane table, handlers. */
void	 tv_ui_dispatch(struct tv_ui *ui, enum tv_ui_req req);

/* session-state.c */
struct tv_state;
/** tv_ui_session_init() - the state index; starts the background pass. */
void	 tv_ui_session_init(struct tv_ui *ui);
void	 tv_ui_session_fini(struct tv_ui *ui);
/** tv_ui_session_progress() - true while the background pass runs. */
bool	 tv_ui_session_progress(struct tv_ui *ui, double *frac);
/** tv_ui_stats_job_fini() - cancel and free the statistics walk. */
void	 tv_ui_stats_job_fini(struct tv_ui *ui);
/** tv_ui_session_index() - the state index (for timelines). */
struct tv_state_index *tv_ui_session_index(struct tv_ui *ui);
/** tv_ui_session_reached() - the pass has walked up to @ts (or ended). */
bool	 tv_ui_session_reached(struct tv_ui *ui, int64_t ts);
/** tv_ui_session_state_at() - @st after event @ev (NULL: cleared). */
void	 tv_ui_session_state_at(struct tv_ui *ui, const struct tv_event *ev,
	    struct tv_state *st);
/**
 * tv_ui_session_owner() - the thread the state layer gives @ev (*tid,
 * *pid may be TV_TID_UNKNOWN); false for a lost-data record.  @dir is
 * the scan direction: owners are computed in windows.
 */
bool	 tv_ui_session_owner(struct tv_ui *ui, const struct tv_event *ev,
	    int dir, int64_t *tid, int64_t *pid);

/* pane-bookmarks.c */
/** tv_ui_bm_mark_of() - gutter mark of @ev: '*' start, '|' inside, 0. */
char	 tv_ui_bm_mark_of(struct tv_ui *ui, const struct tv_event *ev);
/** tv_ui_bm_may_quit() - save; if that fails, true only if y is typed. */
bool	 tv_ui_bm_may_quit(struct tv_ui *ui);
/** tv_ui_bm_status() - the status bar's bookmark count and place. */
void	 tv_ui_bm_status(struct tv_ui *ui, struct tv_strbuf *sb);

/* search.c */
typedef bool (*tv_ui_scan_pred)(struct tv_ui *ui, const struct tv_event *ev,
	    void *arg);
enum tv_status tv_ui_scan(struct tv_ui *ui, const struct tv_event *from,
	    bool inclusive, int dir, bool wrap,
	    tv_ui_scan_pred pred, void *arg, const char *what,
	    struct tv_event *hit, bool *wrapped);
void	 tv_ui_search_set(struct tv_ui *ui, const char *pattern, int dir);
void	 tv_ui_search_repeat(struct tv_ui *ui, bool reverse);
void	 tv_ui_search_fini(struct tv_ui *ui);
void	 tv_ui_jump_pid(struct tv_ui *ui, int64_t pid, int dir);
bool	 tv_ui_owner_pid(struct tv_ui *ui, const struct tv_event *ev,
	    int dir, int64_t *pid);
void	 tv_ui_jump_name(struct tv_ui *ui, const char *name, int dir);
/** tv_ui_jump_thread() - next/previous event of the restricted thread. */
void	 tv_ui_jump_thread(struct tv_ui *ui, int dir, bool by_pid);
void	 tv_ui_jump_cpu(struct tv_ui *ui, int cpu, int dir);
/** tv_ui_jump_match() - %: the matching event (match.h). */
void	 tv_ui_jump_match(struct tv_ui *ui);

#endif /* TVIEW_UI_PRIV_H */
