/*
 * The : commands as one table (name, alias, argument kind, handler,
 * help lines) read by the parser, the help pane and Tab completion.
 * Times go through tv_time_parse(), so :goto and the t prompt accept
 * exactly what --goto on the command line accepts.
 */
#include "ui-priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Skip blanks. */
static const char *
skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Count-down predicate for :goto #N. */
static bool
count_pred(struct tv_ui *ui TV_UNUSED, const struct tv_event *ev, void *arg)
{
	uint64_t *left = arg;

	return ev->rec.kind == TV_REC_EVENT && --*left == 0;
}

/* :goto #N: the N-th event from the start, 1-based. */
static void
goto_nth(struct tv_ui *ui, const char *text)
{
	struct tv_event hit;
	enum tv_status st;
	uint64_t n, left;
	char *end;

	errno = 0;
	n = strtoull(text, &end, 10);
	if (end == text || *skip_ws(end) || errno || n == 0) {
		tv_ui_error(ui, _("not an event number: #%s"), text);
		return;
	}
	left = n;
	st = tv_ui_scan(ui, NULL, true, +1, false, count_pred, &left,
	    _("counting events"), &hit, NULL);
	if (st == TV_OK)
		tv_ui_events_goto(ui, &hit);
	else if (st == TV_NOT_FOUND)
		tv_ui_error(ui, _("the trace has fewer than %" PRIu64
		    " events"), n);
}

/* Go to what the user typed at :goto or the t prompt. */
void
tv_ui_goto_time_text(struct tv_ui *ui, const char *text)
{
	struct tv_time_ctx ctx;
	struct tv_error err;
	int64_t ts;

	text = skip_ws(text);
	if (text[0] == '#') {
		goto_nth(ui, text + 1);
		return;
	}
	ctx.begin = ui->set->ts_begin;
	ctx.end = ui->set->ts_end;
	ctx.cursor = ui->have_sel ? ui->sel.rec.ts : ui->set->ts_begin;
	ctx.local = ui->wall_style == TV_TIME_WALL_LOCAL;
	if (tv_time_parse(text, &ctx, &ts, &err) != TV_OK) {
		tv_ui_error(ui, "%s", err.msg);
		return;
	}
	tv_ui_goto_ts(ui, ts);
}

/* See ui-priv.h. */
void
tv_ui_goto_ts(struct tv_ui *ui, int64_t ts)
{
	struct tv_event ev;
	enum tv_status st;

	tv_merge_seek_time(ui->merge, ts);
	if ((st = tv_ui_merge_step(ui, +1, &ev)) != TV_OK) {
		if (st == TV_CANCELLED)
			return;		/* Esc in a filtered walk: stay */
		tv_merge_seek_end(ui->merge);
		if (tv_ui_merge_step(ui, -1, &ev) != TV_OK) {
			tv_ui_error(ui, _("no events"));
			return;
		}
		tv_ui_message(ui, _("after the last event: at the last one"));
	}
	tv_ui_events_goto(ui, &ev);
}

/* :goto TIME, :g */
static void
cmd_goto(struct tv_ui *ui, const char *arg, long long n TV_UNUSED)
{
	tv_ui_goto_time_text(ui, arg);
}

/* :pid N */
static void
cmd_pid(struct tv_ui *ui, const char *arg TV_UNUSED, long long n)
{
	tv_ui_jump_pid(ui, n, +1);
}

/* :cpu N */
static void
cmd_cpu(struct tv_ui *ui, const char *arg TV_UNUSED, long long n)
{
	if (n < 0 || n > INT32_MAX)
		tv_ui_error(ui, _("no such CPU: %lld"), n);
	else
		tv_ui_jump_cpu(ui, (int)n, +1);
}

/* :event NAME */
static void
cmd_event(struct tv_ui *ui, const char *arg, long long n TV_UNUSED)
{
	tv_ui_jump_name(ui, arg, +1);
}

/* :search REGEX */
static void
cmd_search(struct tv_ui *ui, const char *arg, long long n TV_UNUSED)
{
	tv_ui_search_set(ui, arg, +1);
}

/* :help */
static void
cmd_help(struct tv_ui *ui, const char *arg TV_UNUSED, long long n TV_UNUSED)
{
	tv_ui_pane_open(ui, TV_UI_PANE_HELP);
}

/* :filter EXPR, and :filter alone (clears). */
static void
cmd_filter(struct tv_ui *ui, const char *arg, long long n TV_UNUSED)
{
	tv_ui_filter_command(ui, arg, false);
}

/* :filter-out EXPR */
static void
cmd_filter_out(struct tv_ui *ui, const char *arg, long long n TV_UNUSED)
{
	tv_ui_filter_command(ui, arg, true);
}

/* :stats [filter] [bookmarks | A [B]] */
static void
cmd_stats(struct tv_ui *ui, const char *arg, long long n TV_UNUSED)
{
	tv_ui_stats_command(ui, arg);
}

/* :quit, :q */
static void
cmd_quit(struct tv_ui *ui, const char *arg TV_UNUSED, long long n TV_UNUSED)
{
	ui->quit = tv_ui_bm_may_quit(ui);
}

static const struct tv_ui_cmd_usage goto_usage[] = {
	{ N_("TIME"),	N_("HH:MM[:SS[.frac]], YYYY-MM-DD HH:MM:SS, SECONDS") },
	{ N_("+REL|-REL"), N_("from the selected event: +1.5ms, -200us, +3s") },
	{ N_("N%"),	N_("N percent of the trace's time span") },
	{ N_("#N"),	N_("the N-th event (as line N of --dump)") },
	{ NULL, NULL },
};
static const struct tv_ui_cmd_usage pid_usage[] = {
	{ N_("N"),	N_("next event of PID N") }, { NULL, NULL },
};
static const struct tv_ui_cmd_usage cpu_usage[] = {
	{ N_("N"),	N_("next event on CPU N") }, { NULL, NULL },
};
static const struct tv_ui_cmd_usage event_usage[] = {
	{ N_("NAME"),	N_("next event named NAME") }, { NULL, NULL },
};
static const struct tv_ui_cmd_usage search_usage[] = {
	{ N_("REGEX"),	N_("same as /REGEX") }, { NULL, NULL },
};
static const struct tv_ui_cmd_usage filter_usage[] = {
	{ N_("EXPR"),	N_("keep only the events EXPR matches (FILTERS in "
	    "tview(1)); filters stack") },
	{ "",		N_("alone: clear every filter") }, { NULL, NULL },
};
static const struct tv_ui_cmd_usage filter_out_usage[] = {
	{ N_("EXPR"),	N_("hide the events EXPR matches") }, { NULL, NULL },
};
static const struct tv_ui_cmd_usage stats_usage[] = {
	{ "",		N_("statistics of the whole trace") },
	{ "filter",	N_("of the events the filters keep (may come "
	    "before a range)") },
	{ "bookmarks",	N_("between the bookmarks around the selected "
	    "event, or in the interval bookmark holding it") },
	{ N_("A [B]"),	N_("from A to B (or the end): times as :goto takes "
	    "them, or bookmark names (an interval's name alone: its range)") },
	{ NULL, NULL },
};
static const struct tv_ui_cmd_usage help_usage[] = {
	{ "",		N_("this help") }, { NULL, NULL },
};
static const struct tv_ui_cmd_usage quit_usage[] = {
	{ "",		N_("quit") }, { NULL, NULL },
};

/*
 * Every : command.  The parser, the help pane and Tab completion read
 * this table, so a command is one handler plus one line here.
 */
static const struct tv_ui_cmd commands[] = {
	{ "goto",	"g",	TV_UI_ARG_TEXT,	 cmd_goto,	goto_usage },
	{ "pid",	NULL,	TV_UI_ARG_INT,	 cmd_pid,	pid_usage },
	{ "cpu",	NULL,	TV_UI_ARG_INT,	 cmd_cpu,	cpu_usage },
	{ "event",	NULL,	TV_UI_ARG_EVENT, cmd_event,	event_usage },
	{ "search",	NULL,	TV_UI_ARG_TEXT,	 cmd_search,	search_usage },
	{ "filter",	NULL,	TV_UI_ARG_OPT_TEXT, cmd_filter,	filter_usage },
	{ "filter-out",	NULL,	TV_UI_ARG_TEXT,	 cmd_filter_out, filter_out_usage },
	{ "stats",	NULL,	TV_UI_ARG_OPT_TEXT, cmd_stats,	stats_usage },
	{ "help",	NULL,	TV_UI_ARG_NONE,	 cmd_help,	help_usage },
	{ "quit",	"q",	TV_UI_ARG_NONE,	 cmd_quit,	quit_usage },
};

/* See ui-priv.h. */
const struct tv_ui_cmd *
tv_ui_commands(size_t *count)
{
	*count = TV_ARRAY_SIZE(commands);
	return commands;
}

/* The command named or aliased @name, or NULL. */
static const struct tv_ui_cmd *
lookup(const char *name)
{
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(commands); i++)
		if (strcmp(commands[i].name, name) == 0 ||
		    (commands[i].alias && strcmp(commands[i].alias, name) == 0))
			return &commands[i];
	return NULL;
}

/* Parse a decimal integer argument, with an error message if bad. */
static bool
int_arg(struct tv_ui *ui, const char *cmd, const char *arg, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(arg, &end, 10);
	if (end == arg || *skip_ws(end) || errno) {
		tv_ui_error(ui, _(":%s needs a number, not \"%s\""), cmd, arg);
		return false;
	}
	return true;
}

/* Run one command line (without the leading colon). */
void
tv_ui_command(struct tv_ui *ui, const char *line)
{
	const struct tv_ui_cmd *c;
	char cmd[32];
	const char *arg;
	long long n = 0;
	size_t len;

	line = skip_ws(line);
	if (line[0] == ':')
		line = skip_ws(line + 1);
	len = strcspn(line, " \t");
	if (len == 0)
		return;
	if (len >= sizeof(cmd)) {
		tv_ui_error(ui, _("unknown command: %.*s"), (int)len, line);
		return;
	}
	memcpy(cmd, line, len);
	cmd[len] = '\0';
	arg = skip_ws(line + len);
	c = lookup(cmd);
	if (c == NULL) {
		tv_ui_error(ui, _("unknown command: %s"), cmd);
		return;
	}
	if (c->arg != TV_UI_ARG_NONE && c->arg != TV_UI_ARG_OPT_TEXT &&
	    !arg[0]) {
		tv_ui_error(ui, _(":%s needs an argument"), cmd);
		return;
	}
	if (c->arg == TV_UI_ARG_INT && !int_arg(ui, cmd, arg, &n))
		return;
	c->run(ui, arg, n);
}

/* Append a copy of @s to the candidate list. */
static void
push(char ***c, size_t *n, size_t *cap, const char *prefix, const char *s)
{
	char *str;

	TV_VEC_GROW(*c, *n, *cap);
	tv_xasprintf(&str, "%s%s", prefix, s);
	(*c)[(*n)++] = str;
}

/* Event names starting with @word, each after @prefix ("event "). */
static void
complete_event(struct tv_ui *ui, const char *prefix, const char *word,
    char ***cands, size_t *ncands, size_t *cap)
{
	size_t wl = strlen(word), pl = strlen(prefix);
	uint32_t t, c;

	for (t = 0; t < ui->set->ntraces; t++) {
		const struct tv_trace *tr = ui->set->traces[t];

		for (c = 0; c < tr->nclasses; c++) {
			const char *nm = tr->classes[c] ?
			    tr->classes[c]->name : NULL;
			size_t k;
			bool dup = false;

			if (!nm || strncmp(nm, word, wl) != 0)
				continue;
			for (k = 0; k < *ncands && !dup; k++)
				dup = strcmp((*cands)[k] + pl, nm) == 0;
			if (!dup && *ncands < 1000)
				push(cands, ncands, cap, prefix, nm);
		}
	}
}

/*
 * Completions of @line: command names from the table, then the argument
 * as its kind allows (event names).  Each candidate is a whole new line.
 */
void
tv_ui_complete(struct tv_ui *ui, const char *line, size_t pos,
    char ***cands, size_t *ncands)
{
	const struct tv_ui_cmd *c;
	size_t cap = 0, i, len;
	char name[32], *prefix;

	*cands = NULL;
	*ncands = 0;
	(void)pos;
	if (!strchr(line, ' ')) {
		for (i = 0; i < TV_ARRAY_SIZE(commands); i++)
			if (strncmp(commands[i].name, line, strlen(line)) == 0)
				push(cands, ncands, &cap, "",
				    commands[i].name);
		if (*ncands == 1) {
			char *s = (*cands)[0];

			tv_xasprintf(&(*cands)[0], "%s ", s);
			free(s);
		}
		return;
	}
	len = strcspn(line, " ");
	if (len >= sizeof(name))
		return;
	memcpy(name, line, len);
	name[len] = '\0';
	c = lookup(name);
	if (c == NULL || c->arg != TV_UI_ARG_EVENT)
		return;
	tv_xasprintf(&prefix, "%s ", name);
	complete_event(ui, prefix, skip_ws(line + len), cands, ncands, &cap);
	free(prefix);
}
