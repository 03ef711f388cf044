/*
 * --dump: walk the merged timeline once, from --begin (or the start) to
 * --end (or the end), and print each record as the format's reference
 * reader prints it; with --filter, only the events that match (lost-data
 * warnings are still all reported).  --count walks the same way and
 * prints how many events it would have printed.  Event lines go to stdout; the warnings about lost
 * events and packets go to stderr, as babeltrace2 does, so that stdout
 * stays byte-for-byte comparable with the reference.
 *
 * --dump --follow prints the trace as it is written: see
 * tv_cli_dump_follow().
 */
#include "tview/tview.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tview/error.h"
#include "tview/filter.h"
#include "tview/format.h"
#include "tview/i18n.h"
#include "tview/merge.h"
#include "tview/pwalk.h"
#include "tview/state.h"
#include "tview/trace.h"
#include "tview/util.h"
#include "tview/bookmark.h"
#include "cli.h"

/* Size of the stdio buffer of stdout: dumps are big, write in big chunks. */
#define DUMP_STDOUT_BUF	(1u << 20)

/*
 * Give stdout a DUMP_STDOUT_BUF buffer, before anything is written to
 * it.  The buffer is given, not left to stdio: glibc ignores the size
 * when it allocates the buffer itself and takes st_blksize, 4 KiB on a
 * pipe or /dev/null (900,000 write calls for a 3 GB dump).  It is never
 * freed: stdout uses it until exit flushes it.
 */
static void
dump_stdout_buffer(void)
{
	char *buf = malloc(DUMP_STDOUT_BUF);

	if (buf != NULL && setvbuf(stdout, buf, _IOFBF, DUMP_STDOUT_BUF) != 0)
		free(buf);
}

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
 * @owner (--with-pid) prefixes event lines with who they belong to;
 * @state, after the record, gives the process columns of the formats
 * whose reference prints them (print_record_state).
 */
static enum tv_status
dump_record(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *line, const struct tv_event_owner *owner,
    const struct tv_state *state, struct tv_error *err)
{
	enum tv_status st;
	size_t prefix = 0;
	FILE *fp;

	tv_arena_reset(arena);
	tv_strbuf_reset(line);
	if (owner != NULL && ev->rec.kind == TV_REC_EVENT) {
		dump_owner(line, owner);
		prefix = line->len;
	}
	/* the process columns of the formats whose reader prints them */
	if (state != NULL && ev->stream->trace->ops->print_record_state)
		st = tv_event_print_state(ev, tv_state_running(state,
		    tv_state_machine_of(state, ev->stream), ev->stream->cpu),
		    arena, line, err);
	else
		st = tv_event_print(ev, arena, line, err);
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

/*
 * What each trace's reference reader prints before its records (or
 * after them: @footer).
 */
static enum tv_status
dump_headers(const struct tv_trace_set *set, bool footer,
    struct tv_error *err)
{
	struct tv_strbuf sb;
	enum tv_status st = TV_OK;
	uint32_t i;

	tv_strbuf_init(&sb);
	for (i = 0; i < set->ntraces && st == TV_OK; i++) {
		const struct tv_trace *t = set->traces[i];

		tv_strbuf_reset(&sb);
		st = footer ? tv_trace_print_footer(t, &sb, err) :
		    tv_trace_print_header(t, &sb, err);
		if (st == TV_OK && sb.len > 0) {
			fwrite(sb.buf, 1, sb.len, stdout);
			putc('\n', stdout);
		}
	}
	tv_strbuf_fini(&sb);
	return st;
}

/*
 * A record --dump walks but does not print (before --begin, dropped by
 * a filter or outside the bookmarks): a driver printing process columns
 * from its reference reader's state learns from it all the same.
 */
static void
dump_learn(const struct tv_event *ev, struct tv_arena *arena,
    const struct tv_state *state)
{
	struct tv_error err;

	if (state == NULL || ev->stream->trace->ops->print_record_state ==
	    NULL)
		return;
	tv_error_clear(&err);
	tv_arena_reset(arena);
	(void)tv_event_print_state(ev, tv_state_running(state,
	    tv_state_machine_of(state, ev->stream), ev->stream->cpu), arena,
	    NULL, &err);
}

/* Whether a trace of @set prints process columns from the state. */
static bool
dump_wants_state(const struct tv_trace_set *set)
{
	uint32_t i;

	for (i = 0; i < set->ntraces; i++)
		if (set->traces[i]->ops->print_record_state != NULL)
			return true;
	return false;
}

/* Whether every trace of @set may print its records on worker threads. */
static bool
dump_prints_anywhere(const struct tv_trace_set *set)
{
	uint32_t i;

	for (i = 0; i < set->ntraces; i++)
		if (set->traces[i]->ops->print_in_order)
			return false;
	return true;
}

/* Free the per-trace bookmarks of --bookmarked (NULL: none). */
static void
dump_bm_free(const struct tv_trace_set *set, struct tv_bookmarks **bms)
{
	uint32_t k;

	for (k = 0; bms != NULL && k < set->ntraces; k++)
		tv_bookmarks_destroy(bms[k]);
	free(bms);
}

/*
 * --bookmarked: the bookmarks of every trace (each keeps its own file),
 * and the first start and last end among them (INT64_MAX, INT64_MIN
 * when none has a time).
 */
static enum tv_status
dump_bm_load(const struct tv_trace_set *set, struct tv_bookmarks ***out,
    int64_t *first, int64_t *last, struct tv_error *err)
{
	struct tv_bookmarks **bms = tv_xcalloc(set->ntraces, sizeof(*bms));
	const struct tv_bookmark *b;
	enum tv_status st;
	uint32_t k;
	size_t i;

	*first = INT64_MAX;
	*last = INT64_MIN;
	for (k = 0; k < set->ntraces; k++) {
		st = tv_cli_bookmarks_load(set, k, &bms[k], err);
		if (st != TV_OK) {
			dump_bm_free(set, bms);
			return st;
		}
		for (i = 0; i < tv_bookmarks_count(bms[k]); i++) {
			b = tv_bookmarks_get(bms[k], i);
			if (b->start != TV_TIME_NONE)
				*first = TV_MIN(*first, b->start);
			if (b->end != TV_TIME_NONE)
				*last = TV_MAX(*last, b->end);
		}
	}
	*out = bms;
	return TV_OK;
}

/* Is @ev inside a bookmark of its own trace? */
static bool
dump_bm_covers(const struct tv_trace_set *set, struct tv_bookmarks **bms,
    const struct tv_event *ev)
{
	uint32_t k;

	for (k = 0; k < set->ntraces; k++)
		if (set->traces[k] == ev->stream->trace)
			return tv_bookmarks_covering(bms[k], ev->rec.ts,
			    ev->stream->cpu) >= 0;
	return false;
}

/* What the workers of a parallel dump need: see dump_work(). */
struct dump_work {
	struct tv_filter	*filter;	/* NULL: every event */
	bool			 print;
};

/* The worker's flag: the filter matched the event. */
#define DUMP_HIT	1

/*
 * The per-record part of --dump and --count, on a worker of the ordered
 * parallel walk: the filter's verdict, then the line as dump_record()
 * makes it.  A line is made for an event the filter did not match only
 * when tv_filter_follow() may still show it (a stack trace after a shown
 * event): that depends on the records before it, which the reader sees.
 */
static enum tv_status
dump_work(void *arg, const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *out, uint8_t *flags, struct tv_error *err)
{
	const struct dump_work *d = arg;
	const struct tv_event_class *c;
	size_t before = out->len;
	enum tv_status st;
	bool hit = true;

	if (d->filter != NULL && ev->rec.kind == TV_REC_EVENT) {
		hit = tv_filter_verdict(d->filter, ev) != TV_FILTER_NEVER &&
		    tv_filter_match(d->filter, ev, NULL, arena);
		tv_arena_reset(arena);
		c = tv_event_class_of(ev);
		if (!hit && (c == NULL || !c->follows_previous))
			return TV_OK;
	}
	*flags = hit ? DUMP_HIT : 0;
	if (!d->print)
		return TV_OK;
	st = tv_event_print(ev, arena, out, err);
	if (st != TV_OK) {
		out->len = before;
		return st;
	}
	if (out->len > before)
		tv_strbuf_addc(out, '\n');
	return TV_OK;
}

/* Write the lines gathered in *@span (one write for many), empty it. */
static void
flush_span(const char **span, size_t *len)
{
	if (*len > 0)
		fwrite_unlocked(*span, 1, *len, stdout);
	*span = NULL;
	*len = 0;
}

/*
 * The --dump / --count loop when no record needs the state or the
 * bookmarks: the lines are made on every core (tview/pwalk.h) and
 * written here in timeline order, a run of records at a time: the lines
 * of a run lie end to end, so a run is one write.  Fills what
 * dump_walk() reports.
 */
static void
dump_parallel(struct tv_trace_set *set, int64_t begin, int64_t end,
    struct tv_filter *filter, struct tv_filter_follow *follow, bool print,
    uint64_t *matched, struct tv_error *rec_err, struct tv_error *walk_err)
{
	struct dump_work d = { filter, print };
	struct tv_pwalk *w = tv_pwalk_start(set, begin, end, dump_work, &d, 0,
	    TV_PAGES_SEQUENTIAL);
	struct tv_pwalk_run run;
	struct tv_event ev;
	const char *bytes, *span = NULL;
	size_t len, span_len = 0;
	bool stop = false;
	uint64_t k;

	while (!stop && tv_pwalk_next_run(w, &run) == TV_OK) {
		for (k = 0; k < run.n; k++) {
			const struct tv_event_rec *r = &run.recs[k];

			if (r->ts > end && r->ts != TV_TIME_NONE) {
				stop = true;
				break;
			}
			if (filter != NULL && r->kind == TV_REC_EVENT) {
				ev.stream = run.stream;
				ev.packet = run.packet;
				ev.index = run.index + k;
				ev.rec = *r;
				if (!tv_filter_follow(follow, &ev,
				    run.flags[k] & DUMP_HIT))
					continue;
			}
			if (!print) {
				*matched += r->kind == TV_REC_EVENT;
				continue;
			}
			if (k == run.bad && rec_err->status == TV_OK) {
				*rec_err = *run.err;
				if (rec_err->status == TV_OK)
					tv_error_set(rec_err, run.status, NULL,
					    "%s", tv_status_str(run.status));
			}
			bytes = tv_pwalk_run_bytes(&run, k, &len);
			if (len == 0)
				continue;
			if (r->kind == TV_REC_EVENT) {
				if (span_len > 0 && span + span_len == bytes) {
					span_len += len;
				} else {
					flush_span(&span, &span_len);
					span = bytes;
					span_len = len;
				}
				continue;
			}
			/* a loss line: on stderr, after the lines before */
			flush_span(&span, &span_len);
			fflush(stdout);
			if (ferror_unlocked(stdout)) {
				stop = true;
				break;
			}
			fwrite_unlocked(bytes, 1, len, stderr);
		}
		flush_span(&span, &span_len);
		if (ferror_unlocked(stdout))
			break;
	}
	*walk_err = *tv_pwalk_error(w);
	tv_pwalk_destroy(w);
}

/*
 * --count of every event (no filter, bounds or bookmarks): the one count
 * of the set (tv_trace_set_count: the state cache's, else every packet's
 * record headers on every core), summed over the classes.
 */
static int
count_all(struct tv_trace_set *set)
{
	struct tv_error err;
	uint64_t n = 0;
	bool counted;
	uint32_t i, j;

	tv_error_clear(&err);
	(void)tv_trace_set_count(set, TV_COUNT_ALWAYS, &counted, &err);
	for (i = 0; i < set->ntraces; i++)
		for (j = 0; j < set->traces[i]->nclasses; j++)
			n += __atomic_load_n(&set->traces[i]->classes[j]->count,
			    __ATOMIC_RELAXED);
	printf("%" PRIu64 "\n", n);
	if (fflush(stdout) != 0 || ferror(stdout))
		tv_error_set(&err, TV_IO, NULL,
		    _("cannot write the output: %s"), strerror(errno));
	if (err.status != TV_OK) {
		tv_cli_error(&err);
		return 1;
	}
	return 0;
}

/* The --dump and --count main loop; see cli.h. */
static int
dump_walk(struct tv_trace_set *set, const struct tv_cli_options *o,
    bool print)
{
	bool local = o->time_style == TV_TIME_WALL_LOCAL;
	struct tv_error err, rec_err, stop_err, walk_err, one;
	int64_t begin = INT64_MIN, end = INT64_MAX;
	struct tv_strbuf line;
	struct tv_arena arena;
	struct tv_state_index *idx = NULL;
	struct tv_state *state = NULL;
	struct tv_event_owner owner;
	struct tv_merge *m;
	struct tv_bookmarks **bms = NULL;
	int64_t bm_first, bm_last = INT64_MIN;
	struct tv_event ev;
	bool learn = false, started = true;
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

	if ((status = tv_cli_filter(set, o, &filter)) != 0)
		return status;
	if (!print && filter == NULL && o->begin == NULL && o->end == NULL &&
	    !o->bookmarked && !o->with_pid)
		return count_all(set);
	if (filter != NULL)
		follow = tv_filter_follow_create(set);
	if (o->bookmarked) {
		if (dump_bm_load(set, &bms, &bm_first, &bm_last, &err) !=
		    TV_OK) {
			tv_cli_error(&err);
			tv_filter_destroy(filter);
			tv_filter_follow_destroy(follow);
			return 1;
		}
		/* nothing outside [first start, last end] is inside one */
		if (bm_first == INT64_MAX) {
			dump_bm_free(set, bms);
			tv_filter_destroy(filter);
			tv_filter_follow_destroy(follow);
			if (!print)
				printf("0\n");
			return 0;
		}
		if (bm_first > begin) {
			begin = bm_first;
			if (o->begin == NULL && (o->with_pid ||
			    (filter && tv_filter_needs_state(filter))))
				begin = INT64_MIN;
		}
	}
	/*
	 * Process columns replayed by the driver (LTTV's) need every record
	 * from the trace start, as the reference reader reads them: with
	 * --begin, walk from the start and print from --begin on.
	 */
	learn = print && dump_wants_state(set);
	started = !learn || (o->begin == NULL &&
	    (bms == NULL || begin == INT64_MIN));
	if (o->with_pid || (filter != NULL && tv_filter_needs_state(filter)) ||
	    learn) {
		/* the state just before the first line: replay up to it */
		state = tv_state_create(set);
		if (o->begin != NULL && !learn) {
			idx = tv_state_index_create(set, 0);
			if (tv_state_at(idx, begin - 1, state, &err) != TV_OK) {
				tv_cli_error(&err);
				status = 1;
			}
			tv_state_index_destroy(idx);
		}
	}
	dump_stdout_buffer();
	if (print && dump_headers(set, false, &err) != TV_OK) {
		tv_cli_error(&err);
		tv_filter_destroy(filter);
		tv_filter_follow_destroy(follow);
		tv_state_destroy(state);
		dump_bm_free(set, bms);
		return 1;
	}
	tv_error_clear(&walk_err);
	tv_arena_init(&arena);
	tv_strbuf_init(&line);
	if (state == NULL && bms == NULL &&
	    (!print || dump_prints_anywhere(set))) {
		dump_parallel(set, o->begin != NULL ? begin : INT64_MIN, end,
		    filter, follow, print, &matched, &rec_err, &walk_err);
		goto walked;
	}
	m = tv_merge_create(set);
	tv_merge_set_sequential(m);	/* RSS near the heap */
	if (!learn &&
	    (o->begin != NULL || (bms != NULL && begin != INT64_MIN)))
		tv_merge_seek_time(m, begin);
	else
		tv_merge_seek_begin(m);
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
		if (!started) {
			/* where tv_merge_seek_time(begin) would start */
			if (ev.rec.ts == TV_TIME_NONE || ev.rec.ts < begin) {
				dump_learn(&ev, &arena, state);
				continue;
			}
			started = true;
		}
		if (bms != NULL && ev.rec.ts > bm_last)
			break;
		if (bms != NULL && !dump_bm_covers(set, bms, &ev)) {
			if (learn)
				dump_learn(&ev, &arena, state);
			continue;
		}
		if (filter != NULL && ev.rec.kind == TV_REC_EVENT) {
			bool hit = false;

			if (tv_filter_verdict(filter, &ev) != TV_FILTER_NEVER) {
				tv_arena_reset(&arena);
				hit = tv_filter_match(filter, &ev,
				    state != NULL ? &owner : NULL, &arena);
			}
			if (!tv_filter_follow(follow, &ev, hit)) {
				if (learn)
					dump_learn(&ev, &arena, state);
				continue;
			}
		}
		if (!print) {
			matched += ev.rec.kind == TV_REC_EVENT;
			continue;
		}
		st = dump_record(&ev, &arena, &line,
		    o->with_pid ? &owner : NULL, state, &one);
		if (st != TV_OK && rec_err.status == TV_OK) {
			rec_err = one;
			if (rec_err.status == TV_OK)
				tv_error_set(&rec_err, st, NULL, "%s",
				    tv_status_str(st));
		}
		if (ferror_unlocked(stdout))
			break;
	}
	walk_err = *tv_merge_error(m);
	tv_merge_destroy(m);
walked:
	if (print && !ferror_unlocked(stdout) && stop_err.status == TV_OK &&
	    walk_err.status == TV_OK)
		(void)dump_headers(set, true, &one);
	/* The most precise error first: the merger's carries a position. */
	if (walk_err.status != TV_OK)
		err = walk_err;
	else if (rec_err.status != TV_OK)
		err = rec_err;
	else
		err = stop_err;
	tv_strbuf_fini(&line);
	tv_arena_fini(&arena);
	tv_state_destroy(state);
	dump_bm_free(set, bms);
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

/*
 * --follow: how often the trace is looked at.  100 ms keeps the delay
 * from an event written to it printed near what a person notices, for
 * a directory listing and a stat per file (far below a millisecond for
 * an LTTng session's few hundred files).  Polling rather than inotify:
 * the same loop serves every file system (NFS, FUSE) and the /proc look
 * for writers needs a timer anyway.
 */
#define FOLLOW_POLL_NS	100000000L
/* How often, at most, --follow looks for writers while the trace grows. */
#define FOLLOW_LOOK_MS	500

/*
 * The pause between two looks, during which SIGINT or SIGTERM ends the
 * following cleanly (output flushed, exit 0).  The two signals are
 * blocked while following and taken here by sigtimedwait(), so no
 * handler and no global flag are needed; true when one came.
 */
static bool
follow_pause(const sigset_t *stop)
{
	struct timespec nap = { 0, FOLLOW_POLL_NS };
	int sig;

	do {
		sig = sigtimedwait(stop, NULL, &nap);
	} while (sig < 0 && errno == EINTR);
	return sig > 0;
}

/*
 * Print the records after *@last (all of them when !*@have_last) whose
 * time is before @limit, in timeline order; *@last becomes the last one
 * printed.  A merger made for the round: the indexes may have grown or
 * moved since the last one.
 */
static void
follow_round(struct tv_trace_set *set, int64_t limit, struct tv_event *last,
    bool *have_last, struct tv_arena *arena, struct tv_strbuf *line,
    struct tv_error *rec_err, struct tv_error *walk_err)
{
	struct tv_merge *m = tv_merge_create(set);
	struct tv_error one;
	struct tv_event ev;
	enum tv_status st;

	if (*have_last) {
		tv_merge_seek_event(m, last);
		/* next() gives the last one printed again: skip it */
		if (tv_merge_next(m, &ev) != TV_OK) {
			tv_merge_destroy(m);
			return;
		}
	} else {
		tv_merge_seek_begin(m);
	}
	while ((st = tv_merge_next(m, &ev)) == TV_OK) {
		if (ev.rec.ts >= limit && ev.rec.ts != TV_TIME_NONE)
			break;
		tv_error_clear(&one);
		st = dump_record(&ev, arena, line, NULL, NULL, &one);
		if (st != TV_OK && rec_err->status == TV_OK) {
			*rec_err = one;
			if (rec_err->status == TV_OK)
				tv_error_set(rec_err, st, NULL, "%s",
				    tv_status_str(st));
		}
		*last = ev;
		*have_last = true;
		if (ferror_unlocked(stdout))
			break;
	}
	if (walk_err->status == TV_OK)
		*walk_err = *tv_merge_error(m);
	tv_merge_destroy(m);
	fflush(stdout);
}

/*
 * --dump --follow; see cli.h.  Each round prints what is settled (the
 * records before tv_trace_set_settled(): no stream can add an earlier
 * one), so the lines come out in the order a --dump of the finished
 * trace prints them.  When a look finds nothing new and no process
 * writes the trace any more, a last look (a packet cut short is then an
 * error) and everything left is printed.
 */
int
tv_cli_dump_follow(struct tv_trace_set *set, const struct tv_cli_options *o)
{
	struct tv_error err, rec_err, walk_err, ext_err;
	struct tv_event last;
	struct tv_strbuf line;
	struct tv_arena arena;
	bool have_last = false, grew, done = false, stopped = false;
	bool alive = true;
	int64_t next_look = 0;
	sigset_t stop, old;
	int status = 0;

	tv_error_clear(&err);
	tv_error_clear(&rec_err);
	tv_error_clear(&walk_err);
	tv_error_clear(&ext_err);
	memset(&last, 0, sizeof(last));
	if (tv_trace_set_extend(set, TV_OPEN_FOLLOW, &grew, &err) ==
	    TV_UNSUPPORTED) {
		tv_cli_error(&err);
		return 1;
	}
	ext_err = err;
	dump_stdout_buffer();
	if (dump_headers(set, false, &err) != TV_OK) {
		tv_cli_error(&err);
		return 1;
	}
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	(void)sigprocmask(SIG_BLOCK, &stop, &old);
	tv_arena_init(&arena);
	tv_strbuf_init(&line);
	while (!stopped) {
		follow_round(set, done ? INT64_MAX :
		    tv_trace_set_settled(set), &last, &have_last, &arena,
		    &line, &rec_err, &walk_err);
		if (done || ferror_unlocked(stdout))
			break;
		if ((stopped = follow_pause(&stop)))
			break;
		/*
		 * The full look only when a cheap one (a stat per stream and
		 * trace directory, as the browser's) says something may have
		 * grown; a live mirror is always looked at, since its beacons
		 * move without any file growing.
		 */
		tv_error_clear(&err);
		grew = false;
		if (o->live || tv_trace_set_grown(set))
			(void)tv_trace_set_extend(set, TV_OPEN_FOLLOW, &grew,
			    &err);
		/*
		 * Who writes: when nothing grew (is the session over?), and
		 * every FOLLOW_LOOK_MS while things grow, so that a trace
		 * whose application exited stops holding back the rest.  A
		 * live session's mirror is written by this process.
		 */
		if (!o->live && (!grew || tv_clock_ms() >= next_look)) {
			alive = tv_trace_set_writers(set);
			next_look = tv_clock_ms() + FOLLOW_LOOK_MS;
		}
		if (grew || (o->live ? !tv_cli_live_done(o->live) : alive))
			continue;
		/* the writers are gone: the last look, then the rest */
		tv_error_clear(&err);
		(void)tv_trace_set_extend(set, 0, &grew, &err);
		ext_err = err;
		done = true;
	}
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	if (done && !ferror_unlocked(stdout) && walk_err.status == TV_OK)
		(void)dump_headers(set, true, &err);
	tv_strbuf_fini(&line);
	tv_arena_fini(&arena);
	tv_error_clear(&err);
	if (walk_err.status != TV_OK)
		err = walk_err;
	else if (rec_err.status != TV_OK)
		err = rec_err;
	else if (done)
		err = ext_err;
	if (fflush(stdout) != 0 || ferror(stdout))
		tv_error_set(&err, TV_IO, NULL,
		    _("cannot write the output: %s"), strerror(errno));
	if (err.status != TV_OK) {
		tv_cli_error(&err);
		status = 1;
	}
	return status;
}
