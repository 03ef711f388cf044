/*
 * The : commands (goto, pid, cpu, event, search, filter, filter-out, q)
 * and their Tab
 * completion.  Times go through tv_time_parse(), so :goto and the t
 * prompt accept exactly what --goto on the command line accepts.
 */
#include "ui-priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const commands[] = {
	"goto", "pid", "cpu", "event", "search", "filter", "filter-out",
	"help", "q", "quit",
};

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
	struct tv_event ev;
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
	tv_merge_seek_time(ui->merge, ts);
	if (tv_ui_merge_step(ui, +1, &ev) != TV_OK) {
		tv_merge_seek_end(ui->merge);
		if (tv_ui_merge_step(ui, -1, &ev) != TV_OK) {
			tv_ui_error(ui, _("no events"));
			return;
		}
		tv_ui_message(ui, _("after the last event: at the last one"));
	}
	tv_ui_events_goto(ui, &ev);
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

/* True if @cmd is one of the commands (or "g", short for goto). */
static bool
known(const char *cmd)
{
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(commands); i++)
		if (strcmp(commands[i], cmd) == 0)
			return true;
	return strcmp(cmd, "g") == 0;
}

/* Run one command line (without the leading colon). */
void
tv_ui_command(struct tv_ui *ui, const char *line)
{
	char cmd[32];
	const char *arg;
	long long n;
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
	if (!known(cmd)) {
		tv_ui_error(ui, _("unknown command: %s"), cmd);
		return;
	}
	if (strcmp(cmd, "q") == 0 || strcmp(cmd, "quit") == 0) {
		ui->quit = true;
	} else if (strcmp(cmd, "filter") == 0 ||
	    strcmp(cmd, "filter-out") == 0) {
		tv_ui_filter_command(ui, arg, cmd[6] == '-');
	} else if (strcmp(cmd, "help") == 0) {
		ui->help_open = true;
		tv_ui_layout(ui);
	} else if (!arg[0]) {
		tv_ui_error(ui, _(":%s needs an argument"), cmd);
	} else if (strcmp(cmd, "goto") == 0 || strcmp(cmd, "g") == 0) {
		tv_ui_goto_time_text(ui, arg);
	} else if (strcmp(cmd, "pid") == 0) {
		if (int_arg(ui, cmd, arg, &n))
			tv_ui_jump_pid(ui, n, +1);
	} else if (strcmp(cmd, "cpu") == 0) {
		if (int_arg(ui, cmd, arg, &n)) {
			if (n < 0 || n > INT32_MAX)
				tv_ui_error(ui, _("no such CPU: %lld"), n);
			else
				tv_ui_jump_cpu(ui, (int)n, +1);
		}
	} else if (strcmp(cmd, "event") == 0) {
		tv_ui_jump_name(ui, arg, +1);
	} else if (strcmp(cmd, "search") == 0) {
		tv_ui_search_set(ui, arg, +1);
	} else {
		tv_ui_error(ui, _("unknown command: %s"), cmd);
	}
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

/*
 * Completions of @line: command names, then event names after "event ".
 * Each candidate is a whole new line.
 */
void
tv_ui_complete(struct tv_ui *ui, const char *line, size_t pos,
    char ***cands, size_t *ncands)
{
	size_t cap = 0, i, wl;
	uint32_t t, c;
	const char *word;

	*cands = NULL;
	*ncands = 0;
	(void)pos;
	if (!strchr(line, ' ')) {
		for (i = 0; i < TV_ARRAY_SIZE(commands); i++)
			if (strncmp(commands[i], line, strlen(line)) == 0)
				push(cands, ncands, &cap, "", commands[i]);
		if (*ncands == 1) {
			char *s = (*cands)[0];

			tv_xasprintf(&(*cands)[0], "%s ", s);
			free(s);
		}
		return;
	}
	if (strncmp(line, "event ", 6) != 0)
		return;
	word = skip_ws(line + 6);
	wl = strlen(word);
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
				dup = strcmp((*cands)[k] + 6, nm) == 0;
			if (!dup && *ncands < 1000)
				push(cands, ncands, &cap, "event ", nm);
		}
	}
}
