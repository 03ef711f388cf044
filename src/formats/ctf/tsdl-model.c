/*
 * The TSDL model pass: walks the parse tree of the metadata and fills the
 * trace (clocks, env, uuid, event classes) and the CTF trace class (packet
 * header, stream classes), and gives the well-known header fields their
 * roles.  Sequence lengths and variant tags are resolved to save slots in
 * tsdl-resolve.c.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tsdl-model.h"

#define TSDL_MAX_CLOCKS		1024

/* The trace clock named @name, or NULL. */
struct tv_clock *
tsdl_find_clock(struct tsdl_ctx *cx, const char *name)
{
	uint32_t i;

	for (i = 0; i < cx->trace->nclocks; i++)
		if (strcmp(cx->trace->clocks[i].name, name) == 0)
			return &cx->trace->clocks[i];
	return NULL;
}

/* Roles of the top-level members of a packet header or context. */
static void
set_roles_flat(struct tv_field_class *fc, const char *const *names,
    const enum tv_field_role *roles, size_t n)
{
	uint32_t i;
	size_t j;

	if (!fc)
		return;
	for (i = 0; i < fc->structure.nmembers; i++)
		for (j = 0; j < n; j++)
			if (strcmp(fc->structure.members[i].name,
			    names[j]) == 0)
				fc->structure.members[i].fc->role =
				    (uint16_t)roles[j];
}

/* Event header roles: every "id", every "timestamp" or mapped integer. */
static void
set_roles_header(struct tv_field_class *fc)
{
	struct tv_field_member *m = NULL;
	uint32_t i, n = 0;

	if (fc->kind == TV_FC_STRUCT) {
		m = fc->structure.members;
		n = fc->structure.nmembers;
	} else if (fc->kind == TV_FC_VARIANT) {
		m = fc->variant.options;
		n = fc->variant.noptions;
	}
	for (i = 0; i < n; i++) {
		struct tv_field_class *c = m[i].fc;
		bool is_int = c->kind == TV_FC_INT || c->kind == TV_FC_ENUM;

		if (fc->kind == TV_FC_STRUCT && is_int &&
		    strcmp(m[i].name, "id") == 0)
			c->role = TV_ROLE_EVENT_ID;
		else if (fc->kind == TV_FC_STRUCT && is_int &&
		    strcmp(m[i].name, "timestamp") == 0)
			c->role = TV_ROLE_TIMESTAMP;
		else if (c->kind == TV_FC_INT && c->integer.map_clock)
			c->role = TV_ROLE_TIMESTAMP;
		set_roles_header(c);
	}
}

/* The clock of the first timestamp under @fc, or NULL. */
static const struct tv_clock *
mapped_clock(const struct tv_field_class *fc)
{
	const struct tv_field_member *m = NULL;
	const struct tv_clock *clk;
	uint32_t i, n = 0;

	if (!fc)
		return NULL;
	if (fc->kind == TV_FC_INT && fc->role == TV_ROLE_TIMESTAMP)
		return fc->integer.map_clock;
	if (fc->kind == TV_FC_ENUM && fc->role == TV_ROLE_TIMESTAMP)
		return fc->enumeration.integer.map_clock;
	if (fc->kind == TV_FC_STRUCT) {
		m = fc->structure.members;
		n = fc->structure.nmembers;
	} else if (fc->kind == TV_FC_VARIANT) {
		m = fc->variant.options;
		n = fc->variant.noptions;
	}
	for (i = 0; i < n; i++)
		if ((clk = mapped_clock(m[i].fc)) != NULL)
			return clk;
	return NULL;
}

/*
 * As babeltrace does: an integer named @name (at any depth of @fc) that
 * maps no clock is mapped to the only clock, or to a 1 GHz "default"
 * clock made up when the trace declares none.
 */
static enum tv_status
auto_map_clock(struct tsdl_ctx *cx, struct tv_field_class *fc,
    const char *name)
{
	struct tv_field_member *m = NULL;
	struct tv_trace *trace = cx->trace;
	uint32_t i, n = 0;
	enum tv_status st;

	if (fc->kind == TV_FC_STRUCT) {
		m = fc->structure.members;
		n = fc->structure.nmembers;
	} else if (fc->kind == TV_FC_VARIANT) {
		m = fc->variant.options;
		n = fc->variant.noptions;
	}
	for (i = 0; i < n; i++) {
		struct tv_field_class *c = m[i].fc;
		struct tv_int_class *ic = c->kind == TV_FC_INT ? &c->integer :
		    c->kind == TV_FC_ENUM ? &c->enumeration.integer : NULL;

		if (ic && !ic->map_clock && strcmp(m[i].name, name) == 0) {
			if (trace->nclocks == 0) {
				struct tv_clock *clk = &trace->clocks[0];

				memset(clk, 0, sizeof(*clk));
				clk->name = tv_intern(trace->names, "default",
				    7);
				clk->freq = 1000000000;
				tv_clock_finish(clk);
				trace->nclocks = 1;
			}
			if (trace->nclocks > 1)
				return tsdl_semantic(cx, TSDL_FC(c)->line,
				    TSDL_FC(c)->col, _("'%s' maps no clock and "
				    "the trace has several"), name);
			ic->map_clock = &trace->clocks[0];
		}
		st = auto_map_clock(cx, c, name);
		if (st != TV_OK)
			return st;
	}
	return TV_OK;
}

/* A scope type ("fields := struct {...}"): must be a structure. */
static enum tv_status
scope_type(struct tsdl_ctx *cx, struct tsdl_scope *sc,
    const struct tsdl_stmt *s, struct tv_field_class **out)
{
	struct tsdl_fc *f;
	enum tv_status st;

	if (!s->typeassign || !s->value.type)
		return tsdl_semantic(cx, s->line, s->col,
		    _("'%s' must be assigned a type with ':='"), s->path);
	st = tsdl_type_build(cx, sc, s->value.type, &f, cx->err);
	if (st != TV_OK)
		return st;
	if (f->fc.kind != TV_FC_STRUCT)
		return tsdl_semantic(cx, s->value.line, s->value.col,
		    _("'%s' must be a structure"), s->path);
	*out = &f->fc;
	return TV_OK;
}

/* An attribute value that must be a non-negative integer. */
static enum tv_status
value_uint(struct tsdl_ctx *cx, const struct tsdl_stmt *s, uint64_t *out)
{
	if (s->typeassign || s->value.kind != TSDL_V_INT || s->value.neg)
		return tsdl_semantic(cx, s->value.line, s->value.col,
		    _("'%s' must be a non-negative integer"), s->path);
	*out = s->value.ival;
	return TV_OK;
}

/* An attribute value that must fit a signed 64-bit integer. */
static enum tv_status
value_int(struct tsdl_ctx *cx, const struct tsdl_stmt *s, int64_t *out)
{
	if (s->typeassign || s->value.kind != TSDL_V_INT ||
	    (!s->value.neg && s->value.ival > (uint64_t)INT64_MAX) ||
	    (s->value.neg && s->value.ival - 1 > (uint64_t)INT64_MAX))
		return tsdl_semantic(cx, s->value.line, s->value.col,
		    _("'%s' must be a 64-bit signed integer"), s->path);
	*out = s->value.neg ? -(int64_t)(s->value.ival - 1) - 1 :
	    (int64_t)s->value.ival;
	return TV_OK;
}

/* A string or identifier value, duplicated into the trace arena. */
static enum tv_status
value_text(struct tsdl_ctx *cx, const struct tsdl_stmt *s, const char **out)
{
	if (s->typeassign || (s->value.kind != TSDL_V_STRING &&
	    s->value.kind != TSDL_V_PATH))
		return tsdl_semantic(cx, s->value.line, s->value.col,
		    _("'%s' must be a string"), s->path);
	*out = tv_arena_strdup(cx->a, s->value.str);
	return TV_OK;
}

/* "2a6422d0-6cee-11e0-8c08-cb07d7b3a564" into 16 bytes. */
static enum tv_status
value_uuid(struct tsdl_ctx *cx, const struct tsdl_stmt *s, uint8_t *uuid)
{
	const char *p = s->value.str;
	size_t i, k = 0;
	int hi = -1, d;

	if (s->typeassign || s->value.kind != TSDL_V_STRING ||
	    s->value.len != 36)
		goto bad;
	for (i = 0; i < 36; i++) {
		char c = p[i];

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (c != '-')
				goto bad;
			continue;
		}
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			goto bad;
		if (hi < 0) {
			hi = d;
		} else {
			uuid[k++] = (uint8_t)(hi << 4 | d);
			hi = -1;
		}
	}
	return TV_OK;
bad:
	return tsdl_semantic(cx, s->value.line, s->value.col,
	    _("invalid UUID"));
}

/* Reject anything but attributes and type declarations in a block. */
static enum tv_status
block_decl(struct tsdl_ctx *cx, struct tsdl_scope *sc,
    const struct tsdl_stmt *s)
{
	if (s->kind == TSDL_S_TYPEALIAS || s->kind == TSDL_S_TYPEDEF ||
	    (s->kind == TSDL_S_DECL && !s->decls))
		return tsdl_declare(cx, sc, s, cx->err);
	return tsdl_semantic(cx, s->line, s->col,
	    _("unexpected declaration in a %s block"),
	    s->kind == TSDL_S_BLOCK ? s->path : "metadata");
}

/* clock { name; uuid; description; freq; precision; offset_s; ... } */
static enum tv_status
build_clock(struct tsdl_ctx *cx, const struct tsdl_stmt *b,
    struct tv_clock *clk)
{
	const struct tsdl_stmt *s;
	const char *name = NULL;
	enum tv_status st = TV_OK;
	uint64_t u;

	memset(clk, 0, sizeof(*clk));
	clk->freq = 1000000000;
	clk->absolute = false;
	for (s = b->body; s && st == TV_OK; s = s->next) {
		if (s->kind != TSDL_S_ASSIGN)
			continue;
		if (strcmp(s->path, "name") == 0) {
			st = value_text(cx, s, &name);
		} else if (strcmp(s->path, "uuid") == 0) {
			st = value_uuid(cx, s, clk->uuid);
			clk->has_uuid = true;
		} else if (strcmp(s->path, "description") == 0) {
			st = value_text(cx, s, &clk->description);
		} else if (strcmp(s->path, "freq") == 0) {
			st = value_uint(cx, s, &u);
			if (st == TV_OK && u == 0)
				st = tsdl_semantic(cx, s->line, s->col,
				    _("clock frequency must not be 0"));
			clk->freq = u;
		} else if (strcmp(s->path, "precision") == 0) {
			st = value_uint(cx, s, &clk->precision);
		} else if (strcmp(s->path, "offset_s") == 0) {
			st = value_int(cx, s, &clk->offset_s);
		} else if (strcmp(s->path, "offset") == 0) {
			st = value_int(cx, s, &clk->offset_cycles);
		} else if (strcmp(s->path, "absolute") == 0) {
			if (s->value.kind == TSDL_V_INT || s->value.kind ==
			    TSDL_V_PATH) {
				clk->absolute = (s->value.kind == TSDL_V_INT &&
				    s->value.ival != 0) || (s->value.kind ==
				    TSDL_V_PATH && (strcmp(s->value.str,
				    "true") == 0 || strcmp(s->value.str,
				    "TRUE") == 0));
			}
		}
	}
	if (st != TV_OK)
		return st;
	if (!name)
		return tsdl_semantic(cx, b->line, b->col,
		    _("clock has no name"));
	if (tsdl_find_clock(cx, name))
		return tsdl_semantic(cx, b->line, b->col,
		    _("clock '%s' is defined twice"), name);
	clk->name = tv_intern(cx->trace->names, name, strlen(name));
	tv_clock_finish(clk);
	return TV_OK;
}

/* env { key = value; ... } */
static enum tv_status
build_env(struct tsdl_ctx *cx, const struct tsdl_stmt *b)
{
	const struct tsdl_stmt *s;
	struct tv_env_entry *env;
	uint32_t n = cx->trace->nenv, cap = n;

	for (s = b->body; s; s = s->next)
		if (s->kind == TSDL_S_ASSIGN)
			cap++;
	env = tv_arena_zalloc(cx->a, (cap + 1) * sizeof(*env));
	if (n)
		memcpy(env, cx->trace->env, n * sizeof(*env));
	for (s = b->body; s; s = s->next) {
		struct tv_env_entry *e = &env[n];

		if (s->kind != TSDL_S_ASSIGN || s->typeassign)
			continue;
		e->key = tv_arena_strdup(cx->a, s->path);
		if (s->value.kind == TSDL_V_INT) {
			if (value_int(cx, s, &e->num) != TV_OK)
				return TV_SEMANTIC;
		} else {
			e->str = tv_arena_strdup(cx->a, s->value.str);
		}
		n++;
	}
	cx->trace->env = env;
	cx->trace->nenv = n;
	return TV_OK;
}

/* trace { major; minor; uuid; byte_order; packet.header := ... } */
static enum tv_status
build_trace(struct tsdl_ctx *cx, struct tsdl_scope *root,
    const struct tsdl_stmt *b, struct tsdl_scopes *sc)
{
	struct tsdl_scope bs = { root, NULL, 0, false };
	const struct tsdl_stmt *s;
	bool has_major = false, has_minor = false;
	uint64_t u;
	enum tv_status st = TV_OK;

	for (s = b->body; s && st == TV_OK; s = s->next) {
		if (s->kind != TSDL_S_ASSIGN) {
			st = block_decl(cx, &bs, s);
		} else if (strcmp(s->path, "major") == 0) {
			st = value_uint(cx, s, &u);
			cx->tc->major = (uint32_t)TV_MIN(u, UINT32_MAX);
			has_major = true;
		} else if (strcmp(s->path, "minor") == 0) {
			st = value_uint(cx, s, &u);
			cx->tc->minor = (uint32_t)TV_MIN(u, UINT32_MAX);
			has_minor = true;
		} else if (strcmp(s->path, "uuid") == 0) {
			st = value_uuid(cx, s, cx->trace->uuid);
			cx->trace->has_uuid = true;
		} else if (strcmp(s->path, "packet.header") == 0) {
			st = scope_type(cx, &bs, s, &cx->tc->packet_header);
		}
	}
	if (st != TV_OK)
		return st;
	if (!has_major || !has_minor)
		return tsdl_semantic(cx, b->line, b->col,
		    _("trace block lacks major or minor"));
	if (cx->tc->major != 1 || cx->tc->minor != 8)
		return tsdl_semantic(cx, b->line, b->col,
		    _("unsupported CTF version %u.%u"), cx->tc->major,
		    cx->tc->minor);
	sc->root[TV_SCOPE_PACKET_HEADER] = cx->tc->packet_header;
	st = tsdl_resolve_scope(cx, sc, TV_SCOPE_PACKET_HEADER);
	if (st == TV_OK) {
		static const char *const names[] = {
			"magic", "uuid", "stream_id", "stream_instance_id",
		};
		static const enum tv_field_role roles[] = {
			TV_ROLE_MAGIC, TV_ROLE_UUID, TV_ROLE_STREAM_ID,
			TV_ROLE_STREAM_INSTANCE_ID,
		};

		set_roles_flat(cx->tc->packet_header, names, roles,
		    TV_ARRAY_SIZE(names));
	}
	return st;
}

/* stream { id; packet.context; event.header; event.context } */
static enum tv_status
build_stream(struct tsdl_ctx *cx, struct tsdl_scope *root,
    const struct tsdl_stmt *b, struct tsdl_scopes *sc,
    struct ctf_stream_class **out)
{
	static const char *const names[] = {
		"timestamp_begin", "timestamp_end", "content_size",
		"packet_size", "events_discarded", "packet_seq_num", "cpu_id",
	};
	static const enum tv_field_role roles[] = {
		TV_ROLE_PACKET_BEGIN_TS, TV_ROLE_PACKET_END_TS,
		TV_ROLE_CONTENT_SIZE, TV_ROLE_PACKET_SIZE, TV_ROLE_DISCARDED,
		TV_ROLE_SEQ_NUM, TV_ROLE_CPU_ID,
	};
	struct tsdl_scope bs = { root, NULL, 0, false };
	struct ctf_stream_class *c = tv_arena_zalloc(cx->a, sizeof(*c));
	const struct tsdl_stmt *s;
	enum tv_status st = TV_OK;
	int i;

	for (s = b->body; s && st == TV_OK; s = s->next) {
		if (s->kind != TSDL_S_ASSIGN) {
			st = block_decl(cx, &bs, s);
		} else if (strcmp(s->path, "id") == 0) {
			st = value_uint(cx, s, &c->id);
			c->has_id = true;
		} else if (strcmp(s->path, "packet.context") == 0) {
			st = scope_type(cx, &bs, s, &c->packet_context);
		} else if (strcmp(s->path, "event.header") == 0) {
			st = scope_type(cx, &bs, s, &c->event_header);
		} else if (strcmp(s->path, "event.context") == 0) {
			st = scope_type(cx, &bs, s, &c->event_context);
		}
	}
	if (st == TV_OK && c->event_header)
		st = auto_map_clock(cx, c->event_header, "timestamp");
	if (st == TV_OK && c->packet_context)
		st = auto_map_clock(cx, c->packet_context, "timestamp_begin");
	if (st == TV_OK && c->packet_context)
		st = auto_map_clock(cx, c->packet_context, "timestamp_end");
	if (st != TV_OK)
		return st;
	sc->root[TV_SCOPE_PACKET_CONTEXT] = c->packet_context;
	sc->root[TV_SCOPE_EVENT_HEADER] = c->event_header;
	sc->root[TV_SCOPE_EVENT_COMMON_CONTEXT] = c->event_context;
	for (i = TV_SCOPE_PACKET_CONTEXT; i <= TV_SCOPE_EVENT_COMMON_CONTEXT;
	    i++) {
		st = tsdl_resolve_scope(cx, sc, i);
		if (st != TV_OK)
			return st;
	}
	set_roles_flat(c->packet_context, names, roles, TV_ARRAY_SIZE(names));
	if (c->event_header)
		set_roles_header(c->event_header);
	c->clock = mapped_clock(c->event_header);
	if (!c->clock && c->packet_context) {
		const struct tv_field_class *ts = tsdl_struct_member(
		    c->packet_context, "timestamp_begin", UINT32_MAX);

		if (ts && ts->kind == TV_FC_INT)
			c->clock = ts->integer.map_clock;
	}
	if (!c->clock && cx->trace->nclocks == 1)
		c->clock = &cx->trace->clocks[0];
	*out = c;
	return TV_OK;
}

/* Build stream block @b and append it; ids must differ. */
static enum tv_status
add_stream(struct tsdl_ctx *cx, struct tsdl_scope *root,
    const struct tsdl_stmt *b, struct tsdl_scopes *sc)
{
	struct ctf_trace_class *tc = cx->tc;
	struct ctf_stream_class *c;
	enum tv_status st;
	uint32_t i;

	st = build_stream(cx, root, b, sc, &c);
	if (st != TV_OK)
		return st;
	for (i = 0; i < tc->nsclasses; i++)
		if (tc->sclasses[i]->id == c->id)
			return tsdl_semantic(cx, b->line, b->col, c->has_id ?
			    _("two stream classes have id %llu") :
			    _("several stream classes lack an id"),
			    (unsigned long long)c->id);
	tc->sclasses[tc->nsclasses++] = c;
	return TV_OK;
}

/* qsort order of stream classes: by id. */
static int
cmp_sclass_id(const void *a, const void *b)
{
	const struct ctf_stream_class *x = *(const struct ctf_stream_class *
	    const *)a;
	const struct ctf_stream_class *y = *(const struct ctf_stream_class *
	    const *)b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The stream class of id @id (sclasses sorted by id), or NULL. */
static struct ctf_stream_class *
find_sclass(struct ctf_trace_class *tc, uint64_t id)
{
	uint32_t lo = 0, hi = tc->nsclasses;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (tc->sclasses[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < tc->nsclasses && tc->sclasses[lo]->id == id)
		return tc->sclasses[lo];
	return NULL;
}

/* event { name; id; stream_id; loglevel; model.emf.uri; context; fields } */
static enum tv_status
build_event(struct tsdl_ctx *cx, struct tsdl_scope *root,
    const struct tsdl_stmt *b, struct tv_event_class **out)
{
	struct tsdl_scope bs = { root, NULL, 0, false };
	struct tv_event_class *ec = tv_arena_zalloc(cx->a, sizeof(*ec));
	struct ctf_event_class *priv = tv_arena_zalloc(cx->a, sizeof(*priv));
	struct ctf_trace_class *tc = cx->tc;
	struct tv_field_class *ctx = NULL, *fields = NULL;
	const struct tsdl_stmt *s, *sid_stmt = NULL;
	const char *name = "";
	struct tsdl_scopes sc;
	uint64_t sid = 0;
	int64_t ll;
	enum tv_status st = TV_OK;

	ec->loglevel = -1;
	ec->count = TV_COUNT_UNKNOWN;
	for (s = b->body; s && st == TV_OK; s = s->next) {
		if (s->kind != TSDL_S_ASSIGN) {
			st = block_decl(cx, &bs, s);
		} else if (strcmp(s->path, "name") == 0) {
			st = value_text(cx, s, &name);
		} else if (strcmp(s->path, "id") == 0) {
			st = value_uint(cx, s, &ec->id);
		} else if (strcmp(s->path, "stream_id") == 0) {
			st = value_uint(cx, s, &sid);
			sid_stmt = s;
		} else if (strcmp(s->path, "loglevel") == 0) {
			st = value_int(cx, s, &ll);
			ec->loglevel = (int32_t)TV_MAX(TV_MIN(ll, INT32_MAX),
			    INT32_MIN);
		} else if (strcmp(s->path, "model.emf.uri") == 0) {
			st = value_text(cx, s, &ec->model_emf_uri);
		} else if (strcmp(s->path, "context") == 0) {
			st = scope_type(cx, &bs, s, &ctx);
		} else if (strcmp(s->path, "fields") == 0) {
			st = scope_type(cx, &bs, s, &fields);
		}
	}
	if (st != TV_OK)
		return st;
	if (sid_stmt) {
		priv->sclass = find_sclass(tc, sid);
		if (!priv->sclass)
			return tsdl_semantic(cx, sid_stmt->line,
			    sid_stmt->col, _("no stream class has id %llu"),
			    (unsigned long long)sid);
	} else if (tc->nsclasses == 1) {
		priv->sclass = tc->sclasses[0];
	} else {
		return tsdl_semantic(cx, b->line, b->col,
		    _("event '%s' needs a stream_id: there are %u stream "
		    "classes"), name, tc->nsclasses);
	}
	memset(&sc, 0, sizeof(sc));
	sc.root[TV_SCOPE_PACKET_HEADER] = tc->packet_header;
	sc.root[TV_SCOPE_PACKET_CONTEXT] = priv->sclass->packet_context;
	sc.root[TV_SCOPE_EVENT_HEADER] = priv->sclass->event_header;
	sc.root[TV_SCOPE_EVENT_COMMON_CONTEXT] = priv->sclass->event_context;
	sc.root[TV_SCOPE_EVENT_SPECIFIC_CONTEXT] = ctx;
	sc.root[TV_SCOPE_EVENT_PAYLOAD] = fields;
	st = tsdl_resolve_scope(cx, &sc, TV_SCOPE_EVENT_SPECIFIC_CONTEXT);
	if (st == TV_OK)
		st = tsdl_resolve_scope(cx, &sc, TV_SCOPE_EVENT_PAYLOAD);
	if (st != TV_OK)
		return st;
	ec->name = tv_intern(cx->trace->names, name, strlen(name));
	ec->stream_class_id = priv->sclass->id;
	ec->context = ctx;
	ec->payload = fields;
	ec->priv = priv;
	*out = ec;
	return TV_OK;
}

/* qsort order of event classes: by id, then declaration. */
static int
cmp_event_id(const void *a, const void *b)
{
	const struct tv_event_class *x = *(const struct tv_event_class *
	    const *)a;
	const struct tv_event_class *y = *(const struct tv_event_class *
	    const *)b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Fill each stream class's sorted event table (see ctf-priv.h); shared
 * with the CTF 2 pass.
 */
bool
ctf_events_index(struct tv_trace *trace, struct ctf_trace_class *tc,
    struct tv_arena *a, uint32_t *dup)
{
	uint32_t i, j, k;

	for (i = 0; i < trace->nclasses; i++) {
		struct ctf_event_class *p = trace->classes[i]->priv;

		p->sclass->nevents++;
	}
	for (j = 0; j < tc->nsclasses; j++) {
		struct ctf_stream_class *c = tc->sclasses[j];

		c->events = tv_arena_alloc(a, (c->nevents + 1) *
		    sizeof(*c->events));
		c->nevents = 0;
	}
	for (i = 0; i < trace->nclasses; i++) {
		struct ctf_event_class *p = trace->classes[i]->priv;

		p->sclass->events[p->sclass->nevents++] = trace->classes[i];
	}
	for (j = 0; j < tc->nsclasses; j++) {
		struct ctf_stream_class *c = tc->sclasses[j];

		qsort(c->events, c->nevents, sizeof(*c->events),
		    cmp_event_id);
		for (k = 1; k < c->nevents; k++)
			if (c->events[k]->id == c->events[k - 1]->id) {
				*dup = c->events[k]->index;
				return false;
			}
	}
	return true;
}

/* Fill the event tables; a duplicate id is an error at its block. */
static enum tv_status
index_events(struct tsdl_ctx *cx, const struct tsdl_stmt **stmts)
{
	const struct tv_event_class *ec;
	const struct tsdl_stmt *s;
	uint32_t dup = 0;

	if (ctf_events_index(cx->trace, cx->tc, cx->a, &dup))
		return TV_OK;
	ec = cx->trace->classes[dup];
	s = stmts[dup];
	return tsdl_semantic(cx, s->line, s->col,
	    _("event id %llu is used twice in stream class %llu"),
	    (unsigned long long)ec->id,
	    (unsigned long long)ec->stream_class_id);
}

/* "/ * CTF 1.8" at the top, if present, must say 1.8. */
static enum tv_status
check_header(const char *text, size_t len, const char *path,
    struct tv_error *err)
{
	static const char magic[] = "/* CTF ";
	uint64_t major = 0, minor = 0;
	size_t i = sizeof(magic) - 1;
	bool dot = false;

	if (len < i || memcmp(text, magic, i) != 0)
		return TV_OK;
	for (; i < len && i < 64; i++) {
		char c = text[i];

		if (c >= '0' && c <= '9') {
			uint64_t *v = dot ? &minor : &major;

			if (*v > 1000000)
				goto bad;
			*v = *v * 10 + (uint64_t)(c - '0');
		} else if (c == '.' && !dot) {
			dot = true;
		} else {
			break;
		}
	}
	if (dot && major == 1 && minor == 8)
		return TV_OK;
bad:
	return tv_error_set(err, TV_UNSUPPORTED,
	    &(struct tv_loc){ path, TV_NO_OFFSET, 1, 4 },
	    _("unsupported CTF version in the metadata header (expected "
	    "1.8)"));
}

/* The byte order the trace block declares; false if it declares none. */
bool
tsdl_trace_byte_order(const struct tsdl_stmt *top, enum tv_byte_order *bo)
{
	const struct tsdl_stmt *b, *s;
	const char *w;

	for (b = top; b; b = b->next) {
		if (b->kind != TSDL_S_BLOCK || strcmp(b->path, "trace") != 0)
			continue;
		for (s = b->body; s; s = s->next) {
			if (s->kind != TSDL_S_ASSIGN ||
			    strcmp(s->path, "byte_order") != 0 ||
			    s->value.kind != TSDL_V_PATH)
				continue;
			w = s->value.str;
			*bo = strcmp(w, "be") == 0 || strcmp(w, "big") == 0 ||
			    strcmp(w, "network") == 0 ? TV_BO_BE : TV_BO_LE;
			return true;
		}
	}
	return false;
}

/* Everything but the header check and parse: walks the tree. */
static enum tv_status
build_model(struct tsdl_ctx *cx, const struct tsdl_stmt *top)
{
	struct tv_trace *trace = cx->trace;
	struct ctf_trace_class *tc = cx->tc;
	struct tsdl_scope root = { NULL, NULL, 0, false };
	const struct tsdl_stmt *s, **ev_stmts;
	struct tsdl_scopes sc;
	uint32_t nclocks = 0, nstreams = 0, nevents = 0, ntrace = 0;
	enum tv_status st;

	memset(&sc, 0, sizeof(sc));
	for (s = top; s; s = s->next) {
		if (s->kind != TSDL_S_BLOCK)
			continue;
		if (strcmp(s->path, "clock") == 0)
			nclocks++;
		else if (strcmp(s->path, "stream") == 0)
			nstreams++;
		else if (strcmp(s->path, "event") == 0)
			nevents++;
		else if (strcmp(s->path, "trace") == 0)
			ntrace++;
	}
	if (ntrace != 1)
		return tsdl_semantic(cx, 1, 1, ntrace ?
		    _("more than one trace block") :
		    _("no trace block"));
	if (nstreams > TSDL_MAX_SCLASSES)
		return tsdl_semantic(cx, 1, 1, _("more than %u stream classes"),
		    TSDL_MAX_SCLASSES);
	if (nclocks > TSDL_MAX_CLOCKS)
		return tsdl_semantic(cx, 1, 1, _("too many clocks"));
	if (!tsdl_trace_byte_order(top, &cx->bo))
		cx->bo = TV_BO_LE;
	tc->byte_order = cx->bo;
	trace->clocks = tv_arena_zalloc(cx->a, (nclocks + 1) *
	    sizeof(*trace->clocks));
	for (s = top; s; s = s->next)
		if (s->kind == TSDL_S_BLOCK && strcmp(s->path, "clock") == 0) {
			st = build_clock(cx, s,
			    &trace->clocks[trace->nclocks]);
			if (st != TV_OK)
				return st;
			trace->nclocks++;
		}
	tc->sclasses = tv_arena_zalloc(cx->a, (nstreams + 1) *
	    sizeof(*tc->sclasses));
	trace->classes = tv_arena_zalloc(cx->a, (nevents + 1) *
	    sizeof(*trace->classes));
	ev_stmts = tv_arena_zalloc(cx->a, (nevents + 1) * sizeof(*ev_stmts));
	for (s = top; s; s = s->next) {
		if (s->kind == TSDL_S_BLOCK) {
			if (strcmp(s->path, "trace") == 0)
				st = build_trace(cx, &root, s, &sc);
			else if (strcmp(s->path, "env") == 0)
				st = build_env(cx, s);
			else if (strcmp(s->path, "stream") == 0)
				st = add_stream(cx, &root, s, &sc);
			else if (strcmp(s->path, "event") == 0)
				st = TV_OK;	/* after all streams */
			else
				st = TV_OK;	/* clock: done; callsite */
		} else if (s->kind == TSDL_S_ASSIGN) {
			st = tsdl_semantic(cx, s->line, s->col,
			    _("unexpected attribute '%s' outside a block"),
			    s->path);
		} else {
			st = block_decl(cx, &root, s);
		}
		if (st != TV_OK)
			return st;
	}
	qsort(tc->sclasses, tc->nsclasses, sizeof(*tc->sclasses),
	    cmp_sclass_id);
	if (tc->nsclasses == 0 && nevents > 0)
		tc->sclasses[tc->nsclasses++] = tv_arena_zalloc(cx->a,
		    sizeof(struct ctf_stream_class));
	for (s = top; s; s = s->next) {
		struct tv_event_class *ec = NULL;

		if (s->kind != TSDL_S_BLOCK || strcmp(s->path, "event") != 0)
			continue;
		st = build_event(cx, &root, s, &ec);
		if (st != TV_OK)
			return st;
		ec->index = trace->nclasses;
		ev_stmts[trace->nclasses] = s;
		trace->classes[trace->nclasses++] = ec;
	}
	return index_events(cx, ev_stmts);
}

/*
 * The byte order of metadata packets must be the one the text declares
 * for the trace (none declared: nothing to contradict).  Checked on the
 * tree the model is built from, not on a parse of its own: metadata is
 * parsed once.
 */
static enum tv_status
check_packet_order(const char *path, const struct ctf_trace_class *tc,
    const struct tsdl_stmt *top, struct tv_error *err)
{
	enum tv_byte_order bo;

	if (!tc->packetized || !tsdl_trace_byte_order(top, &bo) ||
	    bo == tc->packet_bo)
		return TV_OK;
	return tv_error_at(err, TV_CORRUPT, path, 0, "%s",
	    tc->packet_bo == TV_BO_BE ?
	    _("metadata packets are big-endian but the trace is "
	    "declared little-endian") :
	    _("metadata packets are little-endian but the trace is "
	    "declared big-endian"));
}

/* Parse TSDL and build the trace model (see ctf-priv.h). */
enum tv_status
ctf_tsdl_build(const char *text, size_t len, const char *path,
    struct tv_trace *trace, struct ctf_trace_class *tc,
    struct tv_error *err)
{
	struct tsdl_ctx cx = { path, trace, tc, &trace->arena, err,
	    TV_BO_LE, 0 };
	struct tv_arena parse_arena;
	struct tsdl_stmt *top;
	enum tv_status st;

	st = check_header(text, len, path, err);
	if (st != TV_OK)
		return st;
	tv_arena_init(&parse_arena);
	st = tsdl_parse(text, len, path, &parse_arena, &top, err);
	if (st == TV_OK)
		st = check_packet_order(path, tc, top, err);
	if (st == TV_OK)
		st = build_model(&cx, top);
	tv_arena_fini(&parse_arena);
	return st;
}
