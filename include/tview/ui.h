/*
 * The interactive terminal browser.  main.c hands it an opened trace set;
 * everything curses lives behind this one call in src/ui/.
 */
#ifndef TVIEW_UI_H
#define TVIEW_UI_H

#include "tview/trace.h"
#include "tview/time.h"

struct tv_ui_options {
	enum tv_time_style	 time_style;	/* initial time column style */
	/* --time-format given: over the config file's and the default */
	bool			 time_style_given;
	const char		*initial_goto;	/* a :goto argument, or NULL */
	bool			 follow;	/* --follow: start following */
};

/*
 * The exit status when the browser cannot start (no usable terminal): not
 * 1, which says a trace could not be read, nor 2, a usage error.
 */
#define TV_UI_EXIT_NO_TERMINAL	3

/**
 * tv_ui_default_time_style() - the time style @set is shown in unless the
 * user chose one: its formats' reference readers' (trace-cmd report's
 * seconds for a trace.dat boot or local clock, babeltrace2's time of day
 * for CTF).  The one place that decides it; a configuration file
 * overrides it by setting tv_ui_options.time_style_given.
 */
enum tv_time_style tv_ui_default_time_style(const struct tv_trace_set *set);
/**
 * tv_ui_default_time_digits() - the digits after the second @set's times
 * are shown with unless the user chose (key '.', time-precision): its
 * reference reader's (6 for trace-cmd report's microseconds, 9 for
 * babeltrace2 and LTTV), 9 when the traces' readers differ.
 */
int		 tv_ui_default_time_digits(const struct tv_trace_set *set);

/**
 * tv_ui_run() - browse @set until the user quits.  Returns the process
 * exit status: 0 on a normal quit, TV_UI_EXIT_NO_TERMINAL (after printing
 * a message to stderr) when there is no usable terminal (then --dump is
 * the way).
 */
int	tv_ui_run(struct tv_trace_set *set, const struct tv_ui_options *opts);

#endif /* TVIEW_UI_H */
