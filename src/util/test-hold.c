/*
 * Test hooks that hold a thread a while: a test sets an environment
 * variable to some milliseconds to make a race it checks certain (a
 * bookmark save caught between write and rename, a background pass
 * caught half done).  Unset, they cost a getenv().
 */
#include "tview/util.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

/* See util.h. */
void
tv_test_hold(const char *env)
{
	const char *s = getenv(env);
	long ms = s ? strtol(s, NULL, 10) : 0;
	struct timespec ts;

	if (ms <= 0 || ms > 60000)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}
