/*
 * TSDL type specifiers to field classes: integers, floats, strings, enums,
 * structs, variants, arrays and sequences, with the defaults of the CTF
 * 1.8 spec, and the lexical scopes of typealias/typedef/struct/variant/
 * enum names.  Every use of a named type gets a deep copy, so marks set
 * later on one field (save slots, roles) never leak to another.
 */
#include "tview/tview.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tsdl-model.h"

/* Bits: larger alignments are certainly hostile. */
#define TSDL_MAX_ALIGN		(1u << 24)

static enum tv_status build_struct(struct tsdl_ctx *cx, struct tsdl_scope *sc,
		    const struct tsdl_type *ty, struct tsdl_fc **out,
		    struct tv_error *err);

/* Report a semantic error at line:col of the metadata text. */
enum tv_status
tsdl_semantic(struct tsdl_ctx *cx, uint32_t line, uint32_t col,
    const char *fmt, ...)
{
	struct tv_loc loc = { cx->path, TV_NO_OFFSET, line, col };
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return tv_error_set(cx->err, TV_SEMANTIC, &loc, "%s", msg);
}

/* A zeroed class in the trace arena, like tv_field_class_create. */
static struct tsdl_fc *
new_fc(struct tsdl_ctx *cx, enum tv_fc_kind kind, uint32_t line,
    uint32_t col)
{
	struct tsdl_fc *f = tv_arena_zalloc(cx->a, sizeof(*f));

	f->fc.kind = kind;
	f->fc.align = 1;
	f->fc.save_slot = -1;
	if (kind == TV_FC_VARIANT)
		f->fc.variant.tag_slot = -1;
	if (kind == TV_FC_SEQUENCE)
		f->fc.array.length_slot = -1;
	f->line = line;
	f->col = col;
	f->depth = 1;
	cx->nodes++;
	return f;
}

/* Refuse classes nested or multiplied beyond the hard caps. */
static enum tv_status
check_limits(struct tsdl_ctx *cx, const struct tsdl_fc *f, uint32_t line,
    uint32_t col)
{
	if (f->depth > TSDL_MAX_FC_DEPTH)
		return tsdl_semantic(cx, line, col,
		    _("types nested more than %u levels deep"),
		    TSDL_MAX_FC_DEPTH);
	if (cx->nodes > TSDL_MAX_NODES)
		return tsdl_semantic(cx, line, col,
		    _("metadata describes more than %u fields"),
		    TSDL_MAX_NODES);
	return TV_OK;
}

/* A struct's or variant's depth: one more than its deepest member. */
static void
set_depth(struct tsdl_fc *f, const struct tv_field_member *m, uint32_t n)
{
	uint32_t i;

	f->depth = 1;
	for (i = 0; i < n; i++)
		f->depth = TV_MAX(f->depth, TSDL_FC(m[i].fc)->depth + 1);
}

/* Strip the one leading underscore TSDL uses to escape field names. */
const char *
tsdl_strip_name(const char *name)
{
	return name[0] == '_' ? name + 1 : name;
}

/* Deep copy of a class tree (enum mappings are immutable: shared). */
struct tsdl_fc *
tsdl_fc_copy(struct tsdl_ctx *cx, const struct tsdl_fc *src)
{
	struct tsdl_fc *f = tv_arena_alloc(cx->a, sizeof(*f));
	struct tv_field_member *m;
	uint32_t i, n;

	*f = *src;
	cx->nodes++;
	switch (src->fc.kind) {
	case TV_FC_STRUCT:
	case TV_FC_VARIANT:
		n = src->fc.kind == TV_FC_STRUCT ? src->fc.structure.nmembers :
		    src->fc.variant.noptions;
		m = n ? tv_arena_alloc(cx->a, n * sizeof(*m)) : NULL;
		for (i = 0; i < n; i++) {
			const struct tv_field_member *sm =
			    src->fc.kind == TV_FC_STRUCT ?
			    &src->fc.structure.members[i] :
			    &src->fc.variant.options[i];

			m[i].name = sm->name;
			m[i].fc = &tsdl_fc_copy(cx, TSDL_FC(sm->fc))->fc;
		}
		if (src->fc.kind == TV_FC_STRUCT)
			f->fc.structure.members = m;
		else
			f->fc.variant.options = m;
		break;
	case TV_FC_ARRAY:
	case TV_FC_SEQUENCE:
		f->fc.array.elem = &tsdl_fc_copy(cx,
		    TSDL_FC(src->fc.array.elem))->fc;
		break;
	default:
		break;
	}
	return f;
}

/* Look @name of @kind up in @sc and its enclosing scopes. */
static struct tsdl_sym *
sym_lookup(struct tsdl_scope *sc, enum tsdl_sym_kind kind, const char *name)
{
	struct tsdl_sym *s;

	for (; sc; sc = sc->parent)
		for (s = sc->syms; s; s = s->next)
			if (s->kind == kind && strcmp(s->name, name) == 0)
				return s;
	return NULL;
}

/* Define @name in @sc; redefinition in the same scope is an error. */
static enum tv_status
sym_add(struct tsdl_ctx *cx, struct tsdl_scope *sc, enum tsdl_sym_kind kind,
    const char *name, struct tsdl_fc *fc, uint32_t line, uint32_t col)
{
	struct tsdl_sym *s;

	for (s = sc->syms; s; s = s->next)
		if (s->kind == kind && strcmp(s->name, name) == 0)
			return tsdl_semantic(cx, line, col,
			    _("'%s' is already defined in this scope"), name);
	if (sc->nsyms >= TSDL_MAX_SCOPE_SYMS)
		return tsdl_semantic(cx, line, col,
		    _("more than %u type names in one scope"),
		    TSDL_MAX_SCOPE_SYMS);
	sc->nsyms++;
	s = tv_arena_zalloc(cx->a, sizeof(*s));
	s->kind = kind;
	s->name = tv_arena_strdup(cx->a, name);
	s->fc = fc;
	s->next = sc->syms;
	sc->syms = s;
	return TV_OK;
}

/* An attribute value that must be a non-negative integer. */
static enum tv_status
attr_uint(struct tsdl_ctx *cx, const struct tsdl_stmt *s, uint64_t *out)
{
	if (s->typeassign || s->value.kind != TSDL_V_INT || s->value.neg)
		return tsdl_semantic(cx, s->value.line, s->value.col,
		    _("'%s' must be a non-negative integer"), s->path);
	*out = s->value.ival;
	return TV_OK;
}

/* An attribute value that is true/false/TRUE/FALSE/0/1. */
static enum tv_status
attr_bool(struct tsdl_ctx *cx, const struct tsdl_stmt *s, bool *out)
{
	const struct tsdl_value *v = &s->value;

	if (!s->typeassign && v->kind == TSDL_V_INT && !v->neg &&
	    v->ival <= 1) {
		*out = v->ival == 1;
		return TV_OK;
	}
	if (!s->typeassign && v->kind == TSDL_V_PATH) {
		if (strcmp(v->str, "true") == 0 ||
		    strcmp(v->str, "TRUE") == 0) {
			*out = true;
			return TV_OK;
		}
		if (strcmp(v->str, "false") == 0 ||
		    strcmp(v->str, "FALSE") == 0) {
			*out = false;
			return TV_OK;
		}
	}
	return tsdl_semantic(cx, v->line, v->col,
	    _("'%s' must be true or false"), s->path);
}

/* An alignment in bits: a power of two, not absurdly large. */
static enum tv_status
check_align(struct tsdl_ctx *cx, const struct tsdl_value *v, uint32_t *out)
{
	if (v->kind != TSDL_V_INT || v->neg || v->ival == 0 ||
	    (v->ival & (v->ival - 1)) != 0 || v->ival > TSDL_MAX_ALIGN)
		return tsdl_semantic(cx, v->line, v->col,
		    _("alignment must be a power of two between 1 and %u"),
		    TSDL_MAX_ALIGN);
	*out = (uint32_t)v->ival;
	return TV_OK;
}

/* byte_order = le/be/native/network. */
static enum tv_status
attr_byte_order(struct tsdl_ctx *cx, const struct tsdl_stmt *s,
    enum tv_byte_order *out)
{
	const char *w = s->value.str;

	if (!s->typeassign && s->value.kind == TSDL_V_PATH) {
		if (strcmp(w, "le") == 0 || strcmp(w, "little") == 0) {
			*out = TV_BO_LE;
			return TV_OK;
		}
		if (strcmp(w, "be") == 0 || strcmp(w, "big") == 0 ||
		    strcmp(w, "network") == 0) {
			*out = TV_BO_BE;
			return TV_OK;
		}
		if (strcmp(w, "native") == 0) {
			*out = cx->bo;
			return TV_OK;
		}
	}
	return tsdl_semantic(cx, s->value.line, s->value.col,
	    _("byte_order must be le, be, native or network"));
}

/* encoding = UTF8/ASCII/none (identifiers, not strings). */
static enum tv_status
attr_encoding(struct tsdl_ctx *cx, const struct tsdl_stmt *s,
    enum tv_encoding *out)
{
	const char *w = s->value.str;

	if (!s->typeassign && s->value.kind == TSDL_V_PATH) {
		if (strcasecmp(w, "UTF8") == 0) {
			*out = TV_ENC_UTF8;
			return TV_OK;
		}
		if (strcasecmp(w, "ASCII") == 0) {
			*out = TV_ENC_ASCII;
			return TV_OK;
		}
		if (strcasecmp(w, "none") == 0) {
			*out = TV_ENC_NONE;
			return TV_OK;
		}
	}
	return tsdl_semantic(cx, s->value.line, s->value.col,
	    _("encoding must be UTF8, ASCII or none"));
}

/* base = 2/8/10/16 or one of their names (hex, decimal, ...). */
static enum tv_status
attr_base(struct tsdl_ctx *cx, const struct tsdl_stmt *s, uint8_t *out)
{
	static const struct { const char *w; uint8_t base; } words[] = {
		{ "decimal", 10 }, { "dec", 10 }, { "d", 10 }, { "i", 10 },
		{ "u", 10 }, { "hexadecimal", 16 }, { "hex", 16 },
		{ "x", 16 }, { "X", 16 }, { "p", 16 }, { "octal", 8 },
		{ "oct", 8 }, { "o", 8 }, { "binary", 2 }, { "bin", 2 },
		{ "b", 2 },
	};
	const struct tsdl_value *v = &s->value;
	size_t i;

	if (!s->typeassign && v->kind == TSDL_V_INT && !v->neg &&
	    (v->ival == 2 || v->ival == 8 || v->ival == 10 ||
	    v->ival == 16)) {
		*out = (uint8_t)v->ival;
		return TV_OK;
	}
	if (!s->typeassign && v->kind == TSDL_V_PATH)
		for (i = 0; i < TV_ARRAY_SIZE(words); i++)
			if (strcmp(v->str, words[i].w) == 0) {
				*out = words[i].base;
				return TV_OK;
			}
	return tsdl_semantic(cx, v->line, v->col,
	    _("base must be 2, 8, 10 or 16"));
}

/* map = clock.NAME.value */
static enum tv_status
attr_map(struct tsdl_ctx *cx, const struct tsdl_stmt *s,
    const struct tv_clock **out)
{
	const struct tsdl_value *v = &s->value;
	const struct tv_clock *clk;
	char name[256];
	size_t n;

	if (s->typeassign || v->kind != TSDL_V_PATH ||
	    strncmp(v->str, "clock.", 6) != 0)
		goto bad;
	n = strlen(v->str + 6);
	if (n < 7 || strcmp(v->str + 6 + n - 6, ".value") != 0 ||
	    n - 6 >= sizeof(name))
		goto bad;
	memcpy(name, v->str + 6, n - 6);
	name[n - 6] = '\0';
	clk = tsdl_find_clock(cx, name);
	if (!clk)
		return tsdl_semantic(cx, v->line, v->col,
		    _("unknown clock '%s'"), name);
	*out = clk;
	return TV_OK;
bad:
	return tsdl_semantic(cx, v->line, v->col,
	    _("map must be clock.NAME.value"));
}

/* integer { size; align; signed; byte_order; base; encoding; map } */
static enum tv_status
build_integer(struct tsdl_ctx *cx, const struct tsdl_type *ty,
    struct tsdl_fc **out)
{
	struct tsdl_fc *f = new_fc(cx, TV_FC_INT, ty->line, ty->col);
	struct tv_int_class *ic = &f->fc.integer;
	const struct tsdl_stmt *s;
	bool has_size = false, has_align = false;
	uint64_t size = 0;
	uint32_t align = 1;
	enum tv_status st = TV_OK;

	ic->base = 10;
	ic->byte_order = cx->bo;
	for (s = ty->attrs; s && st == TV_OK; s = s->next) {
		if (s->kind != TSDL_S_ASSIGN)
			return tsdl_semantic(cx, s->line, s->col,
			    _("only attributes may appear in an integer"));
		if (strcmp(s->path, "size") == 0) {
			st = attr_uint(cx, s, &size);
			has_size = true;
		} else if (strcmp(s->path, "align") == 0) {
			st = check_align(cx, &s->value, &align);
			has_align = true;
		} else if (strcmp(s->path, "signed") == 0) {
			st = attr_bool(cx, s, &ic->is_signed);
		} else if (strcmp(s->path, "byte_order") == 0) {
			st = attr_byte_order(cx, s, &ic->byte_order);
		} else if (strcmp(s->path, "base") == 0) {
			st = attr_base(cx, s, &ic->base);
		} else if (strcmp(s->path, "encoding") == 0) {
			st = attr_encoding(cx, s, &ic->encoding);
		} else if (strcmp(s->path, "map") == 0) {
			st = attr_map(cx, s, &ic->map_clock);
		}
		/* unknown attributes are ignored, as babeltrace does */
	}
	if (st != TV_OK)
		return st;
	if (!has_size)
		return tsdl_semantic(cx, ty->line, ty->col,
		    _("integer has no size"));
	if (size == 0 || size > 4096)
		return tsdl_semantic(cx, ty->line, ty->col,
		    _("integer size %llu is out of range"),
		    (unsigned long long)size);
	if (!has_align)
		align = size % 8 == 0 ? 8 : 1;
	if (size > 64) {
		/* Too wide to hold: keep its bytes, printed in hex. */
		struct tsdl_fc *arr;

		if (size % 8 != 0)
			return tsdl_semantic(cx, ty->line, ty->col,
			    _("integers over 64 bits must be whole bytes"));
		ic->size = 8;
		ic->base = 16;
		ic->is_signed = false;
		f->fc.align = 8;
		arr = new_fc(cx, TV_FC_ARRAY, ty->line, ty->col);
		arr->fc.array.elem = &f->fc;
		arr->fc.array.length = size / 8;
		arr->fc.align = align;
		arr->depth = 2;
		*out = arr;
		return TV_OK;
	}
	ic->size = (uint32_t)size;
	f->fc.align = align;
	*out = f;
	return TV_OK;
}

/* floating_point { exp_dig; mant_dig; byte_order; align } */
static enum tv_status
build_float(struct tsdl_ctx *cx, const struct tsdl_type *ty,
    struct tsdl_fc **out)
{
	struct tsdl_fc *f = new_fc(cx, TV_FC_FLOAT, ty->line, ty->col);
	const struct tsdl_stmt *s;
	bool has_align = false;
	uint64_t v;
	uint32_t align = 1;
	enum tv_status st = TV_OK;

	f->fc.flt.byte_order = cx->bo;
	for (s = ty->attrs; s && st == TV_OK; s = s->next) {
		if (s->kind != TSDL_S_ASSIGN)
			return tsdl_semantic(cx, s->line, s->col,
			    _("only attributes may appear in a "
			    "floating_point"));
		if (strcmp(s->path, "exp_dig") == 0) {
			st = attr_uint(cx, s, &v);
			f->fc.flt.exp_dig = (uint32_t)TV_MIN(v, 1000);
		} else if (strcmp(s->path, "mant_dig") == 0) {
			st = attr_uint(cx, s, &v);
			f->fc.flt.mant_dig = (uint32_t)TV_MIN(v, 1000);
		} else if (strcmp(s->path, "align") == 0) {
			st = check_align(cx, &s->value, &align);
			has_align = true;
		} else if (strcmp(s->path, "byte_order") == 0) {
			st = attr_byte_order(cx, s, &f->fc.flt.byte_order);
		}
	}
	if (st != TV_OK)
		return st;
	v = (uint64_t)f->fc.flt.exp_dig + f->fc.flt.mant_dig;
	if (!((f->fc.flt.exp_dig == 8 && f->fc.flt.mant_dig == 24) ||
	    (f->fc.flt.exp_dig == 11 && f->fc.flt.mant_dig == 53)))
		return tsdl_semantic(cx, ty->line, ty->col,
		    _("only 32-bit and 64-bit IEEE 754 floating point "
		    "numbers are supported (exp_dig %u, mant_dig %u)"),
		    f->fc.flt.exp_dig, f->fc.flt.mant_dig);
	f->fc.align = has_align ? align : (v % 8 == 0 ? 8 : 1);
	*out = f;
	return TV_OK;
}

/* string [{ encoding = ... }] */
static enum tv_status
build_string(struct tsdl_ctx *cx, const struct tsdl_type *ty,
    struct tsdl_fc **out)
{
	struct tsdl_fc *f = new_fc(cx, TV_FC_STRING, ty->line, ty->col);
	const struct tsdl_stmt *s;
	enum tv_status st;

	f->fc.align = 8;
	f->fc.string.encoding = TV_ENC_UTF8;
	for (s = ty->attrs; s; s = s->next) {
		if (s->kind != TSDL_S_ASSIGN)
			return tsdl_semantic(cx, s->line, s->col,
			    _("only attributes may appear in a string"));
		if (strcmp(s->path, "encoding") == 0) {
			st = attr_encoding(cx, s, &f->fc.string.encoding);
			if (st != TV_OK)
				return st;
		}
	}
	*out = f;
	return TV_OK;
}

/* An enumerator value as a 64-bit pattern, checked against the container. */
static enum tv_status
enum_value(struct tsdl_ctx *cx, const struct tv_int_class *ic,
    const struct tsdl_value *v, uint64_t *out)
{
	uint64_t max;

	if (v->kind != TSDL_V_INT)
		return tsdl_semantic(cx, v->line, v->col,
		    _("enumerator value must be an integer"));
	if (ic->is_signed) {
		max = ic->size >= 64 ? INT64_MAX :
		    (UINT64_C(1) << (ic->size - 1)) - 1;
		if ((!v->neg && v->ival > max) ||
		    (v->neg && v->ival - 1 > max))
			goto range;
		*out = v->neg ? (uint64_t)(-(int64_t)(v->ival - 1) - 1) :
		    v->ival;
		return TV_OK;
	}
	max = ic->size >= 64 ? UINT64_MAX : (UINT64_C(1) << ic->size) - 1;
	if (v->neg || v->ival > max)
		goto range;
	*out = v->ival;
	return TV_OK;
range:
	return tsdl_semantic(cx, v->line, v->col,
	    _("enumerator value out of the range of its %u-bit %s "
	    "container"), ic->size, ic->is_signed ? _("signed") :
	    _("unsigned"));
}

/* enum [name] [: int] { labels } or a reference to a named enum. */
static enum tv_status
build_enum(struct tsdl_ctx *cx, struct tsdl_scope *sc,
    const struct tsdl_type *ty, struct tsdl_fc **out, struct tv_error *err)
{
	const struct tsdl_enumerator *e;
	struct tsdl_fc *f, *cont;
	struct tv_enum_mapping *maps;
	struct tsdl_sym *sym;
	uint32_t n = 0, i;
	uint64_t next_val = 0;
	bool next_wrapped = false;
	enum tv_status st;

	if (!ty->has_body) {
		sym = sym_lookup(sc, TSDL_SYM_ENUM, ty->name);
		if (!sym)
			return tsdl_semantic(cx, ty->line, ty->col,
			    _("undefined enum '%s'"), ty->name);
		*out = tsdl_fc_copy(cx, sym->fc);
		return TV_OK;
	}
	if (ty->container) {
		st = tsdl_type_build(cx, sc, ty->container, &cont, err);
	} else {
		sym = sym_lookup(sc, TSDL_SYM_ALIAS, "int");
		if (!sym)
			return tsdl_semantic(cx, ty->line, ty->col,
			    _("enum has no container type and 'int' is not "
			    "defined"));
		cont = sym->fc;
		st = TV_OK;
	}
	if (st != TV_OK)
		return st;
	if (cont->fc.kind != TV_FC_INT)
		return tsdl_semantic(cx, ty->line, ty->col,
		    _("enum container must be an integer"));
	for (e = ty->enums; e; e = e->next)
		n++;
	if (n == 0)
		return tsdl_semantic(cx, ty->line, ty->col,
		    _("enum has no enumerators"));
	f = new_fc(cx, TV_FC_ENUM, ty->line, ty->col);
	f->fc.align = cont->fc.align;
	f->fc.enumeration.integer = cont->fc.integer;
	maps = tv_arena_zalloc(cx->a, n * sizeof(*maps));
	for (e = ty->enums, i = 0; e; e = e->next, i++) {
		struct tv_enum_range *r = tv_arena_zalloc(cx->a, sizeof(*r));
		uint64_t lo, hi;

		maps[i].label = tv_arena_strdup(cx->a, e->label);
		maps[i].ranges = r;
		maps[i].nranges = 1;
		if (e->has_value) {
			st = enum_value(cx, &f->fc.enumeration.integer,
			    &e->lo, &lo);
			if (st != TV_OK)
				return st;
			hi = lo;
			if (e->is_range) {
				st = enum_value(cx, &f->fc.enumeration.integer,
				    &e->hi, &hi);
				if (st != TV_OK)
					return st;
			}
		} else {
			struct tsdl_value v = { TSDL_V_INT, next_val, false,
			    NULL, 0, NULL, e->line, e->col };

			if (f->fc.enumeration.integer.is_signed &&
			    (int64_t)next_val < 0) {
				v.neg = true;
				v.ival = (uint64_t)(-(int64_t)next_val);
			}
			if (next_wrapped)
				return tsdl_semantic(cx, e->line, e->col,
				    _("enumerator value overflows"));
			st = enum_value(cx, &f->fc.enumeration.integer, &v,
			    &lo);
			if (st != TV_OK)
				return st;
			hi = lo;
		}
		if (f->fc.enumeration.integer.is_signed ?
		    (int64_t)lo > (int64_t)hi : lo > hi) {
			uint64_t t = lo;

			lo = hi;
			hi = t;
		}
		r->lo = lo;
		r->hi = hi;
		next_val = hi + 1;
		next_wrapped = f->fc.enumeration.integer.is_signed ?
		    (int64_t)hi == INT64_MAX : hi == UINT64_MAX;
	}
	f->fc.enumeration.maps = maps;
	f->fc.enumeration.nmaps = n;
	if (ty->name) {
		st = sym_add(cx, sc, TSDL_SYM_ENUM, ty->name, f, ty->line,
		    ty->col);
		if (st != TV_OK)
			return st;
		f = tsdl_fc_copy(cx, f);
	}
	*out = f;
	return TV_OK;
}

/*
 * Wrap @base in the array/sequence dimensions of @dims (outermost first):
 * "a[2][3]" is an array of 2 arrays of 3.
 */
static struct tsdl_fc *
wrap_dims(struct tsdl_ctx *cx, struct tsdl_fc *base,
    const struct tsdl_dim *dims)
{
	struct tsdl_fc *f, *elem;

	if (!dims)
		return base;
	elem = wrap_dims(cx, base, dims->next);
	f = new_fc(cx, dims->is_seq ? TV_FC_SEQUENCE : TV_FC_ARRAY,
	    dims->line, dims->col);
	f->fc.array.elem = &elem->fc;
	f->fc.array.length = dims->length;
	f->path = dims->path;
	f->fc.align = elem->fc.align;
	f->depth = elem->depth + 1;
	return f;
}

/* Check a sequence length path is not a type name or keyword. */
static enum tv_status
check_dims(struct tsdl_ctx *cx, struct tsdl_scope *sc,
    const struct tsdl_dim *d, bool in_struct)
{
	char first[256];
	size_t n;

	for (; d; d = d->next) {
		if (!d->is_seq)
			continue;
		n = strcspn(d->path, ".");
		if (n >= sizeof(first))
			n = sizeof(first) - 1;
		memcpy(first, d->path, n);
		first[n] = '\0';
		if (strcmp(first, "trace") == 0 ||
		    strcmp(first, "stream") == 0 ||
		    strcmp(first, "event") == 0)
			continue;
		if (tsdl_is_keyword(first) ||
		    sym_lookup(sc, TSDL_SYM_ALIAS, first))
			return tsdl_semantic(cx, d->line, d->col,
			    _("array length '%s' is not a field"), d->path);
		if (!in_struct)
			return tsdl_semantic(cx, d->line, d->col,
			    _("sequence length '%s' cannot be resolved "
			    "here"), d->path);
	}
	return TV_OK;
}

/* The members of a struct or the options of a variant, in order. */
static enum tv_status
build_members(struct tsdl_ctx *cx, struct tsdl_scope *outer,
    const struct tsdl_type *ty, struct tv_field_member **members,
    const char ***raws, uint32_t *count, uint32_t *max_align,
    struct tv_error *err)
{
	struct tsdl_scope sc = { outer, NULL, 0, true };
	const struct tsdl_stmt *s;
	const struct tsdl_declarator *d;
	struct tv_field_member *m = NULL;
	const char **raw = NULL;
	uint32_t n = 0, cap = 0, i;
	enum tv_status st;

	*max_align = 1;
	for (s = ty->body; s; s = s->next) {
		struct tsdl_fc *base;

		if (s->kind == TSDL_S_TYPEALIAS || s->kind == TSDL_S_TYPEDEF) {
			st = tsdl_declare(cx, &sc, s, err);
			if (st != TV_OK)
				goto fail;
			continue;
		}
		if (s->kind != TSDL_S_DECL) {
			st = tsdl_semantic(cx, s->line, s->col,
			    _("only field declarations may appear in a "
			    "%s"), ty->kind == TSDL_TY_STRUCT ?
			    "struct" : "variant");
			goto fail;
		}
		st = tsdl_type_build(cx, &sc, s->type, &base, err);
		if (st != TV_OK)
			goto fail;
		for (d = s->decls; d; d = d->next) {
			struct tsdl_fc *f;

			if (tsdl_is_keyword(d->name)) {
				st = tsdl_semantic(cx, d->line, d->col,
				    _("'%s' is a reserved keyword"),
				    d->name);
				goto fail;
			}
			for (i = 0; i < n; i++)
				if (strcmp(raw[i], d->name) == 0)
					break;
			if (i < n) {
				st = tsdl_semantic(cx, d->line, d->col,
				    _("duplicate field '%s'"), d->name);
				goto fail;
			}
			st = check_dims(cx, &sc, d->dims, true);
			if (st != TV_OK)
				goto fail;
			f = wrap_dims(cx, d == s->decls ? base :
			    tsdl_fc_copy(cx, base), d->dims);
			st = check_limits(cx, f, d->line, d->col);
			if (st != TV_OK)
				goto fail;
			if (n >= TSDL_MAX_MEMBERS) {
				st = tsdl_semantic(cx, d->line, d->col,
				    _("more than %u fields in one structure"),
				    TSDL_MAX_MEMBERS);
				goto fail;
			}
			if (n >= cap) {
				cap = cap ? cap * 2 : 8;
				m = tv_xreallocarray(m, cap, sizeof(*m));
				raw = tv_xreallocarray(raw, cap,
				    sizeof(*raw));
			}
			raw[n] = tv_arena_strdup(cx->a, d->name);
			m[n].name = tv_arena_strdup(cx->a,
			    tsdl_strip_name(d->name));
			m[n].fc = &f->fc;
			*max_align = TV_MAX(*max_align, f->fc.align);
			n++;
		}
	}
	*members = NULL;
	*raws = NULL;
	if (n) {
		*members = tv_arena_alloc(cx->a, n * sizeof(*m));
		memcpy(*members, m, n * sizeof(*m));
		*raws = tv_arena_alloc(cx->a, n * sizeof(*raw));
		memcpy(*raws, raw, n * sizeof(*raw));
	}
	*count = n;
	free(m);
	free(raw);
	return TV_OK;
fail:
	free(m);
	free(raw);
	return st;
}

/* struct [name] [{ ... }] [align(N)] */
static enum tv_status
build_struct(struct tsdl_ctx *cx, struct tsdl_scope *sc,
    const struct tsdl_type *ty, struct tsdl_fc **out, struct tv_error *err)
{
	struct tsdl_fc *f;
	struct tsdl_sym *sym;
	const char **raw;
	uint32_t align, explicit_align = 1;
	enum tv_status st;

	if (ty->has_align) {
		st = check_align(cx, &ty->align, &explicit_align);
		if (st != TV_OK)
			return st;
	}
	if (!ty->has_body) {
		sym = sym_lookup(sc, TSDL_SYM_STRUCT, ty->name);
		if (!sym)
			return tsdl_semantic(cx, ty->line, ty->col,
			    _("undefined struct '%s'"), ty->name);
		f = tsdl_fc_copy(cx, sym->fc);
		f->fc.align = TV_MAX(f->fc.align, explicit_align);
		*out = f;
		return TV_OK;
	}
	f = new_fc(cx, TV_FC_STRUCT, ty->line, ty->col);
	st = build_members(cx, sc, ty, &f->fc.structure.members, &raw,
	    &f->fc.structure.nmembers, &align, err);
	if (st != TV_OK)
		return st;
	f->fc.align = TV_MAX(align, explicit_align);
	set_depth(f, f->fc.structure.members, f->fc.structure.nmembers);
	st = check_limits(cx, f, ty->line, ty->col);
	if (st == TV_OK)
		st = tsdl_check_struct(cx, &f->fc);
	if (st != TV_OK)
		return st;
	if (ty->name) {
		st = sym_add(cx, sc, TSDL_SYM_STRUCT, ty->name, f, ty->line,
		    ty->col);
		if (st != TV_OK)
			return st;
		f = tsdl_fc_copy(cx, f);
	}
	*out = f;
	return TV_OK;
}

/* variant [name] [<tag>] [{ ... }] */
static enum tv_status
build_variant(struct tsdl_ctx *cx, struct tsdl_scope *sc,
    const struct tsdl_type *ty, struct tsdl_fc **out, struct tv_error *err)
{
	struct tsdl_fc *f;
	struct tsdl_sym *sym;
	uint32_t align;
	enum tv_status st;

	if (!ty->has_body) {
		sym = sym_lookup(sc, TSDL_SYM_VARIANT, ty->name);
		if (!sym)
			return tsdl_semantic(cx, ty->line, ty->col,
			    _("undefined variant '%s'"), ty->name);
		f = tsdl_fc_copy(cx, sym->fc);
		if (ty->tag)
			f->path = ty->tag;
		f->line = ty->line;
		f->col = ty->col;
		*out = f;
		return TV_OK;
	}
	f = new_fc(cx, TV_FC_VARIANT, ty->line, ty->col);
	st = build_members(cx, sc, ty, &f->fc.variant.options, &f->raw,
	    &f->fc.variant.noptions, &align, err);
	if (st != TV_OK)
		return st;
	/* The selected option aligns itself when it is decoded. */
	f->fc.align = 1;
	set_depth(f, f->fc.variant.options, f->fc.variant.noptions);
	st = check_limits(cx, f, ty->line, ty->col);
	if (st != TV_OK)
		return st;
	f->path = ty->tag;
	if (ty->name) {
		st = sym_add(cx, sc, TSDL_SYM_VARIANT, ty->name, f, ty->line,
		    ty->col);
		if (st != TV_OK)
			return st;
		f = tsdl_fc_copy(cx, f);
	}
	*out = f;
	return TV_OK;
}

/* Build a fresh class for type specifier @ty in scope @sc. */
enum tv_status
tsdl_type_build(struct tsdl_ctx *cx, struct tsdl_scope *sc,
    const struct tsdl_type *ty, struct tsdl_fc **out, struct tv_error *err)
{
	struct tsdl_sym *sym;

	switch (ty->kind) {
	case TSDL_TY_INTEGER:
		return build_integer(cx, ty, out);
	case TSDL_TY_FLOAT:
		return build_float(cx, ty, out);
	case TSDL_TY_STRING:
		return build_string(cx, ty, out);
	case TSDL_TY_STRUCT:
		return build_struct(cx, sc, ty, out, err);
	case TSDL_TY_VARIANT:
		return build_variant(cx, sc, ty, out, err);
	case TSDL_TY_ENUM:
		return build_enum(cx, sc, ty, out, err);
	case TSDL_TY_NAMED:
		sym = sym_lookup(sc, TSDL_SYM_ALIAS, ty->name);
		if (!sym)
			return tsdl_semantic(cx, ty->line, ty->col,
			    _("undefined type '%s'"), ty->name);
		*out = tsdl_fc_copy(cx, sym->fc);
		return check_limits(cx, *out, ty->line, ty->col);
	}
	return tsdl_semantic(cx, ty->line, ty->col, _("unknown type"));
}

/* A typealias name: C type words ("unsigned int") or one identifier. */
static enum tv_status
check_alias_name(struct tsdl_ctx *cx, const struct tsdl_stmt *s)
{
	static const char *const basic[] = {
		"char", "double", "float", "int", "long", "short", "signed",
		"unsigned", "void", "_Bool", "_Complex", "_Imaginary",
	};
	const char *w = s->path;
	char word[64];
	size_t n, i;

	while (*w) {
		n = strcspn(w, " ");
		if (n >= sizeof(word))
			n = sizeof(word) - 1;
		memcpy(word, w, n);
		word[n] = '\0';
		if (tsdl_is_keyword(word)) {
			for (i = 0; i < TV_ARRAY_SIZE(basic); i++)
				if (strcmp(word, basic[i]) == 0)
					break;
			if (i == TV_ARRAY_SIZE(basic))
				return tsdl_semantic(cx, s->line, s->col,
				    _("'%s' is a reserved keyword"), word);
		}
		w += n;
		while (*w == ' ')
			w++;
	}
	return TV_OK;
}

/*
 * typealias T [dims] := NAME;  typedef T NAME[dims], ...;  or a bare
 * "struct foo {...};" whose only effect is to define its name.
 */
enum tv_status
tsdl_declare(struct tsdl_ctx *cx, struct tsdl_scope *sc,
    const struct tsdl_stmt *s, struct tv_error *err)
{
	const struct tsdl_declarator *d;
	struct tsdl_fc *base, *f;
	bool in_struct = sc->in_struct;
	enum tv_status st;

	st = tsdl_type_build(cx, sc, s->type, &base, err);
	if (st != TV_OK)
		return st;
	if (s->kind == TSDL_S_TYPEALIAS) {
		st = check_alias_name(cx, s);
		if (st != TV_OK)
			return st;
		if (s->decls) {
			st = check_dims(cx, sc, s->decls->dims, in_struct);
			if (st != TV_OK)
				return st;
			base = wrap_dims(cx, base, s->decls->dims);
			st = check_limits(cx, base, s->line, s->col);
			if (st != TV_OK)
				return st;
		}
		return sym_add(cx, sc, TSDL_SYM_ALIAS, s->path, base, s->line,
		    s->col);
	}
	if (s->kind == TSDL_S_TYPEDEF) {
		for (d = s->decls; d; d = d->next) {
			if (tsdl_is_keyword(d->name))
				return tsdl_semantic(cx, d->line, d->col,
				    _("'%s' is a reserved keyword"),
				    d->name);
			st = check_dims(cx, sc, d->dims, in_struct);
			if (st != TV_OK)
				return st;
			f = wrap_dims(cx, d == s->decls ? base :
			    tsdl_fc_copy(cx, base), d->dims);
			st = check_limits(cx, f, d->line, d->col);
			if (st == TV_OK)
				st = sym_add(cx, sc, TSDL_SYM_ALIAS, d->name,
				    f, d->line, d->col);
			if (st != TV_OK)
				return st;
		}
		return TV_OK;
	}
	return TV_OK;	/* bare definition: building it named it */
}
