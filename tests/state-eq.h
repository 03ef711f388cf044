/*
 * Equality of two process states, for the unit tests that check a state
 * reached one way (checkpoints, a walk that went on after the trace grew)
 * against one reached another (a full replay).
 */
#ifndef TVIEW_TESTS_STATE_EQ_H
#define TVIEW_TESTS_STATE_EQ_H

#include <stdbool.h>

#include "tview/merge.h"
#include "tview/state.h"

/** tv_test_states_equal() - same threads with the same values. */
bool	tv_test_states_equal(const struct tv_state *a,
	    const struct tv_state *b);

/**
 * tv_test_replay_to() - @out = the state after every record of @set at or
 * before @ts, replayed from the trace start (the reference).
 */
void	tv_test_replay_to(struct tv_trace_set *set, int64_t ts,
	    struct tv_state *out);

#endif /* TVIEW_TESTS_STATE_EQ_H */
