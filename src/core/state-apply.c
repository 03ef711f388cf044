/*
 * The transitions: each event class resolved to its rule once (cached by
 * class index); what a record says, read by tv_state_read() (state-
 * read.c, decoding only the events a rule or an owner field needs), is
 * applied to the thread table (state.c) by tv_state_apply_read(), in
 * timeline order; tv_state_apply() does both.  Nothing is allocated per
 * event once the tables have grown to the trace's size.
 */
#include "tview/tview.h"

#include <string.h>

#include "tview/format.h"
#include "tview/util.h"
#include "state-priv.h"

/* prev_state bits (Linux): exiting tasks. */
#define LINUX_EXIT_BITS		0x30	/* EXIT_DEAD | EXIT_ZOMBIE */

/* The state_trace of @stream's trace (cached: streams come in runs). */
static struct state_trace *
state_trace_of(struct tv_state *s, const struct tv_stream *stream)
{
	uint32_t i;

	if (stream == s->last_stream)
		return s->last_trace;
	for (i = 0; i < s->ntraces; i++) {
		if (s->traces[i].trace == stream->trace) {
			s->last_stream = stream;
			s->last_trace = &s->traces[i];
			return s->last_trace;
		}
	}
	/* a trace the set opened after @s was made: taken in, once */
	if (s->set->ntraces > s->ntraces) {
		tv_state_grow_traces(s);
		return state_trace_of(s, stream);
	}
	return NULL;
}

/*
 * Grow @st's class table to the classes its trace has now: a trace
 * followed gains some (tv_trace_set_extend) while states are kept; the
 * new entries are resolved when first met, as the others.
 */
static void
state_grow_classes(struct state_trace *st)
{
	uint32_t n = st->trace->nclasses;

	if (n <= st->nclasses)
		return;
	st->classes = tv_xreallocarray(st->classes, n, sizeof(*st->classes));
	memset(st->classes + st->nclasses, 0,
	    sizeof(*st->classes) * (n - st->nclasses));
	st->nclasses = n;
}

/* ---- the input's arguments ---- */

/* Integer argument @a of the event; false if absent. */
static bool
in_int(const struct state_input *in, enum tv_state_arg a, int64_t *out)
{
	if (!(in->have >> a & 1))
		return false;
	*out = in->arg[a];
	return true;
}

/* Name argument @a (TV_ARG_NAME or TV_ARG_NAME2), or NULL if absent. */
static const char *
in_str(const struct state_input *in, enum tv_state_arg a)
{
	if (!(in->have >> a & 1))
		return NULL;
	return a == TV_ARG_NAME ? in->name : in->name2;
}

/* ---- transitions ---- */

/* Set @t's scheduling state at @ts; the state is proved, not guessed. */
static void
state_set(struct tv_thread *t, enum tv_thread_state st, int64_t ts)
{
	if (t->state != st || t->since == TV_TIME_NONE)
		t->since = ts;
	t->state = (uint8_t)st;
	t->uncertain = false;
}

/*
 * Push/pop execution modes.  A system call never nests in a system call:
 * an entry on top of one is the same call seen twice (a trace with both
 * raw_syscalls:* and syscalls:*) or one whose exit the trace lacks (perf
 * disables the exit event before the entry one), so it pushes nothing.
 */
static void
state_mode_push(struct tv_thread *t, enum tv_exec_mode m)
{
	if (t->nmodes == 0 && (m == TV_MODE_SYSCALL || m == TV_MODE_TRAP))
		t->modes[t->nmodes++] = TV_MODE_USER;
	if (m == TV_MODE_SYSCALL && t->modes[t->nmodes - 1] == m)
		return;
	if (t->nmodes < TV_MODE_STACK_MAX)
		t->modes[t->nmodes++] = (uint8_t)m;
}

/* Pop mode @m if it is on top; a stray exit only tells the mode below. */
static void
state_mode_pop(struct tv_thread *t, enum tv_exec_mode m)
{
	if (t->nmodes > 0 && t->modes[t->nmodes - 1] == m) {
		t->nmodes--;
		return;
	}
	if (t->nmodes == 0 && m == TV_MODE_SYSCALL)
		t->modes[t->nmodes++] = TV_MODE_USER;
}

/* Scheduling state of a thread switched out with Linux prev_state @ps. */
static enum tv_thread_state
state_from_prev(const struct tv_thread *t, int64_t ps, bool have)
{
	if (t->state == TV_TS_ZOMBIE || t->state == TV_TS_EXITED)
		return (enum tv_thread_state)t->state;
	if (!have)
		return TV_TS_UNKNOWN;
	if ((ps & 0xff) == 0)
		return TV_TS_RUNNABLE;		/* preempted */
	if (ps & LINUX_EXIT_BITS)
		return TV_TS_ZOMBIE;
	return TV_TS_BLOCKED;
}

/* LTTng/LTTV statedump status to a state; UNKNOWN when it proves none. */
static enum tv_thread_state
state_from_status(int64_t status)
{
	switch (status) {
	case 1:		/* WAIT_FORK */
	case 2:		/* WAIT_CPU */
	case 6:		/* RUN: running or runnable, we cannot tell */
		return TV_TS_RUNNABLE;
	case 3:		/* EXIT */
	case 4:		/* ZOMBIE */
		return TV_TS_ZOMBIE;
	case 5:		/* WAIT */
		return TV_TS_BLOCKED;
	case 7:		/* DEAD */
		return TV_TS_EXITED;
	default:
		return TV_TS_UNKNOWN;
	}
}

/* Make @tid current on @c, running since @ts. */
static struct tv_thread *
state_switch_in(struct tv_state *s, uint32_t machine, struct tv_state_cpu *c,
    int64_t tid, int64_t ts)
{
	struct tv_thread *t = tv_state_get(s, machine, tid, c->cpu);

	c->cur = tid;
	c->out = TV_TID_UNKNOWN;
	c->uncertain = 0;
	if (t == NULL)
		return NULL;
	state_set(t, TV_TS_RUNNING, ts);
	t->gone = false;
	t->cpu = c->cpu;
	return t;
}

/* Apply sched_switch (all formats). */
static void
state_do_switch(struct tv_state *s, uint32_t machine, struct tv_state_cpu *c,
    const struct state_input *in, int64_t ts)
{
	struct tv_thread *prev = NULL, *next;
	const char *nm;
	int64_t tid, ntid, ps, prev_tid = TV_TID_UNKNOWN;
	bool have_ps;

	if (!in_int(in, TV_ARG_TID2, &ntid))
		return;
	if (in_int(in, TV_ARG_TID, &tid))
		prev = tv_state_get(s, machine, tid, c->cpu);
	else if (c->cur != TV_TID_UNKNOWN)
		prev = tv_state_get(s, machine, c->cur, c->cpu);
	if (prev != NULL) {
		prev->woken = TV_TIME_NONE;
		have_ps = in_int(in, TV_ARG_STATE, &ps);
		state_set(prev, state_from_prev(prev, ps, have_ps), ts);
		prev->gone = have_ps && (ps & LINUX_EXIT_BITS) != 0;
		if (!have_ps)
			prev->uncertain = true;
		prev->cpu = c->cpu;
		if ((nm = in_str(in, TV_ARG_NAME)) != NULL)
			tv_thread_set_name(prev, nm);
		prev_tid = prev->tid;
	}
	/* switching in may grow the thread table: @prev is stale after */
	next = state_switch_in(s, machine, c, ntid, ts);
	if (prev_tid != TV_TID_UNKNOWN && prev_tid != ntid)
		c->out = prev_tid;
	if (next != NULL && (nm = in_str(in, TV_ARG_NAME2)) != NULL)
		tv_thread_set_name(next, nm);
}

/* Apply a fork: the child exists, runnable, with its parent's name. */
static void
state_do_fork(struct tv_state *s, uint32_t machine, struct tv_state_cpu *c,
    const struct state_input *in, int64_t ts)
{
	struct tv_thread *parent = NULL, *child;
	const char *nm;
	int64_t ptid, ppid = TV_TID_UNKNOWN, ctid, cpid = TV_TID_UNKNOWN;
	int64_t pppid = TV_TID_UNKNOWN;
	char pname[TV_THREAD_NAME_MAX] = "";

	if (!in_int(in, TV_ARG_TID2, &ctid))
		return;
	if (in_int(in, TV_ARG_TID, &ptid) ||
	    (c != NULL && (ptid = c->cur) != TV_TID_UNKNOWN)) {
		parent = tv_state_get(s, machine, ptid, c != NULL ? c->cpu : 0);
		if (parent != NULL) {
			if (in_int(in, TV_ARG_PID, &ppid))
				parent->pid = ppid;
			ppid = parent->pid;
			pppid = parent->ppid;
			if ((nm = in_str(in, TV_ARG_NAME)) != NULL)
				tv_thread_set_name(parent, nm);
			memcpy(pname, parent->name, sizeof(pname));
		}
	}
	(void)in_int(in, TV_ARG_PID2, &cpid);
	child = tv_state_lookup(s, machine, ctid, 0);
	if (child != NULL && ctid != 0)
		tv_state_remove(s, child);		/* a reused tid */
	child = tv_state_get(s, machine, ctid, c != NULL ? c->cpu : 0);
	if (child == NULL)
		return;
	child->pid = cpid;
	if (cpid != TV_TID_UNKNOWN && cpid != ctid)
		child->ppid = pppid;		/* a thread of the parent's */
	else if (cpid == ctid)
		child->ppid = ppid;
	memcpy(child->name, pname, sizeof(child->name));
	if ((nm = in_str(in, TV_ARG_NAME2)) != NULL)
		tv_thread_set_name(child, nm);
	state_set(child, TV_TS_RUNNABLE, ts);
}

/* A statedump entry of pid 0 names the idle task of every CPU. */
static void
state_name_idle(struct tv_state *s, uint32_t machine,
    const struct state_input *in)
{
	const char *nm;
	struct tv_thread *t;
	uint32_t cpu;

	if ((nm = in_str(in, TV_ARG_NAME)) == NULL)
		return;
	for (cpu = 0; cpu < s->ncpus[machine]; cpu++) {
		t = tv_state_get(s, machine, 0, (int32_t)cpu);
		if (t != NULL)
			tv_thread_set_name(t, nm);
	}
}

/* Apply a statedump entry: identity always, state only if unknown yet. */
static void
state_do_statedump(struct tv_state *s, uint32_t machine,
    const struct state_input *in, int64_t ts)
{
	struct tv_thread *t;
	const char *nm;
	enum tv_thread_state st;
	int64_t tid, v;

	if (!in_int(in, TV_ARG_TID, &tid))
		return;
	if (tid == 0) {
		state_name_idle(s, machine, in);
		return;
	}
	t = tv_state_get(s, machine, tid, 0);
	if (t == NULL)
		return;
	if (in_int(in, TV_ARG_PID, &v))
		t->pid = v;
	if (in_int(in, TV_ARG_PPID, &v))
		t->ppid = v;
	if ((nm = in_str(in, TV_ARG_NAME)) != NULL)
		tv_thread_set_name(t, nm);
	if (t->state == TV_TS_UNKNOWN &&
	    in_int(in, TV_ARG_STATE, &v)) {
		st = state_from_status(v);
		if (st != TV_TS_UNKNOWN) {
			state_set(t, st, ts);
			/* "RUN" may mean running on a CPU we do not know */
			t->uncertain = v == 6;
		}
	}
	if (t->cpu == TV_CPU_UNKNOWN && in_int(in, TV_ARG_CPU, &v) &&
	    v >= 0 && v < STATE_MAX_CPU)
		t->cpu = (int32_t)v;
}

/*
 * The thread a rule's optional TID argument names, else the one the
 * event's context names (@ctx, TV_TID_UNKNOWN if none), else the current
 * one.
 */
static struct tv_thread *
state_subject(struct tv_state *s, uint32_t machine, struct tv_state_cpu *c,
    const struct state_input *in, int64_t ctx)
{
	int64_t tid;

	if (in_int(in, TV_ARG_TID, &tid))
		return tv_state_get(s, machine, tid, c != NULL ? c->cpu : 0);
	if (ctx != TV_TID_UNKNOWN)
		return tv_state_get(s, machine, ctx, c != NULL ? c->cpu : 0);
	if (c == NULL || c->cur == TV_TID_UNKNOWN)
		return NULL;
	return tv_state_get(s, machine, c->cur, c->cpu);
}

/*
 * The TASK actions a driver's state_hook returns for an event whose
 * payload says what happened to the thread in TID: woken (runnable
 * unless running), new (a process of its own, child of the thread
 * current on the CPU, named after it), or the current thread exited.
 */
static void
state_do_task(struct tv_state *s, uint32_t machine, struct tv_state_cpu *c,
    const struct state_input *in, uint8_t action,
    int64_t ts)
{
	struct tv_thread *t, *parent;
	int64_t tid;

	if (!in_int(in, TV_ARG_TID, &tid))
		return;
	switch (action) {
	case TV_SA_TASK_WAKEUP:
		t = tv_state_get(s, machine, tid, c != NULL ? c->cpu : 0);
		if (t != NULL && t->state != TV_TS_RUNNING)
			state_set(t, TV_TS_RUNNABLE, ts);
		break;
	case TV_SA_TASK_NEW:
		t = tv_state_lookup(s, machine, tid, 0);
		if (t != NULL && tid != 0)
			tv_state_remove(s, t);
		t = tv_state_get(s, machine, tid, 0);
		if (t == NULL)
			return;
		t->pid = tid;
		parent = c != NULL && c->cur != TV_TID_UNKNOWN ?
		    tv_state_lookup(s, machine, c->cur, c->cpu) : NULL;
		if (parent != NULL) {
			t->ppid = parent->pid;
			memcpy(t->name, parent->name, sizeof(t->name));
		}
		state_set(t, TV_TS_RUNNABLE, ts);
		break;
	case TV_SA_TASK_EXIT:
		if (c == NULL || c->cur == TV_TID_UNKNOWN)
			return;
		t = tv_state_get(s, machine, c->cur, c->cpu);
		if (t != NULL)
			state_set(t, TV_TS_ZOMBIE, ts);
		break;
	default:
		break;
	}
}

/* Apply the rule of one event, read into @in (its action is the rule's,
 * or what the rule's hook made of the payload). */
static void
state_do_rule(struct tv_state *s, const struct state_trace *st,
    struct tv_state_cpu *c, const struct state_input *in, int64_t ctx,
    int64_t ts)
{
	uint32_t machine = st->machine;
	struct tv_thread *t;
	const char *nm;
	int64_t v;

	switch (in->action) {
	case TV_SA_NONE:
	case TV_SA_HOOK:	/* not read: nothing is known */
		return;
	case TV_SA_SWITCH:
		if (c != NULL)
			state_do_switch(s, machine, c, in, ts);
		return;
	case TV_SA_FORK:
		state_do_fork(s, machine, c, in, ts);
		return;
	case TV_SA_STATEDUMP:
		state_do_statedump(s, machine, in, ts);
		return;
	case TV_SA_TASK_WAKEUP:
	case TV_SA_TASK_NEW:
	case TV_SA_TASK_EXIT:
		state_do_task(s, machine, c, in, in->action, ts);
		return;
	default:
		break;
	}
	t = state_subject(s, machine, c, in, ctx);
	if (t == NULL)
		return;
	switch (in->action) {
	case TV_SA_EXEC:
		/* the name is the file's base name (tv_state_read) */
		if ((nm = in_str(in, TV_ARG_NAME)) != NULL)
			tv_thread_set_name(t, nm);
		break;
	case TV_SA_EXIT:
		/*
		 * The name it dies with is the kernel's last word on it: a
		 * trace without exec events named it at fork ("sh" for an
		 * "ls" a shell started).
		 */
		if ((nm = in_str(in, TV_ARG_NAME)) != NULL)
			tv_thread_set_name(t, nm);
		state_set(t, t->pid != TV_TID_UNKNOWN && t->pid != t->tid ?
		    TV_TS_EXITED : TV_TS_ZOMBIE, ts);
		break;
	case TV_SA_FREE:
		if (t->tid != 0 && (c == NULL || c->cur != t->tid))
			tv_state_remove(s, t);
		else
			state_set(t, TV_TS_EXITED, ts);
		break;
	case TV_SA_WAKEUP:
		/* only a wake-up from a wait starts a wake-up latency */
		if (t->state != TV_TS_RUNNING && t->state != TV_TS_RUNNABLE)
			t->woken = ts;
		if (t->state != TV_TS_RUNNING || t->uncertain)
			state_set(t, TV_TS_RUNNABLE, ts);
		if ((nm = in_str(in, TV_ARG_NAME)) != NULL)
			tv_thread_set_name(t, nm);
		if (in_int(in, TV_ARG_CPU, &v) && v >= 0 &&
		    v < STATE_MAX_CPU && t->state != TV_TS_RUNNING &&
		    t->tid != 0)
			t->cpu = (int32_t)v;
		break;
	case TV_SA_KTHREAD:
		if (t->pid == TV_TID_UNKNOWN)
			t->pid = t->tid;
		break;
	case TV_SA_SYSCALL_ENTRY:
		state_mode_push(t, TV_MODE_SYSCALL);
		break;
	case TV_SA_SYSCALL_EXIT:
		state_mode_pop(t, TV_MODE_SYSCALL);
		break;
	case TV_SA_IRQ_ENTRY:
		state_mode_push(t, TV_MODE_IRQ);
		break;
	case TV_SA_IRQ_EXIT:
		state_mode_pop(t, TV_MODE_IRQ);
		break;
	case TV_SA_SOFTIRQ_ENTRY:
		state_mode_push(t, TV_MODE_SOFTIRQ);
		break;
	case TV_SA_SOFTIRQ_EXIT:
		state_mode_pop(t, TV_MODE_SOFTIRQ);
		break;
	case TV_SA_TRAP_ENTRY:
		state_mode_push(t, TV_MODE_TRAP);
		break;
	case TV_SA_TRAP_EXIT:
		state_mode_pop(t, TV_MODE_TRAP);
		break;
	default:
		break;
	}
}

/* Lost events on @stream's CPU: what we knew there is now uncertain. */
static void
state_lost(struct tv_state *s, uint32_t machine, int32_t cpu)
{
	struct tv_state_cpu *c = tv_state_cpu_of(s, machine, cpu);
	size_t i;

	if (c != NULL)
		c->uncertain = 1;
	for (i = 0; i < s->nthreads; i++) {
		if (s->threads[i].machine == machine &&
		    (c == NULL || s->threads[i].cpu == cpu))
			s->threads[i].uncertain = true;
	}
}

/*
 * Where member @names (a rule's '|'-separated field names) lies in
 * payload class @fc: the hint read_member() tries first, so that readers
 * on other threads, which keep no hints, seldom search; its name into
 * *@found (NULL when none is there).
 */
static uint16_t
state_hint(const struct tv_field_class *fc, const char *names,
    const char **found)
{
	size_t len;
	uint32_t i;

	*found = NULL;
	if (fc == NULL || fc->kind != TV_FC_STRUCT)
		return 0;
	for (;;) {
		len = strcspn(names, "|");
		for (i = 0; i < fc->structure.nmembers && i < 0xffffu; i++)
			if (fc->structure.members[i].name != NULL &&
			    strncmp(fc->structure.members[i].name, names,
			    len) == 0 &&
			    fc->structure.members[i].name[len] == '\0') {
				*found = fc->structure.members[i].name;
				return (uint16_t)i;
			}
		if (names[len] == '\0')
			return 0;
		names += len + 1;
	}
}

/* Resolve the class facts of @sc once. */
static void
state_resolve(struct state_trace *st, struct state_class *sc,
    const struct tv_event_class *cls)
{
	size_t i;

	sc->resolved = 1;
	sc->scopes = TV_SCOPES_EVENT;
	sc->rule = tv_state_rule_find(cls->name, st->trace->ops);
	for (i = 0; sc->rule != NULL && i < TV_ARG_COUNT; i++) {
		if (sc->rule->args[i] == NULL)
			continue;
		sc->reads_fields = 1;
		sc->arg_idx[i] = state_hint(cls->payload, sc->rule->args[i],
		    &sc->arg_name[i]);
	}
}

/* The class of event @ev, resolved, or NULL (a class @st does not know). */
static struct state_class *
state_class_of(struct state_trace *st, const struct tv_event *ev)
{
	struct state_class *sc;

	if (ev->rec.class_index >= st->nclasses)
		state_grow_classes(st);
	if (ev->rec.class_index >= st->nclasses ||
	    st->trace->classes[ev->rec.class_index] == NULL)
		return NULL;
	sc = &st->classes[ev->rec.class_index];
	if (!sc->resolved)
		state_resolve(st, sc, st->trace->classes[ev->rec.class_index]);
	return sc;
}

/* See state-priv.h. */
void
tv_state_prepare(struct tv_state *s)
{
	struct tv_event ev;
	uint32_t i, k;

	tv_state_grow_traces(s);
	memset(&ev, 0, sizeof(ev));
	ev.rec.kind = TV_REC_EVENT;
	for (i = 0; i < s->ntraces; i++) {
		for (k = 0; k < s->traces[i].trace->nclasses; k++) {
			ev.rec.class_index = k;
			(void)state_class_of(&s->traces[i], &ev);
		}
	}
	s->last_stream = NULL;
	s->last_trace = NULL;
}

/* Fill @o from the thread current on the event's CPU. */
static void
state_owner_from_cpu(const struct tv_state *s, uint32_t machine,
    const struct tv_state_cpu *c, struct tv_event_owner *o)
{
	const struct tv_thread *t;

	if (c == NULL || c->cur == TV_TID_UNKNOWN)
		return;
	o->tid = c->cur;
	t = tv_state_lookup(s, machine, c->cur, c->cpu);
	if (t == NULL)
		return;
	o->pid = t->pid;
	memcpy(o->name, t->name, sizeof(o->name));
}

/*
 * An event whose own context names the thread running on its CPU proves
 * who runs there: fill in an unknown CPU, and when it contradicts what we
 * had (a switch the trace lacks), trust the event and make the thread we
 * believed in unknown.  But ftrace tags the events fired during a switch
 * (switch_mm, TLB flushes) with the outgoing task: a @passive event (one
 * without a state rule) naming the task the last switch took out proves
 * nothing until the incoming one shows up, and a task switched out dead
 * never runs again.
 */
static void
state_context_proves(struct tv_state *s, uint32_t machine,
    struct tv_state_cpu *c, int64_t tid, bool passive, int64_t ts)
{
	struct tv_thread *was, *t;
	bool contra = c->cur != TV_TID_UNKNOWN && c->cur != tid;

	if (c->cur == tid) {
		c->out = TV_TID_UNKNOWN;	/* the switch is over */
		if (!c->uncertain)
			return;
	}
	if (contra) {
		t = tv_state_lookup(s, machine, tid, c->cpu);
		if ((t != NULL && t->gone) || (passive && tid == c->out))
			return;
		was = tv_state_lookup(s, machine, c->cur, c->cpu);
		if (was != NULL && was->state == TV_TS_RUNNING) {
			state_set(was, TV_TS_UNKNOWN, ts);
			was->uncertain = true;
		}
	}
	t = state_switch_in(s, machine, c, tid, ts);
	/* running, but since when the trace does not say */
	if (t != NULL && contra)
		t->uncertain = true;
}

/*
 * Ask the driver for a flat plan (flat.h) of what records of class @sc
 * (@cls) tell the state: @f's owner sources (NULL: the class names no
 * owner), then the members the rule reads.  None for a hook, which
 * reads the payload's tree.
 */
static void
state_flat_plan(const struct state_trace *st, struct state_class *sc,
    const struct tv_event_class *cls, const struct tv_event_fields *f)
{
	struct tv_flat_ask asks[TV_FLAT_MAX];
	unsigned n = 0, a;

	/* a hook reads the payload's tree; a member past the hints'
	   reach (state_hint) is found by its name only */
	if ((sc->rule != NULL && sc->rule->action == TV_SA_HOOK) ||
	    (cls->payload != NULL && cls->payload->kind == TV_FC_STRUCT &&
	    cls->payload->structure.nmembers >= 0xffffu))
		return;
	memset(&sc->source, 0, sizeof(sc->source));
	sc->source.tid = sc->source.pid = -1;
	if (f != NULL && !tv_event_owner_sources(f, sc->plan, &sc->source))
		return;
	memcpy(asks, sc->source.ask, sc->source.nask * sizeof(*asks));
	n = sc->source.nask;
	sc->flat_nargs = 0;
	for (a = 0; a < TV_ARG_COUNT; a++) {
		/* a member the payload lacks is never read */
		if (sc->rule == NULL || sc->rule->args[a] == NULL ||
		    sc->arg_name[a] == NULL)
			continue;
		if (n == TV_FLAT_MAX)
			return;
		sc->flat_args[sc->flat_nargs].arg = (uint8_t)a;
		sc->flat_args[sc->flat_nargs++].ask = (uint8_t)n;
		asks[n].scope = TV_SCOPE_EVENT_PAYLOAD;
		asks[n++].member = sc->arg_idx[a];
	}
	if (n > 0)
		sc->flat = tv_event_flat_plan(st->trace, cls, asks, n);
}

/*
 * The first event of class @sc decoded (@ev, read into @in) says whether
 * the class names its owner, and where: the readers of other threads
 * look (state-read.c), so the plans are made before the answer is given.
 */
static void
state_learn_owner(struct tv_state *s, const struct state_trace *st,
    struct state_class *sc, const struct tv_event *ev,
    const struct state_input *in)
{
	const struct tv_event_class *cls =
	    st->trace->classes[ev->rec.class_index];
	struct tv_event_fields f;

	if (!in->owner.from_context) {
		state_flat_plan(st, sc, cls, NULL);
		__atomic_store_n(&sc->owner, STATE_OWNER_NONE,
		    __ATOMIC_RELEASE);
		return;
	}
	tv_arena_reset(&s->arena);
	if (sc->plan == NULL && tv_event_decode_scopes(ev, &s->arena, &f,
	    TV_SCOPES_EVENT, NULL) == TV_OK) {
		sc->plan = tv_xmalloc(sizeof(*sc->plan));
		tv_event_owner_plan(&f, sc->plan);
		/* a payload nobody reads is not decoded (UST: most of a
		   record's bytes) */
		if (!sc->reads_fields && (sc->rule == NULL ||
		    sc->rule->action != TV_SA_HOOK) &&
		    !tv_owner_plan_needs_payload(sc->plan))
			sc->scopes = TV_SCOPES_EVENT &
			    ~TV_SCOPE_BIT(TV_SCOPE_EVENT_PAYLOAD);
		state_flat_plan(st, sc, cls, &f);
	}
	__atomic_store_n(&sc->owner, STATE_OWNER_FIELDS, __ATOMIC_RELEASE);
}

/* See state-priv.h. */
void
tv_state_learn(struct tv_state *s, const struct tv_event *ev,
    const struct state_input *in)
{
	struct state_trace *st = state_trace_of(s, ev->stream);
	struct state_class *sc;

	if (st == NULL || ev->rec.kind != TV_REC_EVENT ||
	    in->how != STATE_IN_READ)
		return;
	sc = state_class_of(st, ev);
	if (sc != NULL && sc->owner == STATE_OWNER_UNKNOWN)
		state_learn_owner(s, st, sc, ev, in);
}

/* See state-priv.h. */
void
tv_state_apply_read(struct tv_state *s, const struct tv_event *ev,
    const struct state_input *in, struct tv_event_owner *owner)
{
	struct tv_event_owner o, *op = owner != NULL ? owner : &o;
	struct state_input none, mine;
	struct state_trace *st;
	struct state_class *sc;
	struct tv_state_cpu *c;
	struct tv_thread *u;
	uint32_t machine;

	tv_event_owner_reset(op);
	st = state_trace_of(s, ev->stream);
	if (st == NULL)
		return;
	machine = st->machine;
	if (ev->rec.ts != TV_TIME_NONE)
		s->time = ev->rec.ts;
	c = tv_state_cpu_of(s, machine, ev->stream->cpu);
	if (ev->rec.kind != TV_REC_EVENT) {
		state_lost(s, machine, ev->stream->cpu);
		return;
	}
	sc = state_class_of(st, ev);
	if (sc == NULL)
		return;
	if (!sc->reads_fields && sc->owner == STATE_OWNER_NONE) {
		/* syscall, IRQ, ...: no field to read, whatever was read */
		state_owner_from_cpu(s, machine, c, op);
		if (sc->rule != NULL) {
			memset(&none, 0, sizeof(none));
			none.action = sc->rule->action;
			state_do_rule(s, st, c, &none, TV_TID_UNKNOWN,
			    ev->rec.ts);
		}
		return;
	}
	if (in->how == STATE_IN_CLASS || in->how == STATE_IN_UNREAD) {
		/* its reader did not know the class: read it here, the
		   hints left alone (workers may be reading them) */
		tv_arena_reset(&s->arena);
		tv_state_read(st, ev, &s->arena, &mine, false);
		in = &mine;
	}
	if (in->how != STATE_IN_READ) {
		state_owner_from_cpu(s, machine, c, op);
		return;
	}
	if (sc->owner == STATE_OWNER_UNKNOWN)
		state_learn_owner(s, st, sc, ev, in);
	if (sc->owner == STATE_OWNER_FIELDS)
		*op = in->owner;
	if (op->from_context) {
		if (c != NULL && (sc->rule == NULL ||
		    sc->rule->action != TV_SA_ECHO))
			state_context_proves(s, machine, c, op->tid,
			    sc->rule == NULL, ev->rec.ts);
		/* the idle task of a CPU always exists, named */
		u = op->tid == 0 && ev->stream->cpu >= 0 ?
		    tv_state_get(s, machine, 0, ev->stream->cpu) :
		    tv_state_lookup(s, machine, op->tid, ev->stream->cpu);
		if (u != NULL) {
			/* a context's pid (LTTng pid, perf_pid) is known */
			if (u->pid == TV_TID_UNKNOWN)
				u->pid = op->pid;
			if (op->pid == TV_TID_UNKNOWN)
				op->pid = u->pid;
			if (op->name[0] == '\0')
				memcpy(op->name, u->name, sizeof(op->name));
		}
	} else {
		state_owner_from_cpu(s, machine, c, op);
	}
	if (sc->rule != NULL)
		state_do_rule(s, st, c, in,
		    op->from_context ? op->tid : TV_TID_UNKNOWN, ev->rec.ts);
}

/* See state.h. */
enum tv_status
tv_state_apply(struct tv_state *s, const struct tv_event *ev,
    struct tv_event_owner *owner, struct tv_error *err)
{
	struct state_input in;
	struct state_trace *st;

	(void)err;
	st = state_trace_of(s, ev->stream);
	in.how = STATE_IN_CLASS;
	if (st != NULL && ev->rec.kind == TV_REC_EVENT &&
	    state_class_of(st, ev) != NULL) {
		tv_arena_reset(&s->arena);
		tv_state_read(st, ev, &s->arena, &in, true);
	}
	tv_state_apply_read(s, ev, &in, owner);
	return TV_OK;
}
