/*
 * The CTF bit-level decoder: integers of 1..64 bits at any bit position in
 * either byte order, floats, strings, structs, arrays, sequences, variants
 * and enums, read from a packet's mapped bytes.  Skip mode only updates
 * save slots, roles and the stream clock (the hot path of indexing and
 * event walking); value mode builds a tv_value tree in an arena.  Every
 * read is bounded by the packet content size.
 */
#include "tview/tview.h"

#include <string.h>

#include "tview/bytes.h"
#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/time.h"
#include "ctf-decode.h"

/* Set up a decoder over a packet's bytes. */
void
ctf_dec_init(struct ctf_dec *d, const uint8_t *buf, uint64_t len,
    uint64_t off, const char *path, uint64_t *slots, uint32_t nslots,
    struct tv_error *err)
{
	/*
	 * Every member but roles[], read only once seen says a field
	 * filled it: zeroing those 112 bytes for each event decoded was
	 * a twentieth of a pass.
	 */
	d->buf = buf;
	d->buf_bytes = len;
	d->pos = 0;
	d->end = len * 8;
	d->file_off = off;
	d->path = path;
	d->slots = slots;
	d->nslots = nslots;
	d->seen = 0;
	d->uuid_pos = 0;
	d->clock = 0;
	d->arena = NULL;
	d->err = err;
	d->depth = 0;
	d->steps = 0;
	d->step_pos = 0;
	d->values = 0;
}

/* The error for a field that does not fit in what is left of the packet. */
static enum tv_status
dec_past_end(struct ctf_dec *d, uint64_t bits)
{
	return tv_error_at(d->err, TV_CORRUPT, d->path,
	    d->file_off + d->pos / 8,
	    _("field of %llu bits goes past the end of the packet content"),
	    (unsigned long long)bits);
}

/*
 * Charge @n steps (members, elements) to the event: an event may take
 * one per bit it has read so far, plus CTF_MAX_FREE_STEPS.
 */
static inline enum tv_status
dec_steps(struct ctf_dec *d, uint64_t n)
{
	uint64_t allow = d->pos - d->step_pos + CTF_MAX_FREE_STEPS;

	if (n <= allow && d->steps <= allow - n) {
		d->steps += n;
		return TV_OK;
	}
	return tv_error_at(d->err, TV_CORRUPT, d->path,
	    d->file_off + d->pos / 8,
	    _("more than %llu fields and elements in an event of %llu bits"),
	    (unsigned long long)allow,
	    (unsigned long long)(d->pos - d->step_pos));
}

/* Charge @n values of a tree to the event (CTF_MAX_EVENT_VALUES). */
static inline enum tv_status
dec_values(struct ctf_dec *d, uint64_t n)
{
	if (n <= CTF_MAX_EVENT_VALUES - d->values) {
		d->values += n;
		return TV_OK;
	}
	return tv_error_at(d->err, TV_CORRUPT, d->path,
	    d->file_off + d->pos / 8,
	    _("event has more than %u fields and elements to decode"),
	    CTF_MAX_EVENT_VALUES);
}

/* Read @size bits little-endian (LSB-first bit numbering) at bit @pos. */
static inline __attribute__((always_inline)) uint64_t
read_le(const uint8_t *b, uint64_t blen, uint64_t pos, uint32_t size)
{
	uint64_t byte = pos >> 3, v = 0;
	uint32_t shift = pos & 7, i, n = (shift + size + 7) >> 3;

	if (byte + 8 <= blen) {
		memcpy(&v, b + byte, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = __builtin_bswap64(v);
#endif
		v >>= shift;
		if (shift + size > 64 && byte + 9 <= blen)
			v |= (uint64_t)b[byte + 8] << (64 - shift);
	} else {
		/* Near the end of the mapping: byte by byte. */
		uint64_t lo = 0, hi = 0;

		for (i = 0; i < n && i < 8; i++)
			lo |= (uint64_t)b[byte + i] << (8 * i);
		if (n > 8)
			hi = b[byte + 8];
		v = lo >> shift;
		if (shift && n > 8)
			v |= hi << (64 - shift);
	}
	if (size < 64)
		v &= (UINT64_C(1) << size) - 1;
	return v;
}

/* Read @size bits big-endian (MSB-first bit numbering) at bit @pos. */
static inline __attribute__((always_inline)) uint64_t
read_be(const uint8_t *b, uint64_t blen, uint64_t pos, uint32_t size)
{
	uint64_t byte = pos >> 3, v = 0, next = 0;
	uint32_t shift = pos & 7, i, n = (shift + size + 7) >> 3;

	if (byte + 8 <= blen) {
		memcpy(&v, b + byte, 8);
#if __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__
		v = __builtin_bswap64(v);
#endif
		if (n > 8)
			next = b[byte + 8];
	} else {
		for (i = 0; i < n && i < 8; i++)
			v |= (uint64_t)b[byte + i] << (56 - 8 * i);
		if (n > 8)
			next = b[byte + 8];
	}
	if (shift) {
		v <<= shift;
		v |= next >> (8 - shift);
	}
	if (size < 64)
		v >>= 64 - size;
	return v;
}

/* Read an unsigned integer of @ic's layout at the (aligned) position. */
static inline __attribute__((always_inline)) enum tv_status
dec_raw_int(struct ctf_dec *d, const struct tv_int_class *ic, uint64_t *out)
{
	uint32_t size = ic->size;
	uint64_t pos = d->pos;

	*out = 0;
	if (pos + size > d->end || size == 0 || size > 64)
		return dec_past_end(d, size);
	if ((pos & 7) == 0 && (pos >> 3) + 8 <= d->buf_bytes) {
		/*
		 * Byte-aligned with 8 bytes to load: one load and a shift
		 * or mask for every size, no branch on the size (the sizes
		 * of an event's members vary too much to predict one).
		 */
		*out = ctf_int_load8(d->buf + (pos >> 3), ic);
	} else if (ic->byte_order == TV_BO_BE) {
		*out = read_be(d->buf, d->buf_bytes, pos, size);
	} else {
		*out = read_le(d->buf, d->buf_bytes, pos, size);
	}
	d->pos = pos + size;
	return TV_OK;
}

/* Record the side effects of an integer: save slot, role, clock. */
static inline __attribute__((always_inline)) void
dec_int_effects(struct ctf_dec *d, const struct tv_field_class *fc,
    const struct tv_int_class *ic, uint64_t v)
{
	if (fc->save_slot >= 0 && (uint32_t)fc->save_slot < d->nslots)
		d->slots[fc->save_slot] = v;
	if (fc->role != TV_ROLE_NONE && fc->role < TV_ROLE_COUNT) {
		d->roles[fc->role] = v;
		d->seen |= 1u << fc->role;
	}
	if (fc->role == TV_ROLE_TIMESTAMP ||
	    (ic->map_clock && fc->role == TV_ROLE_NONE)) {
		/* A timestamp of N < 64 bits holds the low bits of the clock. */
		uint32_t n = ic->size;

		if (n >= 64) {
			d->clock = v;
		} else {
			uint64_t mask = (UINT64_C(1) << n) - 1;
			uint64_t cur = d->clock;
			uint64_t nv = (cur & ~mask) | v;

			if (v < (cur & mask))
				nv += mask + 1;
			d->clock = nv;
		}
	}
}

/* Index of the first mapping of enum @fc whose ranges hold @v, or -1. */
int32_t
ctf_enum_find(const struct tv_field_class *fc, uint64_t v)
{
	uint32_t i;

	for (i = 0; i < fc->enumeration.nmaps; i++)
		if (tv_enum_mapping_holds(fc, &fc->enumeration.maps[i], v))
			return (int32_t)i;
	return -1;
}

/* Does the option name @opt match the tag label @label (CTF underscores)? */
static bool
opt_matches(const char *opt, const char *label)
{
	if (!opt || !label)
		return false;
	if (strcmp(opt, label) == 0)
		return true;
	if (opt[0] == '_' && strcmp(opt + 1, label) == 0)
		return true;
	if (label[0] == '_' && strcmp(opt, label + 1) == 0)
		return true;
	return false;
}

/* Build the mapping -> option table of a variant whose tag is known. */
static void
prepare_variant(struct tv_field_class *fc, struct tv_arena *a)
{
	const struct tv_field_class *tag = fc->variant.tag_fc;
	uint32_t i, j, n;
	int32_t *map;

	if (!tag || tag->kind != TV_FC_ENUM || fc->variant.opt_of_map)
		return;
	n = tag->enumeration.nmaps;
	map = tv_arena_alloc(a, sizeof(*map) * (n ? n : 1));
	for (i = 0; i < n; i++) {
		map[i] = -1;
		/* Exact names first, then the underscore variants. */
		for (j = 0; j < fc->variant.noptions; j++) {
			if (fc->variant.options[j].name &&
			    tag->enumeration.maps[i].label &&
			    strcmp(fc->variant.options[j].name,
			    tag->enumeration.maps[i].label) == 0) {
				map[i] = (int32_t)j;
				break;
			}
		}
		for (j = 0; map[i] < 0 && j < fc->variant.noptions; j++) {
			if (opt_matches(fc->variant.options[j].name,
			    tag->enumeration.maps[i].label))
				map[i] = (int32_t)j;
		}
	}
	fc->variant.opt_of_map = map;
}

/* Round @v up to the power of two @a. */
static inline uint64_t
align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Fill the skip cache and effective alignments, children first. */
static void
prepare(struct tv_field_class *fc, struct tv_arena *a, uint32_t depth)
{
	uint32_t i;

	if (!fc || depth > CTF_MAX_DEPTH)
		return;
	if (fc->align == 0 || (fc->align & (fc->align - 1)))
		fc->align = 1;
	fc->skip_fixed = false;
	fc->skip_bits = 0;
	fc->hidden = false;
	switch (fc->kind) {
	case TV_FC_INT:
	case TV_FC_ENUM: {
		const struct tv_int_class *ic = fc->kind == TV_FC_INT ?
		    &fc->integer : &fc->enumeration.integer;

		if (fc->save_slot < 0 && fc->role == TV_ROLE_NONE &&
		    !ic->map_clock && ic->size >= 1 && ic->size <= 64 &&
		    !ic->varlen) {
			fc->skip_fixed = true;
			fc->skip_bits = ic->size;
		}
		/* babeltrace2 keeps plain integers and lengths/tags only. */
		fc->hidden = (ic->map_clock || (fc->role != TV_ROLE_NONE &&
		    fc->role != TV_ROLE_CPU_ID)) && fc->save_slot < 0;
		break;
	}
	case TV_FC_FLOAT:
		if (fc->save_slot < 0 && fc->role == TV_ROLE_NONE &&
		    (fc->flt.exp_dig + fc->flt.mant_dig == 32 ||
		    fc->flt.exp_dig + fc->flt.mant_dig == 64)) {
			fc->skip_fixed = true;
			fc->skip_bits = fc->flt.exp_dig + fc->flt.mant_dig;
		}
		break;
	case TV_FC_STRING:
		if (fc->align < 8)
			fc->align = 8;
		break;
	case TV_FC_STRUCT: {
		bool fixed = fc->role == TV_ROLE_NONE;
		uint64_t bits = 0;

		for (i = 0; i < fc->structure.nmembers; i++) {
			struct tv_field_class *m = fc->structure.members[i].fc;

			if (!m) {
				fixed = false;
				continue;
			}
			prepare(m, a, depth + 1);
			if (m->align > fc->align)
				fc->align = m->align;
			if (!m->skip_fixed) {
				fixed = false;
				continue;
			}
			bits = align_up(bits, m->align) + m->skip_bits;
		}
		if (fixed) {
			fc->skip_fixed = true;
			fc->skip_bits = bits;
		}
		fc->hidden = fc->structure.nmembers > 0;
		for (i = 0; i < fc->structure.nmembers; i++)
			if (fc->structure.members[i].fc &&
			    !fc->structure.members[i].fc->hidden)
				fc->hidden = false;
		break;
	}
	case TV_FC_VARIANT:
		fc->hidden = true;
		for (i = 0; i < fc->variant.noptions; i++) {
			prepare(fc->variant.options[i].fc, a, depth + 1);
			if (fc->variant.options[i].fc &&
			    !fc->variant.options[i].fc->hidden)
				fc->hidden = false;
		}
		/* A shown variant shows whichever option its tag selects. */
		for (i = 0; !fc->hidden && i < fc->variant.noptions; i++)
			if (fc->variant.options[i].fc)
				fc->variant.options[i].fc->hidden = false;
		prepare_variant(fc, a);
		break;
	case TV_FC_ARRAY:
	case TV_FC_SEQUENCE: {
		struct tv_field_class *e = fc->array.elem;

		if (!e)
			break;
		prepare(e, a, depth + 1);
		if (e->align > fc->align)
			fc->align = e->align;
		fc->hidden = e->hidden || fc->role == TV_ROLE_UUID;
		if (fc->kind == TV_FC_ARRAY && e->skip_fixed &&
		    fc->role == TV_ROLE_NONE && fc->array.length > 0 &&
		    fc->array.length < (UINT64_C(1) << 32)) {
			uint64_t stride = align_up(e->skip_bits, e->align);

			fc->skip_fixed = true;
			fc->skip_bits = stride * (fc->array.length - 1) +
			    e->skip_bits;
		} else if (fc->kind == TV_FC_ARRAY && fc->array.length == 0 &&
		    fc->role == TV_ROLE_NONE) {
			fc->skip_fixed = true;
			fc->skip_bits = 0;
		}
		break;
	}
	}
}

/* Fill the skip cache of @fc and everything under it. */
void
ctf_fc_prepare(struct tv_field_class *fc, struct tv_arena *a)
{
	prepare(fc, a, 0);
}

/* Decode an integer or enum field. */
static inline __attribute__((always_inline)) enum tv_status
dec_int(struct ctf_dec *d, const struct tv_field_class *fc,
    const struct tv_int_class *ic, struct tv_value *out)
{
	enum tv_status st;
	uint64_t v = 0;

	if (__builtin_expect(ic->varlen, 0)) {
		st = ctf_dec_varint(d, ic, &v);	/* CTF 2, sign-extended */
	} else {
		st = dec_raw_int(d, ic, &v);
		if (st == TV_OK && ic->is_signed)
			v = ctf_sign_extend(v, ic->size);
	}
	if (st != TV_OK)
		return st;
	dec_int_effects(d, fc, ic, v);
	if (out)
		out->u = v;
	return TV_OK;
}

/*
 * One member: fixed-size skips and integers inline (the hot path of
 * event headers and payloads), everything else through ctf_dec_field().
 */
static inline __attribute__((always_inline)) enum tv_status
dec_member(struct ctf_dec *d, const struct tv_field_class *fc,
    struct tv_value *out)
{
	if (!out && fc->skip_fixed) {
		uint64_t p = align_up(d->pos, fc->align);

		if (p + fc->skip_bits <= d->end) {
			d->pos = p + fc->skip_bits;
			return TV_OK;
		}
	}
	if (fc->kind == TV_FC_INT || fc->kind == TV_FC_ENUM) {
		const struct tv_int_class *ic = fc->kind == TV_FC_INT ?
		    &fc->integer : &fc->enumeration.integer;
		uint64_t p = align_up(d->pos, fc->align);
		enum tv_status st;

		if (p > d->end)
			return dec_past_end(d, p - d->pos);
		d->pos = p;
		st = dec_int(d, fc, ic, out);
		if (out) {
			out->fc = fc;
			out->bit_offset = p;
			out->bit_size = d->pos - p;	/* varlen: as read */
		}
		return st;
	}
	return ctf_dec_field(d, fc, out);
}

/* Decode a 32- or 64-bit IEEE 754 float. */
static enum tv_status
dec_float(struct ctf_dec *d, const struct tv_field_class *fc,
    struct tv_value *out)
{
	struct tv_int_class ic = {
		.size = fc->flt.exp_dig + fc->flt.mant_dig,
		.byte_order = fc->flt.byte_order,
	};
	enum tv_status st;
	uint64_t v;

	if (ic.size != 32 && ic.size != 64)
		return tv_error_at(d->err, TV_UNSUPPORTED, d->path,
		    d->file_off + d->pos / 8,
		    _("floating point field of %u bits is not supported"),
		    ic.size);
	st = dec_raw_int(d, &ic, &v);
	if (st != TV_OK || !out)
		return st;
	if (ic.size == 32) {
		uint32_t x = (uint32_t)v;
		float f;

		memcpy(&f, &x, 4);
		out->f = f;
	} else {
		memcpy(&out->f, &v, 8);
	}
	return TV_OK;
}

/* Decode a NUL-terminated string, bounded by the content size. */
static enum tv_status
dec_string(struct ctf_dec *d, struct tv_value *out)
{
	uint64_t start = d->pos >> 3, lim = d->end >> 3;
	const uint8_t *p, *nul;

	if (d->pos & 7 || start >= lim)
		return dec_past_end(d, 8);
	p = d->buf + start;
	nul = memchr(p, 0, lim - start);
	if (!nul)
		return tv_error_at(d->err, TV_CORRUPT, d->path,
		    d->file_off + start,
		    _("string is not terminated before the end of the packet content"));
	if (out) {
		out->str.ptr = (const char *)p;
		out->str.len = (size_t)(nul - p);
	}
	d->pos = (start + (uint64_t)(nul - p) + 1) * 8;
	return TV_OK;
}

/* Decode the members of a struct in order. */
static enum tv_status
dec_struct(struct ctf_dec *d, const struct tv_field_class *fc,
    struct tv_value *out)
{
	uint32_t i, n = fc->structure.nmembers;
	enum tv_status st;

	st = dec_steps(d, n);
	if (st == TV_OK && out)
		st = dec_values(d, n);
	if (st != TV_OK)
		return st;
	if (!out) {
		for (i = 0; i < n; i++) {
			if (!fc->structure.members[i].fc)
				continue;
			st = dec_member(d, fc->structure.members[i].fc, NULL);
			if (st != TV_OK)
				return st;
		}
		return TV_OK;
	}
	out->kids.count = n;
	out->kids.items = n ? tv_arena_zalloc(d->arena,
	    sizeof(struct tv_value) * n) : NULL;
	for (i = 0; i < n; i++) {
		struct tv_value *k = &out->kids.items[i];

		k->name = fc->structure.members[i].name;
		st = fc->structure.members[i].fc ?
		    dec_member(d, fc->structure.members[i].fc, k) : TV_OK;
		if (st != TV_OK) {
			out->kids.count = i;
			return st;
		}
	}
	return TV_OK;
}

/* Decode a fixed array or a sequence whose length is in a save slot. */
static enum tv_status
dec_array(struct ctf_dec *d, const struct tv_field_class *fc,
    struct tv_value *out)
{
	const struct tv_field_class *e = fc->array.elem;
	uint64_t len, i, left, min_bits, need;
	enum tv_status st;

	if (!e)
		return tv_error_at(d->err, TV_CORRUPT, d->path,
		    d->file_off + d->pos / 8, _("array without element type"));
	if (fc->kind == TV_FC_ARRAY) {
		len = fc->array.length;
	} else {
		if (fc->array.length_slot < 0 ||
		    (uint32_t)fc->array.length_slot >= d->nslots)
			return tv_error_at(d->err, TV_CORRUPT, d->path,
			    d->file_off + d->pos / 8,
			    _("sequence length is not available"));
		len = d->slots[fc->array.length_slot];
	}
	if (fc->role == TV_ROLE_UUID) {
		d->uuid_pos = d->pos;
		d->seen |= 1u << TV_ROLE_UUID;
	}
	/* Hostile lengths: each element takes at least min_bits. */
	left = d->end - d->pos;
	min_bits = e->skip_fixed ? e->skip_bits :
	    (e->kind == TV_FC_STRING ? 8 : 0);
	if (e->kind == TV_FC_INT || e->kind == TV_FC_ENUM)
		min_bits = e->kind == TV_FC_INT ? e->integer.size :
		    e->enumeration.integer.size;
	min_bits = ctf_min_bits(e, min_bits);	/* CTF 2 classes */
	/* len > left / min_bits + 1, without a division per array */
	if (min_bits ? len > 1 && (__builtin_mul_overflow(len - 1, min_bits,
	    &need) || need > left) : len > CTF_MAX_ZERO_ELEMS)
		return tv_error_at(d->err, TV_CORRUPT, d->path,
		    d->file_off + d->pos / 8,
		    _("array length %llu does not fit in the packet"),
		    (unsigned long long)len);
	/* Elements of min_bits > 0 pay with their bits; the others here. */
	st = min_bits ? TV_OK : dec_steps(d, len);
	if (st != TV_OK)
		return st;
	if (!out) {
		if (e->skip_fixed && len) {
			uint64_t a = e->align;
			uint64_t p = align_up(d->pos, a);
			uint64_t total = align_up(e->skip_bits, a) * (len - 1) +
			    e->skip_bits;

			if (p + total > d->end)
				return dec_past_end(d, total);
			d->pos = p + total;
			return TV_OK;
		}
		for (i = 0; i < len; i++) {
			st = dec_member(d, e, NULL);
			if (st != TV_OK)
				return st;
		}
		return TV_OK;
	}
	/* Values cost 48 bytes each: bound what one event may allocate. */
	st = dec_values(d, len);
	if (st != TV_OK)
		return st;
	out->kids.count = (uint32_t)len;
	out->kids.items = len ? tv_arena_alloc(d->arena,
	    sizeof(struct tv_value) * len) : NULL;
	if (e->kind == TV_FC_INT && e->skip_fixed && e->integer.size == 8 &&
	    e->align <= 8 && (d->pos & 7) == 0) {
		/*
		 * Bytes (text, mostly): no per-element call, and what
		 * every element shares kept in registers (the stores to
		 * the elements made the compiler load it again for each).
		 */
		const uint8_t *p = d->buf + d->pos / 8;
		struct tv_value *k = out->kids.items;
		uint64_t at = d->pos;

		if (d->pos + len * 8 > d->end)
			return dec_past_end(d, len * 8);
		if (e->integer.is_signed) {
			for (i = 0; i < len; i++, k++, at += 8) {
				k->fc = e;
				k->name = NULL;
				k->bit_offset = at;
				k->bit_size = 8;
				k->u = (uint64_t)(int64_t)(int8_t)p[i];
			}
		} else {
			for (i = 0; i < len; i++, k++, at += 8) {
				k->fc = e;
				k->name = NULL;
				k->bit_offset = at;
				k->bit_size = 8;
				k->u = p[i];
			}
		}
		d->pos += len * 8;
		return TV_OK;
	}
	if (len)
		memset(out->kids.items, 0, sizeof(struct tv_value) * len);
	for (i = 0; i < len; i++) {
		st = dec_member(d, e, &out->kids.items[i]);
		if (st != TV_OK) {
			out->kids.count = (uint32_t)i;
			return st;
		}
	}
	return TV_OK;
}

/* Decode the option of a variant that its tag selects. */
static enum tv_status
dec_variant(struct ctf_dec *d, const struct tv_field_class *fc,
    struct tv_value *out)
{
	const struct tv_field_class *tag = fc->variant.tag_fc;
	int32_t slot = fc->variant.tag_slot, mi = -1, oi = -1;
	enum tv_status st;
	uint64_t v;
	uint32_t j;

	if (slot < 0 || (uint32_t)slot >= d->nslots || !tag)
		return tv_error_at(d->err, TV_CORRUPT, d->path,
		    d->file_off + d->pos / 8,
		    _("variant tag is not available"));
	v = d->slots[slot];
	if (tag->kind == TV_FC_ENUM) {
		mi = ctf_enum_find(tag, v);
		if (mi >= 0) {
			if (fc->variant.opt_of_map) {
				oi = fc->variant.opt_of_map[mi];
			} else {
				for (j = 0; j < fc->variant.noptions; j++)
					if (opt_matches(fc->variant.options[j].name,
					    tag->enumeration.maps[mi].label)) {
						oi = (int32_t)j;
						break;
					}
			}
		}
	}
	if (oi < 0 || !fc->variant.options[oi].fc)
		return tv_error_at(d->err, TV_CORRUPT, d->path,
		    d->file_off + d->pos / 8,
		    _("variant tag value %lld selects no option"),
		    (long long)v);
	st = dec_steps(d, 1);
	if (st == TV_OK && out)
		st = dec_values(d, 1);
	if (st != TV_OK)
		return st;
	if (!out)
		return dec_member(d, fc->variant.options[oi].fc, NULL);
	out->kids.count = 1;
	out->kids.items = tv_arena_zalloc(d->arena, sizeof(struct tv_value));
	out->kids.items[0].name = fc->variant.options[oi].name;
	return ctf_dec_field(d, fc->variant.options[oi].fc, out->kids.items);
}

/* One level deeper into a compound field, within CTF_MAX_DEPTH. */
static enum tv_status
depth_enter(struct ctf_dec *d)
{
	if (++d->depth <= CTF_MAX_DEPTH)
		return TV_OK;
	d->depth--;
	return tv_error_at(d->err, TV_CORRUPT, d->path,
	    d->file_off + d->pos / 8, _("fields nested too deeply"));
}

/*
 * Into struct @fc member by member, as ctf_dec_field goes into it: to its
 * alignment, one level deeper (the caller leaves with d->depth--).
 */
static enum tv_status
struct_enter(struct ctf_dec *d, const struct tv_field_class *fc)
{
	if (fc->align > 1) {
		uint64_t p = align_up(d->pos, fc->align);

		if (p > d->end)
			return dec_past_end(d, p - d->pos);
		d->pos = p;
	}
	return depth_enter(d);
}

/* Decode one field of class @fc at the current position. */
enum tv_status
ctf_dec_field(struct ctf_dec *d, const struct tv_field_class *fc,
    struct tv_value *out)
{
	enum tv_status st;
	uint64_t start;

	if (!fc)
		return TV_OK;
	if (fc->align > 1) {
		uint64_t p = align_up(d->pos, fc->align);

		if (p > d->end)
			return dec_past_end(d, p - d->pos);
		d->pos = p;
	}
	start = d->pos;
	if (out) {
		out->fc = fc;
		out->bit_offset = start;
	}
	switch (fc->kind) {
	case TV_FC_INT:
		st = dec_int(d, fc, &fc->integer, out);
		break;
	case TV_FC_ENUM:
		st = dec_int(d, fc, &fc->enumeration.integer, out);
		break;
	case TV_FC_FLOAT:
		st = dec_float(d, fc, out);
		break;
	case TV_FC_STRING:
		if (fc->string.len_kind != TV_STR_NUL ||
		    fc->string.encoding == TV_ENC_UTF16 ||
		    fc->string.encoding == TV_ENC_UTF32)
			st = ctf_dec_xstring(d, fc, out);	/* CTF 2 */
		else
			st = dec_string(d, out);
		break;
	default:
		st = depth_enter(d);
		if (st != TV_OK)
			return st;
		if (fc->kind == TV_FC_STRUCT)
			st = dec_struct(d, fc, out);
		else if (fc->kind == TV_FC_VARIANT)
			st = dec_variant(d, fc, out);
		else
			st = dec_array(d, fc, out);
		d->depth--;
		break;
	}
	if (out)
		out->bit_size = d->pos - start;
	return st;
}

/* Is @fc an array or sequence of 8-bit integers, whose bytes are its
   elements? */
static bool
byte_array(const struct tv_field_class *fc)
{
	const struct tv_field_class *e = fc->array.elem;

	return (fc->kind == TV_FC_ARRAY || fc->kind == TV_FC_SEQUENCE) &&
	    e != NULL && e->kind == TV_FC_INT && e->skip_fixed &&
	    e->integer.size == 8 && e->align <= 8 && !e->integer.varlen &&
	    fc->role == TV_ROLE_NONE;
}

/*
 * A byte-aligned array or sequence of 8-bit text characters that fits in
 * the content, taken as its bytes (@k: fc, offset, size; the elements
 * are in kids.count): what dec_array's byte path would decode, without
 * the element values.  False (nothing read) for anything else.
 */
static bool
text_bytes(struct ctf_dec *d, const struct tv_field_class *fc,
    struct tv_value *k)
{
	const struct tv_field_class *e = fc->array.elem;
	uint64_t len, p;

	if (!byte_array(fc) || e->integer.encoding == TV_ENC_NONE ||
	    d->depth >= CTF_MAX_DEPTH)
		return false;
	if (fc->kind == TV_FC_ARRAY) {
		len = fc->array.length;
	} else {
		if (fc->array.length_slot < 0 ||
		    (uint32_t)fc->array.length_slot >= d->nslots)
			return false;
		len = d->slots[fc->array.length_slot];
	}
	p = align_up(d->pos, fc->align > 1 ? fc->align : 1);
	if ((p & 7) || len > UINT32_MAX || p > d->end ||
	    len > (d->end - p) / 8)
		return false;
	k->fc = fc;
	k->bit_offset = p;
	k->bit_size = len * 8;
	k->kids.count = (uint32_t)len;
	d->pos = p + len * 8;
	return true;
}

/* See ctf-decode.h. */
bool
ctf_flat_readable(const struct tv_field_class *fc)
{
	switch (fc->kind) {
	case TV_FC_INT:
	case TV_FC_ENUM:
		return true;
	case TV_FC_STRING:
		/* CTF 2's other strings are converted, in an arena */
		return fc->string.len_kind == TV_STR_NUL &&
		    fc->string.encoding != TV_ENC_UTF16 &&
		    fc->string.encoding != TV_ENC_UTF32;
	case TV_FC_ARRAY:
		/* tv_value_str() reads any such array's bytes as text */
		return byte_array(fc) && fc->array.length > 0 &&
		    fc->array.length <= UINT32_MAX;
	default:
		return false;
	}
}

/* See ctf-decode.h. */
bool
ctf_dec_flat(struct ctf_dec *d, const struct tv_field_class *fc,
    struct tv_flat_value *out)
{
	struct tv_value v;
	uint64_t p = align_up(d->pos, fc->align > 1 ? fc->align : 1);

	if (p > d->end)
		return false;
	d->pos = p;
	switch (fc->kind) {
	case TV_FC_INT:
	case TV_FC_ENUM:
		if (dec_int(d, fc, fc->kind == TV_FC_INT ? &fc->integer :
		    &fc->enumeration.integer, &v) != TV_OK)
			return false;
		out->i = (int64_t)v.u;	/* sign-extended when signed */
		out->text = NULL;
		out->len = 0;
		return true;
	case TV_FC_STRING:
		if (dec_string(d, &v) != TV_OK)
			return false;
		out->text = v.str.ptr;
		out->len = v.str.len;
		return true;
	default:
		/* ctf_flat_readable() said: a byte array of fixed length */
		if ((p & 7) || fc->array.length > (d->end - p) / 8)
			return false;
		out->text = (const char *)d->buf + p / 8;
		out->len = (size_t)fc->array.length;
		d->pos = p + fc->array.length * 8;
		return true;
	}
}

/* See ctf-decode.h. */
enum tv_status
ctf_dec_struct_each(struct ctf_dec *d, const struct tv_field_class *fc,
    unsigned how, ctf_member_fn fn, void *ctx)
{
	uint32_t i, n = fc->structure.nmembers;
	enum tv_status st;

	/* ctf_dec_field's steps for a struct, in its order */
	st = struct_enter(d, fc);
	if (st != TV_OK)
		return st;
	if (how & CTF_EACH_LIMITS) {
		st = dec_steps(d, n);
		if (st == TV_OK)
			st = dec_values(d, n);
	}
	for (i = 0; i < n && st == TV_OK; i++) {
		const struct tv_field_class *m = fc->structure.members[i].fc;
		struct tv_value k;

		if (m != NULL && !(how & CTF_EACH_NUMBERS) &&
		    (m->kind == TV_FC_INT || m->kind == TV_FC_ENUM ||
		    m->kind == TV_FC_FLOAT)) {
			/* read past: the same errors, the same slots */
			st = dec_member(d, m, NULL);
			continue;
		}
		memset(&k, 0, sizeof(k));
		k.name = fc->structure.members[i].name;
		if (m != NULL && text_bytes(d, m, &k)) {
			/* what dec_array charges for the elements */
			if (how & CTF_EACH_LIMITS)
				st = dec_values(d, k.kids.count);
			if (st == TV_OK)
				fn(ctx, &k, d->buf + k.bit_offset / 8);
			continue;
		}
		st = m != NULL ? dec_member(d, m, &k) : TV_OK;
		if (st == TV_OK)
			fn(ctx, &k, NULL);
	}
	d->depth--;
	return st;
}

/* Is @fc a plain integer or enum (no children)? */
static bool
is_int(const struct tv_field_class *fc)
{
	return fc && ((fc->kind == TV_FC_INT && !fc->integer.varlen) ||
	    (fc->kind == TV_FC_ENUM && !fc->enumeration.integer.varlen));
}

/* The flat read of integer class @fc. */
static void
hop_of(struct ctf_hop *op, const struct tv_field_class *fc)
{
	const struct tv_int_class *ic = fc->kind == TV_FC_INT ?
	    &fc->integer : &fc->enumeration.integer;

	op->align = fc->align;
	op->size = ic->size;
	op->slot = fc->save_slot;
	op->role = fc->role < TV_ROLE_COUNT ? fc->role : TV_ROLE_NONE;
	op->be = ic->byte_order == TV_BO_BE;
	op->sgn = ic->is_signed;
	op->clock = fc->role == TV_ROLE_TIMESTAMP ||
	    (ic->map_clock && fc->role == TV_ROLE_NONE);
}

/*
 * The ranges of wide tag @tag into @hp, in the order ctf_enum_find
 * tries them; false when there are too many (or it is a bit map).
 */
static bool
tag_ranges(struct ctf_hprog *hp, const struct tv_field_class *tag)
{
	const struct tv_field_class *var = hp->var;
	uint32_t i, j;

	if (tag->enumeration.bit_flags)
		return false;
	hp->rng_signed = tag->enumeration.integer.is_signed;
	for (i = 0; i < tag->enumeration.nmaps; i++) {
		const struct tv_enum_mapping *m = &tag->enumeration.maps[i];

		for (j = 0; j < m->nranges; j++) {
			if (hp->nrng == TV_ARRAY_SIZE(hp->rng))
				return false;
			hp->rng[hp->nrng].lo = m->ranges[j].lo;
			hp->rng[hp->nrng].hi = m->ranges[j].hi;
			hp->rng[hp->nrng].opt = var->variant.opt_of_map[i];
			hp->nrng++;
		}
	}
	return hp->nrng > 0;
}

/* The option wide tag value @v selects through @hp's ranges, or -1. */
static inline int32_t
range_opt(const struct ctf_hprog *hp, uint64_t v)
{
	uint32_t i;

	for (i = 0; i < hp->nrng; i++) {
		const struct ctf_hprog_range *r = &hp->rng[i];

		if (hp->rng_signed ? (int64_t)v >= (int64_t)r->lo &&
		    (int64_t)v <= (int64_t)r->hi : v >= r->lo && v <= r->hi)
			return r->opt;
	}
	return -1;
}

/* See ctf-decode.h. */
int32_t
ctf_hprog_opt_of(const struct ctf_hprog *hp, uint64_t v)
{
	uint64_t mask;

	if (hp->nrng > 0)
		return range_opt(hp, v);
	mask = hp->ntag - 1;
	return (v & ~mask) == 0 || (v | mask) == UINT64_MAX ?
	    hp->opt_by_tag[v & mask] : -1;
}

/*
 * Whether @hp has the shape of LTTng's compact and large headers, whose
 * usual record is one tag (an unsigned little-endian integer, the first
 * read) and, for tags lo..hi, one option of one unsigned little-endian
 * timestamp right after it, 64 bits at most in all (the tag is no
 * clock, the timestamp saved in no slot); if so, fill the
 * word fields of @hp, which ctf_hprog_run then reads with one load.
 * The header's start must be byte-aligned and both reads must land
 * where the general path puts them: at the start and right after the
 * tag, without padding.
 */
static void
word_shape(struct ctf_hprog *hp)
{
	const struct ctf_hop *tag = &hp->pre[0], *ts;
	const struct ctf_hprog_opt *po;
	uint64_t lo = 0, hi = 0, v;
	int32_t k = -1;

	if (hp->npre != 1 || !hp->var || hp->align % 8 != 0 || tag->be ||
	    tag->sgn || tag->clock || tag->align > hp->align ||
	    tag->size == 0 || tag->size > 32 || tag->slot < 0 ||
	    tag->slot != hp->var->variant.tag_slot)
		return;
	if (hp->nrng > 0) {		/* the first range, tried first */
		k = hp->rng[0].opt;
		lo = hp->rng[0].lo;
		hi = hp->rng[0].hi;
		if (hp->rng_signed && ((int64_t)lo < 0 ||
		    (int64_t)hi < (int64_t)lo))
			return;
	} else {			/* the first run of one option */
		for (v = 0; v < hp->ntag && hp->opt_by_tag[v] < 0; v++)
			;
		if (v == hp->ntag)
			return;
		k = hp->opt_by_tag[v];
		lo = v;
		while (v + 1 < hp->ntag && hp->opt_by_tag[v + 1] == k)
			v++;
		hi = v;
	}
	if (k < 0 || (uint32_t)k >= hp->nopt)
		return;
	po = &hp->opt[k];
	ts = &po->ops[0];
	if (po->n != 1 || ts->be || ts->sgn || ts->slot >= 0 ||
	    tag->size + ts->size > 64 ||
	    po->align > hp->align || ts->align > hp->align ||
	    tag->size % po->align != 0 || tag->size % ts->align != 0 ||
	    hi >> tag->size != 0)
		return;
	hp->word = true;
	hp->word_opt = (uint32_t)k;
	hp->word_lo = lo;
	hp->word_hi = hi;
	hp->tag_mask = (UINT64_C(1) << tag->size) - 1;
	hp->ts_mask = ts->size >= 64 ? UINT64_MAX :
	    (UINT64_C(1) << ts->size) - 1;
}

/* The flat decoder of event header @fc, or NULL if it has another shape. */
struct ctf_hprog *
ctf_hprog_build(const struct tv_field_class *fc, struct tv_arena *a)
{
	struct ctf_hprog *hp;
	const struct tv_field_class *tag;
	uint32_t i, j, n;
	uint64_t v;

	if (!fc || fc->kind != TV_FC_STRUCT || fc->structure.nmembers == 0)
		return NULL;
	hp = tv_arena_zalloc(a, sizeof(*hp));
	hp->align = fc->align;
	n = fc->structure.nmembers;
	for (i = 0; i < n; i++) {
		const struct tv_field_class *m = fc->structure.members[i].fc;

		if (is_int(m) && hp->npre < CTF_HPROG_MAX) {
			hop_of(&hp->pre[hp->npre], m);
			if (hp->pre[hp->npre].size < 1 ||
			    hp->pre[hp->npre].size > 64)
				return NULL;
			hp->npre++;
			continue;
		}
		if (i == n - 1 && m && m->kind == TV_FC_VARIANT) {
			hp->var = m;
			break;
		}
		return NULL;
	}
	if (!hp->var)
		return hp;
	tag = hp->var->variant.tag_fc;
	if (!tag || tag->kind != TV_FC_ENUM || !hp->var->variant.opt_of_map ||
	    hp->var->variant.noptions > TV_ARRAY_SIZE(hp->opt) ||
	    (tag->enumeration.integer.size > 12 && !tag_ranges(hp, tag)))
		return NULL;
	hp->nopt = hp->var->variant.noptions;
	for (i = 0; i < hp->nopt; i++) {
		const struct tv_field_class *o = hp->var->variant.options[i].fc;
		struct ctf_hprog_opt *po = &hp->opt[i];

		if (!o)
			return NULL;
		po->align = o->align;
		if (is_int(o)) {
			hop_of(&po->ops[po->n], o);
			if (po->ops[po->n].size < 1 || po->ops[po->n].size > 64)
				return NULL;
			po->n++;
			continue;
		}
		if (o->kind != TV_FC_STRUCT ||
		    o->structure.nmembers > CTF_HPROG_MAX)
			return NULL;
		for (j = 0; j < o->structure.nmembers; j++) {
			if (!is_int(o->structure.members[j].fc))
				return NULL;
			hop_of(&po->ops[po->n], o->structure.members[j].fc);
			if (po->ops[po->n].size < 1 || po->ops[po->n].size > 64)
				return NULL;
			po->n++;
		}
	}
	if (hp->nrng > 0) {
		word_shape(hp);
		return hp;
	}
	/* Every tag value of the (small) enum: which option. */
	hp->ntag = 1u << tag->enumeration.integer.size;
	hp->opt_by_tag = tv_arena_alloc(a, hp->ntag);
	for (v = 0; v < hp->ntag; v++) {
		uint64_t tv = v;
		int32_t mi;

		if (tag->enumeration.integer.is_signed)
			tv = ctf_sign_extend(v, tag->enumeration.integer.size);
		mi = ctf_enum_find(tag, tv);
		hp->opt_by_tag[v] = (int8_t)(mi >= 0 ?
		    hp->var->variant.opt_of_map[mi] : -1);
	}
	word_shape(hp);
	return hp;
}

/* Run the integer reads @ops[0..n) with their side effects. */
static inline __attribute__((always_inline)) enum tv_status
run_hops(struct ctf_dec *d, const struct ctf_hop *ops, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		const struct ctf_hop *op = &ops[i];
		uint64_t p = align_up(d->pos, op->align), v;

		if (p + op->size > d->end) {
			d->pos = TV_MIN(p, d->end);
			return dec_past_end(d, op->size);
		}
		v = op->be ? read_be(d->buf, d->buf_bytes, p, op->size) :
		    read_le(d->buf, d->buf_bytes, p, op->size);
		d->pos = p + op->size;
		if (op->sgn)
			v = ctf_sign_extend(v, op->size);
		ctf_hop_effects(d, op, v);
	}
	return TV_OK;
}

/* See ctf-decode.h: the header ctf_hprog_run()'s one load did not read. */
enum tv_status
ctf_hprog_run_slow(struct ctf_dec *d, const struct ctf_hprog *hp)
{
	const struct ctf_hprog_opt *po;
	enum tv_status st;
	uint64_t p, v;
	int32_t k;

	p = align_up(d->pos, hp->align);
	if (p > d->end)
		return dec_past_end(d, p - d->pos);
	d->pos = p;
	st = run_hops(d, hp->pre, hp->npre);
	if (st != TV_OK || !hp->var)
		return st;
	if (hp->var->variant.tag_slot < 0 ||
	    (uint32_t)hp->var->variant.tag_slot >= d->nslots)
		return ctf_dec_field(d, hp->var, NULL);	/* its error */
	v = d->slots[hp->var->variant.tag_slot];
	k = ctf_hprog_opt_of(hp, v);
	if (k < 0)
		return ctf_dec_field(d, hp->var, NULL);	/* its error */
	po = &hp->opt[k];
	p = align_up(d->pos, po->align);
	if (p > d->end)
		return dec_past_end(d, p - d->pos);
	d->pos = p;
	return run_hops(d, po->ops, po->n);
}

/* Does @pred hold for @fc or a field class inside it? */
static bool
fc_any(const struct tv_field_class *fc,
    bool (*pred)(const struct tv_field_class *, const void *),
    const void *ctx, uint32_t depth)
{
	uint32_t i;

	if (!fc)
		return false;
	if (depth > CTF_MAX_DEPTH || pred(fc, ctx))
		return true;
	switch (fc->kind) {
	case TV_FC_STRUCT:
		for (i = 0; i < fc->structure.nmembers; i++)
			if (fc_any(fc->structure.members[i].fc, pred, ctx,
			    depth + 1))
				return true;
		return false;
	case TV_FC_VARIANT:
		for (i = 0; i < fc->variant.noptions; i++)
			if (fc_any(fc->variant.options[i].fc, pred, ctx,
			    depth + 1))
				return true;
		return false;
	case TV_FC_ARRAY:
	case TV_FC_SEQUENCE:
		return fc_any(fc->array.elem, pred, ctx, depth + 1);
	default:
		return false;
	}
}

/* Does @fc itself move the stream clock (a timestamp, a mapped integer)? */
static bool
clock_mover(const struct tv_field_class *fc, const void *ctx)
{
	(void)ctx;
	return (fc->kind == TV_FC_INT && (fc->role == TV_ROLE_TIMESTAMP ||
	    fc->integer.map_clock)) || (fc->kind == TV_FC_ENUM &&
	    (fc->role == TV_ROLE_TIMESTAMP ||
	    fc->enumeration.integer.map_clock));
}

/* Does a field of @fc, or one inside it, move the stream clock? */
static bool
moves_clock(const struct tv_field_class *fc)
{
	return fc_any(fc, clock_mover, NULL, 0);
}

/* Does @fc save its value in a save slot that @ctx reads? */
static bool
saves_what_is_read(const struct tv_field_class *fc, const void *ctx)
{
	const struct tv_field_class *reader = ctx;

	return fc->save_slot >= 0 && ctf_fc_reads_slot(reader, fc->save_slot);
}

/*
 * Does @fc read save slot *@ctx: a sequence's length, a variant's tag,
 * a CTF 2 dynamic-length string's length?  (Keep in step with every
 * d->slots[] read of the decoders.)
 */
static bool
reads_slot(const struct tv_field_class *fc, const void *ctx)
{
	int32_t slot = *(const int32_t *)ctx;

	return (fc->kind == TV_FC_SEQUENCE &&
	    fc->array.length_slot == slot) ||
	    (fc->kind == TV_FC_VARIANT && fc->variant.tag_slot == slot) ||
	    (fc->kind == TV_FC_STRING &&
	    fc->string.len_kind == TV_STR_DYNAMIC &&
	    fc->string.length_slot == slot);
}

/* See ctf-decode.h. */
bool
ctf_fc_reads_slot(const struct tv_field_class *fc, int32_t slot)
{
	return fc_any(fc, reads_slot, &slot, 0);
}

/* Does @fc itself set the stream clock, as dec_int_effects() does? */
static bool
clock_setter(const struct tv_field_class *fc, const void *ctx)
{
	const struct tv_int_class *ic = fc->kind == TV_FC_INT ?
	    &fc->integer : fc->kind == TV_FC_ENUM ?
	    &fc->enumeration.integer : NULL;

	(void)ctx;
	return ic != NULL && (fc->role == TV_ROLE_TIMESTAMP ||
	    (ic->map_clock != NULL && fc->role == TV_ROLE_NONE));
}

/* See ctf-decode.h. */
bool
ctf_packet_skippable(const struct tv_field_class *const *packet,
    uint32_t npacket, const struct tv_field_class *const *rest,
    uint32_t nrest)
{
	uint32_t i, j;

	for (i = 0; i < npacket; i++) {
		if (fc_any(packet[i], clock_setter, NULL, 0))
			return false;
		for (j = 0; j < nrest; j++)
			if (rest[j] != NULL && fc_any(packet[i],
			    saves_what_is_read, rest[j], 0))
				return false;
	}
	return true;
}

/* See ctf-decode.h. */
bool
ctf_head_skippable(const struct tv_field_class *header,
    const struct tv_field_class *const *rest, uint32_t nrest)
{
	uint32_t i;

	for (i = 0; i < nrest; i++)
		if (moves_clock(rest[i]) ||
		    fc_any(header, saves_what_is_read, rest[i], 0))
			return false;
	return true;
}

/*
 * Is @m a sequence the flat skipper steps over in one go?  Its elements
 * take a fixed, non-zero size (so each takes at least those bits, as
 * dec_array bounds the length) and have no side effect.
 */
static bool
flat_sequence(const struct tv_field_class *m)
{
	const struct tv_field_class *e = m->array.elem;

	return m->kind == TV_FC_SEQUENCE && m->role == TV_ROLE_NONE && e &&
	    e->skip_fixed && e->skip_bits > 0 && m->array.length_slot >= 0;
}

/* See ctf-decode.h. */
struct ctf_sprog *
ctf_sprog_build(const struct tv_field_class *fc, struct tv_arena *a)
{
	struct ctf_sprog *sp;
	struct ctf_sop *op = NULL;
	uint32_t i, n;

	if (!fc || fc->kind != TV_FC_STRUCT || fc->skip_fixed ||
	    fc->role != TV_ROLE_NONE || moves_clock(fc))
		return NULL;
	n = fc->structure.nmembers;
	sp = tv_arena_zalloc(a, sizeof(*sp) + sizeof(sp->ops[0]) * n);
	sp->align = fc->align;
	sp->nmembers = n;
	for (i = 0; i < n; i++) {
		const struct tv_field_member *mb = &fc->structure.members[i];
		const struct tv_field_class *m = mb->fc;

		/* a member without a class reads nothing: any step has it */
		if (op && (!m || (m->skip_fixed && op->kind == CTF_SOP_FIXED &&
		    m->align <= op->align))) {
			/* its start is aligned to op->align, so every
			 * member's offset inside the step is fixed */
			if (m)
				op->bits = align_up(op->bits, m->align) +
				    m->skip_bits;
			op->nmembers++;
			continue;
		}
		op = &sp->ops[sp->n++];
		op->m = mb;
		op->nmembers = 1;
		op->align = m ? m->align : 1;
		if (!m || m->skip_fixed) {
			op->kind = CTF_SOP_FIXED;
			op->bits = m ? m->skip_bits : 0;
		} else if (m->kind == TV_FC_STRING &&
		    m->string.len_kind == TV_STR_NUL &&
		    m->string.encoding != TV_ENC_UTF16 &&
		    m->string.encoding != TV_ENC_UTF32) {
			op->kind = CTF_SOP_STRING;
		} else if (flat_sequence(m)) {
			op->kind = CTF_SOP_SEQ;
			op->bits = align_up(m->array.elem->skip_bits,
			    m->array.elem->align);
		} else {
			op->kind = CTF_SOP_MEMBER;
		}
	}
	return sp;
}

/* A sequence of fixed-size elements, as dec_array skips it; false if not. */
static inline bool
sop_sequence(struct ctf_dec *d, const struct ctf_sop *op)
{
	const struct tv_field_class *m = op->m->fc, *e = m->array.elem;
	uint64_t p = align_up(d->pos, op->align), len, q, total;

	if (p > d->end || (uint32_t)m->array.length_slot >= d->nslots)
		return false;
	len = d->slots[m->array.length_slot];
	if (len > (d->end - p) / e->skip_bits + 1)
		return false;
	if (len == 0) {
		d->pos = p;
		return true;
	}
	q = align_up(p, e->align);
	if (__builtin_mul_overflow(op->bits, len - 1, &total) ||
	    __builtin_add_overflow(total, e->skip_bits, &total) ||
	    q + total > d->end || q + total < q)
		return false;
	d->pos = q + total;
	return true;
}

/* See ctf-decode.h. */
enum tv_status
ctf_sprog_skip(struct ctf_dec *d, const struct ctf_sprog *sp)
{
	uint64_t p = align_up(d->pos, sp->align);
	enum tv_status st;
	uint32_t i, k;

	if (p > d->end)
		return dec_past_end(d, p - d->pos);
	d->pos = p;
	st = dec_steps(d, sp->nmembers);
	if (st != TV_OK)
		return st;
	d->depth++;
	for (i = 0; i < sp->n && st == TV_OK; i++) {
		const struct ctf_sop *op = &sp->ops[i];
		uint64_t from = d->pos;

		switch (op->kind) {
		case CTF_SOP_FIXED:
			p = align_up(from, op->align);
			if (p + op->bits <= d->end) {
				d->pos = p + op->bits;
				continue;
			}
			break;
		case CTF_SOP_STRING: {
			uint64_t start, lim = d->end >> 3;
			const uint8_t *nul;

			start = align_up(from, op->align) >> 3;
			if (start < lim && (nul = memchr(d->buf + start, 0,
			    lim - start)) != NULL) {
				d->pos = (uint64_t)(nul - d->buf + 1) * 8;
				continue;
			}
			break;
		}
		case CTF_SOP_SEQ:
			if (sop_sequence(d, op))
				continue;
			break;
		default:
			st = dec_member(d, op->m->fc, NULL);
			continue;
		}
		/*
		 * The quick step does not fit: the generic decoder, member
		 * by member from where the step began, gives the error the
		 * generic walk gives (the step had no side effect).
		 */
		d->pos = from;
		for (k = 0; k < op->nmembers && st == TV_OK; k++)
			if (op->m[k].fc)
				st = dec_member(d, op->m[k].fc, NULL);
	}
	d->depth--;
	return st;
}
