/*
 * TSDL lexer: splits metadata text into tokens, each with its line and
 * column.  Handles C comments, CRLF line ends, integer literals (decimal,
 * hex, octal, u/l suffixes), string and character literals with escapes,
 * and the multi-character punctuators := -> and ... of the grammar.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "tsdl-ast.h"

/*
 * The first guess of the token vector is not trusted beyond this many
 * tokens (1.6 MB): a text of blanks or comments would otherwise reserve
 * thirteen times its size.
 */
#define TSDL_TOKS_GUESS_MAX	(40u * 1024)

struct lexer {
	const char		*src;
	size_t			 len;
	size_t			 pos;
	uint32_t		 line;
	uint32_t		 col;
	const char		*path;
	struct tv_arena		*arena;
	struct tsdl_token	*toks;
	size_t			 ntoks;
	size_t			 cap;
};

static const char *const keywords[] = {
	"align", "callsite", "const", "char", "clock", "double", "enum",
	"env", "event", "floating_point", "float", "integer", "int", "long",
	"short", "signed", "stream", "string", "struct", "trace", "typealias",
	"typedef", "unsigned", "variant", "void", "_Bool", "_Complex",
	"_Imaginary",
};

/* Reserved words: field names may not be one of these unescaped. */
bool
tsdl_is_keyword(const char *s)
{
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(keywords); i++)
		if (strcmp(s, keywords[i]) == 0)
			return true;
	return false;
}

/* The character @ahead positions on, or -1 past the end. */
static int
peekc(const struct lexer *lx, size_t ahead)
{
	if (lx->pos + ahead >= lx->len)
		return -1;
	return (unsigned char)lx->src[lx->pos + ahead];
}

/* Advance one character, keeping line and column right (CRLF = one). */
static void
advance(struct lexer *lx)
{
	char c = lx->src[lx->pos++];

	if (c == '\n') {
		lx->line++;
		lx->col = 1;
	} else if (c == '\r') {
		if (lx->pos < lx->len && lx->src[lx->pos] == '\n')
			return;		/* the \n counts the line */
		lx->line++;
		lx->col = 1;
	} else {
		lx->col++;
	}
}

/*
 * Append a token at line:col; the caller fills its value.  The vector is
 * in the arena from the start, sized from the text (TSDL averages about
 * four bytes a token): most texts need one allocation, and no realloc or
 * final copy of a vector that is ten times the text.  A text that holds
 * more tokens doubles it; the outgrown copies stay in the arena, at most
 * as big as the last one.
 */
static struct tsdl_token *
push(struct lexer *lx, enum tsdl_tok_kind kind, uint32_t line, uint32_t col)
{
	struct tsdl_token *t;

	if (lx->ntoks == lx->cap) {
		size_t cap = lx->cap ? lx->cap * 2 : lx->len / 3 + 16;

		if (cap > TSDL_TOKS_GUESS_MAX && !lx->cap)
			cap = TSDL_TOKS_GUESS_MAX;
		t = tv_arena_alloc(lx->arena, cap * sizeof(*t));
		if (lx->ntoks)
			memcpy(t, lx->toks, lx->ntoks * sizeof(*t));
		lx->toks = t;
		lx->cap = cap;
	}
	t = &lx->toks[lx->ntoks++];
	*t = (struct tsdl_token){ .kind = kind, .line = line, .col = col };
	return t;
}

/* Can @c start an identifier? */
static bool
is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Can @c continue an identifier? */
static bool
is_ident_char(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/*
 * Skip the run of bytes from the current one for which @in_run holds;
 * they hold no line end.  One test a byte, where peekc and advance make
 * five: identifiers and blanks are most of a metadata text.
 */
static void
skip_run(struct lexer *lx, bool (*in_run)(int))
{
	size_t start = lx->pos;

	while (lx->pos < lx->len && in_run((unsigned char)lx->src[lx->pos]))
		lx->pos++;
	lx->col += (uint32_t)(lx->pos - start);
}

/* A blank that does not end a line. */
static bool
is_inline_blank(int c)
{
	return c == ' ' || c == '\t';
}

/* Value of hex digit @c, or 99 for a non-digit. */
static int
digit_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* An integer literal: [0x]digits[uUlL]*, checked for overflow. */
static enum tv_status
lex_number(struct lexer *lx, struct tv_error *err)
{
	uint32_t line = lx->line, col = lx->col;
	unsigned base = 10;
	uint64_t v = 0;
	bool any = false, overflow = false;
	struct tsdl_token *t;
	int c;

	if (peekc(lx, 0) == '0' && (peekc(lx, 1) == 'x' ||
	    peekc(lx, 1) == 'X')) {
		base = 16;
		advance(lx);
		advance(lx);
	} else if (peekc(lx, 0) == '0') {
		base = 8;
	}
	while ((c = peekc(lx, 0)) >= 0 && digit_value(c) < (int)base) {
		unsigned d = (unsigned)digit_value(c);

		if (v > (UINT64_MAX - d) / base)
			overflow = true;
		v = v * base + d;
		any = true;
		advance(lx);
	}
	if (!any)
		goto bad;
	if (peekc(lx, 0) == '.' && peekc(lx, 1) >= '0' && peekc(lx, 1) <= '9') {
		return tv_error_set(err, TV_SYNTAX,
		    &(struct tv_loc){ lx->path, TV_NO_OFFSET, line, col },
		    _("floating-point literals are not supported"));
	}
	while ((c = peekc(lx, 0)) == 'u' || c == 'U' || c == 'l' || c == 'L')
		advance(lx);
	if (peekc(lx, 0) >= 0 && (is_ident_char(peekc(lx, 0)) ||
	    peekc(lx, 0) == '\''  || peekc(lx, 0) == '"'))
		goto bad;
	if (overflow)
		return tv_error_set(err, TV_SYNTAX,
		    &(struct tv_loc){ lx->path, TV_NO_OFFSET, line, col },
		    _("integer literal does not fit in 64 bits"));
	t = push(lx, TSDL_T_INT, line, col);
	t->ival = v;
	return TV_OK;
bad:
	return tv_error_set(err, TV_SYNTAX,
	    &(struct tv_loc){ lx->path, TV_NO_OFFSET, line, col },
	    _("malformed integer literal"));
}

/* One escape sequence after a backslash; appends the byte to @sb. */
static enum tv_status
lex_escape(struct lexer *lx, struct tv_strbuf *sb, struct tv_error *err)
{
	uint32_t line = lx->line, col = lx->col;
	int c = peekc(lx, 1);
	unsigned v = 0;
	int n;

	advance(lx);		/* the backslash */
	if (c < 0)
		goto bad;
	advance(lx);
	switch (c) {
	case 'n': tv_strbuf_addc(sb, '\n'); return TV_OK;
	case 't': tv_strbuf_addc(sb, '\t'); return TV_OK;
	case 'r': tv_strbuf_addc(sb, '\r'); return TV_OK;
	case 'a': tv_strbuf_addc(sb, '\a'); return TV_OK;
	case 'b': tv_strbuf_addc(sb, '\b'); return TV_OK;
	case 'f': tv_strbuf_addc(sb, '\f'); return TV_OK;
	case 'v': tv_strbuf_addc(sb, '\v'); return TV_OK;
	case '\\': case '\'': case '"': case '?':
		tv_strbuf_addc(sb, (char)c);
		return TV_OK;
	case 'x':
		/* As babeltrace: hex digits while the value fits a byte. */
		for (n = 0; digit_value(peekc(lx, 0)) < 16 &&
		    v * 16 + (unsigned)digit_value(peekc(lx, 0)) <= 0xff; n++) {
			v = v * 16 + (unsigned)digit_value(peekc(lx, 0));
			advance(lx);
		}
		if (n == 0)
			goto bad;
		tv_strbuf_addc(sb, (char)v);
		return TV_OK;
	default:
		if (c >= '0' && c <= '7') {
			v = (unsigned)(c - '0');
			for (n = 1; n < 3 && peekc(lx, 0) >= '0' &&
			    peekc(lx, 0) <= '7'; n++) {
				v = v * 8 + (unsigned)(peekc(lx, 0) - '0');
				advance(lx);
			}
			tv_strbuf_addc(sb, (char)v);
			return TV_OK;
		}
		break;
	}
bad:
	return tv_error_set(err, TV_SYNTAX,
	    &(struct tv_loc){ lx->path, TV_NO_OFFSET, line, col },
	    _("invalid escape sequence"));
}

/* A "string" or 'c' literal; strings are decoded into the arena. */
static enum tv_status
lex_quoted(struct lexer *lx, struct tv_error *err)
{
	uint32_t line = lx->line, col = lx->col;
	int quote = peekc(lx, 0);
	struct tv_strbuf sb;
	struct tsdl_token *t;
	enum tv_status st;
	char *buf;
	int c;

	tv_strbuf_init(&sb);
	advance(lx);
	for (;;) {
		c = peekc(lx, 0);
		if (c < 0 || c == '\n' || c == '\r') {
			tv_strbuf_fini(&sb);
			return tv_error_set(err, TV_SYNTAX,
			    &(struct tv_loc){ lx->path, TV_NO_OFFSET, line,
			    col }, quote == '"' ?
			    _("unterminated string literal") :
			    _("unterminated character literal"));
		}
		if (c == quote) {
			advance(lx);
			break;
		}
		if (c == '\\') {
			st = lex_escape(lx, &sb, err);
			if (st != TV_OK) {
				tv_strbuf_fini(&sb);
				return st;
			}
			continue;
		}
		tv_strbuf_addc(&sb, (char)c);
		advance(lx);
	}
	if (quote == '\'') {
		if (sb.len != 1) {
			tv_strbuf_fini(&sb);
			return tv_error_set(err, TV_SYNTAX,
			    &(struct tv_loc){ lx->path, TV_NO_OFFSET, line,
			    col }, _("character literal must hold one "
			    "character"));
		}
		t = push(lx, TSDL_T_CHAR, line, col);
		t->ival = (unsigned char)sb.buf[0];
	} else {
		t = push(lx, TSDL_T_STRING, line, col);
		buf = tv_arena_alloc(lx->arena, sb.len + 1);
		if (sb.len)
			memcpy(buf, sb.buf, sb.len);
		buf[sb.len] = '\0';
		t->text = buf;
		t->len = sb.len;
	}
	tv_strbuf_fini(&sb);
	return TV_OK;
}

/* Skip blanks and comments; TV_SYNTAX for an unterminated comment. */
static enum tv_status
skip_space(struct lexer *lx, struct tv_error *err)
{
	int c;

	while ((c = peekc(lx, 0)) >= 0) {
		if (is_inline_blank(c)) {
			skip_run(lx, is_inline_blank);
		} else if (c == '\n' || c == '\r' || c == '\f' || c == '\v') {
			advance(lx);
		} else if (c == '/' && peekc(lx, 1) == '/') {
			while ((c = peekc(lx, 0)) >= 0 && c != '\n' &&
			    c != '\r')
				advance(lx);
		} else if (c == '/' && peekc(lx, 1) == '*') {
			uint32_t line = lx->line, col = lx->col;

			advance(lx);
			advance(lx);
			for (;;) {
				if (peekc(lx, 0) < 0)
					return tv_error_set(err, TV_SYNTAX,
					    &(struct tv_loc){ lx->path,
					    TV_NO_OFFSET, line, col },
					    _("unterminated comment"));
				if (peekc(lx, 0) == '*' &&
				    peekc(lx, 1) == '/') {
					advance(lx);
					advance(lx);
					break;
				}
				advance(lx);
			}
		} else {
			break;
		}
	}
	return TV_OK;
}

/* Tokenize all of @src; the last token is always TSDL_T_EOF. */
enum tv_status
tsdl_lex(const char *src, size_t len, const char *path, struct tv_arena *a,
    struct tsdl_token **toks, size_t *ntoks, struct tv_error *err)
{
	struct lexer lx = { src, len, 0, 1, 1, path, a, NULL, 0, 0 };
	struct tsdl_token *t;
	enum tv_status st;
	int c;

	for (;;) {
		st = skip_space(&lx, err);
		if (st != TV_OK)
			goto fail;
		if (lx.ntoks >= TSDL_MAX_TOKENS) {
			st = tv_error_set(err, TV_SYNTAX,
			    &(struct tv_loc){ path, TV_NO_OFFSET, lx.line,
			    lx.col }, _("metadata has too many tokens"));
			goto fail;
		}
		c = peekc(&lx, 0);
		if (c < 0)
			break;
		if (is_ident_start(c)) {
			size_t start = lx.pos;

			t = push(&lx, TSDL_T_IDENT, lx.line, lx.col);
			skip_run(&lx, is_ident_char);
			t->len = lx.pos - start;
			t->text = tv_arena_strndup(a, src + start, t->len);
		} else if (c >= '0' && c <= '9') {
			st = lex_number(&lx, err);
			if (st != TV_OK)
				goto fail;
		} else if (c == '"' || c == '\'') {
			st = lex_quoted(&lx, err);
			if (st != TV_OK)
				goto fail;
		} else if (c == ':' && peekc(&lx, 1) == '=') {
			push(&lx, TSDL_T_TYPEASSIGN, lx.line, lx.col);
			advance(&lx);
			advance(&lx);
		} else if (c == '-' && peekc(&lx, 1) == '>') {
			push(&lx, TSDL_T_ARROW, lx.line, lx.col);
			advance(&lx);
			advance(&lx);
		} else if (c == '.' && peekc(&lx, 1) == '.' &&
		    peekc(&lx, 2) == '.') {
			push(&lx, TSDL_T_ELLIPSIS, lx.line, lx.col);
			advance(&lx);
			advance(&lx);
			advance(&lx);
		} else if (strchr("{}[]()<>;,=:.*+-?", c) != NULL && c != 0) {
			t = push(&lx, TSDL_T_PUNCT, lx.line, lx.col);
			t->punct = c;
			advance(&lx);
		} else {
			st = tv_error_set(err, TV_SYNTAX,
			    &(struct tv_loc){ path, TV_NO_OFFSET, lx.line,
			    lx.col }, _("unexpected character 0x%02x%s"),
			    (unsigned)c, c == 0 ? _(" (NUL in metadata text)") :
			    "");
			goto fail;
		}
	}
	push(&lx, TSDL_T_EOF, lx.line, lx.col);
	*toks = lx.toks;	/* in the arena: the caller frees nothing */
	*ntoks = lx.ntoks;
	return TV_OK;
fail:
	return st;
}
