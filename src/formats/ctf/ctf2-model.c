/*
 * The CTF 2 model pass: walks the fragments of the metadata (preamble,
 * trace class, clock classes, data stream classes, event record classes,
 * field class aliases) and fills the trace and the CTF trace class exactly
 * as the TSDL pass does, so the rest of the driver cannot tell them apart.
 * Both the final specification and its release candidates (whose traces
 * Trace Compass ships: "default-clock-class-name", enumeration types,
 * array field locations) are read.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "ctf-decode.h"
#include "ctf2.h"

#define CTF2_MAX_CLOCKS		1024
#define CTF2_MAX_ENV		65536

/* Clock class ids (CTF 2) next to the trace's clocks, same order. */
struct clock_ids {
	const char	**ids;
	uint32_t	 n;
};

/* Add key @key = JSON value @v to the environment (strings, integers). */
static enum tv_status
add_env(struct ctf2_ctx *cx, const char *key, json_object *v)
{
	struct tv_trace *t = cx->trace;
	struct tv_env_entry *e;
	enum tv_status st = TV_OK;

	if (t->nenv >= CTF2_MAX_ENV)
		return ctf2_fail(cx, TV_UNSUPPORTED,
		    _("too many environment entries"));
	e = &t->env[t->nenv];
	e->key = tv_arena_strdup(cx->a, key);
	e->str = NULL;
	ctf2_push_key(cx, key);
	if (json_object_is_type(v, json_type_int))
		st = ctf2_json_int(cx, v, &e->num);
	else if (json_object_is_type(v, json_type_string))
		e->str = tv_arena_strdup(cx->a, json_object_get_string(v));
	else
		st = ctf2_fail(cx, TV_SEMANTIC, _("an environment value must "
		    "be a string or an integer"));
	ctf2_pop(cx);
	if (st == TV_OK)
		t->nenv++;
	return st;
}

/* Append trace attribute "@where @what" = @text (room was counted). */
static void
add_attr(struct ctf2_ctx *cx, const char *where, const char *what,
    const char *text)
{
	struct tv_trace *t = cx->trace;
	struct tv_env_entry *e = &t->attrs[t->nattrs++];
	char *k;

	tv_xasprintf(&k, "%s %s", where, what);
	e->key = tv_arena_strdup(cx->a, k);
	e->str = tv_arena_strdup(cx->a, text);
	free(k);
}

/*
 * Fail on the first extension of @ext: in the preamble it is declared
 * but unsupported (the spec: the trace must then not be read); in any
 * other fragment, the preamble having declared none, it is undeclared.
 */
static enum tv_status
extension_fail(struct ctf2_ctx *cx, json_object *ext, bool preamble)
{
	enum tv_status st = TV_OK;

	json_object_object_foreach(ext, ns, val) {
		const char *name = "";

		if (json_object_is_type(val, json_type_object) &&
		    json_object_get_object(val)->head)
			name = (const char *)lh_entry_k(
			    json_object_get_object(val)->head);
		ctf2_push_key(cx, "extensions");
		ctf2_push_key(cx, ns);
		st = preamble ? ctf2_fail(cx, TV_UNSUPPORTED,
		    _("unsupported extension \"%s\" \"%s\""), ns, name) :
		    ctf2_fail(cx, TV_SEMANTIC, _("extension \"%s\" \"%s\" is "
		    "not declared in the preamble"), ns, name);
		ctf2_pop(cx);
		ctf2_pop(cx);
		break;
	}
	return st;
}

/*
 * See ctf2.h: the preamble declares no extension tview supports, so any
 * non-empty "extensions" of @o (a fragment or a field class) is one the
 * preamble did not declare.
 */
enum tv_status
ctf2_extensions_check(struct ctf2_ctx *cx, json_object *o)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, "extensions", &v) ||
	    !json_object_is_type(v, json_type_object) ||
	    json_object_object_length(v) == 0)
		return TV_OK;
	return extension_fail(cx, v, false);
}

/*
 * The attributes ("user-attributes" in the release candidates) and
 * extensions of a fragment, as JSON text in the trace attributes (--info
 * lists them), named after the fragment.
 */
static enum tv_status
add_annotations(struct ctf2_ctx *cx, json_object *o)
{
	static const char *const keys[] = {
		"attributes", "user-attributes", "extensions",
	};
	char where[160];
	enum tv_status st;
	size_t i;

	st = ctf2_extensions_check(cx, o);
	if (st != TV_OK)
		return st;
	if (cx->frag_name)
		snprintf(where, sizeof(where), "%s %s", cx->frag_type,
		    cx->frag_name);
	else
		snprintf(where, sizeof(where), "%s", cx->frag_type);

	for (i = 0; i < TV_ARRAY_SIZE(keys); i++) {
		json_object *v = NULL;

		if (!json_object_object_get_ex(o, keys[i], &v))
			continue;
		if (!json_object_is_type(v, json_type_object)) {
			ctf2_push_key(cx, keys[i]);
			st = ctf2_fail(cx, TV_SEMANTIC, _("must be an object"));
			ctf2_pop(cx);
			return st;
		}
		add_attr(cx, where, keys[i],
		    json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	}
	return TV_OK;
}

/* The preamble: version 2; extensions we do not know forbid reading. */
static enum tv_status
read_preamble(struct ctf2_ctx *cx, json_object *o)
{
	json_object *ext = NULL;
	uint64_t version = 0;
	enum tv_status st;

	st = ctf2_get_uint(cx, o, "version", true, &version);
	if (st != TV_OK)
		return st;
	if (version != 2) {
		ctf2_push_key(cx, "version");
		st = ctf2_fail(cx, TV_UNSUPPORTED,
		    _("unsupported CTF version %llu (expected 2)"),
		    (unsigned long long)version);
		ctf2_pop(cx);
		return st;
	}
	st = ctf2_get_uuid(cx, o, "uuid", cx->trace->uuid,
	    &cx->trace->has_uuid);
	if (st == TV_OK)
		st = ctf2_get_obj(cx, o, "extensions", false, &ext);
	if (st != TV_OK)
		return st;
	/* The spec: an unknown extension must stop the consumer. */
	if (ext && json_object_object_length(ext) > 0)
		return extension_fail(cx, ext, true);
	return add_annotations(cx, o);
}

/* The trace class: environment, packet header. */
static enum tv_status
read_trace_class(struct ctf2_ctx *cx, json_object *o)
{
	json_object *env = NULL;
	const char *s = NULL;
	enum tv_status st;

	st = ctf2_get_obj(cx, o, "environment", false, &env);
	if (st == TV_OK && env) {
		ctf2_push_key(cx, "environment");
		json_object_object_foreach(env, k, v) {
			st = add_env(cx, k, v);
			if (st != TV_OK)
				break;
		}
		ctf2_pop(cx);
	}
	/* CTF 2 names the trace class with namespace/name/uid. */
	if (st == TV_OK)
		st = ctf2_get_str(cx, o, "uid", false, &s);
	if (st == TV_OK && s)
		add_attr(cx, "trace-class", "uid", s);
	s = NULL;
	if (st == TV_OK)
		st = ctf2_get_str(cx, o, "name", false, &s);
	if (st == TV_OK && s)
		add_attr(cx, "trace-class", "name", s);
	if (st == TV_OK)
		st = add_annotations(cx, o);
	if (st == TV_OK)
		st = ctf2_scope_build(cx, o, "packet-header-field-class",
		    TV_SCOPE_PACKET_HEADER, &cx->tc->packet_header);
	return st;
}

/*
 * The origin of clock class @id: "unix-epoch" makes its time absolute; a
 * clock origin object (namespace, name, uid) only correlates clocks of
 * the same origin, so the clock stays relative and --info shows it.
 */
static enum tv_status
clock_origin(struct ctf2_ctx *cx, json_object *org, const char *id,
    struct tv_clock *clk)
{
	const char *s = NULL;
	char what[160];
	enum tv_status st = TV_OK;

	ctf2_push_key(cx, "origin");
	if (json_object_is_type(org, json_type_string)) {
		s = json_object_get_string(org);
		if (strcmp(s, "unix-epoch") == 0)
			clk->absolute = true;
		else
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("unknown clock origin \"%s\""), s);
	} else if (json_object_is_type(org, json_type_object)) {
		st = ctf2_get_str(cx, org, "namespace", false, &s);
		if (st == TV_OK)
			st = ctf2_get_str(cx, org, "name", true, &s);
		if (st == TV_OK)
			st = ctf2_get_str(cx, org, "uid", true, &s);
		if (st == TV_OK && id) {
			snprintf(what, sizeof(what), "%s origin", id);
			add_attr(cx, "clock-class", what,
			    json_object_to_json_string_ext(org,
			    JSON_C_TO_STRING_PLAIN));
		}
	} else {
		st = ctf2_fail(cx, TV_SEMANTIC, _("a clock origin must be "
		    "\"unix-epoch\" or an object"));
	}
	ctf2_pop(cx);
	return st;
}

/* A clock class: the id (CTF 2) or name (release candidates) names it. */
static enum tv_status
read_clock_class(struct ctf2_ctx *cx, json_object *o, struct clock_ids *ids)
{
	struct tv_trace *t = cx->trace;
	struct tv_clock *clk = &t->clocks[t->nclocks];
	json_object *off = NULL, *org = NULL;
	const char *id = NULL, *name = NULL, *desc = NULL;
	enum tv_status st;
	uint32_t i;

	memset(clk, 0, sizeof(*clk));
	st = ctf2_get_str(cx, o, "id", false, &id);
	if (st == TV_OK)
		st = ctf2_get_str(cx, o, "name", false, &name);
	if (st == TV_OK)
		st = ctf2_get_uint(cx, o, "frequency", true, &clk->freq);
	if (st == TV_OK && clk->freq == 0) {
		ctf2_push_key(cx, "frequency");
		st = ctf2_fail(cx, TV_SEMANTIC,
		    _("clock frequency must not be 0"));
		ctf2_pop(cx);
	}
	if (st == TV_OK)
		st = ctf2_get_str(cx, o, "description", false, &desc);
	if (st == TV_OK)
		st = ctf2_get_uint(cx, o, "precision", false,
		    &clk->precision);
	if (st == TV_OK)
		st = ctf2_get_uuid(cx, o, "uuid", clk->uuid, &clk->has_uuid);
	if (st == TV_OK)
		st = ctf2_get_obj(cx, o, "offset-from-origin", false, &off);
	if (st == TV_OK && off) {
		uint64_t cyc = 0;

		ctf2_push_key(cx, "offset-from-origin");
		st = ctf2_get_int(cx, off, "seconds", false, &clk->offset_s);
		if (st == TV_OK)
			st = ctf2_get_uint(cx, off, "cycles", false, &cyc);
		if (st == TV_OK && cyc >= clk->freq)
			st = ctf2_fail(cx, TV_SEMANTIC, _("offset cycles must "
			    "be less than the frequency"));
		clk->offset_cycles = (int64_t)cyc;
		ctf2_pop(cx);
	}
	if (st == TV_OK && json_object_object_get_ex(o, "origin", &org))
		st = clock_origin(cx, org, id ? id : name, clk);
	if (st != TV_OK)
		return st;
	if (!id && !name)
		return ctf2_fail(cx, TV_SEMANTIC,
		    _("missing mandatory property \"%s\""), "id");
	if (!name)
		name = id;
	if (!id)
		id = name;
	for (i = 0; i < t->nclocks; i++)
		if (strcmp(ids->ids[i], id) == 0)
			return ctf2_fail(cx, TV_SEMANTIC,
			    _("clock class \"%s\" is defined twice"), id);
	clk->name = tv_intern(t->names, name, strlen(name));
	clk->description = desc ? tv_arena_strdup(cx->a, desc) : NULL;
	tv_clock_finish(clk);
	ids->ids[t->nclocks] = tv_arena_strdup(cx->a, id);
	t->nclocks++;
	return add_annotations(cx, o);
}

/* The clock a data stream class names as its default one. */
static enum tv_status
default_clock(struct ctf2_ctx *cx, json_object *o, const struct clock_ids *ids,
    const struct tv_clock **out)
{
	const char *key = "default-clock-class-id", *id = NULL;
	enum tv_status st;
	uint32_t i;

	*out = NULL;
	st = ctf2_get_str(cx, o, key, false, &id);
	if (st == TV_OK && !id) {
		key = "default-clock-class-name";
		st = ctf2_get_str(cx, o, key, false, &id);
	}
	if (st != TV_OK || !id)
		return st;
	for (i = 0; i < cx->trace->nclocks; i++)
		if (strcmp(ids->ids[i], id) == 0) {
			*out = &cx->trace->clocks[i];
			return TV_OK;
		}
	ctf2_push_key(cx, key);
	st = ctf2_fail(cx, TV_SEMANTIC, _("no clock class \"%s\" before this "
	    "fragment"), id);
	ctf2_pop(cx);
	return st;
}

/* Packet context members named cpu_id: LTTng's CPU, as in CTF 1.8. */
static void
cpu_role(struct tv_field_class *pc)
{
	uint32_t i;

	for (i = 0; pc && i < pc->structure.nmembers; i++)
		if (strcmp(pc->structure.members[i].name, "cpu_id") == 0 &&
		    pc->structure.members[i].fc->kind == TV_FC_INT &&
		    pc->structure.members[i].fc->role == TV_ROLE_NONE)
			pc->structure.members[i].fc->role = TV_ROLE_CPU_ID;
}

/* A data stream class: id, default clock, its three scopes. */
static enum tv_status
read_stream_class(struct ctf2_ctx *cx, json_object *o,
    const struct clock_ids *ids)
{
	struct ctf_trace_class *tc = cx->tc;
	struct ctf_stream_class *c;
	enum tv_status st;
	uint32_t i;

	if (tc->nsclasses >= CTF2_MAX_SCLASSES)
		return ctf2_fail(cx, TV_UNSUPPORTED,
		    _("more than %u stream classes"), CTF2_MAX_SCLASSES);
	c = tv_arena_zalloc(cx->a, sizeof(*c));
	st = ctf2_get_uint(cx, o, "id", false, &c->id);
	c->has_id = true;
	for (i = 0; st == TV_OK && i < tc->nsclasses; i++)
		if (tc->sclasses[i]->id == c->id)
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("two data stream classes have id %llu"),
			    (unsigned long long)c->id);
	if (st == TV_OK)
		st = default_clock(cx, o, ids, &c->clock);
	cx->def_clock = c->clock;
	if (st == TV_OK)
		st = ctf2_scope_build(cx, o, "packet-context-field-class",
		    TV_SCOPE_PACKET_CONTEXT, &c->packet_context);
	if (st == TV_OK)
		st = ctf2_scope_build(cx, o, "event-record-header-field-class",
		    TV_SCOPE_EVENT_HEADER, &c->event_header);
	if (st == TV_OK)
		st = ctf2_scope_build(cx, o,
		    "event-record-common-context-field-class",
		    TV_SCOPE_EVENT_COMMON_CONTEXT, &c->event_context);
	if (st == TV_OK)
		st = add_annotations(cx, o);
	if (st != TV_OK)
		return st;
	cpu_role(c->packet_context);
	if (!c->clock && cx->trace->nclocks == 1)
		c->clock = &cx->trace->clocks[0];
	tc->sclasses[tc->nsclasses++] = c;
	return TV_OK;
}

/* A log level: a number, or a babeltrace2 name (LTTng's numbering). */
static void
set_loglevel(struct tv_event_class *ec, json_object *v)
{
	static const char *const names[] = {
		"emergency", "alert", "critical", "error", "warning",
		"notice", "info", "debug:system", "debug:program",
		"debug:process", "debug:module", "debug:unit",
		"debug:function", "debug:line", "debug",
	};
	size_t i;

	if (json_object_is_type(v, json_type_int)) {
		ec->loglevel = (int32_t)TV_MAX(TV_MIN(json_object_get_int64(v),
		    INT32_MAX), INT32_MIN);
		return;
	}
	if (!json_object_is_type(v, json_type_string))
		return;
	for (i = 0; i < TV_ARRAY_SIZE(names); i++)
		if (strcmp(names[i], json_object_get_string(v)) == 0)
			ec->loglevel = (int32_t)i;
}

/*
 * The log level and EMF URI of an event record class: a property in the
 * release candidates, an attribute of LTTng ("lttng.org,2009") or
 * babeltrace2 ("babeltrace.org,2020") in CTF 2.
 */
static void
event_attributes(json_object *o, struct tv_event_class *ec,
    struct tv_arena *a)
{
	static const char *const ns[] = {
		"lttng.org,2009", "babeltrace.org,2020",
	};
	json_object *ua = NULL, *lt = NULL, *v = NULL;
	size_t i;

	if (json_object_object_get_ex(o, "log-level", &v))
		set_loglevel(ec, v);
	if ((!json_object_object_get_ex(o, "attributes", &ua) &&
	    !json_object_object_get_ex(o, "user-attributes", &ua)) ||
	    !json_object_is_type(ua, json_type_object))
		return;
	for (i = 0; i < TV_ARRAY_SIZE(ns); i++) {
		if (!json_object_object_get_ex(ua, ns[i], &lt) ||
		    !json_object_is_type(lt, json_type_object))
			continue;
		if (json_object_object_get_ex(lt, "log-level", &v))
			set_loglevel(ec, v);
		if (json_object_object_get_ex(lt, "emf-uri", &v) &&
		    json_object_is_type(v, json_type_string))
			ec->model_emf_uri = tv_arena_strdup(a,
			    json_object_get_string(v));
	}
}

/* An event record class: ids, name, its two scopes. */
static enum tv_status
read_event_class(struct ctf2_ctx *cx, json_object *o)
{
	struct tv_event_class *ec = tv_arena_zalloc(cx->a, sizeof(*ec));
	struct ctf_event_class *priv = tv_arena_zalloc(cx->a, sizeof(*priv));
	struct tv_field_class *ctx = NULL, *fields = NULL;
	struct tv_trace *t = cx->trace;
	const char *name = "";
	uint64_t sid = 0;
	enum tv_status st;
	uint32_t i;

	ec->loglevel = -1;
	ec->count = TV_COUNT_UNKNOWN;
	st = ctf2_get_uint(cx, o, "id", false, &ec->id);
	if (st == TV_OK)
		st = ctf2_get_str(cx, o, "name", false, &name);
	if (st == TV_OK)
		st = ctf2_get_uint(cx, o, "data-stream-class-id", false, &sid);
	if (st != TV_OK)
		return st;
	for (i = 0; i < cx->tc->nsclasses; i++)
		if (cx->tc->sclasses[i]->id == sid)
			priv->sclass = cx->tc->sclasses[i];
	if (!priv->sclass)
		return ctf2_fail(cx, TV_SEMANTIC, _("no data stream class has "
		    "id %llu before this fragment"), (unsigned long long)sid);
	memset(cx->roots, 0, sizeof(cx->roots));
	cx->roots[TV_SCOPE_PACKET_HEADER] = cx->tc->packet_header;
	cx->roots[TV_SCOPE_PACKET_CONTEXT] = priv->sclass->packet_context;
	cx->roots[TV_SCOPE_EVENT_HEADER] = priv->sclass->event_header;
	cx->roots[TV_SCOPE_EVENT_COMMON_CONTEXT] =
	    priv->sclass->event_context;
	cx->def_clock = priv->sclass->clock;
	st = ctf2_scope_build(cx, o, "specific-context-field-class",
	    TV_SCOPE_EVENT_SPECIFIC_CONTEXT, &ctx);
	if (st == TV_OK)
		st = ctf2_scope_build(cx, o, "payload-field-class",
		    TV_SCOPE_EVENT_PAYLOAD, &fields);
	if (st == TV_OK)
		st = add_annotations(cx, o);
	if (st != TV_OK)
		return st;
	event_attributes(o, ec, cx->a);
	ec->name = tv_intern(t->names, name, strlen(name));
	ec->stream_class_id = sid;
	ec->context = ctx;
	ec->payload = fields;
	ec->priv = priv;
	ec->index = t->nclasses;
	t->classes[t->nclasses++] = ec;
	return TV_OK;
}

/* A field class alias: checked now, built at each use. */
static enum tv_status
read_alias(struct ctf2_ctx *cx, json_object *o)
{
	json_object *v = NULL;
	const char *name = NULL;
	enum tv_status st;

	st = ctf2_get_str(cx, o, "name", true, &name);
	if (st != TV_OK)
		return st;
	if (cx->aliases && json_object_object_get_ex(cx->aliases, name, NULL))
		return ctf2_fail(cx, TV_SEMANTIC, _("field class alias "
		    "\"%s\" is defined twice"), name);
	if (cx->aliases && json_object_object_length(cx->aliases) >=
	    CTF2_MAX_ALIASES)
		return ctf2_fail(cx, TV_UNSUPPORTED,
		    _("more than %u field class aliases"), CTF2_MAX_ALIASES);
	if (!json_object_object_get_ex(o, "field-class", &v))
		return ctf2_fail(cx, TV_SEMANTIC,
		    _("missing mandatory property \"%s\""), "field-class");
	/*
	 * Built once without a scope (locations unchecked): an alias can
	 * only use aliases defined before it, so none is cyclic.
	 */
	st = ctf2_fc_check(cx, o, "field-class");
	if (st != TV_OK)
		return st;
	if (!cx->aliases)
		cx->aliases = json_object_new_object();
	if (!cx->aliases ||
	    json_object_object_add(cx->aliases, name, json_object_get(v)))
		return ctf2_fail(cx, TV_NOMEM, _("out of memory"));
	return TV_OK;
}

/* What the first pass counts, to size the arrays of the trace. */
struct counts {
	uint32_t	 frags;
	uint32_t	 clocks;
	uint32_t	 streams;
	uint32_t	 events;
	uint32_t	 env;
};

/* Count fragment @o by type. */
static void
count_fragment(json_object *o, struct counts *c)
{
	json_object *ty = NULL, *env = NULL;
	const char *s;

	c->frags++;
	if (!json_object_object_get_ex(o, "type", &ty) ||
	    !json_object_is_type(ty, json_type_string))
		return;
	s = json_object_get_string(ty);
	if (strcmp(s, "clock-class") == 0)
		c->clocks++;
	else if (strcmp(s, "data-stream-class") == 0)
		c->streams++;
	else if (strcmp(s, "event-record-class") == 0)
		c->events++;
	else if (strcmp(s, "trace-class") == 0 &&
	    json_object_object_get_ex(o, "environment", &env) &&
	    json_object_is_type(env, json_type_object))
		c->env += (uint32_t)TV_MIN(json_object_object_length(env),
		    CTF2_MAX_ENV);
}

/* Read fragment @i: its type decides; order as the spec says. */
static enum tv_status
read_fragment(struct ctf2_ctx *cx, json_object *o, uint32_t i,
    struct clock_ids *ids, uint32_t *ntrace)
{
	const char *type = NULL, *name = NULL;
	json_object *nm = NULL;
	enum tv_status st;

	st = ctf2_get_str(cx, o, "type", true, &type);
	if (st != TV_OK)
		return st;
	cx->frag_type = type;
	if (json_object_object_get_ex(o, "name", &nm) &&
	    json_object_is_type(nm, json_type_string))
		name = json_object_get_string(nm);
	else if (json_object_object_get_ex(o, "id", &nm) &&
	    json_object_is_type(nm, json_type_string))
		name = json_object_get_string(nm);
	cx->frag_name = name;
	if (i == 0 && strcmp(type, "preamble") != 0)
		return ctf2_fail(cx, TV_SEMANTIC,
		    _("the first fragment must be the preamble"));
	if (strcmp(type, "preamble") == 0) {
		if (i != 0)
			return ctf2_fail(cx, TV_SEMANTIC,
			    _("only the first fragment is a preamble"));
		return read_preamble(cx, o);
	}
	if (strcmp(type, "trace-class") == 0) {
		if (*ntrace || cx->tc->nsclasses)
			return ctf2_fail(cx, TV_SEMANTIC, *ntrace ?
			    _("more than one trace class") :
			    _("the trace class must come before the data "
			    "stream classes"));
		(*ntrace)++;
		return read_trace_class(cx, o);
	}
	if (strcmp(type, "clock-class") == 0) {
		if (cx->trace->nclocks >= CTF2_MAX_CLOCKS)
			return ctf2_fail(cx, TV_UNSUPPORTED,
			    _("too many clocks"));
		return read_clock_class(cx, o, ids);
	}
	if (strcmp(type, "data-stream-class") == 0)
		return read_stream_class(cx, o, ids);
	if (strcmp(type, "event-record-class") == 0)
		return read_event_class(cx, o);
	if (strcmp(type, "field-class-alias") == 0)
		return read_alias(cx, o);
	ctf2_push_key(cx, "type");
	st = ctf2_fail(cx, TV_SEMANTIC, _("unknown fragment type \"%s\""),
	    type);
	ctf2_pop(cx);
	return st;
}

/* Read CTF 2 metadata into the model (see ctf-priv.h). */
enum tv_status
ctf_ctf2_build(const char *text, size_t len, const char *path,
    struct tv_trace *trace, struct ctf_trace_class *tc,
    struct tv_error *err)
{
	struct ctf2_ctx cx;
	struct clock_ids ids = { NULL, 0 };
	struct counts c;
	json_object *o;
	uint32_t *ev_frag, ntrace = 0, dup, nclasses;
	uint64_t *ev_off;
	size_t pos = 0;
	enum tv_status st;

	memset(&cx, 0, sizeof(cx));
	memset(&c, 0, sizeof(c));
	cx.path = path;
	cx.trace = trace;
	cx.tc = tc;
	cx.a = &trace->arena;
	cx.err = err;
	cx.scope = -1;
	/*
	 * Pass 1 parses and counts, pass 2 parses again and builds: only
	 * one fragment's JSON tree is alive at a time (json-c takes tens of
	 * bytes per byte of text), the aliases' aside.
	 */
	while ((st = ctf2_next(&cx, text, len, &pos, &o)) == TV_OK) {
		count_fragment(o, &c);
		json_object_put(o);
	}
	if (st != TV_END)
		return st;
	if (c.frags == 0)
		return tv_error_at(err, TV_SEMANTIC, path, 0,
		    _("no preamble fragment"));
	tc->major = 2;
	tc->minor = 0;
	tc->byte_order = TV_BO_LE;
	c.clocks = TV_MIN(c.clocks, CTF2_MAX_CLOCKS);
	trace->clocks = tv_arena_zalloc(cx.a, ((size_t)c.clocks + 1) *
	    sizeof(*trace->clocks));
	ids.ids = tv_arena_zalloc(cx.a, ((size_t)c.clocks + 1) *
	    sizeof(*ids.ids));
	tc->sclasses = tv_arena_zalloc(cx.a, ((size_t)c.streams + 1) *
	    sizeof(*tc->sclasses));
	trace->classes = tv_arena_zalloc(cx.a, ((size_t)c.events + 1) *
	    sizeof(*trace->classes));
	ev_frag = tv_arena_zalloc(cx.a, ((size_t)c.events + 1) *
	    sizeof(*ev_frag));
	ev_off = tv_arena_zalloc(cx.a, ((size_t)c.events + 1) *
	    sizeof(*ev_off));
	trace->env = tv_arena_zalloc(cx.a, ((size_t)c.env + 1) *
	    sizeof(*trace->env));
	/*
	 * Three annotations a fragment, two names of the trace class, the
	 * origin of each clock class.
	 */
	trace->attrs = tv_arena_zalloc(cx.a, ((size_t)c.frags * 4 + 2) *
	    sizeof(*trace->attrs));
	trace->version = "CTF 2";
	pos = 0;
	cx.frag = 0;
	while ((st = ctf2_next(&cx, text, len, &pos, &o)) == TV_OK) {
		nclasses = trace->nclasses;
		st = read_fragment(&cx, o, cx.frag - 1, &ids, &ntrace);
		json_object_put(o);
		if (st != TV_OK)
			break;
		if (trace->nclasses > nclasses) {
			ev_frag[nclasses] = cx.frag;
			ev_off[nclasses] = cx.frag_off;
		}
	}
	if (st == TV_END)
		st = TV_OK;
	if (st == TV_OK && !ntrace) {
		cx.frag = 0;
		cx.frag_off = len;
		st = ctf2_fail(&cx, TV_SEMANTIC, _("no trace class fragment"));
	}
	if (st == TV_OK && !ctf_events_index(trace, tc, cx.a, &dup)) {
		/* Name the fragment of the second class with that id. */
		cx.frag = ev_frag[dup];
		cx.frag_off = ev_off[dup];
		cx.frag_type = "event-record-class";
		cx.frag_name = trace->classes[dup]->name[0] ?
		    trace->classes[dup]->name : NULL;
		cx.njp = 0;
		ctf2_push_key(&cx, "id");
		st = ctf2_fail(&cx, TV_SEMANTIC, _("event record class id "
		    "%llu is used twice in data stream class %llu"),
		    (unsigned long long)trace->classes[dup]->id,
		    (unsigned long long)trace->classes[dup]->stream_class_id);
	}
	json_object_put(cx.aliases);
	return st;
}
