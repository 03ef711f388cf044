/*
 * Field classes and decoded values: creation, enum label lookup and the
 * small accessors the views use to read a decoded tree.
 */
#include "tview/field.h"
#include "tview/flat.h"

#include <string.h>

/* A zeroed class of @kind in @a, with no save slot. */
struct tv_field_class *
tv_field_class_create(struct tv_arena *a, enum tv_fc_kind kind)
{
	struct tv_field_class *fc = tv_arena_zalloc(a, sizeof(*fc));

	fc->kind = kind;
	fc->align = 1;
	fc->save_slot = -1;
	if (kind == TV_FC_VARIANT)
		fc->variant.tag_slot = -1;
	if (kind == TV_FC_SEQUENCE)
		fc->array.length_slot = -1;
	if (kind == TV_FC_STRING)
		fc->string.length_slot = -1;
	return fc;
}

/* Whether @v falls in @r, comparing signed when the container is. */
static bool
range_holds(const struct tv_enum_range *r, uint64_t v, bool is_signed)
{
	if (is_signed)
		return (int64_t)v >= (int64_t)r->lo &&
		    (int64_t)v <= (int64_t)r->hi;
	return v >= r->lo && v <= r->hi;
}

/* See field.h. */
bool
tv_enum_mapping_holds(const struct tv_field_class *fc,
    const struct tv_enum_mapping *m, uint64_t v)
{
	bool is_signed = fc->enumeration.integer.is_signed;
	uint64_t bits;
	uint32_t j;

	for (j = 0; j < m->nranges; j++) {
		const struct tv_enum_range *r = &m->ranges[j];

		if (!fc->enumeration.bit_flags) {
			if (range_holds(r, v, is_signed))
				return true;
			continue;
		}
		if (r->lo > 63 || r->lo > r->hi)
			continue;
		/* Bits lo..hi (hi capped at 63) of @v. */
		bits = (r->hi >= 63 ? ~UINT64_C(0) :
		    (UINT64_C(1) << (r->hi + 1)) - 1) >> r->lo << r->lo;
		if (v & bits)
			return true;
	}
	return false;
}

/* First label (in declaration order) whose ranges hold @v, or NULL. */
const char *
tv_enum_label(const struct tv_field_class *fc, uint64_t v)
{
	uint32_t i;

	if (!fc || fc->kind != TV_FC_ENUM)
		return NULL;
	for (i = 0; i < fc->enumeration.nmaps; i++)
		if (tv_enum_mapping_holds(fc, &fc->enumeration.maps[i], v))
			return fc->enumeration.maps[i].label;
	return NULL;
}

/* Member @name of a struct value, or the option a variant holds. */
const struct tv_value *
tv_value_member(const struct tv_value *v, const char *name)
{
	uint32_t i;

	if (!v || !v->fc || !name)
		return NULL;
	if (v->fc->kind != TV_FC_STRUCT && v->fc->kind != TV_FC_VARIANT)
		return NULL;
	for (i = 0; i < v->kids.count; i++) {
		const struct tv_value *k = &v->kids.items[i];

		/* the first byte first: most names differ there */
		if (k->name && k->name[0] == name[0] &&
		    strcmp(k->name, name) == 0)
			return k;
	}
	return NULL;
}

/* The integer in an INT or ENUM value, as a signed 64-bit number. */
bool
tv_value_as_int(const struct tv_value *v, int64_t *out)
{
	const struct tv_int_class *ic;

	if (!v || !v->fc)
		return false;
	if (v->fc->kind == TV_FC_INT)
		ic = &v->fc->integer;
	else if (v->fc->kind == TV_FC_ENUM)
		ic = &v->fc->enumeration.integer;
	else
		return false;
	*out = ic->is_signed ? v->s : (int64_t)v->u;
	return true;
}

/* Bytes @p (@len of them) up to the first NUL into @buf (@size > 0). */
static void
text_str(const char *p, size_t len, char *buf, size_t size)
{
	size_t n = strnlen(p, TV_MIN(len, size - 1));

	memcpy(buf, p, n);
	buf[n] = '\0';
}

/* See flat.h: the same text as tv_value_str() of the member. */
bool
tv_flat_text(const struct tv_flat_value *v, char *buf, size_t size)
{
	if (v->text == NULL || size == 0)
		return false;
	text_str(v->text, v->len, buf, size);
	return true;
}

/* See field.h. */
bool
tv_value_str(const struct tv_value *v, char *buf, size_t size)
{
	size_t n = 0, i;
	int64_t c;

	if (v == NULL || v->fc == NULL || size == 0)
		return false;
	if (v->fc->kind == TV_FC_STRING) {
		text_str(v->str.ptr, v->str.len, buf, size);
		return true;
	} else if (v->fc->kind == TV_FC_ARRAY ||
	    v->fc->kind == TV_FC_SEQUENCE) {
		for (i = 0; i < v->kids.count && n < size - 1; i++) {
			if (!tv_value_as_int(&v->kids.items[i], &c) || c == 0)
				break;
			buf[n++] = (char)c;
		}
	} else {
		return false;
	}
	buf[n] = '\0';
	return true;
}
