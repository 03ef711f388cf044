/*
 * gen-ctf: a small simulated machine whose kernel events become the
 * trace.  N CPUs each run one task at a time (swapper/N when idle); tasks
 * block in syscalls and are woken by timers, interrupts or their children;
 * two login shells keep running a compile job (make, which forks gcc,
 * which forks cc1 and as, each exec'ing).  Every sched_switch names the
 * task the previous one on that CPU switched to, forks, execs, exits and
 * frees follow each other, and a task never runs on two CPUs at once.
 * The CPU with the earliest clock always moves next, so each stream's
 * timestamps only grow.
 */
#include "gen-ctf.h"

#include <stdlib.h>
#include <string.h>

#define NEVER		UINT64_MAX
#define US		1000ULL
#define MS		1000000ULL
#define MAX_TASKS	512

/* prev_state values as lttng-modules reports them. */
#define ST_RUNNING	0
#define ST_SLEEPING	1
#define ST_DISK		2
#define ST_DEAD		16

#define NS_INUM		4026531836U

enum gen_state { T_FREE, T_RUNNING, T_RUNNABLE, T_BLOCKED, T_DEAD };

/* What a task does when it runs. */
enum gen_prog {
	P_IDLE, P_DAEMON, P_KTHREAD, P_SSHD, P_SHELL, P_MAKE, P_GCC,
	P_CC1, P_AS,
};

struct gen_task {
	int32_t		 tid;
	int32_t		 pid;
	int32_t		 ppid;
	char		 comm[16];
	int32_t		 prio;
	uint8_t		 state;		/* enum gen_state */
	uint8_t		 prog;		/* enum gen_prog */
	bool		 kthread;
	int32_t		 cpu;		/* current or last CPU */
	int32_t		 bound;		/* per-CPU kthread's CPU, or -1 */
	uint64_t	 ready_at;	/* T_RUNNABLE: since when */
	uint64_t	 wake_at;	/* T_BLOCKED: timer, or NEVER */
	uint64_t	 blocked_at;	/* T_BLOCKED: since when */
	uint64_t	 slice_end;	/* T_RUNNING: preemptible after */
	int32_t		 wait_child;	/* tid waited for, or 0 */
	int32_t		 pending;	/* syscall exit owed, or -1 */
	int64_t		 pend_ret;
	uint64_t	 pend_a;
	uint32_t	 work;		/* actions left before blocking/exit */
	uint32_t	 stage;		/* program-specific */
	uint32_t	 units;		/* make: compile units left */
	const char	*exec;		/* to exec when first run */
	uint8_t		 exec_prog;
	int32_t		 fd;		/* open file, or -1 */
};

struct gen_cpu {
	uint64_t	 now;
	uint32_t	 cur;		/* task index */
	uint32_t	 idle;		/* swapper/N */
};

struct gen_sim {
	const struct tv_gen_opts *o;
	struct tv_gen_writer	*w;
	struct tv_gen_evbuf	*eb;		/* w's payload buffer */
	struct tv_gen_rng	 rng;
	struct gen_task		 tasks[MAX_TASKS];
	uint32_t		 ntasks;
	uint32_t		 runq[MAX_TASKS];	/* T_RUNNABLE tasks */
	uint32_t		 nrunnable;
	struct gen_cpu		*cpus;
	int32_t			 next_tid;
	uint64_t		 next_wake;	/* earliest wake_at, a bound */
	uint32_t		 free_list[MAX_TASKS];
	uint64_t		 free_at[MAX_TASKS];
	uint32_t		 nfree;
	uint32_t		 jobs;		/* compile units started */
	FILE			*truth;		/* --truth, or NULL */
};

static const char *const gen_headers[] = {
	"/usr/include/stdio.h", "/usr/include/stdlib.h",
	"/usr/include/string.h", "/usr/include/x86_64-linux-gnu/bits/types.h",
	"/usr/include/errno.h", "/usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h",
	"/usr/include/ncursesw/curses.h", "/usr/include/libxml2/libxml/tree.h",
	"include/tview/trace.h", "include/tview/util.h", "config.h",
};

static const char *const gen_sources[] = {
	"src/core/merge.c", "src/core/trace.c", "src/formats/ctf/ctf-decode.c",
	"src/formats/ctf/tsdl-parse.c", "src/ui/timeline.c", "src/main.c",
	"src/util/strbuf.c", "src/util/arena.c",
};

/* A hardware interrupt line of the simulated machine. */
struct gen_irq {
	int32_t		 irq;
	const char	*name;
	uint32_t	 softirq;	/* raised vector */
};

static const struct gen_irq gen_irqs[] = {
	{ 128, "nvme0q1", 4 },		/* BLOCK */
	{ 129, "nvme0q2", 4 },
	{ 131, "enp3s0-rx-0", 3 },	/* NET_RX */
	{ 132, "enp3s0-tx-0", 2 },	/* NET_TX */
	{ 16, "i801_smbus", 0 },
	{ 9, "acpi", 0 },
};

/* Uniform in [lo, hi] from the simulation's generator. */
static uint64_t
rnd(struct gen_sim *sim, uint64_t lo, uint64_t hi)
{
	return tv_gen_rng_range(&sim->rng, lo, hi);
}

/* True with probability 1/@n. */
static bool
one_in(struct gen_sim *sim, uint64_t n)
{
	return rnd(sim, 0, n - 1) == 0;
}

/* Change @t's state, keeping the count of runnable tasks. */
static void
set_state(struct gen_sim *sim, struct gen_task *t, enum gen_state st)
{
	uint32_t idx = (uint32_t)(t - sim->tasks), i;

	if (t->state == T_RUNNABLE) {
		for (i = 0; sim->runq[i] != idx; i++)
			;
		sim->runq[i] = sim->runq[--sim->nrunnable];
	}
	if (st == T_RUNNABLE)
		sim->runq[sim->nrunnable++] = idx;
	t->state = (uint8_t)st;
}

/*
 * Write the event built in the writer at CPU @c's clock, then move on.
 * The truth line names the task current on @c and the event id; returns
 * whether the event was written (the writer stops at --events).
 */
static bool
emit(struct gen_sim *sim, uint32_t c, uint32_t id)
{
	const struct gen_task *t = &sim->tasks[sim->cpus[c].cur];
	bool done = tv_gen_ev_commit(sim->w, c, id, sim->cpus[c].now);

	if (done && sim->truth)
		fprintf(sim->truth, "E %llu %u %d %d %u\n", (unsigned long long)
		    (TV_GEN_CLOCK_OFFSET + sim->cpus[c].now), c, t->tid,
		    t->pid, id);
	sim->cpus[c].now += rnd(sim, 150, 2500);
	return done;
}

/* A truth line "TAG ts tid" about the event emit() just wrote on @c. */
static void
truth_line(struct gen_sim *sim, char tag, uint64_t ts, uint32_t c,
    int32_t tid)
{
	if (sim->truth)
		fprintf(sim->truth, "%c %llu %u %d\n", tag,
		    (unsigned long long)(TV_GEN_CLOCK_OFFSET + ts), c, tid);
}

/* A new task slot, or NULL when the table is full. */
static struct gen_task *
task_new(struct gen_sim *sim, const char *comm, int32_t tid, int32_t pid,
    int32_t ppid, enum gen_prog prog)
{
	struct gen_task *t = NULL;
	uint32_t i;

	for (i = 0; i < sim->ntasks; i++) {
		if (sim->tasks[i].state == T_FREE) {
			t = &sim->tasks[i];
			break;
		}
	}
	if (!t) {
		if (sim->ntasks == MAX_TASKS)
			return NULL;
		t = &sim->tasks[sim->ntasks++];
	}
	memset(t, 0, sizeof(*t));
	memcpy(t->comm, comm, strnlen(comm, sizeof(t->comm) - 1));
	t->tid = tid;
	t->pid = pid;
	t->ppid = ppid;
	t->prio = 20;
	t->prog = (uint8_t)prog;
	t->kthread = prog == P_KTHREAD || prog == P_IDLE;
	t->pending = -1;
	t->bound = -1;
	t->fd = -1;
	t->state = T_BLOCKED;
	t->wake_at = NEVER;
	return t;
}

/* Block @t until @when (NEVER: until someone wakes it). */
static void
task_block(struct gen_sim *sim, struct gen_task *t, uint64_t when)
{
	set_state(sim, t, T_BLOCKED);
	t->wake_at = when;
	t->blocked_at = sim->cpus[t->cpu].now;
	if (when < sim->next_wake)
		sim->next_wake = when;
}

/* The runnable task CPU @c should run next, or NULL. */
static struct gen_task *
pick_next(struct gen_sim *sim, uint32_t c)
{
	struct gen_task *best = NULL, *t;
	uint64_t now = sim->cpus[c].now;
	uint32_t i;

	for (i = 0; i < sim->nrunnable; i++) {
		t = &sim->tasks[sim->runq[i]];
		if (t->ready_at > now ||
		    (t->bound >= 0 && t->bound != (int32_t)c))
			continue;
		/* FIFO, with a little affinity to the last CPU. */
		if (!best || t->ready_at + (t->cpu == (int32_t)c ? 500 * US :
		    0) < best->ready_at + (best->cpu == (int32_t)c ? 500 * US :
		    0))
			best = t;
	}
	return best;
}

/* Event sched_switch from the current task of @c to @next. */
static void
ev_switch(struct gen_sim *sim, uint32_t c, int64_t prev_state,
    struct gen_task *next)
{
	struct gen_task *prev = &sim->tasks[sim->cpus[c].cur];
	uint64_t ts;

	tv_gen_ev_begin(sim->eb);
	tv_gen_put_comm(sim->eb, prev->comm);
	tv_gen_put_u32(sim->eb, (uint32_t)prev->tid);
	tv_gen_put_u32(sim->eb, (uint32_t)prev->prio);
	tv_gen_put_u64(sim->eb, (uint64_t)prev_state);
	tv_gen_put_comm(sim->eb, next->comm);
	tv_gen_put_u32(sim->eb, (uint32_t)next->tid);
	tv_gen_put_u32(sim->eb, (uint32_t)next->prio);
	ts = sim->cpus[c].now;
	if (emit(sim, c, TV_GEN_SCHED_SWITCH))
		truth_line(sim, 'X', ts, c, next->tid);	/* switched in */
}

/*
 * Switch CPU @c away from its current task, which the caller already put
 * in its new state, to the next runnable task or to swapper.
 */
static void
do_switch(struct gen_sim *sim, uint32_t c, int64_t prev_state)
{
	struct gen_cpu *cpu = &sim->cpus[c];
	struct gen_task *next = pick_next(sim, c);

	if (!next)
		next = &sim->tasks[cpu->idle];
	if (next == &sim->tasks[cpu->cur]) {
		set_state(sim, next, T_RUNNING);
		next->slice_end = cpu->now + rnd(sim, 1 * MS, 6 * MS);
		return;
	}
	ev_switch(sim, c, prev_state, next);
	set_state(sim, next, T_RUNNING);
	next->cpu = (int32_t)c;
	next->slice_end = cpu->now + rnd(sim, 1 * MS, 6 * MS);
	cpu->cur = (uint32_t)(next - sim->tasks);
}

/* Event sched_waking/sched_wakeup/sched_wakeup_new of @t. */
static bool
ev_wake(struct gen_sim *sim, uint32_t c, uint32_t id, struct gen_task *t)
{
	tv_gen_ev_begin(sim->eb);
	tv_gen_put_comm(sim->eb, t->comm);
	tv_gen_put_u32(sim->eb, (uint32_t)t->tid);
	tv_gen_put_u32(sim->eb, (uint32_t)t->prio);
	tv_gen_put_u32(sim->eb, (uint32_t)t->cpu);
	return emit(sim, c, id);
}

/*
 * Wake blocked task @t from CPU @c: waking, wakeup, now runnable.  The
 * truth's W line marks the wake-up a latency is measured from.
 */
static void
wake(struct gen_sim *sim, uint32_t c, struct gen_task *t)
{
	uint64_t ts = sim->cpus[c].now;

	if (ev_wake(sim, c, TV_GEN_SCHED_WAKING, t))
		truth_line(sim, 'W', ts, c, t->tid);
	ev_wake(sim, c, TV_GEN_SCHED_WAKEUP, t);
	set_state(sim, t, T_RUNNABLE);
	t->ready_at = sim->cpus[c].now;
	t->wake_at = NEVER;
}

/* Event with a single 32-bit field (irq/softirq vectors, close fd). */
static void
ev_u32(struct gen_sim *sim, uint32_t c, uint32_t id, uint32_t v)
{
	tv_gen_ev_begin(sim->eb);
	tv_gen_put_u32(sim->eb, v);
	emit(sim, c, id);
}

/* A softirq on CPU @c, optionally waking @t in it. */
static void
softirq(struct gen_sim *sim, uint32_t c, uint32_t vec, struct gen_task *t)
{
	ev_u32(sim, c, TV_GEN_SOFTIRQ_ENTRY, vec);
	if (t)
		wake(sim, c, t);
	sim->cpus[c].now += rnd(sim, 1 * US, 30 * US);
	ev_u32(sim, c, TV_GEN_SOFTIRQ_EXIT, vec);
}

/* A blocked task an interrupt would wake: sshd, a kworker. */
static struct gen_task *
irq_wakee(struct gen_sim *sim, uint32_t c, uint32_t vec)
{
	struct gen_task *t;
	uint32_t i, start = (uint32_t)rnd(sim, 0, sim->ntasks - 1);

	for (i = 0; i < sim->ntasks; i++) {
		t = &sim->tasks[(start + i) % sim->ntasks];
		if (t->state != T_BLOCKED ||
		    t->blocked_at > sim->cpus[c].now)
			continue;
		if ((vec == 3 && t->prog == P_SSHD) ||
		    (vec == 4 && t->prog == P_KTHREAD &&
		    strncmp(t->comm, "kworker", 7) == 0))
			return t;
	}
	return NULL;
}

/* A hardware interrupt on CPU @c, with its softirq. */
static void
hardirq(struct gen_sim *sim, uint32_t c)
{
	const struct gen_irq *irq =
	    &gen_irqs[rnd(sim, 0, TV_ARRAY_SIZE(gen_irqs) - 1)];

	tv_gen_ev_begin(sim->eb);
	tv_gen_put_u32(sim->eb, (uint32_t)irq->irq);
	tv_gen_put_str(sim->eb, irq->name);
	emit(sim, c, TV_GEN_IRQ_ENTRY);
	if (irq->softirq)
		ev_u32(sim, c, TV_GEN_SOFTIRQ_RAISE, irq->softirq);
	sim->cpus[c].now += rnd(sim, 1 * US, 15 * US);
	tv_gen_ev_begin(sim->eb);
	tv_gen_put_u32(sim->eb, (uint32_t)irq->irq);
	tv_gen_put_u32(sim->eb, 1);	/* IRQ_HANDLED */
	emit(sim, c, TV_GEN_IRQ_EXIT);
	if (irq->softirq)
		softirq(sim, c, irq->softirq, irq_wakee(sim, c, irq->softirq));
}

/* Timer expiry: wake every blocked task whose time has come. */
static bool
timer_wakeups(struct gen_sim *sim, uint32_t c)
{
	uint64_t now = sim->cpus[c].now, next = NEVER;
	struct gen_task *t;
	bool any = false;
	uint32_t i;

	if (sim->next_wake > now)
		return false;
	for (i = 0; i < sim->ntasks; i++) {
		t = &sim->tasks[i];
		if (t->state != T_BLOCKED || t->wake_at == NEVER)
			continue;
		if (t->wake_at <= now) {
			if (!any) {
				ev_u32(sim, c, TV_GEN_SOFTIRQ_RAISE, 1);
				ev_u32(sim, c, TV_GEN_SOFTIRQ_ENTRY, 1);
			}
			any = true;
			wake(sim, c, t);
		} else if (t->wake_at < next) {
			next = t->wake_at;
		}
	}
	sim->next_wake = next;
	if (any)
		ev_u32(sim, c, TV_GEN_SOFTIRQ_EXIT, 1);
	return any;
}

/* Free the task structs of exited tasks, as RCU does a bit later. */
static bool
rcu_frees(struct gen_sim *sim, uint32_t c)
{
	struct gen_task *t;

	if (sim->nfree == 0 || sim->free_at[0] > sim->cpus[c].now)
		return false;
	t = &sim->tasks[sim->free_list[0]];
	ev_u32(sim, c, TV_GEN_SOFTIRQ_ENTRY, 9);	/* RCU */
	tv_gen_ev_begin(sim->eb);
	tv_gen_put_comm(sim->eb, t->comm);
	tv_gen_put_u32(sim->eb, (uint32_t)t->tid);
	tv_gen_put_u32(sim->eb, (uint32_t)t->prio);
	emit(sim, c, TV_GEN_PROCESS_FREE);
	ev_u32(sim, c, TV_GEN_SOFTIRQ_EXIT, 9);
	t->state = T_FREE;
	sim->nfree--;
	memmove(sim->free_list, sim->free_list + 1,
	    sim->nfree * sizeof(sim->free_list[0]));
	memmove(sim->free_at, sim->free_at + 1,
	    sim->nfree * sizeof(sim->free_at[0]));
	return true;
}

/* Syscall entry on @c for the current task; the exit comes next run. */
static void
sys_enter(struct gen_sim *sim, uint32_t c, struct gen_task *t, uint32_t id,
    int64_t ret, uint64_t a)
{
	emit(sim, c, id);
	t->pending = (int32_t)id + 1;	/* the matching exit id */
	t->pend_ret = ret;
	t->pend_a = a;
	sim->cpus[c].now += rnd(sim, 1 * US, 40 * US);
}

/* The exit event owed by @t. */
static void
sys_exit(struct gen_sim *sim, uint32_t c, struct gen_task *t)
{
	uint32_t id = (uint32_t)t->pending;

	t->pending = -1;
	tv_gen_ev_begin(sim->eb);
	tv_gen_put_u64(sim->eb, (uint64_t)t->pend_ret);
	if (id == TV_GEN_SYS_READ_EXIT) {
		tv_gen_put_u64(sim->eb, t->pend_a);
	} else if (id == TV_GEN_SYS_FUTEX_EXIT) {
		tv_gen_put_u64(sim->eb, t->pend_a);
		tv_gen_put_u64(sim->eb, 0);
	}
	emit(sim, c, id);
}

/* A user-space-looking address for buffers and futexes of @t. */
static uint64_t
user_addr(struct gen_sim *sim, const struct gen_task *t)
{
	return 0x7f0000000000ULL + ((uint64_t)t->pid << 24) +
	    (rnd(sim, 0, 0xffff) << 4);
}

/* read(fd, count): returns @ret; blocks @t until @block if not NEVER. */
static void
sys_read(struct gen_sim *sim, uint32_t c, struct gen_task *t, uint32_t fd,
    uint64_t count, int64_t ret)
{
	tv_gen_ev_begin(sim->eb);
	tv_gen_put_u32(sim->eb, fd);
	tv_gen_put_u64(sim->eb, count);
	sys_enter(sim, c, t, TV_GEN_SYS_READ, ret, user_addr(sim, t));
}

/* write(fd, buf, count): returns count. */
static void
sys_write(struct gen_sim *sim, uint32_t c, struct gen_task *t, uint32_t fd,
    uint64_t count)
{
	tv_gen_ev_begin(sim->eb);
	tv_gen_put_u32(sim->eb, fd);
	tv_gen_put_u64(sim->eb, user_addr(sim, t));
	tv_gen_put_u64(sim->eb, count);
	sys_enter(sim, c, t, TV_GEN_SYS_WRITE, (int64_t)count, 0);
}

/* openat(AT_FDCWD, path): a new fd in @t->fd, or ENOENT now and then. */
static void
sys_openat(struct gen_sim *sim, uint32_t c, struct gen_task *t,
    const char *path)
{
	bool fail = one_in(sim, 6);

	tv_gen_ev_begin(sim->eb);
	tv_gen_put_u32(sim->eb, (uint32_t)-100);		/* AT_FDCWD */
	tv_gen_put_str(sim->eb, path);
	tv_gen_put_u32(sim->eb, 0x80000);		/* O_RDONLY|O_CLOEXEC */
	tv_gen_put_u16(sim->eb, 0);
	t->fd = fail ? -1 : (int32_t)rnd(sim, 3, 9);
	sys_enter(sim, c, t, TV_GEN_SYS_OPENAT, fail ? -2 : t->fd, 0);
}

/* close(@t->fd). */
static void
sys_close(struct gen_sim *sim, uint32_t c, struct gen_task *t)
{
	tv_gen_ev_begin(sim->eb);
	tv_gen_put_u32(sim->eb, (uint32_t)t->fd);
	sys_enter(sim, c, t, TV_GEN_SYS_CLOSE, 0, 0);
	t->fd = -1;
}

/* futex(): FUTEX_WAIT_PRIVATE blocks, FUTEX_WAKE_PRIVATE returns. */
static void
sys_futex(struct gen_sim *sim, uint32_t c, struct gen_task *t, bool wait)
{
	uint64_t uaddr = user_addr(sim, t);

	tv_gen_ev_begin(sim->eb);
	tv_gen_put_u64(sim->eb, uaddr);
	tv_gen_put_u32(sim->eb, wait ? 128 : 129);
	tv_gen_put_u32(sim->eb, wait ? 0 : 1);
	tv_gen_put_u64(sim->eb, 0);
	tv_gen_put_u64(sim->eb, 0);
	tv_gen_put_u32(sim->eb, 0);
	sys_enter(sim, c, t, TV_GEN_SYS_FUTEX, 0, uaddr);
}

/* Block the current task of @c until @when and switch away. */
static void
sleep_until(struct gen_sim *sim, uint32_t c, struct gen_task *t,
    uint64_t when, int64_t state)
{
	task_block(sim, t, when);
	do_switch(sim, c, state);
}

/* Fork a child of @t that will exec @path and run @prog. */
static struct gen_task *
do_fork(struct gen_sim *sim, uint32_t c, struct gen_task *t,
    const char *path, enum gen_prog prog)
{
	struct gen_task *k;
	int32_t tid = sim->next_tid++;

	k = task_new(sim, t->comm, tid, tid, t->pid, prog);
	if (!k)
		return NULL;
	k->exec = path;
	k->exec_prog = (uint8_t)prog;
	k->cpu = (int32_t)rnd(sim, 0, sim->o->cpus - 1);
	tv_gen_ev_begin(sim->eb);
	tv_gen_put_comm(sim->eb, t->comm);
	tv_gen_put_u32(sim->eb, (uint32_t)t->tid);
	tv_gen_put_u32(sim->eb, (uint32_t)t->pid);
	tv_gen_put_u32(sim->eb, NS_INUM);
	tv_gen_put_comm(sim->eb, k->comm);
	tv_gen_put_u32(sim->eb, (uint32_t)k->tid);
	tv_gen_put_u8(sim->eb, 1);
	tv_gen_put_u32(sim->eb, (uint32_t)k->tid);
	tv_gen_put_u32(sim->eb, (uint32_t)k->pid);
	tv_gen_put_u32(sim->eb, NS_INUM);
	emit(sim, c, TV_GEN_PROCESS_FORK);
	ev_wake(sim, c, TV_GEN_WAKEUP_NEW, k);
	set_state(sim, k, T_RUNNABLE);
	k->ready_at = sim->cpus[c].now;
	return k;
}

/* Fork a child and wait for it; a full task table just skips the child. */
static void
spawn_and_wait(struct gen_sim *sim, uint32_t c, struct gen_task *t,
    const char *path, enum gen_prog prog)
{
	struct gen_task *k = do_fork(sim, c, t, path, prog);

	if (!k)
		return;
	t->wait_child = k->tid;
	sleep_until(sim, c, t, NEVER, ST_SLEEPING);
}

/* The current task of @c exits: parent woken, RCU frees it later. */
static void
do_exit(struct gen_sim *sim, uint32_t c, struct gen_task *t)
{
	struct gen_task *p;
	uint32_t i;

	tv_gen_ev_begin(sim->eb);
	tv_gen_put_comm(sim->eb, t->comm);
	tv_gen_put_u32(sim->eb, (uint32_t)t->tid);
	tv_gen_put_u32(sim->eb, (uint32_t)t->prio);
	emit(sim, c, TV_GEN_PROCESS_EXIT);
	for (i = 0; i < sim->ntasks; i++) {
		p = &sim->tasks[i];
		if (p->state != T_BLOCKED || p->wait_child != t->tid)
			continue;
		p->wait_child = 0;
		if (p->blocked_at <= sim->cpus[c].now) {
			wake(sim, c, p);
		} else {
			/* it has not finished going to sleep on its CPU */
			p->wake_at = p->blocked_at + 1;
			if (p->wake_at < sim->next_wake)
				sim->next_wake = p->wake_at;
		}
	}
	set_state(sim, t, T_DEAD);
	if (sim->nfree < MAX_TASKS) {
		sim->free_list[sim->nfree] = (uint32_t)(t - sim->tasks);
		sim->free_at[sim->nfree++] = sim->cpus[c].now +
		    rnd(sim, 2 * MS, 30 * MS);
	}
	do_switch(sim, c, ST_DEAD);
}

/* sched_process_exec: the task becomes @t->exec. */
static void
do_exec(struct gen_sim *sim, uint32_t c, struct gen_task *t)
{
	const char *base = strrchr(t->exec, '/');

	tv_gen_ev_begin(sim->eb);
	tv_gen_put_str(sim->eb, t->exec);
	tv_gen_put_u32(sim->eb, (uint32_t)t->tid);
	tv_gen_put_u32(sim->eb, (uint32_t)t->tid);
	emit(sim, c, TV_GEN_PROCESS_EXEC);
	snprintf(t->comm, sizeof(t->comm), "%s", base ? base + 1 : t->exec);
	t->prog = t->exec_prog;
	t->exec = NULL;
	t->stage = 0;
	if (t->prog == P_MAKE)
		t->units = (uint32_t)rnd(sim, 2, 6);
	else if (t->prog == P_CC1)
		t->work = (uint32_t)rnd(sim, 30, 160);
	else if (t->prog == P_AS)
		t->work = (uint32_t)rnd(sim, 8, 30);
}

/* A daemon's step: a few syscalls, then sleep in read or futex. */
static void
run_daemon(struct gen_sim *sim, uint32_t c, struct gen_task *t)
{
	if (t->work == 0) {
		t->work = (uint32_t)rnd(sim, 1, 6);
		if (one_in(sim, 2))
			sys_futex(sim, c, t, true);
		else
			sys_read(sim, c, t, (uint32_t)rnd(sim, 3, 12), 4096,
			    (int64_t)rnd(sim, 8, 4096));
		sleep_until(sim, c, t, sim->cpus[c].now +
		    rnd(sim, 1 * MS, t->prog == P_SSHD ? 40 * MS : 250 * MS),
		    ST_SLEEPING);
		return;
	}
	t->work--;
	switch (rnd(sim, 0, 4)) {
	case 0:
		sys_futex(sim, c, t, false);
		break;
	case 1:
		if (t->fd < 0)
			sys_openat(sim, c, t, t->prog == P_SSHD ?
			    "/etc/ssh/sshd_config" : "/proc/self/mountinfo");
		else
			sys_close(sim, c, t);
		break;
	case 2:
		sys_read(sim, c, t, (uint32_t)rnd(sim, 3, 12), 8192,
		    (int64_t)rnd(sim, 0, 8192));
		break;
	default:
		sys_write(sim, c, t, (uint32_t)rnd(sim, 1, 12),
		    rnd(sim, 16, 1500));
		break;
	}
}

/* A kernel thread's step: a short run, then sleep again. */
static void
run_kthread(struct gen_sim *sim, uint32_t c, struct gen_task *t)
{
	sim->cpus[c].now += rnd(sim, 2 * US, 80 * US);
	if (one_in(sim, 3) && t->work++ < 3)
		return;
	t->work = 0;
	sleep_until(sim, c, t, sim->cpus[c].now + rnd(sim, 2 * MS, 120 * MS),
	    ST_SLEEPING);
}

/* bash: read a command line, echo it, run make, wait for it. */
static void
run_shell(struct gen_sim *sim, uint32_t c, struct gen_task *t)
{
	switch (t->stage++ % 3) {
	case 0:
		sys_read(sim, c, t, 0, 1, 1);
		sleep_until(sim, c, t, sim->cpus[c].now +
		    rnd(sim, 5 * MS, 60 * MS), ST_SLEEPING);
		break;
	case 1:
		sys_write(sim, c, t, 2, rnd(sim, 1, 40));
		break;
	default:
		spawn_and_wait(sim, c, t, "/usr/bin/make", P_MAKE);
		break;
	}
}

/* make: read the Makefile, then one gcc per unit, then exit. */
static void
run_make(struct gen_sim *sim, uint32_t c, struct gen_task *t)
{
	switch (t->stage) {
	case 0:
		sys_openat(sim, c, t, "Makefile");
		t->stage = t->fd < 0 ? 3 : 1;
		break;
	case 1:
		sys_read(sim, c, t, (uint32_t)t->fd, 4096, 4096);
		t->stage++;
		break;
	case 2:
		sys_close(sim, c, t);
		t->stage++;
		break;
	default:
		if (t->units == 0) {
			do_exit(sim, c, t);
			break;
		}
		t->units--;
		sim->jobs++;
		spawn_and_wait(sim, c, t, "/usr/bin/gcc", P_GCC);
		break;
	}
}

/* gcc: the compiler proper, then the assembler, then exit. */
static void
run_gcc(struct gen_sim *sim, uint32_t c, struct gen_task *t)
{
	switch (t->stage++) {
	case 0:
		spawn_and_wait(sim, c, t,
		    "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", P_CC1);
		break;
	case 1:
		spawn_and_wait(sim, c, t, "/usr/bin/x86_64-linux-gnu-as",
		    P_AS);
		break;
	default:
		do_exit(sim, c, t);
		break;
	}
}

/* cc1 and as: compute, open/read/close inputs, write the output. */
static void
run_compiler(struct gen_sim *sim, uint32_t c, struct gen_task *t)
{
	const char *path;

	if (t->work == 0) {
		do_exit(sim, c, t);
		return;
	}
	t->work--;
	if (t->fd >= 0) {
		if (one_in(sim, 3))
			sys_close(sim, c, t);
		else
			sys_read(sim, c, t, (uint32_t)t->fd, 4096,
			    (int64_t)rnd(sim, 0, 4096));
		return;
	}
	switch (rnd(sim, 0, 5)) {
	case 0:
		path = t->prog == P_AS ? "/tmp/ccQd3kPa.s" :
		    gen_headers[rnd(sim, 0, TV_ARRAY_SIZE(gen_headers) - 1)];
		if (t->stage++ == 0 && t->prog == P_CC1)
			path = gen_sources[sim->jobs %
			    TV_ARRAY_SIZE(gen_sources)];
		sys_openat(sim, c, t, path);
		break;
	case 1:
		sys_write(sim, c, t, 4, rnd(sim, 512, 4096));
		break;
	case 2:
		if (one_in(sim, 8)) {
			/* page cache miss: wait for the disk */
			sys_read(sim, c, t, 3, 4096, 4096);
			sleep_until(sim, c, t, sim->cpus[c].now +
			    rnd(sim, 80 * US, 900 * US), ST_DISK);
			break;
		}
		/* fall through */
	default:
		/* compiling: user-space time, no events */
		sim->cpus[c].now += rnd(sim, 100 * US, 3 * MS);
		break;
	}
}

/* One step of a running task. */
static void
run_task(struct gen_sim *sim, uint32_t c, struct gen_task *t)
{
	switch (t->prog) {
	case P_DAEMON:
	case P_SSHD:
		run_daemon(sim, c, t);
		break;
	case P_KTHREAD:
		run_kthread(sim, c, t);
		break;
	case P_SHELL:
		run_shell(sim, c, t);
		break;
	case P_MAKE:
		run_make(sim, c, t);
		break;
	case P_GCC:
		run_gcc(sim, c, t);
		break;
	default:
		run_compiler(sim, c, t);
		break;
	}
}

/* Earliest time something could happen for an idle CPU. */
static uint64_t
idle_until(struct gen_sim *sim, uint32_t c)
{
	uint64_t now = sim->cpus[c].now;
	uint64_t until = now + rnd(sim, 20 * US, 3 * MS);
	struct gen_task *t;
	uint32_t i;

	if (sim->next_wake > now && sim->next_wake < until)
		until = sim->next_wake;
	if (sim->nfree && sim->free_at[0] > now && sim->free_at[0] < until)
		until = sim->free_at[0];
	for (i = 0; i < sim->nrunnable; i++) {
		t = &sim->tasks[sim->runq[i]];
		if (t->ready_at > now &&
		    t->ready_at < until)
			until = t->ready_at;
	}
	return until;
}

/* Advance CPU @c by one step. */
static void
step(struct gen_sim *sim, uint32_t c)
{
	struct gen_cpu *cpu = &sim->cpus[c];
	struct gen_task *t = &sim->tasks[cpu->cur];
	struct gen_task *n;

	if (rcu_frees(sim, c))
		return;
	if (timer_wakeups(sim, c)) {
		if (cpu->cur == cpu->idle)
			do_switch(sim, c, ST_RUNNING);
		return;
	}
	if (cpu->cur == cpu->idle) {
		n = pick_next(sim, c);
		if (n) {
			do_switch(sim, c, ST_RUNNING);
			return;
		}
		/*
		 * Now and then a deep (NOHZ) idle longer than the 27-bit
		 * compact timestamp range: the next event on this CPU
		 * needs the extended header.
		 */
		if (one_in(sim, 400))
			cpu->now += rnd(sim, 140 * MS, 300 * MS);
		else
			cpu->now = idle_until(sim, c);
		if (one_in(sim, 4))
			hardirq(sim, c);
		return;
	}
	if (t->exec) {
		do_exec(sim, c, t);
		return;
	}
	if (t->pending >= 0) {
		sys_exit(sim, c, t);
		return;
	}
	if (cpu->now >= t->slice_end && pick_next(sim, c)) {
		set_state(sim, t, T_RUNNABLE);
		t->ready_at = cpu->now;
		do_switch(sim, c, ST_RUNNING);
		return;
	}
	if (one_in(sim, 40)) {
		hardirq(sim, c);
		return;
	}
	run_task(sim, c, t);
}

/* The machine at boot + a while: kernel threads, daemons, two logins. */
static void
populate(struct gen_sim *sim)
{
	static const char *const daemons[] = {
		"systemd", "systemd-journal", "systemd-udevd", "dbus-daemon",
		"rsyslogd", "cron", "systemd-logind",
	};
	static const int32_t dpids[] = { 1, 312, 335, 604, 611, 618, 622 };
	struct gen_task *t;
	char name[32];
	uint32_t i;
	int32_t tid = 10;

	for (i = 0; i < sim->o->cpus; i++) {
		snprintf(name, sizeof(name), "swapper/%u", i);
		t = task_new(sim, name, 0, 0, 0, P_IDLE);
		t->state = T_RUNNING;
		t->cpu = (int32_t)i;
		sim->cpus[i].idle = sim->cpus[i].cur = (uint32_t)(t - sim->tasks);
	}
	t = task_new(sim, "kthreadd", 2, 2, 0, P_KTHREAD);
	t = task_new(sim, "rcu_preempt", 15, 15, 2, P_KTHREAD);
	for (i = 0; i < TV_MIN(sim->o->cpus, 32u); i++) {
		snprintf(name, sizeof(name), "ksoftirqd/%u", i);
		t = task_new(sim, name, tid, tid, 2, P_KTHREAD);
		t->cpu = t->bound = (int32_t)i;
		tid++;
		snprintf(name, sizeof(name), "kworker/%u:1", i);
		t = task_new(sim, name, tid, tid, 2, P_KTHREAD);
		t->cpu = t->bound = (int32_t)i;
		tid++;
		snprintf(name, sizeof(name), "kworker/%u:1H", i);
		t = task_new(sim, name, tid, tid, 2, P_KTHREAD);
		t->prio = 0;
		t->cpu = t->bound = (int32_t)i;
		tid += 4;
	}
	for (i = 0; i < TV_ARRAY_SIZE(daemons); i++)
		t = task_new(sim, daemons[i], dpids[i], dpids[i], 1, P_DAEMON);
	/* rsyslogd's worker threads: tid != pid */
	t = task_new(sim, "in:imjournal", 613, 611, 1, P_DAEMON);
	t = task_new(sim, "rs:main Q:Reg", 614, 611, 1, P_DAEMON);
	t = task_new(sim, "sshd", 701, 701, 1, P_SSHD);
	t = task_new(sim, "sshd", 1502, 1502, 701, P_SSHD);
	t = task_new(sim, "bash", 1510, 1510, 1502, P_SHELL);
	t = task_new(sim, "sshd", 1602, 1602, 701, P_SSHD);
	t = task_new(sim, "bash", 1610, 1610, 1602, P_SHELL);
	for (i = 0; i < sim->ntasks; i++) {
		t = &sim->tasks[i];
		if (t->prog == P_IDLE)
			continue;
		if (t->bound < 0)
			t->cpu = (int32_t)rnd(sim, 0, sim->o->cpus - 1);
		task_block(sim, t, sim->cpus[0].now + rnd(sim, 100 * US,
		    t->prog == P_SHELL ? 3 * MS : 40 * MS));
	}
	sim->next_tid = 2000;
}

/* What LTTng writes when tracing starts: one event per existing task. */
static void
statedump(struct gen_sim *sim)
{
	struct gen_task *t;
	uint32_t i;

	tv_gen_ev_begin(sim->eb);
	emit(sim, 0, TV_GEN_STATEDUMP_START);
	for (i = 0; i < sim->ntasks; i++) {
		t = &sim->tasks[i];
		if (t->prog == P_IDLE)
			continue;
		tv_gen_ev_begin(sim->eb);
		tv_gen_put_u32(sim->eb, (uint32_t)t->tid);
		tv_gen_put_u32(sim->eb, (uint32_t)t->tid);
		tv_gen_put_u32(sim->eb, (uint32_t)t->pid);
		tv_gen_put_u32(sim->eb, (uint32_t)t->pid);
		tv_gen_put_u32(sim->eb, (uint32_t)t->ppid);
		tv_gen_put_u32(sim->eb, (uint32_t)t->ppid);
		tv_gen_put_comm(sim->eb, t->comm);
		tv_gen_put_u32(sim->eb, t->kthread ? 1 : 0);
		tv_gen_put_u32(sim->eb, t->kthread ? 0 : 1);
		tv_gen_put_u32(sim->eb, 1);
		tv_gen_put_u32(sim->eb, 5);	/* WAIT */
		tv_gen_put_u32(sim->eb, (uint32_t)t->cpu);
		tv_gen_put_u32(sim->eb, NS_INUM);
		emit(sim, 0, TV_GEN_STATEDUMP_PROCESS);
	}
	tv_gen_ev_begin(sim->eb);
	emit(sim, 0, TV_GEN_STATEDUMP_END);
}

/* --truth: every task still alive at the end, with its state. */
static void
truth_tasks(struct gen_sim *sim)
{
	static const char *const names[] = {
		"free", "running", "runnable", "blocked", "dead",
	};
	const struct gen_task *t;
	uint32_t i;

	for (i = 0; i < sim->ntasks; i++) {
		t = &sim->tasks[i];
		if (t->state == T_FREE)
			continue;
		fprintf(sim->truth, "T %d %d %d %s %s\n", t->tid, t->pid,
		    t->ppid, names[t->state], t->comm);
	}
}

/* Boot the machine, dump its state, then step the earliest CPU until done. */
enum tv_status
tv_gen_simulate(const struct tv_gen_opts *o, struct tv_gen_writer *w,
    uint64_t *end_ts, struct tv_error *err)
{
	struct gen_sim *sim;
	uint64_t start, min, end = 0;
	uint32_t i, c;

	sim = calloc(1, sizeof(*sim));
	if (sim)
		sim->cpus = calloc(o->cpus, sizeof(*sim->cpus));
	if (!sim || !sim->cpus) {
		free(sim);
		return tv_error_set(err, TV_NOMEM, NULL, "out of memory");
	}
	sim->o = o;
	sim->w = w;
	sim->eb = tv_gen_writer_evbuf(w);
	sim->next_wake = NEVER;
	tv_gen_rng_seed(&sim->rng, o->seed);
	/* Monotonic time since boot: an hour and a bit. */
	start = 3600 * 1000 * MS + rnd(sim, 0, 600 * 1000 * MS);
	for (i = 0; i < o->cpus; i++)
		sim->cpus[i].now = start + rnd(sim, 0, 50 * US);
	if (o->truth && !(sim->truth = fopen(o->truth, "w"))) {
		free(sim->cpus);
		free(sim);
		return tv_error_set(err, TV_IO, NULL, "%s: cannot create",
		    o->truth);
	}
	populate(sim);
	statedump(sim);
	while (!tv_gen_writer_done(w)) {
		c = 0;
		min = sim->cpus[0].now;
		for (i = 1; i < o->cpus; i++) {
			if (sim->cpus[i].now < min) {
				min = sim->cpus[i].now;
				c = i;
			}
		}
		step(sim, c);
	}
	for (i = 0; i < o->cpus; i++)
		end = TV_MAX(end, sim->cpus[i].now);
	if (sim->truth)
		truth_tasks(sim);
	*end_ts = end;
	if (sim->truth && fclose(sim->truth) != 0) {
		free(sim->cpus);
		free(sim);
		return tv_error_set(err, TV_IO, NULL, "%s: write error",
		    o->truth);
	}
	free(sim->cpus);
	free(sim);
	return tv_gen_writer_status(w, err);
}

/* See gen-ctf.h. */
enum tv_status
tv_gen_trace(const struct tv_gen_opts *o, const uint8_t uuid[16],
    struct tv_gen_writer **out, struct tv_error *err)
{
	struct tv_gen_writer *w = NULL;
	uint64_t end_ts = 0;
	enum tv_status st;

	*out = NULL;
	st = tv_gen_write_metadata(o, uuid, err);
	if (st == TV_OK)
		st = tv_gen_writer_create(&w, o, uuid, err);
	if (st == TV_OK)
		st = tv_gen_simulate(o, w, &end_ts, err);
	if (st == TV_OK)
		st = tv_gen_writer_finish(w, end_ts, err);
	if (st != TV_OK) {
		tv_gen_writer_destroy(w);
		return st;
	}
	*out = w;
	return TV_OK;
}
