/*
 * Whole-trace passes over a trace that grows while they run (issue 15):
 * a gen-ctf trace is copied into a new directory a part at a time, each
 * part cutting packets in the middle, and after each the set is extended
 * and the state pass goes on (tv_state_index_extend).  Checked against a
 * fresh open and a fresh pass over the same bytes: the same events and
 * checkpoints, the same per-class and per-CPU counts, the state at random
 * times equal to a full replay; and the pass walked only the new part
 * and one checkpoint interval, not the trace from its start.  The match
 * pass likewise (tv_pass_extend): every event's verdict there, each
 * asked of the predicate once however often the trace grew.  The
 * statistics walk likewise (tv_stats_walk): at each step up to the
 * settled time, its tables equal one walk's over the same records, and
 * it read only the records new since.
 */
#include "tview/tview.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tview/format.h"
#include "tview/merge.h"
#include "tview/pass.h"
#include "tview/state.h"
#include "tview/stats.h"
#include "tview/trace.h"
#include "../state-eq.h"
#include "../tap.h"

/* Events between checkpoints here: small, so that there are many. */
#define EVERY	1000

static char test_dir[256];

/* Bytes [@from, @to) of @src appended to @dst (made if absent). */
static bool
copy_part(const char *src, const char *dst, off_t from, off_t to)
{
	char buf[8192];
	ssize_t n;
	int in, out;
	bool good = true;

	in = open(src, O_RDONLY);
	out = open(dst, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (in < 0 || out < 0 || lseek(in, from, SEEK_SET) != from)
		good = false;
	while (good && from < to) {
		n = read(in, buf, (size_t)TV_MIN((off_t)sizeof(buf),
		    to - from));
		if (n <= 0 || write(out, buf, (size_t)n) != n)
			good = false;
		from += n;
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return good;
}

/* The stream files of a gen-ctf trace of @cpus CPUs. */
static const char *const files[] = {
	"channel0_0", "channel0_1", "channel0_2",
};

/*
 * Grow @dst to @frac of every stream of @src (CPU 2 to @frac2: a CPU
 * whose buffer lags, as LTTng's consumer flushes each on its own).
 */
static bool
grow(const char *src, const char *dst, double frac, double frac2)
{
	char a[400], b[400];
	struct stat sa, sb;
	size_t i;
	off_t want;

	for (i = 0; i < TV_ARRAY_SIZE(files); i++) {
		snprintf(a, sizeof(a), "%s/%s", src, files[i]);
		snprintf(b, sizeof(b), "%s/%s", dst, files[i]);
		if (stat(a, &sa) != 0)
			return false;
		if (stat(b, &sb) != 0)
			sb.st_size = 0;
		want = (off_t)((double)sa.st_size * (i == 2 ? frac2 : frac));
		if (want > sb.st_size && !copy_part(a, b, sb.st_size, want))
			return false;
	}
	return true;
}

/* Open @path as a set of traces still being written. */
static struct tv_trace_set *
open_live(const char *path)
{
	struct tv_trace_set *set = NULL;
	struct tv_error err;

	tv_error_clear(&err);
	if (tv_trace_set_open_live(&set, &path, 1, tv_format_registry(),
	    &err) != TV_OK || set == NULL || set->ntraces == 0) {
		diag("cannot open %s: %s", path, err.msg);
		if (set != NULL)
			tv_trace_set_close(set);
		return NULL;
	}
	return set;
}

/*
 * @dir, empty but for @src's metadata: where a trace grows (made again
 * if it was there).
 */
static bool
fresh_dir(const char *src, const char *dir)
{
	char cmd[1300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir '%s' && "
	    "cp '%s/metadata' '%s/'", dir, dir, src, dir);
	return system(cmd) == 0;
}

/* Wait for the pass of @idx to end (a minute at most). */
static bool
wait_done(struct tv_state_index *idx)
{
	bool done = false;
	int i;

	for (i = 0; i < 60000 && !done; i++) {
		(void)tv_state_index_progress(idx, &done);
		if (!done)
			usleep(1000);
	}
	return done;
}

/* Compare what @idx over the grown @set says with a fresh pass. */
static void
check_against_fresh(const char *what, struct tv_trace_set *set,
    struct tv_state_index *idx, const char *dir)
{
	struct tv_trace_set *fresh = open_live(dir);
	struct tv_state_index *fidx;
	struct tv_state *a, *b;
	uint64_t r = 99, bad = 0;
	uint32_t j;
	int64_t ts;
	int cpu, i;

	if (!ok(fresh != NULL, "%s: a fresh open", what))
		return;
	fidx = tv_state_index_create(fresh, EVERY);
	(void)tv_state_index_run(fidx, false, NULL);
	is_int((int64_t)tv_state_index_events(idx),
	    (int64_t)tv_state_index_events(fidx), "%s: events = a fresh "
	    "pass's (%llu)", what,
	    (unsigned long long)tv_state_index_events(fidx));
	is_int((int64_t)tv_state_index_checkpoints(idx),
	    (int64_t)tv_state_index_checkpoints(fidx), "%s: checkpoints "
	    "= a fresh pass's", what);
	for (cpu = 0; cpu < 3; cpu++)
		if (tv_state_index_cpu_events(idx, cpu) !=
		    tv_state_index_cpu_events(fidx, cpu))
			bad++;
	for (j = 0; j < fresh->traces[0]->nclasses &&
	    j < set->traces[0]->nclasses; j++)
		if (set->traces[0]->classes[j]->count !=
		    fresh->traces[0]->classes[j]->count)
			bad++;
	is_int((int64_t)bad, 0, "%s: per-CPU and per-class counts = a "
	    "fresh pass's", what);
	a = tv_state_create(set);
	b = tv_state_create(set);
	for (i = 0, bad = 0; i < 25; i++) {
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		ts = set->ts_begin + (int64_t)((r >> 11) %
		    (uint64_t)(set->ts_end - set->ts_begin + 1));
		if (i == 0)
			ts = set->ts_end;
		tv_state_at(idx, ts, a, NULL);
		tv_test_replay_to(set, ts, b);
		if (!tv_test_states_equal(a, b)) {
			diag("%s: state at %lld differs", what,
			    (long long)ts);
			bad++;
		}
	}
	is_int((int64_t)bad, 0, "%s: state at 25 times = a full replay",
	    what);
	tv_state_destroy(a);
	tv_state_destroy(b);
	tv_state_index_destroy(fidx);
	tv_trace_set_close(fresh);
}

/* One growth step: extend the set, go on with the pass, check. */
static void
step(const char *what, const char *src, const char *dir,
    struct tv_trace_set *set, struct tv_state_index *idx, double frac,
    double frac2, uint64_t *max_walk)
{
	struct tv_error err;
	uint64_t before = tv_state_index_events(idx);
	bool grew = false;

	tv_state_index_stop(idx);
	if (!ok(grow(src, dir, frac, frac2), "%s: the files grow", what))
		return;
	tv_error_clear(&err);
	(void)tv_trace_set_extend(set, frac < 1.0 ? TV_OPEN_FOLLOW : 0,
	    &grew, &err);
	ok(grew, "%s: the set grew", what);
	ok(tv_state_index_extend(idx, NULL) == TV_OK && wait_done(idx),
	    "%s: the pass goes on and ends", what);
	*max_walk = tv_state_index_events(idx) - before;
	check_against_fresh(what, set, idx, dir);
}

/*
 * A pass loaded from the cache file has no carry: when the trace grows
 * it starts over, and is right.  Grows @dir's copy of @src to 40%.
 */
static void
test_from_cache(const char *src, const char *dir)
{
	struct tv_trace_set *set = open_live(dir);
	struct tv_state_index *idx;
	struct tv_error err;
	bool grew = false;

	if (!ok(set != NULL, "cache: opened"))
		return;
	idx = tv_state_index_create(set, EVERY);
	(void)tv_state_index_run(idx, true, NULL);	/* writes the cache */
	tv_state_index_destroy(idx);
	idx = tv_state_index_create(set, EVERY);
	ok(tv_state_index_start(idx, true, NULL) == TV_OK &&
	    wait_done(idx) && tv_state_index_from_cache(idx),
	    "cache: the pass comes from the cache file");
	tv_state_index_stop(idx);
	tv_error_clear(&err);
	if (ok(grow(src, dir, 0.40, 0.40), "cache: the files grow")) {
		(void)tv_trace_set_extend(set, TV_OPEN_FOLLOW, &grew, &err);
		ok(grew && tv_state_index_extend(idx, NULL) == TV_OK &&
		    wait_done(idx), "cache: the pass starts over and ends");
		check_against_fresh("cache, 40%", set, idx, dir);
	}
	tv_state_index_destroy(idx);
	tv_trace_set_close(set);
}

/* The state pass over a trace written while it runs. */
static void
test_state_follow(void)
{
	struct tv_trace_set *set;
	struct tv_state_index *idx;
	char src[300], dir[300], path[400];
	uint64_t added, walked, total;

	snprintf(src, sizeof(src), "%s/src", test_dir);
	snprintf(dir, sizeof(dir), "%s/grow", test_dir);
	if (!ok(tv_gen_ctf(src, "--cpus 3 --events 120000 --seed 21 "
	    "--packet-size 4096"), "gen-ctf"))
		return;
	if (!ok(fresh_dir(src, dir), "the growing trace's directory"))
		return;
	/* a first part, every stream cut at the same share of its bytes */
	if (!ok(grow(src, dir, 0.30, 0.30), "the first part"))
		return;
	set = open_live(dir);
	if (!ok(set != NULL, "opened while written"))
		return;
	idx = tv_state_index_create(set, EVERY);
	ok(tv_state_index_start(idx, false, NULL) == TV_OK &&
	    wait_done(idx), "the first pass ends");
	check_against_fresh("30%", set, idx, dir);
	test_from_cache(src, dir);

	/*
	 * Every stream grows (CPU 2 less: it lags from now on): walked are
	 * the new part, the last checkpoint interval before it, and the
	 * events of the other CPUs between the first new one and the end of
	 * the old part (the streams' shares of bytes are not quite the same
	 * time): a quarter more at most.
	 */
	step("55%", src, dir, set, idx, 0.55, 0.45, &added);
	walked = tv_state_index_walked(idx);
	total = tv_state_index_events(idx);
	ok(walked < total / 2 && walked <= added + added / 4 + 2 * EVERY,
	    "55%%: the pass walked %llu records of %llu (%llu new), not "
	    "the whole trace", (unsigned long long)walked,
	    (unsigned long long)total, (unsigned long long)added);
	/* only the lagging CPU grows: walked again from its last event */
	step("CPU 2 catches up", src, dir, set, idx, 0.55, 0.55, &added);
	walked = tv_state_index_walked(idx);
	ok(walked < tv_state_index_events(idx),
	    "CPU 2 catches up: walked %llu of %llu",
	    (unsigned long long)walked,
	    (unsigned long long)tv_state_index_events(idx));
	/* stopped half way, then the trace grows: goes on from there */
	tv_state_index_stop(idx);
	(void)tv_state_index_extend(idx, NULL);
	usleep(2000);
	step("stopped mid-walk, then 80%", src, dir, set, idx, 0.80, 0.80,
	    &added);
	/* the writer is done: the last look */
	step("the end", src, dir, set, idx, 1.0, 1.0, &added);
	snprintf(path, sizeof(path), "%s", src);
	check_against_fresh("the original", set, idx, path);
	tv_state_index_destroy(idx);
	tv_trace_set_close(set);
}

/* The match pass's predicate: every third class; calls counted. */
static bool
every_third(void *arg, const struct tv_event *ev,
    const struct tv_event_owner *o TV_UNUSED, struct tv_arena *a TV_UNUSED)
{
	__atomic_add_fetch((uint64_t *)arg, 1, __ATOMIC_RELAXED);
	return ev->rec.class_index % 3 == 0;
}

/* Wait for @p to be done (a minute at most); its events seen. */
static bool
pass_wait(const struct tv_pass *p, uint64_t *seen)
{
	uint64_t kept;
	bool done = false;
	int i;

	for (i = 0; i < 60000 && !done; i++) {
		(void)tv_pass_progress(p, &kept, seen, &done);
		if (!done)
			usleep(1000);
	}
	return done;
}

/* Whether every event of @set has the pass's verdict the predicate gives. */
static uint64_t
pass_wrong(struct tv_trace_set *set, const struct tv_pass *p,
    uint64_t *events)
{
	struct tv_merge *m = tv_merge_create(set);
	struct tv_event ev;
	uint64_t bad = 0;
	bool keep;

	*events = 0;
	tv_merge_seek_begin(m);
	while (tv_merge_next(m, &ev) == TV_OK) {
		if (ev.rec.kind != TV_REC_EVENT)
			continue;
		(*events)++;
		if (!tv_pass_keeps(p, &ev, &keep) ||
		    keep != (ev.rec.class_index % 3 == 0))
			bad++;
	}
	tv_merge_destroy(m);
	return bad;
}

/* The match pass over a trace written while it runs. */
static void
test_pass_follow(void)
{
	static const double parts[] = { 0.25, 0.5, 0.75, 1.0 };
	struct tv_trace_set *set;
	struct tv_pass *p;
	struct tv_error err;
	char src[300], dir[300];
	uint64_t calls = 0, before, seen, events, bad;
	bool grew;
	size_t i;

	snprintf(src, sizeof(src), "%s/src", test_dir);
	snprintf(dir, sizeof(dir), "%s/grow-pass", test_dir);
	if (!ok(fresh_dir(src, dir) && grow(src, dir, parts[0], parts[0]),
	    "match pass: the first part"))
		return;
	set = open_live(dir);
	if (!ok(set != NULL, "match pass: opened while written"))
		return;
	p = tv_pass_start(set, false, every_third, &calls, 0);
	ok(pass_wait(p, &seen), "match pass: the first pass ends");
	for (i = 1; i < TV_ARRAY_SIZE(parts); i++) {
		before = seen;
		tv_pass_stop(p);
		grow(src, dir, parts[i], parts[i]);
		tv_error_clear(&err);
		grew = false;
		(void)tv_trace_set_extend(set, parts[i] < 1.0 ?
		    TV_OPEN_FOLLOW : 0, &grew, &err);
		calls = 0;
		tv_pass_extend(p);
		ok(grew && pass_wait(p, &seen), "match pass, %.0f%%: goes "
		    "on and ends", parts[i] * 100);
		bad = pass_wrong(set, p, &events);
		is_int((int64_t)bad, 0, "match pass, %.0f%%: every event of "
		    "%llu has its verdict", parts[i] * 100,
		    (unsigned long long)events);
		is_int((int64_t)seen, (int64_t)events, "match pass, %.0f%%: "
		    "each event seen once", parts[i] * 100);
		is_int((int64_t)calls, (int64_t)(seen - before), "match pass, "
		    "%.0f%%: the predicate asked only of the %llu new events",
		    parts[i] * 100, (unsigned long long)(seen - before));
	}
	tv_pass_destroy(p);
	tv_trace_set_close(set);
}

/* Two rows' figures, names aside; 0 when equal. */
static int
row_diff(const struct tv_time_row *a, const struct tv_time_row *b)
{
	return a->machine != b->machine || a->tid != b->tid ||
	    a->pid != b->pid || a->cpu != b->cpu || a->events != b->events ||
	    memcmp(a->ns, b->ns, sizeof(a->ns)) != 0 ||
	    a->idle_ns != b->idle_ns || a->unknown_ns != b->unknown_ns ||
	    strcmp(a->name, b->name) != 0;
}

/* Two series' figures and longest instances; 0 when equal. */
static int
series_diff(const struct tv_lat_series *a, const struct tv_lat_series *b)
{
	uint32_t i;

	if (strcmp(a->name, b->name) != 0 || a->count != b->count ||
	    a->min != b->min || a->max != b->max || a->total != b->total ||
	    a->p50 != b->p50 || a->p99 != b->p99 || a->ntop != b->ntop)
		return 1;
	for (i = 0; i < a->ntop; i++)
		if (a->top[i].ts != b->top[i].ts ||
		    a->top[i].dur != b->top[i].dur ||
		    a->top[i].tid != b->top[i].tid)
			return 1;
	return 0;
}

/*
 * Differences between the tables of @a and @b, said with @what; the
 * number of latency instances in @a is added to *@lat.
 */
static int
stats_diff(const char *what, const struct tv_stats *a,
    const struct tv_stats *b, uint64_t *lat)
{
	const struct tv_class_count *ca, *cb;
	const struct tv_time_row *ra, *rb;
	const struct tv_lat_series *sa, *sb;
	uint64_t ea, la, eb, lb;
	int64_t ba, xa, bb, xb;
	size_t na, nb, i;
	int bad = 0, k;

	tv_stats_totals(a, &ea, &la, &ba, &xa);
	tv_stats_totals(b, &eb, &lb, &bb, &xb);
	if (ea != eb || la != lb) {
		diag("%s: %llu events, %llu lost; one walk %llu, %llu", what,
		    (unsigned long long)ea, (unsigned long long)la,
		    (unsigned long long)eb, (unsigned long long)lb);
		bad++;
	}
	ca = tv_stats_classes(a, &na);
	cb = tv_stats_classes(b, &nb);
	for (i = 0; i < na && na == nb; i++)
		bad += strcmp(ca[i].name, cb[i].name) != 0 ||
		    ca[i].count != cb[i].count;
	bad += na != nb;
	ra = tv_stats_cpus(a, &na);
	rb = tv_stats_cpus(b, &nb);
	for (i = 0; i < na && na == nb; i++)
		bad += row_diff(&ra[i], &rb[i]);
	bad += na != nb;
	ra = tv_stats_threads(a, &na);
	rb = tv_stats_threads(b, &nb);
	for (i = 0; i < na && na == nb; i++)
		bad += row_diff(&ra[i], &rb[i]);
	if (na != nb)
		diag("%s: %zu thread rows; one walk %zu", what, na, nb);
	bad += na != nb;
	for (k = 0; k < TV_LAT_COUNT; k++) {
		sa = tv_stats_latency(a, (enum tv_lat_kind)k, &na);
		sb = tv_stats_latency(b, (enum tv_lat_kind)k, &nb);
		for (i = 0; i < na && na == nb; i++)
			bad += series_diff(&sa[i], &sb[i]);
		bad += na != nb;
		if (na > 0)
			*lat += sa[0].count;
	}
	return bad;
}

/*
 * The statistics walk over a trace written while it runs, over the
 * whole trace and over a range inside it: at each step it goes on up
 * to the settled time and equals one walk of the same records.
 */
static void
test_stats_follow(void)
{
	/*
	 * CPU 2 lags far behind at steps 1 and 2: the others are past the
	 * range's end (70%) while it is not, so the range is not done.
	 */
	static const struct { double frac, frac2; } parts[] = {
		{ 0.30, 0.30 }, { 0.80, 0.45 }, { 0.80, 0.60 }, { 0.90, 0.90 },
		{ 1.0, 1.0 },
	};
	struct tv_trace_set *set, *orig;
	struct tv_stats *st, *ranged, *fresh;
	struct tv_error err;
	char src[300], dir[300];
	uint64_t lat, before, walked, total;
	int64_t until, rb = 0, re = 0;
	volatile bool stop = true;
	bool grew;
	int bad;
	size_t i;

	snprintf(src, sizeof(src), "%s/src", test_dir);
	snprintf(dir, sizeof(dir), "%s/grow-stats", test_dir);
	orig = open_live(src);
	if (!ok(orig != NULL && fresh_dir(src, dir) &&
	    grow(src, dir, parts[0].frac, parts[0].frac2),
	    "statistics: the first part"))
		return;
	/* a range from 20% to 70% of the whole trace's time */
	rb = orig->ts_begin + (orig->ts_end - orig->ts_begin) / 5;
	re = orig->ts_begin + (orig->ts_end - orig->ts_begin) / 10 * 7;
	set = open_live(dir);
	if (!ok(set != NULL, "statistics: opened while written"))
		return;
	st = tv_stats_create(set);
	ranged = tv_stats_create(set);
	tv_stats_set_range(ranged, rb, re);
	for (i = 0; i < TV_ARRAY_SIZE(parts); i++) {
		if (i > 0) {
			grow(src, dir, parts[i].frac, parts[i].frac2);
			tv_error_clear(&err);
			grew = false;
			(void)tv_trace_set_extend(set, parts[i].frac < 1.0 ?
			    TV_OPEN_FOLLOW : 0, &grew, &err);
			ok(grew, "statistics, step %zu: the set grew", i);
		}
		until = i + 1 < TV_ARRAY_SIZE(parts) ?
		    tv_trace_set_settled(set) : INT64_MAX;
		if (i == 3) {
			/* cancelled at its first poll: the next goes on */
			is_int(tv_stats_walk(st, until, &stop, NULL),
			    TV_CANCELLED, "statistics, step 3: cancelled");
		}
		before = i > 0 ? total : 0;
		tv_stats_walk(st, until, NULL, NULL);
		tv_stats_walk(ranged, until, NULL, NULL);
		walked = tv_stats_walked(st);
		fresh = tv_stats_create(set);
		tv_stats_walk(fresh, until, NULL, NULL);
		tv_stats_totals(fresh, &total, &lat, &until, &until);
		lat = 0;
		bad = stats_diff("whole", st, fresh, &lat);
		is_int(bad, 0, "statistics, "
		    "step %zu: the tables equal one walk's (%llu events, "
		    "%llu latencies)", i, (unsigned long long)total,
		    (unsigned long long)lat);
		if (i > 0 && i < 3)
			ok(walked < total / 2 && walked <= total - before +
			    (total - before) / 4 + 4096, "statistics, step "
			    "%zu: walked %llu records for %llu new", i,
			    (unsigned long long)walked,
			    (unsigned long long)(total - before));
		tv_stats_destroy(fresh);
		fresh = tv_stats_create(set);
		tv_stats_set_range(fresh, rb, re);
		tv_stats_walk(fresh, i + 1 < TV_ARRAY_SIZE(parts) ?
		    tv_trace_set_settled(set) : INT64_MAX, NULL, NULL);
		lat = 0;
		is_int(stats_diff("range", ranged, fresh, &lat), 0,
		    "statistics, step %zu: a range's tables equal one "
		    "walk's", i);
		tv_stats_destroy(fresh);
	}
	/* the end: what one walk of the whole trace says */
	fresh = tv_stats_create(orig);
	(void)tv_stats_run(fresh, TV_TIME_NONE, TV_TIME_NONE, NULL, NULL);
	lat = 0;
	bad = stats_diff("the original", st, fresh, &lat);
	is_int(bad, 0,
	    "statistics: at the end, the tables equal the written trace's "
	    "(%llu latencies)", (unsigned long long)lat);
	ok(lat > 1000, "statistics: the trace has latencies to compare");
	tv_stats_destroy(fresh);
	tv_stats_destroy(st);
	tv_stats_destroy(ranged);
	tv_trace_set_close(set);
	tv_trace_set_close(orig);
}

/* The first 150,000 bytes of CPU @cpu's stream file of @src into @dst. */
static bool
copy_cpu(const char *src, const char *dst, size_t cpu)
{
	char a[400], b[400];

	snprintf(a, sizeof(a), "%s/%s", src, files[cpu]);
	snprintf(b, sizeof(b), "%s/%s", dst, files[cpu]);
	return copy_part(a, b, 0, 150000);
}

/*
 * A stream file that appears after the statistics walked (a CPU whose
 * first packet comes late, an application's buffers): its records lie
 * before where the walk stopped, and the walk starts over to take them.
 */
static void
test_stats_new_stream(void)
{
	struct tv_trace_set *set;
	struct tv_stats *st, *fresh;
	struct tv_error err;
	char src[300], dir[300];
	uint64_t lat = 0, n;
	int64_t t1, t2;
	bool grew = false;
	int bad;

	snprintf(src, sizeof(src), "%s/src", test_dir);
	snprintf(dir, sizeof(dir), "%s/grow-stats-new", test_dir);
	if (!ok(fresh_dir(src, dir) && copy_cpu(src, dir, 0) &&
	    copy_cpu(src, dir, 1), "new stream: two of three CPUs"))
		return;
	set = open_live(dir);
	if (!ok(set != NULL, "new stream: opened"))
		return;
	st = tv_stats_create(set);
	(void)tv_stats_walk(st, tv_trace_set_settled(set), NULL, NULL);
	tv_stats_totals(st, &n, &lat, &t1, &t1);
	t1 = tv_stats_counted_to(st);
	tv_error_clear(&err);
	ok(copy_cpu(src, dir, 2) && tv_trace_set_extend(set, TV_OPEN_FOLLOW,
	    &grew, &err) == TV_OK && grew && set->nstreams == 3,
	    "new stream: the third CPU's file appears");
	t2 = tv_trace_set_settled(set);
	(void)tv_stats_walk(st, t2, NULL, NULL);
	fresh = tv_stats_create(set);
	(void)tv_stats_walk(fresh, t2, NULL, NULL);
	lat = 0;
	bad = stats_diff("new stream", st, fresh, &lat);
	is_int(bad, 0, "new stream: the tables equal one walk's (%llu "
	    "events before, counted to %lld then %lld)", (unsigned long long)n,
	    (long long)t1, (long long)t2);
	tv_stats_destroy(fresh);
	tv_stats_destroy(st);
	tv_trace_set_close(set);
}

/* A scratch directory (also the cache home), every group. */
int
main(void)
{
	char cmd[300];

	snprintf(test_dir, sizeof(test_dir), "/tmp/tview-test-follow.%ld",
	    (long)getpid());
	mkdir(test_dir, 0700);
	setenv("XDG_CACHE_HOME", test_dir, 1);
	unsetenv("TVIEW_CACHE");
	test_state_follow();
	test_pass_follow();
	test_stats_follow();
	test_stats_new_stream();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", test_dir);
	(void)system(cmd);
	return tv_done();
}
