/*
 * The filter parser: text to parts, each an event list and an expression
 * tree.  A part starts with an event list when the text before its first
 * ':' holds no operator (trace-cmd's "EVENTS: expr"); a part with no ':'
 * and no operator is an event list alone (every event it names); anything
 * else is an expression over every event.  Parts are separated by commas
 * after an expression.
 *
 * Precedence, lowest first: ||, &&, !, comparisons (== != < <= > >= =~ !~
 * ~, not chained), |, ^, &, << >>, + -, * / %, unary -.  A bare value is
 * true when it is not zero (trace-cmd: "prev_state & 1").
 */
#include "tview/tview.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <errno.h>
#include <inttypes.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "filter-priv.h"

struct pstate {
	struct tv_filter	*f;
	size_t			 pos;		/* after tok */
	struct ftoken		 tok;		/* the current token */
	struct tv_error		*err;
	int			 depth;
};

static enum tv_status p_or(struct pstate *ps, struct fnode **out);

/* Read the next token into ps->tok. */
static enum tv_status
advance(struct pstate *ps)
{
	return filter_lex(ps->f->text, &ps->pos, &ps->tok, ps->err);
}

/* A new node of @kind at @col. */
static struct fnode *
node(struct pstate *ps, enum fkind kind, uint32_t col)
{
	struct fnode *n = tv_arena_zalloc(&ps->f->arena, sizeof(*n));

	n->kind = (uint8_t)kind;
	n->col = col;
	return n;
}

/* Whether @n is a condition (not usable as a value). */
static bool
is_cond(const struct fnode *n)
{
	return n->kind >= FN_CMP;
}

/* "unexpected X" for the current token. */
static enum tv_status
unexpected(struct pstate *ps)
{
	if (ps->tok.kind == FT_END)
		return filter_error(ps->err, TV_SYNTAX, ps->tok.col,
		    _("unexpected end of the filter"));
	return filter_error(ps->err, TV_SYNTAX, ps->tok.col,
	    _("unexpected '%.*s'"), (int)ps->tok.len, ps->tok.start);
}

/* The text of a quoted token without quotes, escapes undone. */
static char *
unquote(struct pstate *ps, const struct ftoken *t, size_t *len)
{
	char *s = tv_arena_alloc(&ps->f->arena, t->len);
	size_t i, n = 0;

	for (i = 1; i + 1 < t->len; i++) {
		char c = t->start[i];

		if (c == '\\' && i + 2 < t->len) {
			c = t->start[++i];
			if (c == 'n')
				c = '\n';
			else if (c == 't')
				c = '\t';
		}
		s[n++] = c;
	}
	s[n] = '\0';
	*len = n;
	return s;
}

/* A number token (after an optional sign given by @sign, '+' or '-'). */
static struct fnode *
number(struct pstate *ps, char sign, uint32_t col)
{
	struct fnode *n = node(ps, FN_NUM, col);
	char *text = tv_arena_alloc(&ps->f->arena, ps->tok.len + 2);
	const char *digits;
	char *end;

	if (sign)
		text[0] = sign;
	memcpy(text + (sign != 0), ps->tok.start, ps->tok.len);
	text[ps->tok.len + (sign != 0)] = '\0';
	n->text = text;
	digits = text + (sign != 0);
	errno = 0;
	n->num = strtoull(digits, &end, 0);
	n->num_ok = *end == '\0' && errno == 0;
	if (sign == '-') {
		n->neg = true;
		n->num = (uint64_t)0 - n->num;
	}
	return n;
}

/* atom := NUMBER | STRING | CHAR | NAME | '(' or ')' */
static enum tv_status
p_atom(struct pstate *ps, struct fnode **out)
{
	struct ftoken t = ps->tok;
	enum tv_status st;
	struct fnode *n;
	size_t len;

	switch (t.kind) {
	case FT_NUMBER:
		*out = number(ps, 0, t.col);
		return advance(ps);
	case FT_STRING:
	case FT_CHAR:
		n = node(ps, FN_STR, t.col);
		n->text = unquote(ps, &t, &len);
		n->num = len;
		n->op = (uint8_t)t.kind;
		*out = n;
		return advance(ps);
	case FT_IDENT:
		n = node(ps, FN_NAME, t.col);
		n->text = tv_arena_strndup(&ps->f->arena, t.start, t.len);
		*out = n;
		return advance(ps);
	case FT_LPAREN:
		if (++ps->depth > FILTER_MAX_DEPTH)
			return filter_error(ps->err, TV_SYNTAX, t.col,
			    _("too deeply nested"));
		if ((st = advance(ps)) != TV_OK ||
		    (st = p_or(ps, out)) != TV_OK)
			return st;
		if (ps->tok.kind != FT_RPAREN)
			return ps->tok.kind == FT_END ?
			    filter_error(ps->err, TV_SYNTAX, t.col,
			    _("unbalanced '('")) : unexpected(ps);
		ps->depth--;
		return advance(ps);
	default:
		return unexpected(ps);
	}
}

/* unary := '-' unary | '+' NUMBER | atom */
static enum tv_status
p_unary(struct pstate *ps, struct fnode **out)
{
	struct ftoken t = ps->tok;
	enum tv_status st;
	struct fnode *n;

	if (t.kind != FT_MINUS && t.kind != FT_PLUS)
		return p_atom(ps, out);
	if ((st = advance(ps)) != TV_OK)
		return st;
	if (ps->tok.kind == FT_NUMBER) {
		*out = number(ps, t.kind == FT_MINUS ? '-' : '+', t.col);
		return advance(ps);
	}
	if (++ps->depth > FILTER_MAX_DEPTH)
		return filter_error(ps->err, TV_SYNTAX, t.col,
		    _("too deeply nested"));
	if ((st = p_unary(ps, &n)) != TV_OK)
		return st;
	ps->depth--;
	if (is_cond(n))
		return filter_error(ps->err, TV_SYNTAX, t.col,
		    _("a condition is not a number"));
	if (t.kind == FT_PLUS) {
		*out = n;
		return TV_OK;
	}
	*out = node(ps, FN_NEG, t.col);
	(*out)->l = n;
	return TV_OK;
}

/* The binary arithmetic levels, highest precedence first. */
static const enum ftok arith_levels[][3] = {
	{ FT_MUL, FT_DIV, FT_MOD },
	{ FT_PLUS, FT_MINUS, FT_END },
	{ FT_SHL, FT_SHR, FT_END },
	{ FT_BAND, FT_END, FT_END },
	{ FT_XOR, FT_END, FT_END },
	{ FT_BOR, FT_END, FT_END },
};

/* One level of arithmetic: operand (op operand)*, left-associative. */
static enum tv_status
p_arith(struct pstate *ps, int level, struct fnode **out)
{
	enum tv_status st;
	struct fnode *l, *r, *n;

	st = level == 0 ? p_unary(ps, &l) : p_arith(ps, level - 1, &l);
	if (st != TV_OK)
		return st;
	for (;;) {
		struct ftoken t = ps->tok;
		int k;

		for (k = 0; k < 3; k++)
			if (arith_levels[level][k] != FT_END &&
			    arith_levels[level][k] == t.kind)
				break;
		if (k == 3)
			break;
		if ((st = advance(ps)) != TV_OK)
			return st;
		st = level == 0 ? p_unary(ps, &r) : p_arith(ps, level - 1, &r);
		if (st != TV_OK)
			return st;
		if (is_cond(l) || is_cond(r))
			return filter_error(ps->err, TV_SYNTAX, t.col,
			    _("'%.*s' needs numbers, not conditions"),
			    (int)t.len, t.start);
		n = node(ps, FN_ARITH, t.col);
		n->op = (uint8_t)t.kind;
		n->l = l;
		n->r = r;
		l = n;
	}
	*out = l;
	return TV_OK;
}

/* Compile the pattern of a =~ or !~ (caseless, as trace-cmd's regcomp). */
static enum tv_status
compile_regex(struct pstate *ps, struct fnode *cmp, const struct fnode *pat)
{
	PCRE2_UCHAR msg[160];
	PCRE2_SIZE off;
	int code;

	cmp->re = pcre2_compile((PCRE2_SPTR)pat->text, pat->num,
	    PCRE2_CASELESS, &code, &off, NULL);
	if (cmp->re != NULL) {
		/*
		 * Matched once per event over whole traces: JIT-compiled
		 * when the library can (pcre2_match uses it by itself, and
		 * compiled code is safe to share between the pass's
		 * workers); the interpreter otherwise.
		 */
		(void)pcre2_jit_compile(cmp->re, PCRE2_JIT_COMPLETE);
		TV_VEC_GROW(ps->f->regexes, ps->f->nregexes,
		    ps->f->regexes_cap);
		ps->f->regexes[ps->f->nregexes++] = cmp->re;
	} else {
		pcre2_get_error_message(code, msg, sizeof(msg));
		return filter_error(ps->err, TV_SYNTAX,
		    pat->col + 1 + (uint32_t)off,
		    _("invalid regular expression: %s"), (const char *)msg);
	}
	return TV_OK;
}

/* cmp := arith [cmpop arith] */
static enum tv_status
p_cmp(struct pstate *ps, struct fnode **out)
{
	struct fnode *l, *r, *n;
	enum tv_status st;
	struct ftoken t;

	if ((st = p_arith(ps, (int)TV_ARRAY_SIZE(arith_levels) - 1, &l)) !=
	    TV_OK)
		return st;
	t = ps->tok;
	if (t.kind < FT_EQ || t.kind > FT_GLOB) {
		*out = l;
		return TV_OK;
	}
	if ((st = advance(ps)) != TV_OK ||
	    (st = p_arith(ps, (int)TV_ARRAY_SIZE(arith_levels) - 1, &r)) !=
	    TV_OK)
		return st;
	if (is_cond(l) || is_cond(r))
		return filter_error(ps->err, TV_SYNTAX, t.col,
		    _("'%.*s' compares values, not conditions"), (int)t.len,
		    t.start);
	if (ps->tok.kind >= FT_EQ && ps->tok.kind <= FT_GLOB)
		return filter_error(ps->err, TV_SYNTAX, ps->tok.col,
		    _("comparisons do not chain: use && between them"));
	n = node(ps, FN_CMP, t.col);
	n->op = (uint8_t)t.kind;
	n->l = l;
	n->r = r;
	if (t.kind == FT_REGEX || t.kind == FT_NREGEX || t.kind == FT_GLOB) {
		if (r->kind != FN_STR)
			return filter_error(ps->err, TV_SYNTAX, r->col,
			    _("'%.*s' needs a quoted pattern on its right"),
			    (int)t.len, t.start);
		if (t.kind != FT_GLOB &&
		    (st = compile_regex(ps, n, r)) != TV_OK)
			return st;
	} else if (r->kind == FN_STR && r->op == FT_CHAR && r->num == 1) {
		/* trace-cmd: 'c' is the number of the character */
		r->kind = FN_NUM;
		r->num_ok = true;
		r->num = (unsigned char)r->text[0];
	}
	*out = n;
	return TV_OK;
}

/* not := '!' not | cmp */
static enum tv_status
p_not(struct pstate *ps, struct fnode **out)
{
	struct ftoken t = ps->tok;
	enum tv_status st;
	struct fnode *n;

	if (t.kind != FT_NOT)
		return p_cmp(ps, out);
	if (++ps->depth > FILTER_MAX_DEPTH)
		return filter_error(ps->err, TV_SYNTAX, t.col,
		    _("too deeply nested"));
	if ((st = advance(ps)) != TV_OK || (st = p_not(ps, &n)) != TV_OK)
		return st;
	ps->depth--;
	*out = node(ps, FN_NOT, t.col);
	(*out)->l = n;
	return TV_OK;
}

/* and := not ('&&' not)* ; or := and ('||' and)* */
static enum tv_status
p_logic(struct pstate *ps, enum ftok op, struct fnode **out)
{
	enum tv_status st;
	struct fnode *l, *r, *n;

	st = op == FT_AND ? p_not(ps, &l) : p_logic(ps, FT_AND, &l);
	while (st == TV_OK && ps->tok.kind == op) {
		uint32_t col = ps->tok.col;

		if ((st = advance(ps)) != TV_OK)
			return st;
		st = op == FT_AND ? p_not(ps, &r) : p_logic(ps, FT_AND, &r);
		if (st != TV_OK)
			return st;
		n = node(ps, op == FT_AND ? FN_AND : FN_OR, col);
		n->l = l;
		n->r = r;
		l = n;
	}
	*out = l;
	return st;
}

static enum tv_status
p_or(struct pstate *ps, struct fnode **out)
{
	return p_logic(ps, FT_OR, out);
}

/*
 * The end of the event list of the part at @pos: the offset of its ':'
 * (or of the end of the text when there is none) if the text before it
 * reads as an event list, else SIZE_MAX (the part is an expression).
 */
static size_t
event_list_end(const char *text, size_t pos)
{
	char quote = 0;
	bool any = false;
	size_t i;

	for (i = pos; text[i] != '\0'; i++) {
		char c = text[i];

		if (quote) {
			if (c == quote)
				quote = 0;
			continue;
		}
		if (c == '"' || c == '\'') {
			quote = c;
			any = true;
		} else if (c == ':') {
			break;
		} else if (strchr("=<>!&~", c)) {
			return SIZE_MAX;
		} else if (c != ' ' && c != '\t') {
			any = true;
		}
	}
	return any ? i : SIZE_MAX;
}

/* Split text[pos, end) at top-level commas into the selectors of @part. */
static enum tv_status
parse_selectors(struct pstate *ps, struct fpart *part, size_t pos,
    size_t end)
{
	const char *text = ps->f->text;
	size_t i = pos, cap = 0;

	while (i <= end) {
		size_t b, e, j;
		char quote = 0, *sel;

		while (i < end && (text[i] == ' ' || text[i] == '\t'))
			i++;
		b = i;
		for (j = i; j < end && (quote || text[j] != ','); j++)
			if (quote && text[j] == quote)
				quote = 0;
			else if (!quote && (text[j] == '"' || text[j] == '\''))
				quote = text[j];
		e = j;
		while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t'))
			e--;
		if (e - b >= 2 && (text[b] == '"' || text[b] == '\'') &&
		    text[e - 1] == text[b]) {
			b++;
			e--;
		}
		if (e <= b)
			return filter_error(ps->err, TV_SYNTAX,
			    (uint32_t)b + 1, _("empty event name"));
		sel = tv_arena_strndup(&ps->f->arena, text + b, e - b);
		if (part->nsels == cap) {
			uint32_t *cols;
			char **sels;

			cap = cap ? cap * 2 : 4;
			sels = tv_arena_alloc(&ps->f->arena,
			    cap * sizeof(*sels));
			cols = tv_arena_alloc(&ps->f->arena,
			    cap * sizeof(*cols));
			if (part->nsels) {
				memcpy(sels, part->sels,
				    part->nsels * sizeof(*sels));
				memcpy(cols, part->sel_cols,
				    part->nsels * sizeof(*cols));
			}
			part->sels = sels;
			part->sel_cols = cols;
		}
		part->sels[part->nsels] = sel;
		part->sel_cols[part->nsels++] = (uint32_t)b + 1;
		i = j + 1;
	}
	return TV_OK;
}

/* See filter-priv.h. */
enum tv_status
filter_parse(struct tv_filter *f, struct tv_error *err)
{
	struct pstate ps = { f, 0, { FT_END, NULL, 0, 0 }, err, 0 };
	size_t cap = 0;
	enum tv_status st;

	for (;;) {
		struct fpart *part;
		size_t end;

		if (f->nparts == cap) {
			struct fpart *np;

			cap = cap ? cap * 2 : 4;
			np = tv_arena_zalloc(&f->arena, cap * sizeof(*np));
			if (f->nparts)
				memcpy(np, f->parts,
				    f->nparts * sizeof(*np));
			f->parts = np;
		}
		part = &f->parts[f->nparts++];
		while (f->text[ps.pos] == ' ' || f->text[ps.pos] == '\t')
			ps.pos++;
		part->col = (uint32_t)ps.pos + 1;
		if (f->text[ps.pos] == '\0')
			return filter_error(err, TV_SYNTAX, part->col,
			    f->nparts == 1 ? _("empty filter") :
			    _("unexpected end of the filter"));
		end = event_list_end(f->text, ps.pos);
		if (end != SIZE_MAX) {
			st = parse_selectors(&ps, part, ps.pos, end);
			if (st != TV_OK)
				return st;
			if (f->text[end] == '\0')
				return TV_OK;
			ps.pos = end + 1;
		}
		if ((st = advance(&ps)) != TV_OK ||
		    (st = p_or(&ps, &part->expr)) != TV_OK)
			return st;
		if (ps.tok.kind == FT_END)
			return TV_OK;
		if (ps.tok.kind != FT_COMMA)
			return ps.tok.kind == FT_RPAREN ?
			    filter_error(err, TV_SYNTAX, ps.tok.col,
			    _("unbalanced ')'")) : unexpected(&ps);
	}
}

/* See filter-priv.h. */
void
filter_free_regexes(struct tv_filter *f)
{
	size_t i;

	for (i = 0; i < f->nregexes; i++)
		pcre2_code_free(f->regexes[i]);
	free(f->regexes);
	f->regexes = NULL;
	f->nregexes = 0;
}
