/*
 * The one-line editor on the message line: the : command line, the time,
 * PID and search prompts.  Wide characters, history per prompt kind
 * (Up/Down), Tab completion for commands, Esc or Ctrl-C to give up.
 */
#include "ui-priv.h"

#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#define LINE_MAX_CHARS	512

struct editor {
	wchar_t	 buf[LINE_MAX_CHARS + 1];
	size_t	 len;
	size_t	 pos;
};

/* Remember @line in the history of @kind (no empty lines, no repeats). */
static void
history_add(struct tv_ui *ui, enum tv_ui_hist_kind kind, const char *line)
{
	struct tv_ui_history *h = &ui->hist[kind];

	if (!line[0])
		return;
	if (h->count && strcmp(h->items[h->count - 1], line) == 0)
		return;
	if (h->count == TV_UI_HIST_MAX) {
		free(h->items[0]);
		memmove(h->items, h->items + 1,
		    (TV_UI_HIST_MAX - 1) * sizeof(h->items[0]));
		h->count--;
	}
	h->items[h->count++] = tv_xstrdup(line);
}

/* Free every history line. */
void
tv_ui_history_fini(struct tv_ui *ui)
{
	int k, i;

	for (k = 0; k < TV_UI_HIST_COUNT; k++) {
		for (i = 0; i < ui->hist[k].count; i++)
			free(ui->hist[k].items[i]);
		ui->hist[k].count = 0;
	}
}

/* Replace the editor text with the multibyte string @s. */
static void
set_text(struct editor *ed, const char *s)
{
	size_t n = mbstowcs(ed->buf, s, LINE_MAX_CHARS);

	if (n == (size_t)-1)
		n = 0;
	ed->buf[n] = L'\0';
	ed->len = n;
	ed->pos = n;
}

/* The editor text as a multibyte string in @out. */
static void
get_text(const struct editor *ed, char *out, size_t size)
{
	wchar_t tmp[LINE_MAX_CHARS + 1];
	size_t n;

	wmemcpy(tmp, ed->buf, ed->len);
	tmp[ed->len] = L'\0';
	n = wcstombs(out, tmp, size - 1);
	if (n == (size_t)-1)
		n = 0;
	out[n] = '\0';
}

/* Draw the label and text, scrolled so the cursor is visible. */
static void
draw_prompt(struct tv_ui *ui, const char *label, const struct editor *ed)
{
	WINDOW *w = ui->msg_win;
	int lw = tv_ui_width(label), avail, x, cx = 0;
	size_t start = 0, i;

	werase(w);
	tv_ui_put(w, 0, 0, label, ui->cols - 1);
	avail = ui->cols - lw - 1;
	if (avail < 1) {
		wnoutrefresh(w);
		doupdate();
		return;
	}
	/* scroll so that pos fits */
	for (;;) {
		int cols = 0;

		for (i = start; i < ed->pos; i++)
			cols += TV_MAX(wcwidth(ed->buf[i]), 1);
		if (cols < avail || start >= ed->pos)
			break;
		start++;
	}
	x = lw;
	for (i = start; i < ed->len; i++) {
		int cw = TV_MAX(wcwidth(ed->buf[i]), 1);
		wchar_t c = iswprint(ed->buf[i]) ? ed->buf[i] : L'?';

		if (x + cw > ui->cols - 1)
			break;
		if (i == ed->pos)
			cx = x;
		mvwaddnwstr(w, 0, x, &c, 1);
		x += cw;
	}
	if (ed->pos >= i)
		cx = x;
	wmove(w, 0, cx);
	wnoutrefresh(w);
	doupdate();
}

/* Longest common prefix length of @n strings. */
static size_t
common_prefix(char **s, size_t n)
{
	size_t len, i, j;

	if (n == 0)
		return 0;
	len = strlen(s[0]);
	for (i = 1; i < n; i++) {
		for (j = 0; j < len && s[i][j] == s[0][j]; j++)
			;
		len = j;
	}
	return len;
}

/* Tab: complete the command line, list the choices when ambiguous. */
static void
complete(struct tv_ui *ui, struct editor *ed)
{
	char line[LINE_MAX_CHARS * 4 + 1], *pre;
	char **cands = NULL;
	size_t n = 0, i, len;
	struct tv_strbuf sb;

	get_text(ed, line, sizeof(line));
	tv_ui_complete(ui, line, strlen(line), &cands, &n);
	if (n == 0) {
		beep();
		return;
	}
	len = common_prefix(cands, n);
	pre = tv_xstrndup(cands[0], len);
	if (strlen(pre) > strlen(line))
		set_text(ed, pre);
	free(pre);
	if (n > 1 && ui->status_win) {
		tv_strbuf_init(&sb);
		for (i = 0; i < n && sb.len < 1024; i++) {
			const char *sp = strrchr(cands[i], ' ');

			tv_strbuf_adds(&sb, sp ? sp + 1 : cands[i]);
			tv_strbuf_addc(&sb, ' ');
		}
		werase(ui->status_win);
		tv_ui_put(ui->status_win, 0, 0, sb.buf, ui->cols);
		wnoutrefresh(ui->status_win);
		ui->status_dirty = true;
		tv_strbuf_fini(&sb);
	}
	for (i = 0; i < n; i++)
		free(cands[i]);
	free(cands);
}

/* Insert @c at the cursor. */
static void
insert(struct editor *ed, wchar_t c)
{
	if (ed->len >= LINE_MAX_CHARS)
		return;
	wmemmove(ed->buf + ed->pos + 1, ed->buf + ed->pos, ed->len - ed->pos);
	ed->buf[ed->pos++] = c;
	ed->len++;
}

/* Delete @n characters at @at. */
static void
erase_at(struct editor *ed, size_t at, size_t n)
{
	if (at >= ed->len)
		return;
	n = TV_MIN(n, ed->len - at);
	wmemmove(ed->buf + at, ed->buf + at + n, ed->len - at - n);
	ed->len -= n;
	if (ed->pos > at)
		ed->pos = ed->pos > at + n ? ed->pos - n : at;
}

/*
 * Read a line after @label.  True with the text in @out on Enter, false
 * on Esc or Ctrl-C.
 */
bool
tv_ui_prompt(struct tv_ui *ui, enum tv_ui_hist_kind kind, const char *label,
    char *out, size_t size)
{
	struct tv_ui_history *h = &ui->hist[kind];
	struct editor ed;
	int hpos = h->count, key;
	char saved[LINE_MAX_CHARS * 4 + 1] = "";
	bool ok = false, done = false;
	wint_t wch;

	memset(&ed, 0, sizeof(ed));
	if (kind == TV_UI_HIST_BOOKMARK && out[0])
		set_text(&ed, out);
	ui->msg[0] = '\0';
	curs_set(1);
	while (!done) {
		tv_ui_draw(ui);
		draw_prompt(ui, label, &ed);
		key = tv_ui_getkey(ui, &wch);
		if (key < 0)
			continue;
		switch (key) {
		case KEY_RESIZE | TV_UI_KEY_FN:
			tv_ui_layout(ui);
			break;
		case '\r':
		case '\n':
		case KEY_ENTER | TV_UI_KEY_FN:
			ok = done = true;
			break;
		case TV_UI_ESC:
		case TV_UI_CTRL('c'):
		case TV_UI_CTRL('g'):
			done = true;
			break;
		case KEY_BACKSPACE | TV_UI_KEY_FN:
		case 127:
		case TV_UI_CTRL('h'):
			if (ed.pos > 0)
				erase_at(&ed, ed.pos - 1, 1);
			else if (ed.len == 0)
				done = true;	/* like less and vi */
			break;
		case KEY_DC | TV_UI_KEY_FN:
		case TV_UI_CTRL('d'):
			erase_at(&ed, ed.pos, 1);
			break;
		case KEY_LEFT | TV_UI_KEY_FN:
		case TV_UI_CTRL('b'):
			if (ed.pos > 0)
				ed.pos--;
			break;
		case KEY_RIGHT | TV_UI_KEY_FN:
		case TV_UI_CTRL('f'):
			if (ed.pos < ed.len)
				ed.pos++;
			break;
		case KEY_HOME | TV_UI_KEY_FN:
		case TV_UI_CTRL('a'):
			ed.pos = 0;
			break;
		case KEY_END | TV_UI_KEY_FN:
		case TV_UI_CTRL('e'):
			ed.pos = ed.len;
			break;
		case TV_UI_CTRL('u'):
			erase_at(&ed, 0, ed.pos);
			break;
		case TV_UI_CTRL('k'):
			ed.len = ed.pos;
			break;
		case TV_UI_CTRL('w'): {
			size_t p = ed.pos;

			while (p > 0 && ed.buf[p - 1] == L' ')
				p--;
			while (p > 0 && ed.buf[p - 1] != L' ')
				p--;
			erase_at(&ed, p, ed.pos - p);
			break;
		}
		case KEY_UP | TV_UI_KEY_FN:
			if (hpos == 0)
				break;
			if (hpos == h->count)
				get_text(&ed, saved, sizeof(saved));
			set_text(&ed, h->items[--hpos]);
			break;
		case KEY_DOWN | TV_UI_KEY_FN:
			if (hpos >= h->count)
				break;
			hpos++;
			set_text(&ed, hpos == h->count ? saved :
			    h->items[hpos]);
			break;
		case '\t':
			if (kind == TV_UI_HIST_COMMAND)
				complete(ui, &ed);
			break;
		default:
			if (!(key & TV_UI_KEY_FN) && key >= 0x20 &&
			    key != 0x7f && iswprint((wint_t)key))
				insert(&ed, (wchar_t)key);
			break;
		}
	}
	curs_set(0);
	get_text(&ed, out, size);
	if (ok)
		history_add(ui, kind, out);
	ui->msg_dirty = true;
	ui->status_dirty = true;
	return ok;
}
