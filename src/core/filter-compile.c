/*
 * The filter compiler: tv_filter_compile() parses the text once, then
 * resolves it once per event class of the set.  Resolving a part's tree
 * for a class replaces each name by what it denotes there (a field of the
 * class, looked up in the scope it was found in, or a built-in), parses
 * time literals, folds constants, and turns comparisons on a field the
 * class lacks into false, as trace-cmd does.  What is left is the class's
 * program; a program folded to false makes the class NEVER match, so the
 * caller skips its events after the header decode.
 *
 * Event lists follow trace-cmd: each entry is an anchored, case-folded
 * POSIX regular expression matched against the event name or its system
 * ("SYSTEM/EVENT" matches both); tview also takes it as a glob
 * ("syscall_entry_*") and matches the full name ("provider:event").
 */
#include "tview/tview.h"

#include <fnmatch.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/packet-cache.h"
#include "tview/state.h"
#include "filter-priv.h"

/* Budget of the packet cache used to sample each stream's first event. */
#define FILTER_SAMPLE_CACHE	(4u << 20)
/* Farthest edit distance of a "did you mean" suggestion. */
#define FILTER_SUGGEST_MAX	3

/* The built-in names, taken when the class has no field of that name. */
static const struct {
	const char	*name;
	enum fkind	 kind;
} builtins[] = {
	{ "cpu", FN_CPU }, { "CPU", FN_CPU }, { "tid", FN_TID },
	{ "pid", FN_PID }, { "comm", FN_COMM }, { "COMM", FN_COMM },
	{ "trace", FN_TRACE }, { "time", FN_TIME },
};

/* A field name a stream's events carry outside their class's scopes. */
struct sample_name {
	uint64_t	 stream_class_id;
	const char	*name;		/* arena */
	uint8_t		 scope;
};

/* Compile-time state: one per tv_filter_compile(). */
struct rstate {
	struct tv_filter	*f;
	struct tv_error		*err;
	const struct tv_trace	*trace;
	uint32_t		 trace_index;
	const struct tv_event_class *cls;
	/* per part and selector: compiled regex (or not) and matched */
	regex_t			**sys_re, **ev_re;
	bool			**sel_re_ok;
	bool			**sel_matched;
	/* per trace, built on first need */
	struct sample_name	*samples;
	size_t			 nsamples;
	bool			 sampled;
	bool			 uses_fields, uses_state;
	unsigned		 scopes;	/* the fields': TV_SCOPE_BIT()s */
};

/* The system of @c: its own, or the name's prefix before ':' or '.'. */
static size_t
class_system(const struct tv_event_class *c, const char **sys)
{
	const char *p;

	if (c->system != NULL) {
		*sys = c->system;
		return strlen(c->system);
	}
	*sys = c->name;
	p = strpbrk(c->name, ":.");
	return p ? (size_t)(p - c->name) : 0;
}

/* The name of @c without its system prefix. */
static const char *
class_short_name(const struct tv_event_class *c)
{
	const char *p;

	if (c->system != NULL)
		return c->name;
	p = strpbrk(c->name, ":.");
	return p ? p + 1 : c->name;
}

/* Whether @s (@len bytes) matches regex @re or glob @glob. */
static bool
name_matches(const regex_t *re, const char *glob, const char *s, size_t len)
{
	char buf[512];

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (re != NULL && regexec(re, buf, 0, NULL, 0) == 0)
		return true;
	return fnmatch(glob, buf, FNM_CASEFOLD) == 0;
}

/* Whether selector @k of part @p selects class @c. */
static bool
selects(struct rstate *rs, uint32_t p, uint32_t k,
    const struct tv_event_class *c)
{
	const char *sel = rs->f->parts[p].sels[k], *slash, *sys;
	const char *shortn = class_short_name(c);
	bool ok = rs->sel_re_ok[p][k];
	size_t syslen = class_system(c, &sys);
	char glob[512];

	slash = strchr(sel, '/');
	if (slash != NULL) {
		size_t n = TV_MIN((size_t)(slash - sel), sizeof(glob) - 1);

		memcpy(glob, sel, n);
		glob[n] = '\0';
		return syslen > 0 &&
		    name_matches(ok ? &rs->sys_re[p][k] : NULL, glob, sys,
		    syslen) &&
		    name_matches(ok ? &rs->ev_re[p][k] : NULL, slash + 1,
		    shortn, strlen(shortn));
	}
	return (syslen > 0 && name_matches(ok ? &rs->ev_re[p][k] : NULL, sel,
	    sys, syslen)) ||
	    name_matches(ok ? &rs->ev_re[p][k] : NULL, sel, shortn,
	    strlen(shortn)) ||
	    name_matches(ok ? &rs->ev_re[p][k] : NULL, sel, c->name,
	    strlen(c->name));
}

/* Compile "^RE$" (case folded) into @re; false if it is no regex. */
static bool
anchored_regex(regex_t *re, const char *s, size_t len)
{
	char *pat;
	bool ok;

	tv_xasprintf(&pat, "^%.*s$", (int)len, s);
	ok = regcomp(re, pat, REG_ICASE | REG_NOSUB) == 0;
	free(pat);
	return ok;
}

/* Compile the regexes of every selector. */
static void
compile_selectors(struct rstate *rs)
{
	struct tv_filter *f = rs->f;
	uint32_t p, k;

	rs->sys_re = tv_xcalloc(f->nparts, sizeof(*rs->sys_re));
	rs->ev_re = tv_xcalloc(f->nparts, sizeof(*rs->ev_re));
	rs->sel_re_ok = tv_xcalloc(f->nparts, sizeof(*rs->sel_re_ok));
	rs->sel_matched = tv_xcalloc(f->nparts, sizeof(*rs->sel_matched));
	for (p = 0; p < f->nparts; p++) {
		uint32_t n = f->parts[p].nsels;

		rs->sys_re[p] = tv_xcalloc(n + 1, sizeof(regex_t));
		rs->ev_re[p] = tv_xcalloc(n + 1, sizeof(regex_t));
		rs->sel_re_ok[p] = tv_xcalloc(n + 1, sizeof(bool));
		rs->sel_matched[p] = tv_xcalloc(n + 1, sizeof(bool));
		for (k = 0; k < n; k++) {
			const char *sel = f->parts[p].sels[k];
			const char *slash = strchr(sel, '/');
			bool ok;

			if (slash != NULL) {
				ok = anchored_regex(&rs->sys_re[p][k], sel,
				    (size_t)(slash - sel));
				if (ok && !anchored_regex(&rs->ev_re[p][k],
				    slash + 1, strlen(slash + 1))) {
					regfree(&rs->sys_re[p][k]);
					ok = false;
				}
			} else {
				ok = anchored_regex(&rs->ev_re[p][k], sel,
				    strlen(sel));
			}
			rs->sel_re_ok[p][k] = ok;
		}
	}
}

/* Free what compile_selectors() made. */
static void
free_selectors(struct rstate *rs)
{
	uint32_t p, k;

	if (rs->sys_re == NULL)
		return;
	for (p = 0; p < rs->f->nparts; p++) {
		for (k = 0; k < rs->f->parts[p].nsels; k++) {
			if (!rs->sel_re_ok[p][k])
				continue;
			if (strchr(rs->f->parts[p].sels[k], '/'))
				regfree(&rs->sys_re[p][k]);
			regfree(&rs->ev_re[p][k]);
		}
		free(rs->sys_re[p]);
		free(rs->ev_re[p]);
		free(rs->sel_re_ok[p]);
		free(rs->sel_matched[p]);
	}
	free(rs->sys_re);
	free(rs->ev_re);
	free(rs->sel_re_ok);
	free(rs->sel_matched);
}

/* Record the top-level member names of @v as samples of @scid. */
static void
sample_scope(struct rstate *rs, uint64_t scid, const struct tv_value *v,
    uint8_t scope, size_t *cap)
{
	uint32_t i;

	if (v == NULL || v->fc == NULL || v->fc->kind != TV_FC_STRUCT)
		return;
	for (i = 0; i < v->kids.count; i++) {
		struct sample_name *sn;

		if (v->kids.items[i].name == NULL)
			continue;
		TV_VEC_GROW(rs->samples, rs->nsamples, *cap);
		sn = &rs->samples[rs->nsamples++];
		sn->stream_class_id = scid;
		sn->name = tv_arena_strdup(&rs->f->arena,
		    v->kids.items[i].name);
		sn->scope = scope;
	}
}

/*
 * The names a trace's events carry in the scopes their classes do not
 * describe (CTF stream event context, event header, packet context):
 * read from the first event of one stream of each stream class.
 */
static void
sample_streams(struct rstate *rs)
{
	const struct tv_trace *t = rs->trace;
	struct tv_packet_cache *pc;
	struct tv_arena arena;
	size_t cap = 0;
	uint32_t i, j;

	rs->sampled = true;
	pc = tv_packet_cache_create(FILTER_SAMPLE_CACHE);
	tv_arena_init(&arena);
	for (i = 0; i < t->nstreams; i++) {
		struct tv_stream *s = t->streams[i];
		bool seen = false;
		uint64_t p;

		for (j = 0; j < rs->nsamples && !seen; j++)
			seen = rs->samples[j].stream_class_id == s->class_id;
		for (p = 0; p < s->npackets && !seen; p++) {
			const struct tv_packet_events *pe;
			struct tv_event_fields fl;
			struct tv_event ev;
			uint64_t r;

			pe = tv_packet_cache_get(pc, s, p);
			for (r = 0; pe && r < pe->count; r++)
				if (pe->recs[r].kind == TV_REC_EVENT)
					break;
			if (pe == NULL || r == pe->count)
				continue;
			ev.stream = s;
			ev.packet = p;
			ev.index = r;
			ev.rec = pe->recs[r];
			tv_arena_reset(&arena);
			if (tv_event_decode(&ev, &arena, &fl, NULL) != TV_OK)
				break;
			/* not the class's own scopes: class->payload and
			   class->context say those */
			for (uint8_t sc = 0; sc < TV_SCOPE_COUNT; sc++)
				if (sc != TV_SCOPE_EVENT_PAYLOAD &&
				    sc != TV_SCOPE_EVENT_SPECIFIC_CONTEXT)
					sample_scope(rs, s->class_id,
					    fl.scope[sc], sc, &cap);
			seen = true;
		}
	}
	tv_arena_fini(&arena);
	tv_packet_cache_destroy(pc);
}

/* Whether struct class @fc has a member @name. */
static bool
has_member(const struct tv_field_class *fc, const char *name)
{
	uint32_t i;

	if (fc == NULL || fc->kind != TV_FC_STRUCT)
		return false;
	for (i = 0; i < fc->structure.nmembers; i++)
		if (fc->structure.members[i].name &&
		    strcmp(fc->structure.members[i].name, name) == 0)
			return true;
	return false;
}

/*
 * Where class rs->cls has a field @name: its scope, TV_SCOPE_COUNT for
 * "its context, whichever scope the driver decodes it into", or -1.
 */
static int
field_scope(struct rstate *rs, const char *name)
{
	const struct tv_event_class *c = rs->cls;
	size_t i;

	if (has_member(c->payload, name))
		return TV_SCOPE_EVENT_PAYLOAD;
	if (has_member(c->context, name))
		return TV_SCOPE_COUNT;
	if (!rs->sampled)
		sample_streams(rs);
	for (i = 0; i < rs->nsamples; i++)
		if (rs->samples[i].stream_class_id == c->stream_class_id &&
		    strcmp(rs->samples[i].name, name) == 0)
			return rs->samples[i].scope;
	return -1;
}

/* A resolved node of @kind copied from @n. */
static struct fnode *
rnode(struct rstate *rs, const struct fnode *n, enum fkind kind)
{
	struct fnode *r = tv_arena_alloc(&rs->f->arena, sizeof(*r));

	*r = *n;
	r->kind = (uint8_t)kind;
	return r;
}

/* A constant condition. */
static struct fnode *
rconst(struct rstate *rs, const struct fnode *n, bool v)
{
	return rnode(rs, n, v ? FN_TRUE : FN_FALSE);
}

/* Whether @n is a literal integer (foldable). */
static bool
is_int_const(const struct fnode *n)
{
	return n->kind == FN_NUM && n->num_ok;
}

/* Fold an arithmetic operation on two constants; false on / or % by 0. */
static bool
fold_arith(enum ftok op, uint64_t a, uint64_t b, uint64_t *out)
{
	switch (op) {
	case FT_PLUS:	*out = a + b; break;
	case FT_MINUS:	*out = a - b; break;
	case FT_MUL:	*out = a * b; break;
	case FT_DIV:	if (b == 0) return false; *out = a / b; break;
	case FT_MOD:	if (b == 0) return false; *out = a % b; break;
	case FT_SHL:	*out = b >= 64 ? 0 : a << b; break;
	case FT_SHR:	*out = b >= 64 ? 0 : a >> b; break;
	case FT_BAND:	*out = a & b; break;
	case FT_BOR:	*out = a | b; break;
	case FT_XOR:	*out = a ^ b; break;
	default:	return false;
	}
	return true;
}

/* Compare two integer constants as filter-eval.c does. */
static bool
fold_cmp(enum ftok op, const struct fnode *a, const struct fnode *b)
{
	bool sgn = a->neg || b->neg;
	int c;

	if (sgn)
		c = (int64_t)a->num < (int64_t)b->num ? -1 :
		    (int64_t)a->num > (int64_t)b->num;
	else
		c = a->num < b->num ? -1 : a->num > b->num;
	switch (op) {
	case FT_EQ:	return c == 0;
	case FT_NE:	return c != 0;
	case FT_LT:	return c < 0;
	case FT_LE:	return c <= 0;
	case FT_GT:	return c > 0;
	case FT_GE:	return c >= 0;
	default:	return false;
	}
}

static enum tv_status resolve(struct rstate *rs, struct fnode *n,
		    struct fnode **out);

/* A time literal compared with `time`: its value in ns, as FN_NUM. */
static enum tv_status
time_literal(struct rstate *rs, struct fnode *lit, struct fnode **out)
{
	struct tv_error terr;
	int64_t ns;

	tv_error_clear(&terr);
	if (tv_time_parse(lit->text, &rs->f->tctx, &ns, &terr) != TV_OK)
		return filter_error(rs->err, TV_SYNTAX, lit->col, "%s",
		    terr.msg[0] ? terr.msg : _("invalid time"));
	*out = rnode(rs, lit, FN_NUM);
	(*out)->num = (uint64_t)ns;
	(*out)->num_ok = true;
	(*out)->neg = true;	/* times compare signed */
	return TV_OK;
}

/* Check that a literal number outside a time comparison is a number. */
static enum tv_status
check_number(struct rstate *rs, const struct fnode *n)
{
	if (n->kind == FN_NUM && !n->num_ok)
		return filter_error(rs->err, TV_SYNTAX, n->col,
		    _("invalid number '%s'"), n->text);
	return TV_OK;
}

/* Resolve a comparison. */
static enum tv_status
resolve_cmp(struct rstate *rs, struct fnode *n, struct fnode **out)
{
	struct fnode *l, *r;
	enum tv_status st;

	if ((st = resolve(rs, n->l, &l)) != TV_OK ||
	    (st = resolve(rs, n->r, &r)) != TV_OK)
		return st;
	if (l->kind == FN_FALSE || r->kind == FN_FALSE) {
		*out = rconst(rs, n, false);
		return TV_OK;
	}
	if (l->kind == FN_TIME && (r->kind == FN_NUM || r->kind == FN_STR) &&
	    n->op <= FT_GE)
		st = time_literal(rs, r, &r);
	else if (r->kind == FN_TIME && (l->kind == FN_NUM ||
	    l->kind == FN_STR) && n->op <= FT_GE)
		st = time_literal(rs, l, &l);
	else if ((st = check_number(rs, l)) == TV_OK)
		st = check_number(rs, r);
	if (st != TV_OK)
		return st;
	if (is_int_const(l) && is_int_const(r) && n->op <= FT_GE) {
		*out = rconst(rs, n, fold_cmp(n->op, l, r));
		return TV_OK;
	}
	*out = rnode(rs, n, FN_CMP);
	(*out)->l = l;
	(*out)->r = r;
	return TV_OK;
}

/* Resolve a name in class rs->cls. */
static struct fnode *
resolve_name(struct rstate *rs, struct fnode *n)
{
	const char *name = n->text + (n->text[0] == '$');
	struct fnode *r;
	size_t i;
	int sc;

	sc = n->text[0] == '$' ? -1 : field_scope(rs, n->text);
	if (sc >= 0) {
		n->found = true;
		rs->uses_fields = true;
		rs->scopes |= sc < TV_SCOPE_COUNT ? TV_SCOPE_BIT(sc) :
		    TV_SCOPES_ALL;
		r = rnode(rs, n, FN_FIELD);
		r->scope = (uint8_t)sc;
		return r;
	}
	for (i = 0; i < TV_ARRAY_SIZE(builtins); i++)
		if (strcmp(builtins[i].name, name) == 0) {
			n->found = true;
			if (builtins[i].kind == FN_TID ||
			    builtins[i].kind == FN_PID ||
			    builtins[i].kind == FN_COMM)
				rs->uses_state = true;
			r = rnode(rs, n, builtins[i].kind);
			r->num = rs->trace_index;
			/* trace-cmd's COMM calls the idle task <idle> */
			r->neg = strcmp(name, "COMM") == 0;
			return r;
		}
	/* not in this class: the comparison is false (trace-cmd) */
	return rconst(rs, n, false);
}

/* Resolve the tree @n for class rs->cls into *@out (folded). */
static enum tv_status
resolve(struct rstate *rs, struct fnode *n, struct fnode **out)
{
	struct fnode *l, *r;
	enum tv_status st;
	uint64_t v;

	switch ((enum fkind)n->kind) {
	case FN_NAME:
		*out = resolve_name(rs, n);
		return TV_OK;
	case FN_ARITH:
	case FN_NEG:
		if ((st = resolve(rs, n->l, &l)) != TV_OK)
			return st;
		r = NULL;
		if (n->r && (st = resolve(rs, n->r, &r)) != TV_OK)
			return st;
		if ((st = check_number(rs, l)) != TV_OK ||
		    (r && (st = check_number(rs, r)) != TV_OK))
			return st;
		if (l->kind == FN_FALSE || (r && r->kind == FN_FALSE)) {
			*out = rconst(rs, n, false);	/* absent value */
			return TV_OK;
		}
		if (n->kind == FN_NEG && is_int_const(l)) {
			*out = rnode(rs, l, FN_NUM);
			(*out)->num = (uint64_t)0 - l->num;
			(*out)->neg = !l->neg;
			return TV_OK;
		}
		if (r && is_int_const(l) && is_int_const(r)) {
			if (!fold_arith((enum ftok)n->op, l->num, r->num, &v)) {
				*out = rconst(rs, n, false);
				return TV_OK;
			}
			*out = rnode(rs, l, FN_NUM);
			(*out)->num = v;
			(*out)->neg = l->neg || r->neg;
			return TV_OK;
		}
		*out = rnode(rs, n, (enum fkind)n->kind);
		(*out)->l = l;
		(*out)->r = r;
		return TV_OK;
	case FN_CMP:
		return resolve_cmp(rs, n, out);
	case FN_NOT:
		if ((st = resolve(rs, n->l, &l)) != TV_OK)
			return st;
		if ((st = check_number(rs, l)) != TV_OK)
			return st;
		if (l->kind == FN_TRUE || l->kind == FN_FALSE)
			*out = rconst(rs, n, l->kind == FN_FALSE);
		else if (is_int_const(l))
			*out = rconst(rs, n, l->num == 0);
		else {
			*out = rnode(rs, n, FN_NOT);
			(*out)->l = l;
		}
		return TV_OK;
	case FN_AND:
	case FN_OR: {
		bool is_and = n->kind == FN_AND;

		if ((st = resolve(rs, n->l, &l)) != TV_OK ||
		    (st = resolve(rs, n->r, &r)) != TV_OK)
			return st;
		if ((st = check_number(rs, l)) != TV_OK ||
		    (st = check_number(rs, r)) != TV_OK)
			return st;
		if (is_int_const(l))
			l = rconst(rs, l, l->num != 0);
		if (is_int_const(r))
			r = rconst(rs, r, r->num != 0);
		/* x && false, x || true: the constant decides */
		if (l->kind == (is_and ? FN_FALSE : FN_TRUE) ||
		    r->kind == (is_and ? FN_FALSE : FN_TRUE)) {
			*out = rconst(rs, n, !is_and);
			return TV_OK;
		}
		if (l->kind == FN_TRUE || l->kind == FN_FALSE) {
			*out = r;
			return TV_OK;
		}
		if (r->kind == FN_TRUE || r->kind == FN_FALSE) {
			*out = l;
			return TV_OK;
		}
		*out = rnode(rs, n, (enum fkind)n->kind);
		(*out)->l = l;
		(*out)->r = r;
		return TV_OK;
	}
	default:
		*out = n;	/* literals are shared */
		return TV_OK;
	}
}

/* The program of class rs->cls: the OR of the parts that select it. */
static enum tv_status
compile_class(struct rstate *rs, struct fprog *prog)
{
	struct fnode *root = NULL, *e;
	enum tv_status st;
	uint32_t p, k;

	rs->uses_fields = rs->uses_state = false;
	rs->scopes = 0;
	for (p = 0; p < rs->f->nparts; p++) {
		const struct fpart *part = &rs->f->parts[p];
		bool sel = part->nsels == 0;

		for (k = 0; k < part->nsels; k++)
			if (selects(rs, p, k, rs->cls)) {
				rs->sel_matched[p][k] = true;
				sel = true;
			}
		if (!sel)
			continue;
		if (part->expr == NULL) {
			root = rconst(rs, &(struct fnode){ .kind = FN_TRUE },
			    true);
			break;
		}
		if ((st = resolve(rs, part->expr, &e)) != TV_OK)
			return st;
		if ((st = check_number(rs, e)) != TV_OK)
			return st;
		if (is_int_const(e))
			e = rconst(rs, e, e->num != 0);
		if (e->kind == FN_FALSE)
			continue;
		if (e->kind == FN_TRUE || root == NULL) {
			root = e;
		} else {
			struct fnode *o = rnode(rs, e, FN_OR);

			o->l = root;
			o->r = e;
			root = o;
		}
		if (e->kind == FN_TRUE)
			break;
	}
	if (root == NULL || root->kind == FN_FALSE) {
		prog->verdict = TV_FILTER_NEVER;
	} else if (root->kind == FN_TRUE) {
		prog->verdict = TV_FILTER_ALWAYS;
	} else {
		prog->verdict = TV_FILTER_MAYBE;
		prog->root = root;
		prog->needs_fields = rs->uses_fields;
		prog->scopes = rs->scopes;
		prog->needs_state = rs->uses_state;
		if (rs->uses_state)
			rs->f->needs_state = true;
	}
	return TV_OK;
}

/* Edit distance of @a and @b (short names only). */
static size_t
edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[65], prev, tmp;

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = TV_MIN(TV_MIN(row[j] + 1, row[j - 1] + 1),
			    prev + (a[i - 1] != b[j - 1]));
			prev = tmp;
		}
	}
	return row[lb];
}

/* Consider @cand as a suggestion for @name. */
static void
suggest(const char *name, const char *cand, const char **best, size_t *bd)
{
	size_t d;

	if (cand == NULL)
		return;
	d = edit_distance(name, cand);
	if (d < *bd) {
		*bd = d;
		*best = cand;
	}
}

/* The closest known name to @name among the classes part @p selects. */
static const char *
closest_name(struct rstate *rs, uint32_t p, const char *name)
{
	const struct tv_trace_set *set = rs->f->set;
	size_t bd = FILTER_SUGGEST_MAX + 1, i;
	const char *best = NULL;
	uint32_t t, c, m, k;

	for (i = 0; i < TV_ARRAY_SIZE(builtins); i++)
		suggest(name, builtins[i].name, &best, &bd);
	for (i = 0; i < rs->nsamples; i++)
		suggest(name, rs->samples[i].name, &best, &bd);
	for (t = 0; t < set->ntraces; t++)
		for (c = 0; c < set->traces[t]->nclasses; c++) {
			const struct tv_event_class *cl =
			    set->traces[t]->classes[c];
			const struct tv_field_class *sc[2] = { cl->payload,
			    cl->context };
			bool sel = rs->f->parts[p].nsels == 0;

			for (k = 0; k < rs->f->parts[p].nsels && !sel; k++)
				sel = selects(rs, p, k, cl);
			for (k = 0; k < 2 && sel; k++)
				for (m = 0; sc[k] && sc[k]->kind ==
				    TV_FC_STRUCT && m <
				    sc[k]->structure.nmembers; m++)
					suggest(name,
					    sc[k]->structure.members[m].name,
					    &best, &bd);
		}
	return best;
}

/* The first name of @n's tree no class resolved, or NULL. */
static const struct fnode *
unresolved(const struct fnode *n)
{
	const struct fnode *u;

	if (n == NULL)
		return NULL;
	if (n->kind == FN_NAME && !n->found)
		return n;
	if ((u = unresolved(n->l)) != NULL)
		return u;
	return unresolved(n->r);
}

/*
 * The programs of the classes of f->set that have none yet: all of them
 * when compiling, those a trace followed gained since (tv_filter_extend).
 * The tables grow into the arena (a copy per growth) and are swapped in
 * whole: no reader runs meanwhile.
 */
static enum tv_status
compile_progs(struct rstate *rs)
{
	struct tv_filter *f = rs->f;
	const struct tv_trace_set *set = f->set;
	uint32_t t, c, nt = TV_MAX(set->ntraces, f->nprog_traces);
	struct fprog **progs;
	uint32_t *nprogs;
	enum tv_status st = TV_OK;

	progs = tv_arena_zalloc(&f->arena, TV_MAX(nt, 1) * sizeof(*progs));
	nprogs = tv_arena_zalloc(&f->arena, TV_MAX(nt, 1) * sizeof(*nprogs));
	if (f->nprog_traces) {
		memcpy(progs, f->progs, f->nprog_traces * sizeof(*progs));
		memcpy(nprogs, f->nprogs, f->nprog_traces * sizeof(*nprogs));
	}
	for (t = 0; t < set->ntraces && st == TV_OK; t++) {
		const struct tv_trace *tr = set->traces[t];
		struct fprog *v;

		if (t < f->nprog_traces && nprogs[t] >= tr->nclasses)
			continue;
		rs->trace = tr;
		rs->trace_index = t;
		rs->sampled = false;
		free(rs->samples);
		rs->samples = NULL;
		rs->nsamples = 0;
		v = tv_arena_zalloc(&f->arena,
		    TV_MAX(tr->nclasses, 1) * sizeof(*v));
		if (t < f->nprog_traces && nprogs[t])
			memcpy(v, progs[t], nprogs[t] * sizeof(*v));
		for (c = t < f->nprog_traces ? nprogs[t] : 0;
		    c < tr->nclasses && st == TV_OK; c++) {
			rs->cls = tr->classes[c];
			st = compile_class(rs, &v[c]);
		}
		progs[t] = v;
		nprogs[t] = c;
	}
	f->progs = progs;
	f->nprogs = nprogs;
	f->nprog_traces = set->ntraces;
	return st;
}

/* See filter.h. */
enum tv_status
tv_filter_extend(struct tv_filter *f, struct tv_error *err)
{
	struct rstate rs;
	enum tv_status st;

	if (f->nprog_traces == f->set->ntraces) {
		uint32_t t;

		for (t = 0; t < f->set->ntraces; t++)
			if (f->nprogs[t] < f->set->traces[t]->nclasses)
				break;
		if (t == f->set->ntraces)
			return TV_OK;
	}
	memset(&rs, 0, sizeof(rs));
	rs.f = f;
	rs.err = err;
	compile_selectors(&rs);
	st = compile_progs(&rs);
	free(rs.samples);
	free_selectors(&rs);
	return st;
}

/* See filter-priv.h. */
enum tv_status
filter_resolve(struct tv_filter *f, struct tv_error *err)
{
	struct rstate rs;
	enum tv_status st = TV_OK;
	uint32_t p, k;

	memset(&rs, 0, sizeof(rs));
	rs.f = f;
	rs.err = err;
	compile_selectors(&rs);
	st = compile_progs(&rs);
	for (p = 0; p < f->nparts && st == TV_OK; p++) {
		const struct fpart *part = &f->parts[p];
		const struct fnode *u;

		for (k = 0; k < part->nsels && st == TV_OK; k++)
			if (!rs.sel_matched[p][k])
				st = filter_error(err, TV_NOT_FOUND,
				    part->sel_cols[k],
				    _("no event matches '%s'"),
				    part->sels[k]);
		if (st == TV_OK && (u = unresolved(part->expr)) != NULL) {
			const char *near = closest_name(&rs, p, u->text);

			if (near != NULL)
				st = filter_error(err, TV_NOT_FOUND, u->col,
				    _("unknown field '%s' (did you mean "
				    "%s?)"), u->text, near);
			else
				st = filter_error(err, TV_NOT_FOUND, u->col,
				    _("unknown field '%s'"), u->text);
		}
	}
	free(rs.samples);
	free_selectors(&rs);
	return st;
}

/* See filter.h. */
enum tv_status
tv_filter_compile(const char *text, const struct tv_trace_set *set,
    const struct tv_time_ctx *tctx, struct tv_filter **out,
    struct tv_error *err)
{
	struct tv_filter *f;
	enum tv_status st;

	*out = NULL;
	if (strlen(text) > FILTER_MAX_TEXT)
		return filter_error(err, TV_SYNTAX, 1,
		    _("filter longer than %u bytes"), FILTER_MAX_TEXT);
	f = tv_xcalloc(1, sizeof(*f));
	f->text = tv_xstrdup(text);
	f->set = set;
	f->tctx = *tctx;
	tv_arena_init(&f->arena);
	st = filter_parse(f, err);
	if (st == TV_OK)
		st = filter_resolve(f, err);
	if (st != TV_OK) {
		tv_filter_destroy(f);
		return st;
	}
	*out = f;
	return TV_OK;
}

/* See filter.h. */
void
tv_filter_destroy(struct tv_filter *f)
{
	if (f == NULL)
		return;
	filter_free_regexes(f);
	tv_arena_fini(&f->arena);
	free(f->text);
	free(f);
}

/* See filter.h. */
bool
tv_filter_needs_state(const struct tv_filter *f)
{
	return f->needs_state;
}

/* See filter.h. */
const char *
tv_filter_text(const struct tv_filter *f)
{
	return f->text;
}
