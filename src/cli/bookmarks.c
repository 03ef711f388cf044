/*
 * The bookmark batch modes: --bookmarks prints each trace's bookmarks, one
 * a line; --dump --bookmarked (in dump.c) keeps only the records they cover,
 * through tv_cli_bookmarks_load() (cli.c).
 */
#include "tview/tview.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tview/bookmark.h"
#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "cli.h"

/* Add @s with tabs, newlines and backslashes escaped: one field. */
static void
add_field(struct tv_strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\t')
			tv_strbuf_adds(sb, "\\t");
		else if (*s == '\n')
			tv_strbuf_adds(sb, "\\n");
		else if (*s == '\r')
			tv_strbuf_adds(sb, "\\r");
		else if (*s == '\\')
			tv_strbuf_adds(sb, "\\\\");
		else
			tv_strbuf_addc(sb, *s);
	}
}

/* Add a bookmark time in the --time-format style, or "?" if unknown. */
static void
add_time(struct tv_strbuf *sb, int64_t ns, enum tv_time_style style)
{
	char buf[64];

	if (ns == TV_TIME_NONE)
		tv_strbuf_addc(sb, '?');
	else if (style == TV_TIME_SECONDS)
		tv_strbuf_adds(sb, tv_bookmark_format_time(ns, buf,
		    sizeof(buf)));
	else
		tv_strbuf_adds(sb, tv_time_format(ns, style, 0, buf,
		    sizeof(buf)));
}

/* Print the bookmarks of trace @k, one a line; false if unreadable. */
static bool
print_trace(struct tv_trace_set *set, uint32_t k,
    const struct tv_cli_options *o, struct tv_strbuf *sb)
{
	struct tv_bookmarks *bms;
	struct tv_error err;
	size_t i, n;

	tv_error_clear(&err);
	if (tv_cli_bookmarks_load(set, k, &bms, &err) != TV_OK) {
		tv_cli_error(&err);
		return false;
	}
	if (tv_bookmarks_fallback(bms))
		fprintf(stderr, _("%s: the trace's directory is not writable; "
		    "bookmarks are kept in %s\n"), PACKAGE,
		    tv_bookmarks_path(bms));
	n = tv_bookmarks_count(bms);
	for (i = 0; i < n; i++) {
		const struct tv_bookmark *b = tv_bookmarks_get(bms, i);

		tv_strbuf_reset(sb);
		add_time(sb, b->start, o->time_style);
		tv_strbuf_addc(sb, '\t');
		if (b->interval)
			add_time(sb, b->end, o->time_style);
		else
			tv_strbuf_addc(sb, '-');
		tv_strbuf_addc(sb, '\t');
		if (b->by_cycle)
			tv_strbuf_addf(sb, "%" PRIu64 "-%" PRIu64,
			    b->start_cycle, b->end_cycle);
		else
			tv_strbuf_addc(sb, '-');
		tv_strbuf_addc(sb, '\t');
		if (b->cpu >= 0)
			tv_strbuf_add_i64(sb, b->cpu);
		else
			tv_strbuf_addc(sb, '-');
		tv_strbuf_addc(sb, '\t');
		add_field(sb, b->name);
		tv_strbuf_addc(sb, '\t');
		add_field(sb, b->text);
		tv_strbuf_addc(sb, '\n');
		fwrite(sb->buf, 1, sb->len, stdout);
	}
	tv_bookmarks_destroy(bms);
	return true;
}

/*
 * See cli.h.  Each trace keeps its own bookmarks: with several, each
 * list comes under a "==> TRACE <==" line, as head(1) does with files.
 */
int
tv_cli_bookmarks(struct tv_trace_set *set, const struct tv_cli_options *o)
{
	struct tv_strbuf sb;
	struct tv_error err;
	int status = 0;
	uint32_t k;

	tv_strbuf_init(&sb);
	for (k = 0; k < set->ntraces; k++) {
		if (set->ntraces > 1)
			printf("%s==> %s <==\n", k ? "\n" : "",
			    set->traces[k]->path);
		if (!print_trace(set, k, o, &sb))
			status = 1;
	}
	tv_strbuf_fini(&sb);
	if (fflush(stdout) != 0) {
		tv_error_set(&err, TV_IO, NULL, _("cannot write the output: %s"),
		    strerror(errno));
		tv_cli_error(&err);
		return 1;
	}
	return status;
}
