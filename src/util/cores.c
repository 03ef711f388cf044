/*
 * How many workers a whole-trace pass starts: one per online core.  The
 * one answer every pool asks (the ordered walk, the match pass, the
 * count), so that they agree.
 */
#include "tview/util.h"

#include <unistd.h>

/* See util.h. */
unsigned
tv_online_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}
