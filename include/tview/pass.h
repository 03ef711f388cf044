/*
 * A background whole-trace pass that fills one match bitmap per packet:
 * bit r of a packet is set when the caller's predicate keeps record r.
 * Packets are independent units, so a predicate that needs no process
 * state runs on a pool of worker threads (one per core), each packet
 * written by exactly one worker: the result does not depend on the
 * order the workers run in.  A predicate that reads the process state
 * (tid, pid, comm) runs on one worker walking the merged timeline with
 * a tv_state.  Readers ask for a packet's bitmap at any time and get it
 * once that packet is done.
 */
#ifndef TVIEW_PASS_H
#define TVIEW_PASS_H

#include "tview/trace.h"

struct tv_pass;
struct tv_event_owner;

/**
 * tv_pass_pred - whether to keep @ev.  Called from the worker threads:
 * must only read shared data.  @owner is NULL unless the pass was
 * started with @needs_state; @arena is the worker's own (reset by the
 * pass before each call).
 */
typedef bool (*tv_pass_pred)(void *arg, const struct tv_event *ev,
		    const struct tv_event_owner *owner,
		    struct tv_arena *arena);

/**
 * tv_pass_start() - start the pass over @set (borrowed, with @arg: both
 * must outlive the pass).  @nthreads 0: one per online core.  Records
 * that are not events (lost data) are always kept and never counted.
 */
struct tv_pass	*tv_pass_start(struct tv_trace_set *set, bool needs_state,
		    tv_pass_pred pred, void *arg, unsigned nthreads);
/**
 * tv_pass_stop() - cancel and join the workers, keeping the packets done;
 * call it before the set is extended (tv_trace_set_extend moves the
 * packet arrays the workers read).
 */
void		 tv_pass_stop(struct tv_pass *p);
/**
 * tv_pass_extend() - after tv_trace_set_extend(): the packets not done
 * (new ones, those a stop cut short) go to the workers, the bitmaps done
 * are kept.  A pass that reads the process state starts over (a
 * record that arrives late changes the owners of the events after it),
 * as does one whose streams were renumbered.  The predicate may have
 * been extended for the classes the trace gained meanwhile; a pass over
 * traces that gained classes starts over.
 */
void		 tv_pass_extend(struct tv_pass *p);
/** tv_pass_destroy() - cancel, wait for the workers, free. */
void		 tv_pass_destroy(struct tv_pass *p);

/**
 * tv_pass_keeps() - whether the predicate kept record @ev, in *@keep;
 * false while its packet is not done, or when @ev lies past the records
 * the pass decoded of that packet (the file changed between two
 * decodings): the caller then asks the predicate itself.
 */
bool		 tv_pass_keeps(const struct tv_pass *p,
		    const struct tv_event *ev, bool *keep);

/** tv_pass_done() - whether packet @pkt of @s is done. */
bool		 tv_pass_done(const struct tv_pass *p,
		    const struct tv_stream *s, uint64_t pkt);

/**
 * tv_pass_kept() - the events of packet @pkt of @s the predicate kept
 * (lost-data records not counted), in *@kept; false while that packet
 * is not done.
 */
bool		 tv_pass_kept(const struct tv_pass *p,
		    const struct tv_stream *s, uint64_t pkt, uint64_t *kept);

/**
 * tv_pass_progress() - the fraction of packets done, with the events
 * kept and seen in them so far; *done when every packet is.
 */
double		 tv_pass_progress(const struct tv_pass *p, uint64_t *kept,
		    uint64_t *seen, bool *done);

#endif /* TVIEW_PASS_H */
