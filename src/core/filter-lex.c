/*
 * The filter tokenizer: names, numbers (kept as text: "0x1f", "1.5",
 * "10ms" and "50%" are numbers to the lexer, and the parser or the time
 * parser decides), quoted strings, and the operators of the language.
 * Columns are 1-based byte offsets into the filter text (one line).
 */
#include "tview/tview.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "filter-priv.h"

/* See filter-priv.h. */
enum tv_status
filter_error(struct tv_error *err, enum tv_status st, uint32_t col,
    const char *fmt, ...)
{
	struct tv_loc loc = { FILTER_ERR_PATH, TV_NO_OFFSET, 1, col };
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return tv_error_set(err, st, &loc, "%s", msg);
}

/* The two-character operators, longest match first. */
static const struct {
	char		 text[3];
	enum ftok	 kind;
} lex_ops2[] = {
	{ "==", FT_EQ }, { "!=", FT_NE }, { "<=", FT_LE }, { ">=", FT_GE },
	{ "=~", FT_REGEX }, { "!~", FT_NREGEX }, { "&&", FT_AND },
	{ "||", FT_OR }, { "<<", FT_SHL }, { ">>", FT_SHR },
};

/* The one-character tokens. */
static const struct {
	char		 c;
	enum ftok	 kind;
} lex_ops1[] = {
	{ '<', FT_LT }, { '>', FT_GT }, { '!', FT_NOT }, { '~', FT_GLOB },
	{ '&', FT_BAND }, { '|', FT_BOR }, { '^', FT_XOR }, { '+', FT_PLUS },
	{ '-', FT_MINUS }, { '*', FT_MUL }, { '/', FT_DIV }, { '%', FT_MOD },
	{ '(', FT_LPAREN }, { ')', FT_RPAREN }, { ',', FT_COMMA },
	{ ':', FT_COLON },
};

/* See filter-priv.h. */
enum tv_status
filter_lex(const char *text, size_t *pos, struct ftoken *out,
    struct tv_error *err)
{
	size_t i = *pos, k;
	const char *p;

	while (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
	    text[i] == '\r')
		i++;
	p = text + i;
	out->start = p;
	out->col = (uint32_t)i + 1;
	out->len = 1;
	if (*p == '\0') {
		out->kind = FT_END;
		out->len = 0;
	} else if (isalpha((unsigned char)*p) || *p == '_' ||
	    (*p == '$' && (isalpha((unsigned char)p[1]) || p[1] == '_'))) {
		/* $tid: the built-in, whatever fields the event has */
		while (isalnum((unsigned char)p[out->len]) ||
		    p[out->len] == '_')
			out->len++;
		out->kind = FT_IDENT;
	} else if (isdigit((unsigned char)*p)) {
		/* 0x1f, 010, 1.5, 10ms, 50%: the reader of the text decides */
		while (isalnum((unsigned char)p[out->len]) ||
		    p[out->len] == '.' || p[out->len] == '%' ||
		    p[out->len] == '_')
			out->len++;
		out->kind = FT_NUMBER;
	} else if (*p == '"' || *p == '\'') {
		while (p[out->len] != '\0' && p[out->len] != *p) {
			if (p[out->len] == '\\' && p[out->len + 1] != '\0')
				out->len++;
			out->len++;
		}
		if (p[out->len] == '\0')
			return filter_error(err, TV_SYNTAX, out->col,
			    _("unterminated string"));
		out->len++;
		out->kind = *p == '"' ? FT_STRING : FT_CHAR;
	} else {
		for (k = 0; k < TV_ARRAY_SIZE(lex_ops2); k++)
			if (p[0] == lex_ops2[k].text[0] &&
			    p[1] == lex_ops2[k].text[1]) {
				out->kind = lex_ops2[k].kind;
				out->len = 2;
				*pos = i + 2;
				return TV_OK;
			}
		for (k = 0; k < TV_ARRAY_SIZE(lex_ops1); k++)
			if (*p == lex_ops1[k].c)
				break;
		if (k == TV_ARRAY_SIZE(lex_ops1)) {
			if (*p == '=')
				return filter_error(err, TV_SYNTAX, out->col,
				    _("'=' is not an operator: compare with "
				    "'=='"));
			return filter_error(err, TV_SYNTAX, out->col,
			    _("unexpected character '%c'"), *p);
		}
		out->kind = lex_ops1[k].kind;
	}
	*pos = i + out->len;
	return TV_OK;
}
