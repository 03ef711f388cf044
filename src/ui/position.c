/*
 * The exact position of the selected event, "event N of M", for the
 * status bar.  Once every packet's event count is known (the background
 * pass decodes them all, or its cache restored them), N is the events of
 * every stream that come before the event in the merged order: whole
 * packets by prefix sums of their counts, and per stream the one or two
 * packets around the event's time decoded to count their records.
 * Until then the caller shows the approximate percentage.
 */
#include "ui-priv.h"
#include "tview/packet-cache.h"

#include <stdlib.h>

#define POS_CACHE_BYTES	((size_t)16 << 20)

/* Prefix sums of one stream's packet event counts. */
struct pos_stream {
	uint64_t	*pre;		/* npackets + 1 entries */
	uint64_t	 npackets;
};

/* Built once all counts are known (UI-only state). */
static struct {
	const struct tv_trace_set	*set;
	struct pos_stream		*streams;
	uint32_t			 nstreams;
	uint64_t			 total;
	struct tv_packet_cache		*cache;
	bool				 ready;
	/* the last answer: the status bar redraws without moving */
	struct tv_event			 last;
	uint64_t			 last_n;
	bool				 have_last;
} pos;

/* Free everything (the browser is closing, or the set changed). */
void
tv_ui_position_fini(void)
{
	uint32_t i;

	for (i = 0; i < pos.nstreams; i++)
		free(pos.streams[i].pre);
	free(pos.streams);
	if (pos.cache)
		tv_packet_cache_destroy(pos.cache);
	pos.streams = NULL;
	pos.nstreams = 0;
	pos.cache = NULL;
	pos.ready = false;
	pos.have_last = false;
	pos.set = NULL;
}

/* The prefix sums, if every packet of @set has a known event count. */
static bool
pos_build(const struct tv_trace_set *set)
{
	uint32_t i;
	uint64_t j;

	if (pos.ready && pos.set == set) {
		for (i = 0; i < set->nstreams; i++)
			if (set->streams[i]->npackets !=
			    pos.streams[i].npackets)
				break;
		if (i == set->nstreams)
			return true;
	}
	/* cheap check first: nothing is allocated while counts are missing */
	for (i = 0; i < set->nstreams; i++) {
		const struct tv_stream *s = set->streams[i];

		for (j = 0; j < s->npackets; j++)
			if (__atomic_load_n(&s->packets[j].event_count,
			    __ATOMIC_RELAXED) == TV_COUNT_UNKNOWN)
				return false;
	}
	tv_ui_position_fini();
	pos.set = set;
	pos.nstreams = set->nstreams;
	pos.streams = tv_xcalloc(set->nstreams ? set->nstreams : 1,
	    sizeof(*pos.streams));
	pos.total = 0;
	for (i = 0; i < set->nstreams; i++) {
		const struct tv_stream *s = set->streams[i];
		struct pos_stream *ps = &pos.streams[i];

		ps->npackets = s->npackets;
		ps->pre = tv_xcalloc(s->npackets + 1, sizeof(*ps->pre));
		/*
		 * atomic: after the trace grew (F), a new background pass
		 * stores the counts again, the same values
		 */
		for (j = 0; j < s->npackets; j++)
			ps->pre[j + 1] = ps->pre[j] + __atomic_load_n(
			    &s->packets[j].event_count, __ATOMIC_RELAXED);
		pos.total += ps->pre[s->npackets];
	}
	pos.cache = tv_packet_cache_create(POS_CACHE_BYTES);
	pos.ready = true;
	return true;
}

/* Whether record @r of stream @s comes before @ev in the merged order. */
static bool
rec_before(const struct tv_stream *s, const struct tv_event_rec *r,
    const struct tv_event *ev)
{
	if (r->ts != ev->rec.ts)
		return r->ts < ev->rec.ts;
	return s->ordinal < ev->stream->ordinal;
}

/* Events of stream @si (not @ev's) before @ev; false if unsure. */
static bool
stream_before(uint32_t si, const struct tv_event *ev, uint64_t *n)
{
	struct tv_stream *s = pos.set->streams[si];
	const struct pos_stream *ps = &pos.streams[si];
	uint64_t lo = 0, hi = s->npackets, k, j, i;

	/* first packet whose end is not before the event */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		int64_t end = s->packets[mid].ts_end;

		if (end == TV_TIME_NONE)
			return false;
		if (end < ev->rec.ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	k = lo;
	*n = ps->pre[k];
	for (j = k; j < s->npackets; j++) {
		const struct tv_packet_events *pe;
		bool stop = false;

		if (s->packets[j].ts_begin != TV_TIME_NONE &&
		    s->packets[j].ts_begin > ev->rec.ts)
			break;
		pe = tv_packet_cache_get(pos.cache, s, j);
		if (pe == NULL)
			return false;
		for (i = 0; i < pe->count; i++) {
			if (!rec_before(s, &pe->recs[i], ev)) {
				stop = true;
				break;
			}
			*n += pe->recs[i].kind == TV_REC_EVENT;
		}
		if (stop)
			break;
	}
	return true;
}

/*
 * See ui-priv.h: *n (1-based) and *m of the event @ev, when every
 * packet's count is known; false otherwise (show a percentage).
 */
bool
tv_ui_event_rank(struct tv_ui *ui, const struct tv_event *ev, uint64_t *n,
    uint64_t *m)
{
	const struct tv_packet_events *pe;
	uint64_t before = 0, c, i;
	uint32_t si;

	if (ev->rec.kind != TV_REC_EVENT || ev->stream == NULL ||
	    !pos_build(ui->set))
		return false;
	if (pos.have_last && pos.last.stream == ev->stream &&
	    pos.last.packet == ev->packet && pos.last.index == ev->index) {
		*n = pos.last_n;
		*m = pos.total;
		return true;
	}
	for (si = 0; si < pos.nstreams; si++) {
		if (pos.set->streams[si] != ev->stream) {
			if (!stream_before(si, ev, &c))
				return false;
			before += c;
			continue;
		}
		if (ev->packet >= pos.streams[si].npackets)
			return false;
		before += pos.streams[si].pre[ev->packet];
		pe = tv_packet_cache_get(pos.cache, ev->stream, ev->packet);
		if (pe == NULL)
			return false;
		for (i = 0; i < ev->index && i < pe->count; i++)
			before += pe->recs[i].kind == TV_REC_EVENT;
	}
	*n = before + 1;
	*m = pos.total;
	if (*n > *m)
		return false;
	pos.last = *ev;
	pos.last_n = *n;
	pos.have_last = true;
	return true;
}
