/*
 * Shared inside the CTF driver only: the trace class built from TSDL
 * metadata, and the entry points of the driver's passes.
 *
 *   ctf-metadata.c   find metadata, unpack packetized metadata to text
 *   tsdl-lex.c       TSDL tokens with line:column
 *   tsdl-parse.c     recursive-descent parser into an arena AST
 *   tsdl-model.c     scopes, typealias/typedef, resolution of sequence
 *                    lengths and variant tags to save slots, roles
 *   ctf2-*.c         CTF 2 (JSON) metadata into the same model (ctf2.h)
 *   ctf-decode.c     bit-level reader: field class -> tv_value
 *   ctf-index.c      packet index from index/FILE.idx or packet headers
 *   ctf-packet.c     decode_packet: event headers, clock updates
 *   ctf-print.c      babeltrace2 text output (--dump)
 *   ctf-flat.c       members read where they lie, no tree (flat.h)
 *   ctf.c            the driver vtable, probe, open, directory walk
 */
#ifndef TVIEW_CTF_PRIV_H
#define TVIEW_CTF_PRIV_H

#include "tview/trace.h"
#include "tview/format.h"

struct ctf_hprog;
struct ctf_quick_walk;

struct ctf_stream_class {
	uint64_t		 id;
	bool			 has_id;	/* declared with an id */
	struct tv_field_class	*packet_context;	/* NULL if none */
	struct tv_field_class	*event_header;
	struct tv_field_class	*event_context;		/* stream's */
	struct tv_event_class	**events;	/* borrowed, sorted by id */
	uint32_t		 nevents;
	const struct tv_clock	*clock;		/* borrowed: from a mapped
						   timestamp field, or NULL */
	/* Filled at open by ctf.c: events by id when ids are small. */
	struct tv_event_class	**by_id;	/* arena, NULL holes */
	uint32_t		 nby_id;
	struct ctf_hprog	*hdr_prog;	/* arena: flat event-header
						   decoder, or NULL */
	struct ctf_sprog	*ctx_prog;	/* arena: event_context's
						   flat skipper, or NULL */
	/* the packet walk's table of usual records (ctf_quick_build),
	   or NULL; atomic: the metadata of a followed trace renews it */
	const struct ctf_quick_walk *quick;
};

struct ctf_trace_class {
	uint32_t		 major;
	uint32_t		 minor;
	enum tv_byte_order	 byte_order;	/* trace native */
	struct tv_field_class	*packet_header;	/* NULL if none */
	struct ctf_stream_class	**sclasses;	/* arena */
	uint32_t		 nsclasses;
	uint32_t		 nslots;	/* save slots needed to decode */
	char			*metadata;	/* owned: the TSDL text */
	size_t			 metadata_len;
	size_t			 metadata_raw;	/* bytes of the file read */
	bool			 following;	/* the metadata may still grow */
	bool			 packetized;	/* metadata came in packets */
	enum tv_byte_order	 packet_bo;	/* ... of this byte order,
						   which the text's trace
						   block must not contradict */
};

/* Per event class: tv_event_class.priv points to this. */
struct ctf_event_class {
	struct ctf_stream_class	*sclass;	/* borrowed */
	/* Filled at open by ctf.c: flat skippers (ctf-decode.h) or NULL. */
	struct ctf_sprog	*ctx_prog;	/* arena: context */
	struct ctf_sprog	*pay_prog;	/* arena: payload */
	bool			 head_skip;	/* ctf_head_skippable() */
	/*
	 * ctf_packet_skippable(): the packet scopes leave nothing the
	 * event's scopes read, so no scope cache is needed to decode them.
	 */
	bool			 packet_skip;
};

/* Which optional packet-context roles a stream's packets carry. */
struct ctf_head_roles {
	bool	 begin, end, disc, seq;
};

/* Per stream: tv_stream.priv points to this. */
struct ctf_stream_priv {
	struct ctf_trace_class	*tc;		/* borrowed */
	struct ctf_stream_class	*sclass;	/* borrowed */
	/*
	 * Where indexing stopped, to go on from there when the stream
	 * grows (--follow): the roles seen so far, the file and offset of
	 * the next packet, and the raw discarded-events counter and
	 * sequence number of the last packet indexed (the index keeps
	 * deltas).
	 */
	struct ctf_head_roles	 hr;
	uint32_t		 next_file;
	uint64_t		 next_off;
	uint64_t		 last_disc;
	uint64_t		 last_seq;	/* TV_COUNT_UNKNOWN if none */
	struct ctf_print_caches	*pcache;	/* owned, or NULL: print_record's
						   last packets (ctf-decode.h);
						   set once, atomically */
	struct ctf_print_caches	*dcache;	/* the same for decode_fields
						   (no text) */
};

/* Per trace: tv_trace.priv points to this. */
struct ctf_trace_priv {
	struct ctf_trace_class	 tc;
	char			*bt_name;	/* owned: the trace name as
						   babeltrace2 prints it */
	char			*bt_prefix;	/* owned: "host:proc:(vpid) "
						   before event names, or "" */
	/*
	 * While followed: the metadata size that failed to build, and the
	 * error once said (repeated until the file changes).
	 */
	uint64_t		 meta_failed;
	struct tv_error		 meta_err;
};

/**
 * ctf_metadata_read() - the TSDL text of the trace in @dir into
 * @tc->metadata: plain text as is, packetized metadata unpacked (either
 * byte order, noted in @tc->packetized and packet_bo for ctf_tsdl_build
 * to check against the text); CTF 2 metadata (a JSON text sequence:
 * first byte 0x1E) as is.  With TV_OPEN_FOLLOW in @flags a last
 * metadata packet cut short is left out (still being written);
 * @tc->metadata_raw says how many bytes of the file were read.
 */
enum tv_status	 ctf_metadata_read(const char *dir, unsigned flags,
		    struct ctf_trace_class *tc, struct tv_error *err);

/** ctf_metadata_is_json() - is metadata @text CTF 2 (JSON)? */
bool		 ctf_metadata_is_json(const char *text, size_t len);

/**
 * ctf_tsdl_build() - parse TSDL @text (errors as "@path:line:col: msg")
 * and fill @trace (clocks, env, uuid, event classes, all in trace->arena)
 * and @tc (stream classes, packet header, slots, roles).  When
 * @tc->packetized, the trace's declared byte order must be packet_bo.
 */
enum tv_status	 ctf_tsdl_build(const char *text, size_t len, const char *path,
		    struct tv_trace *trace, struct ctf_trace_class *tc,
		    struct tv_error *err);

/**
 * ctf_events_index() - sort each stream class's events by id (their
 * priv->sclass set, trace->classes[i]->index = i).  False with the index
 * of a class in *@dup when two classes of a stream class share an id.
 */
bool		 ctf_events_index(struct tv_trace *trace,
		    struct ctf_trace_class *tc, struct tv_arena *a,
		    uint32_t *dup);

/**
 * ctf_ctf2_build() - read CTF 2 metadata @text (a JSON text sequence;
 * errors as "@path: offset N: fragment F (type "name"): /json/path: msg")
 * into the same model ctf_tsdl_build() fills.
 */
enum tv_status	 ctf_ctf2_build(const char *text, size_t len, const char *path,
		    struct tv_trace *trace, struct ctf_trace_class *tc,
		    struct tv_error *err);

/* ---- ctf-flat.c: the flat_plan and flat_read ops (format.h) ---- */
void		*ctf_flat_plan(const struct tv_event_class *ec,
		    const struct tv_flat_ask *asks, unsigned n);
bool		 ctf_flat_read(const struct tv_event *ev, const void *plan,
		    struct tv_flat_value *out);

/* ---- ctf-state.c: the state_rules op ---- */
extern const struct tv_state_rule *const ctf_state_tables[];

#endif /* TVIEW_CTF_PRIV_H */
