/*
 * Shared inside the LTT driver family: the XML-described trace versions,
 * i.e. the LTTng 0.x facility era (format 0.x, eventdefs/ and
 * control/facilities_N) and the 2004 "new LTT trace format" (info/,
 * control/, cpu/N).  Both describe event payloads with XML facility
 * definitions instead of marker format strings.
 *
 *   ltt-xmlread.c    lenient XML through libxml2; system.xml attributes
 *   ltt-eventdefs.c  facility XML into struct ltt_xtype
 *   ltt-xvalue.c     types to field classes; payload decode, skip, print
 *   ltt-xopen.c      what opening both kinds shares: streams, index
 *                    pass, facility_load walk, hand-over, records
 *   ltt-facility.c   facility era: blocks, headers, facility_load events
 *   ltt-newfmt.c     new format: system.xml, equal-size blocks
 *
 * Each of these trace kinds has its own tv_format_ops (name "ltt"), which
 * ltt.c's probe and open dispatch to.
 */
#ifndef TVIEW_LTT_XML_H
#define TVIEW_LTT_XML_H

#include "tview/trace.h"
#include "tview/format.h"

#define LTT_X_MAX_DEPTH		32	/* nesting of types and typerefs */
#define LTT_X_MAX_FILE		(16u << 20)	/* one eventdefs file */
#define LTT_X_MAX_FILES		1024
#define LTT_X_MAX_ARRAY		(1u << 20)	/* elements of one array */
#define LTT_X_MAX_NODES		(1u << 18)	/* types in one file, expanded */
#define LTT_X_MAX_CLASSES	(1u << 18)	/* event classes of a trace */

/* What an XML type element is. */
enum ltt_xkind {
	LTT_X_INT,
	LTT_X_UINT,
	LTT_X_FLOAT,
	LTT_X_STRING,
	LTT_X_POINTER,
	LTT_X_ENUM,
	LTT_X_STRUCT,
	LTT_X_UNION,
	LTT_X_ARRAY,
	LTT_X_SEQUENCE,
};

/* Where an integer's size comes from. */
enum ltt_xsize {
	LTT_XS_FIXED,		/* ->bytes */
	LTT_XS_INT,		/* the traced machine's int */
	LTT_XS_LONG,
	LTT_XS_POINTER,
	LTT_XS_SIZE_T,
};

struct ltt_xtype;

/* A named member of a struct or union. */
struct ltt_xfield {
	const char		*name;
	struct ltt_xtype	*type;
};

/* One enum label. */
struct ltt_xlabel {
	const char	*name;
	int64_t		 value;
};

/* A type as the XML describes it, sizes not yet resolved. */
struct ltt_xtype {
	enum ltt_xkind		 kind;
	enum ltt_xsize		 sizek;
	uint8_t			 bytes;		/* LTT_XS_FIXED */
	bool			 net_order;	/* byte_order="network" */
	struct ltt_xfield	*fields;	/* STRUCT, UNION */
	uint32_t		 nfields;
	struct ltt_xtype	*elem;		/* ARRAY, SEQUENCE */
	struct ltt_xtype	*len;		/* SEQUENCE length, UNION tag */
	uint64_t		 length;	/* ARRAY */
	struct ltt_xlabel	*labels;	/* ENUM */
	uint32_t		 nlabels;
};

/* One event of a facility: its payload is a struct (maybe empty). */
struct ltt_xevent {
	const char		*name;
	struct ltt_xtype	*type;		/* NULL: no payload */
};

/* One <facility> element. */
struct ltt_xfacility {
	const char		*name;
	const char		*arch;		/* NULL if any */
	const char		*file;		/* where it was defined */
	uint32_t		 line;
	uint32_t		 checksum;	/* ltt_xfacility_checksum() */
	struct ltt_xevent	*events;
	uint32_t		 nevents;
};

/* Every facility of an eventdefs directory (or of some files). */
struct ltt_xdefs {
	struct tv_arena		*arena;		/* borrowed: the trace's */
	struct ltt_xfacility	*facs;		/* owned array */
	uint32_t		 nfacs;
	uint32_t		 cap;
};

/* The C type sizes and alignment a facility was compiled with. */
struct ltt_xsizes {
	uint8_t		 int_size;
	uint8_t		 long_size;
	uint8_t		 pointer_size;
	uint8_t		 size_t_size;
	uint8_t		 alignment;	/* 0: packed */
	enum tv_byte_order bo;
};

/*
 * A field class of a sequence: the generic SEQUENCE class followed by the
 * class of the length that precedes the elements in the data.
 */
struct ltt_xseq_fc {
	struct tv_field_class	 fc;
	struct tv_field_class	*len;
};

/* An event class of an XML-described trace: tv_event_class.priv. */
struct ltt_xclass {
	const struct ltt_xfacility	*fac;
	uint32_t			 event;	/* index in fac->events */
	struct tv_field_class		*payload;	/* NULL: empty */
	int64_t				 fixed;	/* payload bytes, -1: varies */
	uint8_t				 alignment;	/* facility's */
	struct tv_event_class		*ec;
};

/*
 * Per trace, for both kinds (tv_trace.priv): what decoding an event needs.
 * Event ids index @by_id: the new format's uint16 type id, or the facility
 * era's (facility_id << 8 | event_id).
 */
struct ltt_xtrace {
	struct ltt_xdefs	 defs;
	struct ltt_xsizes	 sizes;		/* defaults of the trace */
	uint32_t		 head_size;	/* event header bytes */
	bool			 has_size;	/* header has event_size */
	bool			 swap;		/* trace order != host */
	struct ltt_xclass	**by_id;	/* owned, nids entries */
	uint32_t		 nids;
	uint64_t		 block_size;	/* new format */
	uint32_t		 id_start;	/* builtin ids (new format) */
	uint32_t		 id_end;
	uint32_t		 id_heartbeat;
	uint32_t		 id_facload;
	/* facility era */
	bool			 heartbeat;
	uint8_t			 major;
	uint8_t			 minor;
	uint32_t		 data_start;	/* first event in a block */
	uint64_t		 start_freq;
	uint32_t		 freq_scale;
	uint64_t		 start_tsc;
	int64_t			 start_ns;
	const char		*arch;		/* from arch_type, or NULL */
};

/* Per stream: tv_stream.priv. */
struct ltt_xstream {
	bool			 control;	/* control/ tracefile */
};

/* ---- ltt-xmlread.c, ltt-eventdefs.c ---- */
/**
 * ltt_xml_read() - parse XML text @buf (@len bytes, named @path in
 * messages) leniently as described in ltt-xmlread.c; the document is an
 * xmlDocPtr returned as void * (free with xmlFreeDoc).
 */
enum tv_status	 ltt_xml_read(const char *path, const char *buf, size_t len,
		    void **out, struct tv_error *err);
/** ltt_xdefs_init() - empty set allocating in @a. */
void		 ltt_xdefs_init(struct ltt_xdefs *d, struct tv_arena *a);
void		 ltt_xdefs_fini(struct ltt_xdefs *d);
/**
 * ltt_xdefs_parse() - add the facilities of XML text @buf (@len bytes,
 * named @path in messages).  TV_SYNTAX with path:line:col for malformed
 * XML, TV_SEMANTIC with path:line for a bad definition.
 */
enum tv_status	 ltt_xdefs_parse(struct ltt_xdefs *d, const char *path,
		    const char *buf, size_t len, struct tv_error *err);
/** ltt_xdefs_load_file() - ltt_xdefs_parse() on a file's content. */
enum tv_status	 ltt_xdefs_load_file(struct ltt_xdefs *d, const char *path,
		    struct tv_error *err);
/** ltt_xdefs_load_dir() - every *.xml of directory @dir, sorted. */
enum tv_status	 ltt_xdefs_load_dir(struct ltt_xdefs *d, const char *dir,
		    struct tv_error *err);
/**
 * ltt_xdefs_find() - the facility named @name whose checksum is
 * @checksum; if none has it and @any_checksum, the first of that name.
 */
const struct ltt_xfacility *ltt_xdefs_find(const struct ltt_xdefs *d,
		    const char *name, uint32_t checksum, bool any_checksum);
/** ltt_xfacility_checksum() - CRC-32 of the facility's canonical form. */
uint32_t	 ltt_xfacility_checksum(const struct ltt_xfacility *f);
/**
 * ltt_xml_attrs() - the attributes of the root element of XML text @buf
 * (system.xml) as env entries in @a, plus its text as "description".
 */
enum tv_status	 ltt_xml_attrs(const char *path, const char *buf,
		    size_t len, struct tv_arena *a, struct tv_env_entry **out,
		    uint32_t *nout, struct tv_error *err);

/* ---- ltt-xvalue.c ---- */
/** ltt_xtype_fc() - the field class of @t for sizes @sz, in @a. */
struct tv_field_class *ltt_xtype_fc(const struct ltt_xtype *t,
		    const struct ltt_xsizes *sz, struct tv_arena *a);
/** ltt_fc_fixed_size() - bytes @fc always takes unaligned, or -1. */
int64_t		 ltt_fc_fixed_size(const struct tv_field_class *fc,
		    uint8_t alignment);
/**
 * ltt_xdecode() - decode @fc at *@pos of @base (bounded by @end) into
 * @out (NULL: only advance *@pos); @alignment as in the trace header.
 */
enum tv_status	 ltt_xdecode(const struct tv_field_class *fc,
		    const uint8_t *base, uint64_t *pos, uint64_t end,
		    uint8_t alignment, struct tv_arena *a, struct tv_value *out,
		    unsigned depth);
/** ltt_xprint_value() - LTTV textDump rendering of one value. */
void		 ltt_xprint_value(struct tv_strbuf *sb,
		    const struct tv_value *v);
/** ltt_xprint_time() - "sec.nsec" as LTTV prints an LttTime. */
void		 ltt_xprint_time(struct tv_strbuf *sb, int64_t ns);
/** ltt_xclass_add() - a new event class "facility.event" of @t. */
struct ltt_xclass *ltt_xclass_add(struct tv_trace *t,
		    const struct ltt_xfacility *f, uint32_t event,
		    const struct ltt_xsizes *sz);

/** ltt_xset_id() - make @xc the class of event id @id. */
void		 ltt_xset_id(struct ltt_xtrace *xt, uint32_t id,
		    struct ltt_xclass *xc);
/** ltt_xdecode_fields() - decode_fields of both kinds. */
enum tv_status	 ltt_xdecode_fields(const struct tv_event *ev,
		    struct tv_arena *arena, struct tv_event_fields *out,
		    unsigned scopes, struct tv_error *err);
/** ltt_xprint_record() - print_record of both kinds (LTTV textDump). */
enum tv_status	 ltt_xprint_record(const struct tv_event *ev,
		    struct tv_arena *arena, struct tv_strbuf *out,
		    struct tv_error *err);
/** ltt_xclose() - close of both kinds. */
void		 ltt_xclose(struct tv_trace *t);

/* ---- ltt-xopen.c ---- */
/** ltt_xevent_index() - index of the event named @name in @f, or
 * UINT32_MAX. */
uint32_t	 ltt_xevent_index(const struct ltt_xfacility *f,
		    const char *name);
/**
 * ltt_xtrace_new() - an empty trace of driver @ops at @path (made
 * absolute) with its ltt_xtrace and facility set.
 */
struct tv_trace *ltt_xtrace_new(const struct tv_format_ops *ops,
		    const char *path);
/**
 * ltt_xadd_file() - tracefile @dir/@name as stream @sname of @t on CPU
 * @cpu; with @skip_empty, what is not a non-empty regular file is passed
 * over.
 */
enum tv_status	 ltt_xadd_file(struct tv_trace *t, const char *dir,
		    const char *name, const char *sname, int32_t cpu,
		    bool control, bool skip_empty, struct tv_error *err);
/**
 * ltt_xindex_streams() - give every stream the trace's clock and index it
 * with @index.  A damaged tracefile keeps its blocks before the damage
 * and the others are whole: the first damage goes to @damage.
 */
void		 ltt_xindex_streams(struct tv_trace *t,
		    enum tv_status (*index)(struct tv_stream *,
		    struct tv_error *), struct tv_error *damage);

/* How ltt_xload_facilities() reads the facility_load events of a kind. */
struct ltt_xload {
	/* Whether an event of class @ec is one to apply. */
	bool		(*wanted)(const struct tv_trace *t,
			    const struct tv_event_class *ec, void *ctx);
	/* Apply one decoded payload; an error stops the walk. */
	enum tv_status	(*apply)(struct tv_trace *t, const struct tv_event *ev,
			    const struct tv_value *payload, void *ctx,
			    struct tv_error *err);
	void		*ctx;
	/* Stop at the first undecodable block or event (else pass it). */
	bool		 strict;
};

/**
 * ltt_xload_facilities() - decode the events of control tracefile @s that
 * @how wants and apply their payloads, in order.
 */
enum tv_status	 ltt_xload_facilities(struct tv_trace *t,
		    struct tv_stream *s, const struct ltt_xload *how,
		    struct tv_error *err);
/**
 * ltt_xblock() - start decoding block @pkt of @s into @out (status and
 * error cleared): its bytes, its index entry in *@p and its file in *@mf;
 * NULL when it is not in the index or its file.
 */
const uint8_t	*ltt_xblock(const struct tv_stream *s, uint64_t pkt,
		    struct tv_packet_events *out, const struct tv_packet **p,
		    const struct tv_mapfile **mf);
/**
 * ltt_xblock_damage() - the packet walk stops at byte @pos of block @p
 * (file @mf): an event header that does not fit (@xc NULL), or the
 * payload of @xc that runs past the block.  TV_CORRUPT, in out->err.
 */
enum tv_status	 ltt_xblock_damage(struct tv_packet_events *out,
		    const struct tv_mapfile *mf, const struct tv_packet *p,
		    uint64_t pos, const struct ltt_xclass *xc);
/**
 * ltt_tsc_extend() - the full cycle count of an event whose header holds
 * the low 32 bits @low, the previous event's being @tsc (they wrap at
 * most once between two events: heartbeats see to that).
 */
uint64_t	 ltt_tsc_extend(uint64_t tsc, uint32_t low);
/**
 * ltt_xpush_event() - append the record of an event of class @xc at byte
 * @pos of its block, at time @ts (ns) and cycle count @cycles.
 */
void		 ltt_xpush_event(struct tv_packet_events *out,
		    const struct ltt_xclass *xc, uint64_t pos, int64_t ts,
		    uint64_t cycles);
/**
 * ltt_xopen_end() - the end of an open: on @st's failure destroy @t and
 * return @st; else hand @t out as the only trace, with @damage (the
 * first damaged tracefile) as its status.
 */
enum tv_status	 ltt_xopen_end(struct tv_trace *t, enum tv_status st,
		    const struct tv_error *damage, struct tv_trace ***out,
		    uint32_t *nout, struct tv_error *err);

/*
 * The tv_format_ops of one XML-described kind: only the description,
 * open and decode_packet differ.
 */
#define LTT_XFORMAT(desc, open_fn, decode_fn) {				\
	.name		= "ltt",					\
	.description	= (desc),					\
	.probe		= NULL,						\
	.open		= (open_fn),					\
	.close		= ltt_xclose,					\
	.decode_packet	= (decode_fn),					\
	.decode_fields	= ltt_xdecode_fields,				\
	.print_record	= ltt_xprint_record,				\
	.print_header	= ltt_print_header,	/* LTTV's first line */	\
	.state_rules	= ltt_state_tables,				\
	.state_hook	= ltt_state_hook,				\
}

/* ---- ltt-facility.c ---- */
/** ltt_fac_probe() - is @path a facility-era trace directory? */
bool		 ltt_fac_probe(const char *path);
enum tv_status	 ltt_fac_open(const char *path, unsigned flags,
		    struct tv_trace ***out, uint32_t *nout,
		    struct tv_error *err);

/* ---- ltt-newfmt.c ---- */
/** ltt_newfmt_probe() - is @path a 2004 new-format trace directory? */
bool		 ltt_newfmt_probe(const char *path);
enum tv_status	 ltt_newfmt_open(const char *path, unsigned flags,
		    struct tv_trace ***out, uint32_t *nout,
		    struct tv_error *err);

#endif /* TVIEW_LTT_XML_H */
