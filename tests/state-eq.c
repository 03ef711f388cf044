/*
 * Equality of two process states and the reference full replay (see
 * state-eq.h): threads compared whole, in (machine, tid, cpu) order.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "state-eq.h"

/* Order threads for comparison. */
static int
thread_cmp(const void *pa, const void *pb)
{
	const struct tv_thread *a = pa, *b = pb;

	if (a->machine != b->machine)
		return a->machine < b->machine ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
}

/* See state-eq.h. */
bool
tv_test_states_equal(const struct tv_state *a, const struct tv_state *b)
{
	const struct tv_thread *ta, *tb;
	struct tv_thread *ca, *cb;
	size_t na, nb;
	bool eq;

	ta = tv_state_threads(a, &na);
	tb = tv_state_threads(b, &nb);
	if (na != nb)
		return false;
	ca = tv_xcalloc(na + 1, sizeof(*ca));
	cb = tv_xcalloc(nb + 1, sizeof(*cb));
	if (na > 0) {
		memcpy(ca, ta, na * sizeof(*ca));
		memcpy(cb, tb, nb * sizeof(*cb));
	}
	qsort(ca, na, sizeof(*ca), thread_cmp);
	qsort(cb, nb, sizeof(*cb), thread_cmp);
	eq = memcmp(ca, cb, na * sizeof(*ca)) == 0;
	free(ca);
	free(cb);
	return eq;
}

/* See state-eq.h. */
void
tv_test_replay_to(struct tv_trace_set *set, int64_t ts, struct tv_state *out)
{
	struct tv_merge *m = tv_merge_create(set);
	struct tv_event ev;

	tv_state_clear(out);
	tv_merge_seek_begin(m);
	while (tv_merge_next(m, &ev) == TV_OK) {
		if (ev.rec.ts != TV_TIME_NONE && ev.rec.ts > ts)
			break;
		tv_state_apply(out, &ev, NULL, NULL);
	}
	tv_merge_destroy(m);
}
