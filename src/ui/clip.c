/*
 * What leaves the browser for the user's other tools: y copies the
 * selected row (or the focused pane's text, e.g. the fields) to the
 * terminal's clipboard through OSC 52, Y appends it to a file, and #
 * switches mouse capture off so the terminal's own selection works.
 */
#include "ui-priv.h"
#include "tview/dir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLIP_FILE	"clips.txt"
/* terminals cap OSC 52 (xterm: 100000 bytes of base64); cut before */
#define OSC52_MAX	74994

/* The mouse events the browser asks for while capture is on. */
static mmask_t
mouse_events(void)
{
	return BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED |
	    BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
	    | BUTTON5_PRESSED
#endif
	    ;
}

/* See ui-priv.h. */
void
tv_ui_mouse_capture(struct tv_ui *ui, bool on)
{
	ui->mouse_off = !on;
	mousemask(on ? mouse_events() : 0, NULL);
	ui->status_dirty = true;
}

/* The text y and Y take: the focused pane's, else the selected row. */
static bool
clip_text(struct tv_ui *ui, struct tv_strbuf *sb)
{
	struct tv_pane *p = &ui->panes[ui->focus];

	if (p->visible && p->ops->copy && p->ops->copy(ui, p, sb))
		return true;
	if (!ui->have_sel)
		return false;
	tv_ui_render_row(ui, &ui->sel, sb);
	while (sb->len && sb->buf[sb->len - 1] == ' ')
		sb->buf[--sb->len] = '\0';
	return true;
}

/* @s as base64, appended to @out. */
static void
base64(struct tv_strbuf *out, const unsigned char *s, size_t n)
{
	static const char abc[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		tv_strbuf_addc(out, abc[s[i] >> 2]);
		tv_strbuf_addc(out, abc[(s[i] & 3) << 4 | s[i + 1] >> 4]);
		tv_strbuf_addc(out, abc[(s[i + 1] & 15) << 2 | s[i + 2] >> 6]);
		tv_strbuf_addc(out, abc[s[i + 2] & 63]);
	}
	if (n - i == 1) {
		tv_strbuf_addc(out, abc[s[i] >> 2]);
		tv_strbuf_addc(out, abc[(s[i] & 3) << 4]);
		tv_strbuf_adds(out, "==");
	} else if (n - i == 2) {
		tv_strbuf_addc(out, abc[s[i] >> 2]);
		tv_strbuf_addc(out, abc[(s[i] & 3) << 4 | s[i + 1] >> 4]);
		tv_strbuf_addc(out, abc[(s[i + 1] & 15) << 2]);
		tv_strbuf_addc(out, '=');
	}
}

/* See ui-priv.h: y. */
void
tv_ui_clip_copy(struct tv_ui *ui)
{
	struct tv_strbuf text, seq;
	size_t n;

	tv_strbuf_init(&text);
	if (!clip_text(ui, &text)) {
		tv_strbuf_fini(&text);
		return;
	}
	n = TV_MIN(text.len, (size_t)OSC52_MAX);
	tv_strbuf_init(&seq);
	tv_strbuf_adds(&seq, "\033]52;c;");
	base64(&seq, (const unsigned char *)text.buf, n);
	tv_strbuf_addc(&seq, '\a');
	/* no cursor motion in it: curses' idea of the screen still holds */
	fwrite(seq.buf, 1, seq.len, stdout);
	fflush(stdout);
	tv_ui_message(ui, _("copied %zu bytes to the clipboard (OSC 52; "
	    "Y appends to a file, # lets the terminal select)"), n);
	tv_strbuf_fini(&seq);
	tv_strbuf_fini(&text);
}

/* See ui-priv.h: Y. */
void
tv_ui_clip_append(struct tv_ui *ui)
{
	struct tv_strbuf text;
	char path[1024];
	char *def;
	FILE *fp;
	bool bad;

	tv_strbuf_init(&text);
	if (!clip_text(ui, &text)) {
		tv_strbuf_fini(&text);
		return;
	}
	if (ui->clip_path) {
		snprintf(path, sizeof(path), "%s", ui->clip_path);
	} else {
		def = tv_dir_state(CLIP_FILE);
		snprintf(path, sizeof(path), "%s", def ? def : CLIP_FILE);
		free(def);
	}
	if (!tv_ui_prompt(ui, TV_UI_HIST_BOOKMARK, _("append to file: "),
	    path, sizeof(path)) || !path[0]) {
		tv_strbuf_fini(&text);
		return;
	}
	free(ui->clip_path);
	ui->clip_path = tv_xstrdup(path);
	fp = fopen(path, "a");
	if (!fp) {
		tv_ui_error(ui, _("%s: %s"), path, strerror(errno));
		tv_strbuf_fini(&text);
		return;
	}
	tv_strbuf_addc(&text, '\n');
	bad = fwrite(text.buf, 1, text.len, fp) != text.len;
	if (fclose(fp) != 0 || bad)
		tv_ui_error(ui, _("%s: %s"), path, strerror(errno));
	else
		tv_ui_message(ui, _("appended to %s"), path);
	tv_strbuf_fini(&text);
}

/* See ui-priv.h: #. */
void
tv_ui_mouse_toggle(struct tv_ui *ui)
{
	tv_ui_mouse_capture(ui, ui->mouse_off);
	tv_ui_message(ui, ui->mouse_off ?
	    _("mouse capture off: the terminal selects and copies; # turns "
	    "it back on") : _("mouse capture on: clicks select, the wheel "
	    "scrolls"));
}

void
tv_ui_clip_fini(struct tv_ui *ui)
{
	free(ui->clip_path);
	ui->clip_path = NULL;
}
