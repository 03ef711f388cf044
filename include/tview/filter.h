/*
 * The filter language: one grammar for --dump --filter, --count, and the
 * browser.  trace-cmd's -F form works as-is
 *   sched_switch: prev_pid == 1 && next_comm =~ "^bash"
 * (an event list, ':', an expression; several such parts separated by
 * commas), extended with the built-in names cpu, tid, pid, comm, trace and
 * time, event-name globs, ~ (glob match), numbers in decimal or hex, and
 * an expression with no event list, which applies to every event.
 *
 * A filter is compiled once per event class of the set it was compiled
 * against: field names become scope slots, constants are folded, and a
 * class that can never match is known before any field is decoded.
 * Nothing here knows a format name.
 */
#ifndef TVIEW_FILTER_H
#define TVIEW_FILTER_H

#include "tview/trace.h"
#include "tview/time.h"

struct tv_filter;
struct tv_event_owner;

/* What the header alone says about an event: see tv_filter_verdict(). */
enum tv_filter_verdict {
	TV_FILTER_NEVER,	/* its class can never match: skip it */
	TV_FILTER_ALWAYS,	/* its class always matches */
	TV_FILTER_MAYBE,	/* evaluate: tv_filter_match() */
};

/**
 * tv_filter_compile() - parse @text and compile it for every event class
 * of @set (borrowed: must outlive the filter).  @tctx is the span time
 * literals refer to (time < 50%).  Errors name the column:
 * "filter:1:17: unknown field 'prev_pdi' (did you mean prev_pid?)".
 */
enum tv_status	 tv_filter_compile(const char *text,
		    const struct tv_trace_set *set,
		    const struct tv_time_ctx *tctx, struct tv_filter **out,
		    struct tv_error *err);
void		 tv_filter_destroy(struct tv_filter *f);

/**
 * tv_filter_extend() - compile @f for the event classes and traces its
 * set gained (tv_trace_set_extend) since it was compiled or extended;
 * until then their events match nothing.  No thread may use @f during
 * the call.
 */
enum tv_status	 tv_filter_extend(struct tv_filter *f, struct tv_error *err);

/**
 * tv_filter_needs_state() - true if the filter reads tid, pid or comm:
 * the caller then feeds every record to a tv_state and passes the owner
 * to tv_filter_match().
 */
bool		 tv_filter_needs_state(const struct tv_filter *f);

/** tv_filter_verdict() - the class-level answer for @ev, no decoding. */
enum tv_filter_verdict tv_filter_verdict(const struct tv_filter *f,
		    const struct tv_event *ev);

/**
 * tv_filter_match() - whether @ev matches.  Records that are not events
 * (lost data) never match.  Decodes @ev's fields into @arena when the
 * expression needs them (the caller resets it).  @owner: who @ev belongs
 * to (tv_state_apply), or NULL when the filter does not need the state.
 * Thread-safe: a compiled filter is read-only.
 */
bool		 tv_filter_match(const struct tv_filter *f,
		    const struct tv_event *ev,
		    const struct tv_event_owner *owner,
		    struct tv_arena *arena);

/*
 * Records that follow the event they belong to (stack traces, see
 * tv_event_class.follows_previous) are shown after a shown event even
 * when the filter does not match them.  A walk in timeline order keeps
 * this state, one flag per stream.
 */
struct tv_filter_follow;

struct tv_filter_follow *tv_filter_follow_create(
		    const struct tv_trace_set *set);
void		 tv_filter_follow_destroy(struct tv_filter_follow *fw);
/**
 * tv_filter_follow() - whether to show event @ev, given whether the
 * filter @matched it; updates the walk state.  Call for every event of
 * the walk, in order (also for those whose verdict is NEVER).
 */
bool		 tv_filter_follow(struct tv_filter_follow *fw,
		    const struct tv_event *ev, bool matched);

/** tv_filter_text() - the text the filter was compiled from. */
const char	*tv_filter_text(const struct tv_filter *f);

#endif /* TVIEW_FILTER_H */
