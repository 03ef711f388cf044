/*
 * Payloads of XML-described LTT events: the XML types (ltt_xtype) made
 * into field classes once the traced machine's C type sizes are known
 * (facility_load gives them), the decoder of those classes (also used to
 * skip a payload whose size the event header does not give), the event
 * classes "facility.event", and LTTV textDump's rendering of values.
 */
#include "tview/tview.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/bytes.h"
#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "ltt-priv.h"
#include "ltt-xml.h"

#define NS_PER_S	INT64_C(1000000000)

/* Bytes of an integer whose size comes from @k, valid or 4. */
static uint8_t
resolve_size(const struct ltt_xtype *t, const struct ltt_xsizes *sz)
{
	uint8_t b;

	switch (t->sizek) {
	case LTT_XS_INT:
		b = sz->int_size;
		break;
	case LTT_XS_LONG:
		b = sz->long_size;
		break;
	case LTT_XS_POINTER:
		b = sz->pointer_size;
		break;
	case LTT_XS_SIZE_T:
		b = sz->size_t_size;
		break;
	default:
		b = t->bytes;
		break;
	}
	return (b == 1 || b == 2 || b == 4 || b == 8) ? b : 4;
}

/* An integer class of @bytes bytes. */
static struct tv_field_class *
int_fc(struct tv_arena *a, uint8_t bytes, bool is_signed,
    enum tv_byte_order bo, uint8_t base)
{
	struct tv_field_class *fc = tv_field_class_create(a, TV_FC_INT);

	fc->align = bytes * 8u;
	fc->integer.size = bytes * 8u;
	fc->integer.is_signed = is_signed;
	fc->integer.byte_order = bo;
	fc->integer.base = base;
	return fc;
}

/* See ltt-xml.h. */
struct tv_field_class *
ltt_xtype_fc(const struct ltt_xtype *t, const struct ltt_xsizes *sz,
    struct tv_arena *a)
{
	enum tv_byte_order bo = t->net_order ? TV_BO_BE : sz->bo;
	struct tv_field_class *fc;
	struct ltt_xseq_fc *sfc;
	uint32_t i, al = 8;

	switch (t->kind) {
	case LTT_X_INT:
	case LTT_X_UINT:
		return int_fc(a, resolve_size(t, sz), t->kind == LTT_X_INT, bo,
		    10);
	case LTT_X_POINTER:
		return int_fc(a, resolve_size(t, sz), false, bo, 16);
	case LTT_X_FLOAT:
		fc = tv_field_class_create(a, TV_FC_FLOAT);
		fc->align = t->bytes * 8u;
		fc->flt.exp_dig = t->bytes == 4 ? 8 : 11;
		fc->flt.mant_dig = t->bytes == 4 ? 24 : 53;
		fc->flt.byte_order = sz->bo;
		return fc;
	case LTT_X_STRING:
		fc = tv_field_class_create(a, TV_FC_STRING);
		fc->align = 8;
		fc->string.encoding = TV_ENC_UTF8;
		return fc;
	case LTT_X_ENUM: {
		uint8_t b = resolve_size(t, sz);

		fc = tv_field_class_create(a, TV_FC_ENUM);
		fc->align = b * 8u;
		fc->enumeration.integer.size = b * 8u;
		fc->enumeration.integer.byte_order = bo;
		fc->enumeration.integer.base = 10;
		fc->enumeration.maps = tv_arena_zalloc(a,
		    sizeof(*fc->enumeration.maps) * (t->nlabels + 1));
		for (i = 0; i < t->nlabels; i++) {
			struct tv_enum_mapping *m = &fc->enumeration.maps[i];

			m->label = t->labels[i].name;
			m->ranges = tv_arena_zalloc(a, sizeof(*m->ranges));
			m->ranges[0].lo = m->ranges[0].hi =
			    (uint64_t)t->labels[i].value;
			m->nranges = 1;
		}
		fc->enumeration.nmaps = t->nlabels;
		return fc;
	}
	case LTT_X_STRUCT:
	case LTT_X_UNION: {
		struct tv_field_member *ms = tv_arena_zalloc(a,
		    sizeof(*ms) * (t->nfields + 1));

		fc = tv_field_class_create(a, t->kind == LTT_X_STRUCT ?
		    TV_FC_STRUCT : TV_FC_VARIANT);
		for (i = 0; i < t->nfields; i++) {
			ms[i].name = t->fields[i].name;
			ms[i].fc = ltt_xtype_fc(t->fields[i].type, sz, a);
			al = TV_MAX(al, ms[i].fc->align);
		}
		if (t->kind == LTT_X_STRUCT) {
			fc->structure.members = ms;
			fc->structure.nmembers = t->nfields;
		} else {
			fc->variant.options = ms;
			fc->variant.noptions = t->nfields;
			fc->variant.tag_slot = -1;
			fc->variant.tag_fc = ltt_xtype_fc(t->len, sz, a);
			al = TV_MAX(al, fc->variant.tag_fc->align);
		}
		fc->align = al;
		return fc;
	}
	case LTT_X_ARRAY:
		fc = tv_field_class_create(a, TV_FC_ARRAY);
		fc->array.elem = ltt_xtype_fc(t->elem, sz, a);
		fc->array.length = t->length;
		fc->array.length_slot = -1;
		fc->align = fc->array.elem->align;
		return fc;
	case LTT_X_SEQUENCE:
	default:
		sfc = tv_arena_zalloc(a, sizeof(*sfc));
		sfc->fc.kind = TV_FC_SEQUENCE;
		sfc->fc.save_slot = -1;
		sfc->fc.array.elem = ltt_xtype_fc(t->elem, sz, a);
		sfc->fc.array.length_slot = -1;
		sfc->len = ltt_xtype_fc(t->len, sz, a);
		sfc->fc.align = TV_MAX(sfc->len->align,
		    sfc->fc.array.elem->align);
		return &sfc->fc;
	}
}

/* See ltt-xml.h. */
int64_t
ltt_fc_fixed_size(const struct tv_field_class *fc, uint8_t alignment)
{
	int64_t sum = 0, k;
	uint32_t i;

	if (alignment)
		return -1;
	switch (fc->kind) {
	case TV_FC_INT:
		return fc->integer.size / 8;
	case TV_FC_ENUM:
		return fc->enumeration.integer.size / 8;
	case TV_FC_FLOAT:
		return fc->flt.mant_dig == 24 ? 4 : 8;
	case TV_FC_STRUCT:
		for (i = 0; i < fc->structure.nmembers; i++) {
			k = ltt_fc_fixed_size(fc->structure.members[i].fc, 0);
			if (k < 0 || sum > (INT64_C(1) << 41))
				return -1;
			sum += k;
		}
		return sum;
	case TV_FC_ARRAY:
		k = ltt_fc_fixed_size(fc->array.elem, 0);
		if (k < 0 || (k && (uint64_t)fc->array.length >
		    (UINT64_C(1) << 40) / (uint64_t)k))
			return -1;
		return k * (int64_t)fc->array.length;
	default:
		return -1;
	}
}

/* Decode one integer-like class at *@pos; false if it does not fit. */
static bool
decode_int(const struct tv_int_class *ic, const uint8_t *base,
    uint64_t *pos, uint64_t end, uint64_t *out)
{
	uint32_t bytes = ic->size / 8;
	uint64_t v;

	if (*pos > end || end - *pos < bytes)
		return false;
	v = tv_get_u(base + *pos, bytes, ic->byte_order == TV_BO_BE);
	if (ic->is_signed && bytes < 8 && (v >> (bytes * 8 - 1)) & 1)
		v |= ~UINT64_C(0) << (bytes * 8);
	*pos += bytes;
	*out = v;
	return true;
}

/* Decode @n elements of @elem into @out's kids (or skip them). */
static enum tv_status
decode_elems(const struct tv_field_class *elem, uint64_t n,
    const uint8_t *base, uint64_t *pos, uint64_t end, uint8_t alignment,
    struct tv_arena *a, struct tv_value *out, unsigned depth)
{
	enum tv_status st;
	uint64_t i;

	/* Every element takes a byte at least (see may_be_empty()). */
	if (n > LTT_X_MAX_ARRAY || n > end - *pos)
		return TV_CORRUPT;
	if (out) {
		out->kids.items = tv_arena_zalloc(a,
		    sizeof(*out->kids.items) * (n ? n : 1));
		out->kids.count = (uint32_t)n;
	}
	for (i = 0; i < n; i++) {
		st = ltt_xdecode(elem, base, pos, end, alignment, a,
		    out ? &out->kids.items[i] : NULL, depth + 1);
		if (st != TV_OK)
			return st;
	}
	return TV_OK;
}

/* See ltt-xml.h. */
enum tv_status
ltt_xdecode(const struct tv_field_class *fc, const uint8_t *base,
    uint64_t *pos, uint64_t end, uint8_t alignment, struct tv_arena *a,
    struct tv_value *out, unsigned depth)
{
	const struct tv_field_class *opt;
	enum tv_status st;
	uint64_t v, start;
	uint32_t i;

	if (depth > LTT_X_MAX_DEPTH * 2)
		return TV_CORRUPT;
	if (alignment)
		*pos += ltt_align(*pos, fc->align / 8, alignment);
	if (*pos > end)
		return TV_CORRUPT;
	start = *pos;
	if (out) {
		out->fc = fc;
		out->bit_offset = start * 8;
	}
	switch (fc->kind) {
	case TV_FC_INT:
	case TV_FC_ENUM:
		if (!decode_int(fc->kind == TV_FC_INT ? &fc->integer :
		    &fc->enumeration.integer, base, pos, end, &v))
			return TV_CORRUPT;
		if (out)
			out->u = v;
		break;
	case TV_FC_FLOAT: {
		struct tv_int_class ic = { .size = fc->flt.mant_dig == 24 ?
		    32 : 64, .byte_order = fc->flt.byte_order };

		if (!decode_int(&ic, base, pos, end, &v))
			return TV_CORRUPT;
		if (out && ic.size == 32) {
			uint32_t u = (uint32_t)v;
			float f;

			memcpy(&f, &u, sizeof(f));
			out->f = f;
		} else if (out) {
			memcpy(&out->f, &v, sizeof(out->f));
		}
		break;
	}
	case TV_FC_STRING: {
		const uint8_t *z = memchr(base + *pos, 0, end - *pos);

		if (!z)
			return TV_CORRUPT;
		if (out) {
			out->str.ptr = (const char *)base + *pos;
			out->str.len = (size_t)(z - (base + *pos));
		}
		*pos = (uint64_t)(z - base) + 1;
		break;
	}
	case TV_FC_STRUCT:
		if (out) {
			out->kids.items = tv_arena_zalloc(a,
			    sizeof(*out->kids.items) *
			    (fc->structure.nmembers + 1));
			out->kids.count = fc->structure.nmembers;
		}
		for (i = 0; i < fc->structure.nmembers; i++) {
			struct tv_value *k = out ? &out->kids.items[i] : NULL;

			st = ltt_xdecode(fc->structure.members[i].fc, base,
			    pos, end, alignment, a, k, depth + 1);
			if (st != TV_OK)
				return st;
			if (k)
				k->name = fc->structure.members[i].name;
		}
		break;
	case TV_FC_VARIANT:
		if (alignment)
			*pos += ltt_align(*pos, fc->variant.tag_fc->align / 8,
			    alignment);
		if (!decode_int(&fc->variant.tag_fc->integer, base, pos, end,
		    &v) || v >= fc->variant.noptions)
			return TV_CORRUPT;
		opt = fc->variant.options[v].fc;
		if (out) {
			out->kids.items = tv_arena_zalloc(a,
			    sizeof(*out->kids.items));
			out->kids.count = 1;
		}
		st = ltt_xdecode(opt, base, pos, end, alignment, a,
		    out ? &out->kids.items[0] : NULL, depth + 1);
		if (st != TV_OK)
			return st;
		if (out)
			out->kids.items[0].name = fc->variant.options[v].name;
		break;
	case TV_FC_ARRAY:
		st = decode_elems(fc->array.elem, fc->array.length, base, pos,
		    end, alignment, a, out, depth);
		if (st != TV_OK)
			return st;
		break;
	case TV_FC_SEQUENCE: {
		const struct ltt_xseq_fc *sfc = (const struct ltt_xseq_fc *)fc;

		if (alignment)
			*pos += ltt_align(*pos, sfc->len->align / 8,
			    alignment);
		if (!decode_int(&sfc->len->integer, base, pos, end, &v))
			return TV_CORRUPT;
		st = decode_elems(fc->array.elem, v, base, pos, end,
		    alignment, a, out, depth);
		if (st != TV_OK)
			return st;
		break;
	}
	default:
		return TV_CORRUPT;
	}
	if (out)
		out->bit_size = (*pos - start) * 8;
	return TV_OK;
}

/* See ltt-xml.h. */
void
ltt_xprint_time(struct tv_strbuf *sb, int64_t ns)
{
	char frac[10];
	int64_t sec = ns / NS_PER_S, sub = ns % NS_PER_S;
	int i;

	if (ns < 0) {
		tv_strbuf_addc(sb, '-');
		sec = -sec;
		sub = -sub;
	}
	tv_strbuf_add_i64(sb, sec);
	frac[0] = '.';
	for (i = 9; i >= 1; i--, sub /= 10)
		frac[i] = (char)('0' + sub % 10);
	tv_strbuf_add(sb, frac, sizeof(frac));
}

/* See ltt-xml.h. */
void
ltt_xprint_value(struct tv_strbuf *sb, const struct tv_value *v)
{
	const struct tv_field_class *fc = v->fc;
	const char *label;
	char buf[64];
	uint32_t i;

	switch (fc->kind) {
	case TV_FC_INT:
		if (fc->integer.base == 16) {
			snprintf(buf, sizeof(buf), "0x%" PRIx64, v->u);
			tv_strbuf_adds(sb, buf);
		} else if (fc->integer.is_signed) {
			tv_strbuf_add_i64(sb, v->s);
		} else {
			tv_strbuf_add_u64(sb, v->u);
		}
		break;
	case TV_FC_ENUM:
		label = tv_enum_label(fc, v->u);
		if (label)
			tv_strbuf_adds(sb, label);
		else
			tv_strbuf_add_u64(sb, v->u);
		break;
	case TV_FC_FLOAT:
		(void)tv_fmt_g(buf, sizeof(buf), v->f);
		tv_strbuf_adds(sb, buf);
		break;
	case TV_FC_STRING:
		tv_strbuf_addc(sb, '"');
		tv_strbuf_add(sb, v->str.ptr ? v->str.ptr : "",
		    v->str.ptr ? v->str.len : 0);
		tv_strbuf_addc(sb, '"');
		break;
	case TV_FC_STRUCT:
	case TV_FC_VARIANT:
		tv_strbuf_adds(sb, "{ ");
		for (i = 0; i < v->kids.count; i++) {
			if (i)
				tv_strbuf_adds(sb, ", ");
			tv_strbuf_adds(sb, v->kids.items[i].name ?
			    v->kids.items[i].name : "");
			tv_strbuf_adds(sb, " = ");
			ltt_xprint_value(sb, &v->kids.items[i]);
		}
		tv_strbuf_adds(sb, v->kids.count ? " }" : "}");
		break;
	default:
		tv_strbuf_adds(sb, "{ ");
		for (i = 0; i < v->kids.count; i++) {
			if (i)
				tv_strbuf_adds(sb, ", ");
			ltt_xprint_value(sb, &v->kids.items[i]);
		}
		tv_strbuf_adds(sb, v->kids.count ? " }" : "}");
		break;
	}
}

/* See ltt-xml.h. */
struct ltt_xclass *
ltt_xclass_add(struct tv_trace *t, const struct ltt_xfacility *f,
    uint32_t event, const struct ltt_xsizes *sz)
{
	struct ltt_xclass *xc = tv_arena_zalloc(&t->arena, sizeof(*xc));
	struct tv_event_class *ec = tv_arena_zalloc(&t->arena, sizeof(*ec));
	char *full;

	xc->fac = f;
	xc->alignment = sz->alignment;
	xc->event = event;
	if (f->events[event].type) {
		xc->payload = ltt_xtype_fc(f->events[event].type, sz,
		    &t->arena);
		if (xc->payload->structure.nmembers == 0)
			xc->payload = NULL;
	}
	xc->fixed = xc->payload ? ltt_fc_fixed_size(xc->payload,
	    sz->alignment) : 0;
	tv_xasprintf(&full, "%s.%s", f->name, f->events[event].name);
	ec->name = tv_intern(t->names, full, strlen(full));
	free(full);
	ec->id = t->nclasses;
	ec->loglevel = -1;
	ec->index = t->nclasses;
	ec->payload = xc->payload;
	ec->count = TV_COUNT_UNKNOWN;
	ec->priv = xc;
	xc->ec = ec;
	/* Arena arrays cannot grow in place: double into a new one. */
	if ((t->nclasses & (t->nclasses - 1)) == 0) {
		struct tv_event_class **n = tv_arena_zalloc(&t->arena,
		    sizeof(*n) * (t->nclasses ? t->nclasses * 2 : 8));

		if (t->nclasses)
			memcpy(n, t->classes, sizeof(*n) * t->nclasses);
		t->classes = n;
	}
	t->classes[t->nclasses++] = ec;
	return xc;
}

/* See ltt-xml.h. */
void
ltt_xset_id(struct ltt_xtrace *xt, uint32_t id, struct ltt_xclass *xc)
{
	if (id >= xt->nids) {
		uint32_t n = TV_MAX(id + 1, xt->nids * 2);

		xt->by_id = tv_xreallocarray(xt->by_id, n, sizeof(*xt->by_id));
		memset(xt->by_id + xt->nids, 0,
		    sizeof(*xt->by_id) * (n - xt->nids));
		xt->nids = n;
	}
	xt->by_id[id] = xc;
}

/* See ltt-xml.h. */
enum tv_status
ltt_xdecode_fields(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_event_fields *out, unsigned scopes TV_UNUSED,
    struct tv_error *err)
{
	const struct tv_stream *s = ev->stream;
	const struct ltt_xtrace *xt = s->trace->priv;
	const struct ltt_xclass *xc;
	const struct tv_packet *p;
	const struct tv_mapfile *mf;
	const uint8_t *bytes;
	struct tv_value *v;
	uint64_t pos, end;
	enum tv_status st;

	memset(out, 0, sizeof(*out));
	if (ev->rec.kind != TV_REC_EVENT)
		return TV_OK;
	bytes = tv_event_bytes(s, ev->packet, &p, &mf);
	if (!bytes || ev->rec.class_index >= s->trace->nclasses)
		return tv_error_at(err, TV_NOT_FOUND, NULL, TV_NO_OFFSET,
		    _("no such event"));
	end = p->content_bits / 8;
	xc = s->trace->classes[ev->rec.class_index]->priv;
	pos = ev->rec.bit_offset / 8;
	if (pos + xt->head_size > end)
		return tv_error_at(err, TV_CORRUPT, mf->path, p->offset + pos,
		    _("event header runs past the block"));
	if (xt->has_size) {
		uint16_t size = ltt_u16(bytes + pos + xt->head_size - 2,
		    xt->swap);

		pos += xt->head_size;
		if (size != 0xFFFF && xc->payload) {
			pos += ltt_align(pos, xc->payload->align / 8,
			    xc->alignment);
			end = TV_MIN(end, pos + size);
		}
	} else {
		pos += xt->head_size;
	}
	if (!xc->payload)
		return TV_OK;
	v = tv_arena_zalloc(arena, sizeof(*v));
	st = ltt_xdecode(xc->payload, bytes, &pos, end, xc->alignment, arena,
	    v, 0);
	if (st != TV_OK)
		return tv_error_at(err, TV_CORRUPT, mf->path, p->offset + pos,
		    _("payload of %s runs past the event"), xc->ec->name);
	out->scope[TV_SCOPE_EVENT_PAYLOAD] = v;
	return TV_OK;
}

/* See ltt-xml.h. */
enum tv_status
ltt_xprint_record(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *out, struct tv_error *err)
{
	const struct tv_stream *s = ev->stream;
	struct tv_event_fields f;
	enum tv_status st;

	if (ev->rec.kind != TV_REC_EVENT) {
		tv_strbuf_adds(out, "WARNING: ");
		tv_strbuf_add_u64(out, ev->rec.count);
		tv_strbuf_adds(out, " events lost in tracefile ");
		tv_strbuf_adds(out, s->name);
		return TV_OK;
	}
	st = ltt_xdecode_fields(ev, arena, &f, TV_SCOPES_ALL, err);
	if (st != TV_OK)
		return st;
	tv_strbuf_adds(out, s->trace->classes[ev->rec.class_index]->name);
	tv_strbuf_add(out, ": ", 2);
	ltt_xprint_time(out, ev->rec.ts);
	tv_strbuf_add(out, " (", 2);
	tv_strbuf_adds(out, s->name);
	tv_strbuf_adds(out, "), 0, 0, , , 0, 0x0, MODE_UNKNOWN");
	if (f.scope[TV_SCOPE_EVENT_PAYLOAD]) {
		tv_strbuf_addc(out, ' ');
		ltt_xprint_value(out, f.scope[TV_SCOPE_EVENT_PAYLOAD]);
	}
	return TV_OK;
}

/* See ltt-xml.h. */
void
ltt_xclose(struct tv_trace *t)
{
	struct ltt_xtrace *xt = t->priv;
	uint32_t i;

	for (i = 0; i < t->nstreams; i++) {
		free(t->streams[i]->priv);
		t->streams[i]->priv = NULL;
	}
	if (xt) {
		ltt_xdefs_fini(&xt->defs);
		free(xt->by_id);
		free(xt);
	}
	t->priv = NULL;
}
