/*
 * Opening a set of traces: find each path's driver, let it build the
 * model, then number every stream of the set (the merge tie-breaker) and
 * compute the set's time span from the first and last events of each
 * stream.
 */
#include "tview/trace.h"
#include "tview/format.h"
#include "tview/mapfile.h"
#include "tview/packet-cache.h"

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
 * How many packets, from either end of a stream, are decoded looking for
 * its first or last event.  Tracers leave empty packets (LTTng's timer
 * flushes on an idle CPU), rarely many in a row; past this, the packet
 * bound stands in, so opening stays cheap whatever the input.
 */
#define SPAN_SCAN_MAX	256

/* Widen [*b, *e] to hold @t. */
static void
widen(int64_t *b, int64_t *e, int64_t t)
{
	if (t == TV_TIME_NONE)
		return;
	if (*b == TV_TIME_NONE || t < *b)
		*b = t;
	if (*e == TV_TIME_NONE || t > *e)
		*e = t;
}

/*
 * The earliest (@last false) or latest event time of packet @k of @s, or
 * TV_TIME_NONE if it holds no event; decoded through @cache, which also
 * fills the packet's event count in the index.
 */
static int64_t
packet_event_bound(struct tv_packet_cache *cache, struct tv_stream *s,
    uint64_t k, bool last)
{
	const struct tv_packet_events *pe = tv_packet_cache_get(cache, s, k);
	int64_t b = TV_TIME_NONE, e = TV_TIME_NONE;
	uint64_t i;

	if (pe == NULL)
		return TV_TIME_NONE;
	for (i = 0; i < pe->count; i++)
		if (pe->recs[i].kind == TV_REC_EVENT)
			widen(&b, &e, pe->recs[i].ts);
	return last ? e : b;
}

/*
 * Set @s's ev_first and ev_last from its first and last packets that hold
 * events (events inside a packet come in time order, packets too).
 */
static void
stream_event_bounds(struct tv_packet_cache *cache, struct tv_stream *s)
{
	uint64_t k, n = s->npackets;

	s->ev_first = TV_TIME_NONE;
	s->ev_last = TV_TIME_NONE;
	for (k = 0; k < n && s->ev_first == TV_TIME_NONE; k++) {
		if (k == SPAN_SCAN_MAX) {
			s->ev_first = s->packets[k].ts_begin;
			break;
		}
		s->ev_first = packet_event_bound(cache, s, k, false);
	}
	if (s->ev_first == TV_TIME_NONE)
		return;		/* no event at all */
	for (k = n; k > 0 && s->ev_last == TV_TIME_NONE; k--) {
		if (n - k == SPAN_SCAN_MAX) {
			s->ev_last = s->packets[k - 1].ts_end;
			break;
		}
		s->ev_last = packet_event_bound(cache, s, k - 1, true);
	}
	if (s->ev_last == TV_TIME_NONE || s->ev_last < s->ev_first)
		s->ev_last = s->ev_first;
}

/*
 * Flatten the streams in a deterministic order (trace order, then the
 * order the driver gave), number them and compute the set's span: from
 * the events, and the packet bounds beside it.
 */
static void
finish_set(struct tv_trace_set *set)
{
	struct tv_packet_cache *cache = tv_packet_cache_create(1 << 20);
	uint32_t i, j, n = 0;
	uint64_t k;

	for (i = 0; i < set->ntraces; i++)
		n += set->traces[i]->nstreams;
	free(set->streams);
	set->streams = tv_xcalloc(n ? n : 1, sizeof(*set->streams));
	set->nstreams = 0;
	set->ts_begin = TV_TIME_NONE;
	set->ts_end = TV_TIME_NONE;
	set->pkt_begin = TV_TIME_NONE;
	set->pkt_end = TV_TIME_NONE;
	for (i = 0; i < set->ntraces; i++) {
		struct tv_trace *t = set->traces[i];

		for (j = 0; j < t->nstreams; j++) {
			struct tv_stream *s = t->streams[j];

			s->ordinal = set->nstreams;
			set->streams[set->nstreams++] = s;
			for (k = 0; k < s->npackets; k++) {
				const struct tv_packet *p = &s->packets[k];

				widen(&set->pkt_begin, &set->pkt_end,
				    p->ts_begin);
				widen(&set->pkt_begin, &set->pkt_end,
				    p->ts_end);
			}
			stream_event_bounds(cache, s);
			widen(&set->ts_begin, &set->ts_end, s->ev_first);
			widen(&set->ts_begin, &set->ts_end, s->ev_last);
		}
	}
	tv_packet_cache_destroy(cache);
	if (set->ts_begin == TV_TIME_NONE) {
		set->ts_begin = set->pkt_begin;
		set->ts_end = set->pkt_end;
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
 * Indexing touched every packet, and the kernel may have mapped whole
 * large folios around each touch: drop the mapped pages, so the resident
 * size starts near the heap whatever pass comes next.  A stream whose
 * driver reads its packets from a mapping of its own (packet_span: a
 * trace.dat's CPUs share the file's) gives back what it read, a packet
 * at a time into one batch.
 */
static void
release_all(struct tv_trace_set *set)
{
	struct tv_map_release rel = TV_MAP_RELEASE_INIT;
	uint64_t k;
	uint32_t i, f;

	for (i = 0; i < set->nstreams; i++) {
		const struct tv_stream *s = set->streams[i];

		for (f = 0; f < s->nfiles; f++)
			tv_mapfile_release(&s->files[f], 0, s->files[f].size);
		if (s->trace->ops != NULL && s->trace->ops->packet_span != NULL)
			for (k = 0; k < s->npackets; k++)
				tv_packet_release(&rel, s, k);
	}
	tv_map_release_flush(&rel);
}

/* The mtime of @path in ns, or 0 when it cannot be read. */
static int64_t
mtime_ns(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return 0;
	return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

/* Free what @r holds but its path and driver. */
static void
root_dirs_free(struct tv_set_root *r)
{
	uint32_t i;

	for (i = 0; i < r->ndirs; i++)
		free(r->dirs[i]);
	free(r->dirs);
	free(r->mtimes);
	r->dirs = NULL;
	r->mtimes = NULL;
	r->ndirs = 0;
}

/*
 * Open the traces that appeared under the set's roots (the drivers'
 * discover), appended to the set; note the directories walked and their
 * mtimes, and how many traces are not readable yet.  *@grew when a
 * trace was added; errors in @first.
 */
static void
look_roots(struct tv_trace_set *set, unsigned flags, bool *grew,
    struct tv_error *first)
{
	uint32_t i, j;

	set->pending_traces = 0;
	for (i = 0; i < set->nroots; i++) {
		struct tv_set_root *r = &set->roots[i];
		struct tv_discovery d;
		struct tv_error e;
		enum tv_status st;

		tv_error_clear(&e);
		st = tv_trace_discover_guarded(r->ops, r->path, flags, set,
		    &d, &e);
		if (st == TV_UNSUPPORTED && e.status == TV_OK)
			continue;
		keep_first(first, &e);
		add_traces(set, d.traces, d.ntraces);
		*grew |= d.ntraces > 0;
		set->pending_traces += d.pending;
		free(d.traces);
		root_dirs_free(r);
		r->dirs = d.dirs;
		r->ndirs = d.ndirs;
		r->mtimes = tv_xcalloc(d.ndirs + 1, sizeof(*r->mtimes));
		for (j = 0; j < d.ndirs; j++)
			r->mtimes[j] = mtime_ns(d.dirs[j]);
	}
}

/*
 * May a trace have appeared under a root: a trace not readable yet, or a
 * directory walked last time changed (an entry came or went)?
 */
static bool
roots_changed(const struct tv_trace_set *set)
{
	uint32_t i, j;

	if (set->pending_traces > 0)
		return true;
	for (i = 0; i < set->nroots; i++)
		for (j = 0; j < set->roots[i].ndirs; j++)
			if (mtime_ns(set->roots[i].dirs[j]) !=
			    set->roots[i].mtimes[j])
				return true;
	return false;
}

/* Note the trace directories' mtimes, for tv_trace_set_grown(). */
static void
note_dirs(struct tv_trace_set *set)
{
	uint32_t i;

	for (i = 0; i < set->ntraces; i++)
		set->traces[i]->dir_mtime = mtime_ns(set->traces[i]->path);
}

/*
 * Open every path with the drivers' open @flags.  The first error is
 * returned (and put in @err), but whatever could be read is kept: *out
 * is NULL only when no trace at all could be opened.
 */
static enum tv_status
set_open(struct tv_trace_set **out, const char *const *paths,
    size_t npaths, const struct tv_format_ops *const *formats,
    unsigned flags, struct tv_error *err)
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
		st = tv_trace_open_guarded(ops, paths[i], flags, &tr, &n,
		    &e);
		if (st != TV_OK && e.status == TV_OK) {
			struct tv_loc loc = { .path = paths[i],
			    .offset = TV_NO_OFFSET };

			tv_error_set(&e, st, &loc, "%s", tv_status_str(st));
		}
		add_traces(set, tr, n);
		free(tr);
		keep_first(&first, &e);
		if ((flags & TV_OPEN_FOLLOW) && ops->discover) {
			set->roots = tv_xreallocarray(set->roots,
			    set->nroots + 1, sizeof(*set->roots));
			memset(&set->roots[set->nroots], 0,
			    sizeof(*set->roots));
			set->roots[set->nroots].path = tv_xstrdup(paths[i]);
			set->roots[set->nroots++].ops = ops;
		}
	}
	if (set->nroots) {
		bool grew = false;

		/* the directories to watch; a trace that just came too */
		tv_error_clear(&e);
		look_roots(set, flags, &grew, &e);
		keep_first(&first, &e);
	}
	if (npaths == 0)
		tv_error_set(&first, TV_NOT_FOUND, NULL, _("no trace given"));
	if (set->ntraces == 0) {
		tv_trace_set_close(set);
		if (first.status == TV_OK)
			tv_error_set(&first, TV_FORMAT, NULL,
			    _("no trace found"));
		if (err)
			*err = first;
		return first.status;
	}
	finish_set(set);
	release_all(set);
	note_dirs(set);
	*out = set;
	if (err)
		*err = first;
	return first.status;
}

/* See trace.h. */
enum tv_status
tv_trace_set_open(struct tv_trace_set **out, const char *const *paths,
    size_t npaths, const struct tv_format_ops *const *formats,
    struct tv_error *err)
{
	return set_open(out, paths, npaths, formats, 0, err);
}

/* See trace.h. */
enum tv_status
tv_trace_set_open_live(struct tv_trace_set **out, const char *const *paths,
    size_t npaths, const struct tv_format_ops *const *formats,
    struct tv_error *err)
{
	return set_open(out, paths, npaths, formats, TV_OPEN_FOLLOW, err);
}

/*
 * See trace.h.  Every trace is looked at even after an error, so that
 * one broken trace does not stop the others from growing.
 */
enum tv_status
tv_trace_set_extend(struct tv_trace_set *set, unsigned flags, bool *grew,
    struct tv_error *err)
{
	struct tv_error first, e;
	uint32_t i;

	*grew = false;
	tv_error_clear(&first);
	note_dirs(set);
	for (i = 0; i < set->ntraces; i++) {
		bool g = false;

		tv_error_clear(&e);
		(void)tv_trace_extend_guarded(set->traces[i], flags, &g, &e);
		keep_first(&first, &e);
		*grew |= g;
	}
	/* new traces last: they are opened whole, and note their dirs;
	 * the roots walked again only when one of their directories
	 * changed (a walk lists every directory of the session) */
	i = set->ntraces;
	if (roots_changed(set))
		look_roots(set, flags, grew, &first);
	for (; i < set->ntraces; i++)
		set->traces[i]->dir_mtime = mtime_ns(set->traces[i]->path);
	if (*grew) {
		finish_set(set);
		release_all(set);
	}
	if (err)
		*err = first;
	return first.status;
}

/* See trace.h. */
bool
tv_trace_set_grown(const struct tv_trace_set *set)
{
	struct stat st;
	uint32_t i;

	if (roots_changed(set))
		return true;
	for (i = 0; i < set->ntraces; i++) {
		const struct tv_trace *t = set->traces[i];

		uint32_t j;

		if (t->pending_files > t->npending_paths ||
		    mtime_ns(t->path) != t->dir_mtime)
			return true;
		for (j = 0; j < t->npending_paths; j++)
			if (stat(t->pending_paths[j], &st) != 0 ||
			    (uint64_t)st.st_size != t->pending_sizes[j])
				return true;
		if (t->meta_path && stat(t->meta_path, &st) == 0 &&
		    (uint64_t)st.st_size != t->meta_size)
			return true;
	}
	for (i = 0; i < set->nstreams; i++) {
		const struct tv_stream *s = set->streams[i];
		const struct tv_mapfile *mf;

		if (s->nfiles == 0)
			continue;
		mf = &s->files[s->nfiles - 1];
		if (mf->path && stat(mf->path, &st) == 0 &&
		    (uint64_t)st.st_size > mf->size)
			return true;
	}
	return false;
}

/* See trace.h. */
int64_t
tv_trace_set_settled(const struct tv_trace_set *set)
{
	int64_t t = INT64_MAX;
	uint32_t i;

	if (set->pending_traces > 0)
		return INT64_MIN;
	for (i = 0; i < set->ntraces; i++)
		if (set->traces[i]->pending_files > 0)
			return INT64_MIN;
	for (i = 0; i < set->nstreams; i++) {
		const struct tv_stream *s = set->streams[i];
		int64_t end;

		end = TV_TIME_NONE;
		if (s->npackets > 0) {
			end = s->packets[s->npackets - 1].ts_end;
			if (end == TV_TIME_NONE)
				end = s->ev_last;
		}
		/* an idle stream's beacon takes it further */
		if (s->quiet && (end == TV_TIME_NONE || s->quiet_until > end))
			end = s->quiet_until;
		if (end == TV_TIME_NONE)
			return INT64_MIN;
		t = TV_MIN(t, end);
	}
	return t;
}

/* See trace.h. */
void
tv_trace_set_note_classes(const struct tv_trace_set *set,
    uint32_t **nclasses, uint32_t *ntraces)
{
	uint32_t i;

	*nclasses = tv_xreallocarray(*nclasses, TV_MAX(set->ntraces, 1u),
	    sizeof(**nclasses));
	*ntraces = set->ntraces;
	for (i = 0; i < set->ntraces; i++)
		(*nclasses)[i] = set->traces[i]->nclasses;
}

/* See trace.h. */
bool
tv_trace_set_renumbered(const struct tv_trace_set *set,
    struct tv_stream *const *streams, uint32_t n)
{
	uint32_t i;

	if (set->nstreams < n)
		return true;
	for (i = 0; i < n; i++)
		if (set->streams[i] != streams[i])
			return true;
	return false;
}

/* See trace.h. */
bool
tv_trace_set_classes_grew(const struct tv_trace_set *set,
    const uint32_t *nclasses, uint32_t ntraces)
{
	uint32_t i;

	for (i = 0; i < ntraces && i < set->ntraces; i++)
		if (set->traces[i]->nclasses != nclasses[i])
			return true;
	return false;
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
	for (i = 0; i < set->nroots; i++) {
		root_dirs_free(&set->roots[i]);
		free(set->roots[i].path);
	}
	free(set->roots);
	free(set->traces);
	free(set->streams);
	free(set);
}
