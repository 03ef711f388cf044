/*
 * A search pattern that is plain text (tview/ui's "/sched_wakeup",
 * "/zq9x"): found in a row without the regex engine, and, before a row
 * is put into text at all, ruled out from a few of its letters.
 *
 * A row's characters come from two kinds of source: text the trace holds
 * (the event's name, its fields' names, enumeration labels, strings, the
 * trace's name) and text the renderer makes up (the time in any style,
 * numbers in every base, %g floats, escapes such as "\x1b" and "\n",
 * punctuation).  GENERATED below is every character the second
 * kind can produce.  A letter of the pattern outside it, an "anchor",
 * must come from the first kind wherever the pattern matches: a row
 * whose held text lacks one of the anchors cannot match, whatever its
 * numbers are.  render.c's tv_ui_row_may_hold() reads the held text of
 * a row; TVIEW_UI_SEARCH_CHECK makes every search check that verdict
 * against the regex on the whole row (tests/ui/search-walk.sh).
 *
 * Equal to PCRE2's answer, which the rest of the search uses: the
 * pattern is ASCII without white space; caseless (smart case) it holds
 * no k or s, the two ASCII letters that Unicode folds with non-ASCII
 * ones (KELVIN SIGN, LONG S); an ASCII byte never lies inside a UTF-8
 * sequence, valid or not.
 */
#include "ui-priv.h"

#include <string.h>

/* Letters the renderer writes on its own (see above): hex digits, the
 * x of 0x and \x, the b of 0b, e/inf/nan of %g, the n and t of \n, \t. */
static const char GENERATED_LETTERS[] = "abcdefintx";

/* The bytes a plain-text pattern may not hold (PCRE2 syntax). */
static const char REGEX_SYNTAX[] = "\\^$.|?*+()[]{}";

static char
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Whether the renderer may write @c itself (either case if @caseless). */
static bool
generated(char c, bool caseless)
{
	bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

	if (!letter)
		return true;
	if (caseless)
		c = lower(c);
	return strchr(GENERATED_LETTERS, c) != NULL;
}

/* See ui-priv.h. */
bool
tv_ui_literal_compile(const char *pattern, bool caseless,
    struct tv_ui_literal *lit)
{
	const char *p;
	char c;
	int i;

	memset(lit, 0, sizeof(*lit));
	memset(lit->slot, -1, sizeof(lit->slot));
	lit->caseless = caseless;
	for (p = pattern; *p != '\0'; p++) {
		c = *p;
		if (c == '\\') {
			/* an escaped punctuation character is itself */
			c = *++p;
			if (c == '\0' || !(c > ' ' && c < 0x7f) ||
			    (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			    (c >= 'A' && c <= 'Z'))
				return false;
		} else if (!(c > ' ' && c < 0x7f) ||
		    strchr(REGEX_SYNTAX, c) != NULL) {
			return false;
		}
		if (caseless && (lower(c) == 'k' || lower(c) == 's'))
			return false;
		if (lit->len + 1 >= sizeof(lit->s))
			return false;
		lit->s[lit->len++] = caseless ? lower(c) : c;
	}
	if (lit->len == 0)
		return false;
	/* one slot per distinct anchor; both cases share it when caseless */
	for (i = 0; i < (int)lit->len; i++) {
		unsigned char u = (unsigned char)lit->s[i];

		if (generated(lit->s[i], caseless) || lit->slot[u] >= 0 ||
		    lit->nanchors >= 64)
			continue;
		lit->slot[u] = (int8_t)lit->nanchors;
		if (caseless)
			lit->slot[u - 'a' + 'A'] = (int8_t)lit->nanchors;
		lit->anchors |= (uint64_t)1 << lit->nanchors;
		lit->nanchors++;
	}
	lit->ok = true;
	lit->prune = true;
	return true;
}

/* See ui-priv.h. */
void
tv_ui_literal_required(const uint32_t *units, size_t n,
    struct tv_ui_literal *lit)
{
	size_t i;
	char c;

	memset(lit, 0, sizeof(*lit));
	memset(lit->slot, -1, sizeof(lit->slot));
	lit->caseless = true;
	for (i = 0; i < n; i++) {
		if (units[i] >= 0x80)
			continue;
		c = lower((char)units[i]);
		/*
		 * Either case, whatever the pattern's options say (more
		 * rows may hold it, never fewer), but no k or s, which
		 * caseless Unicode matches with non-ASCII letters.
		 */
		if (generated(c, true) || c == 'k' || c == 's' ||
		    lit->slot[(unsigned char)c] >= 0)
			continue;
		lit->slot[(unsigned char)c] = (int8_t)lit->nanchors;
		lit->slot[(unsigned char)(c - 'a' + 'A')] =
		    (int8_t)lit->nanchors;
		lit->anchors |= (uint64_t)1 << lit->nanchors;
		lit->nanchors++;
	}
	lit->prune = lit->nanchors > 0;
}

/* See ui-priv.h. */
bool
tv_ui_literal_find(const struct tv_ui_literal *lit, const char *s, size_t n)
{
	const char *end, *hit;
	char first;
	size_t i;

	if (n < lit->len)
		return false;
	if (!lit->caseless)
		return memmem(s, n, lit->s, lit->len) != NULL;
	first = lit->s[0];
	end = s + n - lit->len + 1;
	for (; s < end; s = hit + 1) {
		/* the first letter in either case, memchr's speed for one */
		hit = memchr(s, first, (size_t)(end - s));
		if (first >= 'a' && first <= 'z') {
			const char *up = memchr(s, first - 'a' + 'A',
			    hit != NULL ? (size_t)(hit - s) :
			    (size_t)(end - s));

			if (up != NULL)
				hit = up;
		}
		if (hit == NULL)
			return false;
		for (i = 1; i < lit->len && lower(hit[i]) == lit->s[i]; i++)
			;
		if (i == lit->len)
			return true;
	}
	return false;
}

/* See ui-priv.h. */
void
tv_ui_literal_see(const struct tv_ui_literal *lit, const char *s, size_t n,
    uint64_t *seen)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < n; i++)
		if (lit->slot[p[i]] >= 0)
			*seen |= (uint64_t)1 << lit->slot[p[i]];
}

/* See ui-priv.h. */
void
tv_ui_literal_see_str(const struct tv_ui_literal *lit, const char *s,
    uint64_t *seen)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p != '\0'; p++)
		if (lit->slot[*p] >= 0)
			*seen |= (uint64_t)1 << lit->slot[*p];
}
