/*
 * The fast count: how many events of each class a trace set holds, from
 * the record headers of every packet (no field is decoded), for --info.
 * The background state pass counts the same while it walks; this one is
 * for when there is no such pass.
 */
#include "tview/trace.h"
#include "tview/packet-cache.h"

#include <stdlib.h>

/* Record-array budget of the count: one packet at a time is enough. */
#define COUNT_CACHE_BYTES	(4u << 20)

/* The index of @t in @set; @set->ntraces if absent. */
static uint32_t
trace_no(const struct tv_trace_set *set, const struct tv_trace *t)
{
	uint32_t i;

	for (i = 0; i < set->ntraces; i++)
		if (set->traces[i] == t)
			break;
	return i;
}

/* See trace.h. */
enum tv_status
tv_trace_set_count(struct tv_trace_set *set, struct tv_error *err)
{
	struct tv_packet_cache *pc = tv_packet_cache_create(COUNT_CACHE_BYTES);
	uint64_t **counts = tv_xcalloc(set->ntraces ? set->ntraces : 1,
	    sizeof(*counts));
	enum tv_status st = TV_OK;
	uint32_t i, j, t;
	uint64_t k, r;

	for (i = 0; i < set->ntraces; i++)
		counts[i] = tv_xcalloc(set->traces[i]->nclasses + 1,
		    sizeof(**counts));
	for (i = 0; i < set->nstreams; i++) {
		struct tv_stream *s = set->streams[i];
		uint32_t nclasses;

		t = trace_no(set, s->trace);
		if (t == set->ntraces)
			continue;
		nclasses = s->trace->nclasses;
		for (k = 0; k < s->npackets; k++) {
			const struct tv_packet_events *pe =
			    tv_packet_cache_get(pc, s, k);

			if (pe == NULL)
				continue;
			for (r = 0; r < pe->count; r++)
				if (pe->recs[r].kind == TV_REC_EVENT &&
				    pe->recs[r].class_index < nclasses)
					counts[t][pe->recs[r].class_index]++;
			if (pe->status != TV_OK && st == TV_OK) {
				st = pe->status;
				if (err != NULL)
					*err = pe->err;
			}
		}
	}
	for (i = 0; i < set->ntraces; i++) {
		struct tv_trace *tr = set->traces[i];

		for (j = 0; j < tr->nclasses; j++)
			__atomic_store_n(&tr->classes[j]->count, counts[i][j],
			    __ATOMIC_RELAXED);
		free(counts[i]);
	}
	free(counts);
	tv_packet_cache_destroy(pc);
	return st;
}
