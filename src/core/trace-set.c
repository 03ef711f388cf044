/*
 * Opening a set of traces: find each path's driver, let it build the
 * model, then number every stream of the set (the merge tie-breaker) and
 * compute the set's time span from the packet indexes.
 */
#include "tview/trace.h"
#include "tview/format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Keep the first error of the set in @first (for the caller's @err). */
static void
keep_first(struct tv_error *first, const struct tv_error *e)
{
	if (first->status == TV_OK && e->status != TV_OK)
		*first = *e;
}

/* Append the traces a driver opened to the set. */
static void
add_traces(struct tv_trace_set *set, struct tv_trace **tr, uint32_t n)
{
	uint32_t i;

	if (n == 0)
		return;
	set->traces = tv_xreallocarray(set->traces,
	    (size_t)set->ntraces + n, sizeof(*set->traces));
	for (i = 0; i < n; i++)
		if (tr[i])
			set->traces[set->ntraces++] = tr[i];
}

/*
 * Flatten the streams in a deterministic order (trace order, then the
 * order the driver gave), number them and compute the set's span.
 */
static void
finish_set(struct tv_trace_set *set)
{
	uint32_t i, j, n = 0;
	uint64_t k;

	for (i = 0; i < set->ntraces; i++)
		n += set->traces[i]->nstreams;
	set->streams = tv_xcalloc(n ? n : 1, sizeof(*set->streams));
	set->ts_begin = TV_TIME_NONE;
	set->ts_end = TV_TIME_NONE;
	for (i = 0; i < set->ntraces; i++) {
		struct tv_trace *t = set->traces[i];

		for (j = 0; j < t->nstreams; j++) {
			struct tv_stream *s = t->streams[j];

			s->ordinal = set->nstreams;
			set->streams[set->nstreams++] = s;
			for (k = 0; k < s->npackets; k++) {
				const struct tv_packet *p = &s->packets[k];
				int64_t b = p->ts_begin, e = p->ts_end;

				if (b == TV_TIME_NONE)
					b = e;
				if (e == TV_TIME_NONE)
					e = b;
				if (b == TV_TIME_NONE)
					continue;
				if (set->ts_begin == TV_TIME_NONE ||
				    b < set->ts_begin)
					set->ts_begin = b;
				if (set->ts_end == TV_TIME_NONE ||
				    e > set->ts_end)
					set->ts_end = e;
			}
		}
	}
}

/*
 * The driver of @formats that reads @path.  A driver that recognises the
 * path but cannot read it (its probe fails with anything but TV_FORMAT)
 * stops the search with its own error.
 */
static enum tv_status
format_find(const struct tv_format_ops *const *formats, const char *path,
    const struct tv_format_ops **out, struct tv_error *err)
{
	struct tv_loc loc = { .path = path, .offset = TV_NO_OFFSET };
	struct stat st;
	size_t i;

	*out = NULL;
	if (stat(path, &st) < 0)
		return tv_error_set(err, TV_IO, &loc, "%s", strerror(errno));
	for (i = 0; formats[i]; i++) {
		enum tv_status s;

		if (!formats[i]->probe)
			continue;
		s = formats[i]->probe(path, err);
		if (s == TV_OK) {
			*out = formats[i];
			tv_error_clear(err);
			return TV_OK;
		}
		if (s != TV_FORMAT)
			return s;
	}
	return tv_error_set(err, TV_FORMAT, &loc,
	    _("not a trace in a known format"));
}

/*
 * Open every path.  The first error is returned (and put in @err), but
 * whatever could be read is kept: *out is NULL only when no trace at all
 * could be opened.
 */
enum tv_status
tv_trace_set_open(struct tv_trace_set **out, const char *const *paths,
    size_t npaths, const struct tv_format_ops *const *formats,
    struct tv_error *err)
{
	struct tv_trace_set *set = tv_xcalloc(1, sizeof(*set));
	struct tv_error first, e;
	size_t i;

	*out = NULL;
	tv_error_clear(&first);
	for (i = 0; i < npaths; i++) {
		const struct tv_format_ops *ops;
		struct tv_trace **tr = NULL;
		uint32_t n = 0;
		enum tv_status st;

		tv_error_clear(&e);
		st = format_find(formats, paths[i], &ops, &e);
		if (st != TV_OK) {
			if (e.status == TV_OK)
				tv_error_set(&e, st, NULL, "%s: %s",
				    paths[i], tv_status_str(st));
			keep_first(&first, &e);
			continue;
		}
		st = ops->open(paths[i], &tr, &n, &e);
		if (st != TV_OK && e.status == TV_OK) {
			struct tv_loc loc = { .path = paths[i],
			    .offset = TV_NO_OFFSET };

			tv_error_set(&e, st, &loc, "%s", tv_status_str(st));
		}
		add_traces(set, tr, n);
		free(tr);
		keep_first(&first, &e);
	}
	if (npaths == 0)
		tv_error_set(&first, TV_NOT_FOUND, NULL, _("no trace given"));
	if (set->ntraces == 0) {
		free(set->traces);
		free(set);
		if (first.status == TV_OK)
			tv_error_set(&first, TV_FORMAT, NULL,
			    _("no trace found"));
		if (err)
			*err = first;
		return first.status;
	}
	finish_set(set);
	*out = set;
	if (err)
		*err = first;
	return first.status;
}

/* Close every trace of the set and free it. */
void
tv_trace_set_close(struct tv_trace_set *set)
{
	uint32_t i;

	if (!set)
		return;
	for (i = 0; i < set->ntraces; i++)
		tv_trace_destroy(set->traces[i]);
	free(set->traces);
	free(set->streams);
	free(set);
}
