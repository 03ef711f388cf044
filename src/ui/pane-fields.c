/*
 * The fields pane: every scope of the selected event, decoded with
 * tv_event_decode, as an indented tree (structs, arrays, variants nested;
 * enums with their labels; integers in their declared base).  The tree is
 * rendered to lines when the selection changes, then scrolled.  A toggle
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
	bool		 has_bits;	/* a value: the range below is set */
	uint64_t	 bit_off;	/* from packet start */
	uint64_t	 bit_size;
};

struct fields_priv {
	struct fline	*lines;
	size_t		 n, cap;
	int		 top;
	int		 cur;
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

/* True for arrays of numbers, which fit on one line when short. */
static bool
scalar_elems(const struct tv_value *v)
{
	const struct tv_field_class *e = v->fc->array.elem;

	return e && (e->kind == TV_FC_INT || e->kind == TV_FC_ENUM ||
	    e->kind == TV_FC_FLOAT);
}

/* One value and, for compound ones, its children below it. */
static void
add_value(struct fields_priv *fp, struct tv_strbuf *sb,
    const struct tv_value *v, const char *name, int indent, int depth)
{
	const char *label;
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
		label = tv_enum_label(v->fc, v->u);
		if (label)
			tv_ui_escape(sb, label, strlen(label));
		else
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
		add_line(fp, sb, TV_UI_A_NORMAL);
		return;
	case TV_FC_ARRAY:
	case TV_FC_SEQUENCE:
		if (text_array(v) || depth >= MAX_DEPTH) {
			tv_strbuf_adds(sb, " = ");
			tv_ui_render_value(sb, v);
			add_line(fp, sb, TV_UI_A_NORMAL);
			return;
		}
		if (scalar_elems(v)) {
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
 * one (decompressed trace.dat pages), else from the mapped file.  NULL
 * @ev only forgets them.  Sets bytes_msg when there are none.
 */
static void
load_bytes(struct fields_priv *fp, const struct tv_event *ev)
{
	const struct tv_format_ops *ops;
	const struct tv_packet *p;
	struct tv_error err;
	char buf[1200];

	drop_bytes(fp);
	fp->bytes_msg[0] = '\0';
	if (!ev || !ev->stream || ev->packet >= ev->stream->npackets) {
		snprintf(fp->bytes_msg, sizeof(fp->bytes_msg), "%s",
		    _("no event selected"));
		return;
	}
	ops = ev->stream->trace ? ev->stream->trace->ops : NULL;
	p = &ev->stream->packets[ev->packet];
	if (ops && ops->packet_copy) {
		uint64_t len;

		if (ops->packet_copy(ev->stream, ev->packet, &fp->copy, &len,
		    &err) != TV_OK) {
			snprintf(fp->bytes_msg, sizeof(fp->bytes_msg), "%s",
			    tv_error_format(&err, buf, sizeof(buf)));
			return;
		}
		fp->bytes = fp->copy;
		fp->nbytes = len;
	} else {
		fp->bytes = tv_packet_bytes(ev->stream, p);
		fp->nbytes = fp->bytes ? p->size : 0;
	}
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

/* Widen the event's byte range to the values of lines @first onwards. */
static void
event_end(struct fields_priv *fp, size_t first)
{
	size_t i;

	for (i = first; i < fp->n; i++) {
		const struct fline *l = &fp->lines[i];
		uint64_t end;

		if (!l->has_bits || l->bit_size == 0)
			continue;
		end = (l->bit_off + l->bit_size + 7) / 8;
		if (end > fp->ev_hi)
			fp->ev_hi = end;
	}
}

/* Put the cursor on the first value inside the event's bytes. */
static void
first_field(struct fields_priv *fp)
{
	size_t i;

	for (i = 0; i < fp->n; i++)
		if (fp->lines[i].has_bits && fp->lines[i].bit_size &&
		    fp->lines[i].bit_off >= fp->ev_lo * 8) {
			fp->cur = (int)i;
			return;
		}
}

/* Build the lines of the selected event. */
static void
rebuild(struct tv_ui *ui, struct fields_priv *fp)
{
	struct tv_event_fields f;
	struct tv_error err;
	struct tv_strbuf sb;
	const struct tv_event *ev = &ui->sel;
	char ts[64];
	int s;

	clear_lines(fp);
	fp->top = fp->cur = 0;
	fp->stale = false;
	fp->last = NULL;
	fp->hex_top = 0;
	fp->ev_hi = 0;
	load_bytes(fp, NULL);
	if (!ui->have_sel)
		return;
	tv_strbuf_init(&sb);
	start(&sb, 0, tv_ui_event_name(ev));
	tv_time_format(ev->rec.ts, ui->wall_style, 0, ts, sizeof(ts));
	tv_strbuf_addf(&sb, "  %s", ts);
	add_line(fp, &sb, TV_UI_A_NAME);
	start(&sb, 0, NULL);
	tv_strbuf_addf(&sb, _("stream %s, packet %" PRIu64 ", record %"
	    PRIu64 ", offset 0x%" PRIx64 " bit %" PRIu64),
	    ev->stream && ev->stream->name ? ev->stream->name : "?",
	    ev->packet, ev->index,
	    ev->stream && ev->packet < ev->stream->npackets ?
	    ev->stream->packets[ev->packet].offset : 0, ev->rec.bit_offset);
	add_line(fp, &sb, TV_UI_A_NORMAL);
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
		tv_strbuf_fini(&sb);
		load_bytes(fp, ev);
		return;
	}
	tv_arena_reset(&ui->arena);
	if (tv_event_decode(ev, &ui->arena, &f, &err) != TV_OK) {
		char buf[1200];

		start(&sb, 0, NULL);
		tv_strbuf_adds(&sb, tv_error_format(&err, buf, sizeof(buf)));
		add_line(fp, &sb, TV_UI_A_ERROR);
		tv_strbuf_fini(&sb);
		load_bytes(fp, ev);
		return;
	}
	for (s = 0; s < TV_SCOPE_COUNT; s++) {
		size_t first;

		if (!f.scope[s])
			continue;
		start(&sb, 0, _(scope_titles[s]));
		add_line(fp, &sb, TV_UI_A_SCOPE);
		first = fp->n;
		add_value(fp, &sb, f.scope[s], NULL, 2, 0);
		if (s >= TV_SCOPE_EVENT_HEADER)
			event_end(fp, first);
	}
	tv_strbuf_fini(&sb);
	load_bytes(fp, ev);
	if (fp->cur == 0)
		first_field(fp);
}

/* Pane op: empty state. */
static void
fields_init(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct fields_priv *fp = tv_xcalloc(1, sizeof(*fp));

	fp->stale = true;
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
	int h = tree_rows(p, fp);
	int n = (int)fp->n;

	if (fp->cur >= n)
		fp->cur = n - 1;
	if (fp->cur < 0)
		fp->cur = 0;
	if (fp->top > fp->cur)
		fp->top = fp->cur;
	if (fp->cur >= fp->top + h)
		fp->top = fp->cur - h + 1;
	if (fp->top < 0)
		fp->top = 0;
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
	if (fp->cur >= 0 && fp->cur < (int)fp->n &&
	    fp->lines[fp->cur].has_bits) {
		const struct fline *l = &fp->lines[fp->cur];

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
	int i, row;

	if (fp->stale)
		rebuild(ui, fp);
	wattrset(p->win, a);
	mvwhline(p->win, 0, 0, ' ' | a, p->w);
	tv_ui_put(p->win, 0, 1, _("Fields (Tab: focus, Esc: close, x: hex)"),
	    p->w - 1);
	for (i = 0, row = fp->top; i < tree_rows(p, fp) && i + 1 < p->h &&
	    row < (int)fp->n; i++, row++) {
		bool cur = row == fp->cur && (focused || fp->hex);

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

/* Pane op: scroll the tree. */
static bool
fields_request(struct tv_ui *ui TV_UNUSED, struct tv_pane *p,
    enum tv_ui_req req)
{
	struct fields_priv *fp = p->priv;
	int h = tree_rows(p, fp);

	switch (req) {
	case TV_UI_REQ_HEX:
		fp->hex = !fp->hex;
		fp->hex_top = 0;
		break;
	case TV_UI_REQ_DOWN:
		fp->cur++;
		break;
	case TV_UI_REQ_UP:
		fp->cur--;
		break;
	case TV_UI_REQ_PAGE_DOWN:
		fp->cur += h;
		fp->top += h;
		break;
	case TV_UI_REQ_PAGE_UP:
		fp->cur -= h;
		fp->top -= h;
		break;
	case TV_UI_REQ_HALF_DOWN:
		fp->cur += h / 2;
		break;
	case TV_UI_REQ_HALF_UP:
		fp->cur -= h / 2;
		break;
	case TV_UI_REQ_FIRST:
		fp->cur = 0;
		break;
	case TV_UI_REQ_LAST:
		fp->cur = (int)fp->n - 1;
		break;
	default:
		return false;
	}
	if (fp->top > (int)fp->n - h)
		fp->top = TV_MAX((int)fp->n - h, 0);
	if (fp->top < 0)
		fp->top = 0;
	clamp(p, fp);
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

	if (y < 1)
		return;
	fp->cur = fp->top + y - 1;
	clamp(p, fp);
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
};
