/*
 * LTTV's conventions for textDump's process columns (name, ppid, mode),
 * where they differ from tview's process state: who runs on a CPU and
 * its thread group come from tview's state (--dump passes the running
 * thread), but LTTV names, parents and execution modes follow rules of
 * their own, which this file replays record by record, as the LTTV
 * build that reads each trace-format version applies them:
 *
 *  - a process is named by the full path of its exec, or by its
 *    parent's name at fork, or by the statedump; the idle task is
 *    unnamed until the statedump names it ("swapper");
 *  - ppid is the thread id of the task running the fork (tview: its
 *    process), the statedump's parent_pid, or 0 when LTTV never learned
 *    it (a statedump entry whose parent it did not know yet);
 *  - modes form a stack of which only the top is printed: a fork child
 *    starts in user mode under a system call, a task first met in a
 *    switch or a wake-up starts in an unknown mode, an exit that does
 *    not match the top is ignored, system calls of the idle task are
 *    ignored, and the end of the statedump settles the unknown bottom
 *    modes (kernel threads in a system call, others in user mode under
 *    a system call);
 *  - a task switched out dead or freed is forgotten once both happened,
 *    but a CPU still shows the task it last switched in.
 *
 * LTTV's state is a process table keyed by pid (and CPU for pid 0);
 * ours mirrors it: a hash of live records, the records themselves kept
 * until the trace closes (a CPU may still point at a forgotten one).
 * Memory grows with the records that create processes, never more.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/field.h"
#include "tview/util.h"
#include "ltt-priv.h"

/* Execution modes, LTTV's state->t; printed by name. */
enum lv_mode {
	LV_MODE_UNKNOWN,
	LV_USER_MODE,
	LV_SYSCALL,
	LV_TRAP,
	LV_IRQ,
	LV_SOFTIRQ,
};

/* Scheduling status, LTTV's state->s: the rules test some of them. */
enum lv_status {
	LV_UNNAMED,
	LV_RUN,
	LV_WAIT_FORK,
	LV_WAIT_CPU,
	LV_WAIT,
	LV_EXIT,
	LV_ZOMBIE,
	LV_DEAD,
};

/* A mode stack deeper than this is a hostile trace: pushes stop. */
#define LV_STACK_MAX	4096u

/* One entry of a process's execution stack. */
struct lv_es {
	uint8_t	 t;	/* enum lv_mode */
	uint8_t	 s;	/* enum lv_status */
};

/* One LTTV process record. */
struct ltt_lv_proc {
	uint32_t	 pid;
	uint32_t	 cpu;		/* part of the key for pid 0 only */
	uint32_t	 ppid;
	const char	*name;		/* interned; "" unnamed */
	const char	*brand;		/* interned; "" unbranded */
	bool		 kthread;	/* LTTV's KERNEL_THREAD type */
	bool		 live;		/* in the table */
	uint8_t		 free_events;	/* switched out dead, freed */
	struct lv_es	*stack;		/* depth entries, owned */
	uint32_t	 depth;
	uint32_t	 cap;
};

/* Which LTTV applied the rules: each reads one format version. */
enum lv_variant {
	LV_V2_3,	/* no wake-up rule; statedump settles old entries */
	LV_V2_5,	/* wake-ups create tasks */
	LV_V2_6,	/* statedump end spares tasks scheduled out runnable */
};

/* The whole replay; ltt_trace_priv.lttv points to it. */
struct ltt_lttv {
	enum lv_variant		 variant;
	uint32_t		 ncpus;
	struct ltt_lv_proc	**running;	/* ncpus */
	struct ltt_lv_proc	**all;		/* every record, owned */
	size_t			 nall;
	size_t			 all_cap;
	struct ltt_lv_proc	**table;	/* open addressing */
	size_t			 table_cap;	/* power of two */
	size_t			 table_used;	/* live + tombstones */
	struct tv_intern	*names;
};

/* A deleted slot: probing goes on past it. */
static struct ltt_lv_proc lv_tomb;

static const char *const lv_mode_names[] = {
	[LV_MODE_UNKNOWN] = "MODE_UNKNOWN",
	[LV_USER_MODE] = "USER_MODE",
	[LV_SYSCALL] = "SYSCALL",
	[LV_TRAP] = "TRAP",
	[LV_IRQ] = "IRQ",
	[LV_SOFTIRQ] = "SOFTIRQ",
};

/* ---- the process table ---- */

/* LTTV's key equality: pid, and the CPU for the idle tasks. */
static bool
lv_same(const struct ltt_lv_proc *p, uint32_t pid, uint32_t cpu)
{
	return p->pid == pid && (pid != 0 || p->cpu == cpu);
}

/* Home slot of a key. */
static size_t
lv_slot(const struct ltt_lttv *lv, uint32_t pid, uint32_t cpu)
{
	uint64_t h = pid != 0 ? pid : (UINT64_C(1) << 32) | cpu;

	h *= UINT64_C(0x9E3779B97F4A7C15);
	return (size_t)(h >> 32) & (lv->table_cap - 1);
}

/* The live record of a key, or NULL. */
static struct ltt_lv_proc *
lv_find(const struct ltt_lttv *lv, uint32_t pid, uint32_t cpu)
{
	size_t i;

	if (lv->table_cap == 0)
		return NULL;
	for (i = lv_slot(lv, pid, cpu); lv->table[i] != NULL;
	    i = (i + 1) & (lv->table_cap - 1))
		if (lv->table[i] != &lv_tomb && lv_same(lv->table[i], pid, cpu))
			return lv->table[i];
	return NULL;
}

/* Put @p in the table (its key is not there). */
static void
lv_insert(struct ltt_lttv *lv, struct ltt_lv_proc *p)
{
	size_t i;

	if ((lv->table_used + 1) * 2 > lv->table_cap) {
		struct ltt_lv_proc **old = lv->table;
		size_t n = lv->table_cap, j;

		lv->table_cap = n ? n * 2 : 64;
		lv->table = tv_xcalloc(lv->table_cap, sizeof(*lv->table));
		lv->table_used = 0;
		for (j = 0; j < n; j++)
			if (old[j] != NULL && old[j] != &lv_tomb)
				lv_insert(lv, old[j]);
		free(old);
	}
	for (i = lv_slot(lv, p->pid, p->cpu); lv->table[i] != NULL &&
	    lv->table[i] != &lv_tomb; i = (i + 1) & (lv->table_cap - 1))
		;
	if (lv->table[i] == NULL)
		lv->table_used++;
	lv->table[i] = p;
	p->live = true;
}

/* Take @p out of the table; the record stays for the CPUs showing it. */
static void
lv_remove(struct ltt_lttv *lv, struct ltt_lv_proc *p)
{
	size_t i;

	if (!p->live)
		return;
	for (i = lv_slot(lv, p->pid, p->cpu); lv->table[i] != NULL;
	    i = (i + 1) & (lv->table_cap - 1)) {
		if (lv->table[i] == p) {
			lv->table[i] = &lv_tomb;
			break;
		}
	}
	p->live = false;
}

/* Top of @p's stack (LTTV's process->state). */
static struct lv_es *
lv_top(struct ltt_lv_proc *p)
{
	return &p->stack[p->depth - 1];
}

/*
 * Make @p's stack @depth deep.  Like LTTV's GArray, an entry that comes
 * back after a shrink keeps what it held (its status matters to the end
 * of the statedump); only never-used entries start zeroed.
 */
static void
lv_resize(struct ltt_lv_proc *p, uint32_t depth)
{
	if (depth > p->cap) {
		uint32_t cap = TV_MAX(depth, p->cap * 2);

		p->stack = tv_xreallocarray(p->stack, cap, sizeof(*p->stack));
		memset(&p->stack[p->cap], 0,
		    (cap - p->cap) * sizeof(*p->stack));
		p->cap = cap;
	}
	p->depth = depth;
}

/*
 * A new record, in the table: LTTV's create_process, user mode under a
 * system call waiting for its fork to end; its ppid is @parent's pid.
 */
static struct ltt_lv_proc *
lv_create(struct ltt_lttv *lv, const struct ltt_lv_proc *parent,
    uint32_t cpu, uint32_t pid, const char *name)
{
	struct ltt_lv_proc *p = tv_xcalloc(1, sizeof(*p));

	p->pid = pid;
	p->cpu = cpu;
	p->ppid = parent != NULL ? parent->pid : 0;
	p->name = name;
	p->brand = "";
	lv_resize(p, 2);
	p->stack[0] = (struct lv_es){ LV_USER_MODE, LV_RUN };
	p->stack[1] = (struct lv_es){ LV_SYSCALL, LV_WAIT_FORK };
	TV_VEC_GROW(lv->all, lv->nall, lv->all_cap);
	lv->all[lv->nall++] = p;
	lv_insert(lv, p);
	return p;
}

/* A record whose past LTTV knows nothing of: one unknown mode. */
static void
lv_unknown_bottom(struct ltt_lv_proc *p)
{
	lv_resize(p, 1);
	p->stack[0] = (struct lv_es){ LV_MODE_UNKNOWN, LV_UNNAMED };
}

/* LTTV's find_process_or_create. */
static struct ltt_lv_proc *
lv_get(struct ltt_lttv *lv, uint32_t cpu, uint32_t pid)
{
	struct ltt_lv_proc *p = lv_find(lv, pid, cpu);

	if (p == NULL) {
		p = lv_create(lv, NULL, cpu, pid, "");
		lv_unknown_bottom(p);
	}
	return p;
}

/* Push mode @t on @p, keeping the status of the mode below. */
static void
lv_push(struct ltt_lv_proc *p, enum lv_mode t)
{
	uint8_t s = lv_top(p)->s;

	if (p->depth >= LV_STACK_MAX)
		return;
	lv_resize(p, p->depth + 1);
	*lv_top(p) = (struct lv_es){ (uint8_t)t, s };
}

/* Pop mode @t: only if on top, and never the last entry. */
static void
lv_pop(struct ltt_lv_proc *p, enum lv_mode t)
{
	if (lv_top(p)->t != t || p->depth == 1)
		return;
	p->depth--;
}

/*
 * LTTV's exit_process: forget @p once it was both switched out dead and
 * freed, in either order; true if it was forgotten.
 */
static bool
lv_exit(struct ltt_lttv *lv, struct ltt_lv_proc *p)
{
	if (++p->free_events < 2)
		return false;
	lv_remove(lv, p);
	return true;
}

/* ---- reading the payload as LTTV's hooks do ---- */

/* Unsigned field @name as a guint; false if the event lacks it. */
static bool
lv_uint(const struct tv_value *pl, const char *name, uint32_t *out)
{
	const struct tv_value *f = tv_value_member(pl, name);
	int64_t v;

	if (f == NULL || !tv_value_as_int(f, &v))
		return false;
	*out = (uint32_t)v;
	return true;
}

/* String field @name, interned up to its first NUL; NULL if none. */
static const char *
lv_str(struct ltt_lttv *lv, const struct tv_value *pl, const char *name)
{
	const struct tv_value *f = tv_value_member(pl, name);
	size_t n;

	if (f == NULL || f->fc == NULL || f->fc->kind != TV_FC_STRING)
		return NULL;
	if (f->str.ptr == NULL)
		return "";
	n = strnlen(f->str.ptr, f->str.len);
	return tv_intern(lv->names, f->str.ptr, n);
}

/* ---- the rules, one per LTTV hook ---- */

/* kernel.sched_schedule: LTTV prints the task switched in. */
static void
lv_schedule(struct ltt_lttv *lv, uint32_t cpu, const struct tv_value *pl)
{
	struct ltt_lv_proc *p = lv->running[cpu];
	uint32_t out, in;
	int64_t state;
	const struct tv_value *f;

	f = tv_value_member(pl, "prev_state");
	if (!lv_uint(pl, "prev_pid", &out) || !lv_uint(pl, "next_pid", &in) ||
	    f == NULL || !tv_value_as_int(f, &state))
		return;
	if (p->pid == 0 && lv_top(p)->t == LV_MODE_UNKNOWN) {
		/* the idle task switched out at the start: in a syscall */
		if (out == 0)
			*lv_top(p) = (struct lv_es){ LV_SYSCALL, LV_WAIT };
	} else {
		if (lv_top(p)->s == LV_EXIT)
			lv_top(p)->s = LV_ZOMBIE;
		else
			lv_top(p)->s = state == 0 ? LV_WAIT_CPU : LV_WAIT;
		/* EXIT_DEAD, TASK_DEAD */
		if ((state == 32 || state == 64) && !lv_exit(lv, p))
			lv_top(p)->s = LV_DEAD;
	}
	p = lv->running[cpu] = lv_get(lv, cpu, in);
	lv_top(p)->s = LV_RUN;
	p->cpu = p->pid == 0 ? p->cpu : cpu;
}

/* kernel.process_fork: the child is named after the running task. */
static void
lv_fork(struct ltt_lttv *lv, uint32_t cpu, const struct tv_value *pl)
{
	struct ltt_lv_proc *p = lv->running[cpu], *child;
	uint32_t parent, cpid, tgid;

	if (!lv_uint(pl, "parent_pid", &parent) ||
	    !lv_uint(pl, "child_pid", &cpid) ||
	    !lv_uint(pl, "child_tgid", &tgid))
		return;
	child = lv_find(lv, cpid, 0);
	if (child == NULL)
		child = lv_create(lv, p, cpu, cpid, "");
	else
		child->ppid = p->pid;	/* LTTV aborts here */
	child->name = p->name;
	child->brand = p->brand;
}

/*
 * task_state.process_state: the statedump.  Its type, mode, submode and
 * status are enums LTTV compares with its own names, never equal: only
 * pid 0 is known a kernel thread.
 */
static void
lv_statedump(struct ltt_lttv *lv, uint32_t cpu, const struct tv_value *pl)
{
	static const char *const need[] = { "type", "mode", "submode",
	    "status", "tgid" };
	struct ltt_lv_proc *p;
	uint32_t pid, parent, v, i;
	const char *name;

	for (i = 0; i < TV_ARRAY_SIZE(need); i++)
		if (!lv_uint(pl, need[i], &v))
			return;
	if (!lv_uint(pl, "pid", &pid) || !lv_uint(pl, "parent_pid", &parent) ||
	    (name = lv_str(lv, pl, "name")) == NULL)
		return;
	if (pid == 0) {
		for (i = 0; i < lv->ncpus; i++) {
			p = lv_find(lv, 0, i);
			if (p == NULL)
				continue;
			p->ppid = parent;
			p->name = name;
			p->kthread = true;
		}
		return;
	}
	p = lv_find(lv, pid, 0);
	if (p == NULL) {
		p = lv_create(lv, lv_find(lv, parent, 0), cpu, pid, name);
		lv_unknown_bottom(p);
		return;
	}
	/* met before its entry: forked during the dump, or switched in */
	p->ppid = parent;
	p->name = name;
	p->kthread = false;
	if (lv->variant == LV_V2_3 && p->stack[0].t == LV_MODE_UNKNOWN)
		p->stack[0].t = LV_USER_MODE;
}

/* global_state.statedump_end: settle the unknown bottom modes. */
static void
lv_statedump_end(struct ltt_lttv *lv)
{
	size_t i;

	for (i = 0; i < lv->nall; i++) {
		struct ltt_lv_proc *p = lv->all[i];
		struct lv_es *es = &p->stack[0];

		if (!p->live || es->t != LV_MODE_UNKNOWN)
			continue;
		if (p->kthread) {
			es->t = LV_SYSCALL;
			if (es->s == LV_UNNAMED)
				es->s = LV_WAIT;
			continue;
		}
		es->t = LV_USER_MODE;
		if (es->s == LV_UNNAMED)
			es->s = LV_RUN;
		if (p->depth != 1 ||
		    (lv->variant == LV_V2_6 && es->s == LV_WAIT_CPU))
			continue;
		lv_resize(p, 2);
		p->stack[1].t = LV_SYSCALL;
		if (p->stack[1].s == LV_WAIT_FORK)
			p->stack[1].s = LV_WAIT;
	}
}

/* Apply the rule of @ev's event, if LTTV has one. */
static void
lv_apply(struct ltt_lttv *lv, const struct tv_event *ev,
    const char *chan, const char *event, const struct tv_value *pl)
{
	uint32_t cpu = (uint32_t)ev->stream->cpu, v;
	struct ltt_lv_proc *p = lv->running[cpu], *q;
	const char *s;

	if (strcmp(chan, "kernel") == 0) {
		if (strcmp(event, "syscall_entry") == 0) {
			/* no system call from pid 0 */
			if (lv_uint(pl, "syscall_id", &v) && p->pid != 0)
				lv_push(p, LV_SYSCALL);
		} else if (strcmp(event, "syscall_exit") == 0) {
			if (p->pid != 0)
				lv_pop(p, LV_SYSCALL);
		} else if (strcmp(event, "trap_entry") == 0 ||
		    strcmp(event, "page_fault_entry") == 0 ||
		    strcmp(event, "page_fault_nosem_entry") == 0) {
			if (lv_uint(pl, "trap_id", &v))
				lv_push(p, LV_TRAP);
		} else if (strcmp(event, "trap_exit") == 0 ||
		    strcmp(event, "page_fault_exit") == 0 ||
		    strcmp(event, "page_fault_nosem_exit") == 0) {
			lv_pop(p, LV_TRAP);
		} else if (strcmp(event, "irq_entry") == 0) {
			if (lv_uint(pl, "irq_id", &v))
				lv_push(p, LV_IRQ);
		} else if (strcmp(event, "irq_exit") == 0) {
			lv_pop(p, LV_IRQ);
		} else if (strcmp(event, "softirq_entry") == 0) {
			if (lv_uint(pl, "softirq_id", &v))
				lv_push(p, LV_SOFTIRQ);
		} else if (strcmp(event, "softirq_exit") == 0) {
			lv_pop(p, LV_SOFTIRQ);
		} else if (strcmp(event, "sched_schedule") == 0) {
			lv_schedule(lv, cpu, pl);
		} else if (strcmp(event, "sched_try_wakeup") == 0) {
			uint32_t wcpu, st;

			if (lv->variant != LV_V2_3 &&
			    lv_uint(pl, "pid", &v) &&
			    lv_uint(pl, "cpu_id", &wcpu) &&
			    lv_uint(pl, "state", &st))
				lv_top(lv_get(lv, wcpu, v))->s = LV_WAIT_CPU;
		} else if (strcmp(event, "process_fork") == 0) {
			lv_fork(lv, cpu, pl);
		} else if (strcmp(event, "kthread_create") == 0) {
			if (!lv_uint(pl, "pid", &v))
				return;
			q = lv_get(lv, 0, v);
			if (lv_top(q)->s != LV_DEAD) {
				lv_resize(q, 1);
				q->stack[0].t = LV_SYSCALL;
			}
			q->kthread = true;
		} else if (strcmp(event, "process_exit") == 0) {
			if (lv_uint(pl, "pid", &v) &&
			    (q = lv_find(lv, v, 0)) != NULL)
				lv_top(q)->s = LV_EXIT;
		} else if (strcmp(event, "process_free") == 0) {
			if (lv_uint(pl, "pid", &v) &&
			    (q = lv_find(lv, v, 0)) != NULL)
				(void)lv_exit(lv, q);
		}
	} else if (strcmp(chan, "fs") == 0) {
		if (strcmp(event, "exec") == 0 &&
		    (s = lv_str(lv, pl, "filename")) != NULL) {
			p->name = s;
			p->brand = "";
		}
	} else if (strcmp(chan, "userspace") == 0) {
		if (strcmp(event, "thread_brand") == 0 &&
		    (s = lv_str(lv, pl, "name")) != NULL)
			p->brand = s;
	} else if (strcmp(chan, "task_state") == 0) {
		if (strcmp(event, "process_state") == 0)
			lv_statedump(lv, cpu, pl);
	} else if (strcmp(chan, "global_state") == 0) {
		if (strcmp(event, "statedump_end") == 0)
			lv_statedump_end(lv);
	}
}

/* ---- life cycle ---- */

/* Forget every record: LTTV's state at the trace start. */
static void
lv_clear(struct ltt_lttv *lv)
{
	size_t i;

	for (i = 0; i < lv->nall; i++) {
		free(lv->all[i]->stack);
		free(lv->all[i]);
	}
	lv->nall = 0;
	if (lv->table != NULL)
		memset(lv->table, 0, lv->table_cap * sizeof(*lv->table));
	lv->table_used = 0;
	/* each CPU runs its unnamed idle task, mode unknown */
	for (i = 0; i < lv->ncpus; i++) {
		lv->running[i] = lv_create(lv, NULL, (uint32_t)i, 0, "");
		lv_unknown_bottom(lv->running[i]);
	}
}

/* The replay for @t, created on first use. */
static struct ltt_lttv *
lv_of(const struct tv_trace *t)
{
	struct ltt_trace_priv *tp = t->priv;
	struct ltt_lttv *lv;
	uint32_t i, ncpus = 0;

	if (tp->lttv != NULL)
		return tp->lttv;
	for (i = 0; i < t->nstreams; i++)
		if (t->streams[i]->cpu >= 0 &&
		    (uint32_t)t->streams[i]->cpu >= ncpus)
			ncpus = (uint32_t)t->streams[i]->cpu + 1;
	lv = tv_xcalloc(1, sizeof(*lv));
	lv->variant = tp->minor <= 3 ? LV_V2_3 : tp->minor <= 5 ? LV_V2_5 :
	    LV_V2_6;
	lv->ncpus = ncpus;
	lv->running = tv_xcalloc(TV_MAX(ncpus, 1u), sizeof(*lv->running));
	lv->names = tv_intern_create();
	lv_clear(lv);
	tp->lttv = lv;
	return lv;
}

/* See ltt-priv.h. */
const struct ltt_lv_proc *
ltt_lttv_apply(const struct tv_event *ev, const struct tv_value *payload)
{
	const struct tv_trace *t = ev->stream->trace;
	const struct ltt_trace_priv *tp = t->priv;
	const struct tv_event_class *ec;
	const struct ltt_marker *m;
	struct ltt_lttv *lv = lv_of(t);

	if (ev->stream->cpu < 0 || (uint32_t)ev->stream->cpu >= lv->ncpus)
		return NULL;
	if (ev->rec.kind == TV_REC_EVENT) {
		ec = t->classes[ev->rec.class_index];
		m = ec->priv;
		lv_apply(lv, ev, tp->channels[m->channel].name, m->name,
		    payload);
	}
	return lv->running[ev->stream->cpu];
}

/* See ltt-priv.h. */
void
ltt_lttv_print(struct tv_strbuf *sb, const struct ltt_lv_proc *p)
{
	tv_strbuf_adds(sb, p->name);
	tv_strbuf_add(sb, ", ", 2);
	tv_strbuf_adds(sb, p->brand);
	tv_strbuf_add(sb, ", ", 2);
	tv_strbuf_add_u64(sb, p->ppid);
	tv_strbuf_adds(sb, ", 0x0, ");
	tv_strbuf_adds(sb, lv_mode_names[p->stack[p->depth - 1].t]);
}

/* See ltt-priv.h. */
void
ltt_lttv_destroy(struct ltt_lttv *lv)
{
	if (lv == NULL)
		return;
	lv->ncpus = 0;
	lv_clear(lv);
	free(lv->all);
	free(lv->table);
	free(lv->running);
	tv_intern_destroy(lv->names);
	free(lv);
}
