/*
 * Text of what the browser shows: one-line rows of the event list, values
 * in their declared base, strings with control bytes and invalid UTF-8
 * escaped, and width-aware output to curses windows.  Search matches the
 * same text the user sees.
 */
#include "ui-priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define ARRAY_SHOW_MAX	32	/* elements shown in a one-line summary */

/* Length of the valid UTF-8 sequence at @s (max @n bytes), 0 if invalid. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	if (cp >= 0x80 && cp <= 0x9f)	/* C1 controls */
		return 0;
	return len;
}

/* Append @s with control bytes and invalid UTF-8 as C escapes. */
void
tv_ui_escape(struct tv_strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = p[i];

		if (c == '\n') {
			tv_strbuf_add(sb, "\\n", 2);
			i++;
			continue;
		}
		if (c == '\t') {
			tv_strbuf_add(sb, "\\t", 2);
			i++;
			continue;
		}
		if (c == '\\' || c == '"') {
			tv_strbuf_addc(sb, '\\');
			tv_strbuf_addc(sb, (char)c);
			i++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			tv_strbuf_addf(sb, "\\x%02x", c);
			i++;
			continue;
		}
		n = utf8_len(p + i, len - i);
		if (n == 0) {
			tv_strbuf_addf(sb, "\\x%02x", c);
			i++;
			continue;
		}
		tv_strbuf_add(sb, s + i, n);
		i += n;
	}
}

/* An integer (or enum container) in its declared base. */
void
tv_ui_render_int(struct tv_strbuf *sb, const struct tv_value *v)
{
	const struct tv_int_class *ic;
	uint64_t u = v->u;
	int i, top;

	ic = v->fc->kind == TV_FC_ENUM ? &v->fc->enumeration.integer :
	    &v->fc->integer;
	switch (ic->base) {
	case 16:
		tv_strbuf_addf(sb, "0x%" PRIx64, u);
		break;
	case 8:
		tv_strbuf_addf(sb, "0%" PRIo64, u);
		break;
	case 2:
		tv_strbuf_add(sb, "0b", 2);
		top = ic->size > 0 && ic->size <= 64 ? (int)ic->size : 64;
		for (i = top - 1; i >= 0; i--)
			tv_strbuf_addc(sb, (u >> i) & 1 ? '1' : '0');
		break;
	default:
		if (ic->is_signed)
			tv_strbuf_add_i64(sb, v->s);
		else
			tv_strbuf_add_u64(sb, u);
		break;
	}
}

/* True for arrays of 8-bit integers that the metadata says are text. */
static bool
is_text_array(const struct tv_value *v)
{
	const struct tv_field_class *e;

	if (v->fc->kind != TV_FC_ARRAY && v->fc->kind != TV_FC_SEQUENCE)
		return false;
	e = v->fc->array.elem;
	return e && e->kind == TV_FC_INT && e->integer.size == 8 &&
	    e->integer.encoding != TV_ENC_NONE;
}

/* Append a text array as a quoted string, up to its first NUL. */
static void
render_text_array(struct tv_strbuf *sb, const struct tv_value *v)
{
	char buf[256];
	uint32_t i, n = 0;

	tv_strbuf_addc(sb, '"');
	for (i = 0; i < v->kids.count; i++) {
		char c = (char)v->kids.items[i].u;

		if (c == '\0')
			break;
		buf[n++] = c;
		if (n == sizeof(buf)) {
			tv_ui_escape(sb, buf, n);
			n = 0;
		}
	}
	tv_ui_escape(sb, buf, n);
	tv_strbuf_addc(sb, '"');
}

/* One-line rendering of any value, nested ones in braces and brackets. */
void
tv_ui_render_value(struct tv_strbuf *sb, const struct tv_value *v)
{
	const char *label;
	uint32_t i;

	if (!v || !v->fc) {
		tv_strbuf_adds(sb, "?");
		return;
	}
	switch (v->fc->kind) {
	case TV_FC_INT:
		tv_ui_render_int(sb, v);
		break;
	case TV_FC_ENUM:
		label = tv_enum_label(v->fc, v->u);
		if (label) {
			tv_ui_escape(sb, label, strlen(label));
		} else {
			tv_strbuf_addc(sb, '(');
			tv_ui_render_int(sb, v);
			tv_strbuf_addc(sb, ')');
		}
		break;
	case TV_FC_FLOAT:
		tv_strbuf_addf(sb, "%g", v->f);
		break;
	case TV_FC_STRING:
		tv_strbuf_addc(sb, '"');
		if (v->str.ptr)
			tv_ui_escape(sb, v->str.ptr, v->str.len);
		tv_strbuf_addc(sb, '"');
		break;
	case TV_FC_STRUCT:
		tv_strbuf_add(sb, "{ ", 2);
		for (i = 0; i < v->kids.count; i++) {
			const struct tv_value *k = &v->kids.items[i];

			if (i)
				tv_strbuf_add(sb, ", ", 2);
			if (k->name)
				tv_strbuf_addf(sb, "%s = ", k->name);
			tv_ui_render_value(sb, k);
		}
		tv_strbuf_add(sb, " }", 2);
		break;
	case TV_FC_VARIANT:
		if (v->kids.count == 0) {
			tv_strbuf_adds(sb, "{ }");
			break;
		}
		tv_strbuf_add(sb, "{ ", 2);
		if (v->kids.items[0].name)
			tv_strbuf_addf(sb, "%s = ", v->kids.items[0].name);
		tv_ui_render_value(sb, &v->kids.items[0]);
		tv_strbuf_add(sb, " }", 2);
		break;
	case TV_FC_ARRAY:
	case TV_FC_SEQUENCE:
		if (is_text_array(v)) {
			render_text_array(sb, v);
			break;
		}
		tv_strbuf_add(sb, "[ ", 2);
		for (i = 0; i < v->kids.count && i < ARRAY_SHOW_MAX; i++) {
			if (i)
				tv_strbuf_add(sb, ", ", 2);
			tv_ui_render_value(sb, &v->kids.items[i]);
		}
		if (v->kids.count > ARRAY_SHOW_MAX)
			tv_strbuf_addf(sb, ", ... (%" PRIu32 ")",
			    v->kids.count);
		tv_strbuf_add(sb, " ]", 2);
		break;
	}
}

/* CPU of an event, -1 when the stream does not say. */
int
tv_ui_event_cpu(const struct tv_event *ev)
{
	return ev->stream ? ev->stream->cpu : TV_CPU_UNKNOWN;
}

/* The event's class name, or a placeholder for other records. */
const char *
tv_ui_event_name(const struct tv_event *ev)
{
	const struct tv_event_class *ec;

	if (ev->rec.kind == TV_REC_DISCARDED)
		return _("<discarded>");
	if (ev->rec.kind == TV_REC_LOST_PACKETS)
		return _("<lost packets>");
	ec = tv_event_class_of(ev);
	return ec && ec->name ? ec->name : _("<unknown>");
}

/* Append @s padded with spaces to @width columns. */
static void
add_padded(struct tv_strbuf *sb, const char *s, int width)
{
	int w = tv_ui_width(s);

	tv_strbuf_adds(sb, s);
	while (w++ < width)
		tv_strbuf_addc(sb, ' ');
}

/*
 * The time of @ev in the current style.  The raw clock is the driver's
 * cycle value of the record (CTF clock cycles, LTT TSC, trace.dat ring
 * buffer timestamp), "n/a" for records that have none (lost data).
 */
void
tv_ui_time_text(struct tv_ui *ui, const struct tv_event *ev, char *buf,
    size_t size)
{
	if (ui->time_style != TV_TIME_RAW) {
		tv_time_format(ev->rec.ts, ui->time_style, ui->set->ts_begin,
		    buf, size);
		return;
	}
	if (ev->rec.kind != TV_REC_EVENT)
		snprintf(buf, size, "%s", _("n/a"));
	else
		snprintf(buf, size, "%" PRIu64, ev->rec.count);
}

/* Columns of the widest raw clock value of the set (last packets). */
static int
raw_width(const struct tv_ui *ui)
{
	char buf[32];
	uint64_t max = 0;
	uint32_t i;

	for (i = 0; i < ui->set->nstreams; i++) {
		const struct tv_stream *s = ui->set->streams[i];

		if (s->npackets &&
		    s->packets[s->npackets - 1].cycles_end > max)
			max = s->packets[s->npackets - 1].cycles_end;
	}
	if (max == 0)
		return 20;	/* unknown: room for any 64-bit value */
	return snprintf(buf, sizeof(buf), "%" PRIu64, max) + 1;
}

/* Recompute the column widths after the time style changed. */
void
tv_ui_render_widths(struct tv_ui *ui)
{
	char buf[64];
	int w1, w2;
	uint32_t t, c;
	int nw = 10;

	tv_time_format(ui->set->ts_begin, ui->time_style, ui->set->ts_begin,
	    buf, sizeof(buf));
	w1 = tv_ui_width(buf);
	tv_time_format(ui->set->ts_end, ui->time_style, ui->set->ts_begin,
	    buf, sizeof(buf));
	w2 = tv_ui_width(buf);
	ui->time_width = TV_MAX(TV_MAX(w1, w2), 4);
	if (ui->time_style == TV_TIME_RAW)
		ui->time_width = TV_MAX(raw_width(ui), 4);
	for (t = 0; t < ui->set->ntraces; t++) {
		const struct tv_trace *tr = ui->set->traces[t];

		for (c = 0; c < tr->nclasses; c++) {
			int l;

			if (!tr->classes[c] || !tr->classes[c]->name)
				continue;
			l = (int)strlen(tr->classes[c]->name);
			if (l > nw)
				nw = l;
		}
	}
	ui->name_width = TV_MIN(nw, 32);
}

/* The column titles, aligned like tv_ui_render_row(). */
void
tv_ui_render_header(struct tv_ui *ui, struct tv_strbuf *sb)
{
	add_padded(sb, _("Time"), ui->time_width);
	tv_strbuf_add(sb, "  ", 2);
	add_padded(sb, _("CPU"), 3);
	tv_strbuf_add(sb, "  ", 2);
	add_padded(sb, _("Event"), ui->name_width);
	tv_strbuf_add(sb, "  ", 2);
	tv_strbuf_adds(sb, _("Fields"));
}

/* One row of the event list: time, CPU, name, payload summary. */
void
tv_ui_render_row(struct tv_ui *ui, const struct tv_event *ev,
    struct tv_strbuf *sb)
{
	struct tv_event_fields f;
	struct tv_error err;
	const struct tv_value *pl;
	char buf[64];
	int cpu = tv_ui_event_cpu(ev);
	uint32_t i;

	tv_ui_time_text(ui, ev, buf, sizeof(buf));
	add_padded(sb, buf, ui->time_width);
	tv_strbuf_add(sb, "  ", 2);
	if (cpu >= 0)
		snprintf(buf, sizeof(buf), "%3d", cpu);
	else
		snprintf(buf, sizeof(buf), "%3s", "-");
	tv_strbuf_adds(sb, buf);
	tv_strbuf_add(sb, "  ", 2);
	{
		struct tv_strbuf nm;
		const char *name = tv_ui_event_name(ev);

		tv_strbuf_init(&nm);
		tv_ui_escape(&nm, name, strlen(name));
		add_padded(sb, nm.buf, ui->name_width);
		tv_strbuf_fini(&nm);
	}
	if (ev->rec.kind != TV_REC_EVENT) {
		tv_strbuf_add(sb, "  ", 2);
		tv_strbuf_addf(sb, ev->rec.kind == TV_REC_DISCARDED ?
		    P_("the tracer lost %" PRIu64 " event here",
		    "the tracer lost %" PRIu64 " events here",
		    ev->rec.count) :
		    P_("the tracer lost %" PRIu64 " packet here",
		    "the tracer lost %" PRIu64 " packets here",
		    ev->rec.count), ev->rec.count);
		return;
	}
	tv_arena_reset(&ui->arena);
	if (tv_event_decode(ev, &ui->arena, &f, &err) != TV_OK) {
		tv_strbuf_add(sb, "  ", 2);
		tv_strbuf_addf(sb, _("<cannot decode: %s>"), err.msg);
		return;
	}
	pl = f.scope[TV_SCOPE_EVENT_PAYLOAD];
	if (!pl || pl->fc == NULL || pl->fc->kind != TV_FC_STRUCT)
		return;
	tv_strbuf_add(sb, "  ", 2);
	for (i = 0; i < pl->kids.count; i++) {
		const struct tv_value *k = &pl->kids.items[i];

		if (i)
			tv_strbuf_add(sb, ", ", 2);
		if (k->name)
			tv_strbuf_addf(sb, "%s = ", k->name);
		tv_ui_render_value(sb, k);
	}
}

/* Display columns of the multibyte string @s. */
int
tv_ui_width(const char *s)
{
	mbstate_t st;
	size_t len = strlen(s), n;
	int cols = 0, w;
	wchar_t wc;

	memset(&st, 0, sizeof(st));
	while (len > 0) {
		n = mbrtowc(&wc, s, len, &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof(st));
			n = 1;
			w = 1;
		} else {
			w = wcwidth(wc);
			if (w < 0)
				w = 1;
		}
		cols += w;
		s += n;
		len -= n;
	}
	return cols;
}

/*
 * Write @s at @y,@x cut to @maxcols display columns, never wrapping.
 * Returns the columns written.
 */
int
tv_ui_put(WINDOW *win, int y, int x, const char *s, int maxcols)
{
	mbstate_t st;
	size_t len = strlen(s), n;
	int cols = 0, w;
	wchar_t wc;

	if (maxcols <= 0)
		return 0;
	wmove(win, y, x);
	memset(&st, 0, sizeof(st));
	while (len > 0) {
		n = mbrtowc(&wc, s, len, &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof(st));
			n = 1;
			wc = L'?';
		}
		w = wcwidth(wc);
		if (w < 0) {
			wc = L'?';
			w = 1;
		}
		if (cols + w > maxcols)
			break;
		waddnwstr(win, &wc, 1);
		cols += w;
		s += n;
		len -= n;
	}
	return cols;
}
