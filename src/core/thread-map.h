/*
 * A map from thread keys to dense indexes, for the core passes that keep
 * their own per-thread data beside a tv_state (statistics, timelines):
 * the key is (machine, tid), and for tid 0 also the CPU, since every CPU
 * has its own idle thread.  Callers keep parallel arrays indexed by what
 * tv_thread_map_get() returns; indexes never move.
 */
#ifndef TVIEW_THREAD_MAP_H
#define TVIEW_THREAD_MAP_H

#include "tview/tview.h"

struct tv_thread_key {
	uint32_t	 machine;
	int32_t		 cpu;		/* TV_CPU_UNKNOWN unless tid == 0 */
	int64_t		 tid;
};

struct tv_thread_map {
	struct tv_thread_key	*keys;		/* owned, n */
	size_t			 n, keys_cap;
	uint32_t		*table;		/* index + 1; 0 empty */
	size_t			 table_cap;	/* power of two */
};

void	tv_thread_map_init(struct tv_thread_map *m);
void	tv_thread_map_fini(struct tv_thread_map *m);
/**
 * tv_thread_map_get() - the index of the key, added when new (*added
 * says so, when not NULL).  @cpu matters only for tid 0.
 */
size_t	tv_thread_map_get(struct tv_thread_map *m, uint32_t machine,
	    int64_t tid, int32_t cpu, bool *added);

#endif /* TVIEW_THREAD_MAP_H */
