/*
 * The ordered parallel walk (tview/pwalk.h) on gen-ctf traces: for any
 * number of workers and from any start time, it gives the records of
 * the merged timeline in tv_merge_next()'s order, each with the bytes
 * and flags its worker made, the same as doing that work in the walk
 * itself, a record or a run at a time, and with no work only the
 * records; ties between streams go as the merger's; a walk left
 * half-way is destroyed cleanly; with few streams (a sorted array) and
 * many (a heap).  Built with
 * --enable-tsan this is the ThreadSanitizer check of its workers and of
 * the CTF printer they call concurrently.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tview/format.h"
#include "tview/merge.h"
#include "tview/pwalk.h"
#include "tview/trace.h"
#include "../tap.h"

/* The flags of the tests: a function of the record alone. */
static uint8_t
flags_of(const struct tv_event *ev)
{
	return (uint8_t)(ev->index * 7 + ev->rec.kind + 1);
}

/* The work of the tests: the --dump line and flags_of(); calls counted. */
static enum tv_status
work(void *arg, const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *out, uint8_t *flags, struct tv_error *err)
{
	if (arg != NULL)
		__atomic_add_fetch((uint64_t *)arg, 1, __ATOMIC_RELAXED);
	*flags = flags_of(ev);
	return tv_event_print(ev, arena, out, err);
}

/*
 * Walk @set from @begin to @end with @nthreads workers beside a plain
 * merger: the records that differ (order, bytes or flags), *n those
 * walked; the work was asked of those alone.
 */
static uint64_t
compare(struct tv_trace_set *set, int64_t begin, int64_t end,
    unsigned nthreads, uint64_t *n)
{
	uint64_t calls = 0;
	struct tv_pwalk *w = tv_pwalk_start(set, begin, end, work, &calls,
	    nthreads, TV_PAGES_RELEASE);
	struct tv_merge *m = tv_merge_create(set);
	struct tv_pwalk_item it;
	struct tv_strbuf sb;
	struct tv_arena arena;
	struct tv_event ev;
	uint64_t bad = 0;
	enum tv_status st;

	tv_strbuf_init(&sb);
	tv_arena_init(&arena);
	*n = 0;
	if (begin != INT64_MIN)
		tv_merge_seek_time(m, begin);
	while (tv_merge_next(m, &ev) == TV_OK && ev.rec.ts <= end) {
		if (tv_pwalk_next(w, &it) != TV_OK) {
			bad++;
			break;
		}
		(*n)++;
		tv_strbuf_reset(&sb);
		tv_arena_reset(&arena);
		(void)tv_event_print(&ev, &arena, &sb, NULL);
		if (tv_event_cmp(&ev, &it.ev) != 0 || it.len != sb.len ||
		    memcmp(it.bytes, sb.buf, sb.len) != 0 ||
		    it.flags != flags_of(&ev)) {
			if (bad++ == 0)
				diag("record %llu differs",
				    (unsigned long long)*n);
		}
	}
	/* past @end: the walk ends */
	st = tv_pwalk_next(w, &it);
	if (st != TV_END) {
		diag("a record past the end: %lld", (long long)it.ev.rec.ts);
		bad++;
	}
	tv_pwalk_destroy(w);
	if (__atomic_load_n(&calls, __ATOMIC_RELAXED) != *n) {
		diag("the work was asked of %llu records, %llu walked",
		    (unsigned long long)calls, (unsigned long long)*n);
		bad++;
	}
	tv_arena_fini(&arena);
	tv_strbuf_fini(&sb);
	tv_merge_destroy(m);
	return bad;
}

/*
 * The same as compare(), a run at a time (tv_pwalk_next_run), with the
 * work or (@work false) none: no bytes and no flags then.  *@runs: how
 * many runs.
 */
static uint64_t
compare_runs(struct tv_trace_set *set, int64_t begin, int64_t end,
    unsigned nthreads, bool with_work, uint64_t *n, uint64_t *runs)
{
	struct tv_pwalk *w = tv_pwalk_start(set, begin, end,
	    with_work ? work : NULL, NULL, nthreads, TV_PAGES_KEEP);
	struct tv_merge *m = tv_merge_create(set);
	struct tv_pwalk_run run;
	struct tv_strbuf sb;
	struct tv_arena arena;
	struct tv_event ev, got;
	uint64_t bad = 0, k = 0;
	const char *bytes;
	size_t len;

	tv_strbuf_init(&sb);
	tv_arena_init(&arena);
	*n = *runs = 0;
	run.n = 0;
	if (begin != INT64_MIN)
		tv_merge_seek_time(m, begin);
	while (tv_merge_next(m, &ev) == TV_OK && ev.rec.ts <= end) {
		if (k == run.n) {
			if (tv_pwalk_next_run(w, &run) != TV_OK ||
			    run.n == 0) {
				bad++;
				break;
			}
			(*runs)++;
			k = 0;
		}
		(*n)++;
		got.stream = run.stream;
		got.packet = run.packet;
		got.index = run.index + k;
		got.rec = run.recs[k];
		bytes = tv_pwalk_run_bytes(&run, k, &len);
		tv_strbuf_reset(&sb);
		tv_arena_reset(&arena);
		if (with_work)
			(void)tv_event_print(&ev, &arena, &sb, NULL);
		if (tv_event_cmp(&ev, &got) != 0 || len != sb.len ||
		    memcmp(bytes, sb.buf ? sb.buf : "", sb.len) != 0 ||
		    (with_work ? run.flags[k] != flags_of(&ev) :
		    run.flags != NULL)) {
			if (bad++ == 0)
				diag("record %llu differs",
				    (unsigned long long)*n);
		}
		k++;
	}
	if (k < run.n || tv_pwalk_next_run(w, &run) != TV_END) {
		diag("records past the end");
		bad++;
	}
	tv_pwalk_destroy(w);
	tv_arena_fini(&arena);
	tv_strbuf_fini(&sb);
	tv_merge_destroy(m);
	return bad;
}

/*
 * The run tests of @set: with and without work, whole and a window;
 * @longer: some runs hold more than one record.
 */
static void
runs_of(struct tv_trace_set *set, const char *what, bool longer)
{
	int64_t mid = set->ts_begin + (set->ts_end - set->ts_begin) / 3;
	int64_t span = (set->ts_end - set->ts_begin) / 50;
	uint64_t n, all, runs, bad;

	bad = compare_runs(set, INT64_MIN, INT64_MAX, 2, true, &all, &runs);
	ok(bad == 0 && all > 0 && (longer ? runs < all : runs == all),
	    "%s: runs, 2 workers: the "
	    "merger's records, bytes and flags (%llu in %llu runs)", what,
	    (unsigned long long)all, (unsigned long long)runs);
	bad = compare_runs(set, INT64_MIN, INT64_MAX, 3, false, &n, &runs);
	ok(bad == 0 && n == all, "%s: runs, no work: the merger's records, "
	    "no bytes, no flags", what);
	bad = compare_runs(set, mid, mid + span, 2, false, &n, &runs);
	ok(bad == 0 && n > 0 && n < all / 10, "%s: runs, no work, a window "
	    "of 1/50: the same (%llu)", what, (unsigned long long)n);
}

/* A work that fails on every packet's fourth record and on no other. */
static enum tv_status
failing_work(void *arg TV_UNUSED, const struct tv_event *ev,
    struct tv_arena *arena TV_UNUSED, struct tv_strbuf *out,
    uint8_t *flags TV_UNUSED, struct tv_error *err)
{
	if (ev->index != 3)
		return TV_OK;
	tv_strbuf_adds(out, "x");	/* dropped by no one: still shown */
	return tv_error_set(err, TV_CORRUPT, NULL, "record 3");
}

/*
 * The work's failures come with their records, through runs (each
 * run's bad record) to tv_pwalk_next(): record 3 of each packet and no
 * other; *@n records walked.
 */
static uint64_t
failures_reported(struct tv_trace_set *set, uint64_t *n)
{
	struct tv_pwalk *w = tv_pwalk_start(set, INT64_MIN, INT64_MAX,
	    failing_work, NULL, 2, TV_PAGES_KEEP);
	struct tv_pwalk_item it;
	uint64_t bad = 0;

	*n = 0;
	while (tv_pwalk_next(w, &it) == TV_OK) {
		bool fail = it.ev.index == 3;

		(*n)++;
		if ((it.status != TV_OK) != fail || (fail && (it.err == NULL ||
		    strcmp(it.err->msg, "record 3") != 0 ||
		    it.status != TV_CORRUPT))) {
			if (bad++ == 0)
				diag("record %llu of packet %llu: status %d",
				    (unsigned long long)it.ev.index,
				    (unsigned long long)it.ev.packet,
				    it.status);
		}
	}
	tv_pwalk_destroy(w);
	return bad;
}

/* The tests on one trace made by gen-ctf @args. */
static void
run(const char *dir, const char *args)
{
	static const unsigned threads[] = { 1, 2, 3, 8 };
	struct tv_trace_set *set = NULL;
	struct tv_pwalk_item it;
	struct tv_error err;
	struct tv_pwalk *w;
	const char *path = dir;
	uint64_t n, bad, all = 0;
	int64_t mid, span;
	size_t i;
	int k;

	if (!ok(tv_gen_ctf(dir, args), "gen-ctf %s", args) ||
	    !ok(tv_trace_set_open(&set, &path, 1, tv_format_registry(),
	    &err) == TV_OK && set != NULL, "open %s", args))
		return;
	mid = set->ts_begin + (set->ts_end - set->ts_begin) / 3;
	span = (set->ts_end - set->ts_begin) / 50;
	for (i = 0; i < TV_ARRAY_SIZE(threads); i++) {
		bad = compare(set, INT64_MIN, INT64_MAX, threads[i], &n);
		if (i == 0)
			all = n;
		ok(bad == 0 && n > 0 && n == all, "%s: %u worker(s), whole "
		    "trace: the merger's records, bytes and flags (%llu)",
		    args, threads[i], (unsigned long long)n);
		bad = compare(set, mid, INT64_MAX, threads[i], &n);
		ok(bad == 0 && n > 0 && n < all, "%s: %u worker(s), from a "
		    "third: the same (%llu)", args, threads[i],
		    (unsigned long long)n);
		bad = compare(set, mid, mid + span, threads[i], &n);
		ok(bad == 0 && n > 0 && n < all / 10, "%s: %u worker(s), a "
		    "window of 1/50 of the span: the same, and no work outside "
		    "it (%llu)", args, threads[i], (unsigned long long)n);
	}
	bad = compare(set, set->ts_end + 1, INT64_MAX, 2, &n);
	ok(bad == 0 && n == 0, "%s: from after the end: nothing", args);
	/* left half-way, with the workers ahead: no leak, no hang */
	w = tv_pwalk_start(set, INT64_MIN, INT64_MAX, work, NULL, 4,
	    TV_PAGES_SEQUENTIAL);
	for (k = 0; k < 1000 && tv_pwalk_next(w, &it) == TV_OK; k++)
		;
	tv_pwalk_destroy(w);
	ok(k == 1000, "%s: a walk destroyed half-way stops", args);
	runs_of(set, args, true);
	bad = failures_reported(set, &n);
	ok(bad == 0 && n == all, "%s: the work's failures come with their "
	    "records, fourth of each packet, and no others", args);
	tv_trace_set_close(set);
}

/*
 * Two traces made alike, opened as one set: every record of one has a
 * twin of the same time in the other, so every step of the merge is a
 * tie, which the stream ordinal settles: every run is one record (a
 * run must not swallow the twin's record).
 */
static void
twins(const char *dir)
{
	char a[96], b[96];
	const char *paths[2] = { a, b };
	struct tv_trace_set *set = NULL;
	struct tv_error err;
	uint64_t n, bad;

	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	if (!ok(tv_gen_ctf(a, "--cpus 2 --events 4000 --seed 4 "
	    "--packet-size 4096") && tv_gen_ctf(b, "--cpus 2 --events 4000 "
	    "--seed 4 --packet-size 4096"), "gen-ctf twins") ||
	    !ok(tv_trace_set_open(&set, paths, 2, tv_format_registry(),
	    &err) == TV_OK && set != NULL, "open twins"))
		return;
	bad = compare(set, INT64_MIN, INT64_MAX, 2, &n);
	ok(bad == 0 && n == 8000, "twins: records, the merger's order of "
	    "ties (%llu)", (unsigned long long)n);
	runs_of(set, "twins", false);
	tv_trace_set_close(set);
}

int
main(void)
{
	char dir[64];

	snprintf(dir, sizeof(dir), "test-pwalk.%ld.d", (long)getpid());
	tv_plan(0);
	/* small packets: many units, several of one stream at once */
	run(dir, "--cpus 4 --events 30000 --seed 3 --packet-size 4096");
	/* lost events and packets: records that are not events */
	run(dir, "--cpus 3 --events 20000 --seed 5 --packet-size 8192 "
	    "--discard --seq-gap");
	run(dir, "--cpus 1 --events 5000 --seed 9");
	/* more streams than the sorted array takes: the heap's merge */
	run(dir, "--cpus 20 --events 20000 --seed 11 --packet-size 4096");
	twins(dir);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		(void)system(cmd);
	}
	return tv_done();
}
