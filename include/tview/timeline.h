/*
 * Timelines: what each thread and each CPU did over a time window cut
 * into N columns, for the control-flow and CPU views and --timeline.
 * Built from the process state: the state at the window's start comes
 * from the nearest checkpoint plus a replay, then every record of the
 * window is applied and each column keeps the most telling thing seen in
 * it (a thread that ran at all in a column shows as running there, in
 * its busiest mode; otherwise its state at the column's start).
 *
 * A window holding more records than TV_TIMELINE_REPLAY_MAX is sampled
 * instead: each column shows the state at the last checkpoint before its
 * start, without replay, so a whole 1 GB trace draws at once; such a
 * timeline says so (sampled = true), and zooming in makes it exact.
 * So is a window the background pass has not walked to its end yet:
 * its columns up to where the pass is come from the checkpoints, the
 * rest stay empty, and it is exact once the pass has gone by.
 */
#ifndef TVIEW_TIMELINE_H
#define TVIEW_TIMELINE_H

#include "tview/state.h"

/* Records a window may hold and still be replayed exactly. */
#define TV_TIMELINE_REPLAY_MAX	400000
/* Columns at most (a terminal is narrower). */
#define TV_TIMELINE_MAX_COLS	4096

/*
 * What a cell shows, in increasing priority: when several things happen
 * in one column, the highest wins.  Running beats waiting, so a thread
 * that ran for a microsecond shows; among running modes the thread's own
 * work (user, then system calls and traps) beats interrupts, which would
 * otherwise colour every busy column.
 */
enum tv_cell {
	TV_CELL_NONE,		/* no such thread then / no record */
	TV_CELL_UNKNOWN,	/* exists, state unknown */
	TV_CELL_EXITED,
	TV_CELL_ZOMBIE,
	TV_CELL_BLOCKED,
	TV_CELL_RUNNABLE,	/* waiting for a CPU */
	TV_CELL_IDLE,		/* CPU rows: the idle thread ran */
	TV_CELL_IRQ,
	TV_CELL_SOFTIRQ,
	TV_CELL_TRAP,
	TV_CELL_SYSCALL,
	TV_CELL_USER,		/* running, user mode (or mode unknown) */
	TV_CELL_COUNT,
};

/* One row: a thread, or a CPU. */
struct tv_timeline_row {
	uint32_t	 machine;
	int64_t		 tid;		/* thread rows; TV_TID_UNKNOWN else */
	int64_t		 pid;
	int32_t		 cpu;		/* CPU rows: its number; thread rows:
					   the last CPU it ran on, or
					   TV_CPU_UNKNOWN */
	char		 name[TV_THREAD_NAME_MAX];
	int64_t		 running;	/* columns in which it ran */
	uint8_t		*cells;		/* ncols, enum tv_cell; owned */
	int32_t		*cell_cpu;	/* thread rows: the CPU it ran on in
					   each column, or -1; owned */
	int64_t		*cell_tid;	/* CPU rows: a thread that ran in each
					   column (not idle when one did), or
					   TV_TID_UNKNOWN; owned */
};

struct tv_timeline {
	int64_t			 t0, t1;	/* [t0, t1) */
	uint32_t		 ncols;
	bool			 sampled;	/* from checkpoints only */
	struct tv_timeline_row	*threads;	/* owned, by machine, tid */
	size_t			 nthreads;
	struct tv_timeline_row	*cpus;		/* owned, by machine, CPU */
	size_t			 ncpus;
};

/**
 * tv_timeline_build() - the timeline of [@t0, @t1) in @ncols columns,
 * from @idx (its pass may still be running: what it has not reached is
 * replayed).  @cancel, if not NULL, is polled.
 */
enum tv_status	 tv_timeline_build(struct tv_state_index *idx,
		    struct tv_trace_set *set, int64_t t0, int64_t t1,
		    uint32_t ncols, const volatile bool *cancel,
		    struct tv_timeline **out, struct tv_error *err);
void		 tv_timeline_destroy(struct tv_timeline *tl);

/** tv_timeline_col_time() - the time column @col starts at. */
int64_t		 tv_timeline_col_time(const struct tv_timeline *tl,
		    uint32_t col);
/** tv_timeline_col_of() - the column @ts falls in (clamped). */
uint32_t	 tv_timeline_col_of(const struct tv_timeline *tl, int64_t ts);
/** tv_cell_name() - "running", "syscall", ... (N_(): pass to _()). */
const char	*tv_cell_name(enum tv_cell c);
/** tv_cell_letter() - one ASCII letter per kind (see tview(1)). */
char		 tv_cell_letter(enum tv_cell c);

#endif /* TVIEW_TIMELINE_H */
