/*
 * What opening the two XML-described LTT kinds (facility era, 2004 new
 * format) shares: the trace and its ltt_xtrace, the tracefiles as
 * streams, the index pass that keeps the first damaged tracefile, the
 * facility_load walk over a control tracefile and the hand-over of the
 * opened trace; and the record their block walks push.  Each check here is written once for both kinds.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "ltt-xml.h"

/* See ltt-xml.h. */
uint32_t
ltt_xevent_index(const struct ltt_xfacility *f, const char *name)
{
	uint32_t i;

	for (i = 0; i < f->nevents; i++)
		if (strcmp(f->events[i].name, name) == 0)
			return i;
	return UINT32_MAX;
}

/* See ltt-xml.h. */
struct tv_trace *
ltt_xtrace_new(const struct tv_format_ops *ops, const char *path)
{
	struct ltt_xtrace *xt;
	struct tv_trace *t;
	char *abs;

	abs = realpath(path, NULL);
	t = tv_trace_create(ops, abs ? abs : path);
	free(abs);
	xt = tv_xcalloc(1, sizeof(*xt));
	t->priv = xt;
	ltt_xdefs_init(&xt->defs, &t->arena);
	return t;
}

/* See ltt-xml.h. */
enum tv_status
ltt_xadd_file(struct tv_trace *t, const char *dir, const char *name,
    const char *sname, int32_t cpu, bool control, bool skip_empty,
    struct tv_error *err)
{
	struct ltt_xstream *sp;
	struct tv_stream *s;
	struct stat stb;
	enum tv_status st;
	char *p;

	tv_xasprintf(&p, "%s/%s", dir, name);
	if (skip_empty && (stat(p, &stb) != 0 || !S_ISREG(stb.st_mode) ||
	    stb.st_size == 0)) {
		free(p);
		return TV_OK;
	}
	s = tv_trace_add_stream(t, sname);
	sp = tv_xcalloc(1, sizeof(*sp));
	sp->control = control;
	s->priv = sp;
	s->cpu = cpu;
	s->clock = t->clocks;
	st = tv_stream_add_file(s, p, NULL, err);
	free(p);
	return st;
}

/* See ltt-xml.h. */
void
ltt_xindex_streams(struct tv_trace *t,
    enum tv_status (*index)(struct tv_stream *, struct tv_error *),
    struct tv_error *damage)
{
	struct tv_error e;
	uint32_t i;

	for (i = 0; i < t->nstreams; i++) {
		tv_error_clear(&e);
		t->streams[i]->clock = t->clocks;
		if (index(t->streams[i], &e) != TV_OK &&
		    damage->status == TV_OK)
			*damage = e;
	}
}

/* See ltt-xml.h. */
enum tv_status
ltt_xload_facilities(struct tv_trace *t, struct tv_stream *s,
    const struct ltt_xload *how, struct tv_error *err)
{
	enum tv_status st = TV_OK, dst;
	struct tv_arena scratch;
	uint64_t k, r;

	tv_arena_init(&scratch);
	for (k = 0; k < s->npackets && st == TV_OK; k++) {
		struct tv_packet_events pe;

		memset(&pe, 0, sizeof(pe));
		dst = t->ops->decode_packet(s, k, &pe);
		if (dst != TV_OK && how->strict) {
			st = dst;
			if (err)
				*err = pe.err;
		}
		for (r = 0; r < pe.count && st == TV_OK; r++) {
			const struct tv_event_class *ec =
			    t->classes[pe.recs[r].class_index];
			struct tv_event ev = { s, k, r, pe.recs[r] };
			struct tv_event_fields fl;

			if (!how->wanted(t, ec, how->ctx))
				continue;
			tv_arena_reset(&scratch);
			dst = ltt_xdecode_fields(&ev, &scratch, &fl,
			    TV_SCOPES_ALL, how->strict ? err : NULL);
			if (dst != TV_OK) {
				if (how->strict)
					st = dst;
				continue;
			}
			if (fl.scope[TV_SCOPE_EVENT_PAYLOAD])
				st = how->apply(t, &ev,
				    fl.scope[TV_SCOPE_EVENT_PAYLOAD], how->ctx,
				    err);
		}
		tv_packet_events_fini(&pe);
	}
	tv_arena_fini(&scratch);
	return st;
}

/* See ltt-xml.h. */
const uint8_t *
ltt_xblock(const struct tv_stream *s, uint64_t pkt,
    struct tv_packet_events *out, const struct tv_packet **p,
    const struct tv_mapfile **mf)
{
	out->status = TV_OK;
	tv_error_clear(&out->err);
	return tv_event_bytes(s, pkt, p, mf);
}

/* See ltt-xml.h. */
enum tv_status
ltt_xblock_damage(struct tv_packet_events *out, const struct tv_mapfile *mf,
    const struct tv_packet *p, uint64_t pos, const struct ltt_xclass *xc)
{
	if (xc == NULL)
		return tv_error_at(&out->err, TV_CORRUPT, mf->path,
		    p->offset + pos, _("event header runs past the block"));
	return tv_error_at(&out->err, TV_CORRUPT, mf->path, p->offset + pos,
	    _("payload of %s runs past the block"), xc->ec->name);
}

/* See ltt-xml.h. */
uint64_t
ltt_tsc_extend(uint64_t tsc, uint32_t low)
{
	uint64_t full = (tsc & ~UINT64_C(0xffffffff)) | low;

	return full < tsc ? full + (UINT64_C(1) << 32) : full;
}

/* See ltt-xml.h. */
void
ltt_xpush_event(struct tv_packet_events *out, const struct ltt_xclass *xc,
    uint64_t pos, int64_t ts, uint64_t cycles)
{
	struct tv_event_rec *r = tv_packet_events_push(out);

	r->ts = ts;
	r->bit_offset = pos * 8;
	r->class_index = xc->ec->index;
	r->kind = TV_REC_EVENT;
	r->count = cycles;
}

/* See ltt-xml.h. */
enum tv_status
ltt_xopen_end(struct tv_trace *t, enum tv_status st,
    const struct tv_error *damage, struct tv_trace ***out, uint32_t *nout,
    struct tv_error *err)
{
	if (st != TV_OK) {
		tv_trace_destroy(t);
		return st;
	}
	*out = tv_xcalloc(1, sizeof(**out));
	(*out)[0] = t;
	*nout = 1;
	if (damage->status != TV_OK && err)
		*err = *damage;
	return damage->status;
}
