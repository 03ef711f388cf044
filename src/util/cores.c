/*
 * How many workers a whole-trace pass starts, one per online core (the
 * one answer every pool asks: the ordered walk, the match pass, the
 * count, the owners scan, so that they agree), and running an unordered
 * pool of them: workers that take their work from a shared counter, the
 * caller's thread one of them.
 */
#include "tview/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

/* See util.h. */
unsigned
tv_online_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

/* See util.h. */
unsigned
tv_worker_count(uint64_t units, unsigned max)
{
	unsigned n = TV_MIN(tv_online_cores(), max);

	return (unsigned)TV_MAX(TV_MIN((uint64_t)n, units), 1);
}

/* See util.h. */
void
tv_run_workers(unsigned n, void *(*fn)(void *), void *args, size_t size)
{
	pthread_t *th = n > 1 ? tv_xcalloc(n, sizeof(*th)) : NULL;
	unsigned started, i;

	/* worker 0 is this thread; a thread that fails to start is not
	 * needed, the others take its share of the counter */
	for (started = 1; started < n; started++)
		if (pthread_create(&th[started], NULL, fn,
		    (char *)args + (size_t)started * size) != 0)
			break;
	fn(args);
	for (i = 1; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);
}
