/*
 * Decoding the CTF 2 field classes that CTF 1.8 lacks: variable-length
 * (LEB128) integers, and strings that are UTF-16/32 or end after a static
 * or dynamic number of bytes instead of at a NUL.  ctf-decode.c calls in
 * here from its integer and string cases; everything is bounded by the
 * packet content like the rest of the decoder.
 */
#include "tview/tview.h"

#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "ctf-decode.h"

/* 64 bits of value take at most 10 bytes of 7 bits. */
#define CTF2_VARINT_MAX_BYTES	10

/* Read a variable-length integer; signed ones are sign-extended. */
enum tv_status
ctf_dec_varint(struct ctf_dec *d, const struct tv_int_class *ic,
    uint64_t *v)
{
	uint64_t pos = d->pos, byte = pos >> 3, lim = d->end >> 3, val = 0;
	uint32_t i, shift = 0;
	uint8_t b = 0x80;

	*v = 0;
	if (pos & 7)
		return tv_error_at(d->err, TV_CORRUPT, d->path,
		    d->file_off + byte,
		    _("variable-length integer is not byte-aligned"));
	for (i = 0; (b & 0x80) != 0; i++) {
		if (byte + i >= lim)
			return tv_error_at(d->err, TV_CORRUPT, d->path,
			    d->file_off + byte,
			    _("variable-length integer goes past the end of "
			    "the packet content"));
		if (i == CTF2_VARINT_MAX_BYTES)
			return tv_error_at(d->err, TV_UNSUPPORTED, d->path,
			    d->file_off + byte,
			    _("variable-length integer of more than 64 bits"));
		b = d->buf[byte + i];
		if (shift < 64)
			val |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	}
	if (ic->is_signed && shift < 64 && (b & 0x40))
		val |= ~UINT64_C(0) << shift;
	d->pos = (byte + i) * 8;
	*v = val;
	return TV_OK;
}

/* Append code point @cp as UTF-8 (U+FFFD for what is not one). */
static size_t
put_utf8(char *o, uint32_t cp)
{
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Code unit @i of @unit (1, 2, 4) bytes at @p in byte order @be. */
static uint32_t
unit_at(const uint8_t *p, uint64_t i, uint32_t unit, bool be)
{
	const uint8_t *q = p + i * unit;

	if (unit == 1)
		return q[0];
	if (unit == 2)
		return be ? (uint32_t)q[0] << 8 | q[1] :
		    (uint32_t)q[1] << 8 | q[0];
	return be ? (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 |
	    (uint32_t)q[2] << 8 | q[3] :
	    (uint32_t)q[3] << 24 | (uint32_t)q[2] << 16 |
	    (uint32_t)q[1] << 8 | q[0];
}

/* UTF-16/32 code units [0, n) at @p as UTF-8 in the decode arena. */
static void
to_utf8(struct ctf_dec *d, const uint8_t *p, uint64_t n, uint32_t unit,
    bool be, struct tv_value *out)
{
	char *o = tv_arena_alloc(d->arena, (size_t)n * 4 + 1);
	size_t len = 0;
	uint64_t i;

	for (i = 0; i < n; i++) {
		uint32_t cp = unit_at(p, i, unit, be);

		if (unit == 2 && cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
			uint32_t lo = unit_at(p, i + 1, unit, be);

			if (lo >= 0xdc00 && lo <= 0xdfff) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
				i++;
			}
		}
		len += put_utf8(o + len, cp);
	}
	o[len] = '\0';
	out->str.ptr = o;
	out->str.len = len;
}

/* Decode a string of a CTF 2 kind (see ctf-decode.h). */
enum tv_status
ctf_dec_xstring(struct ctf_dec *d, const struct tv_field_class *fc,
    struct tv_value *out)
{
	uint32_t unit = fc->string.encoding == TV_ENC_UTF16 ? 2 :
	    fc->string.encoding == TV_ENC_UTF32 ? 4 : 1;
	bool be = fc->string.byte_order == TV_BO_BE;
	uint64_t start = d->pos >> 3, lim = d->end >> 3, bytes, n, i;
	const uint8_t *p;

	if (d->pos & 7 || start > lim)
		return tv_error_at(d->err, TV_CORRUPT, d->path,
		    d->file_off + start, _("string is not byte-aligned"));
	p = d->buf + start;
	if (fc->string.len_kind == TV_STR_NUL) {
		for (i = 0; ; i++) {
			if ((i + 1) * unit > lim - start)
				return tv_error_at(d->err, TV_CORRUPT, d->path,
				    d->file_off + start,
				    _("string is not terminated before the end "
				    "of the packet content"));
			if (unit_at(p, i, unit, be) == 0)
				break;
		}
		n = i;
		bytes = (i + 1) * unit;
	} else {
		if (fc->string.len_kind == TV_STR_STATIC) {
			bytes = fc->string.length;
		} else {
			if (fc->string.length_slot < 0 ||
			    (uint32_t)fc->string.length_slot >= d->nslots)
				return tv_error_at(d->err, TV_CORRUPT, d->path,
				    d->file_off + start,
				    _("string length is not available"));
			bytes = d->slots[fc->string.length_slot];
		}
		if (bytes > lim - start)
			return tv_error_at(d->err, TV_CORRUPT, d->path,
			    d->file_off + start,
			    _("string of %llu bytes does not fit in the "
			    "packet"), (unsigned long long)bytes);
		/* The text ends at its first NUL code unit, if any. */
		for (n = 0; n < bytes / unit; n++)
			if (unit_at(p, n, unit, be) == 0)
				break;
	}
	if (out) {
		if (unit == 1) {
			out->str.ptr = (const char *)p;
			out->str.len = (size_t)n;
		} else {
			to_utf8(d, p, n, unit, be, out);
		}
	}
	d->pos = (start + bytes) * 8;
	return TV_OK;
}

/* Fewest bits a field of @fc takes, for the hostile-length check. */
uint64_t
ctf_min_bits(const struct tv_field_class *fc, uint64_t dflt)
{
	if (fc->kind == TV_FC_INT && fc->integer.varlen)
		return 8;
	if (fc->kind == TV_FC_ENUM && fc->enumeration.integer.varlen)
		return 8;
	if (fc->kind == TV_FC_STRING && fc->string.len_kind == TV_STR_STATIC)
		return fc->string.length * 8;
	if (fc->kind == TV_FC_STRING && fc->string.len_kind == TV_STR_DYNAMIC)
		return 0;
	return dflt;
}
