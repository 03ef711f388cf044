/*
 * Shared by the statistics sources only: a latency series with the
 * samples or histogram behind its public figures.
 *
 *   stats.c         the walk: counts, CPU time, latency detection
 *   stats-series.c  one series: top instances, exact or folded percentiles
 */
#ifndef TVIEW_STATS_PRIV_H
#define TVIEW_STATS_PRIV_H

#include "tview/stats.h"

struct tv_series {
	struct tv_lat_series	 pub;
	int64_t			*samples;	/* owned; NULL once folded */
	size_t			 nsamples;
	size_t			 nsorted;	/* the first, in order */
	size_t			 cap;
	uint64_t		*hist;		/* owned; NULL until folded */
};

void	tv_series_init(struct tv_series *s, const char *name);
void	tv_series_fini(struct tv_series *s);
/** tv_series_add() - one instance. */
void	tv_series_add(struct tv_series *s, const struct tv_lat_instance *in);
/**
 * tv_series_finish() - fill p50 and p99 (sorts the samples); more may
 * be added after, and it called again.
 */
void	tv_series_finish(struct tv_series *s);

#endif /* TVIEW_STATS_PRIV_H */
