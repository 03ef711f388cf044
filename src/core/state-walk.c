/*
 * The state walk (tv_state_walk_start): the ordered parallel walk
 * (pwalk.c) whose workers, before any work of the caller's, read what
 * each record tells the process state (tv_state_read: the decoding, the
 * rule's fields, the owner's context) and pack it in front of the
 * record's bytes; the caller's thread unpacks and applies it in timeline
 * order (tv_state_apply_read: table updates only).  Decoding was most of
 * a state pass on one thread; here it runs on every core, and the state
 * after each record is the one tv_state_apply() would give.
 *
 * A worker reads a class's facts while the applying thread may learn,
 * once, whether its events name their owner (state_class.owner): a
 * worker that saw it unknown decodes and reads the owner, one that saw
 * it known does what it says; both give what the applier needs.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/merge.h"
#include "tview/util.h"
#include "state-priv.h"

/* The bytes before a record's own: the length of its packed input. */
typedef uint16_t input_len;

struct tv_state_walk {
	struct tv_pwalk			*pw;
	struct tv_state			*s;
	tv_pwalk_fn			 fn;
	void				*arg;
	/* per stream ordinal: its trace's facts in @s, read by workers */
	const struct state_trace	**by_stream;
	uint32_t			 nstreams;
	struct tv_event			 first;
	bool				 skip;		/* before @first */
	/* the record handed out last, while not applied */
	bool				 pending;
	struct tv_event			 ev;
	struct state_input		 in;
};

/* The pwalk work: the record's state input, then the caller's work. */
static enum tv_status
walk_work(void *arg, const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *out, uint8_t *flags, struct tv_error *err)
{
	struct tv_state_walk *w = arg;
	const struct state_trace *st = NULL;
	struct state_input in;
	size_t mark = out->len;
	input_len n = 0;

	tv_strbuf_add(out, (const char *)&n, sizeof(n));
	if (ev->stream->ordinal < w->nstreams)
		st = w->by_stream[ev->stream->ordinal];
	if (st != NULL) {
		tv_state_read(st, ev, arena, &in, false);
		tv_state_input_pack(&in, out);
	}
	n = (input_len)(out->len - mark - sizeof(n));
	memcpy(out->buf + mark, &n, sizeof(n));
	if (w->fn == NULL)
		return TV_OK;
	tv_arena_reset(arena);
	return w->fn(w->arg, ev, arena, out, flags, err);
}

/* See state.h. */
struct tv_state_walk *
tv_state_walk_start(struct tv_trace_set *set, struct tv_state *s,
    int64_t begin, int64_t end, const struct tv_event *first, tv_pwalk_fn fn,
    void *arg, unsigned nthreads, enum tv_walk_pages pages)
{
	struct tv_state_walk *w = tv_xcalloc(1, sizeof(*w));
	uint32_t i;

	w->s = s;
	w->fn = fn;
	w->arg = arg;
	/* every class resolved before a worker reads one */
	tv_state_prepare(s);
	w->nstreams = set->nstreams;
	w->by_stream = tv_xcalloc(TV_MAX(w->nstreams, 1u),
	    sizeof(*w->by_stream));
	for (i = 0; i < w->nstreams; i++)
		w->by_stream[i] = tv_state_trace_of(s, set->streams[i]);
	if (first != NULL) {
		w->first = *first;
		w->skip = true;
		begin = TV_MAX(begin, first->rec.ts);
	}
	w->pw = tv_pwalk_start(set, begin, end, walk_work, w, nthreads,
	    pages);
	return w;
}

/* See state.h. */
enum tv_status
tv_state_walk_next(struct tv_state_walk *w, struct tv_pwalk_item *item)
{
	enum tv_status st;
	input_len n;

	if (w->pending)
		tv_state_walk_apply(w, NULL);
	for (;;) {
		st = tv_pwalk_next(w->pw, item);
		if (st != TV_OK)
			return st;
		if (w->skip) {
			if (tv_event_cmp(&item->ev, &w->first) < 0)
				continue;
			w->skip = false;
		}
		break;
	}
	w->in.how = STATE_IN_UNREAD;	/* unless its worker's bytes say */
	if (item->len >= sizeof(n)) {
		memcpy(&n, item->bytes, sizeof(n));
		if (n <= item->len - sizeof(n) &&
		    !tv_state_input_unpack(item->bytes + sizeof(n), n, &w->in))
			w->in.how = STATE_IN_UNREAD;
		n = (input_len)TV_MIN((size_t)n, item->len - sizeof(n));
		item->bytes += sizeof(n) + n;
		item->len -= sizeof(n) + n;
	}
	w->ev = item->ev;
	w->pending = true;
	return TV_OK;
}

/* See state.h. */
void
tv_state_walk_apply(struct tv_state_walk *w, struct tv_event_owner *owner)
{
	if (!w->pending) {
		if (owner != NULL)
			tv_event_owner_reset(owner);
		return;
	}
	w->pending = false;
	tv_state_apply_read(w->s, &w->ev, &w->in, owner);
}

/* See state.h. */
const struct tv_error *
tv_state_walk_error(const struct tv_state_walk *w)
{
	return tv_pwalk_error(w->pw);
}

/* See state.h. */
void
tv_state_walk_destroy(struct tv_state_walk *w)
{
	if (w == NULL)
		return;
	tv_pwalk_destroy(w->pw);
	free(w->by_stream);
	free(w);
}
