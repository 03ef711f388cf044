/*
 * Building and reading the format-neutral model: traces, streams, their
 * mapped files and packet indexes, decoded record arrays, and the calls
 * into the driver that decode an event's fields.
 */
#include "tview/trace.h"
#include "tview/format.h"
#include "tview/mapfile.h"

#include <stdlib.h>
#include <string.h>

/* Grow an array of pointers by one slot, doubling at powers of two. */
static void *
grow_ptrs(void *arr, uint32_t n, size_t elem)
{
	if (n == 0)
		return tv_xreallocarray(arr, 4, elem);
	if (n >= 4 && (n & (n - 1)) == 0)
		return tv_xreallocarray(arr, (size_t)n * 2, elem);
	return arr;
}

/* Last path component of @path, trailing slashes ignored. */
static char *
base_name(const char *path)
{
	size_t end = strlen(path), start;

	while (end > 1 && path[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	if (start == end)
		return tv_xstrndup(path, end);
	return tv_xstrndup(path + start, end - start);
}

/* An empty trace read by @ops from @path; the driver fills the rest. */
struct tv_trace *
tv_trace_create(const struct tv_format_ops *ops, const char *path)
{
	struct tv_trace *t = tv_xcalloc(1, sizeof(*t));

	t->ops = ops;
	t->path = tv_xstrdup(path ? path : "");
	t->name = base_name(t->path);
	tv_arena_init(&t->arena);
	t->names = tv_intern_create();
	return t;
}

/* Free one stream: unmap its files, free its index. */
static void
stream_free(struct tv_stream *s)
{
	uint32_t i;

	for (i = 0; i < s->nfiles; i++)
		tv_mapfile_close(&s->files[i]);
	free(s->files);
	free(s->packets);
	free(s->name);
	free(s);
}

/* Let the driver free its data, then free everything the trace owns. */
void
tv_trace_destroy(struct tv_trace *trace)
{
	uint32_t i;

	if (!trace)
		return;
	if (trace->ops && trace->ops->close)
		trace->ops->close(trace);
	for (i = 0; i < trace->nstreams; i++)
		stream_free(trace->streams[i]);
	free(trace->streams);
	tv_intern_destroy(trace->names);
	tv_arena_fini(&trace->arena);
	free(trace->path);
	free(trace->name);
	free(trace->meta_path);
	tv_trace_note_pending(trace, NULL, 0);
	free(trace->pending_paths);
	free(trace->pending_sizes);
	free(trace);
}

/* See trace.h. */
void
tv_trace_note_pending(struct tv_trace *t, const char *path, uint64_t size)
{
	uint32_t i;

	if (path == NULL) {
		for (i = 0; i < t->npending_paths; i++)
			free(t->pending_paths[i]);
		t->npending_paths = 0;
		t->pending_files = 0;
		return;
	}
	t->pending_paths = grow_ptrs(t->pending_paths, t->npending_paths,
	    sizeof(*t->pending_paths));
	t->pending_sizes = grow_ptrs(t->pending_sizes, t->npending_paths,
	    sizeof(*t->pending_sizes));
	t->pending_paths[t->npending_paths] = tv_xstrdup(path);
	t->pending_sizes[t->npending_paths++] = size;
	t->pending_files++;
}

/* Append an empty stream named @name to @trace. */
struct tv_stream *
tv_trace_add_stream(struct tv_trace *trace, const char *name)
{
	struct tv_stream *s = tv_xcalloc(1, sizeof(*s));

	s->trace = trace;
	s->name = tv_xstrdup(name ? name : "");
	s->instance_id = TV_COUNT_UNKNOWN;
	s->cpu = TV_CPU_UNKNOWN;
	trace->streams = grow_ptrs(trace->streams, trace->nstreams,
	    sizeof(*trace->streams));
	trace->streams[trace->nstreams++] = s;
	return s;
}

/* Map @path and append it to the stream's files. */
enum tv_status
tv_stream_add_file(struct tv_stream *s, const char *path, uint32_t *index,
    struct tv_error *err)
{
	struct tv_mapfile mf;
	enum tv_status st;

	st = tv_mapfile_open(&mf, path, err);
	if (st != TV_OK)
		return st;
	s->files = grow_ptrs(s->files, s->nfiles, sizeof(*s->files));
	s->files[s->nfiles] = mf;
	if (index)
		*index = s->nfiles;
	s->nfiles++;
	return TV_OK;
}

/* Packets indexed between two releases of the pages behind indexing. */
#define INDEX_RELEASE_EVERY	256

/* Release the pages of packets [@first, @last] that share one file. */
static void
stream_release_behind(const struct tv_stream *s, uint64_t first,
    uint64_t last)
{
	const struct tv_packet *a = &s->packets[first];
	const struct tv_packet *b = &s->packets[last];

	if (a->file != b->file || a->file >= s->nfiles || b->offset < a->offset)
		return;
	tv_mapfile_release(&s->files[a->file], a->offset,
	    b->offset + b->size - a->offset);
}

/*
 * Append a zeroed index entry.  The fields whose "unknown" is not zero
 * start unknown: timestamps TV_TIME_NONE, seq_num and event_count
 * TV_COUNT_UNKNOWN.
 */
struct tv_packet *
tv_stream_add_packet(struct tv_stream *s)
{
	struct tv_packet *p;

	/*
	 * Indexing is a sequential pass: drop the pages behind it, in one
	 * call per INDEX_RELEASE_EVERY packets (one per packet was a system
	 * call per trace.dat page on the open path).
	 */
	if (s->npackets >= 2 && s->npackets % INDEX_RELEASE_EVERY == 0)
		stream_release_behind(s, s->npackets - INDEX_RELEASE_EVERY,
		    s->npackets - 2);
	TV_VEC_GROW(s->packets, s->npackets, s->packets_cap);
	p = &s->packets[s->npackets++];
	memset(p, 0, sizeof(*p));
	p->ts_begin = TV_TIME_NONE;
	p->ts_end = TV_TIME_NONE;
	p->seq_num = TV_COUNT_UNKNOWN;
	p->event_count = TV_COUNT_UNKNOWN;
	return p;
}

/* Free the records; the struct is left empty and reusable. */
void
tv_packet_events_fini(struct tv_packet_events *pe)
{
	free(pe->recs);
	pe->recs = NULL;
	pe->count = 0;
	pe->cap = 0;
	pe->status = TV_OK;
	tv_error_clear(&pe->err);
}

/* Append a zeroed record and return it. */
struct tv_event_rec *
tv_packet_events_push(struct tv_packet_events *pe)
{
	struct tv_event_rec *r;

	TV_VEC_GROW(pe->recs, pe->count, pe->cap);
	r = &pe->recs[pe->count++];
	memset(r, 0, sizeof(*r));
	return r;
}

/* The packet's first byte in its mapped file, or NULL if out of bounds. */
const uint8_t *
tv_packet_bytes(const struct tv_stream *s, const struct tv_packet *p)
{
	const struct tv_mapfile *mf;

	if (p->file >= s->nfiles)
		return NULL;
	mf = &s->files[p->file];
	if (!mf->data || p->offset > mf->size ||
	    p->size > mf->size - p->offset)
		return NULL;
	return mf->data + p->offset;
}

/* See trace.h: the packet, its file and its first byte. */
const uint8_t *
tv_event_bytes(const struct tv_stream *s, uint64_t pkt,
    const struct tv_packet **p, const struct tv_mapfile **mf)
{
	*p = NULL;
	*mf = NULL;
	if (pkt >= s->npackets)
		return NULL;
	*p = &s->packets[pkt];
	if ((*p)->file >= s->nfiles)
		return NULL;
	*mf = &s->files[(*p)->file];
	return tv_packet_bytes(s, *p);
}

/*
 * The mapped bytes of packet @pkt of @s: the driver's span when its
 * packets are not simply [offset, offset + size) of their file.
 */
static bool
packet_span(const struct tv_stream *s, uint64_t pkt,
    const struct tv_mapfile **mf, uint64_t *off, uint64_t *len)
{
	const struct tv_format_ops *ops = s->trace->ops;
	const struct tv_packet *p;

	if (pkt >= s->npackets)
		return false;
	p = &s->packets[pkt];
	if (ops != NULL && ops->packet_span != NULL)
		return ops->packet_span(s, pkt, mf, off, len);
	if (p->file >= s->nfiles)
		return false;
	*mf = &s->files[p->file];
	*off = p->offset;
	*len = p->size;
	return true;
}

/* See trace.h. */
void
tv_packet_release(struct tv_map_release *r, const struct tv_stream *s,
    uint64_t pkt)
{
	const struct tv_mapfile *mf;
	uint64_t off, len;

	if (packet_span(s, pkt, &mf, &off, &len))
		tv_map_release_add(r, mf, off, len);
}

/* See trace.h. */
void
tv_packet_populate(const struct tv_stream *s, uint64_t pkt)
{
	const struct tv_mapfile *mf;
	uint64_t off, len;

	if (packet_span(s, pkt, &mf, &off, &len))
		tv_mapfile_populate(mf, off, len);
}

/* The class of an event record, or NULL for other records. */
const struct tv_event_class *
tv_event_class_of(const struct tv_event *ev)
{
	const struct tv_trace *t;

	if (!ev || !ev->stream || ev->rec.kind != TV_REC_EVENT)
		return NULL;
	t = ev->stream->trace;
	if (ev->rec.class_index >= t->nclasses)
		return NULL;
	return t->classes[ev->rec.class_index];
}

/* See trace.h. */
bool
tv_event_value_note(const struct tv_event *ev, enum tv_scope scope,
    const char *name, const struct tv_value *v, struct tv_strbuf *out)
{
	const struct tv_format_ops *ops;

	if (!ev || !ev->stream || !v || !name)
		return false;
	ops = ev->stream->trace->ops;
	if (!ops || !ops->value_note)
		return false;
	return ops->value_note(ev, scope, name, v, out);
}

/* Environment entry @key of @trace, or NULL. */
const struct tv_env_entry *
tv_trace_env_get(const struct tv_trace *trace, const char *key)
{
	uint32_t i;

	for (i = 0; i < trace->nenv; i++)
		if (trace->env[i].key && strcmp(trace->env[i].key, key) == 0)
			return &trace->env[i];
	return NULL;
}
