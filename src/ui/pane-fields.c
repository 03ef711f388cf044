/*
 * The fields pane: every scope of the selected event, decoded with
 * tv_event_decode, as an indented tree (structs, arrays, variants nested;
 * enums with their labels; integers in their declared base).  The tree is
 * rendered to lines when the selection changes, then scrolled.
 */
#include "ui-priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH	32
#define MAX_ELEMS	4096	/* array elements listed per array */
#define INLINE_MAX	100	/* bytes of an array shown on one line */

struct fline {
	char	*text;
	int	 attr;		/* enum tv_ui_attr */
};

struct fields_priv {
	struct fline	*lines;
	size_t		 n, cap;
	int		 top;
	int		 cur;
	bool		 stale;	/* selection changed while hidden */
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
		for (i = 0; i < v->kids.count; i++)
			add_value(fp, sb, &v->kids.items[i],
			    v->kids.items[i].name, name ? indent + 2 : indent,
			    depth + 1);
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
		return;
	}
	tv_arena_reset(&ui->arena);
	if (tv_event_decode(ev, &ui->arena, &f, &err) != TV_OK) {
		char buf[1200];

		start(&sb, 0, NULL);
		tv_strbuf_adds(&sb, tv_error_format(&err, buf, sizeof(buf)));
		add_line(fp, &sb, TV_UI_A_ERROR);
		tv_strbuf_fini(&sb);
		return;
	}
	for (s = 0; s < TV_SCOPE_COUNT; s++) {
		if (!f.scope[s])
			continue;
		start(&sb, 0, _(scope_titles[s]));
		add_line(fp, &sb, TV_UI_A_SCOPE);
		add_value(fp, &sb, f.scope[s], NULL, 2, 0);
	}
	tv_strbuf_fini(&sb);
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
	free(fp);
	p->priv = NULL;
}

/* Keep the cursor line inside the window. */
static void
clamp(struct tv_pane *p, struct fields_priv *fp)
{
	int h = TV_MAX(p->h - 1, 1);
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

/* Pane op: title line, then the visible part of the tree. */
static void
fields_draw(struct tv_ui *ui, struct tv_pane *p)
{
	struct fields_priv *fp = p->priv;
	bool focused = ui->focus == TV_UI_PANE_FIELDS;
	chtype a = ui->attrs[TV_UI_A_HEADER];
	int i, row;

	if (fp->stale)
		rebuild(ui, fp);
	wattrset(p->win, a);
	mvwhline(p->win, 0, 0, ' ' | a, p->w);
	tv_ui_put(p->win, 0, 1, _("Fields (Tab: focus, Esc: close)"),
	    p->w - 1);
	for (i = 0, row = fp->top; i + 1 < p->h && row < (int)fp->n;
	    i++, row++) {
		a = ui->attrs[fp->lines[row].attr];
		if (row == fp->cur && focused)
			a = ui->attrs[TV_UI_A_SELECTED];
		wattrset(p->win, a);
		if (row == fp->cur && focused)
			mvwhline(p->win, i + 1, 0, ' ' | a, p->w);
		tv_ui_put(p->win, i + 1, 1, fp->lines[row].text, p->w - 1);
	}
	wattrset(p->win, A_NORMAL);
}

/* Pane op: scroll the tree. */
static bool
fields_request(struct tv_ui *ui TV_UNUSED, struct tv_pane *p,
    enum tv_ui_req req)
{
	struct fields_priv *fp = p->priv;
	int h = TV_MAX(p->h - 1, 1);

	switch (req) {
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
	if (ui->fields_open) {
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

const struct tv_pane_ops tv_ui_fields_ops = {
	.name = "fields",
	.init = fields_init,
	.fini = fields_fini,
	.resize = fields_resize,
	.draw = fields_draw,
	.request = fields_request,
	.sync = fields_sync,
	.click = fields_click,
};
