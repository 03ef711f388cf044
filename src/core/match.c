/*
 * The matching event (match.h).  tv_match_begin() puts the state just
 * before the event, applies it, and compares the running thread of the
 * event's CPU before and after (or, when the event's own context put its
 * thread there, a switch the trace lacks, that thread's modes before the
 * event, from a second replay): a deeper mode stack on the same thread
 * makes it an entry (forward to the record after which that thread's
 * stack is shallower again), a shallower one an exit (back to the record
 * that pushed the level it popped, found by replaying the segments
 * between checkpoints, newest first), a thread woken by it a wake-up
 * (forward to the record after which that thread runs), and a new
 * running thread that had been woken a switch-in (back to its wake-up,
 * whose time the state keeps).  A function span record pairs with the
 * span record of the other end on the same CPU at the same depth: the
 * nearest one forward from an entry, backward from an exit (a sibling
 * at that depth has its own exit in between).
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/match.h"
#include "tview/merge.h"
#include "tview/span.h"
#include "tview/util.h"
#include "state-priv.h"

struct tv_match {
	struct tv_state		*state;
	enum tv_match_kind	 kind;
	uint32_t		 machine;
	int32_t			 cpu;		/* for the idle thread */
	int64_t			 tid;
	uint8_t			 depth;		/* MODE_EXIT: below this */
	/* SPAN_EXIT: the entry's trace, CPU and depth */
	struct tv_span_reader	*spans;
	const struct tv_trace	*trace;
	int64_t			 span_depth;
};

static const char *const kind_names[] = {
	"none", "exit", "entry", "switch-in", "wake-up", "function exit",
	"function entry",
};

/* See match.h. */
const char *
tv_match_kind_name(enum tv_match_kind kind)
{
	return (size_t)kind < TV_ARRAY_SIZE(kind_names) ? kind_names[kind] :
	    "?";
}

/* Thread @tid of @machine (the idle thread of @cpu for tid 0). */
static const struct tv_thread *
match_thread(const struct tv_state *s, uint32_t machine, int64_t tid,
    int32_t cpu)
{
	const struct tv_thread *t;

	if (tid != 0)
		return tv_state_find(s, machine, tid);
	t = tv_state_running(s, machine, cpu);
	return t != NULL && t->tid == 0 ? t : NULL;
}

/* Whether the mode on top of @t is one an entry and exit delimit. */
static bool
match_mode(const struct tv_thread *t)
{
	uint8_t m;

	if (t->nmodes == 0)
		return false;
	m = t->modes[t->nmodes - 1];
	return m == TV_MODE_SYSCALL || m == TV_MODE_IRQ ||
	    m == TV_MODE_SOFTIRQ || m == TV_MODE_TRAP;
}

/*
 * Replay [@from, @to) looking for the last record after which thread
 * (@tid) has at least @depth modes while it had fewer before; true with
 * its position in @out.
 */
static bool
match_replay(struct tv_merge *mg, struct tv_state *s, const struct tv_event *from,
    const struct tv_event *to, uint32_t machine, int64_t tid, int32_t cpu,
    uint8_t depth, struct tv_event *out)
{
	const struct tv_thread *t;
	struct tv_event ev;
	uint8_t before;
	bool found = false;

	if (from != NULL)
		tv_merge_seek_event(mg, from);
	else
		tv_merge_seek_begin(mg);
	while (tv_merge_next(mg, &ev) == TV_OK &&
	    tv_event_cmp(&ev, to) < 0) {
		t = match_thread(s, machine, tid, cpu);
		before = t != NULL ? t->nmodes : 0;
		(void)tv_state_apply(s, &ev, NULL, NULL);
		t = match_thread(s, machine, tid, cpu);
		if (t != NULL && before < depth && t->nmodes >= depth) {
			*out = ev;
			found = true;
		}
	}
	return found;
}

/* An exit: the record that pushed the level it popped. */
static enum tv_status
match_entry(struct tv_state_index *idx, struct tv_trace_set *set,
    const struct tv_event *ev, uint32_t machine, int64_t tid, int32_t cpu,
    uint8_t depth, struct tv_event *out)
{
	struct tv_state *s = tv_state_create(set);
	struct tv_merge *mg = tv_merge_create(set);
	struct tv_event pos, end = *ev;
	bool found = false, have;
	size_t back;

	for (back = 0; !found && back < TV_MATCH_BACK_CHECKPOINTS; back++) {
		have = tv_state_index_ckpt_before(idx, ev, back, s, &pos);
		if (!have)
			tv_state_clear(s);
		found = match_replay(mg, s, have ? &pos : NULL, &end, machine,
		    tid, cpu, depth, out);
		if (!have)
			break;
		end = pos;
	}
	tv_merge_destroy(mg);
	tv_state_destroy(s);
	return found ? TV_OK : TV_NOT_FOUND;
}

/* A switch-in: the first record at the woken thread's wake-up time. */
static enum tv_status
match_wakeup(struct tv_trace_set *set, int64_t woken, struct tv_event *out)
{
	struct tv_merge *mg = tv_merge_create(set);
	enum tv_status st;

	tv_merge_seek_time(mg, woken);
	st = tv_merge_next(mg, out);
	tv_merge_destroy(mg);
	return st == TV_OK && out->rec.ts == woken ? TV_OK : TV_NOT_FOUND;
}

/* The thread @ev woke (its woken time is @ev's now, it was not before). */
static const struct tv_thread *
match_woken(const struct tv_state *s, int64_t ts)
{
	const struct tv_thread *threads;
	size_t n, i;

	threads = tv_state_threads(s, &n);
	for (i = 0; i < n; i++)
		if (threads[i].woken == ts &&
		    threads[i].state == TV_TS_RUNNABLE)
			return &threads[i];
	return NULL;
}

/* Whether @ev is a span record of @end on @trace's CPU @cpu at @depth. */
static bool
match_span_is(struct tv_span_reader *r, const struct tv_event *ev,
    const struct tv_trace *trace, int32_t cpu, enum tv_span_end end,
    int64_t depth)
{
	struct tv_span sp;

	return ev->stream->trace == trace && ev->stream->cpu == cpu &&
	    tv_span_read(r, ev, &sp) && sp.end == end && sp.depth == depth;
}

/*
 * A function exit: back to the nearest entry at its depth on its CPU.
 * The walk stops at a shallower entry of that CPU (the parent: the
 * entry, if recorded, would lie after it), so an exit whose entry was
 * never recorded does not walk back to the start of the trace.
 */
static enum tv_status
match_span_entry(struct tv_span_reader *r, struct tv_trace_set *set,
    const struct tv_event *ev, int64_t depth, struct tv_event *out)
{
	struct tv_merge *mg = tv_merge_create(set);
	enum tv_status st = TV_NOT_FOUND;
	struct tv_span sp;

	tv_merge_seek_event(mg, ev);
	while (st == TV_NOT_FOUND && tv_merge_prev(mg, out) == TV_OK) {
		if (out->stream->trace != ev->stream->trace ||
		    out->stream->cpu != ev->stream->cpu ||
		    !tv_span_read(r, out, &sp) || sp.end != TV_SPAN_ENTRY)
			continue;
		if (sp.depth == depth)
			st = TV_OK;
		else if (sp.depth < depth)
			break;
	}
	tv_merge_destroy(mg);
	return st;
}

/*
 * A function span record: TV_OK with *@m set (an entry: forward) or with
 * @out filled (an exit: found backward); TV_NOT_FOUND with *@m NULL when
 * @ev is no span record (kind NONE) or its entry is not in the trace.
 */
static enum tv_status
match_span(struct tv_trace_set *set, const struct tv_event *ev,
    struct tv_match **m, struct tv_event *out, enum tv_match_kind *kind)
{
	struct tv_span_reader *r = tv_span_reader_create(set);
	struct tv_match *mt;
	struct tv_span sp;
	enum tv_status st;

	*kind = TV_MATCH_NONE;
	if (!tv_span_read(r, ev, &sp)) {
		tv_span_reader_destroy(r);
		return TV_NOT_FOUND;
	}
	if (sp.end == TV_SPAN_EXIT) {
		*kind = TV_MATCH_SPAN_ENTRY;
		st = match_span_entry(r, set, ev, sp.depth, out);
		tv_span_reader_destroy(r);
		return st;
	}
	*kind = TV_MATCH_SPAN_EXIT;
	mt = tv_xcalloc(1, sizeof(*mt));
	mt->kind = TV_MATCH_SPAN_EXIT;
	mt->spans = r;
	mt->trace = ev->stream->trace;
	mt->cpu = ev->stream->cpu;
	mt->span_depth = sp.depth;
	*m = mt;
	return TV_OK;
}

/*
 * The modes thread @tid of @machine had just before @ev: for a record
 * that put its own thread on the CPU (a switch the trace lacks), whose
 * depth before it the running thread's does not tell.
 */
static uint8_t
match_depth_before(struct tv_state_index *idx, struct tv_trace_set *set,
    const struct tv_event *ev, uint32_t machine, int64_t tid, int32_t cpu)
{
	struct tv_state *s = tv_state_create(set);
	const struct tv_thread *t;
	uint8_t n = 0;

	if (tv_state_before_event(idx, ev, s, NULL) == TV_OK &&
	    (t = match_thread(s, machine, tid, cpu)) != NULL)
		n = t->nmodes;
	tv_state_destroy(s);
	return n;
}

/* See match.h. */
enum tv_status
tv_match_begin(struct tv_state_index *idx, struct tv_trace_set *set,
    const struct tv_event *ev, struct tv_match **m, struct tv_event *out,
    enum tv_match_kind *kind, struct tv_error *err)
{
	const struct tv_thread *t, *w;
	struct tv_event_owner o;
	struct tv_match *mt;
	enum tv_match_kind sk;
	enum tv_status st;
	int64_t tid_b = TV_TID_UNKNOWN;
	uint8_t depth_b = 0, d;
	bool woken_b = false;
	uint32_t machine;
	int32_t cpu = ev->stream->cpu;

	*m = NULL;
	if (kind != NULL)
		*kind = TV_MATCH_NONE;
	if (ev->rec.kind != TV_REC_EVENT)
		return TV_NOT_FOUND;
	st = match_span(set, ev, m, out, &sk);
	if (sk != TV_MATCH_NONE) {
		if (kind != NULL)
			*kind = sk;
		return st;
	}
	mt = tv_xcalloc(1, sizeof(*mt));
	mt->state = tv_state_create(set);
	st = tv_state_before_event(idx, ev, mt->state, err);
	if (st != TV_OK) {
		tv_match_destroy(mt);
		return st;
	}
	machine = tv_state_machine_of(mt->state, ev->stream);
	t = tv_state_running(mt->state, machine, cpu);
	if (t != NULL) {
		tid_b = t->tid;
		depth_b = t->nmodes;
	}
	w = match_woken(mt->state, ev->rec.ts);
	woken_b = w != NULL;
	(void)tv_state_apply(mt->state, ev, &o, NULL);
	t = tv_state_running(mt->state, machine, cpu);
	if (t != NULL && t->tid != tid_b && o.from_context &&
	    o.tid == t->tid) {
		/* put there by its own record: did that record move it? */
		d = match_depth_before(idx, set, ev, machine, t->tid, cpu);
		if (d != t->nmodes) {
			tid_b = t->tid;
			depth_b = d;
		}
	}
	mt->machine = machine;
	mt->cpu = cpu;
	st = TV_NOT_FOUND;
	if (t != NULL && t->tid == tid_b && t->nmodes > depth_b &&
	    match_mode(t)) {
		/* an entry: forward to the record that pops it */
		mt->kind = TV_MATCH_MODE_EXIT;
		mt->tid = t->tid;
		mt->depth = t->nmodes;
		st = TV_OK;
	} else if (t != NULL && t->tid == tid_b && t->nmodes < depth_b) {
		/* an exit: back to the record that pushed the level */
		mt->kind = TV_MATCH_MODE_ENTRY;
		st = match_entry(idx, set, ev, machine, tid_b, cpu, depth_b,
		    out);
	} else if (t != NULL && t->tid != tid_b &&
	    t->woken != TV_TIME_NONE && t->woken < ev->rec.ts) {
		mt->kind = TV_MATCH_WAKEUP;
		st = match_wakeup(set, t->woken, out);
	} else if (!woken_b && (w = match_woken(mt->state, ev->rec.ts)) !=
	    NULL) {
		mt->kind = TV_MATCH_SWITCH_IN;
		mt->tid = w->tid;
		mt->machine = w->machine;
		st = TV_OK;
	}
	if (kind != NULL)
		*kind = mt->kind;
	if (st == TV_OK && (mt->kind == TV_MATCH_MODE_EXIT ||
	    mt->kind == TV_MATCH_SWITCH_IN)) {
		*m = mt;
		return TV_OK;
	}
	tv_match_destroy(mt);
	return st;
}

/* See match.h. */
bool
tv_match_step(struct tv_match *m, const struct tv_event *ev)
{
	const struct tv_thread *t;

	if (m->kind == TV_MATCH_SPAN_EXIT)
		return match_span_is(m->spans, ev, m->trace, m->cpu,
		    TV_SPAN_EXIT, m->span_depth);
	(void)tv_state_apply(m->state, ev, NULL, NULL);
	t = match_thread(m->state, m->machine, m->tid, m->cpu);
	if (m->kind == TV_MATCH_MODE_EXIT)
		return t != NULL && t->nmodes < m->depth;
	return t != NULL && t->state == TV_TS_RUNNING;
}

/* See match.h. */
void
tv_match_destroy(struct tv_match *m)
{
	if (m == NULL)
		return;
	tv_state_destroy(m->state);
	tv_span_reader_destroy(m->spans);
	free(m);
}
