/*
 * TSDL parser: recursive descent over the tokens of tsdl-lex.c into the
 * arena parse tree of tsdl-ast.h.  It knows the grammar only; what the
 * attributes mean, and whether names exist, is tsdl-model.c's business.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "tsdl-ast.h"

struct parser {
	const struct tsdl_token	*toks;
	size_t			 ntoks;
	size_t			 pos;
	const char		*path;
	struct tv_arena		*arena;
	struct tv_error		*err;
	unsigned		 depth;
};

static enum tv_status parse_type(struct parser *p, struct tsdl_type **out);
static enum tv_status parse_stmts(struct parser *p, bool braced,
		    struct tsdl_stmt **out);

/* The current token. */
static const struct tsdl_token *
cur(const struct parser *p)
{
	return &p->toks[p->pos];
}

/* The token @n positions on (EOF past the end). */
static const struct tsdl_token *
ahead(const struct parser *p, size_t n)
{
	if (p->pos + n >= p->ntoks)
		return &p->toks[p->ntoks - 1];	/* EOF */
	return &p->toks[p->pos + n];
}

/* Step to the next token (never past EOF). */
static void
next(struct parser *p)
{
	if (p->pos + 1 < p->ntoks)
		p->pos++;
}

/* Is @t the punctuator @c? */
static bool
is_punct(const struct tsdl_token *t, int c)
{
	return t->kind == TSDL_T_PUNCT && t->punct == c;
}

/* Is @t the identifier or keyword @w? */
static bool
is_word(const struct tsdl_token *t, const char *w)
{
	return t->kind == TSDL_T_IDENT && strcmp(t->text, w) == 0;
}

/* Describe a token for an error message. */
static const char *
tok_desc(const struct tsdl_token *t, char *buf, size_t size)
{
	switch (t->kind) {
	case TSDL_T_EOF:	return _("end of metadata");
	case TSDL_T_IDENT:	snprintf(buf, size, "'%s'", t->text); break;
	case TSDL_T_INT:	return _("an integer");
	case TSDL_T_STRING:	return _("a string");
	case TSDL_T_CHAR:	return _("a character literal");
	case TSDL_T_PUNCT:	snprintf(buf, size, "'%c'", t->punct); break;
	case TSDL_T_TYPEASSIGN:	return "':='";
	case TSDL_T_ARROW:	return "'->'";
	case TSDL_T_ELLIPSIS:	return "'...'";
	}
	return buf;
}

/* "expected X, found Y" at the current token. */
static enum tv_status
expected(struct parser *p, const char *what)
{
	const struct tsdl_token *t = cur(p);
	struct tv_loc loc = { p->path, TV_NO_OFFSET, t->line, t->col };
	char buf[128];

	return tv_error_set(p->err, TV_SYNTAX, &loc,
	    _("expected %s, found %s"), what, tok_desc(t, buf, sizeof(buf)));
}

/* Consume punctuator @c or report what was found instead. */
static enum tv_status
expect_punct(struct parser *p, int c)
{
	char what[8];

	if (is_punct(cur(p), c)) {
		next(p);
		return TV_OK;
	}
	snprintf(what, sizeof(what), "'%c'", c);
	return expected(p, what);
}

/* A zeroed parse-tree node in the parse arena. */
static void *
node(struct parser *p, size_t size)
{
	return tv_arena_zalloc(p->arena, size);
}

/* A dotted path a.b.c (or a->b) of identifiers, as one string. */
static enum tv_status
parse_path(struct parser *p, const char **out)
{
	struct tv_strbuf sb;

	if (cur(p)->kind != TSDL_T_IDENT)
		return expected(p, _("an identifier"));
	tv_strbuf_init(&sb);
	tv_strbuf_adds(&sb, cur(p)->text);
	next(p);
	while ((is_punct(cur(p), '.') || cur(p)->kind == TSDL_T_ARROW) &&
	    ahead(p, 1)->kind == TSDL_T_IDENT) {
		tv_strbuf_addc(&sb, '.');
		tv_strbuf_adds(&sb, ahead(p, 1)->text);
		next(p);
		next(p);
	}
	*out = tv_arena_strdup(p->arena, sb.buf);
	tv_strbuf_fini(&sb);
	return TV_OK;
}

/* The right side of "=": [+-]integer, string, char, or a path. */
static enum tv_status
parse_value(struct parser *p, struct tsdl_value *v)
{
	const struct tsdl_token *t = cur(p);
	bool neg = false;

	memset(v, 0, sizeof(*v));
	v->line = t->line;
	v->col = t->col;
	while (is_punct(cur(p), '-') || is_punct(cur(p), '+')) {
		if (is_punct(cur(p), '-'))
			neg = !neg;
		next(p);
	}
	t = cur(p);
	switch (t->kind) {
	case TSDL_T_INT:
	case TSDL_T_CHAR:
		v->kind = TSDL_V_INT;
		v->ival = t->ival;
		v->neg = neg && t->ival != 0;
		next(p);
		return TV_OK;
	case TSDL_T_STRING:
		if (neg)
			break;
		v->kind = TSDL_V_STRING;
		v->str = t->text;
		v->len = t->len;
		next(p);
		return TV_OK;
	case TSDL_T_IDENT:
		if (neg)
			break;
		v->kind = TSDL_V_PATH;
		return parse_path(p, &v->str);
	default:
		break;
	}
	return expected(p, _("a value"));
}

/* One declarator: [*]name[dims] (name optional when @abstract). */
static enum tv_status
parse_declarator(struct parser *p, bool abstract, struct tsdl_declarator **out)
{
	struct tsdl_declarator *d = node(p, sizeof(*d));
	struct tsdl_dim **tail = &d->dims;
	unsigned ndims = 0;
	enum tv_status st;

	d->line = cur(p)->line;
	d->col = cur(p)->col;
	while (is_punct(cur(p), '*'))
		next(p);	/* pointers mean nothing in TSDL */
	if (cur(p)->kind == TSDL_T_IDENT) {
		d->name = cur(p)->text;
		d->line = cur(p)->line;
		d->col = cur(p)->col;
		next(p);
	} else if (!abstract) {
		return expected(p, _("a field name"));
	}
	while (is_punct(cur(p), '[')) {
		struct tsdl_dim *dim = node(p, sizeof(*dim));
		struct tsdl_value v;

		if (++ndims > TSDL_MAX_DEPTH)
			return expected(p, "';'");
		next(p);
		dim->line = cur(p)->line;
		dim->col = cur(p)->col;
		if (is_punct(cur(p), ']'))
			return expected(p, _("an array length"));
		st = parse_value(p, &v);
		if (st != TV_OK)
			return st;
		if (v.kind == TSDL_V_INT && v.neg) {
			struct tv_loc loc = { p->path, TV_NO_OFFSET, v.line,
			    v.col };

			return tv_error_set(p->err, TV_SEMANTIC, &loc,
			    _("negative array length"));
		} else if (v.kind == TSDL_V_INT) {
			if (v.ival >= TSDL_MAX_ARRAY_LEN) {
				struct tv_loc loc = { p->path, TV_NO_OFFSET,
				    v.line, v.col };

				return tv_error_set(p->err, TV_SEMANTIC, &loc,
				    _("array length %llu is too large"),
				    (unsigned long long)v.ival);
			}
			dim->length = v.ival;
		} else if (v.kind == TSDL_V_PATH) {
			dim->is_seq = true;
			dim->path = v.str;
		} else {
			struct tv_loc loc = { p->path, TV_NO_OFFSET, v.line,
			    v.col };

			return tv_error_set(p->err, TV_SYNTAX, &loc,
			    _("array length must be an integer or a field "
			    "path"));
		}
		st = expect_punct(p, ']');
		if (st != TV_OK)
			return st;
		*tail = dim;
		tail = &dim->next;
	}
	*out = d;
	return TV_OK;
}

/* A comma-separated declarator list, ended by ';' (not consumed). */
static enum tv_status
parse_declarators(struct parser *p, struct tsdl_declarator **out)
{
	struct tsdl_declarator **tail = out;
	enum tv_status st;

	for (;;) {
		st = parse_declarator(p, false, tail);
		if (st != TV_OK)
			return st;
		tail = &(*tail)->next;
		if (!is_punct(cur(p), ','))
			return TV_OK;
		next(p);
	}
}

/* enum body: { A, B = 1, C = 2 ... 5, "lbl" = 6, } */
static enum tv_status
parse_enumerators(struct parser *p, struct tsdl_enumerator **out)
{
	struct tsdl_enumerator **tail = out;
	enum tv_status st;

	next(p);	/* { */
	while (!is_punct(cur(p), '}')) {
		struct tsdl_enumerator *e = node(p, sizeof(*e));
		const struct tsdl_token *t = cur(p);

		e->line = t->line;
		e->col = t->col;
		if (t->kind != TSDL_T_IDENT && t->kind != TSDL_T_STRING)
			return expected(p, _("an enumeration label"));
		e->label = t->text;
		next(p);
		if (is_punct(cur(p), '=')) {
			next(p);
			e->has_value = true;
			st = parse_value(p, &e->lo);
			if (st != TV_OK)
				return st;
			if (cur(p)->kind == TSDL_T_ELLIPSIS) {
				next(p);
				e->is_range = true;
				st = parse_value(p, &e->hi);
				if (st != TV_OK)
					return st;
			}
		}
		*tail = e;
		tail = &e->next;
		if (is_punct(cur(p), ','))
			next(p);
		else if (!is_punct(cur(p), '}'))
			return expected(p, _("',' or '}'"));
	}
	next(p);
	return TV_OK;
}

/* Is @t a C type word (int, unsigned, long, ...)? */
static bool
is_basic_word(const struct tsdl_token *t)
{
	static const char *const words[] = {
		"char", "double", "float", "int", "long", "short", "signed",
		"unsigned", "void", "_Bool", "_Complex", "_Imaginary",
	};
	size_t i;

	if (t->kind != TSDL_T_IDENT)
		return false;
	for (i = 0; i < TV_ARRAY_SIZE(words); i++)
		if (strcmp(t->text, words[i]) == 0)
			return true;
	return false;
}

/* A braced attribute list of integer/floating_point/string. */
static enum tv_status
parse_attrs(struct parser *p, struct tsdl_type *ty)
{
	next(p);	/* { */
	return parse_stmts(p, true, &ty->attrs);
}

/* Does path @tag start with a keyword other than a scope name? */
static bool
tag_is_keyword(const char *tag)
{
	char first[64];
	size_t n = strcspn(tag, ".");

	if (n >= sizeof(first))
		return false;
	memcpy(first, tag, n);
	first[n] = '\0';
	return tsdl_is_keyword(first) && strcmp(first, "trace") != 0 &&
	    strcmp(first, "stream") != 0 && strcmp(first, "event") != 0;
}

/* struct/variant: [name] [<tag>] [{ body }] [align(N)] */
static enum tv_status
parse_compound(struct parser *p, struct tsdl_type *ty)
{
	enum tv_status st;

	if (cur(p)->kind == TSDL_T_IDENT && !is_word(cur(p), "align")) {
		ty->name = cur(p)->text;
		next(p);
	}
	if (ty->kind == TSDL_TY_VARIANT && is_punct(cur(p), '<')) {
		next(p);
		st = parse_path(p, &ty->tag);
		if (st != TV_OK)
			return st;
		if (tag_is_keyword(ty->tag)) {
			struct tv_loc loc = { p->path, TV_NO_OFFSET,
			    ty->line, ty->col };

			return tv_error_set(p->err, TV_SYNTAX, &loc,
			    _("variant tag '%s' is a reserved keyword"),
			    ty->tag);
		}
		st = expect_punct(p, '>');
		if (st != TV_OK)
			return st;
	}
	if (is_punct(cur(p), '{')) {
		next(p);
		ty->has_body = true;
		st = parse_stmts(p, true, &ty->body);
		if (st != TV_OK)
			return st;
	}
	if (ty->kind == TSDL_TY_STRUCT && is_word(cur(p), "align") &&
	    is_punct(ahead(p, 1), '(')) {
		next(p);
		next(p);
		ty->has_align = true;
		st = parse_value(p, &ty->align);
		if (st != TV_OK)
			return st;
		st = expect_punct(p, ')');
		if (st != TV_OK)
			return st;
	}
	if (!ty->name && !ty->has_body)
		return expected(p, ty->kind == TSDL_TY_STRUCT ?
		    _("a structure name or body") :
		    _("a variant name or body"));
	return TV_OK;
}

/* A type specifier: integer {...}, struct ..., a typedef name, ... */
static enum tv_status
parse_type(struct parser *p, struct tsdl_type **out)
{
	struct tsdl_type *ty = node(p, sizeof(*ty));
	const struct tsdl_token *t;
	enum tv_status st = TV_OK;

	while (is_word(cur(p), "const"))
		next(p);
	t = cur(p);
	ty->line = t->line;
	ty->col = t->col;
	if (++p->depth > TSDL_MAX_DEPTH) {
		struct tv_loc loc = { p->path, TV_NO_OFFSET, t->line, t->col };

		return tv_error_set(p->err, TV_SYNTAX, &loc,
		    _("types nested too deeply"));
	}
	if (is_word(t, "integer") || is_word(t, "floating_point")) {
		ty->kind = is_word(t, "integer") ? TSDL_TY_INTEGER :
		    TSDL_TY_FLOAT;
		next(p);
		if (!is_punct(cur(p), '{')) {
			st = expected(p, "'{'");
			goto out;
		}
		st = parse_attrs(p, ty);
	} else if (is_word(t, "string")) {
		ty->kind = TSDL_TY_STRING;
		next(p);
		if (is_punct(cur(p), '{'))
			st = parse_attrs(p, ty);
	} else if (is_word(t, "struct") || is_word(t, "variant")) {
		ty->kind = is_word(t, "struct") ? TSDL_TY_STRUCT :
		    TSDL_TY_VARIANT;
		next(p);
		st = parse_compound(p, ty);
	} else if (is_word(t, "enum")) {
		ty->kind = TSDL_TY_ENUM;
		next(p);
		if (cur(p)->kind == TSDL_T_IDENT) {
			ty->name = cur(p)->text;
			next(p);
		}
		if (is_punct(cur(p), ':')) {
			next(p);
			st = parse_type(p, &ty->container);
			if (st != TV_OK)
				goto out;
		}
		if (is_punct(cur(p), '{')) {
			ty->has_body = true;
			st = parse_enumerators(p, &ty->enums);
		} else if (!ty->name) {
			st = expected(p, "'{'");
		}
	} else if (is_basic_word(t)) {
		struct tv_strbuf sb;

		tv_strbuf_init(&sb);
		while (is_basic_word(cur(p)) || is_word(cur(p), "const")) {
			if (!is_word(cur(p), "const")) {
				if (sb.len)
					tv_strbuf_addc(&sb, ' ');
				tv_strbuf_adds(&sb, cur(p)->text);
			}
			next(p);
		}
		ty->kind = TSDL_TY_NAMED;
		ty->name = tv_arena_strdup(p->arena, sb.buf);
		tv_strbuf_fini(&sb);
	} else if (t->kind == TSDL_T_IDENT && !tsdl_is_keyword(t->text)) {
		ty->kind = TSDL_TY_NAMED;
		ty->name = t->text;
		next(p);
	} else {
		st = expected(p, _("a type"));
	}
out:
	p->depth--;
	*out = ty;
	return st;
}

/* Does an assignment "a.b.c =" or "a.b :=" start here? */
static bool
at_assignment(const struct parser *p)
{
	size_t i = 0;

	for (;;) {
		if (ahead(p, i)->kind != TSDL_T_IDENT)
			return false;
		i++;
		if (is_punct(ahead(p, i), '.') ||
		    ahead(p, i)->kind == TSDL_T_ARROW) {
			i++;
			continue;
		}
		return is_punct(ahead(p, i), '=') ||
		    ahead(p, i)->kind == TSDL_T_TYPEASSIGN;
	}
}

/* Does @t start a top-level block (trace, stream, ...)? */
static bool
is_block_word(const struct tsdl_token *t)
{
	return is_word(t, "trace") || is_word(t, "env") ||
	    is_word(t, "clock") || is_word(t, "stream") ||
	    is_word(t, "event") || is_word(t, "callsite");
}

/* typealias TYPE [abstract-declarator] := NAME-WORDS [abstract]; */
static enum tv_status
parse_typealias(struct parser *p, struct tsdl_stmt *s)
{
	struct tv_strbuf sb;
	enum tv_status st;

	next(p);
	st = parse_type(p, &s->type);
	if (st != TV_OK)
		return st;
	if (!(cur(p)->kind == TSDL_T_TYPEASSIGN)) {
		st = parse_declarator(p, true, &s->decls);
		if (st != TV_OK)
			return st;
		if (s->decls->name) {
			struct tv_loc loc = { p->path, TV_NO_OFFSET,
			    s->decls->line, s->decls->col };

			return tv_error_set(p->err, TV_SYNTAX, &loc,
			    _("unexpected name before ':=' in typealias"));
		}
	}
	if (cur(p)->kind != TSDL_T_TYPEASSIGN)
		return expected(p, "':='");
	next(p);
	tv_strbuf_init(&sb);
	while (cur(p)->kind == TSDL_T_IDENT) {
		if (!is_word(cur(p), "const")) {
			if (sb.len)
				tv_strbuf_addc(&sb, ' ');
			tv_strbuf_adds(&sb, cur(p)->text);
		}
		next(p);
	}
	if (sb.len == 0) {
		tv_strbuf_fini(&sb);
		return expected(p, _("a type name"));
	}
	s->path = tv_arena_strdup(p->arena, sb.buf);
	tv_strbuf_fini(&sb);
	while (is_punct(cur(p), '*'))
		next(p);
	if (is_punct(cur(p), '['))
		return expected(p, "';'");
	return expect_punct(p, ';');
}

/* One statement of a block (or of the top level). */
static enum tv_status
parse_stmt(struct parser *p, struct tsdl_stmt **out)
{
	struct tsdl_stmt *s = node(p, sizeof(*s));
	const struct tsdl_token *t = cur(p);
	enum tv_status st;

	s->line = t->line;
	s->col = t->col;
	*out = s;
	if (is_block_word(t) && is_punct(ahead(p, 1), '{')) {
		s->kind = TSDL_S_BLOCK;
		s->path = t->text;
		next(p);
		next(p);
		if (++p->depth > TSDL_MAX_DEPTH)
			return expected(p, "'}'");
		st = parse_stmts(p, true, &s->body);
		p->depth--;
		if (st != TV_OK)
			return st;
		return expect_punct(p, ';');
	}
	if (is_word(t, "typealias")) {
		s->kind = TSDL_S_TYPEALIAS;
		return parse_typealias(p, s);
	}
	if (is_word(t, "typedef")) {
		s->kind = TSDL_S_TYPEDEF;
		next(p);
		st = parse_type(p, &s->type);
		if (st != TV_OK)
			return st;
		st = parse_declarators(p, &s->decls);
		if (st != TV_OK)
			return st;
		return expect_punct(p, ';');
	}
	if (at_assignment(p)) {
		s->kind = TSDL_S_ASSIGN;
		st = parse_path(p, &s->path);
		if (st != TV_OK)
			return st;
		if (cur(p)->kind == TSDL_T_TYPEASSIGN) {
			s->typeassign = true;
			next(p);
			s->value.kind = TSDL_V_TYPE;
			s->value.line = cur(p)->line;
			s->value.col = cur(p)->col;
			st = parse_type(p, &s->value.type);
		} else {
			next(p);	/* = */
			st = parse_value(p, &s->value);
		}
		if (st != TV_OK)
			return st;
		return expect_punct(p, ';');
	}
	s->kind = TSDL_S_DECL;
	st = parse_type(p, &s->type);
	if (st != TV_OK)
		return st;
	/* babeltrace accepts "struct a {...} struct b {...};" */
	if (s->type->has_body && cur(p)->kind == TSDL_T_IDENT &&
	    tsdl_is_keyword(cur(p)->text) && !is_basic_word(cur(p)))
		return TV_OK;
	if (!is_punct(cur(p), ';')) {
		st = parse_declarators(p, &s->decls);
		if (st != TV_OK)
			return st;
	}
	return expect_punct(p, ';');
}

/* Statements up to '}' (consumed) when @braced, else up to the end. */
static enum tv_status
parse_stmts(struct parser *p, bool braced, struct tsdl_stmt **out)
{
	struct tsdl_stmt **tail = out;
	enum tv_status st;

	*out = NULL;
	for (;;) {
		if (cur(p)->kind == TSDL_T_EOF) {
			if (braced)
				return expected(p, "'}'");
			return TV_OK;
		}
		if (braced && is_punct(cur(p), '}')) {
			next(p);
			return TV_OK;
		}
		if (is_punct(cur(p), ';')) {
			next(p);	/* empty statement */
			continue;
		}
		st = parse_stmt(p, tail);
		if (st != TV_OK)
			return st;
		tail = &(*tail)->next;
	}
}

/* Parse a whole metadata text. */
enum tv_status
tsdl_parse(const char *src, size_t len, const char *path, struct tv_arena *a,
    struct tsdl_stmt **out, struct tv_error *err)
{
	struct parser p = { NULL, 0, 0, path, a, err, 0 };
	struct tsdl_token *toks;
	size_t ntoks;
	enum tv_status st;

	st = tsdl_lex(src, len, path, a, &toks, &ntoks, err);
	if (st != TV_OK)
		return st;
	p.toks = toks;
	p.ntoks = ntoks;
	return parse_stmts(&p, false, out);
}
