/*
 * The format-neutral model: a trace set holds traces; a trace holds
 * clocks, event classes and streams; a stream is a time-ordered sequence of
 * packets (CTF packets, trace.dat ring-buffer pages, LTT blocks) kept in a
 * packet index; a packet holds events, decoded only on demand.
 *
 * Drivers (src/formats/) build this model; the core (index, merge, state,
 * search) and the UI read it and never parse bytes themselves.
 */
#ifndef TVIEW_TRACE_H
#define TVIEW_TRACE_H

#include "tview/tview.h"
#include "tview/error.h"
#include "tview/field.h"
#include "tview/mapfile.h"
#include "tview/time.h"
#include "tview/util.h"

struct tv_format_ops;

#define TV_COUNT_UNKNOWN	UINT64_MAX
#define TV_CPU_UNKNOWN		(-1)

/* The scopes of an event's fields, in the order they are printed. */
enum tv_scope {
	TV_SCOPE_PACKET_HEADER,
	TV_SCOPE_PACKET_CONTEXT,
	TV_SCOPE_EVENT_HEADER,
	TV_SCOPE_EVENT_COMMON_CONTEXT,	/* CTF stream event context */
	TV_SCOPE_EVENT_SPECIFIC_CONTEXT,	/* CTF event context */
	TV_SCOPE_EVENT_PAYLOAD,
	TV_SCOPE_COUNT,
};

/* Sets of scopes, for what a decode is asked for. */
#define TV_SCOPE_BIT(s)		(1u << (s))
#define TV_SCOPES_ALL		(TV_SCOPE_BIT(TV_SCOPE_COUNT) - 1)
/*
 * The event's own scopes: whose the event is (tv_event_owner reads
 * only these), what the state rules and the event list read.  The
 * packet scopes are the same for every event of a packet, the event
 * header is what the packet walk read already.
 */
#define TV_SCOPES_EVENT		(TV_SCOPE_BIT(TV_SCOPE_EVENT_COMMON_CONTEXT) | \
				 TV_SCOPE_BIT(TV_SCOPE_EVENT_SPECIFIC_CONTEXT) | \
				 TV_SCOPE_BIT(TV_SCOPE_EVENT_PAYLOAD))

/* A key of the trace environment (CTF env, trace.dat options, system.xml). */
struct tv_env_entry {
	const char	*key;
	const char	*str;		/* NULL when the value is an integer */
	int64_t		 num;
};

struct tv_event_class {
	const char		*name;		/* interned */
	/* interned: the event system (trace.dat) when the name does not
	   carry it; NULL otherwise (see the filter's event lists) */
	const char		*system;
	uint64_t		 id;		/* the format's own id */
	uint64_t		 stream_class_id;
	int32_t			 loglevel;	/* -1 if none */
	uint32_t		 index;		/* position in trace->classes */
	const char		*model_emf_uri;	/* may be NULL */
	/* borrowed from the trace; NULL when the scope is empty */
	const struct tv_field_class *context;
	const struct tv_field_class *payload;
	uint64_t		 count;		/* TV_COUNT_UNKNOWN until counted */
	/*
	 * A record of this class belongs to the event before it on its
	 * stream (a stack trace): a filter that shows that event shows it
	 * too, as trace-cmd report -F does.
	 */
	bool			 follows_previous;
	void			*priv;		/* driver data */
};

/*
 * One entry of a stream's packet index.  Timestamps are ns from origin;
 * the raw cycle values are kept for the "raw clock" display.
 */
struct tv_packet {
	uint64_t	 offset;	/* bytes, in file[file] */
	uint64_t	 size;		/* total bytes, padding included */
	uint64_t	 content_bits;	/* bits of content */
	int64_t		 ts_begin;	/* TV_TIME_NONE if unknown */
	int64_t		 ts_end;
	uint64_t	 cycles_begin;
	uint64_t	 cycles_end;
	uint64_t	 discarded;	/* events the tracer lost before this
					   packet's end (delta, not counter) */
	uint64_t	 seq_num;	/* TV_COUNT_UNKNOWN if none */
	uint64_t	 event_count;	/* TV_COUNT_UNKNOWN until decoded */
	uint32_t	 file;		/* index in stream->files */
	uint32_t	 flags;		/* TV_PACKET_* */
};

#define TV_PACKET_CORRUPT	0x1	/* decoding stopped early */
#define TV_PACKET_LOST_BEFORE	0x2	/* seq_num gap before this packet */

struct tv_stream {
	struct tv_trace		*trace;		/* borrowed: owner */
	char			*name;		/* owned, e.g. "channel0_1" */
	uint64_t		 class_id;
	uint64_t		 instance_id;	/* TV_COUNT_UNKNOWN if none */
	int32_t			 cpu;		/* TV_CPU_UNKNOWN if none */
	uint32_t		 ordinal;	/* position in the set: merge
						   tie-breaker */
	struct tv_mapfile	*files;		/* owned, nfiles */
	uint32_t		 nfiles;
	struct tv_packet	*packets;	/* owned, the packet index */
	uint64_t		 npackets;
	uint64_t		 packets_cap;
	const struct tv_clock	*clock;		/* borrowed, may be NULL */
	/*
	 * The times of the stream's first and last events (TV_TIME_NONE if
	 * it has none), set when the set is opened from its first and last
	 * packets holding events.
	 */
	int64_t			 ev_first;
	int64_t			 ev_last;
	/*
	 * While following: the stream is known to hold no event before
	 * quiet_until (when quiet), though it may have written no packet
	 * since (an idle CPU of an LTTng live session: the relay daemon's
	 * inactivity beacons).  Bounds tv_trace_set_settled().
	 */
	bool			 quiet;
	int64_t			 quiet_until;
	void			*priv;		/* driver data */
};

/*
 * A thread the trace names before any event says so: trace.dat saved
 * cmdlines, LTT control/processes.  The state seeds its threads from
 * these (names only: the state stays "unknown").
 */
struct tv_known_thread {
	int64_t		 tid;
	int64_t		 pid;		/* thread group; INT64_MIN unknown */
	const char	*name;		/* arena or interned */
};

struct tv_trace {
	const struct tv_format_ops *ops;	/* the driver */
	char			*path;		/* owned: directory or file */
	char			*name;		/* owned: for the status bar */
	struct tv_arena		 arena;		/* classes, labels, names */
	struct tv_intern	*names;		/* owned intern pool */
	struct tv_env_entry	*env;		/* arena */
	uint32_t		 nenv;
	struct tv_clock		*clocks;	/* arena */
	uint32_t		 nclocks;
	struct tv_event_class	**classes;	/* arena */
	uint32_t		 nclasses;
	struct tv_stream	**streams;	/* owned */
	uint32_t		 nstreams;
	uint8_t			 uuid[16];
	bool			 has_uuid;
	struct tv_known_thread	*known;		/* arena, set by drivers */
	uint32_t		 nknown;
	/* The format's version when a driver reads several, e.g. "2". */
	const char		*version;	/* arena or static; may be NULL */
	/*
	 * Annotations of the metadata that are not the environment (CTF 2
	 * user attributes and extensions): key = where, str = the value as
	 * text.  --info lists them.
	 */
	struct tv_env_entry	*attrs;		/* arena */
	uint32_t		 nattrs;
	/*
	 * Following (TV_OPEN_FOLLOW): data files of the trace seen but not
	 * readable yet (empty, or their first packet cut short), whose
	 * stream is not known: the timeline is not settled while there are
	 * any (tv_trace_set_settled).
	 */
	uint32_t		 pending_files;
	/*
	 * Those of them that are files, with their sizes at the last look
	 * (tv_trace_note_pending): tv_trace_set_grown looks again only
	 * when one changed, not at every look while a CPU stays idle.
	 */
	char			**pending_paths;	/* owned */
	uint64_t		*pending_sizes;		/* owned */
	uint32_t		 npending_paths;
	/* The trace directory's mtime (ns) at the last look: new files. */
	int64_t			 dir_mtime;
	/*
	 * Following: a file describing the trace that may grow while it is
	 * written (CTF metadata gaining event classes), set by the driver:
	 * its path (owned; NULL if none) and the bytes of it read so far.
	 */
	char			*meta_path;
	uint64_t		 meta_size;
	/* Scopes common to the trace or a stream class, set by drivers. */
	void			*priv;		/* driver data */
};

/*
 * A path a set was opened from while following, for the traces that
 * appear under it later: its driver, and the directories under it that
 * hold no trace (where a new one appears: an LTTng session's ust/pid/
 * when an application registers) with their mtimes at the last look.
 */
struct tv_set_root {
	char				*path;		/* owned */
	const struct tv_format_ops	*ops;
	char				**dirs;		/* owned, ndirs */
	int64_t				*mtimes;	/* owned, ndirs */
	uint32_t			 ndirs;
};

/*
 * What a driver's discover op found under a root (format.h): traces
 * opened, traces seen but not readable yet, directories walked.
 */
struct tv_discovery {
	struct tv_trace		**traces;	/* tv_xmalloc'd */
	uint32_t		 ntraces;
	uint32_t		 pending;
	char			**dirs;		/* tv_xmalloc'd, each too */
	uint32_t		 ndirs;
};

/* A set of traces opened together and merged into one timeline. */
struct tv_trace_set {
	struct tv_trace		**traces;	/* owned */
	uint32_t		 ntraces;
	struct tv_stream	**streams;	/* borrowed: all streams, by
						   ordinal */
	uint32_t		 nstreams;
	/*
	 * The span of the timeline: the first and last events of every
	 * stream (N%, relative times, --begin), or the packet bounds when
	 * no stream holds an event.
	 */
	int64_t			 ts_begin;
	int64_t			 ts_end;
	/* The bounds of the packet indexes, which tracers may pad. */
	int64_t			 pkt_begin;
	int64_t			 pkt_end;
	/*
	 * Following (tv_trace_set_open_live): the paths opened, where new
	 * traces may appear (tv_trace_set_extend opens them, at the end of
	 * traces: indexes of the others do not move), and the traces seen
	 * there but not readable yet (the timeline is not settled).
	 */
	struct tv_set_root	*roots;		/* owned */
	uint32_t		 nroots;
	uint32_t		 pending_traces;
};

/*
 * The kinds of record a packet yields.  Besides events, the drivers report
 * what was lost so that every view can show it where it happened.
 */
enum tv_rec_kind {
	TV_REC_EVENT,
	TV_REC_DISCARDED,	/* the tracer dropped events: count */
	TV_REC_LOST_PACKETS,	/* sequence-number gap: count */
};

/* One record of a decoded packet: enough to order it and find it again. */
struct tv_event_rec {
	int64_t		 ts;		/* ns from origin */
	uint64_t	 bit_offset;	/* event start, from packet start */
	uint32_t	 class_index;	/* trace->classes[]; TV_REC_EVENT */
	uint16_t	 kind;		/* enum tv_rec_kind */
	uint16_t	 head_bits;	/* the driver's: bits of the record's
					   header, so a decode of its fields
					   may step over it; 0 unknown */
	uint64_t	 count;		/* DISCARDED/LOST_PACKETS: how many;
					   EVENT: cycles value of the ts */
};

/* The records of one packet, produced by a driver's decode_packet. */
struct tv_packet_events {
	struct tv_event_rec	*recs;		/* owned */
	uint64_t		 count;
	uint64_t		 cap;
	/* TV_OK, or why decoding stopped before the end of the packet. */
	enum tv_status		 status;
	struct tv_error		 err;
};

/*
 * A position in the merged timeline: which stream, packet and record.
 * A plain value: copy it, keep it, seek back to it.
 */
struct tv_event {
	struct tv_stream	*stream;	/* borrowed */
	uint64_t		 packet;	/* index in stream->packets */
	uint64_t		 index;		/* record index in the packet */
	struct tv_event_rec	 rec;		/* copy of the record */
};

/* Decoded fields of one event, per scope; NULL where a scope is empty. */
struct tv_event_fields {
	const struct tv_value	*scope[TV_SCOPE_COUNT];
};

/* ---- building (drivers) ---- */

struct tv_trace		*tv_trace_create(const struct tv_format_ops *ops,
			    const char *path);
void			 tv_trace_destroy(struct tv_trace *trace);
struct tv_stream	*tv_trace_add_stream(struct tv_trace *trace,
			    const char *name);
/** tv_stream_add_file() - map @path and append it; returns its index. */
enum tv_status		 tv_stream_add_file(struct tv_stream *s,
			    const char *path, uint32_t *index,
			    struct tv_error *err);
/**
 * tv_stream_add_packet() - append an index entry and return it: zeroed,
 * except ts_begin/ts_end = TV_TIME_NONE and seq_num/event_count =
 * TV_COUNT_UNKNOWN, the "unknown" values of those fields.
 */
struct tv_packet	*tv_stream_add_packet(struct tv_stream *s);
void			 tv_packet_events_fini(struct tv_packet_events *pe);
/**
 * tv_trace_note_pending() - count file @path (@size bytes now) among the
 * pending files of @t; @path NULL: forget those noted (a new look).
 */
void			 tv_trace_note_pending(struct tv_trace *t,
			    const char *path, uint64_t size);
/** tv_packet_events_push() - append a record; returns it. */
struct tv_event_rec	*tv_packet_events_push(struct tv_packet_events *pe);

/* ---- reading (core, UI) ---- */

/**
 * tv_trace_set_open() - probe and open every path with the drivers of
 * @formats (NULL-terminated, in probe order: tv_format_registry() or a
 * test's own), a directory possibly holding several traces (an LTTng
 * session with kernel/ and ust/); index their streams and assign stream
 * ordinals.  On a partial failure the readable traces are kept and @err
 * says what was not.
 */
enum tv_status		 tv_trace_set_open(struct tv_trace_set **out,
			    const char *const *paths, size_t npaths,
			    const struct tv_format_ops *const *formats,
			    struct tv_error *err);
void			 tv_trace_set_close(struct tv_trace_set *set);

/*
 * The trace may still be written (--follow): a packet cut short at the
 * end of a stream file is "pending", left out of the index until it is
 * whole, not an error.
 */
#define TV_OPEN_FOLLOW	0x1u

/**
 * tv_trace_set_open_live() - tv_trace_set_open() for traces that may
 * still be written (TV_OPEN_FOLLOW): see tv_trace_set_extend().
 */
enum tv_status		 tv_trace_set_open_live(struct tv_trace_set **out,
			    const char *const *paths, size_t npaths,
			    const struct tv_format_ops *const *formats,
			    struct tv_error *err);

/**
 * tv_trace_set_extend() - take in what was written to the traces of
 * @set since they were opened or last extended (the driver's extend):
 * packets appended to the indexes, new streams at the end of set->streams
 * (ordinals renumbered in the order a fresh open gives), the span
 * widened, event classes the metadata gained appended to
 * trace->classes (their indexes never change; holders of per-class
 * tables grow them: tv_filter_extend...).  @flags: TV_OPEN_FOLLOW while
 * the writers may still write;
 * 0 for the last look, when they are done (a packet cut short is then
 * an error).  *@grew true when anything was added.  Existing packets,
 * records and classes stay valid, but the packet arrays and mappings
 * may move: no other thread may read @set during the call (stop the
 * workers first) and mergers made before are to be made again.
 * TV_UNSUPPORTED naming the trace when its format cannot be followed.
 */
enum tv_status		 tv_trace_set_extend(struct tv_trace_set *set,
			    unsigned flags, bool *grew, struct tv_error *err);

/**
 * tv_trace_set_grown() - cheaply (a stat per stream and per trace
 * directory): may tv_trace_set_extend() find something new?  True when
 * a stream's last file is longer than mapped, a trace directory changed
 * (a file appeared) since the last look, a trace's meta_path is longer
 * than read, or a pending file changed size (or something pending is
 * not a file).
 */
bool			 tv_trace_set_grown(const struct tv_trace_set *set);

/**
 * tv_trace_set_settled() - the time before which the timeline of a set
 * being written is complete: every record with an earlier time is in
 * the indexes already.  A stream's next packet starts no earlier than
 * its last packet ends (CTF's packet bounds), so it is the earliest end
 * of the last packet among the streams, or of a stream's quiet_until
 * when later; INT64_MIN while a stream has neither yet or a file is
 * pending (trace->pending_files).
 */
int64_t			 tv_trace_set_settled(const struct tv_trace_set *set);

/*
 * What a whole-trace pass notes when it runs over a followed set, to
 * know after tv_trace_set_extend() whether it can go on or must start
 * over (the state pass, the match pass, the statistics).
 */
/**
 * tv_trace_set_note_classes() - *@nclasses (grown as needed) gets the
 * event class count of each trace of @set, *@ntraces their number.
 */
void			 tv_trace_set_note_classes(
			    const struct tv_trace_set *set,
			    uint32_t **nclasses, uint32_t *ntraces);
/**
 * tv_trace_set_classes_grew() - whether one of the first @ntraces traces
 * of @set has another count of event classes than @nclasses[i] (noted
 * by a pass when it ran: the metadata of a followed trace grew since).
 */
bool			 tv_trace_set_classes_grew(
			    const struct tv_trace_set *set,
			    const uint32_t *nclasses, uint32_t ntraces);
/**
 * tv_trace_set_renumbered() - whether a stream of @streams (set->streams
 * as a pass saw it, @n of them) is no longer at its place: streams are
 * appended as they appear, but traces added to the set may sort theirs
 * among the others, and whatever a pass keeps per ordinal is then off.
 */
bool			 tv_trace_set_renumbered(
			    const struct tv_trace_set *set,
			    struct tv_stream *const *streams, uint32_t n);

/**
 * tv_trace_set_writers() - one look at who writes @set (--follow): a
 * trace whose files no other process writes any more is finished, its
 * streams quiet for ever, so it holds back tv_trace_set_settled() no
 * longer (an application of a per-PID session that exited).  True while
 * the set may still grow: a file is written, or another process holds a
 * directory of the session open (at or under a root, or up to three
 * above it: LTTng's daemons hold the output directories until the
 * session is destroyed).
 */
bool			 tv_trace_set_writers(struct tv_trace_set *set);

/* When tv_trace_set_count() walks the packets. */
enum tv_count_how {
	TV_COUNT_IF_CHEAP,	/* only small traces (--info) */
	TV_COUNT_ALWAYS,	/* whatever it costs (--info=counts) */
};

/**
 * tv_trace_set_count() - set every class's count: from the state cache
 * file when a valid one exists, else by decoding the record headers of
 * every packet (no field) if @how allows; *@counted says whether the
 * counts are set.  What is readable is counted; the first decoding error
 * is returned and put in @err.
 */
enum tv_status		 tv_trace_set_count(struct tv_trace_set *set,
			    enum tv_count_how how, bool *counted,
			    struct tv_error *err);

/** tv_packet_bytes() - pointer to packet @p's bytes in its mapped file. */
const uint8_t		*tv_packet_bytes(const struct tv_stream *s,
			    const struct tv_packet *p);

/**
 * tv_event_bytes() - where the bytes of packet @pkt of @s are: its index
 * entry in *@p, its mapped file in *@mf and, returned, its first byte (an
 * event's bytes start rec.bit_offset / 8 further).  NULL when @pkt is not
 * in the index or its bytes are not inside its file (*@p and *@mf are
 * then NULL or what was found).  The one place drivers locate the bytes
 * they decode.
 */
const uint8_t		*tv_event_bytes(const struct tv_stream *s,
			    uint64_t pkt, const struct tv_packet **p,
			    const struct tv_mapfile **mf);

/**
 * tv_packet_release() - a sequential pass is done with packet @pkt of
 * @s: its mapped pages join release batch @r (tv_map_release_add), which
 * the pass flushes when it ends.
 */
void			 tv_packet_release(struct tv_map_release *r,
			    const struct tv_stream *s, uint64_t pkt);

/**
 * tv_packet_populate() - a pass is about to read all of packet @pkt of
 * @s: map its pages now (tv_mapfile_populate).
 */
void			 tv_packet_populate(const struct tv_stream *s,
			    uint64_t pkt);

/** tv_event_class_of() - the class of an event record, or NULL. */
const struct tv_event_class *tv_event_class_of(const struct tv_event *ev);

/*
 * The calls into a driver below read mapped files under a guard
 * (src/core/trace-guard.c): a file truncated, replaced or deleted while
 * open makes them fail with TV_IO and a message naming the file, never
 * a signal.  Nothing else calls the driver's decoding operations.
 */

/**
 * tv_stream_decode_packet() - the driver's decode_packet: record headers
 * of packet @pkt of @s into @out (out->status, out->err say why it
 * stopped early).
 */
enum tv_status		 tv_stream_decode_packet(struct tv_stream *s,
			    uint64_t pkt, struct tv_packet_events *out);

/**
 * tv_event_decode() - decode every scope of @ev into @arena (the caller
 * resets it between events).  Through the driver's decode_fields.
 */
enum tv_status		 tv_event_decode(const struct tv_event *ev,
			    struct tv_arena *arena,
			    struct tv_event_fields *out,
			    struct tv_error *err);
/**
 * tv_event_decode_scopes() - tv_event_decode() of at least the scopes
 * in @scopes (TV_SCOPE_BIT()s; a driver may decode more, the others are
 * NULL): what a pass over every event asks for, TV_SCOPES_EVENT.
 */
enum tv_status		 tv_event_decode_scopes(const struct tv_event *ev,
			    struct tv_arena *arena,
			    struct tv_event_fields *out, unsigned scopes,
			    struct tv_error *err);

/**
 * tv_stream_fault() - the error for a fault at @addr while reading @s's
 * files (the file that shrank, and what is left of it): for a driver
 * that takes a guard of its own inside something it must give back (a
 * lock, a cache), since a fault must not jump past the giving.
 */
enum tv_status		 tv_stream_fault(const struct tv_stream *s,
			    const void *addr, struct tv_error *err);

/*
 * Called with each member @v of a struct as it is decoded; a byte text
 * array may come as its @bytes instead of items (v->kids.count of
 * them), else @bytes is NULL.
 */
typedef void		(*tv_member_fn)(void *ctx, const struct tv_value *v,
			    const uint8_t *bytes);

/**
 * tv_event_visit_payload() - the members of @ev's payload that are not
 * numbers (integers, enumerations, floats: read past), decoded one at a
 * time into @arena and handed to @fn, without a tree for the payload
 * (the driver's visit_payload, else decode_fields); a payload that is
 * not a struct comes whole.  TV_OK, or the error decode_fields gives,
 * after the members before it.
 */
enum tv_status		 tv_event_visit_payload(const struct tv_event *ev,
			    struct tv_arena *arena, tv_member_fn fn,
			    void *ctx, struct tv_error *err);

/** tv_event_print() - the driver's print_record (one --dump line). */
enum tv_status		 tv_event_print(const struct tv_event *ev,
			    struct tv_arena *arena, struct tv_strbuf *out,
			    struct tv_error *err);

struct tv_thread;
/**
 * tv_event_print_state() - the driver's print_record_state (LTTV's
 * process columns from @run, the thread running once @ev is applied);
 * @out NULL: a record not printed, only learned from (format.h).
 */
enum tv_status		 tv_event_print_state(const struct tv_event *ev,
			    const struct tv_thread *run,
			    struct tv_arena *arena, struct tv_strbuf *out,
			    struct tv_error *err);

/** tv_trace_print_header() - the driver's print_header, if it has one. */
enum tv_status		 tv_trace_print_header(const struct tv_trace *t,
			    struct tv_strbuf *out, struct tv_error *err);
/** tv_trace_print_footer() - the driver's print_footer, if it has one. */
enum tv_status		 tv_trace_print_footer(const struct tv_trace *t,
			    struct tv_strbuf *out, struct tv_error *err);

/**
 * tv_packet_copy() - a tv_xmalloc'd copy of packet @pkt's bytes, *len of
 * them: the driver's packet_copy, else the mapped bytes; *out NULL when
 * the format keeps none.
 */
enum tv_status		 tv_packet_copy(const struct tv_stream *s,
			    uint64_t pkt, uint8_t **out, uint64_t *len,
			    struct tv_error *err);

/** tv_trace_open_guarded() - @ops->open(@path, ...) under a guard. */
enum tv_status		 tv_trace_open_guarded(
			    const struct tv_format_ops *ops, const char *path,
			    unsigned flags, struct tv_trace ***out,
			    uint32_t *nout, struct tv_error *err);

/**
 * tv_trace_discover_guarded() - @ops->discover(@path, ...) under a
 * guard; TV_UNSUPPORTED without a message when the format has none.
 */
enum tv_status		 tv_trace_discover_guarded(
			    const struct tv_format_ops *ops, const char *path,
			    unsigned flags, const struct tv_trace_set *set,
			    struct tv_discovery *out, struct tv_error *err);

/**
 * tv_trace_extend_guarded() - @trace's driver extend under a guard;
 * TV_UNSUPPORTED when the format has none.
 */
enum tv_status		 tv_trace_extend_guarded(struct tv_trace *trace,
			    unsigned flags, bool *grew, struct tv_error *err);

/**
 * tv_event_text() - append the event's text as the format's reference
 * reader prints it after the event's name ('\n' between the lines of a
 * kernel stack), through the driver's print_info.  TV_UNSUPPORTED
 * without a message when the format has none (then the fields are the
 * text).
 */
struct tv_strbuf;
enum tv_status		 tv_event_text(const struct tv_event *ev,
			    struct tv_arena *arena, struct tv_strbuf *out,
			    struct tv_error *err);

/**
 * tv_event_value_note() - append what the reference reader makes of
 * value @v named @name of @scope (a symbol, decoded flags), through the
 * driver's value_note; false (nothing appended) when it says nothing.
 */
bool			 tv_event_value_note(const struct tv_event *ev,
			    enum tv_scope scope, const char *name,
			    const struct tv_value *v, struct tv_strbuf *out);

/** tv_trace_env_get() - env entry by key, or NULL. */
const struct tv_env_entry *tv_trace_env_get(const struct tv_trace *trace,
			    const char *key);

#endif /* TVIEW_TRACE_H */
