/*
 * Shared inside the LTT driver family only.  One driver reads every LTT
 * trace version; what differs between versions (sub-buffer header layout,
 * where event types come from, event headers) sits behind a per-version
 * ops struct, chosen from the major.minor of the first sub-buffer header.
 *
 *   ltt.c          the vtable, probe, open (directory walk, dispatch)
 *   ltt-block.c    sub-buffer (block) headers and the packet index
 *   ltt-marker.c   marker era: metadata channel, marker format strings
 *   ltt-event.c    compact event headers, TSC to ns, decode_packet/fields
 *   ltt-print.c    LTTV textDump output (--dump)
 *   ltt-lttv.c     LTTV's process conventions for textDump's columns
 */
#ifndef TVIEW_LTT_PRIV_H
#define TVIEW_LTT_PRIV_H

#include "tview/trace.h"
#include "tview/format.h"

#define LTT_MAGIC		0x00D6B7EDu
#define LTT_MAGIC_REV		0xEDB7D600u
#define LTT_MAX_MARKER_ID	65535u
#define LTT_MAX_FIELDS		256u
#define LTT_MAX_CHANNELS	4096u

/* What a marker field holds, as LTTV's marker parser classifies it. */
enum ltt_ftype {
	LTT_F_NONE,
	LTT_F_SIGNED,
	LTT_F_UNSIGNED,
	LTT_F_POINTER,
	LTT_F_STRING,
};

/* One field of a marker format string ("prev_state #2d%ld"). */
struct ltt_mfield {
	const char	*name;		/* trace arena */
	enum ltt_ftype	 type;
	uint8_t		 size;		/* bytes in the trace; 0: string */
	bool		 net_order;	/* "#n": big endian whatever the trace */
	/* How LTTV prints it: prefix text, then one conversion. */
	const char	*prefix;	/* literal text before the '%' */
	char		 flags[8];	/* printf flags among "-+ #0" */
	char		 conv;		/* d i o u x X c */
};

/* A parsed marker format: fields and the layout facts LTTV derives. */
struct ltt_mformat {
	struct ltt_mfield	*fields;	/* trace arena */
	uint32_t		 nfields;
	uint32_t		 largest_align;
	int64_t			 fixed_size;	/* -1 if a string makes it vary */
};

/* Sizes of C types on the traced machine, from core_marker_id. */
struct ltt_msizes {
	uint8_t	 int_size;
	uint8_t	 long_size;
	uint8_t	 pointer_size;
	uint8_t	 size_t_size;
	uint8_t	 alignment;
};

/* One event type of a channel: tv_event_class.priv points to this. */
struct ltt_marker {
	uint32_t		 channel;	/* index in priv->channels */
	uint16_t		 id;
	const char		*name;		/* event name, arena */
	const char		*format;	/* NULL if never given */
	struct ltt_msizes	 sizes;
	struct ltt_mformat	 fmt;
	struct tv_event_class	*ec;
};

/* A channel: its markers by id. */
struct ltt_channel {
	const char		*name;		/* interned */
	struct ltt_marker	**by_id;	/* nids entries, NULL holes */
	uint32_t		 nids;
	bool			 is_metadata;
};

/* One sub-buffer header, decoded; version-independent. */
struct ltt_block {
	uint64_t	 cycles_begin;
	uint64_t	 cycles_end;
	uint64_t	 size;		/* bytes of the sub-buffer */
	uint64_t	 content;	/* bytes of header + events */
	uint32_t	 events_lost;	/* counter since trace start */
	uint32_t	 subbuf_corrupt;
	uint8_t		 major;
	uint8_t		 minor;
	uint8_t		 arch_size;
	uint8_t		 alignment;
	uint64_t	 start_time_sec;
	uint64_t	 start_time_usec;
	uint64_t	 start_freq;
	uint32_t	 freq_scale;
};

struct ltt_trace_priv;

/* What one trace-format version does differently. */
struct ltt_version_ops {
	const char	*name;		/* "2.3" */
	uint32_t	 header_size;	/* bytes of the sub-buffer header */
	uint32_t	 tsc_bits;	/* compact timestamp bits */
	/*
	 * TSC to ns as the LTTV of this format: from the trace start TSC
	 * (2.3), or the whole TSC at once (2.5, 2.6: rounds differently).
	 */
	bool		 tsc_whole;
	/* Decode the header at @p (@avail bytes) into @out. */
	enum tv_status	(*read_block)(const uint8_t *p, uint64_t avail,
			    bool swap, const char *path, uint64_t off,
			    struct ltt_block *out, struct tv_error *err);
};

/* Per trace: tv_trace.priv points to this. */
struct ltt_trace_priv {
	const struct ltt_version_ops	*ops;
	bool			 swap;		/* trace byte order != host */
	enum tv_byte_order	 bo;
	uint8_t			 major;
	uint8_t			 minor;
	uint8_t			 arch_size;
	uint8_t			 alignment;
	uint64_t		 start_freq;
	uint32_t		 freq_scale;
	uint64_t		 start_tsc;
	uint64_t		 start_time_from_tsc;	/* ns */
	struct ltt_channel	*channels;
	uint32_t		 nchannels;
	/* Symbol tables for the annotations LTTV prints (ltt-print.c). */
	struct ltt_symtab	*syscalls;
	struct ltt_symtab	*softirqs;
	/* LTTV's process records, replayed as --dump prints (ltt-lttv.c) */
	struct ltt_lttv		*lttv;
};

/* Per stream (one tracefile <channel>_<cpu>): tv_stream.priv. */
struct ltt_stream_priv {
	uint32_t	 channel;	/* index in priv->channels */
};

/* A time-ordered list of (id -> name) definitions: LTTV's state tables. */
struct ltt_symdef {
	int64_t		 ts;
	uint64_t	 id;
	const char	*name;		/* arena */
};
struct ltt_symtab {
	struct ltt_symdef	*defs;	/* sorted by (id, ts) */
	size_t			 n;
	size_t			 cap;
};

/* ---- ltt.c ---- */
/**
 * ltt_path_is() - is @dir/@name there and of file type @type (S_IFREG,
 * S_IFDIR)?  Probes of every LTT kind ask it.
 */
bool		 ltt_path_is(const char *dir, const char *name,
		    unsigned type);

/* ---- ltt-block.c ---- */
extern const struct ltt_version_ops ltt_ops_2_3;
extern const struct ltt_version_ops ltt_ops_2_6;

uint16_t	 ltt_u16(const uint8_t *p, bool swap);
uint32_t	 ltt_u32(const uint8_t *p, bool swap);
uint64_t	 ltt_u64(const uint8_t *p, bool swap);
/** ltt_align() - padding LTTV inserts at @off for a @size-byte type. */
uint64_t	 ltt_align(uint64_t off, uint64_t size, uint64_t alignment);
/** ltt_read_first() - byte order and version from a file's first header. */
enum tv_status	 ltt_read_first(const uint8_t *p, uint64_t size,
		    const char *path, bool *swap,
		    const struct ltt_version_ops **ops, struct ltt_block *b,
		    struct tv_error *err);
/** ltt_stream_index() - one packet per sub-buffer of @s. */
enum tv_status	 ltt_stream_index(struct tv_stream *s, struct tv_error *err);

/* ---- ltt-marker.c ---- */
/**
 * ltt_mformat_parse() - parse marker format @fmt as LTTV does, with the
 * C type sizes @sz; fields in @a.  TV_SEMANTIC with a message if LTTV
 * would reject it.
 */
enum tv_status	 ltt_mformat_parse(const char *fmt,
		    const struct ltt_msizes *sz, struct tv_arena *a,
		    struct ltt_mformat *out, struct tv_error *err);
/** ltt_channel_get() - the channel named @name, created if new. */
uint32_t	 ltt_channel_get(struct tv_trace *t, const char *name);
/** ltt_load_markers() - read every metadata_N stream; build classes. */
enum tv_status	 ltt_load_markers(struct tv_trace *t, struct tv_error *err);

/* ---- ltt-event.c ---- */
/** ltt_tsc_to_ns() - LTTV's TSC to time conversion (double arithmetic). */
int64_t		 ltt_tsc_to_ns(const struct ltt_trace_priv *tp, uint64_t tsc);

/* The header of one event, decoded. */
struct ltt_ev_head {
	uint64_t	 start;		/* byte offset in the packet */
	uint64_t	 data;		/* payload offset (not yet aligned) */
	uint64_t	 tsc;		/* full TSC after this event */
	uint32_t	 id;
	uint32_t	 size;		/* UINT32_MAX if not in the header */
};
/**
 * ltt_read_head() - decode the event header at @pos of packet bytes @p
 * (@end = content end), updating the running TSC *@tsc.
 */
enum tv_status	 ltt_read_head(const struct ltt_trace_priv *tp,
		    const uint8_t *p, uint64_t pos, uint64_t end,
		    uint64_t *tsc, struct ltt_ev_head *h, const char *path,
		    uint64_t file_off, struct tv_error *err);
/**
 * ltt_payload_size() - bytes of @m's payload at @p[data..end): the
 * aligned start in *@data_out and the size in *@size.
 */
enum tv_status	 ltt_payload_size(const struct ltt_trace_priv *tp,
		    const struct ltt_marker *m, const uint8_t *p,
		    uint64_t data, uint64_t end, uint64_t *data_out,
		    uint64_t *size, const char *path, uint64_t file_off,
		    struct tv_error *err);
enum tv_status	 ltt_decode_packet(struct tv_stream *s, uint64_t pkt,
		    struct tv_packet_events *out);
enum tv_status	 ltt_decode_fields(const struct tv_event *ev,
		    struct tv_arena *arena, struct tv_event_fields *out,
		    unsigned scopes, struct tv_error *err);

/* ---- ltt-print.c ---- */
enum tv_status	 ltt_print_record(const struct tv_event *ev,
		    struct tv_arena *arena, struct tv_strbuf *out,
		    struct tv_error *err);
enum tv_status	 ltt_print_footer(const struct tv_trace *trace,
		    struct tv_strbuf *out, struct tv_error *err);
enum tv_status	 ltt_print_record_state(const struct tv_event *ev,
		    const struct tv_thread *run, struct tv_arena *arena,
		    struct tv_strbuf *out, struct tv_error *err);
enum tv_status	 ltt_print_header(const struct tv_trace *trace,
		    struct tv_strbuf *out, struct tv_error *err);
/** ltt_load_symbols() - LTTV's syscall/softirq name tables, timed. */
void		 ltt_load_symbols(struct tv_trace *t);

/* ---- ltt-lttv.c: LTTV's conventions for the process columns ---- */
struct ltt_lttv;
struct ltt_lv_proc;
/**
 * ltt_lttv_apply() - apply LTTV's state rule of record @ev (@payload
 * its decoded payload, NULL if none) to the trace's replay, and return
 * LTTV's process running on @ev's CPU afterwards (NULL if the CPU is
 * out of range).  The replay starts with the first record it is given
 * and sees only the records given (--dump: the ones it prints), in the
 * order given (LTTV's: the timeline's).
 */
const struct ltt_lv_proc *ltt_lttv_apply(const struct tv_event *ev,
		    const struct tv_value *payload);
/**
 * ltt_lttv_print() - textDump's "name, brand, ppid, function, mode"
 * columns of @p.
 */
void		 ltt_lttv_print(struct tv_strbuf *sb,
		    const struct ltt_lv_proc *p);
/** ltt_lttv_destroy() - free a replay (NULL is fine). */
void		 ltt_lttv_destroy(struct ltt_lttv *lv);

/* ---- ltt-state.c: the state_rules and state_hook ops ---- */
extern const struct tv_state_rule *const ltt_state_tables[];
/** ltt_state_hook() - the action core.process's sub-event stands for. */
uint8_t		 ltt_state_hook(const struct tv_state_rule *r,
		    const struct tv_value *payload);

#endif /* TVIEW_LTT_PRIV_H */
