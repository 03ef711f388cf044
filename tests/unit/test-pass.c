/*
 * The background match pass (tview/pass.h) on gen-ctf traces: its
 * bitmaps and counts equal a plain walk of the merged timeline asking
 * the filter at every event, whatever the number of workers (the order
 * the workers run in must not show), with and without the process state
 * (pid ==), and a pass destroyed while it runs stops cleanly.  The
 * density strip through a pass (density.h) counts exactly the kept
 * events, from the bitmaps (a small trace) or the per-packet counts (a
 * trace past TV_DENSITY_EXACT_BYTES), and says partial while the pass
 * has not reached every packet.  Built
 * with --enable-tsan this is the ThreadSanitizer check of the pool.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tview/density.h"
#include "tview/filter.h"
#include "tview/format.h"
#include "tview/merge.h"
#include "tview/owner.h"
#include "tview/pass.h"
#include "tview/state.h"
#include "tview/trace.h"
#include "../tap.h"

/* The predicate of the tests: one compiled filter. */
static bool
pred(void *arg, const struct tv_event *ev, const struct tv_event_owner *o,
    struct tv_arena *arena)
{
	const struct tv_filter *f = arg;

	if (tv_filter_verdict(f, ev) == TV_FILTER_NEVER)
		return false;
	return tv_filter_match(f, ev, o, arena);
}

/* Wait for @p to end; its counts. */
static void
wait_pass(struct tv_pass *p, uint64_t *kept, uint64_t *seen)
{
	bool done = false;

	while (tv_pass_progress(p, kept, seen, &done), !done)
		usleep(2000);
}

/*
 * Compare @p with a walk asking @f at every event: mismatches counted,
 * *kept the events the walk keeps.
 */
static uint64_t
compare(struct tv_trace_set *set, struct tv_pass *p,
    const struct tv_filter *f, uint64_t *kept)
{
	struct tv_merge *m = tv_merge_create(set);
	struct tv_state *st = tv_state_create(set);
	struct tv_event_owner o;
	struct tv_arena arena;
	struct tv_event ev;
	uint64_t bad = 0;
	bool want, got = false, known;

	*kept = 0;
	tv_arena_init(&arena);
	tv_merge_seek_begin(m);
	while (tv_merge_next(m, &ev) == TV_OK) {
		(void)tv_state_apply(st, &ev, &o, NULL);
		if (ev.rec.kind != TV_REC_EVENT)
			continue;
		tv_arena_reset(&arena);
		want = pred((void *)f, &ev,
		    tv_filter_needs_state(f) ? &o : NULL, &arena);
		*kept += want;
		known = tv_pass_keeps(p, &ev, &got);
		bad += !known || got != want;
	}
	tv_arena_fini(&arena);
	tv_state_destroy(st);
	tv_merge_destroy(m);
	return bad;
}

/*
 * Whether every packet's kept count (tv_pass_kept) is the number of
 * event bits set in its bitmap; *@sum their total.
 */
static bool
packet_counts(struct tv_trace_set *set, struct tv_pass *p, uint64_t *sum)
{
	struct tv_merge *m = tv_merge_create(set);
	struct tv_event ev;
	uint64_t **n = tv_xcalloc(set->nstreams + 1, sizeof(*n));
	uint64_t k, c;
	uint32_t s;
	bool good = true;

	for (s = 0; s < set->nstreams; s++)
		n[s] = tv_xcalloc(set->streams[s]->npackets + 1,
		    sizeof(**n));
	tv_merge_seek_begin(m);
	while (tv_merge_next(m, &ev) == TV_OK) {
		bool keep;

		if (ev.rec.kind == TV_REC_EVENT &&
		    tv_pass_keeps(p, &ev, &keep) && keep)
			n[ev.stream->ordinal][ev.packet]++;
	}
	*sum = 0;
	for (s = 0; s < set->nstreams; s++) {
		for (k = 0; k < set->streams[s]->npackets; k++) {
			if (!tv_pass_kept(p, set->streams[s], k, &c) ||
			    c != n[s][k])
				good = false;
			*sum += c;
		}
		free(n[s]);
	}
	free(n);
	tv_merge_destroy(m);
	return good;
}

/* One filter, passes with 1, 2 and 4 workers. */
static void
check_filter(struct tv_trace_set *set, const char *text)
{
	static const unsigned threads[] = { 1, 2, 4 };
	struct tv_time_ctx tctx = { set->ts_begin, set->ts_end,
	    set->ts_begin, false };
	struct tv_filter *f = NULL;
	struct tv_error err;
	struct tv_pass *p;
	uint64_t kept, seen, want;
	size_t i;

	if (!ok(tv_filter_compile(text, set, &tctx, &f, &err) == TV_OK,
	    "compile '%s'", text)) {
		diag("%s", err.msg);
		return;
	}
	for (i = 0; i < TV_ARRAY_SIZE(threads); i++) {
		p = tv_pass_start(set, tv_filter_needs_state(f), pred, f,
		    threads[i]);
		wait_pass(p, &kept, &seen);
		is_int(compare(set, p, f, &want), 0, "'%s', %u workers: "
		    "every bit is the filter's answer", text, threads[i]);
		is_int(kept, want, "'%s', %u workers: kept count", text,
		    threads[i]);
		ok(packet_counts(set, p, &kept) && kept == want, "'%s', %u "
		    "workers: each packet's kept count is its bits", text,
		    threads[i]);
		ok(want > 0 && want < seen, "'%s': keeps some, not all "
		    "(%llu of %llu)", text, (unsigned long long)want,
		    (unsigned long long)seen);
		tv_pass_destroy(p);
	}
	/* destroyed while it runs: stops, no race, no leak */
	p = tv_pass_start(set, tv_filter_needs_state(f), pred, f, 2);
	tv_pass_destroy(p);
	ok(true, "'%s': a pass destroyed while running stops", text);
	tv_filter_destroy(f);
}

/* A predicate that stops after its first @limit calls until opened. */
struct gate {
	const struct tv_filter	*f;
	uint64_t		 limit;
	uint64_t		 calls;		/* atomic */
	int			 open;		/* atomic */
};

static bool
gated(void *arg, const struct tv_event *ev, const struct tv_event_owner *o,
    struct tv_arena *arena)
{
	struct gate *g = arg;

	if (__atomic_add_fetch(&g->calls, 1, __ATOMIC_RELAXED) > g->limit)
		while (!__atomic_load_n(&g->open, __ATOMIC_ACQUIRE))
			usleep(200);
	return pred((void *)g->f, ev, o, arena);
}

/* The density of the whole trace through @p: the sum of its columns. */
static double
density_sum(struct tv_trace_set *set, const struct tv_pass *p,
    bool *estimated, bool *partial)
{
	struct tv_density *d = NULL;
	struct tv_error err;
	double sum = 0.0;
	uint32_t c;

	if (tv_density_build(set, set->ts_begin, set->ts_end + 1, 64, p,
	    NULL, &d, &err) != TV_OK)
		return -1.0;
	for (c = 0; c < d->ncols; c++)
		sum += d->cols[c];
	*estimated = d->estimated;
	*partial = d->partial;
	tv_density_destroy(d);
	return sum;
}

/*
 * The strip through a pass of @text: partial while the pass waits at
 * its gate, near the kept events, then exactly them; @estimated: which way it must
 * have counted.
 */
static void
check_density(struct tv_trace_set *set, const char *text, bool estimated)
{
	struct tv_time_ctx tctx = { set->ts_begin, set->ts_end,
	    set->ts_begin, false };
	struct gate g = { NULL, 0, 0, 0 };
	struct tv_filter *f = NULL;
	struct tv_error err;
	struct tv_pass *p;
	uint64_t kept, seen, want;
	bool est, partial;
	double sum, tol;

	if (!ok(tv_filter_compile(text, set, &tctx, &f, &err) == TV_OK,
	    "compile '%s'", text))
		return;
	g.f = f;
	/* a quarter of the events: some packets done, most not */
	g.limit = estimated ? 100000 : 10000;
	p = tv_pass_start(set, false, gated, &g, 1);
	while (__atomic_load_n(&g.calls, __ATOMIC_RELAXED) <= g.limit)
		usleep(200);
	sum = density_sum(set, p, &est, &partial);
	ok(partial, "density '%s': partial while the pass runs", text);
	__atomic_store_n(&g.open, 1, __ATOMIC_RELEASE);
	wait_pass(p, &kept, &seen);
	is_int(compare(set, p, f, &want), 0, "density '%s': the pass is "
	    "done", text);
	/* the packets not reached were weighed by the share kept so far */
	ok(sum > (double)want / 2 && sum < (double)want * 2, "density '%s': "
	    "the partial strip estimates the kept events (%.1f, %llu)", text,
	    sum, (unsigned long long)want);
	sum = density_sum(set, p, &est, &partial);
	ok(!partial && est == estimated, "density '%s': complete, %s",
	    text, estimated ? "from the packet counts" : "record by record");
	/*
	 * Estimated, a packet's time span may run past the last event,
	 * out of the window: a little of its weight falls outside.
	 */
	tol = estimated ? (double)want / 1000.0 : 0.5;
	ok(sum > (double)want - tol && sum < (double)want + 0.5, "density "
	    "'%s': the columns add up to the kept events (%.1f, %llu)",
	    text, sum, (unsigned long long)want);
	ok(want > 0 && want < seen, "density '%s': keeps some, not all",
	    text);
	tv_pass_destroy(p);
	tv_filter_destroy(f);
}

/* A second, larger trace for the estimated strip. */
static void
check_big(const char *dir)
{
	const char *path = dir;
	struct tv_trace_set *set = NULL;
	struct tv_error err;

	if (!ok(tv_gen_ctf(dir, "--cpus 4 --events 400000 --seed 8"),
	    "gen-ctf (large)"))
		return;
	if (ok(tv_trace_set_open(&set, &path, 1, tv_format_registry(),
	    &err) == TV_OK && set != NULL, "open (large)"))
		check_density(set, "sched_switch", true);
	tv_trace_set_close(set);
}

int
main(void)
{
	char dir[256];
	const char *path = dir;
	struct tv_trace_set *set = NULL;
	struct tv_error err;

	snprintf(dir, sizeof(dir), "/tmp/tview-test-pass.%ld",
	    (long)getpid());
	if (!ok(tv_gen_ctf(dir, "--cpus 4 --events 40000 --seed 7 "
	    "--packet-size 4096"), "gen-ctf")) {
		return tv_done();
	}
	if (!ok(tv_trace_set_open(&set, &path, 1, tv_format_registry(),
	    &err) == TV_OK && set != NULL, "open")) {
		diag("%s", err.msg);
		return tv_done();
	}
	check_filter(set, "sched_switch: prev_tid > 100");
	check_filter(set, "sched_wakeup: cpu == 2 || prio < 100");
	check_filter(set, "pid == 1");
	check_density(set, "sched_wakeup: cpu == 2 || prio < 100", false);
	tv_trace_set_close(set);
	check_big(dir);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		(void)system(cmd);
	}
	return tv_done();
}
