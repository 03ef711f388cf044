/*
 * Field classes (the types of event fields) and decoded field values.
 *
 * The classes are format-neutral: CTF builds them from TSDL, trace.dat from
 * ftrace `format` files, LTT from XML event definitions.  A driver decodes
 * bytes into a tree of struct tv_value allocated in an arena; nothing is
 * decoded until something (the fields pane, --dump, search) asks.
 */
#ifndef TVIEW_FIELD_H
#define TVIEW_FIELD_H

#include "tview/tview.h"
#include "tview/util.h"

struct tv_clock;

enum tv_byte_order {
	TV_BO_LE,
	TV_BO_BE,
};

enum tv_fc_kind {
	TV_FC_INT,
	TV_FC_ENUM,		/* an integer with labelled ranges */
	TV_FC_FLOAT,
	TV_FC_STRING,		/* NUL-terminated in the data */
	TV_FC_STRUCT,
	TV_FC_VARIANT,		/* one of several options, chosen by a tag */
	TV_FC_ARRAY,		/* fixed length */
	TV_FC_SEQUENCE,		/* length from an earlier field */
};

enum tv_encoding {
	TV_ENC_NONE,
	TV_ENC_UTF8,
	TV_ENC_ASCII,
	TV_ENC_UTF16,		/* strings only (CTF 2): 2-byte code units */
	TV_ENC_UTF32,		/* strings only (CTF 2): 4-byte code units */
};

/* Where a string ends (CTF 2 adds lengths to NUL-terminated strings). */
enum tv_str_len {
	TV_STR_NUL,		/* at its NUL code unit */
	TV_STR_STATIC,		/* after string.length bytes */
	TV_STR_DYNAMIC,		/* after as many bytes as a save slot says */
};

struct tv_field_class;

/*
 * What an integer field means to the reader, beyond its value.  A driver's
 * metadata pass tags fields (CTF: by name and scope, as the spec says), so
 * the decoder finds timestamps, ids and sizes without looking up names.
 */
enum tv_field_role {
	TV_ROLE_NONE,
	TV_ROLE_MAGIC,
	TV_ROLE_UUID,			/* the uuid array itself */
	TV_ROLE_STREAM_ID,
	TV_ROLE_STREAM_INSTANCE_ID,
	TV_ROLE_PACKET_SIZE,		/* bits */
	TV_ROLE_CONTENT_SIZE,		/* bits */
	TV_ROLE_PACKET_BEGIN_TS,
	TV_ROLE_PACKET_END_TS,
	TV_ROLE_DISCARDED,		/* free-running counter */
	TV_ROLE_SEQ_NUM,
	TV_ROLE_CPU_ID,
	TV_ROLE_EVENT_ID,
	TV_ROLE_TIMESTAMP,		/* updates the stream clock */
	TV_ROLE_COUNT,
};

/* Integer layout, shared by TV_FC_INT and the container of TV_FC_ENUM. */
struct tv_int_class {
	uint32_t		 size;		/* bits, 1..64 */
	uint8_t			 base;		/* 2, 8, 10, 16 for printing */
	bool			 is_signed;
	enum tv_byte_order	 byte_order;
	enum tv_encoding	 encoding;	/* char arrays print as text */
	const struct tv_clock	*map_clock;	/* borrowed; "map = clock.x.value" */
	/*
	 * CTF 2 variable-length integer (unsigned LEB128, or signed): size is
	 * then 64, the width of the value, not of the data.
	 */
	bool			 varlen;
};

/* One labelled range of an enum; lo/hi are signed if the container is. */
struct tv_enum_range {
	uint64_t	 lo;
	uint64_t	 hi;
};

struct tv_enum_mapping {
	const char		*label;		/* owned by the trace's arena */
	struct tv_enum_range	*ranges;
	uint32_t		 nranges;
};

/* A named member of a struct, or an option of a variant. */
struct tv_field_member {
	const char		*name;
	struct tv_field_class	*fc;
};

struct tv_field_class {
	enum tv_fc_kind		 kind;
	uint32_t		 align;		/* bits, power of two, >= 1 */
	/*
	 * If >= 0, the decoder stores this integer's value in slot
	 * save_slot of the decode context, so that a later sequence length
	 * or variant tag refers to it by slot number instead of by path.
	 */
	int32_t			 save_slot;
	uint16_t		 role;		/* enum tv_field_role */
	/*
	 * Decoder cache, filled by the driver once at open: when skip_fixed,
	 * the field always takes skip_bits bits (after alignment) and has no
	 * side effect (no save slot, role or clock inside), so skipping it
	 * costs one addition.
	 */
	bool			 skip_fixed;
	uint64_t		 skip_bits;
	/* Printing cache (CTF): the reference reader hides this field. */
	bool			 hidden;
	union {
		struct tv_int_class	 integer;	/* INT */
		struct {
			struct tv_int_class	 integer;	/* container */
			struct tv_enum_mapping	*maps;
			uint32_t		 nmaps;
			/*
			 * A bit map (CTF 2): the ranges are bit indexes
			 * (0 = least significant) and a mapping holds a
			 * value when one of its bits is set: several
			 * flags may hold at once.
			 */
			bool			 bit_flags;
		} enumeration;				/* ENUM */
		struct {
			uint32_t		 exp_dig;
			uint32_t		 mant_dig;
			enum tv_byte_order	 byte_order;
		} flt;					/* FLOAT */
		struct {
			enum tv_encoding	 encoding;
			/* UTF-16/32 code units in this order */
			enum tv_byte_order	 byte_order;
			uint8_t			 len_kind;	/* tv_str_len */
			int32_t			 length_slot;	/* DYNAMIC */
			uint64_t		 length;	/* STATIC: bytes */
		} string;				/* STRING */
		struct {
			struct tv_field_member	*members;
			uint32_t		 nmembers;
		} structure;				/* STRUCT */
		struct {
			struct tv_field_member	*options;
			uint32_t		 noptions;
			int32_t			 tag_slot;
			/* borrowed: the enum class of the tag */
			const struct tv_field_class *tag_fc;
			/* decoder cache: option index per tag mapping, -1 */
			int32_t			*opt_of_map;
		} variant;				/* VARIANT */
		struct {
			struct tv_field_class	*elem;
			uint64_t		 length;	/* ARRAY */
			int32_t			 length_slot;	/* SEQUENCE */
			/*
			 * A BLOB (CTF 2) of a stated IANA media type:
			 * that type; NULL when not stated (the default,
			 * application/octet-stream) or not a BLOB.
			 */
			const char		*media_type;
		} array;				/* ARRAY, SEQUENCE */
	};
};

/*
 * A decoded value.  Strings point into the mapped file when they are
 * contiguous there, otherwise into the decode arena; they are not always
 * NUL-terminated: use .str.len.
 */
struct tv_value {
	const struct tv_field_class	*fc;	/* borrowed */
	const char			*name;	/* member name or NULL */
	uint64_t			 bit_offset;	/* from packet start */
	uint64_t			 bit_size;
	union {
		uint64_t	 u;		/* INT/ENUM unsigned */
		int64_t		 s;		/* INT/ENUM signed */
		double		 f;		/* FLOAT */
		struct {
			const char	*ptr;
			size_t		 len;
		} str;				/* STRING */
		struct {
			struct tv_value	*items;
			uint32_t	 count;
		} kids;		/* STRUCT members, ARRAY/SEQUENCE elements,
				   VARIANT: exactly one item, the selected
				   option, named after it */
	};
};

/** tv_field_class_create() - zeroed class of @kind, save_slot = -1. */
struct tv_field_class	*tv_field_class_create(struct tv_arena *a,
			    enum tv_fc_kind kind);
/**
 * tv_enum_mapping_holds() - whether a range of mapping @m of enum @fc
 * holds @v (compared signed when the enum's integer is; for a bit map,
 * whether @v has one of the bits of @m set): the one range check of
 * every reader and printer.
 */
bool			 tv_enum_mapping_holds(const struct tv_field_class *fc,
			    const struct tv_enum_mapping *m, uint64_t v);
/** tv_enum_label() - first label whose range holds @v, or NULL. */
const char		*tv_enum_label(const struct tv_field_class *fc,
			    uint64_t v);
/** tv_value_member() - child of a struct value by name, or NULL. */
const struct tv_value	*tv_value_member(const struct tv_value *v,
			    const char *name);
/** tv_value_as_int() - integer/enum value sign-extended; false if none. */
bool			 tv_value_as_int(const struct tv_value *v,
			    int64_t *out);
/**
 * tv_value_str() - a string or char-array value copied into @buf of
 * @size bytes, NUL-terminated and cut at its first NUL; false (and @buf
 * untouched) if @v is neither.
 */
bool			 tv_value_str(const struct tv_value *v, char *buf,
			    size_t size);

#endif /* TVIEW_FIELD_H */
