/*
 * Process state reconstructed from kernel events: for each thread its
 * TID, PID, PPID, name, scheduling state, CPU, since-when and execution
 * mode stack; for each CPU the thread running on it.  Fed one record at a
 * time through a table of rules (state-rules.c) that maps each format's
 * events to transitions, so nothing here knows about a format.
 *
 * A background pass (tv_state_index) walks the trace once, records a
 * snapshot every K events, and answers "state at time T" as nearest
 * snapshot + replay.  Snapshots persist in a cache file.
 */
#ifndef TVIEW_STATE_H
#define TVIEW_STATE_H

#include "tview/owner.h"
#include "tview/pwalk.h"
#include "tview/trace.h"

#define TV_MODE_STACK_MAX	8

/* Scheduling state of a thread. */
enum tv_thread_state {
	TV_TS_UNKNOWN,		/* seen, but no event proved its state */
	TV_TS_RUNNING,
	TV_TS_RUNNABLE,		/* waiting for a CPU */
	TV_TS_BLOCKED,
	TV_TS_ZOMBIE,		/* exited, not yet freed */
	TV_TS_EXITED,
	TV_TS_COUNT,
};

/* Execution mode, a stack per thread (syscall inside user, IRQ on top). */
enum tv_exec_mode {
	TV_MODE_UNKNOWN,
	TV_MODE_USER,
	TV_MODE_SYSCALL,
	TV_MODE_IRQ,
	TV_MODE_SOFTIRQ,
	TV_MODE_TRAP,
	TV_MODE_COUNT,
};

/* One thread.  Plain data: snapshots copy it with memcpy. */
struct tv_thread {
	int64_t		 tid;
	int64_t		 pid;		/* thread group; TV_TID_UNKNOWN */
	int64_t		 ppid;		/* TV_TID_UNKNOWN if not known */
	int64_t		 since;		/* ns: state entered; TV_TIME_NONE */
	int64_t		 woken;		/* ns: the wake-up that made it
					   runnable; TV_TIME_NONE when it
					   is not waiting after one */
	uint32_t	 machine;	/* traces of one host share it */
	int32_t		 cpu;		/* current or last, TV_CPU_UNKNOWN */
	uint8_t		 state;		/* enum tv_thread_state */
	bool		 uncertain;	/* events were lost since the state
					   was last proved */
	bool		 gone;		/* switched out dead: never runs
					   again, whatever events say */
	uint8_t		 nmodes;
	uint8_t		 modes[TV_MODE_STACK_MAX];	/* enum tv_exec_mode */
	char		 name[TV_THREAD_NAME_MAX];	/* "" if unknown */
};

struct tv_state;
struct tv_state_snap;

/** tv_state_create() - an empty state for the events of @set. */
struct tv_state	*tv_state_create(const struct tv_trace_set *set);
void		 tv_state_destroy(struct tv_state *s);
/** tv_state_clear() - forget every thread (back to the trace start). */
void		 tv_state_clear(struct tv_state *s);

/**
 * tv_state_apply() - apply one record of the merged timeline (events and
 * lost-data records).  If @owner is not NULL, it receives the thread the
 * event belongs to, as it was before the event (sched_switch belongs to
 * the thread switched out): tv_event_owner() of its fields, completed
 * from the state (the thread current on its CPU, the thread's process).  Decodes the event only when a rule or a
 * context field needs it.  Undecodable events are skipped: TV_OK.
 */
enum tv_status	 tv_state_apply(struct tv_state *s, const struct tv_event *ev,
		    struct tv_event_owner *owner, struct tv_error *err);

/* ---- the state walk: a parallel reading, one applying (state-walk.c) ---- */

struct tv_state_walk;

/**
 * tv_state_walk_start() - walk @set forwards as tv_pwalk_start() does
 * (@begin, @end, @fn, @arg, @nthreads and @pages alike; @fn may be
 * NULL), its workers also reading what each record tells the process
 * state, and apply the records to @s (made for @set, borrowed: the state
 * just before the first record) in timeline order on the caller's
 * thread.  @first, if not NULL: the walk starts at that record, those
 * before it at its time left out.
 */
struct tv_state_walk *tv_state_walk_start(struct tv_trace_set *set,
		    struct tv_state *s, int64_t begin, int64_t end,
		    const struct tv_event *first, tv_pwalk_fn fn, void *arg,
		    unsigned nthreads, enum tv_walk_pages pages);
/**
 * tv_state_walk_next() - apply the record handed out last, if
 * tv_state_walk_apply() did not, and hand out the next into @item (its
 * bytes: @fn's), not applied yet: TV_OK, or TV_END after the last.
 */
enum tv_status	 tv_state_walk_next(struct tv_state_walk *w,
		    struct tv_pwalk_item *item);
/**
 * tv_state_walk_apply() - apply the record handed out last to the state,
 * as tv_state_apply() does, its owner into @owner (may be NULL).
 */
void		 tv_state_walk_apply(struct tv_state_walk *w,
		    struct tv_event_owner *owner);
/** tv_state_walk_error() - the first packet decoding error met so far. */
const struct tv_error *tv_state_walk_error(const struct tv_state_walk *w);
/** tv_state_walk_destroy() - stop the workers, free the walk (not @s). */
void		 tv_state_walk_destroy(struct tv_state_walk *w);

/* ---- owner names and ids before the pass ends (state-owners.c) ---- */

struct tv_owner_set;

/**
 * tv_state_owners_scan() - every name and every id (tid or pid) an
 * event's owner can have in @set: supersets of what the pass finds
 * (tv_state_index_owner_names(), names perhaps longer; the tids and
 * pids of its owner filters), read on every core without applying the
 * state; NULL when @stop (asked every few thousand records, may be
 * NULL) said to stop.
 */
struct tv_owner_set *tv_state_owners_scan(struct tv_trace_set *set,
		    bool (*stop)(void *arg), void *arg);
/** tv_owner_set_names() - the names of @os, each once, *@n of them. */
void		 tv_owner_set_names(const struct tv_owner_set *os,
		    const char *const **names, size_t *n);
/**
 * tv_owner_set_has_id() - false when no event of the set can be owned
 * by a thread whose tid or pid is @id.
 */
bool		 tv_owner_set_has_id(const struct tv_owner_set *os, int64_t id);
void		 tv_owner_set_free(struct tv_owner_set *os);

/** tv_state_threads() - every known thread, *count of them, any order. */
const struct tv_thread *tv_state_threads(const struct tv_state *s,
		    size_t *count);
/** tv_state_find() - thread @tid of @machine, or NULL. */
const struct tv_thread *tv_state_find(const struct tv_state *s,
		    uint32_t machine, int64_t tid);
/** tv_state_running() - the thread current on @cpu of @machine, or NULL. */
const struct tv_thread *tv_state_running(const struct tv_state *s,
		    uint32_t machine, int32_t cpu);
/** tv_state_machine_of() - machine number of the traces of stream @s. */
uint32_t	 tv_state_machine_of(const struct tv_state *s,
		    const struct tv_stream *stream);
/** tv_state_machines() - how many machines (hosts) the set holds. */
uint32_t	 tv_state_machines(const struct tv_state *s);
/** tv_state_machine_name() - the host name of @machine (or trace name). */
const char	*tv_state_machine_name(const struct tv_state *s,
		    uint32_t machine);
/** tv_state_time() - timestamp of the last record applied, or NONE. */
int64_t		 tv_state_time(const struct tv_state *s);

/**
 * tv_thread_state_name() - "running", ... untranslated, for data; marked
 * N_(), so _(tv_thread_state_name(st)) where a person reads it.
 */
const char	*tv_thread_state_name(enum tv_thread_state st);
/** tv_exec_mode_name() - "user", "syscall", ... the same way. */
const char	*tv_exec_mode_name(enum tv_exec_mode m);
/**
 * tv_thread_modes_text() - @t's mode stack, outermost first, joined by
 * '>' ("user>syscall>irq"), or "-"; names translated if @translate.
 */
void		 tv_thread_modes_text(const struct tv_thread *t,
		    bool translate, char *buf, size_t size);

/* ---- snapshots (checkpoints) ---- */

/** tv_state_save() - a self-contained copy of the threads and CPUs. */
struct tv_state_snap *tv_state_save(const struct tv_state *s);
/** tv_state_restore() - make @s equal to the state @snap was taken of. */
void		 tv_state_restore(struct tv_state *s,
		    const struct tv_state_snap *snap);
void		 tv_state_snap_free(struct tv_state_snap *snap);
/** tv_state_snap_bytes() - memory a snapshot holds, for budgets. */
size_t		 tv_state_snap_bytes(const struct tv_state_snap *snap);

/* ---- the background pass and state at time T (state-checkpoint.c) ---- */

struct tv_state_index;

/*
 * Default events between checkpoints.  Measured with bench/state-bench
 * on a 200 MB gen-ctf trace (replay ~1 us per event): 50,000 gave a
 * median of 53 ms for the state at T, 20,000 a median of 21 ms and a p99
 * of 42 ms (10,000 was no faster: the seek dominates).
 */
#define TV_STATE_CHECKPOINT_EVERY	20000
/* Snapshot memory past which the interval doubles (many threads). */
#define TV_STATE_CHECKPOINT_BUDGET	((size_t)256 << 20)

/**
 * tv_state_index_create() - an index over @set (borrowed, must outlive
 * it) with a checkpoint every @every events (0: the default).
 */
struct tv_state_index *tv_state_index_create(struct tv_trace_set *set,
		    uint64_t every);
/** tv_state_index_destroy() - cancels and joins the worker first. */
void		 tv_state_index_destroy(struct tv_state_index *idx);
/**
 * tv_state_index_start() - run the pass on a worker thread, or load it
 * from the cache file when a valid one exists (@use_cache).
 */
enum tv_status	 tv_state_index_start(struct tv_state_index *idx,
		    bool use_cache, struct tv_error *err);
/**
 * tv_state_index_set_sequential() - run the pass as a batch mode does:
 * the trace's mappings advised sequential (TV_PAGES_SEQUENTIAL), and no
 * second thread decoding packets ahead of the walk for their counts
 * (the walk counts them as it goes).  By default (the browser, whose
 * scans read the same mappings alongside the pass) the pass keeps the
 * pages while it runs and gives them all back once done.
 */
void		 tv_state_index_set_sequential(struct tv_state_index *idx);
/**
 * tv_state_index_pages() - what @idx's pass does with the pages; the
 * walks that replay from its checkpoints (a timeline) do the same.
 */
enum tv_walk_pages tv_state_index_pages(const struct tv_state_index *idx);
/** tv_state_index_run() - run the pass in this thread (batch modes). */
enum tv_status	 tv_state_index_run(struct tv_state_index *idx,
		    bool use_cache, struct tv_error *err);
/**
 * tv_state_index_stop() - cancel and join the pass, keeping what it
 * walked; call it before the set is extended (tv_trace_set_extend moves
 * the packet arrays the pass reads).
 */
void		 tv_state_index_stop(struct tv_state_index *idx);
/**
 * tv_state_index_extend() - after tv_trace_set_extend(): walk on from the
 * last checkpoint before the first record the last walk did not see, on a
 * worker thread, counting only the records not counted before; from the
 * start when the set's streams were renumbered, a trace gained classes,
 * or nothing was kept.
 */
enum tv_status	 tv_state_index_extend(struct tv_state_index *idx,
		    struct tv_error *err);
/**
 * tv_state_index_hold() - while @hold, the pass waits between two
 * records, idle (a search the user waits for gets every core); false
 * lets it go on.  Safe from any thread.
 */
void		 tv_state_index_hold(struct tv_state_index *idx, bool hold);
/** tv_state_index_walked() - records the current (or last) walk applied. */
uint64_t	 tv_state_index_walked(const struct tv_state_index *idx);
/**
 * tv_state_index_progress() - fraction of the time span walked, in
 * [0, 1]; *done set when the pass finished.  Safe from any thread.
 */
double		 tv_state_index_progress(const struct tv_state_index *idx,
		    bool *done);
/** tv_state_index_events() - events counted (exact once done). */
uint64_t	 tv_state_index_events(const struct tv_state_index *idx);
/** tv_state_index_checkpoints() - checkpoints recorded so far. */
size_t		 tv_state_index_checkpoints(const struct tv_state_index *idx);
/** tv_state_index_cpu_events() - events counted on @cpu (done only). */
uint64_t	 tv_state_index_cpu_events(const struct tv_state_index *idx,
		    int32_t cpu);
/** tv_state_index_from_cache() - true if the pass came from the cache. */
bool		 tv_state_index_from_cache(const struct tv_state_index *idx);

/**
 * tv_state_at() - fill @out (created on the same set) with the state
 * after every record with ts <= @ts: nearest checkpoint + replay.  Works
 * before the pass finished (replays from the last checkpoint reached).
 */
enum tv_status	 tv_state_at(struct tv_state_index *idx, int64_t ts,
		    struct tv_state *out, struct tv_error *err);

/**
 * tv_state_near() - fill @out with the last checkpoint at or before @ts,
 * without replaying anything after it (cheap, but up to one checkpoint
 * interval old); *@at gets the checkpoint's time.  False when there is
 * no such checkpoint yet (@out untouched).
 */
bool		 tv_state_near(struct tv_state_index *idx, int64_t ts,
		    struct tv_state *out, int64_t *at);

/**
 * tv_state_index_events_between() - how many records lie between the
 * checkpoints around [@t0, @t1], an upper bound from the checkpoints;
 * TV_COUNT_UNKNOWN while the pass has not reached @t1.
 */
uint64_t	 tv_state_index_events_between(struct tv_state_index *idx,
		    int64_t t0, int64_t t1);

/**
 * tv_state_before_event() - fill @out with the state just before @ev
 * (every record before it in the merged order applied).
 */
enum tv_status	 tv_state_before_event(struct tv_state_index *idx,
		    const struct tv_event *ev, struct tv_state *out,
		    struct tv_error *err);

/**
 * tv_state_index_owner_names() - every name the owner of an event of the
 * trace has had (tv_state_apply()'s owner->name; "" left out), each once,
 * in *@names (*@n of them, valid until the pass runs again): what a task
 * column can show.  False while the pass runs, or when it did not end
 * well: then they are not all known.
 */
bool		 tv_state_index_owner_names(struct tv_state_index *idx,
		    const char *const **names, size_t *n);

/* Where to look for an owner's events: see tv_state_index_owner_seek(). */
struct tv_state_stretch {
	bool		 from_here;	/* start where the caller is */
	struct tv_event	 start;		/* else here: forwards this event
					   first, backwards the one before */
	bool		 has_stop;
	struct tv_event	 stop;		/* forwards: the first event past
					   the stretch; backwards: its
					   first event */
};

/**
 * tv_state_index_owner_seek() - the first stretch of the trace (between
 * two checkpoints) after (@dir > 0) or before @from that may hold an
 * event owned by @id (a tid or a pid, as tv_state_apply names owners),
 * from the background pass's owner filters: 1 with it in @out; -1 when
 * no event after (before) @from has that owner; 2 when none has it as
 * far as the running pass has built filters, and the rest is not known
 * yet: ask again as the pass goes on; 0 when nothing is known (the pass
 * failed or was stopped): look everywhere.
 */
int		 tv_state_index_owner_seek(struct tv_state_index *idx,
		    int64_t id, const struct tv_event *from, int dir,
		    struct tv_state_stretch *out);

#endif /* TVIEW_STATE_H */
