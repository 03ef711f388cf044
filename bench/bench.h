/*
 * Helpers shared by the benchmark programs in bench/: a monotonic
 * clock in nanoseconds and opening a trace set with a one-line error.
 */
#ifndef TVIEW_BENCH_H
#define TVIEW_BENCH_H

#include "tview/tview.h"
#include "tview/format.h"
#include "tview/merge.h"
#include "tview/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Monotonic time in nanoseconds. */
static inline int64_t
bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Open @path as a trace set or exit 1 with the error. */
static inline struct tv_trace_set *
bench_open(const char *prog, const char *path)
{
	struct tv_trace_set *set = NULL;
	struct tv_error err;
	char buf[1200];
	const char *paths[1] = { path };

	tv_error_clear(&err);
	if (tv_trace_set_open(&set, paths, 1,
	    tv_format_registry(), &err) != TV_OK || !set) {
		fprintf(stderr, "%s: %s\n", prog,
		    tv_error_format(&err, buf, sizeof(buf)));
		if (set)
			tv_trace_set_close(set);
		exit(1);
	}
	return set;
}

#endif /* TVIEW_BENCH_H */
