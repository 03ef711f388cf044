/*
 * Whole-trace statistics and latencies, built on the process state: one
 * walk of the merged timeline feeds a tv_state and, around each record,
 * reads what the state says changed (who runs on the record's CPU, in
 * which execution mode, since when it was woken).  So nothing here knows
 * an event name: the state's rules say what a record means, and every
 * format gets the same figures.
 *
 * Counted: records per event class, per CPU and per task (the owner the
 * state gives each event), lost events; CPU time per task and per CPU,
 * split by execution mode; and five kinds of latency (wake-up to
 * switch-in, system calls, hardware and software interrupts, and the
 * functions a format records as spans: ftrace's function_graph), each
 * as count / min / mean / p50 / p99 / max with the longest instances.
 *
 * Time on a CPU is charged between consecutive records of that CPU to the
 * thread the state had running there, in the mode on top of its stack;
 * the last interval of each CPU runs to the end of the range.  Time
 * before the state knows who runs on a CPU is "unknown".
 */
#ifndef TVIEW_STATS_H
#define TVIEW_STATS_H

#include "tview/pass.h"
#include "tview/state.h"
#include "tview/trace.h"

/* Kinds of latency. */
enum tv_lat_kind {
	TV_LAT_WAKEUP,		/* woken -> switched in */
	TV_LAT_SYSCALL,		/* entry -> exit, per system call */
	TV_LAT_IRQ,		/* hardware interrupt handler */
	TV_LAT_SOFTIRQ,		/* software interrupt */
	TV_LAT_FUNCTION,	/* a traced function (span.h), per function */
	TV_LAT_COUNT,
};

/* Longest instances kept per latency series. */
#define TV_LAT_TOP		10
/*
 * Samples kept per series for exact percentiles.  Past it, p50 and p99
 * come from a log-linear histogram (relative error under 1/64), and the
 * series says so (exact = false); count, min, max and mean stay exact.
 */
#define TV_LAT_EXACT_MAX	((size_t)1 << 20)

/* One instance: when it began, how long, whose. */
struct tv_lat_instance {
	int64_t		 ts;		/* start, ns */
	int64_t		 dur;		/* ns */
	int64_t		 tid;
	int32_t		 cpu;
	uint32_t	 machine;
};

/*
 * A series: one latency kind, or one system call of the syscall kind, or
 * one function of the function kind.
 */
struct tv_lat_series {
	const char	*name;		/* kind name, or the event's name */
	uint64_t	 count;
	int64_t		 min, max;
	int64_t		 total;		/* ns, for the mean */
	int64_t		 p50, p99;	/* filled by tv_stats_finish */
	bool		 exact;		/* percentiles from every sample */
	struct tv_lat_instance top[TV_LAT_TOP];	/* longest first */
	uint32_t	 ntop;
};

/* CPU time of one thread, or of one CPU, per execution mode. */
struct tv_time_row {
	uint32_t	 machine;
	int64_t		 tid;		/* thread rows; TV_TID_UNKNOWN else */
	int64_t		 pid;
	int32_t		 cpu;		/* CPU rows; TV_CPU_UNKNOWN else */
	char		 name[TV_THREAD_NAME_MAX];
	uint64_t	 events;	/* records owned / on this CPU */
	int64_t		 ns[TV_MODE_COUNT];	/* running, by mode */
	int64_t		 idle_ns;	/* CPU rows: the idle thread */
	int64_t		 unknown_ns;	/* CPU rows: nobody known */
};

/* Events of one class. */
struct tv_class_count {
	const char	*name;
	uint64_t	 count;
};

struct tv_stats;

/** tv_stats_create() - empty statistics over @set (borrowed). */
struct tv_stats	*tv_stats_create(struct tv_trace_set *set);
void		 tv_stats_destroy(struct tv_stats *st);

/**
 * tv_stats_set_keep() - count only the events @keep keeps (the filtered
 * view): events per class, per CPU and per task, and the total.  CPU
 * time, lost events and latencies stay those of the whole range, as the
 * process state is the same whatever is shown.  @keep is called for
 * every event of the range, in timeline order, with its owner; @arena
 * is the walk's own, reset before each call.  NULL: every event.
 */
void		 tv_stats_set_keep(struct tv_stats *st, tv_pass_pred keep,
		    void *arg);
/**
 * tv_stats_set_sequential() - walk as a batch pass does: the trace's
 * mappings advised sequential (TV_PAGES_SEQUENTIAL; by default the
 * pages are given back but the advice is left alone, for the browser,
 * which reads the same mappings at random while the walk goes on).
 */
void		 tv_stats_set_sequential(struct tv_stats *st);

/**
 * tv_stats_run() - walk the whole timeline once (the state needs every
 * record from the start) and count what lies in [@begin, @end]
 * (TV_TIME_NONE: open): tv_stats_set_range(), then tv_stats_walk() to
 * the end.  @cancel, if not NULL, is polled.  Decoding errors do not
 * stop the walk: the first is in @err with TV_CORRUPT returned after
 * the figures are complete for the readable records.
 */
enum tv_status	 tv_stats_run(struct tv_stats *st, int64_t begin,
		    int64_t end, const volatile bool *cancel,
		    struct tv_error *err);

/**
 * tv_stats_set_range() - count what lies in [@begin, @end] (TV_TIME_NONE:
 * open).  Another range than the walk's so far starts it over.
 */
void		 tv_stats_set_range(struct tv_stats *st, int64_t begin,
		    int64_t end);

/**
 * tv_stats_walk() - walk the records before @until (INT64_MAX: all) that
 * the walks so far did not, then make the tables.  A trace followed
 * grows between walks (tv_trace_set_extend, no walk running): with
 * @until its settled time (tv_trace_set_settled), each walk reads only
 * what is new, and the figures equal those of one walk of the records
 * before @until.  It starts over when that cannot be: @until earlier
 * than the last walk's, or a trace gained event classes.  Cancelled
 * (TV_CANCELLED), the next walk goes on from where it stopped; the
 * tables are made only by a walk that was not.  Errors as tv_stats_run().
 */
enum tv_status	 tv_stats_walk(struct tv_stats *st, int64_t until,
		    const volatile bool *cancel, struct tv_error *err);

/** tv_stats_walked() - records the last tv_stats_walk() read. */
uint64_t	 tv_stats_walked(const struct tv_stats *st);

/**
 * tv_stats_counted_to() - every record before this time is counted and
 * none after (INT64_MAX: the whole trace; TV_TIME_NONE: no walk yet).
 */
int64_t		 tv_stats_counted_to(const struct tv_stats *st);

/** Records by class, most frequent first. */
const struct tv_class_count *tv_stats_classes(const struct tv_stats *st,
		    size_t *n);
/** CPU rows, by machine and CPU number. */
const struct tv_time_row *tv_stats_cpus(const struct tv_stats *st, size_t *n);
/** Thread rows, most CPU time first. */
const struct tv_time_row *tv_stats_threads(const struct tv_stats *st,
		    size_t *n);
/** tv_time_row_running() - @r's running time, summed over every mode. */
int64_t		 tv_time_row_running(const struct tv_time_row *r);
/** Events, lost events (discarded + lost packets), and the range. */
void		 tv_stats_totals(const struct tv_stats *st, uint64_t *events,
		    uint64_t *lost, int64_t *begin, int64_t *end);
/**
 * tv_stats_latency() - the series of @kind: [0] is the whole kind, the
 * rest one per name (system calls, functions), most frequent first.
 */
const struct tv_lat_series *tv_stats_latency(const struct tv_stats *st,
		    enum tv_lat_kind kind, size_t *n);
/**
 * tv_stats_has_latency() - whether @kind applies to the trace: the
 * function kind only when some record was a function span; the others
 * always (a table of zeros says none happened).
 */
bool		 tv_stats_has_latency(const struct tv_stats *st,
		    enum tv_lat_kind kind);
/**
 * tv_lat_kind_name() - "wakeup", "syscall", "irq", "softirq",
 * "function".
 */
const char	*tv_lat_kind_name(enum tv_lat_kind kind);
/** tv_lat_kind_parse() - the kind named @name; false if none. */
bool		 tv_lat_kind_parse(const char *name, enum tv_lat_kind *out);

#endif /* TVIEW_STATS_H */
