/*
 * The ordered parallel walk: the merged timeline read forwards once, as
 * tv_merge_next() gives it, while a pool of worker threads does the
 * per-record work (decoding, printing, filtering) packet by packet ahead
 * of the reader.  A worker turns one packet into bytes and a flag per
 * record; the caller's thread merges the finished packets in timeline
 * order and gets each record with what its worker made of it.  So a
 * whole-trace pass whose per-record work needs no state carried from one
 * record to the next (--dump, --count, a stateless filter) uses every
 * core, and its output is the same, byte for byte and in the same order,
 * as the sequential walk's.
 *
 * Memory stays bounded: workers stop running ahead once the packets done
 * and not yet read reach a window (the streams, plus four per worker);
 * the reader decodes a packet itself rather than wait for one that no
 * worker has taken.
 */
#ifndef TVIEW_PWALK_H
#define TVIEW_PWALK_H

#include "tview/trace.h"
#include "tview/util.h"

struct tv_pwalk;

/*
 * What a walk does with the trace's pages it has gone past.  Released
 * pages are read again from the file if touched: only the resident size
 * changes, so the browser gives them back too; the advice tells the
 * kernel to read ahead of a batch pass and is left alone where the
 * browser reads the same mappings at random.
 */
enum tv_walk_pages {
	TV_PAGES_KEEP,		/* left mapped: a harness timing the walk */
	TV_PAGES_RELEASE,	/* given back behind the walk */
	TV_PAGES_SEQUENTIAL,	/* given back, the mappings advised
				   sequential (tv_merge_set_sequential) */
};

/**
 * tv_pwalk_fn - the work for record @ev (any kind), on a worker thread:
 * append its bytes to @out (possibly none) and set *@flags (0 on entry)
 * for the reader.  @arena is the worker's own, reset before each call.
 * A status other than TV_OK is reported with the record, with @err.
 * Must only read data shared with other threads.
 */
typedef enum tv_status (*tv_pwalk_fn)(void *arg, const struct tv_event *ev,
		    struct tv_arena *arena, struct tv_strbuf *out,
		    uint8_t *flags, struct tv_error *err);

/** One record of the walk, with what its worker made of it. */
struct tv_pwalk_item {
	struct tv_event		 ev;
	const char		*bytes;		/* valid until the next call */
	size_t			 len;
	uint8_t			 flags;
	enum tv_status		 status;	/* the work function's */
	const struct tv_error	*err;		/* when status != TV_OK */
};

/**
 * A run: records of one packet that follow one another in the timeline,
 * with what their workers made of them.  Record k (k < n) is record
 * index + k of the packet.  Valid until the next call.
 */
struct tv_pwalk_run {
	struct tv_stream		*stream;
	uint64_t			 packet;
	uint64_t			 index;
	uint64_t			 n;		/* >= 1 */
	const struct tv_event_rec	*recs;		/* [n] */
	const char			*text;		/* the packet's bytes */
	size_t				 begin;		/* record 0's in text */
	const size_t			*ends;		/* [n] in text; NULL
							   without work */
	const uint8_t			*flags;		/* [n]; NULL without
							   work */
	uint64_t			 bad;		/* the record whose work
							   failed; n if none */
	enum tv_status			 status;	/* record bad's */
	const struct tv_error		*err;
};

/** The bytes the work made of record @k of @run, their length in *@len. */
static inline const char *
tv_pwalk_run_bytes(const struct tv_pwalk_run *run, uint64_t k, size_t *len)
{
	size_t from;

	if (run->ends == NULL) {
		*len = 0;
		return "";
	}
	from = k ? run->ends[k - 1] : run->begin;
	*len = run->ends[k] - from;
	return run->text + from;
}

/**
 * tv_pwalk_start() - start walking @set (borrowed) from its first record
 * with ts >= @begin (INT64_MIN: from the start) to its last with ts <=
 * @end (INT64_MAX: to the end), with @fn and @arg (@fn NULL: no work, the
 * records in order only, with no bytes and no flags), on @nthreads workers
 * (0: one per online core).  Packets that begin after @end are not read,
 * @fn is not called for the records of a packet walked that lie outside
 * the range, and tv_pwalk_next() ends after the last record in it.
 * @pages: what it does with the pages behind it.
 */
struct tv_pwalk	*tv_pwalk_start(struct tv_trace_set *set, int64_t begin,
		    int64_t end, tv_pwalk_fn fn, void *arg, unsigned nthreads,
		    enum tv_walk_pages pages);

/**
 * tv_pwalk_next() - the next record in timeline order into @item:
 * TV_OK, or TV_END after the last.
 */
enum tv_status	 tv_pwalk_next(struct tv_pwalk *w, struct tv_pwalk_item *item);

/**
 * tv_pwalk_next_run() - the next run of records in timeline order into
 * @run: TV_OK, or TV_END after the last.  The same records as
 * tv_pwalk_next() gives, a run at a time (a loop over a run's records
 * costs less than a call per record).  Do not mix the two on one walk.
 */
enum tv_status	 tv_pwalk_next_run(struct tv_pwalk *w,
		    struct tv_pwalk_run *run);

/** tv_pwalk_error() - the first packet decoding error met so far. */
const struct tv_error *tv_pwalk_error(const struct tv_pwalk *w);

/** tv_pwalk_destroy() - stop the workers, free everything. */
void		 tv_pwalk_destroy(struct tv_pwalk *w);

#endif /* TVIEW_PWALK_H */
