/*
 * The per-class event counts of a trace set, for --info: the one place
 * that answers them.  They come from the state cache file when the
 * browser's background pass left a valid one (the head of the file is
 * read, nothing is decoded); else from the record headers of every
 * packet (no field is decoded), a pass --info makes only when the packets
 * are small enough to stay within its time budget, or when asked to.
 */
#include "tview/trace.h"
#include "tview/packet-cache.h"
#include "state-priv.h"

#include <stdlib.h>
#include <string.h>

/* Record-array budget of the count: one packet at a time is enough. */
#define COUNT_CACHE_BYTES	(4u << 20)
/*
 * Packet bytes the header pass walks by itself: about 30 ms at the
 * 1.7 ms/MiB measured on generated CTF, which keeps --info under 50 ms.
 */
#define COUNT_CHEAP_BYTES	((uint64_t)16 << 20)

/* The packet bytes of @set, padding included. */
static uint64_t
set_bytes(const struct tv_trace_set *set)
{
	uint64_t n = 0, k;
	uint32_t i;

	for (i = 0; i < set->nstreams; i++)
		for (k = 0; k < set->streams[i]->npackets; k++)
			n += set->streams[i]->packets[k].size;
	return n;
}

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

/* Most count workers, whatever the core count. */
#define COUNT_MAX_THREADS	16

/* One packet to count: the units are in stream, then packet order. */
struct count_unit {
	struct tv_stream	*s;
	uint32_t		 trace;		/* its index in the set */
	uint64_t		 pkt;
};

/* The count shared by its workers. */
struct count_job {
	struct count_unit	*units;
	uint64_t		 nunits;
	uint64_t		 next;		/* atomic: next unit to take */
	uint32_t		 ntraces;
	const uint32_t		*nclasses;	/* per trace */
};

/* One worker's own counts and first error. */
struct count_worker {
	struct count_job	*job;
	uint64_t		**counts;	/* [trace][class] */
	uint64_t		 err_unit;	/* the unit of err; UINT64_MAX */
	struct tv_error		 err;
};

/*
 * A worker: packets from the shared counter until none, each decoded
 * for its record headers only (no field is decoded).  Every worker
 * keeps the error of the earliest unit it met, so the error reported
 * is the first one in stream and packet order, as a lone walk gives.
 */
static void *
count_worker(void *arg)
{
	struct count_worker *w = arg;
	struct count_job *job = w->job;
	struct tv_packet_cache *pc = tv_packet_cache_create(COUNT_CACHE_BYTES);
	struct tv_map_release rel = TV_MAP_RELEASE_INIT;
	uint64_t u, r;

	while ((u = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED)) <
	    job->nunits) {
		const struct count_unit *cu = &job->units[u];
		const struct tv_packet_events *pe =
		    tv_packet_cache_get(pc, cu->s, cu->pkt);
		uint64_t *counts = w->counts[cu->trace];
		uint32_t nclasses = job->nclasses[cu->trace];

		if (pe == NULL)
			continue;
		for (r = 0; r < pe->count; r++)
			if (pe->recs[r].kind == TV_REC_EVENT &&
			    pe->recs[r].class_index < nclasses)
				counts[pe->recs[r].class_index]++;
		if (pe->status != TV_OK && u < w->err_unit) {
			w->err_unit = u;
			w->err = pe->err;
			if (w->err.status == TV_OK)
				w->err.status = pe->status;
		}
		tv_packet_release(&rel, cu->s, cu->pkt);
	}
	tv_map_release_flush(&rel);
	tv_packet_cache_destroy(pc);
	return NULL;
}

/*
 * Count every class by the record headers of every packet, on a worker
 * per core: packets are independent, and the sums do not depend on
 * which worker counted what.
 */
static enum tv_status
count_headers(struct tv_trace_set *set, struct tv_error *err)
{
	struct count_job job;
	struct count_worker *ws;
	uint32_t *nclasses = tv_xcalloc(set->ntraces + 1, sizeof(*nclasses));
	const struct count_worker *first = NULL;
	enum tv_status st;
	unsigned nw, i;
	uint32_t t, j;
	uint64_t k, n = 0;

	memset(&job, 0, sizeof(job));
	for (i = 0; i < set->nstreams; i++)
		n += set->streams[i]->npackets;
	job.units = tv_xcalloc(n + 1, sizeof(*job.units));
	for (i = 0; i < set->nstreams; i++) {
		struct tv_stream *s = set->streams[i];

		t = trace_no(set, s->trace);
		if (t == set->ntraces)
			continue;
		for (k = 0; k < s->npackets; k++) {
			job.units[job.nunits].s = s;
			job.units[job.nunits].trace = t;
			job.units[job.nunits++].pkt = k;
		}
	}
	for (t = 0; t < set->ntraces; t++)
		nclasses[t] = set->traces[t]->nclasses;
	job.ntraces = set->ntraces;
	job.nclasses = nclasses;
	nw = tv_worker_count(job.nunits, COUNT_MAX_THREADS);
	ws = tv_xcalloc(nw, sizeof(*ws));
	for (i = 0; i < nw; i++) {
		ws[i].job = &job;
		ws[i].err_unit = UINT64_MAX;
		ws[i].counts = tv_xcalloc(set->ntraces + 1,
		    sizeof(*ws[i].counts));
		for (t = 0; t < set->ntraces; t++)
			ws[i].counts[t] = tv_xcalloc(nclasses[t] + 1,
			    sizeof(**ws[i].counts));
	}
	tv_run_workers(nw, count_worker, ws, sizeof(*ws));
	for (t = 0; t < set->ntraces; t++) {
		struct tv_trace *tr = set->traces[t];

		for (j = 0; j < tr->nclasses; j++) {
			uint64_t c = 0;

			for (i = 0; i < nw; i++)
				c += ws[i].counts[t][j];
			__atomic_store_n(&tr->classes[j]->count, c,
			    __ATOMIC_RELAXED);
		}
	}
	for (i = 0; i < nw; i++)
		if (ws[i].err_unit != UINT64_MAX &&
		    (first == NULL || ws[i].err_unit < first->err_unit))
			first = &ws[i];
	st = first != NULL ? first->err.status : TV_OK;
	if (first != NULL && err != NULL)
		*err = first->err;
	for (i = 0; i < nw; i++) {
		for (t = 0; t < set->ntraces; t++)
			free(ws[i].counts[t]);
		free(ws[i].counts);
	}
	free(ws);
	free(job.units);
	free(nclasses);
	return st;
}

/* See trace.h. */
enum tv_status
tv_trace_set_count(struct tv_trace_set *set, enum tv_count_how how,
    bool *counted, struct tv_error *err)
{
	*counted = true;
	if (tv_state_cache_counts(set))
		return TV_OK;
	if (how == TV_COUNT_IF_CHEAP && set_bytes(set) > COUNT_CHEAP_BYTES) {
		*counted = false;
		return TV_OK;
	}
	return count_headers(set, err);
}
