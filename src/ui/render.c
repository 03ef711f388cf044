/*
 * Text of what the browser shows: one-line rows of the event list, values
 * in their declared base, strings with control bytes and invalid UTF-8
 * escaped, and width-aware output to curses windows.  Search matches the
 * same text the user sees.
 */
#include "ui-priv.h"
#include "tview/format.h"
#include "tview/owner.h"

#include <inttypes.h>
#include <stdlib.h>
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

		/* a run of plain ASCII, nearly all of a row, in one copy */
		for (n = i; n < len && p[n] >= 0x20 && p[n] < 0x7f &&
		    p[n] != '\\' && p[n] != '"'; n++)
			;
		if (n > i) {
			tv_strbuf_add(sb, s + i, n - i);
			i = n;
			continue;
		}
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

/* "0x" and @u in lower-case hex: printf's "0x%x" without its cost,
 * which a search pays on every row. */
static void
add_hex(struct tv_strbuf *sb, uint64_t u)
{
	char t[2 + 16];
	size_t n = sizeof(t);

	do {
		t[--n] = "0123456789abcdef"[u & 0xf];
		u >>= 4;
	} while (u != 0);
	t[--n] = 'x';
	t[--n] = '0';
	tv_strbuf_add(sb, t + n, sizeof(t) - n);
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
		add_hex(sb, u);
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

/* See ui-priv.h. */
bool
tv_ui_render_label(struct tv_strbuf *sb, const struct tv_value *v)
{
	const struct tv_field_class *fc = v->fc;
	uint32_t i, n = 0;

	for (i = 0; i < fc->enumeration.nmaps; i++) {
		const struct tv_enum_mapping *m = &fc->enumeration.maps[i];

		if (!tv_enum_mapping_holds(fc, m, v->u))
			continue;
		if (n++)
			tv_strbuf_addc(sb, '|');
		if (m->label)
			tv_ui_escape(sb, m->label, strlen(m->label));
		if (!fc->enumeration.bit_flags)
			break;		/* the first label, as tv_enum_label */
	}
	return n > 0;
}

/* True for array classes of 8-bit integers that the metadata says are
 * text. */
static bool
is_text_class(const struct tv_field_class *fc)
{
	const struct tv_field_class *e;

	if (fc->kind != TV_FC_ARRAY && fc->kind != TV_FC_SEQUENCE)
		return false;
	e = fc->array.elem;
	return e && e->kind == TV_FC_INT && e->integer.size == 8 &&
	    e->integer.encoding != TV_ENC_NONE;
}

/* True for arrays of 8-bit integers that the metadata says are text. */
static bool
is_text_array(const struct tv_value *v)
{
	return is_text_class(v->fc);
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
	char buf[TV_FMT_G_MAX];
	uint32_t i;
	size_t n;

	if (!v || !v->fc) {
		tv_strbuf_adds(sb, "?");
		return;
	}
	switch (v->fc->kind) {
	case TV_FC_INT:
		tv_ui_render_int(sb, v);
		break;
	case TV_FC_ENUM:
		if (!tv_ui_render_label(sb, v)) {
			tv_strbuf_addc(sb, '(');
			tv_ui_render_int(sb, v);
			tv_strbuf_addc(sb, ')');
		}
		break;
	case TV_FC_FLOAT:
		n = tv_fmt_g(buf, sizeof(buf), v->f);
		tv_strbuf_add(sb, buf, n);
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
			if (k->name) {
				tv_strbuf_adds(sb, k->name);
				tv_strbuf_add(sb, " = ", 3);
			}
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
		if (v->kids.items[0].name) {
			tv_strbuf_adds(sb, v->kids.items[0].name);
			tv_strbuf_add(sb, " = ", 3);
		}
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

/* Pad what @sb holds from @mark on with spaces to @width columns. */
static void
pad_from(struct tv_strbuf *sb, size_t mark, int width)
{
	static const char spaces[] = "                                ";
	int w, n;

	if (width <= 0)
		return;
	w = sb->len > mark ? tv_ui_width(sb->buf + mark) : 0;
	for (; w < width; w += n) {
		n = TV_MIN(width - w, (int)sizeof(spaces) - 1);
		tv_strbuf_add(sb, spaces, (size_t)n);
	}
}

/* Append @s padded with spaces to @width columns. */
static void
add_padded(struct tv_strbuf *sb, const char *s, int width)
{
	size_t mark = sb->len;

	tv_strbuf_adds(sb, s);
	pad_from(sb, mark, width);
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
		tv_ui_time(ui, ev->rec.ts, ui->time_style,
		    tv_ui_relative_origin(ui, ev), buf, size);
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

/*
 * See ui-priv.h.  Append @s (escaped already) cut to @width columns in
 * its middle, "head…tail", so names that differ at either end stay
 * apart.
 */
void
tv_ui_add_cut(struct tv_strbuf *sb, const char *s, int width)
{
	const char *dots = MB_CUR_MAX > 1 ? "\xe2\x80\xa6" : "~";
	size_t len = strlen(s), i, head, tail;
	int n = 0, keep_head, keep_tail;

	if (tv_ui_width(s) <= width || width < 3) {
		add_padded(sb, s, width);
		return;
	}
	keep_head = (width - 1 + 1) / 2;
	keep_tail = width - 1 - keep_head;
	/* names are ASCII but may hold escaped UTF-8: count code points */
	for (head = 0; head < len && n < keep_head; n++)
		head += TV_MAX(utf8_len((const unsigned char *)s + head,
		    len - head), (size_t)1);
	for (tail = len, n = 0; tail > head && n < keep_tail; n++) {
		i = tail - 1;
		while (i > head && ((unsigned char)s[i] & 0xc0) == 0x80)
			i--;
		tail = i;
	}
	tv_strbuf_add(sb, s, head);
	tv_strbuf_adds(sb, dots);
	tv_strbuf_adds(sb, s + tail);
}

/* Drop the first @cols display columns of @sb after byte @from. */
static void
drop_columns(struct tv_strbuf *sb, size_t from, int cols)
{
	size_t i = from, n;

	while (cols > 0 && i < sb->len) {
		n = utf8_len((const unsigned char *)sb->buf + i, sb->len - i);
		i += n ? n : 1;
		cols--;
	}
	memmove(sb->buf + from, sb->buf + i, sb->len - i + 1);
	sb->len -= i - from;
}

/* Recompute the column widths after the time style changed. */
void
tv_ui_render_widths(struct tv_ui *ui)
{
	char buf[64];
	int w1, w2;
	uint32_t t, c;
	int nw = 10, measured[TV_UI_COL_COUNT];

	tv_ui_time(ui, ui->set->ts_begin, ui->time_style, ui->set->ts_begin,
	    buf, sizeof(buf));
	w1 = tv_ui_width(buf);
	tv_ui_time(ui, ui->set->ts_end, ui->time_style, ui->set->ts_begin,
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
	/* what each column wants; columns.c fits them to the screen */
	memset(measured, 0, sizeof(measured));
	measured[TV_UI_COL_TIME] = ui->time_width;
	measured[TV_UI_COL_TRACE] = tv_ui_trace_width(ui) > 0 ?
	    tv_ui_trace_width(ui) : -1;
	measured[TV_UI_COL_EVENT] = TV_MIN(nw, ui->name_max ? ui->name_max :
	    tv_ui_column(TV_UI_COL_EVENT)->width);
	tv_ui_columns_layout(ui, measured);
}

/* The column titles, aligned like tv_ui_render_row(). */
void
tv_ui_render_header(struct tv_ui *ui, struct tv_strbuf *sb)
{
	size_t start = sb->len;		/* after the caller's mark */
	int i, id;

	for (i = 0; i < ui->ncol_order; i++) {
		id = ui->col_order[i];
		if (ui->col_width[id] <= 0)
			continue;
		if (sb->len > start)
			tv_strbuf_add(sb, "  ", 2);
		if (id == TV_UI_COL_FIELDS)
			tv_strbuf_adds(sb, _(tv_ui_column(id)->title));
		else
			add_padded(sb, _(tv_ui_column(id)->title),
			    ui->col_width[id]);
	}
	if (ui->hscroll && ui->col_width[TV_UI_COL_FIELDS] > 0)
		tv_strbuf_addf(sb, _(" (scrolled %d, Left / Right)"),
		    ui->hscroll);
}

/*
 * The event's text as its format's reference reader prints it (symbols,
 * durations, kernel stacks), on one line: a stack's lines joined by a
 * space.  False when the format has none: then the fields are the text.
 */
static bool
add_event_text(struct tv_arena *arena, const struct tv_event *ev,
    struct tv_strbuf *sb)
{
	struct tv_strbuf t;
	struct tv_error err;
	enum tv_status st;
	size_t i;

	tv_strbuf_init(&t);
	st = tv_event_text(ev, arena, &t, &err);
	if (st == TV_UNSUPPORTED) {
		tv_strbuf_fini(&t);
		return false;
	}
	tv_strbuf_add(sb, "  ", 2);
	if (st != TV_OK) {
		tv_strbuf_addf(sb, _("<cannot decode: %s>"), err.msg);
		tv_strbuf_fini(&t);
		return true;
	}
	for (i = 0; i < t.len; i++)
		if (t.buf[i] == '\n')
			t.buf[i] = ' ';
	tv_ui_escape(sb, t.buf ? t.buf : "", t.len);
	tv_strbuf_fini(&t);
	return true;
}

/*
 * The text of column @id of @ev in @width columns.  @shown: as on screen
 * (a long name cut in its middle), else whole, as searches and copies
 * take it.
 */
static void
add_column(struct tv_ui *ui, const struct tv_event *ev, int id, int width,
    bool shown, struct tv_strbuf *sb)
{
	struct tv_strbuf nm;
	/* whole: straight into @sb and padded there, no copy to make */
	struct tv_strbuf *dst = shown ? &nm : sb;
	size_t mark = sb->len;
	char buf[64];
	int cpu;

	if (shown)
		tv_strbuf_init(&nm);
	switch (id) {
	case TV_UI_COL_TIME:
		tv_ui_time_text(ui, ev, buf, sizeof(buf));
		tv_strbuf_adds(dst, buf);
		break;
	case TV_UI_COL_CPU:
		cpu = tv_ui_event_cpu(ev);
		/* "%3d" by hand: on every row a search renders */
		if (cpu >= 0 && cpu < 100)
			tv_strbuf_add(dst, "   ", cpu < 10 ? 2 : 1);
		if (cpu >= 0)
			tv_strbuf_add_i64(dst, cpu);
		else
			tv_strbuf_add(dst, "  -", 3);
		break;
	case TV_UI_COL_TRACE:
		tv_ui_trace_text(ui, ev, dst);
		break;
	case TV_UI_COL_TASK:
		/*
		 * On screen, a row the background pass has not reached
		 * waits for it: its owner would be a replay from the
		 * trace's start in the middle of a draw.
		 */
		if (shown && !tv_ui_session_reached(ui, ev->rec.ts))
			tv_strbuf_adds(dst, "...");
		else
			tv_ui_task_text(ui, ev, dst);
		break;
	default:
		tv_ui_escape(dst, tv_ui_event_name(ev),
		    strlen(tv_ui_event_name(ev)));
		break;
	}
	if (!shown) {
		pad_from(sb, mark, width);
		return;
	}
	tv_ui_add_cut(sb, nm.buf ? nm.buf : "", width);
	tv_strbuf_fini(&nm);
}

/* See ui-priv.h. */
bool
tv_ui_fields_owner(const struct tv_event_fields *f, struct tv_event_owner *o)
{
	return tv_event_owner(f, o) && o->tid != TV_TID_UNKNOWN &&
	    o->pid != TV_TID_UNKNOWN && o->name[0] != '\0';
}

/*
 * A search worker's row of an event whose own fields @f name its whole
 * owner (thread, process and command, as LTTng-UST's vtid, vpid and
 * procname contexts do): the state would give that same owner
 * (tv_state_apply() completes an owner only where a field left it
 * unknown), so the task goes in at @defer's place here, off the UI
 * thread, and @defer says it is done.  The row of @sb starts at @start.
 */
static void
owner_in_place(struct tv_strbuf *sb, size_t start,
    const struct tv_event_fields *f, struct tv_ui_row_task *defer,
    struct tv_arena *arena)
{
	struct tv_event_owner o;
	size_t at = start + defer->at, tail = sb->len - at;
	char *t;

	if (!tv_ui_fields_owner(f, &o))
		return;
	t = tv_arena_alloc(arena, tail + 1);
	memcpy(t, sb->buf + at, tail);
	sb->len = at;
	sb->buf[at] = '\0';
	tv_ui_owner_text(&o, sb);
	pad_from(sb, at, defer->width);
	tv_strbuf_add(sb, t, tail);
	defer->done = true;
}

/* The anchors of @lit in every label of enumeration class @fc: more
 * than the one shown, never less. */
static void
see_labels(const struct tv_ui_literal *lit, const struct tv_field_class *fc,
    uint64_t *seen)
{
	uint32_t i;

	for (i = 0; i < fc->enumeration.nmaps; i++)
		if (fc->enumeration.maps[i].label != NULL)
			tv_ui_literal_see_str(lit,
			    fc->enumeration.maps[i].label, seen);
}

/*
 * The anchors of @lit in what a row of class @ec of @t shows outside its
 * payload and task: the trace's name and the event's, whatever columns
 * the configuration shows (an event's time, in every style, is digits
 * and punctuation: tv_time_format_prec; its CPU digits).  False when
 * the format writes the row's text itself: nothing is ruled out then.
 */
static bool
see_row_names(const struct tv_ui_literal *lit, const struct tv_trace *t,
    const char *event_name, uint64_t *seen)
{
	if (t != NULL && t->ops != NULL && t->ops->print_info != NULL)
		return false;
	tv_ui_literal_see_str(lit, t != NULL && t->name != NULL ? t->name :
	    "?", seen);
	tv_ui_literal_see_str(lit, event_name, seen);
	return true;
}

/*
 * The anchors of @lit in the texts of the record's own that
 * tv_ui_render_value() shows of @v (literal.c): strings and text arrays.
 * Names and labels are its class's (see_class()); what it makes up
 * itself (numbers, escapes, punctuation) holds no anchor.  Keep in step
 * with it.
 */
static void
see_text(const struct tv_ui_literal *lit, const struct tv_value *v,
    uint64_t *seen)
{
	const struct tv_field_class *el;
	uint32_t i;

	if (v == NULL || v->fc == NULL || (*seen & lit->anchors) ==
	    lit->anchors)
		return;
	switch (v->fc->kind) {
	case TV_FC_STRING:
		if (v->str.ptr != NULL)
			tv_ui_literal_see(lit, v->str.ptr, v->str.len, seen);
		break;
	case TV_FC_ARRAY:
	case TV_FC_SEQUENCE:
		if (is_text_array(v)) {
			/* what render_text_array() shows: up to a NUL */
			for (i = 0; i < v->kids.count; i++) {
				uint8_t c = (uint8_t)v->kids.items[i].u;

				if (c == '\0')
					break;
				if (lit->slot[c] >= 0)
					*seen |= (uint64_t)1 << lit->slot[c];
			}
			break;
		}
		el = v->fc->array.elem;
		if (el == NULL || el->kind == TV_FC_INT ||
		    el->kind == TV_FC_ENUM || el->kind == TV_FC_FLOAT)
			break;	/* numbers and labels only */
		for (i = 0; i < v->kids.count && i < ARRAY_SHOW_MAX; i++)
			see_text(lit, &v->kids.items[i], seen);
		break;
	case TV_FC_STRUCT:
	case TV_FC_VARIANT:
		for (i = 0; i < v->kids.count; i++) {
			el = v->kids.items[i].fc;
			/* no call for a number: most members are */
			if (el != NULL && el->kind != TV_FC_INT &&
			    el->kind != TV_FC_ENUM && el->kind != TV_FC_FLOAT)
				see_text(lit, &v->kids.items[i], seen);
		}
		break;
	default:	/* numbers, labels */
		break;
	}
}

/*
 * Most values a value of a class ruled out whole may decode into: far
 * below any decoder's own bound (CTF's is 4M), so that such a row
 * never renders a decoding error, whose text a search could match.
 */
#define STATIC_VALUES_MAX	65536

/*
 * The anchors of @lit in every text class @fc holds that a value of it
 * may show (member and option names, labels: more than one value shows,
 * never less) into *@seen.  Returns the most values a value of it
 * decodes into when that is all it shows beside what
 * tv_ui_render_value() makes up; UINT64_MAX when a string, a text array
 * or a variant may show text of the record's own, or when a sequence
 * makes the count unbounded (see_text()).
 */
static uint64_t
see_class(const struct tv_ui_literal *lit, const struct tv_field_class *fc,
    uint64_t *seen)
{
	uint64_t n, k;
	uint32_t i;

	if (fc == NULL)
		return 0;
	switch (fc->kind) {
	case TV_FC_INT:
	case TV_FC_FLOAT:
		return 1;
	case TV_FC_ENUM:
		see_labels(lit, fc, seen);
		return 1;
	case TV_FC_STRUCT:
		for (i = 0, n = 1; i < fc->structure.nmembers; i++) {
			if (fc->structure.members[i].name != NULL)
				tv_ui_literal_see_str(lit,
				    fc->structure.members[i].name, seen);
			k = see_class(lit, fc->structure.members[i].fc, seen);
			n = k > UINT64_MAX - n ? UINT64_MAX : n + k;
		}
		return n;
	case TV_FC_VARIANT:
		for (i = 0; i < fc->variant.noptions; i++) {
			if (fc->variant.options[i].name != NULL)
				tv_ui_literal_see_str(lit,
				    fc->variant.options[i].name, seen);
			(void)see_class(lit, fc->variant.options[i].fc, seen);
		}
		return UINT64_MAX;
	case TV_FC_ARRAY:
	case TV_FC_SEQUENCE:
		if (fc->array.elem == NULL || is_text_class(fc))
			return UINT64_MAX;
		k = see_class(lit, fc->array.elem, seen);
		if (fc->kind == TV_FC_SEQUENCE || k == UINT64_MAX ||
		    (k != 0 && fc->array.length > (UINT64_MAX - 1) / k))
			return UINT64_MAX;
		return 1 + fc->array.length * k;
	default:
		return UINT64_MAX;
	}
}

/* See ui-priv.h; render_row() below is what it shows: keep in step. */
enum tv_ui_class_text
tv_ui_class_text(struct tv_ui *ui, const struct tv_trace *t,
    const struct tv_event_class *ec, uint64_t *seen)
{
	*seen = 0;
	if (!see_row_names(&ui->lit, t, ec->name != NULL ? ec->name :
	    _("<unknown>"), seen))
		return TV_UI_CLASS_OWN;
	return see_class(&ui->lit, ec->payload, seen) <= STATIC_VALUES_MAX ?
	    TV_UI_CLASS_STATIC : TV_UI_CLASS_RECORD;
}

/* See ui-priv.h; render_row() below is what it reads: keep in step. */
bool
tv_ui_row_may_hold(struct tv_ui *ui, const struct tv_event *ev,
    const struct tv_event_fields *f, const uint64_t *class_seen)
{
	const struct tv_ui_literal *lit = &ui->lit;
	const struct tv_event_class *ec;
	uint64_t seen = 0;

	if (!lit->prune || lit->anchors == 0 || ev->rec.kind != TV_REC_EVENT)
		return true;
	if (class_seen != NULL) {
		seen = *class_seen;
	} else {
		ec = tv_event_class_of(ev);
		if (ec == NULL || tv_ui_class_text(ui, ev->stream->trace, ec,
		    &seen) == TV_UI_CLASS_OWN)
			return true;
	}
	see_text(lit, f->scope[TV_SCOPE_EVENT_PAYLOAD], &seen);
	return (seen & lit->anchors) == lit->anchors;
}

/* see_text() of a payload, a member at a time (a tv_member_fn). */
struct see_members {
	const struct tv_ui_literal	*lit;
	uint64_t			*seen;
};

static void
see_member(void *ctx, const struct tv_value *v, const uint8_t *bytes)
{
	struct see_members *sm = ctx;
	uint32_t i;

	if (bytes == NULL) {
		see_text(sm->lit, v, sm->seen);
		return;
	}
	/* a text array as its bytes: what render shows, up to a NUL */
	for (i = 0; i < v->kids.count && bytes[i] != '\0'; i++)
		if (sm->lit->slot[bytes[i]] >= 0)
			*sm->seen |= (uint64_t)1 << sm->lit->slot[bytes[i]];
}

/* See ui-priv.h: tv_ui_row_may_hold() without the payload's tree. */
enum tv_status
tv_ui_payload_may_hold(struct tv_ui *ui, const struct tv_event *ev,
    struct tv_arena *arena, uint64_t class_seen, bool *may)
{
	const struct tv_ui_literal *lit = &ui->lit;
	uint64_t seen = class_seen;
	struct see_members sm = { lit, &seen };
	enum tv_status st;

	*may = true;
	if (!lit->prune || lit->anchors == 0 || ev->rec.kind != TV_REC_EVENT)
		return TV_OK;
	st = tv_event_visit_payload(ev, arena, see_member, &sm, NULL);
	if (st == TV_OK)
		*may = (seen & lit->anchors) == lit->anchors;
	return st;
}

/*
 * One row of the event list: its columns in the configured order, the
 * payload summary last.  @shown: as on screen (what the width dropped
 * left out, names cut in their middle, fields scrolled), else whole, as
 * searches and copies take it: every column, the task too.
 */
static void
render_row(struct tv_ui *ui, const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *sb, bool shown, struct tv_ui_row_task *defer,
    const struct tv_event_fields *decoded)
{
	struct tv_event_fields f;
	struct tv_error err;
	const struct tv_value *pl;
	bool task = false;
	size_t fields, start = sb->len;	/* after the caller's mark */
	uint32_t i;
	int c, id, w;

	for (c = 0; c < ui->ncol_order; c++) {
		id = ui->col_order[c];
		w = ui->col_width[id];
		if (id == TV_UI_COL_TASK)
			task = true;
		if (id == TV_UI_COL_FIELDS || (w <= 0 && (shown ||
		    (id == TV_UI_COL_TRACE && ui->set->ntraces < 2))))
			continue;
		if (sb->len > start)
			tv_strbuf_add(sb, "  ", 2);
		if (id == TV_UI_COL_TASK && defer != NULL) {
			defer->at = sb->len - start;
			defer->width = w;
			continue;
		}
		add_column(ui, ev, id, w, shown, sb);
	}
	if (!shown && !task) {
		/* the task is searchable even where the config hides it */
		tv_strbuf_add(sb, "  ", 2);
		if (defer != NULL) {
			defer->at = sb->len - start;
			defer->width = 0;
		} else {
			add_column(ui, ev, TV_UI_COL_TASK, 0, false, sb);
		}
	}
	if (shown && ui->col_width[TV_UI_COL_FIELDS] <= 0)
		return;
	fields = sb->len;
	if (ev->rec.kind != TV_REC_EVENT) {
		tv_strbuf_add(sb, "  ", 2);
		tv_strbuf_addf(sb, ev->rec.kind == TV_REC_DISCARDED ?
		    P_("the tracer lost %" PRIu64 " event here",
		    "the tracer lost %" PRIu64 " events here",
		    ev->rec.count) :
		    P_("the tracer lost %" PRIu64 " packet here",
		    "the tracer lost %" PRIu64 " packets here",
		    ev->rec.count), ev->rec.count);
		goto scroll;
	}
	if (decoded == NULL)
		tv_arena_reset(arena);
	if (add_event_text(arena, ev, sb))
		goto scroll;
	if (decoded != NULL)
		f = *decoded;
	else if (tv_event_decode_scopes(ev, arena, &f, TV_SCOPES_EVENT,
	    &err) != TV_OK) {
		tv_strbuf_add(sb, "  ", 2);
		tv_strbuf_addf(sb, _("<cannot decode: %s>"), err.msg);
		goto scroll;
	}
	if (defer != NULL)
		owner_in_place(sb, start, &f, defer, arena);
	pl = f.scope[TV_SCOPE_EVENT_PAYLOAD];
	if (!pl || pl->fc == NULL || pl->fc->kind != TV_FC_STRUCT)
		goto scroll;
	tv_strbuf_add(sb, "  ", 2);
	for (i = 0; i < pl->kids.count; i++) {
		const struct tv_value *k = &pl->kids.items[i];

		if (i)
			tv_strbuf_add(sb, ", ", 2);
		if (k->name) {
			tv_strbuf_adds(sb, k->name);
			tv_strbuf_add(sb, " = ", 3);
		}
		tv_ui_render_value(sb, k);
	}
scroll:
	if (shown && ui->hscroll)
		drop_columns(sb, TV_MIN(fields + 2, sb->len), ui->hscroll);
}

/* See ui-priv.h: as searches and copies see it. */
void
tv_ui_render_row(struct tv_ui *ui, const struct tv_event *ev,
    struct tv_strbuf *sb)
{
	render_row(ui, ev, &ui->arena, sb, false, NULL, NULL);
}

/* See ui-priv.h: a search worker's part of the row. */
void
tv_ui_render_row_deferred(struct tv_ui *ui, const struct tv_event *ev,
    struct tv_arena *arena, struct tv_strbuf *sb,
    struct tv_ui_row_task *task, const struct tv_event_fields *decoded)
{
	render_row(ui, ev, arena, sb, false, task, decoded);
}

/* See ui-priv.h: the task where the worker left its place. */
void
tv_ui_render_row_task(const struct tv_event_owner *o, const char *part,
    size_t len, const struct tv_ui_row_task *task, struct tv_strbuf *sb)
{
	size_t mark;

	tv_strbuf_add(sb, part, task->at);
	mark = sb->len;		/* the task, padded in place: no copy */
	tv_ui_owner_text(o, sb);
	pad_from(sb, mark, task->width);
	tv_strbuf_add(sb, part + task->at, len - task->at);
}

/* See ui-priv.h: as the event list shows it. */
void
tv_ui_render_shown(struct tv_ui *ui, const struct tv_event *ev,
    struct tv_strbuf *sb)
{
	render_row(ui, ev, &ui->arena, sb, true, NULL, NULL);
}

/* See ui-priv.h. */
int
tv_ui_put_cut(WINDOW *win, int y, int x, const char *s, int cols)
{
	struct tv_strbuf sb;
	int n;

	tv_strbuf_init(&sb);
	tv_ui_add_cut(&sb, s, cols);
	n = tv_ui_put(win, y, x, sb.buf, cols);
	tv_strbuf_fini(&sb);
	return n;
}

/* Display columns of the multibyte string @s. */
int
tv_ui_width(const char *s)
{
	mbstate_t st;
	size_t len, n;
	int cols = 0, w;
	wchar_t wc;
	const unsigned char *p = (const unsigned char *)s;

	/*
	 * Printable ASCII, nearly every row of a trace: one column a byte,
	 * without the locale's conversion (a quarter of a search's time).
	 */
	for (n = 0; p[n] >= 0x20 && p[n] < 0x7f; n++)
		;
	if (p[n] == '\0')
		return (int)n;
	len = strlen(s);

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
