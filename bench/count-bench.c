/*
 * count-bench: one pass over the whole merged timeline, counting events,
 * discarded-event and lost-packet records; with --decode also decodes
 * every event's fields (what a full-text search does), the fair match
 * for babeltrace2's counter sink, which decodes everything: the event's
 * own scopes for every event, the packet scopes once per packet (with
 * the packet's first record), as babeltrace2 does.  The pass
 * is tview's: the ordered parallel walk (tview/pwalk.h, one worker per
 * core, the decoding on the workers, the records read a run at a time,
 * and no work per record for the header count); --sequential walks with
 * tv_merge_next on one thread, as tview did before it.  It keeps the
 * pages it read mapped, as tview's walks all did when the row was set:
 * giving them back costs 3-7 % here, and what they cost in memory is
 * the dump rows' to show.
 *
 *   count-bench [--sequential] [--threads N] [--decode] TRACE
 */
#include "bench.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tview/pwalk.h"

/* The scopes --decode decodes of @ev: the packet's with its first. */
static unsigned
decode_scopes(const struct tv_event *ev)
{
	return ev->index == 0 ? TV_SCOPES_ALL : TV_SCOPES_EVENT;
}

/* The per-record work of --decode on a worker: decode every field. */
static enum tv_status
decode_work(void *arg TV_UNUSED, const struct tv_event *ev,
    struct tv_arena *arena, struct tv_strbuf *out TV_UNUSED,
    uint8_t *flags TV_UNUSED, struct tv_error *err TV_UNUSED)
{
	struct tv_event_fields f;

	if (ev->rec.kind != TV_REC_EVENT && ev->index != 0)
		return TV_OK;	/* a loss record first decodes the packet's */
	return tv_event_decode_scopes(ev, arena, &f, decode_scopes(ev), NULL);
}

/* The parallel pass: counts[] and the decoding errors in *derr. */
static const struct tv_error *
count_parallel(struct tv_trace_set *set, bool decode, unsigned nthreads,
    uint64_t *counts, uint64_t *derr, struct tv_error *err)
{
	struct tv_pwalk *w = tv_pwalk_start(set, INT64_MIN, INT64_MAX,
	    decode ? decode_work : NULL, NULL, nthreads, TV_PAGES_KEEP);
	struct tv_pwalk_run run;
	uint64_t k;

	while (tv_pwalk_next_run(w, &run) == TV_OK) {
		for (k = 0; k < run.n; k++)
			if (run.recs[k].kind < 3)
				counts[run.recs[k].kind]++;
		*derr += run.status != TV_OK;
	}
	*err = *tv_pwalk_error(w);
	tv_pwalk_destroy(w);
	return err;
}

int
main(int argc, char **argv)
{
	struct tv_trace_set *set;
	struct tv_merge *m;
	struct tv_event ev;
	struct tv_event_fields f;
	struct tv_arena arena;
	uint64_t counts[3] = { 0, 0, 0 }, derr = 0;
	bool decode = false, sequential = false;
	unsigned nthreads = 0;
	const struct tv_error *werr;
	struct tv_error perr;
	int64_t t0, t1;
	char buf[1200];
	int argi = 1;

	for (; argi < argc && argv[argi][0] == '-'; argi++) {
		if (strcmp(argv[argi], "--decode") == 0)
			decode = true;
		else if (strcmp(argv[argi], "--sequential") == 0)
			sequential = true;
		else if (strcmp(argv[argi], "--threads") == 0 &&
		    argi + 1 < argc)
			nthreads = (unsigned)strtoul(argv[++argi], NULL, 10);
		else
			break;
	}
	if (argc != argi + 1) {
		fputs("usage: count-bench [--sequential] [--threads N] "
		    "[--decode] TRACE\n", stderr);
		return 2;
	}
	t0 = bench_now_ns();
	set = bench_open("count-bench", argv[argi]);
	if (!sequential) {
		werr = count_parallel(set, decode, nthreads, counts, &derr,
		    &perr);
		t1 = bench_now_ns();
		goto report;
	}
	m = tv_merge_create(set);
	if (!m) {
		fputs("count-bench: out of memory\n", stderr);
		return 1;
	}
	tv_arena_init(&arena);
	tv_merge_seek_begin(m);
	while (tv_merge_next(m, &ev) == TV_OK) {
		if (ev.rec.kind < 3)
			counts[ev.rec.kind]++;
		if (decode && (ev.rec.kind == TV_REC_EVENT || ev.index == 0)) {
			tv_arena_reset(&arena);
			if (tv_event_decode_scopes(&ev, &arena, &f,
			    decode_scopes(&ev), NULL) != TV_OK)
				derr++;
		}
	}
	t1 = bench_now_ns();
	perr = *tv_merge_error(m);
	werr = &perr;
	tv_arena_fini(&arena);
	tv_merge_destroy(m);
report:
	printf("events %" PRIu64 " discarded_records %" PRIu64
	    " lost_packet_records %" PRIu64 " decode_errors %" PRIu64
	    " seconds %.3f\n", counts[TV_REC_EVENT], counts[TV_REC_DISCARDED],
	    counts[TV_REC_LOST_PACKETS], derr, (double)(t1 - t0) / 1e9);
	if (werr->status != TV_OK)
		fprintf(stderr, "count-bench: %s\n",
		    tv_error_format(werr, buf, sizeof(buf)));
	tv_trace_set_close(set);
	return derr ? 1 : 0;
}
