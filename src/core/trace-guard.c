/*
 * The calls into a driver that read mapped files, each under a mapping
 * guard (tview/mapfile.h): when a file shrinks while open, the read that
 * faults returns an error naming the file and what is left of it instead
 * of killing the process with SIGBUS.  Everything that decodes goes
 * through here: the packet cache (index, counts, state, search, views),
 * field decoding, --dump's printing, the hex dump's bytes and opening.
 *
 * A fault abandons the driver call half way: what it allocated in the
 * caller's buffers (records, arena, strbuf) stays owned by the caller;
 * drivers that hold a lock while reading take their own guard inside it.
 */
#include "tview/trace.h"
#include "tview/format.h"

#include <stdlib.h>
#include <string.h>

/* The mapped file of @s (else of @t) holding @addr; a first one if none. */
static const struct tv_mapfile *
fault_file(const struct tv_trace *t, const struct tv_stream *s,
    const void *addr)
{
	uint32_t i, k;

	if (s != NULL)
		for (k = 0; k < s->nfiles; k++)
			if (tv_mapfile_contains(&s->files[k], addr))
				return &s->files[k];
	for (i = 0; t != NULL && i < t->nstreams; i++)
		for (k = 0; k < t->streams[i]->nfiles; k++)
			if (tv_mapfile_contains(&t->streams[i]->files[k],
			    addr))
				return &t->streams[i]->files[k];
	/* a driver's own mapping of the same file (trace.dat) */
	if (s != NULL && s->nfiles > 0)
		return &s->files[0];
	if (t != NULL && t->nstreams > 0 && t->streams[0]->nfiles > 0)
		return &t->streams[0]->files[0];
	return NULL;
}

/* The error for a fault at @addr while reading @t (@s if known). */
static enum tv_status
fault_error(const struct tv_trace *t, const struct tv_stream *s,
    const void *addr, struct tv_error *err)
{
	const struct tv_mapfile *mf = fault_file(t, s, addr);

	if (mf == NULL)
		return tv_error_at(err, TV_IO, t ? t->path : "",
		    TV_NO_OFFSET, _("a file of the trace changed while "
		    "open"));
	return tv_mapfile_fault(mf, addr, err);
}

/* See trace.h. */
enum tv_status
tv_stream_fault(const struct tv_stream *s, const void *addr,
    struct tv_error *err)
{
	return fault_error(s->trace, s, addr, err);
}

/*
 * After a decoding error in @t: when the file it names changed since it
 * was mapped (a page cut in its middle reads as zeros, so a cut shows up
 * as corrupt data as often as a fault), say that instead.
 */
static void
restat_error(const struct tv_trace *t, struct tv_error *err)
{
	const struct tv_mapfile *mf;
	uint32_t i, k;

	if (err == NULL || err->status == TV_OK || err->path[0] == '\0')
		return;
	for (i = 0; t != NULL && i < t->nstreams; i++) {
		for (k = 0; k < t->streams[i]->nfiles; k++) {
			mf = &t->streams[i]->files[k];
			if (mf->path == NULL || strcmp(mf->path, err->path) != 0)
				continue;
			if (tv_mapfile_changed(mf))
				tv_mapfile_fault(mf, err->offset < mf->size ?
				    mf->data + err->offset : NULL, err);
			return;
		}
	}
}

/* Decode the record headers of packet @pkt of @s; see trace.h. */
enum tv_status
tv_stream_decode_packet(struct tv_stream *s, uint64_t pkt,
    struct tv_packet_events *out)
{
	const struct tv_format_ops *ops = s->trace ? s->trace->ops : NULL;
	struct tv_map_guard g;
	enum tv_status st;

	if (!ops || !ops->decode_packet)
		return tv_error_set(&out->err, TV_UNSUPPORTED, NULL,
		    _("this trace format cannot decode packets"));
	tv_map_guard_enter(&g);
	if (sigsetjmp(g.jb, 0) != 0) {
		tv_map_guard_leave(&g);
		tv_error_clear(&out->err);
		out->status = fault_error(s->trace, s, g.addr, &out->err);
		return out->status;
	}
	st = ops->decode_packet(s, pkt, out);
	tv_map_guard_leave(&g);
	if (out->status != TV_OK)
		restat_error(s->trace, &out->err);
	return st;
}

/* Decode every scope of @ev into @arena through the driver. */
enum tv_status
tv_event_decode(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_event_fields *out, struct tv_error *err)
{
	return tv_event_decode_scopes(ev, arena, out, TV_SCOPES_ALL, err);
}

/* Decode the scopes @scopes of @ev (at least) through the driver. */
enum tv_status
tv_event_decode_scopes(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_event_fields *out, unsigned scopes, struct tv_error *err)
{
	const struct tv_format_ops *ops;
	struct tv_map_guard g;
	enum tv_status st;

	memset(out, 0, sizeof(*out));
	if (!ev || !ev->stream)
		return tv_error_set(err, TV_NOT_FOUND, NULL,
		    _("no event to decode"));
	ops = ev->stream->trace->ops;
	if (!ops || !ops->decode_fields)
		return tv_error_set(err, TV_UNSUPPORTED, NULL,
		    _("this trace format cannot decode event fields"));
	tv_map_guard_enter(&g);
	if (sigsetjmp(g.jb, 0) != 0) {
		tv_map_guard_leave(&g);
		memset(out, 0, sizeof(*out));
		return fault_error(ev->stream->trace, ev->stream, g.addr, err);
	}
	st = ops->decode_fields(ev, arena, out, scopes, err);
	tv_map_guard_leave(&g);
	if (st != TV_OK)
		restat_error(ev->stream->trace, err);
	return st;
}

/* See trace.h. */
enum tv_status
tv_event_visit_payload(const struct tv_event *ev, struct tv_arena *arena,
    tv_member_fn fn, void *ctx, struct tv_error *err)
{
	const struct tv_format_ops *ops = ev->stream->trace->ops;
	struct tv_event_fields f;
	const struct tv_value *v;
	struct tv_map_guard g;
	enum tv_status st;
	uint32_t i;

	if (ops != NULL && ops->visit_payload != NULL) {
		TV_MAP_GUARDED(g, st, ops->visit_payload(ev, arena, fn, ctx,
		    err), fault_error(ev->stream->trace, ev->stream, g.addr,
		    err));
		if (st != TV_OK)
			restat_error(ev->stream->trace, err);
		return st;
	}
	st = tv_event_decode_scopes(ev, arena, &f,
	    TV_SCOPE_BIT(TV_SCOPE_EVENT_PAYLOAD), err);
	v = f.scope[TV_SCOPE_EVENT_PAYLOAD];
	if (st != TV_OK || v == NULL)
		return st;
	if (v->fc != NULL && v->fc->kind == TV_FC_STRUCT) {
		for (i = 0; i < v->kids.count; i++) {
			const struct tv_field_class *m = v->kids.items[i].fc;

			if (m == NULL || (m->kind != TV_FC_INT &&
			    m->kind != TV_FC_ENUM && m->kind != TV_FC_FLOAT))
				fn(ctx, &v->kids.items[i], NULL);
		}
	} else {
		fn(ctx, v, NULL);
	}
	return TV_OK;
}

/* See flat.h: no bytes read, so no guard. */
void *
tv_event_flat_plan(const struct tv_trace *trace,
    const struct tv_event_class *ec, const struct tv_flat_ask *asks,
    unsigned n)
{
	const struct tv_format_ops *ops = trace->ops;

	if (ops == NULL || ops->flat_plan == NULL || ops->flat_read == NULL ||
	    n == 0 || n > TV_FLAT_MAX)
		return NULL;
	return ops->flat_plan(ec, asks, n);
}

/* The driver's flat read, its values used while they may be read. */
static bool
flat_read_used(const struct tv_event *ev, const void *plan,
    tv_flat_use_fn use, void *arg)
{
	struct tv_flat_value v[TV_FLAT_MAX];

	if (!ev->stream->trace->ops->flat_read(ev, plan, v))
		return false;
	use(arg, v);
	return true;
}

/* See flat.h. */
bool
tv_event_flat_read(const struct tv_event *ev, const void *plan,
    tv_flat_use_fn use, void *arg)
{
	struct tv_map_guard g;
	bool ok;

	/* a fault is said by the decode the caller falls back on */
	TV_MAP_GUARDED(g, ok, flat_read_used(ev, plan, use, arg), false);
	return ok;
}

/* Print @ev as the format's reference reader does; see trace.h. */
enum tv_status
tv_event_print(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *out, struct tv_error *err)
{
	const struct tv_format_ops *ops = ev->stream->trace->ops;
	struct tv_map_guard g;
	enum tv_status st;

	TV_MAP_GUARDED(g, st, ops->print_record(ev, arena, out, err),
	    fault_error(ev->stream->trace, ev->stream, g.addr, err));
	if (st != TV_OK)
		restat_error(ev->stream->trace, err);
	return st;
}

/* The reader's text of one event (the browser's rows); see trace.h. */
enum tv_status
tv_event_text(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *out, struct tv_error *err)
{
	const struct tv_format_ops *ops;
	struct tv_map_guard g;
	enum tv_status st;

	if (!ev || !ev->stream || ev->rec.kind != TV_REC_EVENT)
		return TV_UNSUPPORTED;
	ops = ev->stream->trace->ops;
	if (!ops || !ops->print_info)
		return TV_UNSUPPORTED;
	TV_MAP_GUARDED(g, st, ops->print_info(ev, arena, out, err),
	    fault_error(ev->stream->trace, ev->stream, g.addr, err));
	if (st != TV_OK)
		restat_error(ev->stream->trace, err);
	return st;
}

/* One --dump line with process columns from the state; see trace.h. */
enum tv_status
tv_event_print_state(const struct tv_event *ev, const struct tv_thread *run,
    struct tv_arena *arena, struct tv_strbuf *out, struct tv_error *err)
{
	const struct tv_format_ops *ops = ev->stream->trace->ops;
	struct tv_map_guard g;
	enum tv_status st;

	if (ops->print_record_state == NULL)
		return out != NULL ? tv_event_print(ev, arena, out, err) :
		    TV_OK;
	TV_MAP_GUARDED(g, st, ops->print_record_state(ev, run, arena, out,
	    err), fault_error(ev->stream->trace, ev->stream, g.addr, err));
	if (st != TV_OK)
		restat_error(ev->stream->trace, err);
	return st;
}

/* What @t's reference reader prints before its records; see trace.h. */
enum tv_status
tv_trace_print_header(const struct tv_trace *t, struct tv_strbuf *out,
    struct tv_error *err)
{
	struct tv_map_guard g;
	enum tv_status st;

	if (!t->ops->print_header)
		return TV_OK;
	TV_MAP_GUARDED(g, st, t->ops->print_header(t, out, err),
	    fault_error(t, NULL, g.addr, err));
	return st;
}

/* What @t's reference reader prints after its records; see trace.h. */
enum tv_status
tv_trace_print_footer(const struct tv_trace *t, struct tv_strbuf *out,
    struct tv_error *err)
{
	struct tv_map_guard g;
	enum tv_status st;

	if (!t->ops->print_footer)
		return TV_OK;
	TV_MAP_GUARDED(g, st, t->ops->print_footer(t, out, err),
	    fault_error(t, NULL, g.addr, err));
	return st;
}

/* A copy of packet @pkt's bytes; see trace.h. */
enum tv_status
tv_packet_copy(const struct tv_stream *s, uint64_t pkt, uint8_t **out,
    uint64_t *len, struct tv_error *err)
{
	const struct tv_format_ops *ops = s->trace ? s->trace->ops : NULL;
	const struct tv_packet *p = &s->packets[pkt];
	const uint8_t *bytes;
	struct tv_map_guard g;
	enum tv_status st;

	*out = NULL;
	*len = 0;
	tv_map_guard_enter(&g);
	if (sigsetjmp(g.jb, 0) != 0) {
		tv_map_guard_leave(&g);
		free(*out);
		*out = NULL;
		*len = 0;
		return fault_error(s->trace, s, g.addr, err);
	}
	if (ops && ops->packet_copy) {
		st = ops->packet_copy(s, pkt, out, len, err);
	} else if ((bytes = tv_packet_bytes(s, p)) != NULL && p->size > 0) {
		*out = tv_xmalloc((size_t)p->size);
		memcpy(*out, bytes, (size_t)p->size);
		*len = p->size;
		st = TV_OK;
	} else {
		st = TV_OK;
	}
	tv_map_guard_leave(&g);
	return st;
}

/* Open @path with @ops; see trace.h. */
enum tv_status
tv_trace_open_guarded(const struct tv_format_ops *ops, const char *path,
    unsigned flags, struct tv_trace ***out, uint32_t *nout,
    struct tv_error *err)
{
	struct tv_map_guard g;
	enum tv_status st;

	/* after a fault, what the driver built is lost: it was half made */
	TV_MAP_GUARDED(g, st, ops->open(path, flags, out, nout, err),
	    tv_error_at(err, TV_IO, path, TV_NO_OFFSET,
	    _("a file of the trace changed while it was opened")));
	return st;
}

/* @ops->discover under a guard; see trace.h. */
enum tv_status
tv_trace_discover_guarded(const struct tv_format_ops *ops, const char *path,
    unsigned flags, const struct tv_trace_set *set, struct tv_discovery *out,
    struct tv_error *err)
{
	struct tv_map_guard g;
	enum tv_status st;

	memset(out, 0, sizeof(*out));
	if (ops->discover == NULL)
		return TV_UNSUPPORTED;
	TV_MAP_GUARDED(g, st, ops->discover(path, flags, set, out, err),
	    tv_error_at(err, TV_IO, path, TV_NO_OFFSET,
	    _("a file of the trace changed while it was opened")));
	return st;
}

/* @trace's driver extend under a guard; see trace.h. */
enum tv_status
tv_trace_extend_guarded(struct tv_trace *trace, unsigned flags, bool *grew,
    struct tv_error *err)
{
	struct tv_map_guard g;
	enum tv_status st;

	*grew = false;
	if (trace->ops->extend == NULL)
		return tv_error_at(err, TV_UNSUPPORTED, trace->path,
		    TV_NO_OFFSET, _("a %s trace cannot be followed"),
		    trace->ops->name);
	TV_MAP_GUARDED(g, st, trace->ops->extend(trace, flags, grew, err),
	    tv_error_at(err, TV_IO, trace->path, TV_NO_OFFSET,
	    _("a file of the trace changed while it was opened")));
	return st;
}
