/*
 * The user's settings: $XDG_CONFIG_HOME/tview/config (default
 * ~/.config/tview/config), one "key = value" a line, '#' starts a
 * comment.  Read once when the browser starts; a bad line is reported
 * with its number on the message line and the others still apply.
 * What it sets: the time style and precision, the Event column's width,
 * the event list's columns (their order and widths: columns.c), colours
 * (auto / never, a dark or light palette, what rows are coloured by) and
 * key bindings ("key.w = page-up").
 */
#include "ui-priv.h"
#include "tview/mapfile.h"
#include "tview/owner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONFIG_MAX	(64u << 10)	/* bytes: a config is small */

/* The file to read, or NULL. */
static char *
config_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	char *path = NULL;

	if (xdg && xdg[0] == '/')
		tv_xasprintf(&path, "%s/tview/config", xdg);
	else if (home && home[0] == '/')
		tv_xasprintf(&path, "%s/.config/tview/config", home);
	return path;
}

/* @s without blanks at either end, in place. */
static char *
trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* One of @names (NULL-ended), as its index, or -1. */
static int
pick(const char *v, const char *const *names)
{
	int i;

	for (i = 0; names[i]; i++)
		if (strcmp(v, names[i]) == 0)
			return i;
	return -1;
}

/* Apply one setting; NULL, or what is wrong with it. */
static const char *
apply(struct tv_ui *ui, const char *key, const char *val)
{
	static const char *const styles[] = { "utc", "local", "relative",
	    "seconds", "raw", NULL };
	static const enum tv_time_style style_of[] = { TV_TIME_WALL_UTC,
	    TV_TIME_WALL_LOCAL, TV_TIME_RELATIVE, TV_TIME_SECONDS,
	    TV_TIME_RAW };
	static const char *const precisions[] = { "us", "ns", NULL };
	static const char *const colours[] = { "auto", "never", NULL };
	static const char *const themes[] = { "dark", "light", NULL };
	char *end;
	long n;
	int i;

	if (strcmp(key, "time-style") == 0) {
		if ((i = pick(val, styles)) < 0)
			return _("expected utc, local, relative, seconds or raw");
		if (!ui->time_style_given) {
			ui->time_style = style_of[i];
			ui->wall_style = tv_ui_wall_style(ui->time_style);
		}
		return NULL;
	}
	if (strcmp(key, "time-precision") == 0) {
		if ((i = pick(val, precisions)) < 0)
			return _("expected us or ns");
		ui->time_digits = i == 0 ? 6 : 9;
		return NULL;
	}
	if (strcmp(key, "event-width") == 0) {
		n = strtol(val, &end, 10);
		if (end == val || *end || n < 4 || n > 200)
			return _("expected a number of columns, 4 to 200");
		ui->name_max = (int)n;
		return NULL;
	}
	if (strcmp(key, "colour") == 0 || strcmp(key, "color") == 0) {
		if ((i = pick(val, colours)) < 0)
			return _("expected auto or never");
		ui->colour_never = i == 1;
		return NULL;
	}
	if (strcmp(key, "theme") == 0) {
		if ((i = pick(val, themes)) < 0)
			return _("expected dark or light");
		ui->light = i == 1;
		return NULL;
	}
	if (strcmp(key, "colour-by") == 0 || strcmp(key, "color-by") == 0) {
		if ((i = tv_ui_colour_by_parse(val)) < 0)
			return _("expected none, cpu, event or task");
		ui->colour_by = i;
		return NULL;
	}
	if (strcmp(key, "columns") == 0)
		return tv_ui_columns_parse(ui, val);
	if (strncmp(key, "key.", 4) == 0)
		return tv_ui_keymap_bind(key + 4, val);
	return _("unknown setting (time-style, time-precision, event-width, "
	    "columns, colour, theme, colour-by, key.KEY)");
}

/* See ui-priv.h. */
void
tv_ui_config_load(struct tv_ui *ui)
{
	char *path = config_path(), *buf, *line, *next, *eq, *key;
	const char *why;
	struct tv_error err;
	size_t len;
	int lineno = 0;

	if (!path)
		return;
	if (tv_read_file(path, CONFIG_MAX, &buf, &len, &err) != TV_OK) {
		free(path);
		return;		/* no file: the defaults */
	}
	for (line = buf; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		key = trim(line);
		if (!key[0])
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			why = _("expected key = value");
		} else {
			*eq = '\0';
			why = apply(ui, trim(key), trim(eq + 1));
		}
		/* the first error is shown; the others wait for it */
		if (why && !ui->msg[0])
			tv_ui_error(ui, "%s:%d: %s", path, lineno, why);
	}
	free(buf);
	free(path);
}

static const char *const colour_by_names[TV_UI_COLOUR_COUNT + 1] = {
	"none", "cpu", "event", "task", NULL,
};

/* See ui-priv.h. */
int
tv_ui_colour_by_parse(const char *s)
{
	return pick(s, colour_by_names);
}

/* See ui-priv.h. */
chtype
tv_ui_row_attr(struct tv_ui *ui, const struct tv_event *ev)
{
	const unsigned char *s;
	int64_t tid, pid;
	uint32_t h = 2166136261u;
	int cpu;

	if (!ui->colour || !ui->palette[0])
		return A_NORMAL;
	switch (ui->colour_by) {
	case TV_UI_COLOUR_CPU:
		cpu = tv_ui_event_cpu(ev);
		return cpu < 0 ? A_NORMAL : ui->palette[cpu % 6];
	case TV_UI_COLOUR_EVENT:
		/* the same class keeps its colour from run to run */
		for (s = (const unsigned char *)tv_ui_event_name(ev); *s; s++)
			h = (h ^ *s) * 16777619u;
		return ui->palette[h % 6];
	case TV_UI_COLOUR_TASK:
		/* as the Task column: no replay in the middle of a draw */
		if (!tv_ui_session_reached(ui, ev->rec.ts) ||
		    !tv_ui_session_owner(ui, ev, 0, &tid, &pid) ||
		    tid == TV_TID_UNKNOWN || tid < 0)
			return A_NORMAL;
		return ui->palette[tid % 6];
	default:
		return A_NORMAL;
	}
}

/* See ui-priv.h. */
void
tv_ui_colour_cycle(struct tv_ui *ui)
{
	static const char *const said[TV_UI_COLOUR_COUNT] = {
		N_("rows not coloured"), N_("rows coloured by CPU"),
		N_("rows coloured by event class"),
		N_("rows coloured by task"),
	};

	ui->colour_by = (ui->colour_by + 1) % TV_UI_COLOUR_COUNT;
	ui->panes[TV_UI_PANE_EVENTS].dirty = true;
	if (!ui->colour || !ui->palette[0])
		tv_ui_message(ui, _("%s (no colours here: NO_COLOR, colour = "
		    "never or the terminal)"), _(said[ui->colour_by]));
	else
		tv_ui_message(ui, "%s", _(said[ui->colour_by]));
}
