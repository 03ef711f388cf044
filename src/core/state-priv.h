/*
 * Shared by the state sources only: the rule table's types (what an event
 * does to the state and which payload fields it reads) and the internals
 * the checkpoint pass and the cache file need.
 *
 *   state.c             threads, CPUs, the hash table, applying rules
 *   state-rules.c       the table: (event name, format) -> transition
 *   state-checkpoint.c  background pass, checkpoints, state at time T
 *   state-cache.c       checkpoints and counts in $XDG_CACHE_HOME/tview
 */
#ifndef TVIEW_STATE_PRIV_H
#define TVIEW_STATE_PRIV_H

#include "tview/state.h"

/* Formats a rule applies to (tv_format_ops.name). */
#define TV_SFMT_CTF		0x1
#define TV_SFMT_TRACEDAT	0x2
#define TV_SFMT_LTT		0x4
#define TV_SFMT_ALL		0x7

/* What an event does. */
enum tv_state_action {
	TV_SA_NONE,
	TV_SA_SWITCH,		/* TID out (STATE), TID2 in; NAME, NAME2 */
	TV_SA_FORK,		/* TID/PID parent, TID2/PID2 child, NAME2 */
	TV_SA_EXEC,		/* TID (or current), NAME = filename */
	TV_SA_EXIT,		/* TID (or current) */
	TV_SA_FREE,		/* TID */
	TV_SA_WAKEUP,		/* TID, CPU target, NAME */
	TV_SA_STATEDUMP,	/* TID PID PPID NAME STATE(status) CPU */
	TV_SA_KTHREAD,		/* TID: a new kernel thread */
	TV_SA_SYSCALL_ENTRY,
	TV_SA_SYSCALL_EXIT,
	TV_SA_IRQ_ENTRY,
	TV_SA_IRQ_EXIT,
	TV_SA_SOFTIRQ_ENTRY,
	TV_SA_SOFTIRQ_EXIT,
	TV_SA_TRAP_ENTRY,
	TV_SA_TRAP_EXIT,
	/*
	 * 2004 LTT "core.process": one event, the transition named by the
	 * enum label of STATE (event_sub_id), the thread in TID.
	 */
	TV_SA_LTT_PROCESS,
	/*
	 * A record that repeats the context of the event before it (ftrace
	 * stack traces): its owner never corrects the CPU's current thread.
	 */
	TV_SA_ECHO,
};

/* The payload fields a rule reads, by meaning. */
enum tv_state_arg {
	TV_ARG_TID,
	TV_ARG_PID,
	TV_ARG_PPID,
	TV_ARG_NAME,
	TV_ARG_STATE,
	TV_ARG_TID2,
	TV_ARG_PID2,
	TV_ARG_NAME2,
	TV_ARG_CPU,
	TV_ARG_COUNT,
};

/*
 * One rule.  @pattern is an event name, or a prefix ending in '*'; it is
 * tried on the whole name and then on the part after the last '.' or ':'
 * (LTT "channel.event", ftrace "system:event").  Each arg is a field
 * name or several separated by '|', tried in order; NULL when unused.
 */
struct tv_state_rule {
	const char	*pattern;
	uint8_t		 formats;	/* TV_SFMT_* */
	uint8_t		 action;	/* enum tv_state_action */
	const char	*args[TV_ARG_COUNT];
};

/**
 * tv_state_rule_label() - what the '*' of @r's pattern matched in
 * @event_name ("openat" of "syscall_entry_openat"), or the name itself
 * (after any "channel." or "system:" part) for an exact pattern.
 */
const char	*tv_state_rule_label(const struct tv_state_rule *r,
		    const char *event_name);
/** tv_state_rule_find() - first rule of the table matching, or NULL. */
const struct tv_state_rule *tv_state_rule_find(const char *event_name,
		    const char *format_name);

/** tv_state_rules() - the whole table (for tests), *count entries. */
const struct tv_state_rule *tv_state_rules(size_t *count);

/* ---- snapshot layout, for the cache file ---- */

/* One CPU of one machine. */
struct tv_state_cpu {
	uint32_t	 machine;
	int32_t		 cpu;
	int64_t		 cur;		/* tid, TV_TID_UNKNOWN */
	uint8_t		 uncertain;
};

struct tv_state_snap {
	struct tv_thread	*threads;	/* owned */
	size_t			 nthreads;
	struct tv_state_cpu	*cpus;		/* owned */
	size_t			 ncpus;
	int64_t			 time;
};

/** tv_state_snap_new() - an empty snapshot with room for the counts. */
struct tv_state_snap *tv_state_snap_new(size_t nthreads, size_t ncpus);

/* ---- the index's internals (state-checkpoint.c, state-cache.c) ---- */

/* A checkpoint: the state just before the record at @pos. */
struct tv_state_ckpt {
	uint32_t		 stream;	/* ordinal */
	uint64_t		 packet;
	uint64_t		 index;
	int64_t			 ts;
	uint64_t		 ordinal;	/* events before it */
	struct tv_state_snap	*snap;		/* owned */
};

/** tv_state_cache_path() - the cache file name for @set; NULL if none. */
char		*tv_state_cache_path(const struct tv_trace_set *set);

/**
 * tv_state_cache_load() - read checkpoints and counts from @path if the
 * file matches @set; TV_NOT_FOUND when absent or stale, TV_CORRUPT when
 * damaged (the caller rebuilds in both cases).
 */
enum tv_status	 tv_state_cache_load(const char *path,
		    const struct tv_trace_set *set,
		    struct tv_state_ckpt **ckpts, size_t *nckpts,
		    uint64_t *nevents, struct tv_error *err);

/** tv_state_cache_save() - write checkpoints atomically (tmp + rename). */
enum tv_status	 tv_state_cache_save(const char *path,
		    const struct tv_trace_set *set,
		    const struct tv_state_ckpt *ckpts, size_t nckpts,
		    uint64_t nevents, struct tv_error *err);

#endif /* TVIEW_STATE_PRIV_H */
