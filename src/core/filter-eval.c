/*
 * The filter evaluator: runs a class's resolved program on one event.
 * Values are integers, floats or strings, or absent (a context the event
 * does not have: unknown CPU, thread not yet seen), and every comparison
 * with an absent value is false.
 *
 * Integers compare as trace-cmd's filter does: sign-extended to 64 bits
 * and compared unsigned, except when a negative value (a negative literal,
 * a signed field holding a negative number) or a time is involved: then
 * signed, where trace-cmd finds prio -1 greater than 20.  An integer field compared with a string is its
 * enum label if it has one, else "0x..." (trace-cmd).  Strings compare
 * bytewise; =~ and !~ are caseless PCRE2 searches; ~ is a glob.
 */
#include "tview/tview.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <fnmatch.h>
#include <inttypes.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/state.h"
#include "filter-priv.h"

/* Longest string a comparison looks at (char arrays, globs). */
#define FILTER_STR_MAX	512

enum fvkind { FV_NONE, FV_INT, FV_FLOAT, FV_STR };

struct fval {
	enum fvkind		 kind;
	bool			 sgn;		/* compare signed */
	uint64_t		 u;
	double			 d;
	const char		*s;
	size_t			 len;
	const struct tv_field_class *fc;	/* enum labels */
	const char		*alt;		/* trace: its name */
	char			 buf[FILTER_STR_MAX];
};

/* Every scope, in the order a name is looked up when its scope is open. */
static const uint8_t scope_order[] = {
	TV_SCOPE_EVENT_PAYLOAD, TV_SCOPE_EVENT_SPECIFIC_CONTEXT,
	TV_SCOPE_EVENT_COMMON_CONTEXT, TV_SCOPE_EVENT_HEADER,
	TV_SCOPE_PACKET_CONTEXT, TV_SCOPE_PACKET_HEADER,
};

/* The decoded value of field @n, or NULL. */
static const struct tv_value *
field_value(const struct fnode *n, const struct tv_event_fields *fields)
{
	const struct tv_value *v = NULL;
	size_t i;

	if (n->scope < TV_SCOPE_COUNT)
		v = tv_value_member(fields->scope[n->scope], n->text);
	for (i = 0; v == NULL && n->scope == TV_SCOPE_COUNT &&
	    i < TV_ARRAY_SIZE(scope_order); i++)
		v = tv_value_member(fields->scope[scope_order[i]], n->text);
	/* a variant holds one option: look through it */
	while (v && v->fc && v->fc->kind == TV_FC_VARIANT &&
	    v->kids.count == 1)
		v = &v->kids.items[0];
	return v;
}

/* Convert decoded value @v into @out. */
static void
from_value(const struct tv_value *v, struct fval *out)
{
	const struct tv_field_class *fc = v->fc, *el;
	int64_t i64;
	size_t n, i;

	switch (fc->kind) {
	case TV_FC_INT:
	case TV_FC_ENUM:
		(void)tv_value_as_int(v, &i64);
		out->kind = FV_INT;
		out->u = (uint64_t)i64;
		out->sgn = (fc->kind == TV_FC_INT ? fc->integer.is_signed :
		    fc->enumeration.integer.is_signed) && i64 < 0;
		out->fc = fc;
		return;
	case TV_FC_FLOAT:
		out->kind = FV_FLOAT;
		out->d = v->f;
		return;
	case TV_FC_STRING:
		out->kind = FV_STR;
		out->s = v->str.ptr ? v->str.ptr : "";
		out->len = v->str.ptr ? v->str.len : 0;
		if (memchr(out->s, '\0', out->len))
			out->len = strlen(out->s);
		return;
	case TV_FC_ARRAY:
	case TV_FC_SEQUENCE:
		/* char arrays are text, up to their first NUL */
		el = fc->array.elem;
		if (el == NULL || el->kind != TV_FC_INT ||
		    el->integer.size != 8 ||
		    el->integer.encoding == TV_ENC_NONE)
			break;
		for (i = n = 0; i < v->kids.count && n + 1 < FILTER_STR_MAX;
		    i++) {
			if (v->kids.items[i].u == 0)
				break;
			out->buf[n++] = (char)v->kids.items[i].u;
		}
		out->kind = FV_STR;
		out->s = out->buf;
		out->len = n;
		return;
	default:
		break;
	}
	out->kind = FV_NONE;
}

/* The value of node @n for @ev. */
static void
value_of(const struct fnode *n, const struct tv_event *ev,
    const struct tv_event_fields *fields,
    const struct tv_event_owner *owner, struct fval *out)
{
	const struct tv_value *v;
	struct fval a, b;

	out->kind = FV_NONE;
	out->sgn = false;
	out->fc = NULL;
	out->alt = NULL;
	switch ((enum fkind)n->kind) {
	case FN_NUM:
		out->kind = FV_INT;
		out->u = n->num;
		out->sgn = n->neg;
		return;
	case FN_STR:
		out->kind = FV_STR;
		out->s = n->text;
		out->len = (size_t)n->num;
		return;
	case FN_FIELD:
		if (fields != NULL && (v = field_value(n, fields)) != NULL &&
		    v->fc != NULL)
			from_value(v, out);
		return;
	case FN_CPU:
		if (ev->stream->cpu != TV_CPU_UNKNOWN) {
			out->kind = FV_INT;
			out->u = (uint64_t)(int64_t)ev->stream->cpu;
		}
		return;
	case FN_TID:
	case FN_PID:
		if (owner != NULL) {
			int64_t id = n->kind == FN_TID ? owner->tid :
			    owner->pid;

			if (id != TV_TID_UNKNOWN) {
				out->kind = FV_INT;
				out->u = (uint64_t)id;
			}
		}
		return;
	case FN_COMM:
		if (n->neg && owner != NULL && owner->tid == 0) {
			out->kind = FV_STR;
			out->s = "<idle>";
			out->len = 6;
		} else if (owner != NULL && owner->name[0] != '\0') {
			out->kind = FV_STR;
			out->s = owner->name;
			out->len = strlen(owner->name);
		}
		return;
	case FN_TRACE:
		out->kind = FV_INT;
		out->u = n->num;
		out->alt = ev->stream->trace->name;
		return;
	case FN_TIME:
		out->kind = FV_INT;
		out->u = (uint64_t)ev->rec.ts;
		out->sgn = true;
		return;
	case FN_NEG:
		value_of(n->l, ev, fields, owner, &a);
		if (a.kind == FV_INT) {
			out->kind = FV_INT;
			out->u = (uint64_t)0 - a.u;
			out->sgn = true;
		} else if (a.kind == FV_FLOAT) {
			out->kind = FV_FLOAT;
			out->d = -a.d;
		}
		return;
	case FN_ARITH:
		value_of(n->l, ev, fields, owner, &a);
		value_of(n->r, ev, fields, owner, &b);
		if (a.kind != FV_INT || b.kind != FV_INT)
			return;
		out->kind = FV_INT;
		out->sgn = a.sgn || b.sgn;
		switch ((enum ftok)n->op) {
		case FT_PLUS:	out->u = a.u + b.u; break;
		case FT_MINUS:	out->u = a.u - b.u; break;
		case FT_MUL:	out->u = a.u * b.u; break;
		case FT_DIV:
			if (b.u == 0)
				out->kind = FV_NONE;
			else
				out->u = a.u / b.u;
			break;
		case FT_MOD:
			if (b.u == 0)
				out->kind = FV_NONE;
			else
				out->u = a.u % b.u;
			break;
		case FT_SHL:	out->u = b.u >= 64 ? 0 : a.u << b.u; break;
		case FT_SHR:	out->u = b.u >= 64 ? 0 : a.u >> b.u; break;
		case FT_BAND:	out->u = a.u & b.u; break;
		case FT_BOR:	out->u = a.u | b.u; break;
		case FT_XOR:	out->u = a.u ^ b.u; break;
		default:	out->kind = FV_NONE; break;
		}
		return;
	default:
		return;
	}
}

/* An integer compared with a string: its label, name, or "0x..." text. */
static void
int_as_string(struct fval *v)
{
	const char *label = NULL;

	if (v->alt != NULL)
		label = v->alt;
	else if (v->fc != NULL && v->fc->kind == TV_FC_ENUM)
		label = tv_enum_label(v->fc, v->u);
	if (label != NULL) {
		v->s = label;
		v->len = strlen(label);
	} else {
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf),
		    "0x%" PRIx64, v->u);
		v->s = v->buf;
	}
	v->kind = FV_STR;
}

/* -1, 0, 1 from a three-way comparison result, for the order ops. */
static bool
order(enum ftok op, int c)
{
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

/* String comparison @op of @a with @b (b is the pattern for =~ ~). */
static bool
compare_str(const struct fnode *cmp, const struct fval *a,
    const struct fval *b)
{
	enum ftok op = (enum ftok)cmp->op;
	char subject[FILTER_STR_MAX];
	pcre2_match_data *md;
	size_t n;
	int c, rc;

	switch (op) {
	case FT_REGEX:
	case FT_NREGEX:
		md = pcre2_match_data_create(1, NULL);
		if (md == NULL)
			return false;
		rc = pcre2_match(cmp->re, (PCRE2_SPTR)a->s, a->len, 0, 0, md,
		    NULL);
		pcre2_match_data_free(md);
		return (rc >= 0) == (op == FT_REGEX);
	case FT_GLOB:
		n = TV_MIN(a->len, sizeof(subject) - 1);
		memcpy(subject, a->s, n);
		subject[n] = '\0';
		return fnmatch(b->s, subject, 0) == 0;
	default:
		n = TV_MIN(a->len, b->len);
		c = n ? memcmp(a->s, b->s, n) : 0;
		if (c == 0)
			c = a->len < b->len ? -1 : a->len > b->len;
		return order(op, c);
	}
}

/* Evaluate comparison @n. */
static bool
compare(const struct fnode *n, const struct tv_event *ev,
    const struct tv_event_fields *fields,
    const struct tv_event_owner *owner)
{
	struct fval a, b;
	enum ftok op = (enum ftok)n->op;

	value_of(n->l, ev, fields, owner, &a);
	value_of(n->r, ev, fields, owner, &b);
	if (a.kind == FV_NONE || b.kind == FV_NONE)
		return false;
	if (a.kind == FV_INT && b.kind == FV_STR)
		int_as_string(&a);
	if (b.kind == FV_INT && a.kind == FV_STR && op <= FT_GE) {
		if (b.alt == NULL)
			return false;	/* a string is not a number */
		int_as_string(&b);
	}
	if (a.kind == FV_STR || b.kind == FV_STR) {
		if (a.kind != FV_STR || b.kind != FV_STR)
			return false;
		return compare_str(n, &a, &b);
	}
	if (op > FT_GE)
		return false;
	if (a.kind == FV_FLOAT || b.kind == FV_FLOAT) {
		double x = a.kind == FV_FLOAT ? a.d : (double)(int64_t)a.u;
		double y = b.kind == FV_FLOAT ? b.d : (double)(int64_t)b.u;

		return order(op, x < y ? -1 : x > y);
	}
	if (a.sgn || b.sgn)
		return order(op, (int64_t)a.u < (int64_t)b.u ? -1 :
		    (int64_t)a.u > (int64_t)b.u);
	return order(op, a.u < b.u ? -1 : a.u > b.u);
}

/* See filter-priv.h. */
bool
filter_eval(const struct fnode *n, const struct tv_event *ev,
    const struct tv_event_fields *fields,
    const struct tv_event_owner *owner)
{
	struct fval v;

	switch ((enum fkind)n->kind) {
	case FN_TRUE:
		return true;
	case FN_FALSE:
		return false;
	case FN_AND:
		return filter_eval(n->l, ev, fields, owner) &&
		    filter_eval(n->r, ev, fields, owner);
	case FN_OR:
		return filter_eval(n->l, ev, fields, owner) ||
		    filter_eval(n->r, ev, fields, owner);
	case FN_NOT:
		return !filter_eval(n->l, ev, fields, owner);
	case FN_CMP:
		return compare(n, ev, fields, owner);
	default:
		/* a bare value: true when not zero (trace-cmd) */
		value_of(n, ev, fields, owner, &v);
		if (v.kind == FV_INT)
			return v.u != 0;
		if (v.kind == FV_FLOAT)
			return v.d != 0;
		return v.kind == FV_STR && v.len > 0;
	}
}

/* The program of @ev's class, or NULL. */
static const struct fprog *
prog_of(const struct tv_filter *f, const struct tv_event *ev)
{
	const struct tv_trace *t = ev->stream->trace;
	uint32_t i;

	if (ev->rec.kind != TV_REC_EVENT)
		return NULL;
	for (i = 0; i < f->nprog_traces; i++)
		if (f->set->traces[i] == t)
			break;
	/* a class the trace gained since tv_filter_extend: none */
	if (i == f->nprog_traces || ev->rec.class_index >= f->nprogs[i])
		return NULL;
	return &f->progs[i][ev->rec.class_index];
}

/* See filter.h. */
enum tv_filter_verdict
tv_filter_verdict(const struct tv_filter *f, const struct tv_event *ev)
{
	const struct fprog *p = prog_of(f, ev);

	return p ? (enum tv_filter_verdict)p->verdict : TV_FILTER_NEVER;
}

/* See filter.h. */
bool
tv_filter_match(const struct tv_filter *f, const struct tv_event *ev,
    const struct tv_event_owner *owner, struct tv_arena *arena)
{
	const struct fprog *p = prog_of(f, ev);
	struct tv_event_fields fields;

	if (p == NULL || p->verdict == TV_FILTER_NEVER)
		return false;
	if (p->verdict == TV_FILTER_ALWAYS)
		return true;
	if (p->needs_fields) {
		if (tv_event_decode_scopes(ev, arena, &fields, p->scopes,
		    NULL) != TV_OK)
			return false;
		return filter_eval(p->root, ev, &fields, owner);
	}
	return filter_eval(p->root, ev, NULL, owner);
}

/* The walk state of tv_filter_follow(): "last event shown", per stream. */
struct tv_filter_follow {
	bool		*last_shown;	/* owned, by stream ordinal */
	uint32_t	 nstreams;
};

/* See filter.h. */
struct tv_filter_follow *
tv_filter_follow_create(const struct tv_trace_set *set)
{
	struct tv_filter_follow *fw = tv_xcalloc(1, sizeof(*fw));

	fw->nstreams = set->nstreams;
	fw->last_shown = tv_xcalloc(TV_MAX(set->nstreams, 1), sizeof(bool));
	return fw;
}

/* See filter.h. */
void
tv_filter_follow_destroy(struct tv_filter_follow *fw)
{
	if (fw == NULL)
		return;
	free(fw->last_shown);
	free(fw);
}

/*
 * See filter.h.  As trace-cmd: a shown event arms its stream; a stack
 * trace that the filter did not match is shown when the stream is armed,
 * and disarms it; an event that is not shown leaves the state alone.
 */
bool
tv_filter_follow(struct tv_filter_follow *fw, const struct tv_event *ev,
    bool matched)
{
	const struct tv_event_class *c;
	uint32_t o = ev->stream->ordinal;

	if (o >= fw->nstreams)
		return matched;
	if (matched) {
		fw->last_shown[o] = true;
		return true;
	}
	c = tv_event_class_of(ev);
	if (c == NULL || !c->follows_previous || !fw->last_shown[o])
		return false;
	fw->last_shown[o] = false;
	return true;
}
