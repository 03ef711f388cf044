/*
 * The fields pane: every scope of the selected event, decoded with
 * tv_event_decode, as an indented tree (structs, arrays, variants nested;
 * enums with their labels; integers in their declared base, with the
 * driver's note: a symbol, decoded flags).  Name, time, CPU, task and the
 * reference reader's text first, then the payload, the contexts, and the
 * packet and header scopes, folded until unfolded (Enter on a title).
 * The tree is rendered to lines when the selection changes, then
 * scrolled; the folds, scroll and cursor stay within a class.  A toggle
 * (x) splits the pane: the tree above, the event's raw bytes below as a
 * hex dump (offset, hex, ASCII) with the bytes of the field under the
 * cursor highlighted; each line remembers its value's bit range.
 */
#include "tview/format.h"
#include "ui-priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH	32
#define MAX_ELEMS	4096	/* array elements listed per array */
#define INLINE_MAX	100	/* bytes of an array shown on one line */
#define HEX_MAX		65536	/* bytes of one event shown in the dump */

struct fline {
	char		*text;
	int		 attr;		/* enum tv_ui_attr */
	int		 fold;		/* scope title: its scope, else -1 */
	bool		 has_bits;	/* a value: the range below is set */
	uint64_t	 bit_off;	/* from packet start */
	uint64_t	 bit_size;
};

struct fields_priv {
	struct fline	*lines;
	size_t		 n, cap;
	struct tv_ui_list list;		/* cursor line of the tree */
	bool		 stale;	/* selection changed while hidden */
	/* hex dump */
	bool		 hex;
	uint8_t		*copy;		/* packet_copy bytes, owned */
	const uint8_t	*bytes;		/* packet bytes: copy or mapped */
	uint64_t	 nbytes;
	uint64_t	 ev_lo, ev_hi;	/* the event's bytes [lo, hi) */
	char		 bytes_msg[256];	/* why there are none */
	uint64_t	 hex_top;	/* first dump row shown, in bytes */
	const struct tv_value *last;	/* value of the last add_line */
	/* what stays from one event to the next */
	bool		 folded[TV_SCOPE_COUNT];
	bool		 have_prev;
	const struct tv_trace *prev_trace;	/* class of the last event */
	uint64_t	 prev_class;
	/* the event being rendered, for the driver's notes */
	const struct tv_event *ev;
	int		 scope;
	const char	*array_name;	/* of the elements being listed */
};

/*
 * The order of the scopes: the payload first (what the user came for),
 * the contexts, then the packet and header scopes, folded at first.
 */
static const int scope_order[TV_SCOPE_COUNT] = {
	TV_SCOPE_EVENT_PAYLOAD,
	TV_SCOPE_EVENT_SPECIFIC_CONTEXT,
	TV_SCOPE_EVENT_COMMON_CONTEXT,
	TV_SCOPE_EVENT_HEADER,
	TV_SCOPE_PACKET_CONTEXT,
	TV_SCOPE_PACKET_HEADER,
};

static const char *const scope_titles[TV_SCOPE_COUNT] = {
	N_("packet header"),
	N_("packet context"),
	N_("event header"),
	N_("stream event context"),
	N_("event context"),
	N_("payload"),
};

/* Forget every line. */
static void
clear_lines(struct fields_priv *fp)
{
	size_t i;

	for (i = 0; i < fp->n; i++)
		free(fp->lines[i].text);
	fp->n = 0;
}

/* Append a copy of @sb as a line. */
static void
add_line(struct fields_priv *fp, const struct tv_strbuf *sb, int attr)
{
	TV_VEC_GROW(fp->lines, fp->n, fp->cap);
	fp->lines[fp->n].text = tv_xstrdup(sb->buf ? sb->buf : "");
	fp->lines[fp->n].attr = attr;
	fp->lines[fp->n].fold = -1;
	fp->lines[fp->n].has_bits = fp->last != NULL;
	fp->lines[fp->n].bit_off = fp->last ? fp->last->bit_offset : 0;
	fp->lines[fp->n].bit_size = fp->last ? fp->last->bit_size : 0;
	fp->last = NULL;
	fp->n++;
}

/* Start a line at @indent with the member @name (if any). */
static void
start(struct tv_strbuf *sb, int indent, const char *name)
{
	int i;

	tv_strbuf_reset(sb);
	for (i = 0; i < indent; i++)
		tv_strbuf_addc(sb, ' ');
	if (name)
		tv_ui_escape(sb, name, strlen(name));
}

/* True for a text array (char[] with an encoding). */
static bool
text_array(const struct tv_value *v)
{
	const struct tv_field_class *e = v->fc->array.elem;

	return e && e->kind == TV_FC_INT && e->integer.size == 8 &&
	    e->integer.encoding != TV_ENC_NONE;
}

/* True when the driver notes the elements of array @v: one a line. */
static bool
array_noted(struct fields_priv *fp, const struct tv_value *v,
    const char *name)
{
	struct tv_strbuf n;
	bool noted;

	if (fp->ev == NULL || name == NULL || v->kids.count == 0)
		return false;
	tv_strbuf_init(&n);
	noted = tv_event_value_note(fp->ev, (enum tv_scope)fp->scope, name,
	    &v->kids.items[0], &n);
	tv_strbuf_fini(&n);
	return noted;
}

/* True for arrays of numbers, which fit on one line when short. */
static bool
scalar_elems(const struct tv_value *v)
{
	const struct tv_field_class *e = v->fc->array.elem;

	return e && (e->kind == TV_FC_INT || e->kind == TV_FC_ENUM ||
	    e->kind == TV_FC_FLOAT);
}

/*
 * What the format's reference reader makes of @v (a symbol, flags), in
 * parentheses after it; an element "[i]" is noted as its array is.
 */
static void
add_note(struct fields_priv *fp, struct tv_strbuf *sb,
    const struct tv_value *v, const char *name)
{
	struct tv_strbuf n;

	if (fp->ev == NULL || name == NULL)
		return;
	if (name[0] == '[')
		name = fp->array_name;
	tv_strbuf_init(&n);
	if (name && tv_event_value_note(fp->ev, (enum tv_scope)fp->scope,
	    name, v, &n)) {
		tv_strbuf_adds(sb, "  <");
		tv_ui_escape(sb, n.buf, n.len);
		tv_strbuf_addc(sb, '>');
	}
	tv_strbuf_fini(&n);
}

/* One value and, for compound ones, its children below it. */
static void
add_value(struct fields_priv *fp, struct tv_strbuf *sb,
    const struct tv_value *v, const char *name, int indent, int depth)
{
	uint32_t i;

	start(sb, indent, name);
	fp->last = v;
	if (!v->fc) {
		tv_strbuf_adds(sb, " = ?");
		add_line(fp, sb, TV_UI_A_NORMAL);
		return;
	}
	switch (v->fc->kind) {
	case TV_FC_ENUM:
		tv_strbuf_adds(sb, " = ");
		if (!tv_ui_render_label(sb, v))
			tv_strbuf_adds(sb, _("<no label>"));
		tv_strbuf_adds(sb, " (");
		tv_ui_render_int(sb, v);
		tv_strbuf_addc(sb, ')');
		add_line(fp, sb, TV_UI_A_NORMAL);
		return;
	case TV_FC_INT:
	case TV_FC_FLOAT:
	case TV_FC_STRING:
		tv_strbuf_adds(sb, " = ");
		tv_ui_render_value(sb, v);
		add_note(fp, sb, v, name);
		add_line(fp, sb, TV_UI_A_NORMAL);
		return;
	case TV_FC_ARRAY:
	case TV_FC_SEQUENCE:
		/* A BLOB says what its bytes are, as a variant its option. */
		if (v->fc->array.media_type)
			tv_strbuf_addf(sb, " <%s>", v->fc->array.media_type);
		if (text_array(v) || depth >= MAX_DEPTH) {
			tv_strbuf_adds(sb, " = ");
			tv_ui_render_value(sb, v);
			add_line(fp, sb, TV_UI_A_NORMAL);
			return;
		}
		if (name && name[0] != '[')
			fp->array_name = name;
		if (scalar_elems(v) && !array_noted(fp, v, name)) {
			size_t mark = sb->len;

			tv_strbuf_adds(sb, " = ");
			tv_ui_render_value(sb, v);
			if (sb->len - mark <= INLINE_MAX) {
				add_line(fp, sb, TV_UI_A_NORMAL);
				return;
			}
			sb->len = mark;
			sb->buf[mark] = '\0';
		}
		tv_strbuf_addf(sb, "[%" PRIu32 "]", v->kids.count);
		add_line(fp, sb, TV_UI_A_NORMAL);
		for (i = 0; i < v->kids.count && i < MAX_ELEMS; i++) {
			char idx[32];

			snprintf(idx, sizeof(idx), "[%" PRIu32 "]", i);
			add_value(fp, sb, &v->kids.items[i], idx, indent + 2,
			    depth + 1);
		}
		if (v->kids.count > MAX_ELEMS) {
			start(sb, indent + 2, NULL);
			tv_strbuf_addf(sb, _("... %" PRIu32 " more"),
			    v->kids.count - MAX_ELEMS);
			add_line(fp, sb, TV_UI_A_NORMAL);
		}
		return;
	case TV_FC_STRUCT:
	case TV_FC_VARIANT:
		if (depth >= MAX_DEPTH) {
			tv_strbuf_adds(sb, " = ");
			tv_ui_render_value(sb, v);
			add_line(fp, sb, TV_UI_A_NORMAL);
			return;
		}
		if (v->fc->kind == TV_FC_VARIANT && v->kids.count &&
		    v->kids.items[0].name)
			tv_strbuf_addf(sb, " <%s>", v->kids.items[0].name);
		if (name)
			add_line(fp, sb, TV_UI_A_NORMAL);
		fp->last = NULL;
		for (i = 0; i < v->kids.count; i++)
			add_value(fp, sb, &v->kids.items[i],
			    v->kids.items[i].name, name ? indent + 2 : indent,
			    depth + 1);
		return;
	}
}

/* Forget the packet bytes. */
static void
drop_bytes(struct fields_priv *fp)
{
	free(fp->copy);
	fp->copy = NULL;
	fp->bytes = NULL;
	fp->nbytes = 0;
}

/*
 * The bytes of @ev's packet, through the driver's packet_copy when it has
 * one (decompressed trace.dat pages), else copied from the mapped file.
 * NULL @ev only forgets them.  Sets bytes_msg when there are none.
 */
static void
load_bytes(struct fields_priv *fp, const struct tv_event *ev)
{
	struct tv_error err;
	char buf[1200];
	uint64_t len;

	drop_bytes(fp);
	fp->bytes_msg[0] = '\0';
	if (!ev || !ev->stream || ev->packet >= ev->stream->npackets) {
		snprintf(fp->bytes_msg, sizeof(fp->bytes_msg), "%s",
		    _("no event selected"));
		return;
	}
	/* a copy, read under the mapping guard: the file may change */
	if (tv_packet_copy(ev->stream, ev->packet, &fp->copy, &len,
	    &err) != TV_OK) {
		snprintf(fp->bytes_msg, sizeof(fp->bytes_msg), "%s",
		    tv_error_format(&err, buf, sizeof(buf)));
		return;
	}
	fp->bytes = fp->copy;
	fp->nbytes = len;
	if (!fp->bytes || fp->nbytes == 0) {
		drop_bytes(fp);
		snprintf(fp->bytes_msg, sizeof(fp->bytes_msg), "%s",
		    _("this format keeps no raw bytes for the event"));
		return;
	}
	fp->ev_lo = TV_MIN(ev->rec.bit_offset / 8, fp->nbytes - 1);
	if (fp->ev_hi <= fp->ev_lo)
		fp->ev_hi = fp->ev_lo + 16;
	fp->ev_hi = TV_MIN(TV_MIN(fp->ev_hi, fp->nbytes),
	    fp->ev_lo + HEX_MAX);
}

/* Widen the event's byte range to value @v and its children. */
static void
event_end(struct fields_priv *fp, const struct tv_value *v, int depth)
{
	uint64_t end;
	uint32_t i;

	if (v == NULL || depth > MAX_DEPTH)
		return;
	if (v->bit_size) {
		end = (v->bit_offset + v->bit_size + 7) / 8;
		if (end > fp->ev_hi)
			fp->ev_hi = end;
	}
	if (v->fc && v->fc->kind != TV_FC_INT && v->fc->kind != TV_FC_ENUM &&
	    v->fc->kind != TV_FC_FLOAT && v->fc->kind != TV_FC_STRING)
		for (i = 0; i < v->kids.count; i++)
			event_end(fp, &v->kids.items[i], depth + 1);
}

/* Put the cursor on the first value inside the event's bytes. */
static void
first_field(struct fields_priv *fp)
{
	size_t i;

	for (i = 0; i < fp->n; i++)
		if (fp->lines[i].has_bits && fp->lines[i].bit_size &&
		    fp->lines[i].bit_off >= fp->ev_lo * 8) {
			fp->list.cur = i;
			return;
		}
}

/* A scope's title, "-" open or "+" folded with its field count. */
static void
scope_title(struct fields_priv *fp, struct tv_strbuf *sb, int s,
    const struct tv_value *v)
{
	start(sb, 0, fp->folded[s] ? "+ " : "- ");
	tv_strbuf_adds(sb, _(scope_titles[s]));
	if (fp->folded[s] && v->fc && v->fc->kind == TV_FC_STRUCT)
		tv_strbuf_addf(sb, P_(" (%" PRIu32 " field)",
		    " (%" PRIu32 " fields)", v->kids.count), v->kids.count);
	add_line(fp, sb, TV_UI_A_SCOPE);
	fp->lines[fp->n - 1].fold = s;
}

/*
 * The event's text as its format's reference reader prints it, its
 * first line only: the rest of a kernel stack is the payload's frames,
 * each with its symbol, which the payload shows next.
 */
static void
add_text(struct tv_ui *ui, struct fields_priv *fp, struct tv_strbuf *sb,
    const struct tv_event *ev)
{
	struct tv_strbuf t;
	struct tv_error err;
	const char *nl;

	tv_strbuf_init(&t);
	if (tv_event_text(ev, &ui->arena, &t, &err) != TV_OK || t.len == 0) {
		tv_strbuf_fini(&t);
		return;
	}
	nl = strchr(t.buf, '\n');
	start(sb, 2, NULL);
	tv_ui_escape(sb, t.buf, nl ? (size_t)(nl - t.buf) : t.len);
	add_line(fp, sb, TV_UI_A_NORMAL);
	tv_strbuf_fini(&t);
}

/* The first two lines: name and time, then CPU and task. */
static void
add_head(struct tv_ui *ui, struct fields_priv *fp, struct tv_strbuf *sb,
    const struct tv_event *ev)
{
	char ts[64];
	int cpu = tv_ui_event_cpu(ev);

	start(sb, 0, tv_ui_event_name(ev));
	tv_ui_time(ui, ev->rec.ts, ui->wall_style, 0, ts, sizeof(ts));
	tv_strbuf_addf(sb, "  %s", ts);
	add_line(fp, sb, TV_UI_A_NAME);
	start(sb, 0, NULL);
	if (cpu >= 0)
		tv_strbuf_addf(sb, _("CPU %d"), cpu);
	else
		tv_strbuf_adds(sb, _("CPU -"));
	tv_strbuf_adds(sb, "  ");
	tv_strbuf_adds(sb, _("task "));
	tv_ui_task_text(ui, ev, sb);
	add_line(fp, sb, TV_UI_A_NORMAL);
}

/* Where the record is: stream, packet, record, offset. */
static void
add_where(struct fields_priv *fp, struct tv_strbuf *sb,
    const struct tv_event *ev)
{
	start(sb, 0, NULL);
	/* the event's byte offset in its file, as hexdump shows it */
	tv_strbuf_addf(sb, _("stream %s, packet %" PRIu64 ", record %"
	    PRIu64 ", offset 0x%" PRIx64),
	    ev->stream && ev->stream->name ? ev->stream->name : "?",
	    ev->packet, ev->index,
	    (ev->stream && ev->packet < ev->stream->npackets ?
	    ev->stream->packets[ev->packet].offset : 0) +
	    ev->rec.bit_offset / 8);
	if (ev->rec.bit_offset % 8)
		tv_strbuf_addf(sb, _(" bit %u"),
		    (unsigned)(ev->rec.bit_offset % 8));
	add_line(fp, sb, TV_UI_A_NORMAL);
}

/* Whether @ev is of the class of the event shown before. */
static bool
same_class(const struct fields_priv *fp, const struct tv_event *ev)
{
	return fp->have_prev && ev->rec.kind == TV_REC_EVENT &&
	    ev->stream && fp->prev_trace == ev->stream->trace &&
	    fp->prev_class == ev->rec.class_index;
}

/*
 * Build the lines of the selected event: name and time, CPU and task,
 * the reader's text, the payload, the contexts, the packet and header
 * scopes (folded unless unfolded), where the record is.  Moving to an
 * event of the same class keeps the scroll and the cursor line.
 */
static void
rebuild(struct tv_ui *ui, struct fields_priv *fp)
{
	struct tv_event_fields f;
	struct tv_error err;
	struct tv_strbuf sb;
	const struct tv_event *ev = &ui->sel;
	struct tv_ui_list keep = fp->list;
	bool same;
	int i, s;

	clear_lines(fp);
	same = ui->have_sel && same_class(fp, ev);
	fp->list.top = fp->list.cur = 0;
	fp->stale = false;
	fp->last = NULL;
	fp->hex_top = 0;
	fp->ev_hi = 0;
	fp->ev = NULL;
	load_bytes(fp, NULL);
	fp->have_prev = false;
	if (!ui->have_sel)
		return;
	tv_strbuf_init(&sb);
	add_head(ui, fp, &sb, ev);
	if (ev->rec.kind != TV_REC_EVENT) {
		start(&sb, 0, NULL);
		tv_strbuf_addf(&sb, ev->rec.kind == TV_REC_DISCARDED ?
		    P_("the tracer lost %" PRIu64 " event here",
		    "the tracer lost %" PRIu64 " events here",
		    ev->rec.count) :
		    P_("the tracer lost %" PRIu64 " packet here",
		    "the tracer lost %" PRIu64 " packets here",
		    ev->rec.count), ev->rec.count);
		add_line(fp, &sb, TV_UI_A_ERROR);
		add_where(fp, &sb, ev);
		tv_strbuf_fini(&sb);
		load_bytes(fp, ev);
		return;
	}
	fp->have_prev = true;
	fp->prev_trace = ev->stream ? ev->stream->trace : NULL;
	fp->prev_class = ev->rec.class_index;
	tv_arena_reset(&ui->arena);
	add_text(ui, fp, &sb, ev);
	if (tv_event_decode(ev, &ui->arena, &f, &err) != TV_OK) {
		char buf[1200];

		start(&sb, 0, NULL);
		tv_strbuf_adds(&sb, tv_error_format(&err, buf, sizeof(buf)));
		add_line(fp, &sb, TV_UI_A_ERROR);
		add_where(fp, &sb, ev);
		tv_strbuf_fini(&sb);
		load_bytes(fp, ev);
		return;
	}
	fp->ev = ev;
	for (i = 0; i < TV_SCOPE_COUNT; i++) {
		s = scope_order[i];
		if (!f.scope[s])
			continue;
		if (s >= TV_SCOPE_EVENT_HEADER)
			event_end(fp, f.scope[s], 0);
		scope_title(fp, &sb, s, f.scope[s]);
		if (fp->folded[s])
			continue;
		fp->scope = s;
		add_value(fp, &sb, f.scope[s], NULL, 2, 0);
	}
	fp->ev = NULL;
	add_where(fp, &sb, ev);
	tv_strbuf_fini(&sb);
	load_bytes(fp, ev);
	if (same) {
		fp->list = keep;
		if (fp->n && fp->list.cur >= fp->n)
			fp->list.cur = fp->n - 1;
	} else {
		first_field(fp);
	}
}

/* Fold (@how < 0), unfold (> 0) or toggle (0) the scope at the cursor. */
static bool
fold(struct fields_priv *fp, int how)
{
	int s;

	if (fp->list.cur >= fp->n || fp->lines[fp->list.cur].fold < 0)
		return false;
	s = fp->lines[fp->list.cur].fold;
	fp->folded[s] = how < 0 ? true : how > 0 ? false : !fp->folded[s];
	fp->have_prev = false;
	return true;
}

/* Pane op: empty state. */
static void
fields_init(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct fields_priv *fp = tv_xcalloc(1, sizeof(*fp));

	fp->stale = true;
	fp->folded[TV_SCOPE_PACKET_HEADER] = true;
	fp->folded[TV_SCOPE_PACKET_CONTEXT] = true;
	fp->folded[TV_SCOPE_EVENT_HEADER] = true;
	p->priv = fp;
}

/* Pane op: free the lines. */
static void
fields_fini(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct fields_priv *fp = p->priv;

	if (!fp)
		return;
	clear_lines(fp);
	free(fp->lines);
	drop_bytes(fp);
	free(fp);
	p->priv = NULL;
}

/* Rows of the tree: all but the title, or the upper half with the dump. */
static int
tree_rows(const struct tv_pane *p, const struct fields_priv *fp)
{
	if (fp->hex)
		return TV_MAX((p->h - 2) / 2, 1);
	return TV_MAX(p->h - 1, 1);
}

/* Keep the cursor line inside the window. */
static void
clamp(struct tv_pane *p, struct fields_priv *fp)
{
	tv_ui_list_fit(&fp->list, fp->n, tree_rows(p, fp));
}

/* Pane op: new size. */
static void
fields_resize(struct tv_ui *ui, struct tv_pane *p)
{
	struct fields_priv *fp = p->priv;

	if (fp->stale)
		rebuild(ui, fp);
	clamp(p, fp);
}

/* One dump row at window row @y: offset, hex bytes, ASCII. */
static void
hex_row(struct tv_ui *ui, struct tv_pane *p, struct fields_priv *fp, int y,
    uint64_t off, unsigned per, uint64_t lo, uint64_t hi, uint64_t hl_lo,
    uint64_t hl_hi)
{
	chtype hl = ui->attrs[TV_UI_A_SELECTED];
	char buf[24];
	unsigned k;
	int x;

	snprintf(buf, sizeof(buf), "%08" PRIx64, off);
	wattrset(p->win, A_NORMAL);
	tv_ui_put(p->win, y, 1, buf, p->w - 1);
	for (k = 0; k < per; k++) {
		uint64_t b = off + k;
		bool in = b >= hl_lo && b < hl_hi;
		bool shown = b >= lo && b < hi && b < fp->nbytes;
		unsigned char c;

		x = 11 + (int)k * 3 + (k >= per / 2 ? 1 : 0);
		if (x + 2 >= p->w)
			break;
		if (!shown)
			continue;
		c = fp->bytes[b];
		snprintf(buf, sizeof(buf), "%02x", c);
		wattrset(p->win, in ? hl : A_NORMAL);
		mvwaddstr(p->win, y, x, buf);
		x = 11 + (int)per * 3 + 2 + (int)k;
		if (x < p->w) {
			buf[0] = c >= 0x20 && c < 0x7f ? (char)c : '.';
			buf[1] = '\0';
			mvwaddstr(p->win, y, x, buf);
		}
	}
	wattrset(p->win, A_NORMAL);
}

/* The hex dump from window row @y0: the event's bytes, cursor field lit. */
static void
draw_hex(struct tv_ui *ui, struct tv_pane *p, struct fields_priv *fp, int y0)
{
	chtype a = ui->attrs[TV_UI_A_HEADER];
	unsigned per = p->w >= 11 + 16 * 3 + 3 + 16 ? 16 : 8;
	uint64_t hl_lo = 0, hl_hi = 0, lo = fp->ev_lo, hi = fp->ev_hi;
	uint64_t first, row0, last;
	int rows = p->h - y0 - 1, i;
	char title[160];

	if (y0 >= p->h)
		return;
	wattrset(p->win, a);
	mvwhline(p->win, y0, 0, ' ' | a, p->w);
	if (!fp->bytes) {
		tv_ui_put(p->win, y0, 1, _("Raw bytes"), p->w - 1);
		wattrset(p->win, ui->attrs[TV_UI_A_ERROR]);
		if (y0 + 1 < p->h)
			tv_ui_put(p->win, y0 + 1, 1, fp->bytes_msg, p->w - 1);
		wattrset(p->win, A_NORMAL);
		return;
	}
	if (fp->list.cur < fp->n && fp->lines[fp->list.cur].has_bits) {
		const struct fline *l = &fp->lines[fp->list.cur];

		hl_lo = l->bit_off / 8;
		hl_hi = (l->bit_off + l->bit_size + 7) / 8;
	}
	if (hl_hi > hl_lo && (hl_hi <= lo || hl_lo >= hi)) {
		/* a packet header or context field: show its own bytes */
		lo = TV_MIN(hl_lo, fp->nbytes);
		hi = TV_MIN(TV_MIN(hl_hi, fp->nbytes), lo + HEX_MAX);
		snprintf(title, sizeof(title), _("Raw bytes 0x%" PRIx64
		    "-0x%" PRIx64 " of the packet (this field, outside the "
		    "event)"), lo, hi);
	} else {
		snprintf(title, sizeof(title), _("Raw bytes 0x%" PRIx64
		    "-0x%" PRIx64 " of the packet (%" PRIu64 " bytes)"), lo,
		    hi, hi - lo);
	}
	tv_ui_put(p->win, y0, 1, title, p->w - 1);
	wattrset(p->win, A_NORMAL);
	if (rows <= 0)
		return;
	first = lo / per * per;
	last = (hi + per - 1) / per * per;
	if (first + fp->hex_top >= last)
		fp->hex_top = 0;
	/* keep the lit bytes in view */
	if (hl_hi > hl_lo && hl_lo >= first && hl_lo < last) {
		row0 = hl_lo / per * per;
		if (row0 < first + fp->hex_top)
			fp->hex_top = row0 - first;
		else if (row0 >= first + fp->hex_top + (uint64_t)rows * per)
			fp->hex_top = row0 - first - (uint64_t)(rows - 1) * per;
	}
	for (i = 0; i < rows; i++) {
		uint64_t off = first + fp->hex_top + (uint64_t)i * per;

		if (off >= last)
			break;
		hex_row(ui, p, fp, y0 + 1 + i, off, per, lo, hi, hl_lo,
		    hl_hi);
	}
}

/* Pane op: title line, then the visible part of the tree. */
static void
fields_draw(struct tv_ui *ui, struct tv_pane *p)
{
	struct fields_priv *fp = p->priv;
	bool focused = tv_ui_has_focus(ui, p);
	chtype a = ui->attrs[TV_UI_A_HEADER];
	size_t row;
	int i;

	if (fp->stale)
		rebuild(ui, fp);
	wattrset(p->win, a);
	mvwhline(p->win, 0, 0, ' ' | a, p->w);
	tv_ui_put(p->win, 0, 1, _("Fields (Tab: focus, Esc: close, x: hex)"),
	    p->w - 1);
	for (i = 0, row = fp->list.top; i < tree_rows(p, fp) &&
	    i + 1 < p->h && row < fp->n; i++, row++) {
		bool cur = row == fp->list.cur && (focused || fp->hex);

		a = ui->attrs[fp->lines[row].attr];
		if (cur)
			a = ui->attrs[focused ? TV_UI_A_SELECTED :
			    TV_UI_A_SELECTED_DIM];
		wattrset(p->win, a);
		if (cur)
			mvwhline(p->win, i + 1, 0, ' ' | a, p->w);
		tv_ui_put(p->win, i + 1, 1, fp->lines[row].text, p->w - 1);
	}
	wattrset(p->win, A_NORMAL);
	if (fp->hex)
		draw_hex(ui, p, fp, tree_rows(p, fp) + 1);
}

/* Lines again after a fold, the cursor on the same scope title. */
static void
keep_cursor_rebuild(struct tv_ui *ui, struct tv_pane *p,
    struct fields_priv *fp)
{
	int s = fp->lines[fp->list.cur].fold;
	size_t top = fp->list.top, i;

	rebuild(ui, fp);
	fp->list.top = top;
	for (i = 0; i < fp->n; i++)
		if (fp->lines[i].fold == s)
			fp->list.cur = i;
	clamp(p, fp);
}

/* Pane op: scroll the tree, fold and unfold scopes. */
static bool
fields_request(struct tv_ui *ui, struct tv_pane *p,
    enum tv_ui_req req)
{
	struct fields_priv *fp = p->priv;

	switch (req) {
	case TV_UI_REQ_HEX:
		fp->hex = !fp->hex;
		fp->hex_top = 0;
		clamp(p, fp);
		break;
	case TV_UI_REQ_FIELDS:
	case TV_UI_REQ_LEFT:
	case TV_UI_REQ_RIGHT:
		/* Enter toggles, left folds, right unfolds a scope */
		if (!fold(fp, req == TV_UI_REQ_LEFT ? -1 :
		    req == TV_UI_REQ_RIGHT ? 1 : 0))
			return false;
		keep_cursor_rebuild(ui, p, fp);
		break;
	default:
		if (!tv_ui_list_request(&fp->list, fp->n, tree_rows(p, fp),
		    req))
			return false;
		break;
	}
	p->dirty = true;
	return true;
}

/* Pane op: a new event is selected. */
static void
fields_sync(struct tv_ui *ui, struct tv_pane *p)
{
	struct fields_priv *fp = p->priv;

	fp->stale = true;
	if (p->open) {
		rebuild(ui, fp);
		clamp(p, fp);
	}
	p->dirty = true;
}

/* Pane op: a click moves the cursor line. */
static void
fields_click(struct tv_ui *ui TV_UNUSED, struct tv_pane *p, int y)
{
	struct fields_priv *fp = p->priv;

	if (tv_ui_list_click(&fp->list, fp->n, tree_rows(p, fp), y - 1))
		p->dirty = true;
}

/* Pane op: x from any pane opens the fields with the dump. */
static bool
fields_global(struct tv_ui *ui, struct tv_pane *p, enum tv_ui_req req)
{
	if (req != TV_UI_REQ_HEX)
		return false;
	if (!p->open)
		tv_ui_pane_open(ui, TV_UI_PANE_FIELDS);
	return fields_request(ui, p, req);
}

/* Pane op: y and Y copy the whole tree, one line each. */
static bool
fields_copy(struct tv_ui *ui, struct tv_pane *p, struct tv_strbuf *sb)
{
	struct fields_priv *fp = p->priv;
	size_t i;

	if (fp->stale)
		rebuild(ui, fp);
	for (i = 0; i < fp->n; i++) {
		if (i)
			tv_strbuf_addc(sb, '\n');
		tv_strbuf_adds(sb, fp->lines[i].text);
	}
	return fp->n > 0;
}

const struct tv_pane_ops tv_ui_fields_ops = {
	.name = "fields",
	.place = TV_PANE_BOTTOM,
	.open_req = TV_UI_REQ_FIELDS,
	.flags = TV_PANE_ESC_ANYWHERE,
	.init = fields_init,
	.fini = fields_fini,
	.resize = fields_resize,
	.draw = fields_draw,
	.request = fields_request,
	.sync = fields_sync,
	.click = fields_click,
	.global = fields_global,
	.copy = fields_copy,
};
