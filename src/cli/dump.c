/*
 * --dump: walk the merged timeline once, from --begin (or the start) to
 * --end (or the end), and print each record as the format's reference
 * reader prints it; with --filter, only the events that match (lost-data
 * warnings are still all reported).  --count walks the same way and
 * prints how many events it would have printed.  Event lines go to stdout; the warnings about lost
 * events and packets go to stderr, as babeltrace2 does, so that stdout
 * stays byte-for-byte comparable with the reference.
 */
#include "tview/tview.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tview/error.h"
#include "tview/filter.h"
#include "tview/format.h"
#include "tview/i18n.h"
#include "tview/merge.h"
#include "tview/state.h"
#include "tview/trace.h"
#include "tview/util.h"
#include "tview/bookmark.h"
#include "cli.h"

/* Size of the stdio buffer of stdout: dumps are big, write in big chunks. */
#define DUMP_STDOUT_BUF	(1u << 20)

/* --with-pid: the "PID<TAB>TID<TAB>NAME<TAB>" prefix of an event line. */
static void
dump_owner(struct tv_strbuf *line, const struct tv_event_owner *o)
{
	if (o->pid == TV_TID_UNKNOWN)
		tv_strbuf_addc(line, '-');
	else
		tv_strbuf_add_i64(line, o->pid);
	tv_strbuf_addc(line, '\t');
	if (o->tid == TV_TID_UNKNOWN)
		tv_strbuf_addc(line, '-');
	else
		tv_strbuf_add_i64(line, o->tid);
	tv_strbuf_addc(line, '\t');
	tv_strbuf_adds(line, o->name[0] != '\0' ? o->name : "-");
	tv_strbuf_addc(line, '\t');
}

/*
 * Print one record: events on stdout, lost-data warnings on stderr.
 * @owner (--with-pid) prefixes event lines with who they belong to.
 */
static enum tv_status
dump_record(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *line, const struct tv_event_owner *owner,
    struct tv_error *err)
{
	const struct tv_format_ops *ops = ev->stream->trace->ops;
	enum tv_status st;
	size_t prefix = 0;
	FILE *fp;

	tv_arena_reset(arena);
	tv_strbuf_reset(line);
	if (owner != NULL && ev->rec.kind == TV_REC_EVENT) {
		dump_owner(line, owner);
		prefix = line->len;
	}
	st = ops->print_record(ev, arena, line, err);
	if (st != TV_OK)
		return st;
	if (line->len == prefix)
		return TV_OK;
	fp = ev->rec.kind == TV_REC_EVENT ? stdout : stderr;
	if (fp == stderr)
		fflush(stdout);
	/* one unlocked copy into stdio's big buffer per line */
	tv_strbuf_addc(line, '\n');
	fwrite_unlocked(line->buf, 1, line->len, fp);
	return TV_OK;
}

/* What each trace's reference reader prints before its records. */
static enum tv_status
dump_headers(const struct tv_trace_set *set, struct tv_error *err)
{
	struct tv_strbuf sb;
	enum tv_status st = TV_OK;
	uint32_t i;

	tv_strbuf_init(&sb);
	for (i = 0; i < set->ntraces && st == TV_OK; i++) {
		const struct tv_trace *t = set->traces[i];

		if (!t->ops->print_header)
			continue;
		tv_strbuf_reset(&sb);
		st = t->ops->print_header(t, &sb, err);
		if (st == TV_OK && sb.len > 0) {
			fwrite(sb.buf, 1, sb.len, stdout);
			putc('\n', stdout);
		}
	}
	tv_strbuf_fini(&sb);
	return st;
}

/* Compile --filter against @set; 0, or the exit status of an error. */
static int
dump_filter(struct tv_trace_set *set, const struct tv_cli_options *o,
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

/* The --dump and --count main loop; see cli.h. */
static int
dump_walk(struct tv_trace_set *set, const struct tv_cli_options *o,
    bool print)
{
	bool local = o->time_style == TV_TIME_WALL_LOCAL;
	struct tv_error err, rec_err, stop_err, one;
	int64_t begin = INT64_MIN, end = INT64_MAX;
	struct tv_strbuf line;
	struct tv_arena arena;
	struct tv_state_index *idx = NULL;
	struct tv_state *state = NULL;
	struct tv_event_owner owner;
	struct tv_merge *m;
	struct tv_bookmarks *bms = NULL;
	int64_t bm_last = INT64_MIN;
	struct tv_event ev;
	struct tv_filter *filter = NULL;
	struct tv_filter_follow *follow = NULL;
	uint64_t matched = 0;
	enum tv_status st;
	int status = 0;

	tv_error_clear(&err);
	tv_error_clear(&rec_err);
	tv_error_clear(&stop_err);
	tv_error_clear(&one);
	if (o->begin != NULL &&
	    tv_cli_parse_time(set, o->begin, local, &begin, &err) != TV_OK) {
		tv_cli_error(&err);
		return 2;
	}
	if (o->end != NULL &&
	    tv_cli_parse_time(set, o->end, local, &end, &err) != TV_OK) {
		tv_cli_error(&err);
		return 2;
	}

	if ((status = dump_filter(set, o, &filter)) != 0)
		return status;
	if (filter != NULL)
		follow = tv_filter_follow_create(set);
	if (o->bookmarked) {
		const struct tv_bookmark *b;

		if (tv_cli_bookmarks_load(set, &bms, &err) != TV_OK) {
			tv_cli_error(&err);
			tv_filter_destroy(filter);
			tv_filter_follow_destroy(follow);
			return 1;
		}
		/* nothing outside [first start, last end] is inside one */
		for (size_t i = 0; i < tv_bookmarks_count(bms); i++)
			if (tv_bookmarks_get(bms, i)->end != TV_TIME_NONE)
				bm_last = TV_MAX(bm_last,
				    tv_bookmarks_get(bms, i)->end);
		b = tv_bookmarks_get(bms, 0);
		if (b == NULL || b->start == TV_TIME_NONE) {
			tv_bookmarks_destroy(bms);
			tv_filter_destroy(filter);
			tv_filter_follow_destroy(follow);
			if (!print)
				printf("0\n");
			return 0;
		}
		if (b->start > begin) {
			begin = b->start;
			if (o->begin == NULL && (o->with_pid ||
			    (filter && tv_filter_needs_state(filter))))
				begin = INT64_MIN;
		}
	}
	if (o->with_pid || (filter != NULL && tv_filter_needs_state(filter))) {
		/* the state just before the first line: replay up to it */
		state = tv_state_create(set);
		if (o->begin != NULL) {
			idx = tv_state_index_create(set, 0);
			if (tv_state_at(idx, begin - 1, state, &err) != TV_OK) {
				tv_cli_error(&err);
				status = 1;
			}
			tv_state_index_destroy(idx);
		}
	}
	setvbuf(stdout, NULL, _IOFBF, DUMP_STDOUT_BUF);
	if (print && dump_headers(set, &err) != TV_OK) {
		tv_cli_error(&err);
		tv_filter_destroy(filter);
		tv_filter_follow_destroy(follow);
		tv_state_destroy(state);
		tv_bookmarks_destroy(bms);
		return 1;
	}
	m = tv_merge_create(set);
	if (o->begin != NULL || (bms != NULL && begin != INT64_MIN))
		tv_merge_seek_time(m, begin);
	else
		tv_merge_seek_begin(m);
	tv_arena_init(&arena);
	tv_strbuf_init(&line);
	for (;;) {
		st = tv_merge_next(m, &ev);
		if (st == TV_END)
			break;
		if (st != TV_OK) {
			tv_error_set(&stop_err, st, NULL, "%s",
			    tv_status_str(st));
			break;
		}
		if (ev.rec.ts > end && ev.rec.ts != TV_TIME_NONE)
			break;
		if (state != NULL)
			(void)tv_state_apply(state, &ev, &owner, NULL);
		if (bms != NULL && ev.rec.ts > bm_last)
			break;
		if (bms != NULL && tv_bookmarks_covering(bms, ev.rec.ts,
		    ev.stream->cpu) < 0)
			continue;
		if (filter != NULL && ev.rec.kind == TV_REC_EVENT) {
			bool hit = false;

			if (tv_filter_verdict(filter, &ev) != TV_FILTER_NEVER) {
				tv_arena_reset(&arena);
				hit = tv_filter_match(filter, &ev,
				    state != NULL ? &owner : NULL, &arena);
			}
			if (!tv_filter_follow(follow, &ev, hit))
				continue;
		}
		if (!print) {
			matched += ev.rec.kind == TV_REC_EVENT;
			continue;
		}
		st = dump_record(&ev, &arena, &line,
		    o->with_pid ? &owner : NULL, &one);
		if (st != TV_OK && rec_err.status == TV_OK) {
			rec_err = one;
			if (rec_err.status == TV_OK)
				tv_error_set(&rec_err, st, NULL, "%s",
				    tv_status_str(st));
		}
		if (ferror_unlocked(stdout))
			break;
	}
	/* The most precise error first: the merger's carries a position. */
	if (tv_merge_error(m)->status != TV_OK)
		err = *tv_merge_error(m);
	else if (rec_err.status != TV_OK)
		err = rec_err;
	else
		err = stop_err;
	tv_strbuf_fini(&line);
	tv_arena_fini(&arena);
	tv_merge_destroy(m);
	tv_state_destroy(state);
	tv_bookmarks_destroy(bms);
	tv_filter_destroy(filter);
	tv_filter_follow_destroy(follow);

	if (!print)
		printf("%" PRIu64 "\n", matched);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		tv_error_set(&err, TV_IO, NULL, _("cannot write the output: %s"),
		    strerror(errno));
	}
	if (err.status != TV_OK) {
		tv_cli_error(&err);
		status = 1;
	}
	return status;
}

/* See cli.h. */
int
tv_cli_dump(struct tv_trace_set *set, const struct tv_cli_options *o)
{
	return dump_walk(set, o, true);
}

/* See cli.h. */
int
tv_cli_count(struct tv_trace_set *set, const struct tv_cli_options *o)
{
	return dump_walk(set, o, false);
}
