/*
 * count-bench: one pass over the whole merged timeline with
 * tv_merge_next, counting events, discarded-event and lost-packet
 * records; with --decode also decodes every event's fields (what a
 * full-text search does), the fair match for babeltrace2's counter sink,
 * which decodes everything.
 *
 *   count-bench [--decode] TRACE
 */
#include "bench.h"

#include <inttypes.h>
#include <string.h>

int
main(int argc, char **argv)
{
	struct tv_trace_set *set;
	struct tv_merge *m;
	struct tv_event ev;
	struct tv_event_fields f;
	struct tv_arena arena;
	uint64_t counts[3] = { 0, 0, 0 }, derr = 0;
	bool decode = false;
	int64_t t0, t1;
	char buf[1200];
	int argi = 1;

	if (argc > 1 && strcmp(argv[1], "--decode") == 0) {
		decode = true;
		argi++;
	}
	if (argc != argi + 1) {
		fputs("usage: count-bench [--decode] TRACE\n", stderr);
		return 2;
	}
	t0 = bench_now_ns();
	set = bench_open("count-bench", argv[argi]);
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
		if (decode && ev.rec.kind == TV_REC_EVENT) {
			tv_arena_reset(&arena);
			if (tv_event_decode(&ev, &arena, &f, NULL) != TV_OK)
				derr++;
		}
	}
	t1 = bench_now_ns();
	printf("events %" PRIu64 " discarded_records %" PRIu64
	    " lost_packet_records %" PRIu64 " decode_errors %" PRIu64
	    " seconds %.3f\n", counts[TV_REC_EVENT], counts[TV_REC_DISCARDED],
	    counts[TV_REC_LOST_PACKETS], derr, (double)(t1 - t0) / 1e9);
	if (tv_merge_error(m)->status != TV_OK)
		fprintf(stderr, "count-bench: %s\n",
		    tv_error_format(tv_merge_error(m), buf, sizeof(buf)));
	tv_arena_fini(&arena);
	tv_merge_destroy(m);
	tv_trace_set_close(set);
	return derr ? 1 : 0;
}
