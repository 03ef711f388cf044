/*
 * Every name an event's owner can have in a trace set, read before the
 * background pass has met them all (tv_state_names_scan): a search for
 * text that no task name holds can then leave the task column alone, as
 * it does once the pass is over (tv_state_index_owner_names).  A state
 * walk (state-walk.c) reads the records on every core, and this thread
 * only keeps the names they carry without applying them: the names a
 * rule reads (a switch's, a fork's, an exec's file, a wake-up's, a
 * statedump's), the procname of an event's own fields, the names the
 * trace gives its threads before any event, and the idle tasks'.  Those
 * are every source of a thread's name in the state (state-apply.c), so
 * the set holds every owner name the pass would find, at most longer
 * (not cut to a comm's 15 bytes, so a long one is kept cut too: a cut
 * inside a UTF-8 character shows as an escape): text no name of the set
 * holds, no owner name holds.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/util.h"
#include "state-priv.h"

/* Records between two asks of the caller's stop function. */
#define NAMES_STOP_EVERY	4096

struct tv_name_set {
	struct tv_state_names	 names;
};

/* Add @s to @ns unless it is @last (the last added in its place). */
static void
names_add(struct tv_name_set *ns, const char *s, char *last)
{
	size_t n = strnlen(s, TV_THREAD_NAME_MAX - 1);

	if (n == 0 || (strncmp(last, s, TV_THREAD_NAME_MAX) == 0))
		return;
	memcpy(last, s, n);
	last[n] = '\0';
	tv_state_names_add(&ns->names, s, n);
}

/* The names known before any event: the trace's and the idle tasks'. */
static void
names_seed(struct tv_name_set *ns, const struct tv_trace_set *set,
    const struct tv_state *s)
{
	const struct tv_thread *t;
	char idle[TV_THREAD_NAME_MAX], last[TV_THREAD_NAME_MAX] = "";
	size_t n, i;

	t = tv_state_threads(s, &n);
	for (i = 0; i < n; i++)
		names_add(ns, t[i].name, last);
	/* as tv_state_get() names a CPU's idle task */
	for (i = 0; i < set->nstreams; i++) {
		if (set->streams[i]->cpu < 0)
			continue;
		snprintf(idle, sizeof(idle), "swapper/%d",
		    (int)set->streams[i]->cpu);
		names_add(ns, idle, last);
	}
}

/* See state.h. */
struct tv_name_set *
tv_state_names_scan(struct tv_trace_set *set, bool (*stop)(void *arg),
    void *arg)
{
	struct tv_name_set *ns = tv_xcalloc(1, sizeof(*ns));
	struct tv_state *s = tv_state_create(set);
	char last[3][TV_THREAD_NAME_MAX], comm[16];
	struct tv_state_walk *w;
	struct tv_pwalk_item it;
	const char *nm[3];
	uint64_t recs = 0;
	size_t k, n;

	memset(last, 0, sizeof(last));
	names_seed(ns, set, s);
	w = tv_state_walk_start(set, s, INT64_MIN, INT64_MAX, NULL, NULL,
	    NULL, 0, false);
	while (tv_state_walk_next(w, &it) == TV_OK) {
		if (++recs % NAMES_STOP_EVERY == 0 && stop != NULL &&
		    stop(arg)) {
			tv_name_set_free(ns);
			ns = NULL;
			break;
		}
		n = tv_state_walk_names(w, nm);
		for (k = 0; k < n; k++) {
			names_add(ns, nm[k], last[k]);
			/* a thread's name is a comm, cut at 15 bytes: cut
			   inside a character, it escapes otherwise */
			if (strlen(nm[k]) > 15) {
				memcpy(comm, nm[k], 15);
				comm[15] = '\0';
				tv_state_names_add(&ns->names, comm, 15);
			}
		}
	}
	tv_state_walk_destroy(w);
	tv_state_destroy(s);
	return ns;
}

/* See state.h. */
void
tv_name_set_get(const struct tv_name_set *ns, const char *const **names,
    size_t *n)
{
	*names = ns->names.v;
	*n = ns->names.n;
}

/* See state.h. */
void
tv_name_set_free(struct tv_name_set *ns)
{
	if (ns == NULL)
		return;
	tv_state_names_clear(&ns->names);
	free(ns);
}
