/*
 * TSDL path resolution: the length of a sequence and the tag of a
 * variant name a field by a relative or absolute path ("len",
 * "event.fields.len", "stream.packet.context.x"); each resolves to the
 * save slot the decoder fills, and a variant's options to its tag's enum
 * labels.  Also checks a struct definition on its own.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tsdl-model.h"

#define TSDL_MAX_SLOTS		(1 << 20)

/* One enclosing struct and the member being resolved in it. */
struct frame {
	struct tv_field_class	*sfc;
	uint32_t		 idx;
};

struct resolver {
	struct tsdl_ctx		*cx;
	const struct tsdl_scopes	*scopes;
	int			 cur;		/* enum tv_scope */
	struct frame		 stack[2 * TSDL_MAX_DEPTH + 8];
	int			 depth;
	/*
	 * Checking a definition, not building: assign nothing, and only
	 * report what is wrong whatever the uses ("not found" is not).
	 */
	bool			 dry;
};

/* Does path component @comp name member @m (escaped or not)? */
static bool
name_matches(const char *member, const char *comp)
{
	return strcmp(member, comp) == 0 ||
	    strcmp(member, tsdl_strip_name(comp)) == 0;
}

/* See tsdl-model.h. */
struct tv_field_class *
tsdl_struct_member(const struct tv_field_class *fc, const char *comp,
    uint32_t limit)
{
	uint32_t i;

	if (!fc || fc->kind != TV_FC_STRUCT)
		return NULL;
	for (i = 0; i < fc->structure.nmembers && i < limit; i++)
		if (name_matches(fc->structure.members[i].name, comp))
			return fc->structure.members[i].fc;
	return NULL;
}

/* Follow the components of @rest ("b.c" or "") down from @fc. */
static struct tv_field_class *
descend(struct tv_field_class *fc, const char *rest)
{
	char comp[256];
	size_t n;

	while (fc && *rest) {
		n = strcspn(rest, ".");
		if (n >= sizeof(comp))
			return NULL;
		memcpy(comp, rest, n);
		comp[n] = '\0';
		fc = tsdl_struct_member(fc, comp, UINT32_MAX);
		rest += n;
		if (*rest == '.')
			rest++;
	}
	return fc;
}

/* Can @fc be a variant tag (@want_enum) or a sequence length? */
static bool
target_ok(const struct tv_field_class *fc, bool want_enum)
{
	if (!fc)
		return false;
	if (want_enum)
		return fc->kind == TV_FC_ENUM;
	if (fc->kind == TV_FC_INT)
		return !fc->integer.is_signed;
	if (fc->kind == TV_FC_ENUM)
		return !fc->enumeration.integer.is_signed;
	return false;
}

/*
 * Find the field @path names, as the spec says: absolute paths from a
 * dynamic scope root; relative ones in the enclosing structs going
 * outward (earlier members only), then in the earlier dynamic scopes.
 */
static enum tv_status
resolve_path(struct resolver *r, const char *path, bool want_enum,
    uint32_t line, uint32_t col, struct tv_field_class **out)
{
	static const struct { const char *prefix; int scope; } abs[] = {
		{ "trace.packet.header.", TV_SCOPE_PACKET_HEADER },
		{ "stream.packet.context.", TV_SCOPE_PACKET_CONTEXT },
		{ "stream.event.header.", TV_SCOPE_EVENT_HEADER },
		{ "stream.event.context.", TV_SCOPE_EVENT_COMMON_CONTEXT },
		{ "event.context.", TV_SCOPE_EVENT_SPECIFIC_CONTEXT },
		{ "event.fields.", TV_SCOPE_EVENT_PAYLOAD },
	};
	struct tv_field_class *fc, *wrong = NULL;
	char first[256];
	const char *rest;
	size_t i, n;
	int d, s;

	for (i = 0; i < TV_ARRAY_SIZE(abs); i++) {
		n = strlen(abs[i].prefix);
		if (strncmp(path, abs[i].prefix, n) == 0) {
			if (r->dry) {
				*out = NULL;
				return TV_OK;
			}
			fc = descend(r->scopes->root[abs[i].scope], path + n);
			goto found;
		}
	}
	n = strcspn(path, ".");
	if (n >= sizeof(first))
		goto notfound;
	memcpy(first, path, n);
	first[n] = '\0';
	rest = path + n + (path[n] == '.');
	for (d = r->depth - 1; d >= 0; d--) {
		fc = tsdl_struct_member(r->stack[d].sfc, first, r->stack[d].idx);
		fc = descend(fc, rest);
		if (target_ok(fc, want_enum))
			goto found;
		if (r->dry && fc && d == r->depth - 1)
			goto found;	/* wrong type, in the same struct */
		if (fc && !wrong)
			wrong = fc;
	}
	if (r->dry) {
		*out = NULL;
		return TV_OK;
	}
	for (s = r->cur - 1; s >= 0; s--) {
		fc = descend(tsdl_struct_member(r->scopes->root[s], first,
		    UINT32_MAX), rest);
		if (target_ok(fc, want_enum))
			goto found;
		if (fc && !wrong)
			wrong = fc;
	}
	fc = wrong;
found:
	if (!fc)
		goto notfound;
	if (!target_ok(fc, want_enum))
		return tsdl_semantic(r->cx, line, col, want_enum ?
		    _("variant tag '%s' is not an enumeration") :
		    _("sequence length '%s' is not an unsigned integer"),
		    path);
	if (r->dry) {
		*out = fc;
		return TV_OK;
	}
	if (fc->save_slot < 0) {
		if (r->cx->tc->nslots >= TSDL_MAX_SLOTS)
			return tsdl_semantic(r->cx, line, col,
			    _("too many sequence lengths and variant tags"));
		fc->save_slot = (int32_t)r->cx->tc->nslots++;
	}
	*out = fc;
	return TV_OK;
notfound:
	return tsdl_semantic(r->cx, line, col, want_enum ?
	    _("cannot find variant tag '%s'") :
	    _("cannot find sequence length '%s'"), path);
}

/* Give variant options the labels they select, and map labels to them. */
static enum tv_status
match_options(struct resolver *r, struct tsdl_fc *v,
    const struct tv_field_class *tag)
{
	struct tv_field_class *fc = &v->fc;
	uint32_t i, j, matched = 0;
	int32_t *om;

	for (i = 0; i < fc->variant.noptions; i++) {
		const char *raw = v->raw ? v->raw[i] :
		    fc->variant.options[i].name;
		const char *label = NULL;

		for (j = 0; j < tag->enumeration.nmaps && !label; j++)
			if (strcmp(tag->enumeration.maps[j].label, raw) == 0)
				label = tag->enumeration.maps[j].label;
		for (j = 0; j < tag->enumeration.nmaps && !label; j++)
			if (raw[0] == '_' && strcmp(
			    tag->enumeration.maps[j].label, raw + 1) == 0)
				label = tag->enumeration.maps[j].label;
		if (label) {
			if (!r->dry)
				fc->variant.options[i].name = label;
			matched++;
		}
	}
	if (fc->variant.noptions > 0 && matched == 0)
		return tsdl_semantic(r->cx, v->line, v->col,
		    _("no option of the variant matches a label of its tag"));
	if (r->dry)
		return TV_OK;
	om = tv_arena_alloc(r->cx->a, (tag->enumeration.nmaps + 1) *
	    sizeof(*om));
	for (j = 0; j < tag->enumeration.nmaps; j++) {
		om[j] = -1;
		for (i = 0; i < fc->variant.noptions; i++)
			if (strcmp(fc->variant.options[i].name,
			    tag->enumeration.maps[j].label) == 0) {
				om[j] = (int32_t)i;
				break;
			}
	}
	fc->variant.opt_of_map = om;
	return TV_OK;
}

/* Resolve every sequence length and variant tag under @fc. */
static enum tv_status
resolve_tree(struct resolver *r, struct tv_field_class *fc)
{
	struct tsdl_fc *f = TSDL_FC(fc);
	struct tv_field_class *target;
	enum tv_status st;
	uint32_t i;

	switch (fc->kind) {
	case TV_FC_STRUCT:
		if (r->depth >= (int)TV_ARRAY_SIZE(r->stack))
			return tsdl_semantic(r->cx, f->line, f->col,
			    _("types nested too deeply"));
		r->stack[r->depth].sfc = fc;
		r->depth++;
		for (i = 0; i < fc->structure.nmembers; i++) {
			r->stack[r->depth - 1].idx = i;
			st = resolve_tree(r, fc->structure.members[i].fc);
			if (st != TV_OK)
				return st;
		}
		r->depth--;
		return TV_OK;
	case TV_FC_VARIANT:
		if (!f->path && r->dry)
			goto options;
		if (!f->path)
			return tsdl_semantic(r->cx, f->line, f->col,
			    _("variant has no tag"));
		st = resolve_path(r, f->path, true, f->line, f->col,
		    &target);
		if (st != TV_OK)
			return st;
		if (r->dry) {
			st = target ? match_options(r, f, target) : TV_OK;
		} else {
			fc->variant.tag_slot = target->save_slot;
			fc->variant.tag_fc = target;
			st = match_options(r, f, target);
		}
		if (st != TV_OK)
			return st;
options:
		for (i = 0; i < fc->variant.noptions; i++) {
			st = resolve_tree(r, fc->variant.options[i].fc);
			if (st != TV_OK)
				return st;
		}
		return TV_OK;
	case TV_FC_SEQUENCE:
		st = resolve_path(r, f->path, false, f->line, f->col,
		    &target);
		if (st != TV_OK)
			return st;
		if (!r->dry)
			fc->array.length_slot = target->save_slot;
		/* fall through */
	case TV_FC_ARRAY:
		return resolve_tree(r, fc->array.elem);
	default:
		return TV_OK;
	}
}

/* See tsdl-model.h. */
enum tv_status
tsdl_resolve_scope(struct tsdl_ctx *cx, const struct tsdl_scopes *sc, int scope)
{
	struct resolver r;

	if (!sc->root[scope])
		return TV_OK;
	memset(&r, 0, sizeof(r));
	r.cx = cx;
	r.scopes = sc;
	r.cur = scope;
	return resolve_tree(&r, sc->root[scope]);
}

/* See tsdl-model.h: a struct definition checked on its own. */
enum tv_status
tsdl_check_struct(struct tsdl_ctx *cx, struct tv_field_class *fc)
{
	struct resolver r;

	memset(&r, 0, sizeof(r));
	r.cx = cx;
	r.dry = true;
	return resolve_tree(&r, fc);
}
