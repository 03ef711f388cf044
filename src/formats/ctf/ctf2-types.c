/*
 * CTF 2 field classes to the driver's field model: every JSON field class
 * becomes a tv_field_class the CTF 1.8 decoder reads (booleans and bit
 * arrays are unsigned integers, BLOBs byte arrays, optionals two-option
 * variants), and every field location becomes a save slot, resolved while
 * the scope is built so that only fields decoded before are reachable.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "ctf2.h"

/* Every class built here: the public class, and what CTF 2 said it was. */
enum c2_kind {
	C2_OTHER,
	C2_INT,			/* fixed or variable-length integer */
	C2_BOOL,
	C2_BITS,		/* bit array, bit map */
};

struct c2_fc {
	struct tv_field_class	 fc;
	uint8_t			 kind;		/* enum c2_kind */
};

/* A new class of @kind (tv_field_class_create's defaults). */
static struct tv_field_class *
new_fc(struct ctf2_ctx *cx, enum tv_fc_kind kind, enum c2_kind ck)
{
	struct c2_fc *f = tv_arena_zalloc(cx->a, sizeof(*f));

	f->fc.kind = kind;
	f->fc.align = 1;
	f->fc.save_slot = -1;
	if (kind == TV_FC_VARIANT)
		f->fc.variant.tag_slot = -1;
	if (kind == TV_FC_SEQUENCE)
		f->fc.array.length_slot = -1;
	if (kind == TV_FC_STRING)
		f->fc.string.length_slot = -1;
	f->kind = (uint8_t)ck;
	cx->nodes++;
	return &f->fc;
}

static enum tv_status build_fc(struct ctf2_ctx *cx, json_object *j,
    struct tv_field_class **out);

/* Build member @key of @o as a field class. */
static enum tv_status
build_member_fc(struct ctf2_ctx *cx, json_object *o, const char *key,
    struct tv_field_class **out)
{
	json_object *v = NULL;
	enum tv_status st;

	if (!json_object_object_get_ex(o, key, &v))
		return ctf2_fail(cx, TV_SEMANTIC,
		    _("missing mandatory property \"%s\""), key);
	ctf2_push_key(cx, key);
	st = build_fc(cx, v, out);
	ctf2_pop(cx);
	return st;
}

/* "alignment" / "minimum-alignment": a power of two, 1 if absent. */
static enum tv_status
get_align(struct ctf2_ctx *cx, json_object *o, const char *key,
    uint32_t *out)
{
	uint64_t a = 1;
	enum tv_status st;

	st = ctf2_get_uint(cx, o, key, false, &a);
	if (st != TV_OK)
		return st;
	if (a == 0 || (a & (a - 1)) || a > (UINT64_C(1) << 31)) {
		ctf2_push_key(cx, key);
		st = ctf2_fail(cx, TV_SEMANTIC,
		    _("alignment %llu is not a power of two"),
		    (unsigned long long)a);
		ctf2_pop(cx);
		return st;
	}
	*out = (uint32_t)a;
	return TV_OK;
}

/* "byte-order" and "bit-order" of a fixed-length class. */
static enum tv_status
get_byte_order(struct ctf2_ctx *cx, json_object *o, enum tv_byte_order *bo)
{
	const char *s = NULL, *bit = NULL;
	enum tv_status st;

	st = ctf2_get_str(cx, o, "byte-order", true, &s);
	if (st != TV_OK)
		return st;
	if (strcmp(s, "little-endian") == 0) {
		*bo = TV_BO_LE;
	} else if (strcmp(s, "big-endian") == 0) {
		*bo = TV_BO_BE;
	} else {
		ctf2_push_key(cx, "byte-order");
		st = ctf2_fail(cx, TV_SEMANTIC, _("unknown byte order \"%s\""),
		    s);
		ctf2_pop(cx);
		return st;
	}
	st = ctf2_get_str(cx, o, "bit-order", false, &bit);
	if (st != TV_OK || !bit)
		return st;
	ctf2_push_key(cx, "bit-order");
	if (strcmp(bit, "first-to-last") != 0 &&
	    strcmp(bit, "last-to-first") != 0)
		st = ctf2_fail(cx, TV_SEMANTIC, _("unknown bit order \"%s\""),
		    bit);
	else if ((strcmp(bit, "first-to-last") == 0) != (*bo == TV_BO_LE))
		st = ctf2_fail(cx, TV_UNSUPPORTED,
		    _("bit order \"%s\" with byte order \"%s\" is not "
		    "supported"), bit, s);
	ctf2_pop(cx);
	return st;
}

/* The role names of CTF 2 and the driver's roles. */
static const struct {
	const char	*name;
	uint16_t	 role;
	uint8_t		 scope_mask;	/* 1 << tv_scope where allowed */
} roles[] = {
	{ "packet-magic-number", TV_ROLE_MAGIC,
	    1 << TV_SCOPE_PACKET_HEADER },
	{ "metadata-stream-uuid", TV_ROLE_UUID,
	    1 << TV_SCOPE_PACKET_HEADER },
	{ "data-stream-class-id", TV_ROLE_STREAM_ID,
	    1 << TV_SCOPE_PACKET_HEADER },
	{ "data-stream-id", TV_ROLE_STREAM_INSTANCE_ID,
	    1 << TV_SCOPE_PACKET_HEADER },
	{ "packet-total-length", TV_ROLE_PACKET_SIZE,
	    1 << TV_SCOPE_PACKET_CONTEXT },
	{ "packet-content-length", TV_ROLE_CONTENT_SIZE,
	    1 << TV_SCOPE_PACKET_CONTEXT },
	{ "default-clock-timestamp", TV_ROLE_TIMESTAMP,
	    1 << TV_SCOPE_PACKET_CONTEXT | 1 << TV_SCOPE_EVENT_HEADER },
	{ "packet-end-default-clock-timestamp", TV_ROLE_PACKET_END_TS,
	    1 << TV_SCOPE_PACKET_CONTEXT },
	{ "discarded-event-record-counter-snapshot", TV_ROLE_DISCARDED,
	    1 << TV_SCOPE_PACKET_CONTEXT },
	{ "packet-sequence-number", TV_ROLE_SEQ_NUM,
	    1 << TV_SCOPE_PACKET_CONTEXT },
	{ "event-record-class-id", TV_ROLE_EVENT_ID,
	    1 << TV_SCOPE_EVENT_HEADER },
};

/* "roles" of an unsigned integer (or of the UUID BLOB). */
static enum tv_status
get_roles(struct ctf2_ctx *cx, json_object *o, struct tv_field_class *fc,
    struct tv_int_class *ic, bool blob)
{
	json_object *arr = NULL;
	enum tv_status st;
	size_t i, j, n;

	st = ctf2_get_arr(cx, o, "roles", false, &arr);
	if (st != TV_OK || !arr)
		return st;
	ctf2_push_key(cx, "roles");
	n = json_object_array_length(arr);
	for (i = 0; i < n && st == TV_OK; i++) {
		json_object *r = json_object_array_get_idx(arr, i);
		const char *name;

		ctf2_push_index(cx, i);
		if (!json_object_is_type(r, json_type_string)) {
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("a role must be a string"));
			ctf2_pop(cx);
			break;
		}
		name = json_object_get_string(r);
		for (j = 0; j < TV_ARRAY_SIZE(roles); j++)
			if (strcmp(roles[j].name, name) == 0)
				break;
		if (j == TV_ARRAY_SIZE(roles))
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("unknown role \"%s\""), name);
		else if (cx->scope < 0 ||
		    !(roles[j].scope_mask & (1u << cx->scope)))
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("role \"%s\" is not allowed in this scope"),
			    name);
		else if (blob != (roles[j].role == TV_ROLE_UUID))
			st = ctf2_fail(cx, TV_SEMANTIC, blob ?
			    _("a BLOB can only have the role "
			    "\"metadata-stream-uuid\"") :
			    _("role \"%s\" needs a static-length BLOB"),
			    name);
		if (st == TV_OK) {
			fc->role = roles[j].role;
			if (fc->role == TV_ROLE_TIMESTAMP &&
			    cx->scope == TV_SCOPE_PACKET_CONTEXT)
				fc->role = TV_ROLE_PACKET_BEGIN_TS;
			if (fc->role == TV_ROLE_TIMESTAMP ||
			    fc->role == TV_ROLE_PACKET_END_TS) {
				if (!cx->def_clock)
					st = ctf2_fail(cx, TV_SEMANTIC,
					    _("role \"%s\" needs a default "
					    "clock class"), name);
				else if (ic)
					ic->map_clock = cx->def_clock;
			}
		}
		ctf2_pop(cx);
	}
	ctf2_pop(cx);
	return st;
}

/* Integer range sets: [[lo, hi], ...] in @sgn's signedness. */
static enum tv_status
get_ranges(struct ctf2_ctx *cx, json_object *arr, bool sgn,
    struct tv_enum_range **out, uint32_t *nout)
{
	struct tv_enum_range *r;
	enum tv_status st = TV_OK;
	size_t i, n;

	if (!json_object_is_type(arr, json_type_array))
		return ctf2_fail(cx, TV_SEMANTIC,
		    _("an integer range set must be an array"));
	n = json_object_array_length(arr);
	if (n == 0 || n > CTF2_MAX_MEMBERS)
		return ctf2_fail(cx, TV_SEMANTIC, n ?
		    _("too many integer ranges") :
		    _("an integer range set must not be empty"));
	r = tv_arena_zalloc(cx->a, n * sizeof(*r));
	for (i = 0; i < n && st == TV_OK; i++) {
		json_object *p = json_object_array_get_idx(arr, i);
		json_object *lo, *hi;
		int64_t s0 = 0, s1 = 0;

		ctf2_push_index(cx, i);
		if (!json_object_is_type(p, json_type_array) ||
		    json_object_array_length(p) != 2) {
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("an integer range must be [lower, upper]"));
			ctf2_pop(cx);
			break;
		}
		lo = json_object_array_get_idx(p, 0);
		hi = json_object_array_get_idx(p, 1);
		if (sgn) {
			st = ctf2_json_int(cx, lo, &s0);
			if (st == TV_OK)
				st = ctf2_json_int(cx, hi, &s1);
			r[i].lo = (uint64_t)s0;
			r[i].hi = (uint64_t)s1;
			if (st == TV_OK && s0 > s1)
				st = ctf2_fail(cx, TV_SEMANTIC,
				    _("range lower bound is above its upper "
				    "bound"));
		} else {
			st = ctf2_json_uint(cx, lo, &r[i].lo);
			if (st == TV_OK)
				st = ctf2_json_uint(cx, hi, &r[i].hi);
			if (st == TV_OK && r[i].lo > r[i].hi)
				st = ctf2_fail(cx, TV_SEMANTIC,
				    _("range lower bound is above its upper "
				    "bound"));
		}
		ctf2_pop(cx);
	}
	*out = r;
	*nout = (uint32_t)n;
	return st;
}

/* The bit indexes of flag ranges @r[@n] must be below @len. */
static enum tv_status
check_bit_indexes(struct ctf2_ctx *cx, const struct tv_enum_range *r,
    uint32_t n, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (r[i].hi >= len)
			return ctf2_fail(cx, TV_SEMANTIC, _("bit index %llu is "
			    "not below the length %u"),
			    (unsigned long long)r[i].hi, len);
	return TV_OK;
}

/*
 * "mappings": { label: ranges, ... } turn integer @fc into an enum;
 * "flags" (@bits): { name: bit index ranges, ... } turn bit map @fc into
 * an enum of bit flags.
 */
static enum tv_status
get_mappings(struct ctf2_ctx *cx, json_object *o, struct tv_field_class *fc,
    bool bits)
{
	const char *key = bits ? "flags" : "mappings";
	struct tv_int_class ic = fc->integer;
	struct tv_enum_mapping *maps;
	json_object *m = NULL;
	enum tv_status st;
	uint32_t n = 0;

	st = ctf2_get_obj(cx, o, key, bits, &m);
	if (st != TV_OK || !m)
		return st;
	if ((uint32_t)json_object_object_length(m) > CTF2_MAX_MEMBERS)
		return ctf2_fail(cx, TV_SEMANTIC, _("too many mappings"));
	ctf2_push_key(cx, key);
	if (bits && json_object_object_length(m) == 0) {
		st = ctf2_fail(cx, TV_SEMANTIC, _("a bit map needs at least "
		    "one flag"));
		ctf2_pop(cx);
		return st;
	}
	maps = tv_arena_zalloc(cx->a, ((size_t)json_object_object_length(m)
	    + 1) * sizeof(*maps));
	json_object_object_foreach(m, label, val) {
		ctf2_push_key(cx, label);
		maps[n].label = tv_arena_strdup(cx->a, label);
		st = get_ranges(cx, val, ic.is_signed, &maps[n].ranges,
		    &maps[n].nranges);
		if (st == TV_OK && bits)
			st = check_bit_indexes(cx, maps[n].ranges,
			    maps[n].nranges, ic.size);
		ctf2_pop(cx);
		if (st != TV_OK)
			break;
		n++;
	}
	ctf2_pop(cx);
	if (st != TV_OK)
		return st;
	fc->kind = TV_FC_ENUM;
	fc->enumeration.integer = ic;
	fc->enumeration.maps = maps;
	fc->enumeration.nmaps = n;
	fc->enumeration.bit_flags = bits;
	return TV_OK;
}

/* The integer-like classes: fixed/variable-length integers, booleans... */
static enum tv_status
build_int(struct ctf2_ctx *cx, json_object *o, const char *type,
    struct tv_field_class **out)
{
	bool varlen = strncmp(type, "variable-length-", 16) == 0;
	bool sgn = strstr(type, "-signed-") != NULL;
	bool enm = strstr(type, "-enumeration") != NULL;
	bool is_int = enm || strstr(type, "-integer") != NULL;
	enum c2_kind ck = is_int ? C2_INT :
	    strstr(type, "boolean") ? C2_BOOL : C2_BITS;
	struct tv_field_class *fc = new_fc(cx, TV_FC_INT, ck);
	struct tv_int_class *ic = &fc->integer;
	enum tv_status st;
	uint64_t len = 64, base = ck == C2_BITS ? 16 : 10;

	ic->is_signed = sgn;
	ic->varlen = varlen;
	if (varlen) {
		fc->align = 8;
	} else {
		st = ctf2_get_uint(cx, o, "length", true, &len);
		if (st == TV_OK && (len == 0 || len > 64)) {
			ctf2_push_key(cx, "length");
			st = ctf2_fail(cx, len ? TV_UNSUPPORTED : TV_SEMANTIC,
			    len ? _("fixed-length fields of more than 64 bits "
			    "are not supported") :
			    _("length must be at least 1"));
			ctf2_pop(cx);
		}
		if (st == TV_OK)
			st = get_byte_order(cx, o, &ic->byte_order);
		if (st == TV_OK)
			st = get_align(cx, o, "alignment", &fc->align);
		if (st != TV_OK)
			return st;
	}
	ic->size = (uint32_t)len;
	if (is_int) {
		st = ctf2_get_uint(cx, o, "preferred-display-base", false,
		    &base);
		if (st != TV_OK)
			return st;
		if (base != 2 && base != 8 && base != 10 && base != 16) {
			ctf2_push_key(cx, "preferred-display-base");
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("display base must be 2, 8, 10 or 16"));
			ctf2_pop(cx);
			return st;
		}
	}
	ic->base = (uint8_t)base;
	if (is_int && !sgn) {
		st = get_roles(cx, o, fc, ic, false);
		if (st != TV_OK)
			return st;
	} else if (json_object_object_get_ex(o, "roles", NULL)) {
		ctf2_push_key(cx, "roles");
		st = ctf2_fail(cx, TV_SEMANTIC,
		    _("only unsigned integers and BLOBs have roles"));
		ctf2_pop(cx);
		return st;
	}
	if (strcmp(type, "fixed-length-bit-map") == 0) {
		st = get_mappings(cx, o, fc, true);
		if (st != TV_OK)
			return st;
	}
	if (is_int) {
		st = get_mappings(cx, o, fc, false);
		if (st != TV_OK)
			return st;
		if (enm && fc->kind != TV_FC_ENUM)
			return ctf2_fail(cx, TV_SEMANTIC,
			    _("missing mandatory property \"%s\""),
			    "mappings");
	}
	*out = fc;
	return TV_OK;
}

/* fixed-length-floating-point-number */
static enum tv_status
build_float(struct ctf2_ctx *cx, json_object *o, struct tv_field_class **out)
{
	struct tv_field_class *fc = new_fc(cx, TV_FC_FLOAT, C2_OTHER);
	enum tv_status st;
	uint64_t len = 0;

	st = ctf2_get_uint(cx, o, "length", true, &len);
	if (st == TV_OK && len != 16 && len != 32 && len != 64 && len != 128) {
		ctf2_push_key(cx, "length");
		st = ctf2_fail(cx, TV_SEMANTIC,
		    _("a floating point number has 16, 32, 64 or 128 bits"));
		ctf2_pop(cx);
	}
	if (st == TV_OK)
		st = get_byte_order(cx, o, &fc->flt.byte_order);
	if (st == TV_OK)
		st = get_align(cx, o, "alignment", &fc->align);
	/* IEEE 754 binary16/32/64/128: exponent and significand digits. */
	fc->flt.exp_dig = len == 16 ? 5 : len == 32 ? 8 : len == 64 ? 11 : 15;
	fc->flt.mant_dig = (uint32_t)len - fc->flt.exp_dig;
	*out = fc;
	return st;
}

/* An origin name of a field location: its scope, or -1. */
static int
origin_scope(const char *s)
{
	static const char *const names[TV_SCOPE_COUNT] = {
		"packet-header", "packet-context", "event-record-header",
		"event-record-common-context",
		"event-record-specific-context", "event-record-payload",
	};
	int i;

	for (i = 0; i < TV_SCOPE_COUNT; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

/* Member @name among the members of struct @fc built so far. */
static struct tv_field_class *
member_of(struct tv_field_class *fc, const char *name)
{
	uint32_t i;

	for (i = 0; fc && fc->kind == TV_FC_STRUCT &&
	    i < fc->structure.nmembers; i++)
		if (fc->structure.members[i].fc &&
		    strcmp(fc->structure.members[i].name, name) == 0)
			return fc->structure.members[i].fc;
	return NULL;
}

/* Step into arrays and optionals, which a location passes through. */
static struct tv_field_class *
through(struct tv_field_class *fc)
{
	uint32_t n = 0;

	while (fc && n++ < CTF2_MAX_FC_DEPTH) {
		if (fc->kind == TV_FC_ARRAY || fc->kind == TV_FC_SEQUENCE)
			fc = fc->array.elem;
		else if (fc->kind == TV_FC_VARIANT &&
		    fc->variant.noptions == 2 && fc->variant.options[0].fc &&
		    fc->variant.options[0].fc->kind == TV_FC_STRUCT &&
		    fc->variant.options[0].fc->structure.nmembers == 0)
			fc = fc->variant.options[1].fc;	/* an optional */
		else
			break;
	}
	return fc;
}

/* Find @name in @fc, or in any option of variant @fc that holds it. */
static struct tv_field_class *
lookup(struct tv_field_class *fc, const char *name)
{
	struct tv_field_class *r;
	uint32_t i;

	fc = through(fc);
	if (!fc)
		return NULL;
	if (fc->kind == TV_FC_STRUCT)
		return member_of(fc, name);
	if (fc->kind != TV_FC_VARIANT)
		return NULL;
	for (i = 0; i < fc->variant.noptions; i++)
		if ((r = lookup(fc->variant.options[i].fc, name)) != NULL)
			return r;
	return NULL;
}

/*
 * Resolve field location member @key of @o to the integer it names and
 * give that integer a save slot.  Forms: {"origin": O, "path": [...]}
 * (CTF 2; no origin: relative to the enclosing structure, null going one
 * structure out) and [O, name, ...] (the release candidates).  Only
 * fields built before are reachable: later ones are not built yet.
 */
static enum tv_status
resolve_location(struct ctf2_ctx *cx, json_object *o, const char *key,
    struct tv_field_class **target, int32_t *slot)
{
	json_object *loc = NULL, *path = NULL, *org = NULL;
	struct tv_field_class *cur = NULL;
	enum tv_status st;
	size_t i = 0, n;
	int scope = -1;
	uint32_t up;

	*target = NULL;
	if (!json_object_object_get_ex(o, key, &loc))
		return ctf2_fail(cx, TV_SEMANTIC,
		    _("missing mandatory property \"%s\""), key);
	ctf2_push_key(cx, key);
	if (json_object_is_type(loc, json_type_array)) {
		path = loc;
		if (json_object_array_length(path) < 1 ||
		    !json_object_is_type(json_object_array_get_idx(path, 0),
		    json_type_string)) {
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("a field location needs an origin"));
			goto out;
		}
		org = json_object_array_get_idx(path, 0);
		i = 1;
	} else if (json_object_is_type(loc, json_type_object)) {
		if (!json_object_object_get_ex(loc, "path", &path) ||
		    !json_object_is_type(path, json_type_array)) {
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("a field location needs a \"path\" array"));
			goto out;
		}
		json_object_object_get_ex(loc, "origin", &org);
		if (org && !json_object_is_type(org, json_type_string)) {
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("a field location origin must be a string"));
			goto out;
		}
	} else {
		st = ctf2_fail(cx, TV_SEMANTIC,
		    _("a field location must be an object"));
		goto out;
	}
	n = json_object_array_length(path);
	if (cx->scope < 0) {
		/* Checking a field class alias: no scope to look in. */
		st = TV_OK;
		goto out;
	}
	up = cx->nouter;
	if (org) {
		scope = origin_scope(json_object_get_string(org));
		if (scope < 0) {
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("unknown field location origin \"%s\""),
			    json_object_get_string(org));
			goto out;
		}
		if (scope > cx->scope) {
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("field location origin \"%s\" is a later "
			    "scope"), json_object_get_string(org));
			goto out;
		}
		cur = cx->roots[scope];
	} else {
		cur = up ? cx->outer[up - 1] : NULL;
	}
	if (i == n) {
		st = ctf2_fail(cx, TV_SEMANTIC,
		    _("a field location path must not be empty"));
		goto out;
	}
	for (; i < n; i++) {
		json_object *e = json_object_array_get_idx(path, i);

		if (!e && !org) {
			/* null: the structure enclosing this one. */
			if (up <= 1) {
				st = ctf2_fail(cx, TV_SEMANTIC,
				    _("field location goes out of its scope"));
				goto out;
			}
			cur = cx->outer[--up - 1];
			continue;
		}
		if (!e || !json_object_is_type(e, json_type_string)) {
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("a field location path element must be a "
			    "string"));
			goto out;
		}
		cur = lookup(cur, json_object_get_string(e));
		if (!cur) {
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("field location: no field \"%s\" before this "
			    "one"), json_object_get_string(e));
			goto out;
		}
	}
	if (cur->kind != TV_FC_INT && cur->kind != TV_FC_ENUM) {
		st = ctf2_fail(cx, TV_SEMANTIC,
		    _("field location does not name an integer or boolean"));
		goto out;
	}
	if (cur->save_slot < 0) {
		if (cx->tc->nslots >= CTF2_MAX_SLOTS) {
			st = ctf2_fail(cx, TV_UNSUPPORTED,
			    _("too many field locations"));
			goto out;
		}
		cur->save_slot = (int32_t)cx->tc->nslots++;
	}
	*target = cur;
	*slot = cur->save_slot;
	st = TV_OK;
out:
	ctf2_pop(cx);
	return st;
}

/* Is @fc an unsigned integer (what a length location must name)? */
static bool
is_uint(const struct tv_field_class *fc)
{
	if (((const struct c2_fc *)(const void *)fc)->kind != C2_INT)
		return false;	/* a boolean, bit array or bit map */
	return fc->kind == TV_FC_INT ? !fc->integer.is_signed :
	    fc->kind == TV_FC_ENUM && !fc->enumeration.integer.is_signed;
}

/* A length location: an unsigned integer's save slot (-1 in an alias). */
static enum tv_status
length_location(struct ctf2_ctx *cx, json_object *o, int32_t *slot)
{
	struct tv_field_class *t;
	enum tv_status st;

	*slot = -1;
	st = resolve_location(cx, o, "length-field-location", &t, slot);
	if (st == TV_OK && t && !is_uint(t)) {
		ctf2_push_key(cx, "length-field-location");
		st = ctf2_fail(cx, TV_SEMANTIC,
		    _("a length field must be an unsigned integer"));
		ctf2_pop(cx);
	}
	return st;
}

/* Strings: null-terminated, static-length, dynamic-length. */
static enum tv_status
build_string(struct ctf2_ctx *cx, json_object *o, const char *type,
    struct tv_field_class **out)
{
	static const struct {
		const char		*name;
		enum tv_encoding	 enc;
		enum tv_byte_order	 bo;
	} encs[] = {
		{ "utf-8", TV_ENC_UTF8, TV_BO_LE },
		{ "utf-16le", TV_ENC_UTF16, TV_BO_LE },
		{ "utf-16be", TV_ENC_UTF16, TV_BO_BE },
		{ "utf-32le", TV_ENC_UTF32, TV_BO_LE },
		{ "utf-32be", TV_ENC_UTF32, TV_BO_BE },
	};
	struct tv_field_class *fc = new_fc(cx, TV_FC_STRING, C2_OTHER);
	const char *enc = "utf-8";
	enum tv_status st;
	size_t i;

	st = ctf2_get_str(cx, o, "encoding", false, &enc);
	if (st != TV_OK)
		return st;
	for (i = 0; i < TV_ARRAY_SIZE(encs); i++)
		if (strcmp(enc, encs[i].name) == 0)
			break;
	if (i == TV_ARRAY_SIZE(encs)) {
		ctf2_push_key(cx, "encoding");
		st = ctf2_fail(cx, TV_SEMANTIC, _("unknown encoding \"%s\""),
		    enc);
		ctf2_pop(cx);
		return st;
	}
	fc->string.encoding = encs[i].enc;
	fc->string.byte_order = encs[i].bo;
	fc->align = 8;
	if (strcmp(type, "static-length-string") == 0) {
		fc->string.len_kind = TV_STR_STATIC;
		st = ctf2_get_uint(cx, o, "length", true, &fc->string.length);
		if (st == TV_OK && fc->string.length >= CTF2_MAX_LENGTH) {
			ctf2_push_key(cx, "length");
			st = ctf2_fail(cx, TV_UNSUPPORTED,
			    _("length %llu is too large"),
			    (unsigned long long)fc->string.length);
			ctf2_pop(cx);
		}
	} else if (strcmp(type, "dynamic-length-string") == 0) {
		fc->string.len_kind = TV_STR_DYNAMIC;
		st = length_location(cx, o, &fc->string.length_slot);
	}
	*out = fc;
	return st;
}

/* A byte element for BLOBs: 8-bit unsigned, shown in hexadecimal. */
static struct tv_field_class *
blob_byte(struct ctf2_ctx *cx)
{
	struct tv_field_class *e = new_fc(cx, TV_FC_INT, C2_OTHER);

	e->align = 8;
	e->integer.size = 8;
	e->integer.base = 16;
	return e;
}

/* Arrays and BLOBs, static or dynamic length. */
static enum tv_status
build_array(struct ctf2_ctx *cx, json_object *o, const char *type,
    struct tv_field_class **out)
{
	bool dyn = strncmp(type, "dynamic-", 8) == 0;
	bool blob = strstr(type, "blob") != NULL;
	struct tv_field_class *fc = new_fc(cx, dyn ? TV_FC_SEQUENCE :
	    TV_FC_ARRAY, C2_OTHER);
	enum tv_status st;

	*out = fc;
	if (blob) {
		fc->array.elem = blob_byte(cx);
		fc->align = 8;
		st = ctf2_get_str(cx, o, "media-type", false,
		    &fc->array.media_type);
		if (st != TV_OK)
			return st;
		if (fc->array.media_type)
			fc->array.media_type = tv_intern(cx->trace->names,
			    fc->array.media_type,
			    strlen(fc->array.media_type));
	} else {
		st = get_align(cx, o, "minimum-alignment", &fc->align);
		if (st == TV_OK)
			st = build_member_fc(cx, o, "element-field-class",
			    &fc->array.elem);
		if (st != TV_OK)
			return st;
	}
	if (dyn)
		return length_location(cx, o, &fc->array.length_slot);
	st = ctf2_get_uint(cx, o, "length", true, &fc->array.length);
	if (st == TV_OK && fc->array.length >= CTF2_MAX_LENGTH) {
		ctf2_push_key(cx, "length");
		st = ctf2_fail(cx, TV_UNSUPPORTED,
		    _("length %llu is too large"),
		    (unsigned long long)fc->array.length);
		ctf2_pop(cx);
	}
	if (st == TV_OK && blob) {
		st = get_roles(cx, o, fc, NULL, true);
		if (st == TV_OK && fc->role == TV_ROLE_UUID &&
		    fc->array.length != 16)
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("a metadata stream UUID has 16 bytes"));
	}
	return st;
}

/* structure: member-classes in order, names unique. */
static enum tv_status
build_struct(struct ctf2_ctx *cx, json_object *o, struct tv_field_class **out)
{
	struct tv_field_class *fc = new_fc(cx, TV_FC_STRUCT, C2_OTHER);
	json_object *mem = NULL, *names;
	enum tv_status st;
	size_t i, n;

	*out = fc;
	st = get_align(cx, o, "minimum-alignment", &fc->align);
	if (st == TV_OK)
		st = ctf2_get_arr(cx, o, "member-classes", false, &mem);
	if (st != TV_OK || !mem)
		return st;
	n = json_object_array_length(mem);
	if (n > CTF2_MAX_MEMBERS)
		return ctf2_fail(cx, TV_UNSUPPORTED, _("too many members"));
	fc->structure.members = tv_arena_zalloc(cx->a, (n + 1) *
	    sizeof(*fc->structure.members));
	if (cx->scope >= 0 && cx->nouter == 0)
		cx->roots[cx->scope] = fc;
	cx->outer[cx->nouter++] = fc;
	names = json_object_new_object();	/* a set: O(1) per name */
	ctf2_push_key(cx, "member-classes");
	for (i = 0; i < n && st == TV_OK; i++) {
		json_object *m = json_object_array_get_idx(mem, i);
		struct tv_field_member *fm = &fc->structure.members[i];
		const char *name = NULL;

		ctf2_push_index(cx, i);
		if (!json_object_is_type(m, json_type_object)) {
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("a member class must be an object"));
		} else {
			st = ctf2_get_str(cx, m, "name", true, &name);
			if (st == TV_OK && names &&
			    json_object_object_get_ex(names, name, NULL))
				st = ctf2_fail(cx, TV_SEMANTIC,
				    _("duplicate member name \"%s\""), name);
			else if (st == TV_OK && names)
				json_object_object_add(names, name, NULL);
			if (st == TV_OK) {
				fm->name = tv_intern(cx->trace->names, name,
				    strlen(name));
				st = build_member_fc(cx, m, "field-class",
				    &fm->fc);
			}
			if (st == TV_OK)
				fc->structure.nmembers++;
		}
		ctf2_pop(cx);
	}
	ctf2_pop(cx);
	json_object_put(names);
	cx->nouter--;
	return st;
}

/* A synthetic enum over the selector's layout: one mapping per option. */
static struct tv_field_class *
tag_enum(struct ctf2_ctx *cx, const struct tv_field_class *sel,
    uint32_t nmaps)
{
	struct tv_field_class *t = new_fc(cx, TV_FC_ENUM, C2_OTHER);

	t->enumeration.integer = sel->kind == TV_FC_INT ? sel->integer :
	    sel->enumeration.integer;
	t->enumeration.integer.map_clock = NULL;
	t->enumeration.maps = tv_arena_zalloc(cx->a, (nmaps + 1) *
	    sizeof(*t->enumeration.maps));
	t->enumeration.nmaps = nmaps;
	return t;
}

/* Is the selector @fc signed? */
static bool
sel_signed(const struct tv_field_class *fc)
{
	return fc->kind == TV_FC_INT ? fc->integer.is_signed :
	    fc->enumeration.integer.is_signed;
}

/* A selector range and its option, to find overlaps by sorting. */
struct opt_range {
	uint64_t	 lo, hi;
	uint32_t	 opt;
	bool		 sgn;
};

/* qsort order of option ranges: by lower bound. */
static int
cmp_range(const void *a, const void *b)
{
	const struct opt_range *x = a, *y = b;

	if (x->sgn)
		return (int64_t)x->lo < (int64_t)y->lo ? -1 :
		    (int64_t)x->lo > (int64_t)y->lo;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Two options of variant @fc (tag @tag) whose ranges overlap: an error. */
static enum tv_status
check_overlap(struct ctf2_ctx *cx, const struct tv_field_class *tag)
{
	bool sgn = tag->enumeration.integer.is_signed;
	struct opt_range *r;
	size_t n = 0, i, j;
	enum tv_status st = TV_OK;

	for (i = 0; i < tag->enumeration.nmaps; i++)
		n += tag->enumeration.maps[i].nranges;
	r = tv_xcalloc(n ? n : 1, sizeof(*r));
	for (i = 0, n = 0; i < tag->enumeration.nmaps; i++)
		for (j = 0; j < tag->enumeration.maps[i].nranges; j++) {
			r[n].lo = tag->enumeration.maps[i].ranges[j].lo;
			r[n].hi = tag->enumeration.maps[i].ranges[j].hi;
			r[n].opt = (uint32_t)i;
			r[n++].sgn = sgn;
		}
	qsort(r, n, sizeof(*r), cmp_range);
	for (i = 1; i < n && st == TV_OK; i++) {
		bool over = sgn ? (int64_t)r[i].lo <= (int64_t)r[i - 1].hi :
		    r[i].lo <= r[i - 1].hi;

		if (over && r[i].opt != r[i - 1].opt)
			st = ctf2_fail(cx, TV_SEMANTIC, _("the selector ranges "
			    "of options %u and %u overlap"),
			    TV_MIN(r[i].opt, r[i - 1].opt),
			    TV_MAX(r[i].opt, r[i - 1].opt));
		/* Keep the farthest upper bound for the next comparison. */
		if (sgn ? (int64_t)r[i].hi < (int64_t)r[i - 1].hi :
		    r[i].hi < r[i - 1].hi) {
			r[i].hi = r[i - 1].hi;
			r[i].opt = r[i - 1].opt;
		}
	}
	free(r);
	return st;
}

/* variant: options chosen by the selector's value ranges. */
static enum tv_status
build_variant(struct ctf2_ctx *cx, json_object *o, struct tv_field_class **out)
{
	struct tv_field_class *fc = new_fc(cx, TV_FC_VARIANT, C2_OTHER);
	struct tv_field_class *sel = NULL, *tag = NULL;
	json_object *opts = NULL;
	enum tv_status st;
	size_t i, n;

	*out = fc;
	st = resolve_location(cx, o, "selector-field-location", &sel,
	    &fc->variant.tag_slot);
	if (st == TV_OK && sel && (((struct c2_fc *)(void *)sel)->kind ==
	    C2_BOOL || ((struct c2_fc *)(void *)sel)->kind == C2_BITS)) {
		ctf2_push_key(cx, "selector-field-location");
		st = ctf2_fail(cx, TV_SEMANTIC,
		    _("a variant selector must be an integer"));
		ctf2_pop(cx);
	}
	if (st == TV_OK)
		st = ctf2_get_arr(cx, o, "options", true, &opts);
	if (st != TV_OK)
		return st;
	n = json_object_array_length(opts);
	if (n == 0 || n > CTF2_MAX_MEMBERS)
		return ctf2_fail(cx, TV_SEMANTIC, n ? _("too many options") :
		    _("a variant needs at least one option"));
	fc->variant.options = tv_arena_zalloc(cx->a, n *
	    sizeof(*fc->variant.options));
	fc->variant.opt_of_map = tv_arena_zalloc(cx->a, n * sizeof(int32_t));
	if (sel)
		tag = tag_enum(cx, sel, (uint32_t)n);
	ctf2_push_key(cx, "options");
	for (i = 0; i < n && st == TV_OK; i++) {
		json_object *op = json_object_array_get_idx(opts, i), *r;
		const char *name = NULL;

		ctf2_push_index(cx, i);
		if (!json_object_is_type(op, json_type_object)) {
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("a variant option must be an object"));
			ctf2_pop(cx);
			break;
		}
		st = ctf2_get_str(cx, op, "name", false, &name);
		if (st == TV_OK && !json_object_object_get_ex(op,
		    "selector-field-ranges", &r))
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("missing mandatory property \"%s\""),
			    "selector-field-ranges");
		if (st == TV_OK && tag) {
			struct tv_enum_mapping *m = &tag->enumeration.maps[i];

			ctf2_push_key(cx, "selector-field-ranges");
			m->label = name ? tv_arena_strdup(cx->a, name) : "";
			st = get_ranges(cx, r, sel_signed(sel), &m->ranges,
			    &m->nranges);
			ctf2_pop(cx);
		}
		if (st == TV_OK) {
			fc->variant.options[i].name = name ?
			    tv_intern(cx->trace->names, name, strlen(name)) :
			    "";
			fc->variant.opt_of_map[i] = (int32_t)i;
			st = build_member_fc(cx, op, "field-class",
			    &fc->variant.options[i].fc);
		}
		if (st == TV_OK)
			fc->variant.noptions++;
		ctf2_pop(cx);
	}
	ctf2_pop(cx);
	fc->variant.tag_fc = tag;
	if (st == TV_OK && tag)
		st = check_overlap(cx, tag);
	return st;
}

/*
 * optional: a two-option variant, an empty structure when the selector
 * (a boolean, or an integer in selector-field-ranges) says "absent".
 */
static enum tv_status
build_optional(struct ctf2_ctx *cx, json_object *o,
    struct tv_field_class **out)
{
	struct tv_field_class *fc = new_fc(cx, TV_FC_VARIANT, C2_OTHER);
	struct tv_field_class *sel = NULL, *tag = NULL;
	struct tv_enum_mapping *m;
	json_object *r = NULL;
	enum tv_status st;
	bool is_bool;

	*out = fc;
	fc->variant.options = tv_arena_zalloc(cx->a, 2 *
	    sizeof(*fc->variant.options));
	fc->variant.opt_of_map = tv_arena_zalloc(cx->a, 2 * sizeof(int32_t));
	fc->variant.options[0].name = "";
	fc->variant.options[0].fc = new_fc(cx, TV_FC_STRUCT, C2_OTHER);
	fc->variant.options[1].name = "";
	fc->variant.opt_of_map[0] = 1;
	fc->variant.opt_of_map[1] = 0;
	st = resolve_location(cx, o, "selector-field-location", &sel,
	    &fc->variant.tag_slot);
	if (st != TV_OK)
		return st;
	json_object_object_get_ex(o, "selector-field-ranges", &r);
	is_bool = sel && ((struct c2_fc *)(void *)sel)->kind == C2_BOOL;
	if (sel && !is_bool && !r)
		return ctf2_fail(cx, TV_SEMANTIC,
		    _("an optional with an integer selector needs "
		    "\"selector-field-ranges\""));
	if (sel && is_bool && r)
		return ctf2_fail(cx, TV_SEMANTIC,
		    _("an optional with a boolean selector has no "
		    "\"selector-field-ranges\""));
	if (sel && ((struct c2_fc *)(void *)sel)->kind == C2_BITS)
		return ctf2_fail(cx, TV_SEMANTIC,
		    _("an optional selector must be a boolean or an "
		    "integer"));
	if (sel) {
		/* Mapping 0 (present) first: it wins where both match. */
		tag = tag_enum(cx, sel, 2);
		m = tag->enumeration.maps;
		m[0].label = "present";
		m[1].label = "absent";
		m[1].ranges = tv_arena_zalloc(cx->a, sizeof(*m[1].ranges));
		m[1].nranges = 1;
		if (sel_signed(sel)) {
			m[1].ranges[0].lo = (uint64_t)INT64_MIN;
			m[1].ranges[0].hi = (uint64_t)INT64_MAX;
		} else {
			m[1].ranges[0].hi = UINT64_MAX;
		}
		if (is_bool) {
			m[0].ranges = tv_arena_zalloc(cx->a,
			    sizeof(*m[0].ranges));
			m[0].nranges = 1;
			m[0].ranges[0].lo = 1;
			m[0].ranges[0].hi = UINT64_MAX;
		} else {
			ctf2_push_key(cx, "selector-field-ranges");
			st = get_ranges(cx, r, sel_signed(sel), &m[0].ranges,
			    &m[0].nranges);
			ctf2_pop(cx);
			if (st != TV_OK)
				return st;
		}
	}
	st = build_member_fc(cx, o, "field-class", &fc->variant.options[1].fc);
	fc->variant.noptions = 2;
	fc->variant.tag_fc = tag;
	return st;
}

/* The field class types and their builders. */
static enum tv_status
build_typed(struct ctf2_ctx *cx, json_object *j, const char *type,
    struct tv_field_class **out)
{
	static const char *const ints[] = {
		"fixed-length-bit-array", "fixed-length-bit-map",
		"fixed-length-boolean",
		"fixed-length-unsigned-integer", "fixed-length-signed-integer",
		"fixed-length-unsigned-enumeration",
		"fixed-length-signed-enumeration",
		"variable-length-unsigned-integer",
		"variable-length-signed-integer",
		"variable-length-unsigned-enumeration",
		"variable-length-signed-enumeration",
	};
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(ints); i++)
		if (strcmp(type, ints[i]) == 0)
			return build_int(cx, j, type, out);
	if (strcmp(type, "fixed-length-floating-point-number") == 0)
		return build_float(cx, j, out);
	if (strcmp(type, "null-terminated-string") == 0 ||
	    strcmp(type, "static-length-string") == 0 ||
	    strcmp(type, "dynamic-length-string") == 0)
		return build_string(cx, j, type, out);
	if (strcmp(type, "static-length-blob") == 0 ||
	    strcmp(type, "dynamic-length-blob") == 0 ||
	    strcmp(type, "static-length-array") == 0 ||
	    strcmp(type, "dynamic-length-array") == 0)
		return build_array(cx, j, type, out);
	if (strcmp(type, "structure") == 0)
		return build_struct(cx, j, out);
	if (strcmp(type, "variant") == 0)
		return build_variant(cx, j, out);
	if (strcmp(type, "optional") == 0)
		return build_optional(cx, j, out);
	return ctf2_fail(cx, TV_SEMANTIC, _("unknown type \"%s\""), type);
}

/* A field class: an object with a "type", or the name of an alias. */
static enum tv_status
build_fc(struct ctf2_ctx *cx, json_object *j, struct tv_field_class **out)
{
	const char *type = NULL;
	enum tv_status st;

	*out = NULL;
	if (cx->nodes >= CTF2_MAX_NODES)
		return ctf2_fail(cx, TV_UNSUPPORTED,
		    _("more than %u field classes"), CTF2_MAX_NODES);
	if (cx->fc_depth >= CTF2_MAX_FC_DEPTH)
		return ctf2_fail(cx, TV_UNSUPPORTED,
		    _("field classes nested more than %u deep"),
		    CTF2_MAX_FC_DEPTH);
	if (json_object_is_type(j, json_type_string)) {
		const char *name = json_object_get_string(j);

		if (!cx->aliases ||
		    !json_object_object_get_ex(cx->aliases, name, &j))
			return ctf2_fail(cx, TV_SEMANTIC,
			    _("unknown field class alias \"%s\""), name);
	}
	if (!json_object_is_type(j, json_type_object))
		return ctf2_fail(cx, TV_SEMANTIC,
		    _("a field class must be an object or an alias name"));
	st = ctf2_get_str(cx, j, "type", true, &type);
	if (st == TV_OK)
		st = ctf2_extensions_check(cx, j);
	if (st != TV_OK)
		return st;
	cx->fc_depth++;
	st = build_typed(cx, j, type, out);
	cx->fc_depth--;
	return st;
}

/* Build @o.<@key> outside any scope, to check an alias (see ctf2.h). */
enum tv_status
ctf2_fc_check(struct ctf2_ctx *cx, json_object *o, const char *key)
{
	struct tv_field_class *fc;

	cx->scope = -1;
	cx->nouter = 0;
	return build_member_fc(cx, o, key, &fc);
}

/* Build the scope class @o.<@key> (see ctf2.h); NULL when absent. */
enum tv_status
ctf2_scope_build(struct ctf2_ctx *cx, json_object *o, const char *key,
    int scope, struct tv_field_class **out)
{
	json_object *v = NULL;
	enum tv_status st;

	*out = NULL;
	if (scope >= 0)
		cx->roots[scope] = NULL;	/* no stale root of a sibling */
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return TV_OK;
	cx->scope = scope;
	cx->nouter = 0;
	if (scope >= 0)
		cx->roots[scope] = NULL;
	ctf2_push_key(cx, key);
	st = build_fc(cx, v, out);
	if (st == TV_OK && *out && (*out)->kind != TV_FC_STRUCT)
		st = ctf2_fail(cx, TV_SEMANTIC,
		    _("a scope field class must be a structure"));
	ctf2_pop(cx);
	if (scope >= 0)
		cx->roots[scope] = *out;
	return st;
}
