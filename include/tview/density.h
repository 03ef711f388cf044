/*
 * Event density over a time window: how many records fall in each of N
 * equal columns of [t0, t1), for the density strip of the timeline pane.
 * Exact (every record in the window is counted) when the packets that
 * overlap the window hold at most TV_DENSITY_EXACT_BYTES; past that it
 * is estimated from the packet index alone, each packet's records (or
 * its bytes, while its record count is not known) spread evenly over its
 * time span - so a whole 1 GB trace costs a walk of its index, not of
 * its records.
 *
 * With a filter on, the strip counts only the events the filter's
 * background pass (pass.h) keeps: from its match bitmaps record by
 * record, or from its per-packet counts for a large window.  A packet the
 * pass has not reached yet weighs its records times the fraction kept so
 * far, and the density says it is partial.
 */
#ifndef TVIEW_DENSITY_H
#define TVIEW_DENSITY_H

#include "tview/pass.h"
#include "tview/trace.h"

/* Packet bytes in the window up to which records are counted one by one. */
#define TV_DENSITY_EXACT_BYTES	((uint64_t)8 << 20)

struct tv_density {
	int64_t		 t0, t1;	/* [t0, t1) */
	uint32_t	 ncols;
	bool		 estimated;	/* from the packet index */
	bool		 partial;	/* some packets not filtered yet */
	double		*cols;		/* ncols: records (or weights) */
	double		 max;		/* the largest column */
};

/**
 * tv_density_build() - the density of [@t0, @t1) in @ncols columns;
 * with @pass (NULL: every record), of the events it keeps.  @cancel, if
 * not NULL, is polled while records are counted.
 */
enum tv_status	 tv_density_build(struct tv_trace_set *set, int64_t t0,
		    int64_t t1, uint32_t ncols, const struct tv_pass *pass,
		    const volatile bool *cancel,
		    struct tv_density **out, struct tv_error *err);
void		 tv_density_destroy(struct tv_density *d);

/** tv_density_level() - column @col scaled to 0 (none) .. @levels. */
unsigned	 tv_density_level(const struct tv_density *d, uint32_t col,
		    unsigned levels);

#endif /* TVIEW_DENSITY_H */
