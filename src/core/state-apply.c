/*
 * The transitions: tv_state_apply() resolves each event class to its
 * rule once (cached by class index), decodes only events that a rule or
 * an owner context field needs, reads the rule's fields and changes the
 * thread table (state.c) accordingly.  Nothing is allocated per event
 * once the tables have grown to the trace's size.
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

/* ---- reading decoded fields ---- */

/*
 * Member @name of struct value @v, trying the index that matched last
 * time first (the same class has the same layout); NULL if none.
 */
static const struct tv_value *
state_member(const struct tv_value *v, const char *name, uint16_t *hint)
{
	uint32_t i;

	if (v == NULL || v->fc == NULL || v->fc->kind != TV_FC_STRUCT)
		return NULL;
	if (*hint < v->kids.count && v->kids.items[*hint].name != NULL &&
	    strcmp(v->kids.items[*hint].name, name) == 0)
		return &v->kids.items[*hint];
	for (i = 0; i < v->kids.count; i++) {
		if (v->kids.items[i].name != NULL &&
		    strcmp(v->kids.items[i].name, name) == 0) {
			*hint = (uint16_t)TV_MIN(i, 0xffffu);
			return &v->kids.items[i];
		}
	}
	return NULL;
}

/* The first of the '|'-separated field names @names present in @v. */
static const struct tv_value *
state_arg(const struct tv_value *v, const char *names, uint16_t *hint)
{
	const struct tv_value *f;
	const char *bar;
	char one[64];
	size_t n;

	if (names == NULL)
		return NULL;
	for (;;) {
		bar = strchr(names, '|');
		if (bar == NULL)
			return state_member(v, names, hint);
		n = TV_MIN((size_t)(bar - names), sizeof(one) - 1);
		memcpy(one, names, n);
		one[n] = '\0';
		f = state_member(v, one, hint);
		if (f != NULL)
			return f;
		names = bar + 1;
	}
}

/* Integer argument @a of the event; false if absent. */
static bool
state_int(const struct tv_value *payload, struct state_class *sc,
    enum tv_state_arg a, int64_t *out)
{
	const struct tv_value *f;

	f = state_arg(payload, sc->rule->args[a], &sc->arg_idx[a]);
	return f != NULL && tv_value_as_int(f, out);
}

/* String argument @a of the event; false if absent. */
static bool
state_str(const struct tv_value *payload, struct state_class *sc,
    enum tv_state_arg a, char *buf, size_t size)
{
	const struct tv_value *f;

	f = state_arg(payload, sc->rule->args[a], &sc->arg_idx[a]);
	return tv_value_str(f, buf, size);
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
    const struct tv_value *p, struct state_class *sc, int64_t ts)
{
	struct tv_thread *prev = NULL, *next;
	char name[TV_THREAD_NAME_MAX];
	int64_t tid, ntid, ps, prev_tid = TV_TID_UNKNOWN;
	bool have_ps;

	if (!state_int(p, sc, TV_ARG_TID2, &ntid))
		return;
	if (state_int(p, sc, TV_ARG_TID, &tid))
		prev = tv_state_get(s, machine, tid, c->cpu);
	else if (c->cur != TV_TID_UNKNOWN)
		prev = tv_state_get(s, machine, c->cur, c->cpu);
	if (prev != NULL) {
		prev->woken = TV_TIME_NONE;
		have_ps = state_int(p, sc, TV_ARG_STATE, &ps);
		state_set(prev, state_from_prev(prev, ps, have_ps), ts);
		prev->gone = have_ps && (ps & LINUX_EXIT_BITS) != 0;
		if (!have_ps)
			prev->uncertain = true;
		prev->cpu = c->cpu;
		if (state_str(p, sc, TV_ARG_NAME, name, sizeof(name)))
			tv_thread_set_name(prev, name);
		prev_tid = prev->tid;
	}
	/* switching in may grow the thread table: @prev is stale after */
	next = state_switch_in(s, machine, c, ntid, ts);
	if (prev_tid != TV_TID_UNKNOWN && prev_tid != ntid)
		c->out = prev_tid;
	if (next != NULL && state_str(p, sc, TV_ARG_NAME2, name, sizeof(name)))
		tv_thread_set_name(next, name);
}

/* Apply a fork: the child exists, runnable, with its parent's name. */
static void
state_do_fork(struct tv_state *s, uint32_t machine, struct tv_state_cpu *c,
    const struct tv_value *p, struct state_class *sc, int64_t ts)
{
	struct tv_thread *parent = NULL, *child;
	char name[TV_THREAD_NAME_MAX];
	int64_t ptid, ppid = TV_TID_UNKNOWN, ctid, cpid = TV_TID_UNKNOWN;
	int64_t pppid = TV_TID_UNKNOWN;
	char pname[TV_THREAD_NAME_MAX] = "";

	if (!state_int(p, sc, TV_ARG_TID2, &ctid))
		return;
	if (state_int(p, sc, TV_ARG_TID, &ptid) ||
	    (c != NULL && (ptid = c->cur) != TV_TID_UNKNOWN)) {
		parent = tv_state_get(s, machine, ptid, c != NULL ? c->cpu : 0);
		if (parent != NULL) {
			if (state_int(p, sc, TV_ARG_PID, &ppid))
				parent->pid = ppid;
			ppid = parent->pid;
			pppid = parent->ppid;
			if (state_str(p, sc, TV_ARG_NAME, name, sizeof(name)))
				tv_thread_set_name(parent, name);
			memcpy(pname, parent->name, sizeof(pname));
		}
	}
	(void)state_int(p, sc, TV_ARG_PID2, &cpid);
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
	if (state_str(p, sc, TV_ARG_NAME2, name, sizeof(name)))
		tv_thread_set_name(child, name);
	state_set(child, TV_TS_RUNNABLE, ts);
}

/* A statedump entry of pid 0 names the idle task of every CPU. */
static void
state_name_idle(struct tv_state *s, uint32_t machine,
    const struct tv_value *p, struct state_class *sc)
{
	char name[TV_THREAD_NAME_MAX];
	struct tv_thread *t;
	uint32_t cpu;

	if (!state_str(p, sc, TV_ARG_NAME, name, sizeof(name)))
		return;
	for (cpu = 0; cpu < s->ncpus[machine]; cpu++) {
		t = tv_state_get(s, machine, 0, (int32_t)cpu);
		if (t != NULL)
			tv_thread_set_name(t, name);
	}
}

/* Apply a statedump entry: identity always, state only if unknown yet. */
static void
state_do_statedump(struct tv_state *s, uint32_t machine,
    const struct tv_value *p, struct state_class *sc, int64_t ts)
{
	struct tv_thread *t;
	char name[TV_THREAD_NAME_MAX];
	enum tv_thread_state st;
	int64_t tid, v;

	if (!state_int(p, sc, TV_ARG_TID, &tid))
		return;
	if (tid == 0) {
		state_name_idle(s, machine, p, sc);
		return;
	}
	t = tv_state_get(s, machine, tid, 0);
	if (t == NULL)
		return;
	if (state_int(p, sc, TV_ARG_PID, &v))
		t->pid = v;
	if (state_int(p, sc, TV_ARG_PPID, &v))
		t->ppid = v;
	if (state_str(p, sc, TV_ARG_NAME, name, sizeof(name)))
		tv_thread_set_name(t, name);
	if (t->state == TV_TS_UNKNOWN &&
	    state_int(p, sc, TV_ARG_STATE, &v)) {
		st = state_from_status(v);
		if (st != TV_TS_UNKNOWN) {
			state_set(t, st, ts);
			/* "RUN" may mean running on a CPU we do not know */
			t->uncertain = v == 6;
		}
	}
	if (t->cpu == TV_CPU_UNKNOWN && state_int(p, sc, TV_ARG_CPU, &v) &&
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
    const struct tv_value *p, struct state_class *sc, int64_t ctx)
{
	int64_t tid;

	if (state_int(p, sc, TV_ARG_TID, &tid))
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
    const struct tv_value *p, struct state_class *sc, uint8_t action,
    int64_t ts)
{
	struct tv_thread *t, *parent;
	int64_t tid;

	if (!state_int(p, sc, TV_ARG_TID, &tid))
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

/* Apply the rule of one decoded event. */
static void
state_do_rule(struct tv_state *s, const struct state_trace *st,
    struct tv_state_cpu *c, const struct tv_value *p, struct state_class *sc,
    int64_t ctx, int64_t ts)
{
	uint8_t (*hook)(const struct tv_state_rule *, const struct tv_value *) =
	    st->trace->ops != NULL ? st->trace->ops->state_hook : NULL;
	uint32_t machine = st->machine;
	char name[TV_THREAD_NAME_MAX * 4];
	struct tv_thread *t;
	const char *base;
	int64_t v;

	switch (sc->rule->action) {
	case TV_SA_SWITCH:
		if (c != NULL)
			state_do_switch(s, machine, c, p, sc, ts);
		return;
	case TV_SA_FORK:
		state_do_fork(s, machine, c, p, sc, ts);
		return;
	case TV_SA_STATEDUMP:
		state_do_statedump(s, machine, p, sc, ts);
		return;
	case TV_SA_HOOK:
		if (hook != NULL)
			state_do_task(s, machine, c, p, sc, hook(sc->rule, p),
			    ts);
		return;
	case TV_SA_TASK_WAKEUP:
	case TV_SA_TASK_NEW:
	case TV_SA_TASK_EXIT:
		state_do_task(s, machine, c, p, sc, sc->rule->action, ts);
		return;
	default:
		break;
	}
	t = state_subject(s, machine, c, p, sc, ctx);
	if (t == NULL)
		return;
	switch (sc->rule->action) {
	case TV_SA_EXEC:
		if (state_str(p, sc, TV_ARG_NAME, name, sizeof(name))) {
			base = strrchr(name, '/');
			tv_thread_set_name(t, base != NULL ? base + 1 : name);
		}
		break;
	case TV_SA_EXIT:
		/*
		 * The name it dies with is the kernel's last word on it: a
		 * trace without exec events named it at fork ("sh" for an
		 * "ls" a shell started).
		 */
		if (state_str(p, sc, TV_ARG_NAME, name, TV_THREAD_NAME_MAX))
			tv_thread_set_name(t, name);
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
		if (state_str(p, sc, TV_ARG_NAME, name, TV_THREAD_NAME_MAX))
			tv_thread_set_name(t, name);
		if (state_int(p, sc, TV_ARG_CPU, &v) && v >= 0 &&
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

/* Resolve the class facts of @sc once. */
static void
state_resolve(struct state_trace *st, struct state_class *sc,
    const struct tv_event_class *cls)
{
	size_t i;

	sc->resolved = 1;
	sc->rule = tv_state_rule_find(cls->name, st->trace->ops);
	for (i = 0; sc->rule != NULL && i < TV_ARG_COUNT; i++)
		if (sc->rule->args[i] != NULL)
			sc->reads_fields = 1;
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

/* See state.h. */
enum tv_status
tv_state_apply(struct tv_state *s, const struct tv_event *ev,
    struct tv_event_owner *owner, struct tv_error *err)
{
	const struct tv_event_class *cls;
	struct tv_event_owner o, *op = owner != NULL ? owner : &o;
	struct tv_event_fields f;
	struct state_trace *st;
	struct state_class *sc;
	struct tv_state_cpu *c;
	struct tv_thread *u;
	uint32_t machine;
	bool need;

	(void)err;
	tv_event_owner_reset(op);
	st = state_trace_of(s, ev->stream);
	if (st == NULL)
		return TV_OK;
	machine = st->machine;
	if (ev->rec.ts != TV_TIME_NONE)
		s->time = ev->rec.ts;
	c = tv_state_cpu_of(s, machine, ev->stream->cpu);
	if (ev->rec.kind != TV_REC_EVENT) {
		state_lost(s, machine, ev->stream->cpu);
		return TV_OK;
	}
	if (ev->rec.class_index >= st->nclasses)
		state_grow_classes(st);
	if (ev->rec.class_index >= st->nclasses)
		return TV_OK;
	sc = &st->classes[ev->rec.class_index];
	cls = st->trace->classes[ev->rec.class_index];
	if (!sc->resolved)
		state_resolve(st, sc, cls);
	need = sc->reads_fields || !sc->owner_known || sc->has_owner;
	if (!need) {
		/* syscall, IRQ, ...: no field to read, no decoding */
		state_owner_from_cpu(s, machine, c, op);
		if (sc->rule != NULL)
			state_do_rule(s, st, c, NULL, sc, TV_TID_UNKNOWN,
			    ev->rec.ts);
		return TV_OK;
	}
	tv_arena_reset(&s->arena);
	if (tv_event_decode_scopes(ev, &s->arena, &f, TV_SCOPES_EVENT,
	    NULL) != TV_OK) {
		state_owner_from_cpu(s, machine, c, op);
		return TV_OK;
	}
	if (!sc->owner_known) {
		sc->owner_known = 1;
		sc->has_owner = tv_event_owner(&f, op);
		tv_event_owner_reset(op);
	}
	if (sc->has_owner && tv_event_owner(&f, op)) {
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
		state_do_rule(s, st, c, f.scope[TV_SCOPE_EVENT_PAYLOAD], sc,
		    op->from_context ? op->tid : TV_TID_UNKNOWN, ev->rec.ts);
	return TV_OK;
}
