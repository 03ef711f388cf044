/*
 * What every batch mode shares: printing an error, parsing a --begin,
 * --end or --at time, loading a trace's bookmarks.  Here so that no mode
 * reaches into another's file for them.
 */
#include "tview/tview.h"

#include <stdio.h>

#include "tview/bookmark.h"
#include "tview/filter.h"
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
int
tv_cli_filter(struct tv_trace_set *set, const struct tv_cli_options *o,
    struct tv_filter **out)
{
	struct tv_time_ctx tctx;
	struct tv_error err;

	*out = NULL;
	if (o->filter == NULL)
		return 0;
	tv_error_clear(&err);
	tctx.begin = set->ts_begin;
	tctx.end = set->ts_end;
	tctx.cursor = set->ts_begin;
	tctx.local = o->time_style == TV_TIME_WALL_LOCAL;
	if (tv_filter_compile(o->filter, set, &tctx, out, &err) != TV_OK) {
		tv_cli_error(&err);
		return 2;
	}
	return 0;
}

/* See cli.h. */
enum tv_status
tv_cli_bookmarks_load(const struct tv_trace_set *set, uint32_t k,
    struct tv_bookmarks **out, struct tv_error *err)
{
	const struct tv_clock *clk = NULL;
	enum tv_status st;
	uint32_t i;

	*out = NULL;
	st = tv_bookmarks_open(out, set->traces[k]->path, err);
	if (st != TV_OK)
		return st;
	for (i = 0; i < set->nstreams && !clk; i++)
		if (set->streams[i]->trace == set->traces[k])
			clk = set->streams[i]->clock;
	tv_bookmarks_set_clock(*out, clk);
	return TV_OK;
}
