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
	const char		*initial_goto;	/* a :goto argument, or NULL */
};

/*
 * The exit status when the browser cannot start (no usable terminal): not
 * 1, which says a trace could not be read, nor 2, a usage error.
 */
#define TV_UI_EXIT_NO_TERMINAL	3

/**
 * tv_ui_run() - browse @set until the user quits.  Returns the process
 * exit status: 0 on a normal quit, TV_UI_EXIT_NO_TERMINAL (after printing
 * a message to stderr) when there is no usable terminal (then --dump is
 * the way).
 */
int	tv_ui_run(struct tv_trace_set *set, const struct tv_ui_options *opts);

#endif /* TVIEW_UI_H */
