/*
 * The matching event (vim's %): from a system call, IRQ, softirq or trap
 * entry to its exit and back, from a wake-up to the switch that puts the
 * woken thread on a CPU and back, from a function span's entry record to
 * its exit record (span.h) and back.  What an event is comes from the
 * process state (its rules), not from event names: an entry is an event
 * after which the running thread's mode stack is deeper, an exit one
 * after which it is shallower, a wake-up one after which a waiting
 * thread is woken, a switch-in one after which a woken thread runs.
 *
 * Backward matches are found at once (the wake-up time is a state fact;
 * an entry is found by replaying from the checkpoints before the exit);
 * forward ones by feeding the following records to tv_match_step(), so
 * the caller can show progress and cancel.
 */
#ifndef TVIEW_MATCH_H
#define TVIEW_MATCH_H

#include "tview/state.h"

/* Checkpoints to replay back from an exit looking for its entry. */
#define TV_MATCH_BACK_CHECKPOINTS	64

enum tv_match_kind {
	TV_MATCH_NONE,
	TV_MATCH_MODE_EXIT,	/* forward: an entry's exit */
	TV_MATCH_MODE_ENTRY,	/* backward: an exit's entry */
	TV_MATCH_SWITCH_IN,	/* forward: a wake-up's switch-in */
	TV_MATCH_WAKEUP,	/* backward: a switch-in's wake-up */
	TV_MATCH_SPAN_EXIT,	/* forward: a function entry's exit */
	TV_MATCH_SPAN_ENTRY,	/* backward: a function exit's entry */
};

struct tv_match;

/**
 * tv_match_begin() - what @ev matches.  TV_OK with *@m set: a forward
 * match, to be found with tv_match_step() over the records after @ev;
 * TV_OK with *@m NULL and *@out filled: a backward match, found;
 * TV_NOT_FOUND: @ev is no entry, exit, wake-up or switch-in, or its
 * match is not in the trace.  *@kind says which (may be NULL).
 */
enum tv_status	 tv_match_begin(struct tv_state_index *idx,
		    struct tv_trace_set *set, const struct tv_event *ev,
		    struct tv_match **m, struct tv_event *out,
		    enum tv_match_kind *kind, struct tv_error *err);
/** tv_match_step() - apply the next record; true if it is the match. */
bool		 tv_match_step(struct tv_match *m, const struct tv_event *ev);
void		 tv_match_destroy(struct tv_match *m);
/**
 * tv_match_kind_name() - "exit", "entry", "switch-in", "wake-up",
 * "function exit", "function entry".
 */
const char	*tv_match_kind_name(enum tv_match_kind kind);

#endif /* TVIEW_MATCH_H */
