/*
 * LTT events: compact event headers (5-bit id + 27-bit wrapped TSC, with
 * escapes to a 16-bit id, an explicit size and a full 64-bit TSC), the
 * TSC reconstruction across wraps, TSC to ns exactly as LTTV computes it,
 * payload sizes from the marker formats, and the driver's decode_packet
 * and decode_fields.
 */
#include "tview/tview.h"

#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "ltt-priv.h"

#define ID_SIZE_TSC	29	/* 16-bit id, size, 64-bit TSC follow */
#define ID_SIZE		30	/* 16-bit id and size follow */
#define ID_ONLY		31	/* 16-bit id follows */
#define NS_PER_S_D	1000000000.0
#define MAX_NS_D	9.0e18

/* @cycles cycles in ns as LTTV computes it: through a double, truncated. */
static uint64_t
cycles_ns(const struct ltt_trace_priv *tp, uint64_t cycles)
{
	double d = (double)cycles * NS_PER_S_D * tp->freq_scale /
	    (double)tp->start_freq;

	if (!(d < MAX_NS_D))
		return (uint64_t)MAX_NS_D;
	return (uint64_t)d;
}

/* LTTV's ltt_interpolate_time_from_tsc(), in ns. */
int64_t
ltt_tsc_to_ns(const struct ltt_trace_priv *tp, uint64_t tsc)
{
	uint64_t base = tp->start_time_from_tsc;

	if (tp->ops->tsc_whole)
		return (int64_t)cycles_ns(tp, tsc);
	if (tsc > tp->start_tsc)
		return (int64_t)(base + cycles_ns(tp, tsc - tp->start_tsc));
	return (int64_t)base - (int64_t)cycles_ns(tp, tp->start_tsc - tsc);
}

/* Error for an event header cut by the end of the sub-buffer content. */
static enum tv_status
truncated(const char *path, uint64_t off, struct tv_error *err)
{
	return tv_error_at(err, TV_CORRUPT, path, off,
	    _("event header runs past the end of the sub-buffer data"));
}

/* Decode the event header at @pos; see ltt-priv.h. */
enum tv_status
ltt_read_head(const struct ltt_trace_priv *tp, const uint8_t *p, uint64_t pos,
    uint64_t end, uint64_t *tsc, struct ltt_ev_head *h, const char *path,
    uint64_t file_off, struct tv_error *err)
{
	uint32_t bits = tp->ops->tsc_bits;
	uint64_t mask = (UINT64_C(1) << bits) - 1;
	uint32_t w, packed, ts;

	h->start = pos;
	pos += ltt_align(pos, 4, tp->alignment);
	if (pos > end || end - pos < 4)
		return truncated(path, file_off + h->start, err);
	w = ltt_u32(p + pos, tp->swap);
	pos += 4;
	packed = w >> bits;
	ts = (uint32_t)(w & mask);
	h->size = UINT32_MAX;
	h->id = packed;
	if (packed == ID_SIZE_TSC || packed == ID_SIZE || packed == ID_ONLY) {
		if (end - pos < 2)
			return truncated(path, file_off + h->start, err);
		h->id = ltt_u16(p + pos, tp->swap);
		pos += 2;
	}
	if (packed == ID_SIZE_TSC || packed == ID_SIZE) {
		if (end - pos < 2)
			return truncated(path, file_off + h->start, err);
		h->size = ltt_u16(p + pos, tp->swap);
		pos += 2;
		if (h->size == 0xFFFF) {
			if (end - pos < 4)
				return truncated(path, file_off + h->start,
				    err);
			h->size = ltt_u32(p + pos, tp->swap);
			pos += 4;
		}
	}
	if (packed == ID_SIZE_TSC) {
		pos += ltt_align(pos, 8, tp->alignment);
		if (pos > end || end - pos < 8)
			return truncated(path, file_off + h->start, err);
		*tsc = ltt_u64(p + pos, tp->swap);
		pos += 8;
	} else if (ts < (*tsc & mask)) {
		*tsc = ((*tsc & ~mask) + (mask + 1)) | ts;	/* wrapped */
	} else {
		*tsc = (*tsc & ~mask) | ts;
	}
	h->tsc = *tsc;
	h->data = pos;
	return TV_OK;
}

/* Size of the metadata core events before their formats are known. */
static enum tv_status
core_size(const struct ltt_trace_priv *tp, uint32_t id, const uint8_t *p,
    uint64_t data, uint64_t end, uint64_t *size)
{
	uint64_t off = data;
	int i, nstr = id == 0 ? 2 : 3;

	for (i = 0; i < nstr; i++) {
		const uint8_t *z = memchr(p + off, 0, end - off);

		if (!z)
			return TV_CORRUPT;
		off = (uint64_t)(z - p) + 1;
	}
	if (id == 0) {
		off += ltt_align(off - data, 2, tp->alignment);
		off += 2 + 5;
		if (off > end)
			return TV_CORRUPT;
	}
	*size = off - data;
	return TV_OK;
}

/* Payload start and size of one event; see ltt-priv.h. */
enum tv_status
ltt_payload_size(const struct ltt_trace_priv *tp, const struct ltt_marker *m,
    const uint8_t *p, uint64_t data, uint64_t end, uint64_t *data_out,
    uint64_t *size, const char *path, uint64_t file_off,
    struct tv_error *err)
{
	const struct ltt_mformat *f = &m->fmt;
	uint64_t off = 0;
	uint32_t i;

	if (!m->format) {
		/* LTTV knows no fields: the header size, or nothing. */
		*data_out = data;
		*size = 0;
		if (m->id < 2 && tp->channels[m->channel].is_metadata &&
		    core_size(tp, m->id, p, data, end, size) != TV_OK)
			return tv_error_at(err, TV_CORRUPT, path,
			    file_off + data,
			    _("metadata event runs past the sub-buffer data"));
		return TV_OK;
	}
	data += ltt_align(data, f->largest_align, m->sizes.alignment);
	*data_out = data;
	if (data > end)
		return tv_error_at(err, TV_CORRUPT, path, file_off + data,
		    _("event payload runs past the sub-buffer data"));
	if (f->fixed_size >= 0) {
		off = (uint64_t)f->fixed_size;
	} else {
		for (i = 0; i < f->nfields; i++) {
			const struct ltt_mfield *fd = &f->fields[i];
			const uint8_t *z;

			if (fd->type != LTT_F_STRING) {
				off += ltt_align(off, fd->size,
				    m->sizes.alignment);
				off += fd->size;
				if (off > end - data)
					break;
				continue;
			}
			if (off > end - data)
				break;
			z = memchr(p + data + off, 0, end - data - off);
			if (!z)
				return tv_error_at(err, TV_CORRUPT, path,
				    file_off + data + off,
				    _("unterminated string in field %s"),
				    fd->name);
			off = (uint64_t)(z - (p + data)) + 1;
		}
	}
	if (off > end - data)
		return tv_error_at(err, TV_CORRUPT, path, file_off + data,
		    _("event payload runs past the sub-buffer data"));
	*size = off;
	return TV_OK;
}

/* The marker of event @id in the channel of stream @s, or NULL. */
static const struct ltt_marker *
find_marker(const struct ltt_trace_priv *tp, const struct tv_stream *s,
    uint32_t id)
{
	const struct ltt_stream_priv *sp = s->priv;
	const struct ltt_channel *ch = &tp->channels[sp->channel];

	return id < ch->nids ? ch->by_id[id] : NULL;
}

/* Walk the events of packet @pkt of @s into @out. */
enum tv_status
ltt_decode_packet(struct tv_stream *s, uint64_t pkt,
    struct tv_packet_events *out)
{
	const struct ltt_trace_priv *tp = s->trace->priv;
	const struct tv_packet *p;
	const struct tv_mapfile *mf;
	const uint8_t *bytes;
	uint64_t pos, end, tsc;
	enum tv_status st = TV_OK;
	struct tv_event_rec *r;

	out->status = TV_OK;
	tv_error_clear(&out->err);
	bytes = tv_event_bytes(s, pkt, &p, &mf);
	if (!bytes)
		return TV_NOT_FOUND;
	end = p->content_bits / 8;
	pos = tp->ops->header_size;
	tsc = p->cycles_begin;
	if (p->discarded) {
		r = tv_packet_events_push(out);
		memset(r, 0, sizeof(*r));
		r->kind = TV_REC_DISCARDED;
		r->ts = p->ts_begin;
		r->count = p->discarded;
	}
	if (p->flags & TV_PACKET_LOST_BEFORE) {
		const struct tv_packet *prev = pkt ? p - 1 : NULL;

		r = tv_packet_events_push(out);
		memset(r, 0, sizeof(*r));
		r->kind = TV_REC_LOST_PACKETS;
		r->ts = p->ts_begin;
		r->count = prev ? p->seq_num - prev->seq_num - 1 : p->seq_num;
	}
	while (pos < end) {
		const struct ltt_marker *m;
		struct ltt_ev_head h;
		uint64_t data, size;

		st = ltt_read_head(tp, bytes, pos, end, &tsc, &h, mf->path,
		    p->offset, &out->err);
		if (st != TV_OK)
			break;
		m = find_marker(tp, s, h.id);
		if (!m) {
			st = tv_error_at(&out->err, TV_CORRUPT, mf->path,
			    p->offset + h.start,
			    _("unknown marker id %u in channel %s"),
			    (unsigned)h.id, tp->channels[((struct
			    ltt_stream_priv *)s->priv)->channel].name);
			break;
		}
		st = ltt_payload_size(tp, m, bytes, h.data, end, &data,
		    &size, mf->path, p->offset, &out->err);
		if (st != TV_OK)
			break;
		if (h.size != UINT32_MAX && h.size != size) {
			if (m->format) {
				st = tv_error_at(&out->err, TV_CORRUPT,
				    mf->path, p->offset + h.start,
				    _("event %s: size %u in the header, %llu "
				    "from its format"), m->ec->name,
				    (unsigned)h.size,
				    (unsigned long long)size);
				break;
			}
			if (h.size > end - data) {
				st = truncated(mf->path, p->offset + h.start,
				    &out->err);
				break;
			}
			size = h.size;
		}
		r = tv_packet_events_push(out);
		r->ts = ltt_tsc_to_ns(tp, h.tsc);
		r->bit_offset = h.start * 8;
		r->class_index = m->ec->index;
		r->kind = TV_REC_EVENT;
		r->count = h.tsc;
		pos = data + size;
	}
	out->status = st;
	return st;
}

/* Read one integer field of @size bytes at @q. */
static uint64_t
read_int(const uint8_t *q, uint32_t size, bool swap, bool sign)
{
	uint64_t v;

	switch (size) {
	case 1:
		v = q[0];
		return sign ? (uint64_t)(int64_t)(int8_t)v : v;
	case 2:
		v = ltt_u16(q, swap);
		return sign ? (uint64_t)(int64_t)(int16_t)v : v;
	case 4:
		v = ltt_u32(q, swap);
		return sign ? (uint64_t)(int64_t)(int32_t)v : v;
	default:
		return ltt_u64(q, swap);
	}
}

/* Decode the payload of one event (loss records have none). */
enum tv_status
ltt_decode_fields(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_event_fields *out, unsigned scopes TV_UNUSED,
    struct tv_error *err)
{
	const struct tv_stream *s = ev->stream;
	const struct ltt_trace_priv *tp = s->trace->priv;
	const struct tv_event_class *ec;
	const struct ltt_marker *m;
	const struct tv_packet *p;
	const struct tv_mapfile *mf;
	const uint8_t *bytes;
	struct ltt_ev_head h;
	struct tv_value *v;
	uint64_t end, data, size, off = 0, tsc = 0;
	enum tv_status st;
	bool host_be = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	uint32_t i;

	memset(out, 0, sizeof(*out));
	if (ev->rec.kind != TV_REC_EVENT)
		return TV_OK;
	bytes = tv_event_bytes(s, ev->packet, &p, &mf);
	if (!bytes || ev->rec.class_index >= s->trace->nclasses)
		return tv_error_at(err, TV_NOT_FOUND, NULL, TV_NO_OFFSET,
		    _("no such event"));
	end = p->content_bits / 8;
	ec = s->trace->classes[ev->rec.class_index];
	m = ec->priv;
	st = ltt_read_head(tp, bytes, ev->rec.bit_offset / 8, end, &tsc, &h,
	    mf->path, p->offset, err);
	if (st != TV_OK)
		return st;
	st = ltt_payload_size(tp, m, bytes, h.data, end, &data, &size,
	    mf->path, p->offset, err);
	if (st != TV_OK)
		return st;
	if (!ec->payload)
		return TV_OK;
	v = tv_arena_zalloc(arena, sizeof(*v));
	v->fc = ec->payload;
	v->bit_offset = data * 8;
	v->bit_size = size * 8;
	v->kids.count = m->fmt.nfields;
	v->kids.items = tv_arena_zalloc(arena,
	    sizeof(*v->kids.items) * (m->fmt.nfields + 1));
	for (i = 0; i < m->fmt.nfields; i++) {
		const struct ltt_mfield *fd = &m->fmt.fields[i];
		struct tv_value *k = &v->kids.items[i];
		const uint8_t *z;

		k->fc = ec->payload->structure.members[i].fc;
		k->name = fd->name;
		if (fd->type == LTT_F_STRING) {
			if (off > size)
				break;
			z = memchr(bytes + data + off, 0, size - off);
			k->bit_offset = (data + off) * 8;
			k->str.ptr = (const char *)bytes + data + off;
			k->str.len = z ? (size_t)(z - (bytes + data + off)) :
			    size - off;
			k->bit_size = (k->str.len + 1) * 8;
			off += k->str.len + 1;
			continue;
		}
		off += ltt_align(off, fd->size, m->sizes.alignment);
		if (off + fd->size > size)
			return tv_error_at(err, TV_CORRUPT, mf->path,
			    p->offset + data + off,
			    _("field %s runs past the event"), fd->name);
		k->bit_offset = (data + off) * 8;
		k->bit_size = fd->size * 8u;
		k->u = read_int(bytes + data + off, fd->size,
		    fd->net_order ? !host_be : tp->swap,
		    fd->type == LTT_F_SIGNED);
		off += fd->size;
	}
	out->scope[TV_SCOPE_EVENT_PAYLOAD] = v;
	return TV_OK;
}
