/*
 * The help screen, generated from the keymap table, the config file's
 * bindings and the request list: one line per request with every key
 * bound to it, then the mouse and
 * the : commands from the command table.  Nothing here is written by hand twice.
 */
#include "ui-priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEYS_COLS	18
#define CMD_COLS	19	/* "  :goto +REL|-REL" and a space */

struct help_priv {
	char	**lines;
	size_t	  n, cap;
	struct tv_ui_list list;		/* scroll only */
};

/* Append one line. */
static void
add(struct help_priv *hp, const char *s)
{
	TV_VEC_GROW(hp->lines, hp->n, hp->cap);
	hp->lines[hp->n++] = tv_xstrdup(s);
}

/* "  :name ARGS" padded to the help column, then @help. */
static void
add_usage(struct help_priv *hp, struct tv_strbuf *sb, const char *name,
    const char *args, const char *help)
{
	int w;

	tv_strbuf_reset(sb);
	tv_strbuf_addf(sb, "  :%s", name);
	if (args[0])
		tv_strbuf_addf(sb, " %s", _(args));
	for (w = tv_ui_width(sb->buf); w < CMD_COLS; w++)
		tv_strbuf_addc(sb, ' ');
	tv_strbuf_addc(sb, ' ');
	tv_strbuf_adds(sb, help);
	add(hp, sb->buf);
}

/* One line per usage of each : command, one per alias. */
static void
add_commands(struct help_priv *hp, struct tv_strbuf *sb)
{
	const struct tv_ui_cmd *c;
	const struct tv_ui_cmd_usage *u;
	char same[128];
	size_t n, i;

	c = tv_ui_commands(&n);
	for (i = 0; i < n; i++) {
		for (u = c[i].usage; u->help; u++)
			add_usage(hp, sb, c[i].name, u->args, _(u->help));
		if (c[i].alias) {
			snprintf(same, sizeof(same), _("same as :%s"),
			    c[i].name);
			add_usage(hp, sb, c[i].alias, "", same);
		}
	}
}

/*
 * The keys bound to @r, comma-separated: the config file's first, then
 * the table's that the config did not take for something else.
 */
static void
add_keys(struct tv_strbuf *keys, int r)
{
	const struct tv_ui_binding *b, *u;
	size_t nb, nu, i, j;

	u = tv_ui_keymap_user(&nu);
	for (i = 0; i < nu; i++) {
		if ((int)u[i].req != r ||
		    tv_ui_keymap_lookup(u[i].key) != u[i].req)
			continue;	/* bound again further down the file */
		if (keys->len)
			tv_strbuf_adds(keys, ", ");
		tv_strbuf_adds(keys, u[i].label);
	}
	b = tv_ui_keymap(&nb);
	for (i = 0; i < nb; i++) {
		bool dup = false;

		if ((int)b[i].req != r ||
		    (int)tv_ui_keymap_lookup(b[i].key) != r)
			continue;
		for (j = 0; j < i; j++)
			if (b[j].req == b[i].req &&
			    strcmp(b[j].label, b[i].label) == 0)
				dup = true;
		if (dup)
			continue;
		if (keys->len)
			tv_strbuf_adds(keys, ", ");
		tv_strbuf_adds(keys, _(b[i].label));
	}
}

/* Build every line from the tables. */
static void
build(struct help_priv *hp)
{
	struct tv_strbuf sb, keys;
	size_t nu;
	int r, w;

	tv_strbuf_init(&sb);
	tv_strbuf_init(&keys);
	tv_ui_keymap_user(&nu);
	add(hp, nu ? _("Keys (the config file's bindings first)") : _("Keys"));
	for (r = 0; r < TV_UI_REQ_COUNT; r++) {
		tv_strbuf_reset(&keys);
		add_keys(&keys, r);
		if (!keys.len)
			continue;
		tv_strbuf_reset(&sb);
		tv_strbuf_adds(&sb, "  ");
		tv_strbuf_adds(&sb, keys.buf);
		for (w = tv_ui_width(keys.buf); w < KEYS_COLS; w++)
			tv_strbuf_addc(&sb, ' ');
		tv_strbuf_addc(&sb, ' ');
		tv_strbuf_adds(&sb, tv_ui_req_help((enum tv_ui_req)r));
		add(hp, sb.buf);
	}
	add(hp, "");
	add(hp, _("Mouse: a click selects a row, the wheel scrolls."));
	add(hp, "");
	add(hp, _("Commands (after :, Tab completes, Up/Down recall)"));
	add_commands(hp, &sb);
	add(hp, "");
	add(hp, _("Searches are regular expressions (PCRE2) over the row as"));
	add(hp, _("shown; a pattern without capitals ignores case.  Esc or"));
	add(hp, _("Ctrl-C stops a long search and leaves the cursor alone."));
	tv_strbuf_fini(&sb);
	tv_strbuf_fini(&keys);
}

/* Pane op: build the text once. */
static void
help_init(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct help_priv *hp = tv_xcalloc(1, sizeof(*hp));

	hp->list.no_cursor = true;
	build(hp);
	p->priv = hp;
}

/* Pane op: free the text. */
static void
help_fini(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct help_priv *hp = p->priv;
	size_t i;

	if (!hp)
		return;
	for (i = 0; i < hp->n; i++)
		free(hp->lines[i]);
	free(hp->lines);
	free(hp);
	p->priv = NULL;
}

/* Pane op: keep the scroll position valid. */
static void
help_resize(struct tv_ui *ui TV_UNUSED, struct tv_pane *p)
{
	struct help_priv *hp = p->priv;

	tv_ui_list_fit(&hp->list, hp->n, TV_MAX(p->h - 1, 1));
}

/* Pane op: title and the visible lines. */
static void
help_draw(struct tv_ui *ui, struct tv_pane *p)
{
	struct help_priv *hp = p->priv;
	chtype a = ui->attrs[TV_UI_A_HEADER];
	int i;

	wattrset(p->win, a);
	mvwhline(p->win, 0, 0, ' ' | a, p->w);
	tv_ui_put(p->win, 0, 1, _("tview help (q or Esc closes, j/k scroll)"),
	    p->w - 1);
	wattrset(p->win, A_NORMAL);
	for (i = 0; i + 1 < p->h && hp->list.top + (size_t)i < hp->n; i++) {
		const char *s = hp->lines[hp->list.top + (size_t)i];

		wattrset(p->win, s[0] && s[0] != ' ' ?
		    ui->attrs[TV_UI_A_SCOPE] : A_NORMAL);
		tv_ui_put(p->win, i + 1, 1, s, p->w - 1);
	}
	wattrset(p->win, A_NORMAL);
}

/* Pane op: scrolling. */
static bool
help_request(struct tv_ui *ui, struct tv_pane *p,
    enum tv_ui_req req)
{
	struct help_priv *hp = p->priv;

	switch (req) {
	case TV_UI_REQ_QUIT:
	case TV_UI_REQ_CLOSE:
		tv_ui_pane_close(ui, TV_UI_PANE_HELP);
		return true;
	default:
		if (!tv_ui_list_request(&hp->list, hp->n, TV_MAX(p->h - 1, 1),
		    req))
			return false;
		p->dirty = true;
		return true;
	}
}

/* Pane op: opened, so the status bar's "F1 help" hint has done its job. */
static void
help_sync(struct tv_ui *ui, struct tv_pane *p)
{
	if (!p->open)
		return;		/* every pane hears of a new selection */
	ui->help_seen = true;
	ui->status_dirty = true;
}

const struct tv_pane_ops tv_ui_help_ops = {
	.name = "help",
	.place = TV_PANE_OVERLAY,
	.open_req = TV_UI_REQ_HELP,
	.flags = TV_PANE_TOGGLE,
	.init = help_init,
	.fini = help_fini,
	.resize = help_resize,
	.draw = help_draw,
	.request = help_request,
	.sync = help_sync,
	.click = NULL,
};
