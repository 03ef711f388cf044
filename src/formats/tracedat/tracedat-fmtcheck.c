/*
 * A strict check of one event format file before libtraceevent parses
 * it.  The library trusts these texts (a quote or parenthesis left open,
 * a malformed number, a REC->field naming no field or a byte that is not
 * text made it dereference NULL, read past its buffers or divide by
 * zero), so tview hands over only what has the shape the kernel writes:
 *
 *   name: NAME
 *   ID: N
 *   format:
 *   <tab>field:DECL;<tab>offset:N;<tab>size:N;<tab>signed:N;
 *   ...
 *   print fmt: "...", ARGS
 *
 * with printable ASCII only, balanced brackets and quotes in DECL and
 * ARGS, valid C integer literals, no division by anything but a non-zero
 * literal, every REC->x naming a field of the event, and no operator the
 * library cannot rank right after a conditional or an index.  The result
 * says why a text was refused, in a few words, for a one-line error.
 */
#include "tview/tview.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/i18n.h"
#include "tracedat-priv.h"

#define FC_MAX_FIELDS	256
#define FC_MAX_DEPTH	64
#define FC_MAX_TEXT	(256u << 10)

/* The field names seen so far (pointers into the checked text). */
struct fc_fields {
	const char	*name[FC_MAX_FIELDS];
	size_t		 len[FC_MAX_FIELDS];
	uint32_t	 n;
};

static bool
is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* Does @p (of @n bytes) start with @lit? */
static bool
starts(const char *p, size_t n, const char *lit)
{
	size_t l = strlen(lit);

	return n >= l && memcmp(p, lit, l) == 0;
}

/* A decimal number of at most @max at *@p; advances. */
static bool
number(const char **p, const char *end, unsigned long max)
{
	unsigned long v = 0;
	const char *s = *p;

	while (*p < end && isdigit((unsigned char)**p)) {
		v = v * 10 + (unsigned long)(**p - '0');
		if (v > max)
			return false;
		(*p)++;
	}
	return *p > s;
}

/* Skip blanks. */
static void
blanks(const char **p, const char *end)
{
	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
}

/* Expect @lit at *@p; advances. */
static bool
expect(const char **p, const char *end, const char *lit)
{
	if (!starts(*p, (size_t)(end - *p), lit))
		return false;
	*p += strlen(lit);
	return true;
}

/*
 * Does the divisor at @p come from the record (REC->x, or a bracketed
 * expression using one)?  Such a division is refused: the library does
 * it unchecked, and a record holding 0 would kill the process.
 */
static bool
divisor_from_record(const char *p, const char *end)
{
	const char *q;
	int depth = 0;

	if (end - p >= 3 && memcmp(p, "REC", 3) == 0)
		return true;
	if (*p != '(')
		return false;
	for (q = p; q < end; q++) {
		if (*q == '(')
			depth++;
		else if (*q == ')' && --depth == 0)
			break;
		else if (end - q >= 3 && memcmp(q, "REC", 3) == 0)
			return true;
	}
	return false;
}

/*
 * Is the divisor at @p a literal: digits, or a bracket holding only
 * literals and operators?  The library divides by the value of
 * whatever it finds there, 0 for a name it does not know ("R % d"
 * killed it with SIGFPE while parsing).
 */
static bool
divisor_literal(const char *p, const char *end)
{
	/* sizeof of the types kernels divide by, which the library knows */
	static const char *const sizes[] = { "sizeof(u64)", "sizeof(u32)",
	    "sizeof(u16)", "sizeof(u8)", "sizeof(int)",
	    "sizeof(unsigned int)", "sizeof(long)", "sizeof(unsigned long)",
	    "sizeof(__u64)", "sizeof(__u32)" };
	int depth = 0;
	size_t i;

	if (p < end && isdigit((unsigned char)*p))
		return true;
	for (i = 0; i < TV_ARRAY_SIZE(sizes); i++)
		if (starts(p, (size_t)(end - p), sizes[i]))
			return true;
	/*
	 * sizeof of anything else (binder's ARRAY_SIZE of a string table,
	 * in real traces): the library does not divide by it while parsing;
	 * it leaves the format unparsed and the event prints as "[FAILED TO
	 * PARSE]" with its fields, exactly as trace-cmd report prints it.
	 */
	if (starts(p, (size_t)(end - p), "sizeof("))
		return true;
	if (p >= end || *p != '(')
		return false;
	for (; p < end; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return true;
		else if (!isdigit((unsigned char)*p) && !strchr(" +-*/xX", *p))
			return false;
	}
	return false;
}

/*
 * Brackets of [@p, @end) nest and close, quotes close, and only the
 * characters C expressions use appear.  In @args (the print fmt), numbers
 * must be C integer literals, divisors non-zero literals, and REC->x a
 * field of @fl.
 */
static const char *
balanced(const char *p, const char *end, bool args,
    const struct fc_fields *fl)
{
	char stack[FC_MAX_DEPTH];
	int depth = 0;
	char prev_op = 0;

	while (p < end) {
		char c = *p;

		if (args && (prev_op == '/' || prev_op == '%') &&
		    !isspace((unsigned char)c) && !isdigit((unsigned char)c) &&
		    divisor_from_record(p, end))
			return N_("division by a record value");
		if (args && (prev_op == '/' || prev_op == '%') &&
		    !isspace((unsigned char)c) && !divisor_literal(p, end))
			return N_("division by something not a number");
		if (c == '"' || c == '\'') {
			char q = c;

			for (p++; p < end && *p != q; p++)
				if (*p == '\\' && ++p == end)
					break;
			if (p >= end)
				return N_("unterminated quote");
			p++;
			prev_op = 0;
			continue;
		}
		if (c == '(' || c == '[' || c == '{') {
			if (depth == FC_MAX_DEPTH)
				return N_("brackets nested too deep");
			stack[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
			p++;
			prev_op = 0;
			continue;
		}
		if (c == ')' || c == ']' || c == '}') {
			if (depth == 0 || stack[depth - 1] != c)
				return N_("unbalanced brackets");
			depth--;
			p++;
			prev_op = 0;
			continue;
		}
		if (args && isdigit((unsigned char)c)) {
			const char *s = p;
			char *e;
			unsigned long long v;

			v = strtoull(s, &e, 0);
			if (e > end)
				return N_("bad number");
			p = e;
			while (p < end && (*p == 'u' || *p == 'U' ||
			    *p == 'l' || *p == 'L'))
				p++;
			if (p < end && is_ident((unsigned char)*p))
				return N_("bad number");
			if ((prev_op == '/' || prev_op == '%') && v == 0)
				return N_("division by zero");
			prev_op = 0;
			continue;
		}
		if (is_ident((unsigned char)c)) {
			const char *s = p;

			while (p < end && is_ident((unsigned char)*p))
				p++;
			/*
			 * libtraceevent 1.7 crashes printing __print_hex()
			 * of __get_str() (trace-cmd report too): refused.
			 */
			if (args && ((p - s == 11 &&
			    memcmp(s, "__print_hex", 11) == 0) ||
			    (p - s == 15 &&
			    memcmp(s, "__print_hex_str", 15) == 0))) {
				const char *q = p;

				while (q < end && (isspace((unsigned char)*q) ||
				    *q == '('))
					q++;
				if (end - q >= 9 && memcmp(q, "__get_str", 9) == 0)
					return N_("__print_hex of a string");
			}
			if (args && p - s == 3 && memcmp(s, "REC", 3) == 0 &&
			    end - p > 2 && p[0] == '-' && p[1] == '>') {
				uint32_t i;

				p += 2;
				s = p;
				while (p < end && is_ident((unsigned char)*p))
					p++;
				for (i = 0; i < fl->n; i++)
					if (fl->len[i] == (size_t)(p - s) &&
					    memcmp(fl->name[i], s,
					    fl->len[i]) == 0)
						break;
				if (i == fl->n)
					return N_("REC-> names no field of "
					    "the event");
			}
			prev_op = 0;
			continue;
		}
		/* a member (x.y, { .y = }); elsewhere the library chokes */
		if (c == '.' && (!args || p + 1 >= end ||
		    !(isalpha((unsigned char)p[1]) || p[1] == '_')))
			return N_("misplaced '.'");
		if (!strchr(" \t\r\n,.*&|^~!<>=+-/%?:;", c))
			return N_("unexpected character");
		if (c == '/' || c == '%')
			prev_op = c;
		else if (!isspace((unsigned char)c))
			prev_op = 0;
		p++;
	}
	return depth ? N_("unbalanced brackets") : NULL;
}

/*
 * The conversions of the format text [@p, @end): widths and precisions
 * written in it are at most TD_MAX_WIDTH (the library pads to any, so
 * "%1000000000d" made it allocate and print a gigabyte per record; the
 * kernel's formats use two digits at most).  Quotes are not looked at, so
 * an escaped quote cannot hide a conversion.  A width or precision taken
 * from an argument ('*') is not bounded here: real formats use them
 * (i2c's "%*phD"): td_check_print_args() bounds them per record.
 */
static const char *
conversions(const char *p, const char *end)
{
	while (p < end) {
		unsigned long v;

		if (*p++ != '%')
			continue;
		if (p < end && *p == '%') {
			p++;
			continue;
		}
		while (p < end && strchr("-+ #0", *p))
			p++;
		for (v = 0; p < end && isdigit((unsigned char)*p); p++)
			if ((v = v * 10 + (unsigned long)(*p - '0')) >
			    TD_MAX_WIDTH)
				return N_("conversion width too large");
		if (p < end && *p == '.')
			for (v = 0, p++; p < end &&
			    isdigit((unsigned char)*p); p++)
				if ((v = v * 10 + (unsigned long)(*p - '0')) >
				    TD_MAX_WIDTH)
					return N_("conversion precision too "
					    "large");
	}
	return NULL;
}

/*
 * The tokens of libtraceevent's print-argument lexer, which
 * operands() follows: a name or number, a quoted string, one of
 * "(),", or an operator (any other character, with the pairs the
 * library reads as one: "->", "++", "&&", "<<=", "!=", ...).
 */
enum fc_tok { FC_END, FC_ITEM, FC_STR, FC_DELIM, FC_OP };

/* The token at *@p; *@s gets its start, *@p its end. */
static enum fc_tok
lex(const char **p, const char *end, const char **s)
{
	const char *q = *p;
	char c;

	while (q < end && isspace((unsigned char)*q))
		q++;
	*s = q;
	if (q >= end) {
		*p = q;
		return FC_END;
	}
	c = *q++;
	if (is_ident((unsigned char)c)) {
		while (q < end && is_ident((unsigned char)*q))
			q++;
		*p = q;
		return FC_ITEM;
	}
	if (c == '"' || c == '\'') {
		for (; q < end && *q != c; q++)
			if (*q == '\\' && q + 1 < end)
				q++;
		*p = q < end ? q + 1 : q;
		return FC_STR;
	}
	if (c == '(' || c == ')' || c == ',') {
		*p = q;
		return FC_DELIM;
	}
	if (c == '-' && q < end && *q == '>')
		q++;
	else if (strchr("+-|&<>", c) && q < end && *q == c) {
		q++;
		if ((c == '<' || c == '>') && q < end && *q == '=')
			q++;
	} else if (strchr("+-|&<>!=", c) && q < end && *q == '=')
		q++;
	*p = q;
	return FC_OP;
}

/* Is the operator [@s, @e) one the library gives a precedence? */
static bool
op_ranked(const char *s, const char *e)
{
	static const char *const ops[] = { "~", "!", "*", "/", "%", "+",
	    "-", "<", ">", "&", "^", "|", "?", "++", "--", ">>", "<<",
	    ">=", "<=", "==", "!=", "&&", "||" };
	size_t i, n = (size_t)(e - s);

	for (i = 0; i < TV_ARRAY_SIZE(ops); i++)
		if (strlen(ops[i]) == n && memcmp(ops[i], s, n) == 0)
			return true;
	return false;
}

/* After the bracket that opens at @p: past the one closing it. */
static const char *
skip_bracket(const char *p, const char *end)
{
	const char *s;
	int depth = 0;

	for (;;) {
		enum fc_tok t = lex(&p, end, &s);

		if (t == FC_END)
			return p;
		if (t == FC_DELIM && *s == '(')
			depth++;
		else if (t == FC_DELIM && *s == ')' && --depth == 0)
			return p;
	}
}

/*
 * Past the operand the library reads at @p as one unit (process_arg):
 * REC->x, a name and the names after it, a call f(...), strings, or a
 * bracket and what a cast in it applies to.  NULL where it reads none
 * or a unary operator (whose own operand it then finishes safely).
 */
static const char *
operand(const char *p, const char *end)
{
	const char *s, *q;
	enum fc_tok t;

	for (;;) {
		t = lex(&p, end, &s);
		if (t == FC_ITEM) {
			if (p - s == 3 && memcmp(s, "REC", 3) == 0) {
				if (lex(&p, end, &s) != FC_OP ||
				    p - s != 2 || memcmp(s, "->", 2) != 0 ||
				    lex(&p, end, &s) != FC_ITEM)
					return NULL;
				return p;
			}
			for (q = p; (t = lex(&q, end, &s)) == FC_ITEM; )
				p = q;
			if (t == FC_DELIM && *s == '(')
				return skip_bracket(s, end);
			return p;
		}
		if (t == FC_STR) {
			for (q = p; lex(&q, end, &s) == FC_STR; )
				p = q;
			return p;
		}
		if (t != FC_DELIM || *s != '(')
			return NULL;
		/* a bracket; a name, string or bracket after it: a cast */
		p = skip_bracket(s, end);
		q = p;
		t = lex(&q, end, &s);
		if (t != FC_ITEM && t != FC_STR && !(t == FC_DELIM &&
		    *s == '('))
			return p;
	}
}

/*
 * The print fmt arguments [@p, @end): after the third operand of
 * "a ? b : c", or after an index "x[i]", libtraceevent 1.7 takes the
 * next operator as the start of a new operation on an operand it has
 * not made, and follows a NULL pointer when the operator is one it gives
 * no precedence ("->", ".", "[", "=", ";", ...; trace-cmd report dies
 * the same way).  Such a format is refused.  The library stops parsing
 * at a statement expression "({ ... })" (its '{' is no operator it
 * knows), so what follows one is left alone: kernels write those, with
 * "x[] =" inside.
 */
static const char *
operands(const char *p, const char *end)
{
	const char *s, *q;
	enum fc_tok t;

	while ((t = lex(&p, end, &s)) != FC_END) {
		if (t == FC_DELIM && *s == '(') {
			q = p;
			if (lex(&q, end, &s) == FC_OP && *s == '{')
				return NULL;
			continue;
		}
		if (t != FC_OP || p - s != 1 || (*s != ':' && *s != ']'))
			continue;
		q = *s == ':' ? operand(p, end) : p;
		if (!q)
			continue;
		if (lex(&q, end, &s) == FC_OP && !(q - s == 1 && *s == ':') &&
		    !op_ranked(s, q))
			return N_("an unranked operator after '?:' or "
			    "'[]'");
	}
	return NULL;
}

/* Where the string literals that start at @p (adjacent ones) end. */
static const char *
literals_end(const char *p, const char *end)
{
	while (p < end && *p == '"') {
		for (p++; p < end && *p != '"'; p++)
			if (*p == '\\' && p + 1 < end)
				p++;
		if (p < end)
			p++;
		while (p < end && isspace((unsigned char)*p))
			p++;
	}
	return p;
}

/* One "field:DECL;\toffset:N;\tsize:N;[\tsigned:N;]" line. */
static const char *
field_line(const char *p, const char *end, struct fc_fields *fl)
{
	const char *decl, *semi, *n;
	const char *why;

	blanks(&p, end);
	if (!expect(&p, end, "field:") && !expect(&p, end, "field special:"))
		return N_("unexpected line");
	decl = p;
	semi = memchr(p, ';', (size_t)(end - p));
	if (!semi || semi == decl)
		return N_("bad field declaration");
	if ((why = balanced(decl, semi, false, fl)) != NULL)
		return why;
	/* the name: the last identifier before an optional [N] */
	n = semi;
	while (n > decl && n[-1] == ' ')
		n--;
	if (n > decl && n[-1] == ']') {
		while (n > decl && n[-1] != '[')
			n--;
		if (n > decl)
			n--;
	}
	while (n > decl && n[-1] == ' ')
		n--;
	p = n;
	while (n > decl && is_ident((unsigned char)n[-1]))
		n--;
	if (n == p)
		return N_("field without a name");
	if (fl->n == FC_MAX_FIELDS)
		return N_("too many fields");
	fl->name[fl->n] = n;
	fl->len[fl->n] = (size_t)(p - n);
	fl->n++;
	p = semi + 1;
	blanks(&p, end);
	if (!expect(&p, end, "offset:") || !number(&p, end, 65535) ||
	    !expect(&p, end, ";"))
		return N_("bad field offset");
	blanks(&p, end);
	if (!expect(&p, end, "size:") || !number(&p, end, 65535) ||
	    !expect(&p, end, ";"))
		return N_("bad field size");
	blanks(&p, end);
	if (p < end && (!expect(&p, end, "signed:") ||
	    !number(&p, end, 1) || !expect(&p, end, ";")))
		return N_("bad field signedness");
	blanks(&p, end);
	return p == end ? NULL : N_("unexpected text after a field");
}

/*
 * Check the format file @text (@len bytes, then a NUL).  NULL if
 * libtraceevent may have it; else why not (untranslated, for _()).
 * *@name gets the event's name when the first line gives one.
 */
const char *
td_format_check(const char *text, size_t len, char *name, size_t namecap)
{
	const char *p = text, *end, *nl;
	struct fc_fields fl;
	bool have_fmt = false;
	const char *why;
	int state = 0;		/* 0 name, 1 ID, 2 format:, 3 fields */
	size_t i;

	name[0] = '\0';
	fl.n = 0;
	while (len > 0 && text[len - 1] == '\0')
		len--;
	if (len > 5 && memcmp(text, "name:", 5) == 0) {
		/* for the error, printable even when the text is not */
		size_t k = 0;

		for (i = 5; i < len && text[i] == ' '; i++)
			;
		for (; i < len && text[i] != '\n' && k + 1 < namecap &&
		    k < 48; i++)
			name[k++] = isprint((unsigned char)text[i]) ?
			    text[i] : '?';
		name[k] = '\0';
	}
	if (len > FC_MAX_TEXT)
		return N_("format too large");
	for (i = 0; i < len; i++)
		if ((text[i] < 0x20 || text[i] > 0x7e) && text[i] != '\t' &&
		    text[i] != '\n' && text[i] != '\r')
			return N_("not text");
	end = p + len;
	for (; p < end && !have_fmt; p = nl + 1) {
		const char *q = p, *le;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		le = nl;
		if (le > p && le[-1] == '\r')
			le--;
		switch (state) {
		case 0:
			if (!expect(&q, le, "name:"))
				return N_("no name");
			blanks(&q, le);
			if (q == le)
				return N_("no name");
			for (; q < le; q++)
				if (!is_ident((unsigned char)*q) && *q != '-' &&
				    *q != '.')
					return N_("bad event name");
			state = 1;
			continue;
		case 1:
			if (!expect(&q, le, "ID:"))
				return N_("no ID");
			blanks(&q, le);
			if (!number(&q, le, 65535) || q != le)
				return N_("bad ID");
			state = 2;
			continue;
		case 2:
			if (!expect(&q, le, "format:") || q != le)
				return N_("no format line");
			state = 3;
			continue;
		default:
			break;
		}
		blanks(&q, le);
		if (q == le)
			continue;
		if (starts(q, (size_t)(le - q), "print fmt:")) {
			/* to the end: its strings may hold newlines */
			q += 10;
			blanks(&q, end);
			if (q == end || *q != '"')
				return N_("print fmt without a format "
				    "string");
			if ((why = balanced(q, end, true, &fl)) != NULL ||
			    (why = conversions(q, literals_end(q, end))) !=
			    NULL ||
			    (why = operands(literals_end(q, end), end)) !=
			    NULL)
				return why;
			have_fmt = true;
			break;
		}
		if ((why = field_line(q, le, &fl)) != NULL)
			return why;
	}
	if (state < 3)
		return N_("truncated header");
	if (!have_fmt)
		return N_("no print fmt");
	return NULL;
}

/* "ADDR : \"text\"": a printk format as the kernel lists them. */
static bool
printk_line(const char *p, const char *end)
{
	const char *s;

	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (s = p; p < end && isxdigit((unsigned char)*p); p++)
		;
	if (p == s || !expect(&p, end, " : \"") || end - p < 1 ||
	    end[-1] != '"')
		return false;
	for (s = p; p < end; p++)
		if (!isprint((unsigned char)*p))
			return false;
	return conversions(s, end - 1) == NULL;
}

/* "ADDR T name" or "ADDR T name\t[module]". */
static bool
kallsyms_line(const char *p, const char *end)
{
	const char *s;

	for (s = p; p < end && isxdigit((unsigned char)*p); p++)
		;
	if (p == s || end - p < 4 || p[0] != ' ' ||
	    !isalpha((unsigned char)p[1]) || p[2] != ' ')
		return false;
	p += 3;
	for (s = p; p < end && isgraph((unsigned char)*p); p++)
		;
	if (p == s)
		return false;
	blanks(&p, end);
	if (p == end)
		return true;
	if (*p != '[' || end[-1] != ']' || end - p < 3)
		return false;
	for (p++; p < end - 1; p++)
		if (!isgraph((unsigned char)*p) || *p == '[' || *p == ']')
			return false;
	return true;
}

/* "PID COMM". */
static bool
cmdline_line(const char *p, const char *end)
{
	const char *s;

	for (s = p; p < end && isdigit((unsigned char)*p); p++)
		;
	if (p == s || p - s > 10 || p == end || *p != ' ' || end - p < 2)
		return false;
	for (p++; p < end; p++)
		if (!isprint((unsigned char)*p))
			return false;
	return true;
}

/*
 * A NUL-terminated copy of metadata text @b (TD_TEXT_PRINTK, _KALLSYMS
 * or _CMDLINES) keeping only the lines of the shape the kernel writes:
 * libtraceevent's parsers of these lists write before or read past
 * their buffers on others.  *@dropped counts the lines left out.
 */
char *
td_text_clean(const struct td_blob *b, enum td_text kind, uint64_t *dropped)
{
	const char *p = (const char *)b->ptr, *end = p + b->len, *nl;
	/* + 2: a last line without its newline gets one, then the NUL */
	char *out = tv_xmalloc((size_t)b->len + 2), *o = out;

	*dropped = 0;
	for (; p < end; p = nl + 1) {
		bool good;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (nl == p || (nl == end && memchr(p, '\0', (size_t)(nl - p))))
			good = false;
		else if (kind == TD_TEXT_PRINTK)
			good = printk_line(p, nl);
		else if (kind == TD_TEXT_KALLSYMS)
			good = kallsyms_line(p, nl);
		else
			good = cmdline_line(p, nl);
		if (!good) {
			/* a trailing NUL pad or empty line is not a loss */
			if (nl > p && *p != '\0')
				(*dropped)++;
			continue;
		}
		memcpy(o, p, (size_t)(nl - p));
		o += nl - p;
		*o++ = '\n';
	}
	*o = '\0';
	return out;
}
