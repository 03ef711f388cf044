/*
 * Shared by the state sources only: the internals the checkpoint pass and
 * the cache file need (the rules' types are public: state-rules.h).
 *
 *   state.c             threads, CPUs, the hash table, applying rules
 *   state-rules.c       matching event names against a driver's rules
 *   state-checkpoint.c  background pass, checkpoints, state at time T
 *   state-cache.c       checkpoints and counts in $XDG_CACHE_HOME/tview
 */
#ifndef TVIEW_STATE_PRIV_H
#define TVIEW_STATE_PRIV_H

#include "tview/state.h"
#include "tview/state-rules.h"

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
