/*
 * The CTF driver's binary side, shared by its decoding files only: the
 * bit-level decoder state (ctf-decode.c), the packet index (ctf-index.c),
 * the event walk (ctf-packet.c) and the text printer (ctf-print.c).
 */
#ifndef TVIEW_CTF_DECODE_H
#define TVIEW_CTF_DECODE_H

#include <string.h>

#include "tview/flat.h"
#include "tview/mapfile.h"
#include "ctf-priv.h"

#define CTF_MAX_DEPTH		64	/* nesting of field classes */
#define CTF_MAX_ZERO_ELEMS	(1u << 20)	/* elements of 0 bits */

/*
 * What one event may cost, whatever its metadata and bytes say.  Array
 * lengths are bounded by the packet only when elements take bits: empty
 * structs or sequences nested in arrays repeat work without reading a
 * byte, so a 4-byte event could make tview loop for hours, allocate
 * without bound or print gigabytes.
 *
 * Steps are struct members, array elements and variant options met while
 * decoding.  Each bit read pays for one; CTF_MAX_FREE_STEPS more are
 * allowed per event: 65,536 is far above any struct or empty field a
 * tracer writes (an LTTng event has tens of fields) and costs well under
 * a millisecond, so a hostile event wastes no more than that.
 */
#define CTF_MAX_FREE_STEPS	(1u << 16)
/*
 * Values decoded into a tree for one event (48 bytes each): 4M values,
 * 192 MiB, bounds the memory of one event, a 4 MiB byte array or a
 * 512 KiB bit field array still decodes.
 */
#define CTF_MAX_EVENT_VALUES	(1u << 22)
/*
 * Bytes of text one event may print: 16 MiB bounds the line buffer and
 * the output of an event made of few bits; the longest line of the shared
 * CTF samples is under 64 KiB, and a line of 16 MiB is unreadable anyway.
 */
#define CTF_MAX_EVENT_TEXT	(16u << 20)

/*
 * Decoder state over one packet.  In skip mode (arena == NULL) only save
 * slots, roles and the clock are updated; in value mode a tv_value tree
 * is built in the arena.
 */
struct ctf_dec {
	const uint8_t		*buf;		/* packet start */
	uint64_t		 buf_bytes;	/* readable bytes from buf */
	uint64_t		 pos;		/* bits from buf */
	uint64_t		 end;		/* bit limit (content size) */
	uint64_t		 file_off;	/* byte offset of buf in file */
	const char		*path;		/* for errors */
	uint64_t		*slots;		/* save slots */
	uint32_t		 nslots;
	uint32_t		 seen;		/* bit (1 << role) per role met */
	uint64_t		 roles[TV_ROLE_COUNT];
	uint64_t		 uuid_pos;	/* bit position of the uuid */
	uint64_t		 clock;		/* stream clock, cycles */
	struct tv_arena		*arena;		/* NULL: skip mode */
	struct tv_error		*err;
	uint32_t		 depth;
	uint64_t		 steps;		/* this event's, CTF_MAX_FREE_STEPS */
	uint64_t		 step_pos;	/* bit position the event began */
	uint64_t		 values;	/* this event's, CTF_MAX_EVENT_VALUES */
};

/** ctf_dec_event_start() - a new event starts at the current position. */
static inline void
ctf_dec_event_start(struct ctf_dec *d)
{
	d->steps = 0;
	d->values = 0;
	d->step_pos = d->pos;
}

/**
 * ctf_int_load8() - the unsigned integer of @ic's layout (1 to 64 bits)
 * at byte @p, with 8 bytes readable there: one load and a shift or
 * mask, whatever the size.
 */
static inline __attribute__((always_inline)) uint64_t
ctf_int_load8(const uint8_t *p, const struct tv_int_class *ic)
{
	uint32_t size = ic->size;
	uint64_t w;

	memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return ic->byte_order == TV_BO_BE ? w >> (64 - size) :
	    __builtin_bswap64(w) & (UINT64_MAX >> (64 - size));
#else
	return ic->byte_order == TV_BO_BE ?
	    __builtin_bswap64(w) >> (64 - size) :
	    w & (UINT64_MAX >> (64 - size));
#endif
}

/** ctf_sign_extend() - sign-extend the low @size bits of @v. */
static inline uint64_t
ctf_sign_extend(uint64_t v, uint32_t size)
{
	if (size < 64 && (v & (UINT64_C(1) << (size - 1))))
		v |= ~((UINT64_C(1) << size) - 1);
	return v;
}

/** ctf_dec_init() - a decoder over @len bytes at @buf (file offset @off). */
void		 ctf_dec_init(struct ctf_dec *d, const uint8_t *buf,
		    uint64_t len, uint64_t off, const char *path,
		    uint64_t *slots, uint32_t nslots, struct tv_error *err);

/** ctf_fc_prepare() - fill the skip cache of @fc and its children. */
void		 ctf_fc_prepare(struct tv_field_class *fc, struct tv_arena *a);

/** ctf_dec_field() - decode one field; @out NULL in skip mode. */
enum tv_status	 ctf_dec_field(struct ctf_dec *d,
		    const struct tv_field_class *fc, struct tv_value *out);

/*
 * Called with each decoded member of a struct (ctf_dec_struct_each); a
 * byte text array comes as its @bytes (v->kids.count of them, no items).
 */
typedef tv_member_fn ctf_member_fn;

/* What ctf_dec_struct_each() hands over and charges. */
enum {
	CTF_EACH_NUMBERS = 1,	/* integers, enums and floats too (else
				   read past, never handed over) */
	CTF_EACH_LIMITS = 2,	/* the steps and values ctf_dec_field
				   charges for the struct and its text
				   arrays: fail exactly when it would */
};

/**
 * ctf_dec_struct_each() - decode struct @fc member by member, handing
 * each to @fn as soon as it is decoded (a byte text array as its bytes),
 * with no value for the struct itself: --dump prints while decoding
 * (CTF_EACH_NUMBERS), a search looks at a payload's text
 * (CTF_EACH_LIMITS).  @how: CTF_EACH_* bits.
 */
enum tv_status	 ctf_dec_struct_each(struct ctf_dec *d,
		    const struct tv_field_class *fc, unsigned how,
		    ctf_member_fn fn, void *ctx);

/**
 * ctf_flat_readable() - whether ctf_dec_flat() reads a field of class
 * @fc: an integer, a NUL-ended byte string, a byte array of fixed length.
 */
bool		 ctf_flat_readable(const struct tv_field_class *fc);

/**
 * ctf_dec_flat() - read one field of class @fc (ctf_flat_readable()) at
 * @d's position as ctf_dec_field() would, into @out, with no value tree
 * (flat.h); false when it does not fit in the content.
 */
bool		 ctf_dec_flat(struct ctf_dec *d,
		    const struct tv_field_class *fc,
		    struct tv_flat_value *out);

/** ctf_dec_skip() - skip one field, O(1) when its size is fixed. */
static inline enum tv_status
ctf_dec_skip(struct ctf_dec *d, const struct tv_field_class *fc)
{
	if (fc->skip_fixed) {
		uint64_t a = fc->align, p = (d->pos + a - 1) & ~(a - 1);

		if (p + fc->skip_bits <= d->end) {
			d->pos = p + fc->skip_bits;
			return TV_OK;
		}
	}
	return ctf_dec_field(d, fc, NULL);
}

/** ctf_dec_role() - value of @role if a field with it was decoded. */
static inline bool
ctf_dec_role(const struct ctf_dec *d, enum tv_field_role role, uint64_t *v)
{
	if (!(d->seen & (1u << role)))
		return false;
	*v = d->roles[role];
	return true;
}

/*
 * A flat decoder for the usual event header (LTTng's compact and large
 * ones): integers, then at most one variant whose options are integers or
 * structs of integers.  No recursion, option chosen by table lookup.
 */
#define CTF_HPROG_MAX	8

/* One integer read of a flat decoder, with its side effects. */
struct ctf_hop {
	uint64_t	 align;
	uint32_t	 size;
	int32_t		 slot;		/* -1: none */
	uint16_t	 role;
	bool		 be;
	bool		 sgn;
	bool		 clock;		/* updates the stream clock */
};

struct ctf_hprog_opt {
	struct ctf_hop		 ops[CTF_HPROG_MAX];
	uint32_t		 n;
	uint32_t		 align;
};

/* A tag range of a wide tag (LTTng's 16-bit one) and its option. */
struct ctf_hprog_range {
	uint64_t	 lo, hi;
	int32_t		 opt;		/* -1: none */
};

struct ctf_hprog {
	uint32_t			 align;
	struct ctf_hop			 pre[CTF_HPROG_MAX];
	uint32_t			 npre;
	const struct tv_field_class	*var;		/* or NULL */
	/* the option by tag: a table for narrow tags, else the ranges of
	 * the tag's mappings in declaration order (the first holding the
	 * tag wins, as in ctf_enum_find) */
	int8_t				*opt_by_tag;	/* -1: none */
	uint32_t			 ntag;
	struct ctf_hprog_range		 rng[CTF_HPROG_MAX];
	uint32_t			 nrng;
	bool				 rng_signed;
	struct ctf_hprog_opt		 opt[4];
	uint32_t			 nopt;
	/*
	 * LTTng's usual record, read with one 64-bit load: tag pre[0],
	 * then for tags word_lo..word_hi option word_opt's one timestamp.
	 */
	bool				 word;
	uint32_t			 word_opt;
	uint64_t			 word_lo, word_hi;
	uint64_t			 tag_mask, ts_mask;
};

/** ctf_hprog_build() - flat decoder for header @fc, or NULL if unusual. */
struct ctf_hprog *ctf_hprog_build(const struct tv_field_class *fc,
		    struct tv_arena *a);
/** ctf_hprog_opt_of() - the option of @hp's variant for tag @v, or -1. */
int32_t		 ctf_hprog_opt_of(const struct ctf_hprog *hp, uint64_t v);
/** ctf_hprog_run_slow() - ctf_hprog_run() past its one-load path. */
enum tv_status	 ctf_hprog_run_slow(struct ctf_dec *d,
		    const struct ctf_hprog *hp);

/*
 * The stream clock @clock after a timestamp field holding its low bits
 * (@mask) reads @v: less than the clock's low bits, they wrapped.
 */
static inline uint64_t
ctf_clock_next(uint64_t clock, uint64_t v, uint64_t mask)
{
	uint64_t nv = (clock & ~mask) | v;

	if (v < (clock & mask))
		nv += mask + 1;
	return nv;
}

/* What reading @v through @op leaves: save slot, role, stream clock. */
static inline __attribute__((always_inline)) void
ctf_hop_effects(struct ctf_dec *d, const struct ctf_hop *op, uint64_t v)
{
	if (op->slot >= 0 && (uint32_t)op->slot < d->nslots)
		d->slots[op->slot] = v;
	if (op->role) {
		d->roles[op->role] = v;
		d->seen |= 1u << op->role;
	}
	if (op->clock)
		d->clock = op->size >= 64 ? v : ctf_clock_next(d->clock, v,
		    (UINT64_C(1) << op->size) - 1);
}

/*
 * The little-endian 64-bit word at @p (8 bytes readable), the first
 * load of every record of LTTng's usual layout.  The walks waited on it
 * at every new cache line and page (a fifth of a header count's
 * samples), so it asks for the bytes a few records on too; a prefetch
 * never faults, past the mapping's end too.
 */
static inline __attribute__((always_inline)) uint64_t
ctf_load_word(const uint8_t *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	__builtin_prefetch(p + 1024);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/**
 * ctf_hprog_run() - decode an event header in skip mode through @hp.
 * The usual record, tag and timestamp in one 64-bit load (the header's
 * start is byte-aligned, see word_shape), is read here, inline in every
 * walk; anything else out of line.
 */
static inline __attribute__((always_inline)) enum tv_status
ctf_hprog_run(struct ctf_dec *d, const struct ctf_hprog *hp)
{
	uint64_t p = (d->pos + hp->align - 1) & ~((uint64_t)hp->align - 1);
	uint64_t w, tag;

	if (hp->word && p + 64 <= d->end &&
	    (uint32_t)hp->pre[0].slot < d->nslots) {
		w = ctf_load_word(d->buf + (p >> 3));
		tag = w & hp->tag_mask;
		if (tag >= hp->word_lo && tag <= hp->word_hi) {
			const struct ctf_hop *ts =
			    &hp->opt[hp->word_opt].ops[0];
			uint64_t v = (w >> hp->pre[0].size) & hp->ts_mask;

			/* ctf_hop_effects() of both, with what word_shape
			   made sure of known: the tag has a slot and no
			   clock, the timestamp no slot and < 64 bits */
			d->slots[hp->pre[0].slot] = tag;
			if (hp->pre[0].role) {
				d->roles[hp->pre[0].role] = tag;
				d->seen |= 1u << hp->pre[0].role;
			}
			if (ts->role) {
				d->roles[ts->role] = v;
				d->seen |= 1u << ts->role;
			}
			if (ts->clock)
				d->clock = ctf_clock_next(d->clock, v,
				    hp->ts_mask);
			d->pos = p + hp->pre[0].size + ts->size;
			return TV_OK;
		}
	}
	return ctf_hprog_run_slow(d, hp);
}

/*
 * A flat skipper for a payload or context struct (the hot path of every
 * walk: the packet's event offsets are found by skipping every event's
 * fields).  Consecutive fixed-size members are one step, NUL strings a
 * memchr, sequences of fixed-size elements one multiplication; anything
 * else goes through ctf_dec_field.  Each step knows its members, so a
 * step that fails is done again member by member by the generic decoder,
 * which gives the very error the generic walk would.  Not built for a
 * struct that updates the clock (doing a step twice would move it twice).
 */
enum ctf_sop_kind {
	CTF_SOP_FIXED,		/* @bits after aligning to @align */
	CTF_SOP_STRING,		/* NUL-terminated, 8-bit */
	CTF_SOP_SEQ,		/* length in a slot, fixed elements */
	CTF_SOP_MEMBER,		/* the generic member decoder */
};

struct ctf_sop {
	uint8_t				 kind;
	uint32_t			 align;
	uint32_t			 nmembers;	/* members it covers */
	uint64_t			 bits;		/* FIXED; SEQ: stride */
	const struct tv_field_member	*m;		/* the first */
};

struct ctf_sprog {
	uint32_t		 align;		/* the struct's */
	uint32_t		 nmembers;	/* steps charged at entry */
	uint32_t		 n;
	struct ctf_sop		 ops[];
};

/** ctf_fc_reads_slot() - does @fc or a field in it read save slot @slot? */
bool		 ctf_fc_reads_slot(const struct tv_field_class *fc,
		    int32_t slot);
/**
 * ctf_packet_skippable() - may an event's scopes @rest (NULL ones are
 * fine) be decoded without the @npacket packet scopes @packet before
 * them: none of these sets the stream clock (which then stays at the
 * packet's begin) or saves a value in a slot one of @rest reads?
 */
bool		 ctf_packet_skippable(const struct tv_field_class *const *packet,
		    uint32_t npacket, const struct tv_field_class *const *rest,
		    uint32_t nrest);
/**
 * ctf_head_skippable() - may an event's scopes after event header
 * @header, the @nrest classes @rest (NULL ones are fine), be decoded
 * without running the header again: none moves the stream clock (so the
 * clock after the header is the one the packet walk recorded) and none
 * reads a save slot the header fills?
 */
bool		 ctf_head_skippable(const struct tv_field_class *header,
		    const struct tv_field_class *const *rest, uint32_t nrest);
/** ctf_sprog_build() - flat skipper for struct @fc, or NULL (not worth it). */
struct ctf_sprog *ctf_sprog_build(const struct tv_field_class *fc,
		    struct tv_arena *a);
/** ctf_sprog_skip() - skip the struct @sp was built for, as ctf_dec_skip. */
enum tv_status	 ctf_sprog_skip(struct ctf_dec *d, const struct ctf_sprog *sp);

/*
 * CTF 2 field classes the CTF 1.8 decoder does not know (ctf2-decode.c),
 * called from the cases of ctf-decode.c.
 */
/** ctf_dec_varint() - a LEB128 integer at the (byte) position, extended. */
enum tv_status	 ctf_dec_varint(struct ctf_dec *d,
		    const struct tv_int_class *ic, uint64_t *v);
/** ctf_dec_xstring() - a UTF-16/32 or static/dynamic-length string. */
enum tv_status	 ctf_dec_xstring(struct ctf_dec *d,
		    const struct tv_field_class *fc, struct tv_value *out);
/** ctf_min_bits() - fewest bits a field of @fc takes (@dflt: 1.8's guess). */
uint64_t	 ctf_min_bits(const struct tv_field_class *fc, uint64_t dflt);

/** ctf_enum_find() - index of the first mapping holding @v, or -1. */
int32_t		 ctf_enum_find(const struct tv_field_class *fc, uint64_t v);

/** ctf_sclass_find() - stream class by id, or NULL. */
struct ctf_stream_class *ctf_sclass_find(struct ctf_trace_class *tc,
		    uint64_t id);

/**
 * ctf_read_packet_head() - decode the packet header and context of the
 * packet at @off of @mf into @d (skip mode).  Used by the index and by
 * decode_packet; the stream class found is returned in *@sc.
 */
enum tv_status	 ctf_read_packet_head(struct ctf_dec *d,
		    struct ctf_trace_class *tc, const struct tv_mapfile *mf,
		    uint64_t off, struct ctf_stream_class **sc,
		    struct tv_error *err);

/*
 * The packet walk's quick path for a stream class whose event header is
 * LTTng's usual word (ctf_hprog.word): for each event id, what follows
 * the header when it needs no generic work.  Every scope after the
 * header has a fixed size and no side effect (skip_fixed), or only the
 * payload has not and has a flat skipper that reads nothing the header
 * saved.  The walk then reads a record with one load, one table entry
 * and one addition; any other record, and one too near the content's
 * end, goes the generic way.  The extended header (LTTng's tag 31 or
 * 65535: an id and a full timestamp, for ids past the tag's and long
 * gaps; in a kernel trace every system call's id is past 30) is read
 * the same way with two more loads.
 */
struct ctf_quick {
	uint32_t		 ok;		/* 0: the generic walk */
	uint32_t		 index;		/* tv_event_class index */
	/* with the usual header, bytes of the whole record when it and
	   every scope after it are whole bytes of a fixed size; else 0 */
	uint32_t		 step;
	uint64_t		 rest_bits;	/* after the header, of the
						   fixed scopes */
	const struct ctf_sprog	*pay;		/* the payload's, after them,
						   or NULL: it is fixed too */
};

struct ctf_quick_walk {
	uint64_t		 align;		/* the header's */
	uint64_t		 tag_mask, ts_mask;
	uint64_t		 word_lo, word_hi;	/* the usual tags */
	uint32_t		 tag_bits;	/* the timestamp's shift */
	uint32_t		 head_bits;	/* tag and timestamp, whole
						   bytes */
	bool			 bytewise;	/* align 8: by_id[].step may
						   be set */
	/* the extended header: its tag, where its id and timestamp are
	   (bits from the header's start) and its size; ext false: none */
	bool			 ext;
	uint64_t		 ext_tag;
	uint32_t		 ext_id_at, ext_ts_at, ext_bits;
	uint64_t		 ext_id_mask, ext_ts_mask;
	uint64_t		 n;		/* ids 0..n-1 in by_id */
	struct ctf_quick	 by_id[];
};

/**
 * ctf_quick_build() - (re)build @sc's quick table from its header
 * program, events by id and their skippers, in @a; none when the header
 * is not the usual word.
 */
void		 ctf_quick_build(struct ctf_stream_class *sc,
		    struct tv_arena *a);

/**
 * ctf_stream_index() - build @s's packet index (index/ file or scan);
 * @flags TV_OPEN_FOLLOW: a packet cut short at the end of the last file
 * is pending, left for ctf_stream_extend().
 */
enum tv_status	 ctf_stream_index(struct tv_stream *s, unsigned flags,
		    struct tv_error *err);
/**
 * ctf_head_pending() - did reading the head of a packet at the end of a
 * file (@left bytes from its start) into @d fail only because the packet
 * is not all written yet: its size says it goes past the end, or too few
 * bytes are there for a header?  (--follow)
 */
bool		 ctf_head_pending(const struct ctf_dec *d, uint64_t left);
/**
 * ctf_stream_extend() - index the packets written to @s's files since
 * the last look (its files grew, or files were added to it); @flags as
 * for ctf_stream_index, *@grew true when packets were added.
 */
enum tv_status	 ctf_stream_extend(struct tv_stream *s, unsigned flags,
		    bool *grew, struct tv_error *err);

/* The vtable entries implemented outside ctf.c. */
enum tv_status	 ctf_decode_packet(struct tv_stream *s, uint64_t pkt,
		    struct tv_packet_events *out);
enum tv_status	 ctf_decode_fields(const struct tv_event *ev,
		    struct tv_arena *arena, struct tv_event_fields *out,
		    unsigned scopes, struct tv_error *err);
/** ctf_visit_payload() - the payload's members one at a time: visit_payload. */
enum tv_status	 ctf_visit_payload(const struct tv_event *ev,
		    struct tv_arena *arena, tv_member_fn fn, void *ctx,
		    struct tv_error *err);
/*
 * What the packet scopes of the last printed packet left behind, so the
 * next event of that packet starts at its event header: the save slots,
 * the stream clock, and the packet context as printed.  A cache line
 * each: two workers' caches side by side would take each other's line
 * at every event.
 */
struct ctf_print_cache {
	int			 busy;		/* atomic: a thread prints with it */
	uint64_t		 pkt;		/* packet index + 1; 0: empty;
						   atomic (read before taking) */
	bool			 hit;		/* the last decode used it */
	uint64_t		 clock;
	uint32_t		 nslots;
	uint64_t		*slots;		/* owned */
	char			*text;		/* owned; NULL: not shown */
	size_t			 len;
} __attribute__((aligned(64)));

/*
 * A stream's print caches: one per thread printing it at once (the
 * ordered parallel walk prints packets of one stream on several
 * workers), each taken and given back atomically.
 */
#define CTF_PRINT_CACHES	4
struct ctf_print_caches {
	struct ctf_print_cache	 c[CTF_PRINT_CACHES];
};

/** ctf_print_cache_free() - free what @pc holds (NULL is fine). */
void		 ctf_print_cache_free(struct ctf_print_cache *pc);
/** ctf_print_caches_free() - free @pcs and its caches (NULL is fine). */
void		 ctf_print_caches_free(struct ctf_print_caches *pcs);

/**
 * ctf_scope_cache_take() - a cache of the stream's set *@set for packet
 * @pkt (the set made on first use), else @own; give it back with
 * ctf_scope_cache_give(, @own, the decode's status): a failed decode
 * empties it.
 */
struct ctf_print_cache *ctf_scope_cache_take(struct ctf_print_caches **set,
		    uint64_t pkt, struct ctf_print_cache *own);
void		 ctf_scope_cache_give(struct ctf_print_cache *pc,
		    struct ctf_print_cache *own, enum tv_status st);

/*
 * st = call, with pc a scope cache of *set taken for @ev's packet and
 * given back after, under a mapping guard inside: a fault (a file cut
 * while open) must not jump past the give, which would leave the cache
 * taken for good, or leak what the caller's own one holds.
 */
#define CTF_WITH_SCOPE_CACHE(set, ev, pc, st, err, call) do {		\
	struct ctf_print_cache ctf_own_;				\
	struct tv_map_guard ctf_g_;					\
									\
	(pc) = ctf_scope_cache_take((set), (ev)->packet, &ctf_own_);	\
	TV_MAP_GUARDED(ctf_g_, st, call,				\
	    tv_stream_fault((ev)->stream, ctf_g_.addr, (err)));	\
	ctf_scope_cache_give((pc), &ctf_own_, (st));			\
} while (0)

/**
 * ctf_decode_scopes_to() - decode_fields without the headers, stopping
 * before scope @stop; *@d is then the decoder positioned there (its save
 * slots live in @arena).  With @pc (print_record), the packet scopes of
 * the packet @pc holds are not decoded again (pc->hit; their scopes are
 * left NULL) and a newly decoded packet's are stored in @pc.
 */
enum tv_status	 ctf_decode_scopes_to(const struct tv_event *ev,
		    struct tv_arena *arena, struct tv_event_fields *out,
		    struct ctf_print_cache *pc, int stop, struct ctf_dec *d,
		    struct tv_error *err);
enum tv_status	 ctf_print_record(const struct tv_event *ev,
		    struct tv_arena *arena, struct tv_strbuf *out,
		    struct tv_error *err);

#endif /* TVIEW_CTF_DECODE_H */
