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
#include "tview/pass.h"
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
	TV_UI_A_MATCH,		/* the text the search matched */
	TV_UI_A_COUNT,
};

/*
 * What the statistics and latency panes count over: the events the
 * filters keep or all, in [begin, end] (TV_TIME_NONE: open); @what names
 * a range from bookmarks ("" for times alone).  pane-stats.c.
 */
struct tv_ui_stats_scope {
	bool		 filtered;
	int64_t		 begin, end;
	char		 what[160];
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

/* columns.c: the event list's columns, in their default order */
enum tv_ui_col_id {
	TV_UI_COL_TIME,
	TV_UI_COL_CPU,
	TV_UI_COL_TRACE,
	TV_UI_COL_TASK,
	TV_UI_COL_EVENT,
	TV_UI_COL_FIELDS,
	TV_UI_COL_COUNT,
};

/* One column of a table: the event list's (columns.c), the process
   pane's. */
struct tv_ui_col {
	const char	*id;		/* as the config file names it */
	const char	*title;		/* N_() */
	int		 priority;	/* 0: kept; the highest goes first */
	int		 width;		/* default; 0: measured */
	int		 min;		/* shrinks no further; 0: width */
};

/*
 * What a search walk knows of the classes of @trace: cls[index] 1 when
 * it rules their rows out whole; the anchors their own text holds in
 * seen[index] when their rows show the record's text too (else the
 * class's text is not known: seen_ok[index] 0).
 */
struct tv_ui_ruled {
	const struct tv_trace	*trace;
	uint8_t			*cls;
	uint8_t			*seen_ok;
	uint64_t		*seen;
	uint32_t		 n;
};

/*
 * A search pattern that is plain text (literal.c): its bytes (lower-case
 * when @caseless) and its anchors, the letters the renderer never writes
 * itself, each with a slot (both cases share one when @caseless).
 */
struct tv_ui_literal {
	bool		 ok;		/* the pattern is plain text */
	bool		 prune;		/* its anchors rule rows out: plain
					   text, or a regex's required
					   letters (tv_ui_literal_required) */
	uint64_t	 task_anchors;	/* this walk, a regex: the anchors
					   some task name may hold */
	bool		 caseless;
	uint32_t	 len;
	char		 s[128];
	int8_t		 slot[256];	/* byte -> anchor slot, -1 if none */
	uint64_t	 anchors;	/* one bit per slot */
	int		 nanchors;
	bool		 task_never;	/* this walk: no task can hold it */
	/* this walk: per trace, the classes whose rows are all ruled out */
	struct tv_ui_ruled	*ruled;
	uint32_t	 nruled;
};

/* One column being fitted to a width. */
#define TV_UI_COLFIT_MAX	16
struct tv_ui_colfit {
	int		 want, min, priority;
	int		 width;		/* out: 0 when dropped */
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
	struct tv_ui_stats_scope stats_scope;	/* the next job's */
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
	int			 time_digits;	/* after the second: 6 or 9 */
	int			 time_width;	/* columns of the time column */
	int			 hscroll;	/* fields scrolled by, columns */
	int			 msg_lines;	/* a long message wraps */
	bool			 have_sel;
	struct tv_event		 sel;		/* the selected event */
	char			 msg[512];
	bool			 msg_error;
	/* search */
	void			*re;		/* pcre2_code_8 */
	void			*md;		/* pcre2_match_data_8 */
	char			*pattern;
	struct tv_ui_literal	 lit;		/* the pattern as plain text */
	int			 search_dir;	/* +1 or -1 */
	struct tv_ui_history	 hist[TV_UI_HIST_COUNT];
	uint64_t		 lost_total;	/* events the tracer lost */
	uint64_t		 lost_packets;
	unsigned		 scan_delay_us;	/* tests: slow scans down */
	uint64_t		 search_near;	/* rows a search looks at
						   before the workers start */
	bool			 search_check;	/* tests: every row the
						   workers render checked */
	/* process pane: Enter restricts ] [ and p to one thread */
	bool			 proc_filter;
	int64_t			 proc_tid;
	int64_t			 proc_pid;
	uint32_t		 proc_machine;
	char			 proc_name[32];
	bool			 merge_err_shown;	/* reported once */
	struct tv_ui_fview	*fview;		/* filter-view.c, owned */
	struct tv_ui_jumps	*jumps;		/* jumplist.c, owned */
	bool			 unknown_said;	/* "F1 for help" said once */
	bool			 mouse_off;	/* clip.c: # */
	/* config.c: the user's settings */
	bool			 time_style_given;	/* --time-format */
	int			 name_max;	/* event-width, 0: default */
	int			 col_order[TV_UI_COL_COUNT];	/* columns = */
	int			 col_given[TV_UI_COL_COUNT];	/* its widths */
	int			 ncol_order;	/* 0: the table's order */
	int			 col_width[TV_UI_COL_COUNT];	/* 0: not shown */
	bool			 colour_never;
	bool			 light;		/* theme = light */
	int			 colour_by;	/* enum tv_ui_colour_by */
	chtype			 palette[6];	/* colour-by rows */
	char			*clip_path;	/* clip.c: Y's last file */
	bool			 help_seen;	/* the hint leaves the status bar */
	bool			 search_failed;	/* the pattern leaves it too */
	/* follow.c: f, --follow */
	bool			 following;
	bool			 follow_look;	/* look now, grown or not */
	int64_t			 follow_next_ms;	/* the next look */
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
/** tv_ui_keymap_user() - the config file's bindings; their labels are
 * key names already translated, to print as they are. */
const struct tv_ui_binding *tv_ui_keymap_user(size_t *count);
int		 tv_ui_key_code(int ret, wint_t wch);
/** tv_ui_key_text() - @key as the help names it ("Ctrl-O", "F5", "y"). */
void		 tv_ui_key_text(int key, char *buf, size_t size);

/* render.c */
void	 tv_ui_escape(struct tv_strbuf *sb, const char *s, size_t len);
void	 tv_ui_render_value(struct tv_strbuf *sb, const struct tv_value *v);
void	 tv_ui_render_int(struct tv_strbuf *sb, const struct tv_value *v);
/* The label of enum value @v (every flag set, "A|B", for a bit map);
   false and nothing appended when no mapping holds it. */
bool	 tv_ui_render_label(struct tv_strbuf *sb, const struct tv_value *v);
int	 tv_ui_event_cpu(const struct tv_event *ev);
const char *tv_ui_event_name(const struct tv_event *ev);
void	 tv_ui_render_row(struct tv_ui *ui, const struct tv_event *ev,
	    struct tv_strbuf *sb);
/*
 * A search worker renders the row without the task column, which only
 * the UI thread can name (the session's owner windows): where it goes
 * (@at, from the row's start) and its width are left here, and
 * tv_ui_render_row_task() puts the task of owner @o there (the UI
 * thread's, from an owner walk), giving tv_ui_render_row()'s text.  The
 * deferred render reads @ui without writing it, so workers may run it
 * while the UI thread waits for their rows.  @decoded: the event's
 * payload at least, decoded into @arena already (NULL: its own scopes
 * decoded here); without its contexts the task is left to the UI thread.
 */
struct tv_ui_row_task {
	size_t	 at;
	int	 width;
	bool	 done;	/* the event's own fields named the whole owner:
			   the task is in the row already */
};
void	 tv_ui_render_row_deferred(struct tv_ui *ui,
	    const struct tv_event *ev, struct tv_arena *arena,
	    struct tv_strbuf *sb, struct tv_ui_row_task *task,
	    const struct tv_event_fields *decoded);
struct tv_event_owner;
void	 tv_ui_render_row_task(const struct tv_event_owner *o,
	    const char *part, size_t len, const struct tv_ui_row_task *task,
	    struct tv_strbuf *sb);
void	 tv_ui_render_header(struct tv_ui *ui, struct tv_strbuf *sb);
/** tv_ui_render_shown() - the row as on screen: long names cut in their
 * middle, the fields scrolled by ui->hscroll. */
void	 tv_ui_render_shown(struct tv_ui *ui, const struct tv_event *ev,
	    struct tv_strbuf *sb);
void	 tv_ui_render_widths(struct tv_ui *ui);
void	 tv_ui_time_text(struct tv_ui *ui, const struct tv_event *ev,
	    char *buf, size_t size);
int	 tv_ui_put(WINDOW *w, int y, int x, const char *s, int maxcols);
int	 tv_ui_width(const char *s);
/** tv_ui_add_cut() - append @s padded to @width columns, cut in its
 * middle ("head…tail") if wider. */
void	 tv_ui_add_cut(struct tv_strbuf *sb, const char *s, int width);
/** tv_ui_put_cut() - @s in @cols columns, cut in its middle if wider. */
int	 tv_ui_put_cut(WINDOW *win, int y, int x, const char *s, int cols);

/* columns.c */
/** tv_ui_column() - the table's entry of column @id (enum tv_ui_col_id). */
const struct tv_ui_col *tv_ui_column(int id);
/** tv_ui_columns_fit() - widths of @n columns in @room columns with @gap
 * between them: the least priority shrinks, then goes; the last takes
 * what is left.  The one rule for every table of columns. */
void	 tv_ui_columns_fit(struct tv_ui_colfit *c, int n, int room, int gap);
/** tv_ui_columns_parse() - the config's "columns = time, event:20, ...";
 * NULL, or what is wrong (then the default order stays). */
const char *tv_ui_columns_parse(struct tv_ui *ui, const char *val);
/** tv_ui_columns_layout() - ui->col_width from the screen width and
 * @measured (see columns.c). */
void	 tv_ui_columns_layout(struct tv_ui *ui, const int *measured);

/* row-columns.c: the task (and trace) columns of a row */
/** tv_ui_task_text() - append the task of @ev: comm-tid (pid), or -. */
void	 tv_ui_task_text(struct tv_ui *ui, const struct tv_event *ev,
	    struct tv_strbuf *sb);
/** tv_ui_owner_text() - the same for owner @o (NULL: unknown). */
void	 tv_ui_owner_text(const struct tv_event_owner *o,
	    struct tv_strbuf *sb);

/**
 * tv_ui_time() - @ns in @style (@ref for relative) with the chosen digits
 * after the second: every time the browser shows goes through it.
 */
char	*tv_ui_time(const struct tv_ui *ui, int64_t ns,
	    enum tv_time_style style, int64_t ref, char *buf, size_t size);
/** tv_ui_wall_style() - the absolute time style shown beside @style. */
enum tv_time_style tv_ui_wall_style(enum tv_time_style style);
/** tv_ui_trace_width() - columns of the trace column, 0: not shown. */
int	 tv_ui_trace_width(const struct tv_ui *ui);
/** tv_ui_trace_text() - append the name of @ev's trace. */
void	 tv_ui_trace_text(struct tv_ui *ui, const struct tv_event *ev,
	    struct tv_strbuf *sb);
/** tv_ui_relative_origin() - the time @ev's relative time counts from. */
int64_t	 tv_ui_relative_origin(struct tv_ui *ui, const struct tv_event *ev);

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
/**
 * tv_ui_filter_skip() - called by a walk that has skipped @skipped hidden
 * records and stands at @at: polls the keyboard now and then, shows how
 * far it is; true when the user cancelled (Esc), until the next key.
 */
bool	 tv_ui_filter_skip(struct tv_ui *ui, uint64_t skipped,
	    const struct tv_event *at);
/** tv_ui_filter_key_done() - after a key: replay what was typed meanwhile. */
void	 tv_ui_filter_key_done(struct tv_ui *ui);
/** tv_ui_filter_running() - the background pass has not finished. */
bool	 tv_ui_filter_running(const struct tv_ui *ui);
/**
 * tv_ui_filter_pass() - the background pass of the filters when they
 * are on (else NULL); *@gen changes each time it is replaced.
 */
const struct tv_pass *tv_ui_filter_pass(const struct tv_ui *ui,
	    unsigned *gen);
/**
 * tv_ui_filter_keeper() - a predicate for another walk (a worker
 * thread's): whether the filters keep an event, from the pass's bitmaps
 * where done, else asking the filters with the walk's owner.  False when
 * no filter is on.  Valid until the filters change: the walk must have
 * ended by then (tv_ui_stats_filters_changed()).
 */
bool	 tv_ui_filter_keeper(struct tv_ui *ui, tv_pass_pred *pred,
	    void **arg);
/** tv_ui_filter_status() - the status bar's filter and "N of M". */
void	 tv_ui_filter_status(struct tv_ui *ui, struct tv_strbuf *sb);
void	 tv_ui_filter_fini(struct tv_ui *ui);

/* follow.c */
/** tv_ui_follow_toggle() - f: follow the trace as it is written, or stop. */
void	 tv_ui_follow_toggle(struct tv_ui *ui);
/**
 * tv_ui_follow_poll() - while following, take in what the trace gained
 * (every TV_UI_FOLLOW_MS); the main loop calls it on every wake-up.
 */
void	 tv_ui_follow_poll(struct tv_ui *ui);
/** tv_ui_follow_wait_ms() - how long the main loop may sleep (-1: ever). */
int	 tv_ui_follow_wait_ms(const struct tv_ui *ui);
/** tv_ui_count_lost() - the events and packets the tracer lost. */
void	 tv_ui_count_lost(struct tv_ui *ui);
/** tv_ui_filter_suspend() - stop the filters' background pass. */
void	 tv_ui_filter_suspend(struct tv_ui *ui);
/** tv_ui_filter_resume() - start it again (the trace grew). */
void	 tv_ui_filter_resume(struct tv_ui *ui);
/**
 * tv_ui_events_reload() - the event list made again around the
 * selection, on its row (the trace grew), or showing the last event
 * (@to_end).
 */
void	 tv_ui_events_reload(struct tv_ui *ui, bool to_end);

/* position.c */
/** tv_ui_event_rank() - "event *n of *m" once every count is known. */
bool	 tv_ui_event_rank(struct tv_ui *ui, const struct tv_event *ev,
	    uint64_t *n, uint64_t *m);
void	 tv_ui_position_fini(void);

/* signals.c */
/** tv_ui_signals_install() - on a fatal signal, the terminal back first;
 * tv_ui_signals_save_tty() before newterm() keeps the modes to restore. */
void	 tv_ui_signals_install(void);
void	 tv_ui_signals_save_tty(void);
void	 tv_ui_signals_restore(void);

/* statusbar.c */
void	 tv_ui_status_draw(struct tv_ui *ui);
void	 tv_ui_msg_draw(struct tv_ui *ui);
#define TV_UI_MSG_LINES	4	/* the most a long message wraps to */
/** tv_ui_msg_lines() - the lines the current message needs. */
int	 tv_ui_msg_lines(const struct tv_ui *ui);

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
/** tv_ui_goto_ts() - the first event at or after @ts (else the last). */
void	 tv_ui_goto_ts(struct tv_ui *ui, int64_t ts);
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
/**
 * tv_ui_session_pause() - stop the background pass before the set is
 * extended; tv_ui_session_extend() after: it goes on from where it was.
 */
void	 tv_ui_session_pause(struct tv_ui *ui);
void	 tv_ui_session_extend(struct tv_ui *ui);
/** tv_ui_session_progress() - true while the background pass runs. */
bool	 tv_ui_session_progress(struct tv_ui *ui, double *frac);
/** tv_ui_stats_job_fini() - cancel and free the statistics walk. */
void	 tv_ui_stats_job_fini(struct tv_ui *ui);
/**
 * tv_ui_stats_pause() / tv_ui_stats_extend() - around extending a
 * followed set: stop the statistics walk, keeping what it counted; then
 * have it go on over what the trace gained when a pane next shows it.
 */
void	 tv_ui_stats_pause(struct tv_ui *ui);
void	 tv_ui_stats_extend(struct tv_ui *ui);
/**
 * tv_ui_stats_filters_changed() - the filters are about to change: a
 * walk counting through them stops (it is started again when drawn).
 */
void	 tv_ui_stats_filters_changed(struct tv_ui *ui);
/** tv_ui_stats_command() - :stats [filter] [bookmarks | A [B]]. */
void	 tv_ui_stats_command(struct tv_ui *ui, const char *arg);
/**
 * tv_ui_session_owner_names() - every name a task column can show, in
 * *@names (*@n of them): the background pass's once it ended, else read
 * now on every core (kept for the set as it is; Esc, read through @ta,
 * stops it): 1; 0 when they are not known (no session), -1 when Esc
 * stopped the reading.
 */
struct tv_ui_typeahead;
int	 tv_ui_session_owner_names(struct tv_ui *ui,
	    struct tv_ui_typeahead *ta, const char *const **names, size_t *n);
/**
 * tv_ui_session_owner_absent() - 1 when no event can be owned by a
 * thread whose tid or pid is @id, read as tv_ui_session_owner_names()
 * reads the names (the pass held meanwhile) unless the pass is past
 * half the trace; 0 when it may be, or that is not known; -1 when Esc
 * stopped the reading.
 */
int	 tv_ui_session_owner_absent(struct tv_ui *ui,
	    struct tv_ui_typeahead *ta, int64_t id);
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
struct tv_event_owner;
/**
 * tv_ui_session_owner_of() - the same, whole (the thread's name too);
 * NULL when unknown; valid until the next call.  @dir 0: the direction
 * guessed from the last window (rows and searches, which do not say).
 */
const struct tv_event_owner *tv_ui_session_owner_of(struct tv_ui *ui,
	    const struct tv_event *ev, int dir);
/*
 * An owner walk: the owners tv_ui_session_owner_of() gives, for a scan
 * handed every record in timeline order from any one on (the first it
 * is given), each given once: no merger of its own reads them again.
 * tv_ui_owner_walk_next() is NULL when unknown, valid until the next.
 */
struct tv_ui_owner_walk;
struct tv_ui_owner_walk *tv_ui_owner_walk_create(struct tv_ui *ui);
const struct tv_event_owner *tv_ui_owner_walk_next(struct tv_ui *ui,
	    struct tv_ui_owner_walk *ow, const struct tv_event *ev);
void	 tv_ui_owner_walk_destroy(struct tv_ui_owner_walk *ow);

/* pane-bookmarks.c */
/** tv_ui_bm_mark_of() - gutter mark of @ev: '*' start, '|' inside, 0. */
char	 tv_ui_bm_mark_of(struct tv_ui *ui, const struct tv_event *ev);
/** tv_ui_bm_may_quit() - save; if that fails, true only if y is typed. */
bool	 tv_ui_bm_may_quit(struct tv_ui *ui);
/**
 * tv_ui_bm_set() - the bookmarks of trace @k of the set (NULL when
 * unavailable or @k is past the last trace).
 */
const struct tv_bookmarks *tv_ui_bm_set(struct tv_ui *ui, uint32_t k);
/**
 * tv_ui_bm_range() - the bookmarked range around @ts: the interval
 * bookmark holding it, else from the last bookmark at or before it to
 * the next one after it (either side open: TV_TIME_NONE).  @what gets
 * the bookmarks' names.  False when there is no bookmark.
 */
bool	 tv_ui_bm_range(struct tv_ui *ui, int64_t ts, int64_t *begin,
	    int64_t *end, char *what, size_t size);
/** tv_ui_bm_named() - the start and end of the bookmark named @name. */
bool	 tv_ui_bm_named(struct tv_ui *ui, const char *name, int64_t *start,
	    int64_t *end);
/** tv_ui_bm_status() - the status bar's bookmark count and place. */
void	 tv_ui_bm_status(struct tv_ui *ui, struct tv_strbuf *sb);

/* jumplist.c */
struct tv_ui_jumps;
/** tv_ui_jump_req() - whether @req is a jump (the list records it). */
bool	 tv_ui_jump_req(const struct tv_ui *ui, enum tv_ui_req req);
/** tv_ui_jump_moved() - after a jump: record @before if the selection
 * moved (@had: there was a selection). */
void	 tv_ui_jump_moved(struct tv_ui *ui, bool had,
	    const struct tv_event *before);
/** tv_ui_jump_step() - Ctrl-O (@dir -1), Ctrl-I (+1). */
void	 tv_ui_jump_step(struct tv_ui *ui, int dir);
/** tv_ui_jump_last() - '': before the last jump, and back. */
void	 tv_ui_jump_last(struct tv_ui *ui);
void	 tv_ui_jump_fini(struct tv_ui *ui);

/* clip.c */
/** tv_ui_mouse_capture() - ask curses for the mouse, or not. */
void	 tv_ui_mouse_capture(struct tv_ui *ui, bool on);
/** tv_ui_mouse_toggle() - #. */
void	 tv_ui_mouse_toggle(struct tv_ui *ui);
/** tv_ui_clip_copy() - y: to the terminal's clipboard (OSC 52). */
void	 tv_ui_clip_copy(struct tv_ui *ui);
/** tv_ui_clip_append() - Y: appended to a file the user names. */
void	 tv_ui_clip_append(struct tv_ui *ui);
void	 tv_ui_clip_fini(struct tv_ui *ui);

/* config.c */
/** tv_ui_config_load() - $XDG_CONFIG_HOME/tview/config, errors shown. */
void	 tv_ui_config_load(struct tv_ui *ui);
enum tv_ui_colour_by {
	TV_UI_COLOUR_NONE,
	TV_UI_COLOUR_CPU,
	TV_UI_COLOUR_EVENT,
	TV_UI_COLOUR_TASK,
	TV_UI_COLOUR_COUNT,
};
/** tv_ui_colour_by_parse() - "none", "cpu", "event", "task", or -1. */
int	 tv_ui_colour_by_parse(const char *s);
/** tv_ui_row_attr() - the colour of @ev's row (colour-by). */
chtype	 tv_ui_row_attr(struct tv_ui *ui, const struct tv_event *ev);
/** tv_ui_colour_cycle() - K: none, CPU, event class, task. */
void	 tv_ui_colour_cycle(struct tv_ui *ui);
/** tv_ui_keymap_bind() - a config key binding; NULL or what is wrong. */
const char *tv_ui_keymap_bind(const char *key, const char *req);

/* lastpos.c */
/** tv_ui_lastpos_get() - the cursor time @set was left at, if known. */
bool	 tv_ui_lastpos_get(const struct tv_trace_set *set, int64_t *ts);
/** tv_ui_lastpos_put() - remember @ts as where @set was left. */
void	 tv_ui_lastpos_put(const struct tv_trace_set *set, int64_t ts);

/* search.c */
/* Keys typed during a scan, replayed after it (up to a few). */
struct tv_ui_typeahead {
	int	 keys[32];
	int	 n;
	bool	 resized;	/* lay out again after the scan */
};
/** tv_ui_poll_cancel() - true when Esc or Ctrl-C is waiting; other keys
 * are kept in @ta for tv_ui_replay_keys(). */
bool	 tv_ui_poll_cancel(struct tv_ui *ui, struct tv_ui_typeahead *ta);
/* Both scans (search.c, search-walk.c): records between two looks at the
   keyboard, and how long a scan runs before it shows its progress. */
#define POLL_EVERY	256
#define PROGRESS_MS	150
/** tv_ui_scan_progress() - how far a long scan is, on the message line. */
void	 tv_ui_scan_progress(struct tv_ui *ui, const char *what,
	    const struct tv_event *ev);
/**
 * tv_ui_search_walk() - the current pattern over the records after @from
 * (NULL: from the trace's end behind) in direction @dir up to @stop
 * included (NULL: to the trace's end ahead), on every core, the filters
 * applied: TV_OK with the nearest match in *hit, TV_NOT_FOUND, or
 * TV_CANCELLED (Esc; typed keys kept in @ta).
 */
enum tv_status tv_ui_search_walk(struct tv_ui *ui,
	    const struct tv_event *from, int dir, const struct tv_event *stop,
	    struct tv_event *hit, struct tv_ui_typeahead *ta);
/** tv_ui_replay_keys() - give the keys of @ta back to the input queue. */
void	 tv_ui_replay_keys(struct tv_ui_typeahead *ta);
typedef bool (*tv_ui_scan_pred)(struct tv_ui *ui, const struct tv_event *ev,
	    void *arg);
enum tv_status tv_ui_scan(struct tv_ui *ui, const struct tv_event *from,
	    bool inclusive, int dir, bool wrap,
	    tv_ui_scan_pred pred, void *arg, const char *what,
	    struct tv_event *hit, bool *wrapped);
void	 tv_ui_search_set(struct tv_ui *ui, const char *pattern, int dir);
/**
 * tv_ui_literal_compile() - @lit from @pattern when it is plain text that
 * literal.c finds as PCRE2 would (@caseless: smart case said so); false
 * (and lit->ok false) when it is not.
 */
bool	 tv_ui_literal_compile(const char *pattern, bool caseless,
	    struct tv_ui_literal *lit);
/**
 * tv_ui_literal_required() - @lit for a regular expression that every
 * match holds each byte of @units in (PCRE2's first and last required
 * code units): its anchors only, to rule rows out by (lit->prune), in
 * either case; lit->ok stays false (the regex engine decides the rest).
 */
void	 tv_ui_literal_required(const uint32_t *units, size_t n,
	    struct tv_ui_literal *lit);
/** tv_ui_literal_find() - whether @lit occurs in the @n bytes at @s. */
bool	 tv_ui_literal_find(const struct tv_ui_literal *lit, const char *s,
	    size_t n);
/** tv_ui_literal_see() - the anchor slots of @lit met in @s into *@seen. */
void	 tv_ui_literal_see(const struct tv_ui_literal *lit, const char *s,
	    size_t n, uint64_t *seen);
/** tv_ui_literal_see_str() - the same for the NUL-terminated @s. */
void	 tv_ui_literal_see_str(const struct tv_ui_literal *lit, const char *s,
	    uint64_t *seen);
/* What the rows of an event class show besides what the renderer makes up. */
enum tv_ui_class_text {
	TV_UI_CLASS_OWN,	/* the format writes the row's text */
	TV_UI_CLASS_STATIC,	/* only its class's: names, labels; and
				   few enough values never to fail */
	TV_UI_CLASS_RECORD,	/* also the record's strings, text arrays */
};
/**
 * tv_ui_class_text() - what the rows of class @ec of @t show (above);
 * the anchors of ui->lit in the class's own text (its name, its
 * payload's member and option names and labels, @t's name) in *@seen.
 * A STATIC class missing an anchor is ruled out whole, once the decoder
 * has read past its records (render.c).
 */
enum tv_ui_class_text tv_ui_class_text(struct tv_ui *ui,
	    const struct tv_trace *t, const struct tv_event_class *ec,
	    uint64_t *seen);
/**
 * tv_ui_row_may_hold() - false when the row of event @ev, decoded into
 * @f, cannot hold ui->lit outside its task column: some anchor of it is
 * in none of the texts the row shows (render.c, beside the renderer).
 * @class_seen: what tv_ui_class_text() gave for its class, or NULL to
 * work it out here.  Rows whose format writes its own text are not
 * ruled out.
 */
bool	 tv_ui_row_may_hold(struct tv_ui *ui, const struct tv_event *ev,
	    const struct tv_event_fields *f, const uint64_t *class_seen);
/**
 * tv_ui_payload_may_hold() - tv_ui_row_may_hold() of event @ev, a class
 * whose tv_ui_class_text() gave @class_seen, from its payload decoded a
 * member at a time into @arena (tv_event_visit_payload: no tree), into
 * *@may.  Not TV_OK when the payload does not decode: the row shows why.
 */
enum tv_status tv_ui_payload_may_hold(struct tv_ui *ui,
	    const struct tv_event *ev, struct tv_arena *arena,
	    uint64_t class_seen, bool *may);
/**
 * tv_ui_fields_owner() - the owner the event's own fields @f name whole
 * (thread, process and command, as LTTng-UST's contexts do), the one the
 * state would give too; false when they do not.
 */
bool	 tv_ui_fields_owner(const struct tv_event_fields *f,
	    struct tv_event_owner *o);
/**
 * tv_ui_search_span() - the first match of the current search in @s
 * (@len bytes) at or after byte @from: bytes [*b, *e); false if none
 * (or an empty match).
 */
bool	 tv_ui_search_span(struct tv_ui *ui, const char *s, size_t len,
	    size_t from, size_t *b, size_t *e);
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
