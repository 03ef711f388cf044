/*
 * What every batch mode shares: printing an error, parsing a --begin,
 * --end or --at time, loading a trace's bookmarks.  Here so that no mode
 * reaches into another's file for them.
 */
#include "tview/tview.h"

#include <stdio.h>

#include "tview/bookmark.h"
#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/time.h"
#include "tview/trace.h"
#include "cli.h"

/* See cli.h. */
void
tv_cli_error(const struct tv_error *err)
{
	char buf[1200];

	fflush(stdout);
	fprintf(stderr, "tview: %s\n", tv_error_format(err, buf, sizeof(buf)));
}

/* See cli.h: against the span of @set, for --begin, --end and --at. */
enum tv_status
tv_cli_parse_time(const struct tv_trace_set *set, const char *text,
    bool local, int64_t *out, struct tv_error *err)
{
	struct tv_time_ctx ctx;
	enum tv_status st;

	ctx.begin = set->ts_begin;
	ctx.end = set->ts_end;
	ctx.cursor = set->ts_begin;
	ctx.local = local;
	st = tv_time_parse(text, &ctx, out, err);
	if (st != TV_OK && err != NULL && err->msg[0] == '\0')
		tv_error_set(err, st, NULL, _("invalid time: %s"), text);
	return st;
}

/* See cli.h. */
enum tv_status
tv_cli_bookmarks_load(const struct tv_trace_set *set,
    struct tv_bookmarks **out, struct tv_error *err)
{
	const struct tv_clock *clk = NULL;
	enum tv_status st;
	uint32_t i;

	*out = NULL;
	st = tv_bookmarks_open(out, set->traces[0]->path, err);
	if (st != TV_OK)
		return st;
	for (i = 0; i < set->nstreams && !clk; i++)
		clk = set->streams[i]->clock;
	tv_bookmarks_set_clock(*out, clk);
	return TV_OK;
}
