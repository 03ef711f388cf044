/*
 * --dump for CTF: one record printed exactly as `babeltrace2 --clock-gmt
 * --no-delta` prints it (its text.pretty sink with default options):
 * timestamp, hostname, event name, then the packet context, the stream
 * event context, the event context and the payload, leaving out what
 * babeltrace2 leaves out of its trace IR.  Loss records become its
 * WARNING lines.  Never translated: this output is data (its errors
 * are).
 */
#include "tview/tview.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/time.h"
#include "tview/util.h"
#include "ctf-decode.h"

#define NS_PER_S	INT64_C(1000000000)

/* Print @ns like babeltrace2's print_timestamp_wall with --clock-gmt. */
static void
print_time(struct tv_strbuf *sb, int64_t ns)
{
	int64_t sec = ns / NS_PER_S, nsec = ns % NS_PER_S;
	uint64_t sabs, nabs;
	bool neg;
	char buf[64];

	if (sec >= 0 && nsec >= 0) {
		neg = false;
		sabs = (uint64_t)sec;
		nabs = (uint64_t)nsec;
	} else if (sec > 0 && nsec < 0) {
		neg = false;
		sabs = (uint64_t)(sec - 1);
		nabs = (uint64_t)(NS_PER_S + nsec);
	} else if (sec == 0 && nsec < 0) {
		neg = true;
		sabs = 0;
		nabs = (uint64_t)-nsec;
	} else if (sec < 0 && nsec > 0) {
		neg = true;
		sabs = (uint64_t)-(sec + 1);
		nabs = (uint64_t)(NS_PER_S - nsec);
	} else if (sec < 0 && nsec == 0) {
		neg = true;
		sabs = (uint64_t)-sec;
		nabs = 0;
	} else {
		neg = true;
		sabs = (uint64_t)-sec;
		nabs = (uint64_t)-nsec;
	}
	if (!neg) {
		/* UTC time of day: no leap seconds, so plain arithmetic. */
		uint32_t day = (uint32_t)(sabs % 86400), n = (uint32_t)nabs;

		memcpy(buf, tv_digits2[day / 3600], 2);
		buf[2] = ':';
		memcpy(buf + 3, tv_digits2[day % 3600 / 60], 2);
		buf[5] = ':';
		memcpy(buf + 6, tv_digits2[day % 60], 2);
		buf[8] = '.';
		buf[9] = (char)('0' + n / 100000000);
		n %= 100000000;
		memcpy(buf + 10, tv_digits2[n / 1000000], 2);
		memcpy(buf + 12, tv_digits2[n / 10000 % 100], 2);
		memcpy(buf + 14, tv_digits2[n / 100 % 100], 2);
		memcpy(buf + 16, tv_digits2[n % 100], 2);
		tv_strbuf_add(sb, buf, 18);
		return;
	}
	snprintf(buf, sizeof(buf), "%s%" PRIu64 ".%09" PRIu64,
	    neg ? "-" : "", sabs, nabs);
	tv_strbuf_adds(sb, buf);
}

/* A string with babeltrace2's escapes, up to the first NUL of @s[0..n). */
static void
print_escaped(struct tv_strbuf *sb, const char *s, size_t n)
{
	size_t i;
	char buf[8];

	tv_strbuf_addc(sb, '"');
	for (i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t run = i;

		/* A run of plain characters in one append. */
		while (run < n && (unsigned char)s[run] >= 0x20 &&
		    s[run] != 0x7f && s[run] != '\\' && s[run] != '\'' &&
		    s[run] != '"' && s[run] != '?')
			run++;
		if (run > i) {
			tv_strbuf_add(sb, s + i, run - i);
			i = run - 1;
			continue;
		}
		switch (c) {
		case '\\':
			tv_strbuf_add(sb, "\\\\", 2);
			continue;
		case '\'':
			tv_strbuf_add(sb, "\\'", 2);
			continue;
		case '"':
			tv_strbuf_add(sb, "\\\"", 2);
			continue;
		case '?':
			tv_strbuf_add(sb, "\\?", 2);
			continue;
		}
		if (!iscntrl(c)) {
			tv_strbuf_addc(sb, (char)c);
			continue;
		}
		switch (c) {
		case '\a':
			tv_strbuf_add(sb, "\\a", 2);
			break;
		case '\b':
			tv_strbuf_add(sb, "\\b", 2);
			break;
		case 0x1b:
			tv_strbuf_add(sb, "\\e", 2);
			break;
		case '\f':
			tv_strbuf_add(sb, "\\f", 2);
			break;
		case '\n':
			tv_strbuf_add(sb, "\\n", 2);
			break;
		case '\r':
			tv_strbuf_add(sb, "\\r", 2);
			break;
		case '\t':
			tv_strbuf_add(sb, "\\t", 2);
			break;
		case '\v':
			tv_strbuf_add(sb, "\\v", 2);
			break;
		default:
			snprintf(buf, sizeof(buf), "\\x%02x", (int)(signed char)c &
			    0xff);
			tv_strbuf_adds(sb, buf);
			break;
		}
	}
	tv_strbuf_addc(sb, '"');
}

/* An integer in its display base, as babeltrace2's print_integer. */
static void
print_int(struct tv_strbuf *sb, const struct tv_int_class *ic, uint64_t v)
{
	char buf[80];
	uint32_t len = ic->size, i;

	switch (ic->base) {
	case 2:
		tv_strbuf_add(sb, "0b", 2);
		for (i = 0; i < len; i++)
			tv_strbuf_addc(sb,
			    (v >> (len - 1 - i)) & 1 ? '1' : '0');
		return;
	case 8:
		if (ic->is_signed && len < 64) {
			uint32_t r = ((len - 1) / 3 + 1) * 3;

			if (r < 64)
				v &= (UINT64_C(1) << r) - 1;
		}
		snprintf(buf, sizeof(buf), "0%" PRIo64, v);
		tv_strbuf_adds(sb, buf);
		return;
	case 16:
		if (len < 64) {
			uint32_t r = (len + 3) & ~3u;

			if (r < 64)
				v &= (UINT64_C(1) << r) - 1;
		}
		{
			static const char hex[] = "0123456789ABCDEF";
			char *q = buf + sizeof(buf);
			size_t k = 0;

			do {
				*--q = hex[v & 15];
				v >>= 4;
				k++;
			} while (v);
			*--q = 'x';
			*--q = '0';
			tv_strbuf_add(sb, q, k + 2);
		}
		return;
	default:
		if (ic->is_signed)
			tv_strbuf_add_i64(sb, (int64_t)v);
		else
			tv_strbuf_add_u64(sb, v);
		return;
	}
}

/* `( "A", "B" : container = N )` with every label whose range holds v. */
static void
print_enum(struct tv_strbuf *sb, const struct tv_field_class *fc,
    uint64_t v)
{
	const struct tv_int_class *ic = &fc->enumeration.integer;
	uint32_t i, n = 0;

	tv_strbuf_add(sb, "( ", 2);
	for (i = 0; i < fc->enumeration.nmaps; i++) {
		const struct tv_enum_mapping *m = &fc->enumeration.maps[i];

		if (!tv_enum_mapping_holds(fc, m, v))
			continue;
		if (n++)
			tv_strbuf_add(sb, ", ", 2);
		print_escaped(sb, m->label ? m->label : "",
		    m->label ? strlen(m->label) : 0);
	}
	if (n == 0)
		tv_strbuf_adds(sb, "<unknown>");
	tv_strbuf_adds(sb, " : container = ");
	print_int(sb, ic, v);
	tv_strbuf_add(sb, " )", 2);
}

/* Is @e an element class that makes its array print as text? */
static bool
is_text_elem(const struct tv_field_class *e)
{
	if (!e)
		return false;
	if (e->kind == TV_FC_INT)
		return e->integer.size == 8 &&
		    e->integer.encoding != TV_ENC_NONE && e->align <= 8;
	return false;
}

static void	print_value(struct tv_strbuf *sb, const struct tv_value *v,
		    uint32_t depth, size_t lim);

/* A char array or sequence as a string, up to its first NUL. */
static void
print_text_array(struct tv_strbuf *sb, const struct tv_value *v)
{
	char small[256], *tmp = small;
	uint32_t i, n = v->kids.count;
	struct tv_strbuf big;
	bool heap = n > sizeof(small);

	if (heap) {
		tv_strbuf_init(&big);
		for (i = 0; i < n; i++)
			tv_strbuf_addc(&big, (char)v->kids.items[i].u);
		tmp = big.buf;
	} else {
		for (i = 0; i < n; i++)
			small[i] = (char)v->kids.items[i].u;
	}
	print_escaped(sb, tmp, n);
	if (heap)
		tv_strbuf_fini(&big);
}

/*
 * One value, recursively, as babeltrace2's print_field; structs and
 * arrays stop once @sb holds more than @lim bytes (the caller says so).
 */
static void
print_value(struct tv_strbuf *sb, const struct tv_value *v, uint32_t depth,
    size_t lim)
{
	const struct tv_field_class *fc = v->fc;
	uint32_t i, n;
	char buf[64];

	if (!fc || depth > CTF_MAX_DEPTH) {
		tv_strbuf_adds(sb, "?");
		return;
	}
	switch (fc->kind) {
	case TV_FC_INT:
		print_int(sb, &fc->integer, v->u);
		break;
	case TV_FC_ENUM:
		print_enum(sb, fc, v->u);
		break;
	case TV_FC_FLOAT:
		(void)tv_fmt_g(buf, sizeof(buf), v->f);
		tv_strbuf_adds(sb, buf);
		break;
	case TV_FC_STRING:
		print_escaped(sb, v->str.ptr, v->str.len);
		break;
	case TV_FC_STRUCT:
		tv_strbuf_addc(sb, '{');
		for (i = 0, n = 0; i < v->kids.count && sb->len <= lim; i++) {
			const struct tv_value *k = &v->kids.items[i];

			if (k->fc && k->fc->hidden)
				continue;
			tv_strbuf_adds(sb, n++ ? ", " : " ");
			tv_strbuf_adds(sb, k->name ? k->name : "");
			tv_strbuf_add(sb, " = ", 3);
			print_value(sb, k, depth + 1, lim);
		}
		tv_strbuf_add(sb, " }", 2);
		break;
	case TV_FC_VARIANT:
		tv_strbuf_add(sb, "{ ", 2);
		if (v->kids.count)
			print_value(sb, &v->kids.items[0], depth + 1, lim);
		tv_strbuf_add(sb, " }", 2);
		break;
	case TV_FC_ARRAY:
	case TV_FC_SEQUENCE:
		if (is_text_elem(fc->array.elem)) {
			print_text_array(sb, v);
			break;
		}
		tv_strbuf_addc(sb, '[');
		for (i = 0; i < v->kids.count && sb->len <= lim; i++) {
			tv_strbuf_adds(sb, i ? ", [" : " [");
			tv_strbuf_add_u64(sb, i);
			tv_strbuf_add(sb, "] = ", 4);
			print_value(sb, &v->kids.items[i], depth + 1, lim);
		}
		tv_strbuf_add(sb, " ]", 2);
		break;
	}
}

/* The babeltrace2 stream ID: instance id, else rank in its class. */
static uint64_t
bt_stream_id(const struct tv_stream *s)
{
	const struct tv_trace *t = s->trace;
	uint64_t id = 0;
	uint32_t i;

	if (s->instance_id != TV_COUNT_UNKNOWN)
		return s->instance_id;
	for (i = 0; i < t->nstreams && t->streams[i] != s; i++)
		if (t->streams[i]->class_id == s->class_id)
			id++;
	return id;
}

/* A WARNING line for discarded events or packets. */
static void
print_loss(const struct tv_event *ev, struct tv_strbuf *sb)
{
	const struct tv_stream *s = ev->stream;
	const struct tv_trace *t = s->trace;
	const struct ctf_trace_priv *tp = t->priv;
	const struct tv_packet *p = &s->packets[ev->packet];
	const struct tv_packet *prev = ev->packet ? p - 1 : NULL;
	bool events = ev->rec.kind == TV_REC_DISCARDED;
	int64_t b, e;
	char buf[128];
	int i;

	tv_strbuf_adds(sb, "WARNING: Tracer discarded ");
	tv_strbuf_add_u64(sb, ev->rec.count);
	tv_strbuf_adds(sb, events ? " event" : " packet");
	if (ev->rec.count != 1)
		tv_strbuf_addc(sb, 's');
	tv_strbuf_addc(sb, ' ');
	if (events) {
		b = prev ? prev->ts_end : p->ts_begin;
		e = p->ts_end;
	} else {
		b = prev ? prev->ts_end : TV_TIME_NONE;
		e = p->ts_begin;
	}
	if (b != TV_TIME_NONE && e != TV_TIME_NONE && s->clock) {
		tv_strbuf_adds(sb, "between [");
		print_time(sb, b);
		tv_strbuf_adds(sb, "] and [");
		print_time(sb, e);
		tv_strbuf_addc(sb, ']');
	} else {
		tv_strbuf_adds(sb, "(unknown time range)");
	}
	tv_strbuf_adds(sb, " in trace \"");
	tv_strbuf_adds(sb, tp && tp->bt_name ? tp->bt_name : "");
	tv_strbuf_adds(sb, "\" ");
	if (t->has_uuid) {
		tv_strbuf_adds(sb, "(UUID: ");
		for (i = 0; i < 16; i++) {
			if (i == 4 || i == 6 || i == 8 || i == 10)
				tv_strbuf_addc(sb, '-');
			snprintf(buf, sizeof(buf), "%02x", t->uuid[i]);
			tv_strbuf_adds(sb, buf);
		}
		tv_strbuf_adds(sb, ") ");
	} else {
		tv_strbuf_adds(sb, "(no UUID) ");
	}
	tv_strbuf_adds(sb, "within stream \"");
	tv_strbuf_adds(sb, s->name);
	tv_strbuf_adds(sb, "\" (stream class ID: ");
	tv_strbuf_add_u64(sb, s->class_id);
	tv_strbuf_adds(sb, ", stream ID: ");
	tv_strbuf_add_u64(sb, bt_stream_id(s));
	tv_strbuf_adds(sb, ").");
}

/*
 * Where print_member writes, how many members it has written, and the
 * length of @sb past which the event has printed too much.
 */
struct member_ctx {
	struct tv_strbuf	*sb;
	uint32_t		 n;
	size_t			 lim;
};

/*
 * One struct member as print_value's TV_FC_STRUCT case prints it; text
 * arrays from their @bytes, decimal integers without the generic path.
 */
static void
print_member(void *ctx, const struct tv_value *k, const uint8_t *bytes)
{
	struct member_ctx *mc = ctx;
	const struct tv_field_class *fc = k->fc;

	if ((fc && fc->hidden) || mc->sb->len > mc->lim)
		return;
	if (mc->n++)
		tv_strbuf_add(mc->sb, ", ", 2);
	else
		tv_strbuf_addc(mc->sb, ' ');
	tv_strbuf_adds(mc->sb, k->name ? k->name : "");
	tv_strbuf_add(mc->sb, " = ", 3);
	if (bytes) {
		print_escaped(mc->sb, (const char *)bytes, k->kids.count);
	} else if (fc && fc->kind == TV_FC_INT && fc->integer.base != 2 &&
	    fc->integer.base != 8 && fc->integer.base != 16) {
		if (fc->integer.is_signed && (int64_t)k->u < 0) {
			tv_strbuf_addc(mc->sb, '-');
			tv_strbuf_add_u64(mc->sb, (uint64_t)0 - k->u);
		} else {
			tv_strbuf_add_u64(mc->sb, k->u);
		}
	} else {
		print_value(mc->sb, k, 1, mc->lim);
	}
}

/*
 * Decode and print one event scope in a single pass: a struct is printed
 * member by member as it is decoded, without a value tree for it.
 */
static enum tv_status
print_scope(struct ctf_dec *d, const struct tv_field_class *fc,
    struct tv_strbuf *sb, bool *first, size_t lim)
{
	struct member_ctx mc = { .sb = sb, .n = 0, .lim = lim };
	struct tv_value *v;
	enum tv_status st;

	if (fc->kind != TV_FC_STRUCT || fc->hidden) {
		v = tv_arena_zalloc(d->arena, sizeof(*v));
		st = ctf_dec_field(d, fc, v);
		if (st != TV_OK || fc->hidden)
			return st;
		if (!*first)
			tv_strbuf_add(sb, ", ", 2);
		*first = false;
		print_value(sb, v, 0, lim);
		return TV_OK;
	}
	if (!*first)
		tv_strbuf_add(sb, ", ", 2);
	*first = false;
	tv_strbuf_addc(sb, '{');
	st = ctf_dec_struct_each(d, fc, CTF_EACH_NUMBERS,
	    print_member, &mc);
	tv_strbuf_add(sb, " }", 2);
	return st;
}

static enum tv_status print_event(const struct tv_event *ev,
    struct tv_arena *arena, struct tv_strbuf *out,
    struct ctf_print_cache *pc, struct tv_error *err);

/* Print one record of @ev as babeltrace2 would. */
enum tv_status
ctf_print_record(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *out, struct tv_error *err)
{
	struct ctf_stream_priv *sp = ev->stream->priv;
	struct ctf_print_cache *pc;
	enum tv_status st;

	if (ev->rec.kind != TV_REC_EVENT) {
		print_loss(ev, out);
		return TV_OK;
	}
	CTF_WITH_SCOPE_CACHE(&sp->pcache, ev, pc, st, err,
	    print_event(ev, arena, out, pc, err));
	return st;
}

/* ctf_print_record() with the print cache @pc taken. */
static enum tv_status
print_event(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *out, struct ctf_print_cache *pc, struct tv_error *err)
{
	const struct tv_stream *s = ev->stream;
	const struct tv_trace *t = s->trace;
	const struct tv_event_class *ec;
	const struct ctf_trace_priv *tp = t->priv;
	const struct ctf_stream_priv *sp = s->priv;
	const struct tv_field_class *efc[3];
	struct tv_event_fields f;
	const struct tv_value *v;
	enum tv_status st;
	struct ctf_dec d;
	bool first = true;
	size_t i, lim = out->len + CTF_MAX_EVENT_TEXT;

	st = ctf_decode_scopes_to(ev, arena, &f, pc,
	    TV_SCOPE_EVENT_COMMON_CONTEXT, &d, err);
	if (st != TV_OK)
		return st;
	ec = t->classes[ev->rec.class_index];
	if (s->clock) {
		tv_strbuf_addc(out, '[');
		print_time(out, ev->rec.ts);
		tv_strbuf_add(out, "] ", 2);
	}
	if (tp && tp->bt_prefix)
		tv_strbuf_adds(out, tp->bt_prefix);
	tv_strbuf_adds(out, ec->name ? ec->name : "<unknown>");
	tv_strbuf_add(out, ": ", 2);
	v = f.scope[TV_SCOPE_PACKET_CONTEXT];
	if (pc->hit) {
		/* the same packet as the last line: its text */
		if (pc->text) {
			tv_strbuf_add(out, pc->text, pc->len);
			first = false;
		}
	} else if (v && v->fc && !v->fc->hidden) {
		size_t at = out->len;

		first = false;
		print_value(out, v, 0, lim);
		if (__atomic_load_n(&pc->pkt, __ATOMIC_RELAXED)) {
			pc->len = out->len - at;
			pc->text = tv_xmalloc(pc->len + 1);
			memcpy(pc->text, out->buf + at, pc->len);
			pc->text[pc->len] = '\0';
		}
	}
	efc[0] = sp->sclass->event_context;
	efc[1] = ec->context;
	efc[2] = ec->payload;
	for (i = 0; i < TV_ARRAY_SIZE(efc); i++) {
		if (!efc[i])
			continue;
		st = print_scope(&d, efc[i], out, &first, lim);
		if (st == TV_OK && out->len > lim)
			st = tv_error_at(err, TV_CORRUPT, d.path,
			    d.file_off + ev->rec.bit_offset / 8,
			    _("event prints more than %u bytes"),
			    CTF_MAX_EVENT_TEXT);
		if (st != TV_OK)
			return st;
	}
	return TV_OK;
}
