/*
 * Every action the browser knows, as one X-macro list: the enum, the
 * names (for the keymap table and :commands) and the help text all come
 * from here, so the help screen cannot drift from what the keys do.
 */
#ifndef TVIEW_UI_REQUEST_H
#define TVIEW_UI_REQUEST_H

#include "tview/i18n.h"

#define TV_UI_REQ_LIST(_)						\
	_(NONE,		"none",		N_("do nothing"))		\
	_(DOWN,		"down",		N_("next event / line"))	\
	_(UP,		"up",		N_("previous event / line"))	\
	_(PAGE_DOWN,	"page-down",	N_("one screen forward"))	\
	_(PAGE_UP,	"page-up",	N_("one screen back"))		\
	_(HALF_DOWN,	"half-down",	N_("half a screen forward"))	\
	_(HALF_UP,	"half-up",	N_("half a screen back"))	\
	_(FIRST,	"first",	N_("first event"))		\
	_(LAST,		"last",		N_("last event"))		\
	_(COMMAND,	"command",	N_("command line (the : commands are listed below)")) \
	_(TIME_PROMPT,	"time-prompt",	N_("go to a time (HH:MM:SS, +1ms, 50%)")) \
	_(SEARCH_FWD,	"search-forward",  N_("search forward (regex)"))	\
	_(SEARCH_BWD,	"search-backward", N_("search backward (regex)"))	\
	_(SEARCH_NEXT,	"search-next",	N_("repeat search"))		\
	_(SEARCH_PREV,	"search-prev",	N_("repeat search, other direction")) \
	_(PID_PROMPT,	"pid-prompt",	N_("go to the next event of a PID")) \
	_(PID_NEXT,	"pid-next",	N_("next event of the selected PID"))	\
	_(PID_PREV,	"pid-prev",	N_("previous event of the selected PID")) \
	_(NAME_NEXT,	"name-next",	N_("next event with the same name"))	\
	_(NAME_PREV,	"name-prev",	N_("previous event with the same name")) \
	_(MATCH,	"match",	N_("matching event: entry <-> exit, wake-up <-> switch-in, function <-> return")) \
	_(TIME_STYLE,	"time-style",	N_("cycle time display: wall, relative, seconds, raw clock")) \
	_(TIME_PRECISION, "time-precision", N_("times to the microsecond (as trace-cmd report) or to the nanosecond")) \
	_(FIELDS,	"fields",	N_("open the fields of the selected event")) \
	_(HEX,		"hex-dump",	N_("fields pane: raw bytes as a hex dump, field under the cursor lit")) \
	_(PROCS,	"processes",	N_("open the processes at the selected event")) \
	_(SORT,		"sort",		N_("sort the pane by its next order")) \
	_(BM_MARK,	"bookmark",	N_("bookmark the selected event (name and text optional)")) \
	_(BM_INTERVAL,	"bookmark-interval", N_("start / end an interval bookmark")) \
	_(BM_NEXT,	"bookmark-next", N_("next bookmark (in the bookmark pane: undo a deletion)")) \
	_(BM_PREV,	"bookmark-prev", N_("previous bookmark"))	\
	_(BOOKMARKS,	"bookmarks",	N_("open / close the bookmark pane")) \
	_(BM_EDIT,	"bookmark-edit", N_("edit the bookmark (in the pane, or at the selected event)")) \
	_(BM_DELETE,	"bookmark-delete", N_("delete the selected bookmark (bookmark pane)")) \
	_(STATS,	"statistics",	N_("open / close the statistics: events per class, CPU time per CPU and thread")) \
	_(STATS_SCOPE,	"stats-scope",	N_("statistics and latencies: count over the whole trace, the filtered events, or between the bookmarks around the selected event (:stats)")) \
	_(LATENCY,	"latency",	N_("open / close the latencies: wake-up, system calls, interrupts")) \
	_(TIMELINE,	"timeline",	N_("open / close the timeline: threads and CPUs over time")) \
	_(LEFT,		"left",		N_("event list: fields scrolled back; timeline: column cursor left")) \
	_(RIGHT,	"right",	N_("event list: fields scrolled sideways; timeline: column cursor right")) \
	_(PAN_LEFT,	"pan-left",	N_("timeline: half a window back")) \
	_(PAN_RIGHT,	"pan-right",	N_("timeline: half a window forward")) \
	_(ZOOM_IN,	"zoom-in",	N_("timeline: zoom in around the cursor")) \
	_(ZOOM_OUT,	"zoom-out",	N_("timeline: zoom out")) \
	_(IDLE_THREADS,	"idle-threads",	N_("timeline: hide / show threads that did not run")) \
	_(FILTER_PROMPT, "filter-prompt", N_("keep only the events a filter matches (:filter)")) \
	_(FILTER_TOGGLE, "filter-toggle", N_("switch the filters off / back on")) \
	_(FOLLOW,	"follow",	N_("follow the trace as it is written (as less +F)")) \
	_(FILTER_CPU,	"filter-cpu",	N_("keep only the selected event's CPU")) \
	_(FILTER_TASK,	"filter-task",	N_("keep only the selected event's process")) \
	_(FILTER_NAME,	"filter-name",	N_("keep only events named as the selected one")) \
	_(FOCUS_NEXT,	"focus-next",	N_("move focus to the next pane; with none open, forward in the jump list (Tab is Ctrl-I)"))	\
	_(MAXIMISE,	"maximise",	N_("maximise / restore the focused pane")) \
	_(CLOSE,	"close",	N_("close the help or fields pane"))	\
	_(JUMP_OLDER,	"jump-older",	N_("back to where the last jump started (jump list: g, G, :goto, t, searches, n, %, u, clicks)")) \
	_(JUMP_NEWER,	"jump-newer",	N_("forward in the jump list (Tab does it when no other pane is open)")) \
	_(JUMP_MARK,	"jump-back",	N_("'' (twice): to the place before the last jump, and back again")) \
	_(COPY,		"copy",		N_("copy the selected row (the fields, when focused) to the clipboard (OSC 52)")) \
	_(APPEND,	"append",	N_("append the selected row (the fields, when focused) to a file")) \
	_(MOUSE,	"mouse",	N_("mouse capture off / on (off: the terminal selects text)")) \
	_(COLOUR_BY,	"colour-by",	N_("colour rows by CPU, by event class, by task, or not")) \
	_(SUSPEND,	"suspend",	N_("suspend to the shell (fg resumes)")) \
	_(HELP,		"help",		N_("this help"))		\
	_(REDRAW,	"redraw",	N_("redraw the screen"))	\
	_(CANCEL,	"cancel",	N_("cancel (also stops a running search)")) \
	_(QUIT,		"quit",		N_("close the focused pane; quit from the event list"))

enum tv_ui_req {
#define TV_UI_REQ_ENUM(id, name, help) TV_UI_REQ_##id,
	TV_UI_REQ_LIST(TV_UI_REQ_ENUM)
#undef TV_UI_REQ_ENUM
	TV_UI_REQ_COUNT
};

/** tv_ui_req_name() - the request's stable name, e.g. "page-down". */
const char	*tv_ui_req_name(enum tv_ui_req req);
/** tv_ui_req_help() - the request's translated help text. */
const char	*tv_ui_req_help(enum tv_ui_req req);

#endif /* TVIEW_UI_REQUEST_H */
