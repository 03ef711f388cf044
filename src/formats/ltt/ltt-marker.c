/*
 * The marker era of LTTng 0.x (trace formats 2.3 to 2.6): event types are
 * not in files but in the trace itself.  The metadata_N tracefiles hold
 * core_marker_id events (channel, name, id and the C type sizes of the
 * traced machine) and core_marker_format events (channel, name and a
 * printf-like format such as "prev_pid %d prev_state #2d%ld").  This file
 * reads them at open, parses each format as LTTV's marker.c does (same
 * field names, sizes, alignment and print conversions) and builds one
 * event class per (channel, id).
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "ltt-priv.h"

#define MAX_MARKER_SLOTS	(1u << 20)	/* by_id entries, all channels */
#define MAX_NAME		1024u

/* The formats of the two core markers when the trace does not say them. */
static const char core_id_format[] = "channel %s name %s event_id %hu "
    "int #1u%zu long #1u%zu pointer #1u%zu size_t #1u%zu alignment #1u%u";
static const char core_format_format[] = "channel %s name %s format %s";

/* Field being built by the format parser. */
struct pfield {
	uint8_t		 trace_size;
	enum ltt_ftype	 trace_type;
	uint8_t		 c_size;
	enum ltt_ftype	 c_type;
	bool		 net;
	char		 flags[8];
	char		 conv;
};

/* The size of C integer qualifier @q. */
static uint8_t
qual_size(int q, const struct ltt_msizes *sz)
{
	switch (q) {
	case 'L':
		return 8;
	case 'l':
		return sz->long_size;
	case 'Z':
	case 'z':
		return sz->size_t_size;
	case 't':
		return sz->pointer_size;
	case 'h':
		return 2;
	case '1':
		return 1;
	case '2':
		return 2;
	case '4':
		return 4;
	case '8':
		return 8;
	default:
		return sz->int_size;
	}
}

/* A "#..." trace type at @f[i]; returns the index of its last char. */
static size_t
parse_trace_type(const char *f, size_t i, const struct ltt_msizes *sz,
    struct pfield *pf)
{
	int q = -1;

	while (f[i] == 'n') {
		pf->net = true;
		i++;
	}
	if (f[i] && strchr("hlLZztS1248", f[i])) {
		q = f[i++];
		if (q == 'l' && f[i] == 'l') {
			q = 'L';
			i++;
		}
	}
	switch (f[i]) {
	case 'c':
		pf->trace_type = LTT_F_UNSIGNED;
		pf->trace_size = 1;
		return i;
	case 's':
		pf->trace_type = LTT_F_STRING;
		return i;
	case 'p':
		pf->trace_type = LTT_F_POINTER;
		pf->trace_size = sz->pointer_size;
		return i;
	case 'd':
	case 'i':
		pf->trace_type = LTT_F_SIGNED;
		break;
	case 'o':
	case 'u':
	case 'x':
	case 'X':
		pf->trace_type = LTT_F_UNSIGNED;
		break;
	default:
		return f[i] ? i : i - 1;
	}
	pf->trace_size = qual_size(q, sz);
	return i;
}

/* A "%..." C type at @f[i]; returns the index of its last char. */
static size_t
parse_c_type(const char *f, size_t i, const struct ltt_msizes *sz,
    struct pfield *pf)
{
	size_t nflags = 0;
	int q = -1;

	while (f[i] && strchr("-+ #0", f[i])) {
		if (nflags < sizeof(pf->flags) - 1)
			pf->flags[nflags++] = f[i];
		i++;
	}
	pf->flags[nflags] = '\0';
	if (f[i] && strchr("hlLZztS", f[i])) {
		q = f[i++];
		if (q == 'l' && f[i] == 'l') {
			q = 'L';
			i++;
		}
	}
	switch (f[i]) {
	case 'c':
		pf->c_type = LTT_F_UNSIGNED;
		pf->c_size = 1;
		pf->conv = 'c';
		return i;
	case 's':
		pf->c_type = LTT_F_STRING;
		return i;
	case 'p':
		pf->c_type = LTT_F_POINTER;
		pf->c_size = sz->pointer_size;
		return i;
	case 'd':
	case 'i':
		pf->c_type = LTT_F_SIGNED;
		pf->conv = f[i];
		break;
	case 'o':
	case 'u':
	case 'x':
	case 'X':
		pf->c_type = LTT_F_UNSIGNED;
		pf->conv = f[i];
		break;
	default:
		return f[i] ? i : i - 1;
	}
	pf->c_size = qual_size(q, sz);
	return i;
}

/* Parse marker format @fmt; see ltt-priv.h. */
enum tv_status
ltt_mformat_parse(const char *fmt, const struct ltt_msizes *sz,
    struct tv_arena *a, struct ltt_mformat *out, struct tv_error *err)
{
	struct ltt_mfield fields[LTT_MAX_FIELDS];
	struct tv_strbuf prefix;
	struct pfield pf;
	enum ltt_ftype c_type = LTT_F_NONE;
	const char *name = NULL;
	ssize_t name_begin = 0, name_end = -1;
	int64_t offset = 0;
	uint32_t n = 0, count = 1, largest = 1;
	size_t i;

	memset(out, 0, sizeof(*out));
	memset(&pf, 0, sizeof(pf));
	tv_strbuf_init(&prefix);
	for (i = 0; fmt[i]; i++) {
		struct ltt_mfield *fd;

		switch (fmt[i]) {
		case '#':
			i++;
			if (fmt[i] == '#') {
				tv_strbuf_add(&prefix, "##", 2);
				break;
			}
			pf.net = false;
			i = parse_trace_type(fmt, i, sz, &pf);
			break;
		case '%':
			i++;
			if (fmt[i] == '%') {
				tv_strbuf_addc(&prefix, '%');
				break;
			}
			pf.c_type = c_type;
			pf.conv = 0;
			i = parse_c_type(fmt, i, sz, &pf);
			c_type = pf.c_type;
			if (!pf.trace_size)
				pf.trace_size = pf.c_size;
			if (pf.trace_type == LTT_F_NONE)
				pf.trace_type = pf.c_type;
			if (pf.c_type == LTT_F_STRING)
				pf.trace_type = LTT_F_STRING;
			if (pf.trace_type == LTT_F_NONE) {
				tv_strbuf_fini(&prefix);
				return tv_error_set(err, TV_SEMANTIC, NULL,
				    _("marker format \"%s\": no type at "
				    "column %zu"), fmt, i + 1);
			}
			if (n >= LTT_MAX_FIELDS) {
				tv_strbuf_fini(&prefix);
				return tv_error_set(err, TV_SEMANTIC, NULL,
				    _("marker format \"%s\": more than %u "
				    "fields"), fmt, LTT_MAX_FIELDS);
			}
			fd = &fields[n++];
			memset(fd, 0, sizeof(*fd));
			if (name) {
				fd->name = name;
			} else {
				char tmp[32];

				snprintf(tmp, sizeof(tmp), "field %u", count);
				fd->name = tv_arena_strdup(a, tmp);
			}
			count++;
			fd->type = pf.trace_type;
			fd->net_order = pf.net;
			fd->prefix = tv_arena_strndup(a,
			    prefix.buf ? prefix.buf : "", prefix.len);
			memcpy(fd->flags, pf.flags, sizeof(fd->flags));
			fd->conv = pf.conv;
			if (fd->type == LTT_F_STRING) {
				offset = -1;
			} else {
				fd->size = pf.trace_size;
				if (fd->size != 1 && fd->size != 2 &&
				    fd->size != 4 && fd->size != 8) {
					tv_strbuf_fini(&prefix);
					return tv_error_set(err, TV_SEMANTIC,
					    NULL, _("marker format \"%s\": "
					    "field %s of unsupported size %u"),
					    fmt, fd->name,
					    (unsigned)fd->size);
				}
				largest = TV_MAX(largest, fd->size);
				if (offset >= 0)
					offset += (int64_t)ltt_align(
					    (uint64_t)offset, fd->size,
					    sz->alignment) + fd->size;
			}
			pf.trace_size = pf.c_size = 0;
			pf.trace_type = LTT_F_NONE;
			pf.net = false;
			tv_strbuf_reset(&prefix);
			name_begin = -1;
			name = NULL;
			break;
		case ' ':
			tv_strbuf_reset(&prefix);
			if (name_end < 0 && name_begin >= 0) {
				name_end = (ssize_t)i;
				name = tv_arena_strndup(a, fmt + name_begin,
				    TV_MIN((size_t)(name_end - name_begin),
				    MAX_NAME));
			}
			break;
		default:
			tv_strbuf_addc(&prefix, fmt[i]);
			if (name_begin < 0) {
				name_begin = (ssize_t)i;
				name_end = -1;
			}
		}
	}
	tv_strbuf_fini(&prefix);
	out->nfields = n;
	out->fields = tv_arena_alloc(a, sizeof(*out->fields) * (n + 1));
	memcpy(out->fields, fields, sizeof(*out->fields) * n);
	out->largest_align = largest;
	out->fixed_size = offset;
	return TV_OK;
}

/* Index of the channel named @name; created if new (capped). */
uint32_t
ltt_channel_get(struct tv_trace *t, const char *name)
{
	struct ltt_trace_priv *tp = t->priv;
	const char *in = tv_intern(t->names, name, strlen(name));
	struct ltt_channel *ch;
	uint32_t i;

	for (i = 0; i < tp->nchannels; i++)
		if (tp->channels[i].name == in)
			return i;
	if (tp->nchannels >= LTT_MAX_CHANNELS)
		return UINT32_MAX;
	tp->channels = tv_xreallocarray(tp->channels, tp->nchannels + 1,
	    sizeof(*tp->channels));
	ch = &tp->channels[tp->nchannels];
	memset(ch, 0, sizeof(*ch));
	ch->name = in;
	ch->is_metadata = strcmp(name, "metadata") == 0;
	return tp->nchannels++;
}

/* Index of the existing channel named @name, or UINT32_MAX. */
static uint32_t
channel_find(struct tv_trace *t, const char *name)
{
	struct ltt_trace_priv *tp = t->priv;
	const char *in = tv_intern(t->names, name, strlen(name));
	uint32_t i;

	for (i = 0; i < tp->nchannels; i++)
		if (tp->channels[i].name == in)
			return i;
	return UINT32_MAX;
}

/* One core_marker_id or core_marker_format event, in metadata order. */
struct mdef {
	bool			 is_format;
	const char		*channel;	/* arena */
	const char		*name;
	const char		*format;
	uint16_t		 id;
	struct ltt_msizes	 sizes;
};

struct mdefs {
	struct mdef	*items;
	size_t		 n;
	size_t		 cap;
	size_t		 slots;		/* by_id entries so far */
};

/* The marker (@ch, @id), created or renamed. */
static struct ltt_marker *
marker_set(struct tv_trace *t, uint32_t chi, uint16_t id, const char *name,
    const struct ltt_msizes *sz, struct mdefs *md)
{
	struct ltt_trace_priv *tp = t->priv;
	struct ltt_channel *ch = &tp->channels[chi];
	struct ltt_marker *m;

	if (id >= ch->nids) {
		uint32_t nn = TV_MAX((uint32_t)id + 1, ch->nids * 2);

		nn = TV_MIN(nn, LTT_MAX_MARKER_ID + 1);
		if (md->slots + (nn - ch->nids) > MAX_MARKER_SLOTS)
			return NULL;
		md->slots += nn - ch->nids;
		ch->by_id = tv_xreallocarray(ch->by_id, nn,
		    sizeof(*ch->by_id));
		memset(ch->by_id + ch->nids, 0,
		    sizeof(*ch->by_id) * (nn - ch->nids));
		ch->nids = nn;
	}
	m = ch->by_id[id];
	if (!m) {
		m = tv_arena_zalloc(&t->arena, sizeof(*m));
		ch->by_id[id] = m;
	}
	m->channel = chi;
	m->id = id;
	m->name = name;
	m->sizes = *sz;
	m->format = NULL;
	return m;
}

/* A NUL-terminated string at @p[*off..end) into the arena; NULL if cut. */
static const char *
take_str(struct tv_trace *t, const uint8_t *p, uint64_t *off, uint64_t end)
{
	const uint8_t *z = memchr(p + *off, 0, end - *off);
	const char *s;

	if (!z)
		return NULL;
	s = tv_arena_strndup(&t->arena, (const char *)p + *off,
	    (size_t)(z - (p + *off)));
	*off = (uint64_t)(z - p) + 1;
	return s;
}

/* Read the core events of one metadata packet into @md. */
static enum tv_status
read_meta_packet(struct tv_trace *t, struct tv_stream *s, uint64_t pkt,
    struct mdefs *md, struct tv_error *err)
{
	const struct ltt_trace_priv *tp = t->priv;
	const struct tv_packet *p;
	const struct tv_mapfile *mf;
	const uint8_t *b = tv_event_bytes(s, pkt, &p, &mf);
	uint64_t pos = tp->ops->header_size, end, tsc;
	enum tv_status st;

	if (!b)
		return tv_error_at(err, TV_NOT_FOUND, NULL, TV_NO_OFFSET,
		    _("no such packet"));
	end = p->content_bits / 8;
	tsc = p->cycles_begin;
	while (pos < end) {
		struct ltt_ev_head h;
		struct mdef d;
		uint64_t off;

		st = ltt_read_head(tp, b, pos, end, &tsc, &h, mf->path,
		    p->offset, err);
		if (st != TV_OK)
			return st;
		if (h.id > 1)
			return tv_error_at(err, TV_CORRUPT, mf->path,
			    p->offset + h.start,
			    _("metadata event of id %u (only 0 and 1 are "
			    "allowed)"), (unsigned)h.id);
		memset(&d, 0, sizeof(d));
		off = h.data;
		d.is_format = h.id == 1;
		d.channel = take_str(t, b, &off, end);
		d.name = d.channel ? take_str(t, b, &off, end) : NULL;
		if (!d.name)
			goto cut;
		if (d.is_format) {
			d.format = take_str(t, b, &off, end);
			if (!d.format)
				goto cut;
		} else {
			off += ltt_align(off - h.data, 2, tp->alignment);
			if (off > end || end - off < 7)
				goto cut;
			d.id = ltt_u16(b + off, tp->swap);
			d.sizes.int_size = b[off + 2];
			d.sizes.long_size = b[off + 3];
			d.sizes.pointer_size = b[off + 4];
			d.sizes.size_t_size = b[off + 5];
			d.sizes.alignment = b[off + 6];
			off += 7;
		}
		if (h.size != UINT32_MAX && h.size != off - h.data)
			return tv_error_at(err, TV_CORRUPT, mf->path,
			    p->offset + h.start,
			    _("metadata event: size %u in the header, %llu "
			    "read"), (unsigned)h.size,
			    (unsigned long long)(off - h.data));
		TV_VEC_GROW(md->items, md->n, md->cap);
		md->items[md->n++] = d;
		pos = off;
	}
	return TV_OK;
cut:
	return tv_error_at(err, TV_CORRUPT, mf->path, p->offset + pos,
	    _("metadata event runs past the sub-buffer data"));
}

/* The format given for (@channel, @name), first one wins, or NULL. */
static const char *
format_of(const struct mdefs *md, const char *channel, const char *name)
{
	size_t i;

	for (i = 0; i < md->n; i++)
		if (md->items[i].is_format &&
		    strcmp(md->items[i].channel, channel) == 0 &&
		    strcmp(md->items[i].name, name) == 0)
			return md->items[i].format;
	return NULL;
}

/* The tv_field_class of a parsed marker format: a struct of its fields. */
static struct tv_field_class *
make_payload(struct tv_trace *t, const struct ltt_mformat *f)
{
	const struct ltt_trace_priv *tp = t->priv;
	struct tv_field_class *st;
	uint32_t i;

	if (f->nfields == 0)
		return NULL;
	st = tv_field_class_create(&t->arena, TV_FC_STRUCT);
	st->align = 8;
	st->structure.nmembers = f->nfields;
	st->structure.members = tv_arena_zalloc(&t->arena,
	    sizeof(*st->structure.members) * f->nfields);
	for (i = 0; i < f->nfields; i++) {
		const struct ltt_mfield *fd = &f->fields[i];
		struct tv_field_class *fc;

		if (fd->type == LTT_F_STRING) {
			fc = tv_field_class_create(&t->arena, TV_FC_STRING);
			fc->string.encoding = TV_ENC_UTF8;
		} else {
			fc = tv_field_class_create(&t->arena, TV_FC_INT);
			fc->integer.size = fd->size * 8u;
			fc->integer.is_signed = fd->type == LTT_F_SIGNED;
			fc->integer.byte_order = fd->net_order ? TV_BO_BE :
			    tp->bo;
			fc->integer.base = fd->type == LTT_F_POINTER ||
			    fd->conv == 'x' || fd->conv == 'X' ? 16 :
			    fd->conv == 'o' ? 8 : 10;
		}
		fc->align = 8;
		st->structure.members[i].name = fd->name;
		st->structure.members[i].fc = fc;
	}
	return st;
}

/* Give the markers their formats and make the event classes. */
static enum tv_status
build_classes(struct tv_trace *t, const struct mdefs *md,
    struct tv_error *err)
{
	struct ltt_trace_priv *tp = t->priv;
	uint32_t c, id, n = 0;

	for (c = 0; c < tp->nchannels; c++)
		for (id = 0; id < tp->channels[c].nids; id++)
			n += tp->channels[c].by_id[id] != NULL;
	t->classes = tv_arena_zalloc(&t->arena, sizeof(*t->classes) *
	    (n + 1));
	t->nclasses = 0;
	for (c = 0; c < tp->nchannels; c++) {
		struct ltt_channel *ch = &tp->channels[c];

		for (id = 0; id < ch->nids; id++) {
			struct ltt_marker *m = ch->by_id[id];
			struct tv_event_class *ec;
			char *full;

			if (!m)
				continue;
			if (!m->format)
				m->format = format_of(md, ch->name, m->name);
			if (!m->format && ch->is_metadata && id < 2)
				m->format = id == 0 ? core_id_format :
				    core_format_format;
			if (m->format && ltt_mformat_parse(m->format,
			    &m->sizes, &t->arena, &m->fmt, err) != TV_OK) {
				tv_error_prefix(err, "%s: %s.%s: ", t->path,
				    ch->name, m->name);
				return TV_SEMANTIC;
			}
			ec = tv_arena_zalloc(&t->arena, sizeof(*ec));
			tv_xasprintf(&full, "%s.%s", ch->name, m->name);
			ec->name = tv_intern(t->names, full, strlen(full));
			free(full);
			ec->id = id;
			ec->stream_class_id = c;
			ec->loglevel = -1;
			ec->index = t->nclasses;
			ec->payload = make_payload(t, &m->fmt);
			ec->count = TV_COUNT_UNKNOWN;
			ec->priv = m;
			m->ec = ec;
			t->classes[t->nclasses++] = ec;
		}
	}
	return TV_OK;
}

/* Read every metadata stream and build the event classes; see ltt-priv.h. */
enum tv_status
ltt_load_markers(struct tv_trace *t, struct tv_error *err)
{
	struct ltt_trace_priv *tp = t->priv;
	struct mdefs md = { NULL, 0, 0, 0 };
	struct ltt_msizes core;
	enum tv_status st = TV_OK;
	uint32_t i, meta;
	uint64_t k;
	size_t j;

	meta = ltt_channel_get(t, "metadata");
	core.int_size = 4;
	core.long_size = tp->arch_size;
	core.pointer_size = tp->arch_size;
	core.size_t_size = tp->arch_size;
	core.alignment = tp->alignment;
	marker_set(t, meta, 0, "core_marker_id", &core, &md);
	marker_set(t, meta, 1, "core_marker_format", &core, &md);
	for (i = 0; i < t->nstreams && st == TV_OK; i++) {
		struct tv_stream *s = t->streams[i];
		const struct ltt_stream_priv *sp = s->priv;

		if (sp->channel != meta)
			continue;
		for (k = 0; k < s->npackets && st == TV_OK; k++)
			st = read_meta_packet(t, s, k, &md, err);
	}
	for (j = 0; j < md.n && st == TV_OK; j++) {
		const struct mdef *d = &md.items[j];
		uint32_t chi;

		if (d->is_format)
			continue;
		/* As LTTV: markers of channels without a tracefile go. */
		chi = channel_find(t, d->channel);
		if (chi == UINT32_MAX)
			continue;
		if (!marker_set(t, chi, d->id, d->name, &d->sizes, &md))
			st = tv_error_at(err, TV_CORRUPT, t->path,
			    TV_NO_OFFSET, _("too many marker ids"));
	}
	if (st == TV_OK)
		st = build_classes(t, &md, err);
	free(md.items);
	return st;
}
