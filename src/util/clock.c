/*
 * The monotonic clock in milliseconds: what every wait, deadline and
 * repaint pace of the program measures elapsed time with (never the
 * wall clock, which may jump).
 */
#include "tview/util.h"

#include <time.h>

/* See util.h. */
int64_t
tv_clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
