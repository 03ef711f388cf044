/*
 * Shared by the state sources only: the internals the checkpoint pass and
 * the cache file need (the rules' types are public: state-rules.h).
 *
 *   state.c             threads, CPUs, the hash table, snapshots
 *   state-read.c        what a record tells the state, read on any thread
 *   state-apply.c       tv_state_apply: events to transitions
 *   state-walk.c        the parallel state walk: read on workers, applied
 *                       on the caller's thread
 *   state-owners.c      every owner name and id, before the pass has
 *                       met them
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
	int64_t		 out;		/* tid the last switch took out, till
					   cur shows up; TV_TID_UNKNOWN */
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

/* ---- the state itself (state.c: tables; state-apply.c: transitions) ---- */

/* Hard cap on CPU numbers: hostile traces cannot grow the CPU arrays. */
#define STATE_MAX_CPU		4096

/* What a class's events are known to say of their owner: learnt from
 * the first one decoded, in timeline order (state_class.owner). */
enum state_owner_fact {
	STATE_OWNER_UNKNOWN,	/* none decoded yet */
	STATE_OWNER_NONE,	/* no tid/pid/procname field */
	STATE_OWNER_FIELDS,	/* they name their thread */
};

/*
 * Facts about one event class, resolved before its first event is read.
 * Walkers on other threads read a class (tv_state_prepare() resolved
 * them all); only the applying thread writes @owner, atomically.
 */
struct state_class {
	const struct tv_state_rule *rule;
	uint8_t		 resolved;
	uint8_t		 owner;		/* enum state_owner_fact */
	uint8_t		 reads_fields;	/* the rule reads payload fields */
	uint16_t	 arg_idx[TV_ARG_COUNT];	/* member index hint */
	/* the name of the member arg_idx[] found at resolving, NULL if
	   none: a decoded struct whose member there has this very pointer
	   for a name (a driver's decoder hands out its class's names) is
	   that member, with no string compared */
	const char	*arg_name[TV_ARG_COUNT];
	/* where the owner fields lie, owned; set before @owner says
	   STATE_OWNER_FIELDS (release), NULL if they could not be placed */
	struct tv_owner_plan *plan;
	/* the scopes its records are decoded in (TV_SCOPE_BIT()s), set
	   with @plan: the contexts alone when they name the owner wholly
	   and the rule reads no payload, else TV_SCOPES_EVENT */
	uint8_t		 scopes;
	/*
	 * The driver's flat plan (flat.h) for what its records tell the
	 * state, owned, set with @plan (or when the class names no
	 * owner); NULL when they are decoded: the owner's members
	 * (@source, its asks first) then the rule's: @flat_args of them,
	 * each argument the payload has and its ask.
	 */
	void		*flat;
	struct tv_owner_source source;
	uint8_t		 flat_nargs;
	struct {
		uint8_t	 arg;		/* enum tv_state_arg */
		uint8_t	 ask;
	}		 flat_args[TV_ARG_COUNT];
};

/* How a state_input was read. */
enum state_input_how {
	STATE_IN_CLASS,		/* not decoded: the class says it all */
	STATE_IN_UNREAD,	/* not decoded, though it may be needed */
	STATE_IN_FAILED,	/* the decoding failed */
	STATE_IN_READ,		/* decoded: the fields below */
};

/*
 * What one record tells the state, read from its fields by any thread
 * (tv_state_read) and applied in timeline order by one
 * (tv_state_apply_read): a walk's workers read while the reader applies.
 */
struct state_input {
	uint8_t		 how;		/* enum state_input_how */
	uint8_t		 action;	/* TV_SA_*: the rule's, or its hook's
					   answer */
	uint16_t	 have;		/* bit a: argument a was read */
	int64_t		 arg[TV_ARG_COUNT];	/* the integers */
	char		 name[TV_THREAD_NAME_MAX];	/* TV_ARG_NAME (an
							   exec's base name) */
	char		 name2[TV_THREAD_NAME_MAX];	/* TV_ARG_NAME2 */
	struct tv_event_owner owner;	/* tv_event_owner() of the fields */
};

/* Per trace of the set: its machine and class cache. */
struct state_trace {
	const struct tv_trace	*trace;
	uint32_t		 machine;
	struct state_class	*classes;	/* nclasses, owned */
	uint32_t		 nclasses;
};

struct tv_state {
	const struct tv_trace_set *set;
	struct state_trace	*traces;	/* set->ntraces */
	uint32_t		 ntraces;
	uint32_t		 nmachines;
	const struct tv_stream	*last_stream;	/* lookup cache */
	struct state_trace	*last_trace;
	/* threads */
	struct tv_thread	*threads;
	size_t			 nthreads;
	size_t			 threads_cap;
	uint32_t		*table;		/* thread index + 1; 0 empty */
	size_t			 table_cap;	/* power of two */
	/* CPUs: per machine, indexed by cpu number */
	struct tv_state_cpu	**cpus;		/* nmachines arrays */
	uint32_t		*ncpus;
	int64_t			 time;
	struct tv_arena		 arena;		/* decoded fields */
};

/** tv_state_get() - the thread with this key, created "unknown" if new. */
struct tv_thread *tv_state_get(struct tv_state *s, uint32_t machine,
		    int64_t tid, int32_t cpu);
/** tv_state_lookup() - the thread with this key (cpu: idle tasks), or NULL. */
struct tv_thread *tv_state_lookup(const struct tv_state *s, uint32_t machine,
		    int64_t tid, int32_t cpu);
/** tv_state_remove() - forget thread @t (a freed or reused tid). */
void		 tv_state_remove(struct tv_state *s, struct tv_thread *t);
/** tv_state_cpu_of() - CPU @cpu of @machine, grown on demand; NULL if absurd. */
struct tv_state_cpu *tv_state_cpu_of(struct tv_state *s, uint32_t machine,
		    int32_t cpu);
/**
 * tv_state_grow_traces() - take in the traces the set gained since @s was
 * made (a trace set followed as it is written); nothing if none.
 */
void		 tv_state_grow_traces(struct tv_state *s);
/** tv_thread_set_name() - name @t (comm semantics: at most 15 bytes). */
void		 tv_thread_set_name(struct tv_thread *t, const char *name);

/* ---- reading and applying apart (state-read.c, state-apply.c) ---- */

/**
 * tv_state_trace_of() - @s's facts on the trace of @stream, or NULL; no
 * cache written, so any thread may ask once @s is prepared.
 */
const struct state_trace *tv_state_trace_of(const struct tv_state *s,
		    const struct tv_stream *stream);
/**
 * tv_state_prepare() - take in the set's traces and classes and resolve
 * every class, so that other threads may read records for @s
 * (tv_state_read) while this one applies them.
 */
void		 tv_state_prepare(struct tv_state *s);
/**
 * tv_state_class_reads() - whether records of class @sc (resolved) are
 * read at all: its rule reads a field, or its owner fields are still to
 * be learnt or are there.  When not, tv_state_read() only says the
 * class's action (STATE_IN_CLASS).
 */
static inline bool
tv_state_class_reads(const struct state_class *sc)
{
	return sc->reads_fields ||
	    __atomic_load_n(&sc->owner, __ATOMIC_RELAXED) != STATE_OWNER_NONE;
}
/**
 * tv_state_read() - what record @ev says, into @in, decoding into @arena
 * only what its class needs (@st's, resolved); @own: on the applying
 * thread, which keeps the class's member hints (others only read them).
 */
void		 tv_state_read(const struct state_trace *st,
		    const struct tv_event *ev, struct tv_arena *arena,
		    struct state_input *in, bool own);
/**
 * tv_state_apply_read() - apply @ev, read into @in by any thread, to @s
 * in timeline order; @owner as tv_state_apply() gives it.
 */
void		 tv_state_apply_read(struct tv_state *s,
		    const struct tv_event *ev, const struct state_input *in,
		    struct tv_event_owner *owner);
/**
 * tv_state_learn() - what applying @ev, read into @in, teaches @s of its
 * class (whether its events name their owner, and where), without
 * applying it.
 */
void		 tv_state_learn(struct tv_state *s, const struct tv_event *ev,
		    const struct state_input *in);
/* The bytes of @in for a walk's text (tv_state_input_unpack reads them). */
void		 tv_state_input_pack(const struct state_input *in,
		    struct tv_strbuf *out);
/* @in from the @len bytes at @p; false if they are not a packed input. */
bool		 tv_state_input_unpack(const char *p, size_t len,
		    struct state_input *in);

/* ---- the index's internals (state-checkpoint.c, state-cache.c) ---- */

/*
 * A checkpoint's owner filter: a Bloom filter of the owners (tid and
 * pid) of the events from it to the next checkpoint, sized to them
 * (16 bits and three probes an owner: about 0.5% false hits).
 * nwords 0: unknown (not complete, or too many owners to keep).
 */
struct tv_state_who {
	uint32_t		 nwords;	/* a power of two */
	uint64_t		*words;		/* owned */
};

/* Most distinct owners a filter is built for; past it: unknown. */
#define TV_STATE_WHO_MAX	(1u << 16)

/* Build @who from the @n owner ids of @ids (sorted and reused). */
void		 tv_state_who_build(struct tv_state_who *who, int64_t *ids,
		    size_t n);
/* Whether @who may hold owner @id (false: it does not). */
bool		 tv_state_who_has(const struct tv_state_who *who, int64_t id);

/* A checkpoint: the state just before the record at @pos. */
struct tv_state_ckpt {
	uint32_t		 stream;	/* ordinal */
	uint64_t		 packet;
	uint64_t		 index;
	int64_t			 ts;
	uint64_t		 ordinal;	/* events before it */
	struct tv_state_snap	*snap;		/* owned */
	/* the owners from here to the next checkpoint, once complete */
	struct tv_state_who	 who;
};

/**
 * tv_state_index_ckpt_before() - restore into @out the checkpoint @back
 * places before the last one strictly before @ev (0: that one), and its
 * position in @pos (the next record to apply); false if there is none.
 */
bool		 tv_state_index_ckpt_before(struct tv_state_index *idx,
		    const struct tv_event *ev, size_t back,
		    struct tv_state *out, struct tv_event *pos);

/*
 * The names the owners of a walk's events have had (owner->name of
 * tv_state_apply(), "" left out), each once: what a task column can
 * show (tv_state_index_owner_names()).
 */
struct tv_state_names {
	struct tv_intern	*pool;		/* NULL until the first */
	const char		**v;		/* in the pool */
	size_t			 n, cap;
};
/** tv_state_names_add() - note @s (@len bytes) in @nm unless it is there. */
void		 tv_state_names_add(struct tv_state_names *nm, const char *s,
		    size_t len);
/** tv_state_names_clear() - forget them all. */
void		 tv_state_names_clear(struct tv_state_names *nm);

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
		    uint64_t *nevents, struct tv_state_names *names,
		    struct tv_error *err);

/**
 * tv_state_cache_counts() - restore the per-packet and per-class event
 * counts of @set from its cache file, reading only the file's head; false
 * (nothing restored) when there is no valid cache for @set.
 */
bool		 tv_state_cache_counts(const struct tv_trace_set *set);

/** tv_state_cache_save() - write checkpoints atomically (tmp + rename). */
enum tv_status	 tv_state_cache_save(const char *path,
		    const struct tv_trace_set *set,
		    const struct tv_state_ckpt *ckpts, size_t nckpts,
		    uint64_t nevents, const struct tv_state_names *names,
		    struct tv_error *err);

#endif /* TVIEW_STATE_PRIV_H */
