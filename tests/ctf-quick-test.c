/*
 * The CTF packet walk's quick path (ctf_quick_build, quick_walk) against
 * the generic walk it stands for: every packet of every CTF stream of
 * each trace given is walked twice, with the stream class's quick table
 * and without it, and the two must give the same records, field for
 * field, and the same status and error.  Fed with LTTng traces, which
 * have the table, and with damaged copies of them, where the quick path
 * must stop and leave the error to the generic walk.
 *
 *   ctf-quick-test TRACE...
 *
 * Prints one line per trace and "quick N" (the packets walked with a
 * table); exits 1 on any difference.  A trace that does not open is
 * reported and skipped: opening is not what this tests.
 */
#include "tview/tview.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/trace.h"
#include "tview/util.h"
#include "../src/formats/ctf/ctf-decode.h"
#include "../src/formats/ctf/ctf-priv.h"

/* Whether walks @a and @b of packet @pkt agree; says how not if not. */
static bool
same(const char *path, uint64_t pkt, const struct tv_packet_events *a,
    enum tv_status sa, const struct tv_packet_events *b, enum tv_status sb)
{
	char ea[1200], eb[1200];
	uint64_t k;

	if (sa != sb || a->count != b->count) {
		printf("# FAIL %s packet %" PRIu64 ": quick %s, %" PRIu64
		    " records; generic %s, %" PRIu64 "\n", path, pkt,
		    tv_status_str(sa), a->count, tv_status_str(sb), b->count);
		return false;
	}
	for (k = 0; k < a->count; k++) {
		const struct tv_event_rec *x = &a->recs[k], *y = &b->recs[k];

		if (x->ts != y->ts || x->bit_offset != y->bit_offset ||
		    x->class_index != y->class_index || x->kind != y->kind ||
		    x->head_bits != y->head_bits || x->count != y->count) {
			printf("# FAIL %s packet %" PRIu64 " record %" PRIu64
			    ": quick ts %" PRId64 " at bit %" PRIu64
			    " class %u head %u; generic ts %" PRId64
			    " at bit %" PRIu64 " class %u head %u\n", path,
			    pkt, k, x->ts, x->bit_offset, x->class_index,
			    x->head_bits, y->ts, y->bit_offset,
			    y->class_index, y->head_bits);
			return false;
		}
	}
	tv_error_format(&a->err, ea, sizeof(ea));
	tv_error_format(&b->err, eb, sizeof(eb));
	if (a->err.status != b->err.status || strcmp(ea, eb) != 0) {
		printf("# FAIL %s packet %" PRIu64 ": quick error '%s', "
		    "generic '%s'\n", path, pkt, ea, eb);
		return false;
	}
	return true;
}

/* Walk every CTF packet of @path both ways; the packets with a table. */
static uint64_t
check_trace(const char *path, int *failed)
{
	const char *paths[1] = { path };
	struct tv_packet_events a, b;
	struct tv_trace_set *set;
	struct tv_error err;
	uint64_t quick = 0, pkt, total = 0;
	uint32_t i;

	if (tv_trace_set_open(&set, paths, 1, tv_format_registry(), &err) !=
	    TV_OK || set == NULL) {
		printf("# %s: does not open, skipped\n", path);
		tv_trace_set_close(set);
		return 0;
	}
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (i = 0; i < set->nstreams; i++) {
		struct tv_stream *s = set->streams[i];
		struct ctf_stream_class *sc;
		const struct ctf_quick_walk *qw;

		if (strcmp(s->trace->ops->name, "ctf") != 0)
			continue;
		sc = ((struct ctf_stream_priv *)s->priv)->sclass;
		qw = sc->quick;
		for (pkt = 0; pkt < s->npackets; pkt++) {
			enum tv_status sa, sb;

			a.count = b.count = 0;
			tv_error_clear(&a.err);
			tv_error_clear(&b.err);
			sa = ctf_decode_packet(s, pkt, &a);
			sc->quick = NULL;
			sb = ctf_decode_packet(s, pkt, &b);
			sc->quick = qw;
			quick += qw != NULL;
			total++;
			if (!same(path, pkt, &a, sa, &b, sb)) {
				*failed = 1;
				break;
			}
		}
	}
	printf("# %s: %" PRIu64 " packets, %" PRIu64 " with a quick table\n",
	    path, total, quick);
	free(a.recs);
	free(b.recs);
	tv_trace_set_close(set);
	return quick;
}

int
main(int argc, char **argv)
{
	uint64_t quick = 0;
	int failed = 0, i;

	if (argc < 2) {
		fputs("usage: ctf-quick-test TRACE...\n", stderr);
		return 2;
	}
	for (i = 1; i < argc; i++)
		quick += check_trace(argv[i], &failed);
	printf("quick %" PRIu64 "\n", quick);
	return failed;
}
