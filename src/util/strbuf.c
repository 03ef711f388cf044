/*
 * A growable, always NUL-terminated string buffer, with fast integer
 * appends for the --dump hot loop.
 */
#include "tview/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Start empty; buf is a valid "" even before the first append. */
void
tv_strbuf_init(struct tv_strbuf *sb)
{
	sb->cap = 64;
	sb->buf = tv_xmalloc(sb->cap);
	sb->buf[0] = '\0';
	sb->len = 0;
}

/* Free the buffer. */
void
tv_strbuf_fini(struct tv_strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

/* Empty the string, keeping the allocation. */
void
tv_strbuf_reset(struct tv_strbuf *sb)
{
	if (!sb->buf) {
		tv_strbuf_init(sb);
		return;
	}
	sb->len = 0;
	sb->buf[0] = '\0';
}

/* Make room for @n more bytes plus the NUL. */
static void
reserve(struct tv_strbuf *sb, size_t n)
{
	size_t need;

	if (n > SIZE_MAX - sb->len - 1)
		need = SIZE_MAX;	/* tv_xrealloc will fail cleanly */
	else
		need = sb->len + n + 1;
	if (need <= sb->cap && sb->buf)
		return;
	if (sb->cap == 0)
		sb->cap = 64;
	while (sb->cap < need)
		sb->cap = sb->cap > SIZE_MAX / 2 ? need : sb->cap * 2;
	if (!sb->buf) {
		/* a zeroed struct, never initialised: start it empty */
		sb->len = 0;
		sb->buf = tv_xmalloc(sb->cap);
		sb->buf[0] = '\0';
		return;
	}
	sb->buf = tv_xrealloc(sb->buf, sb->cap);
}

/* See util.h: the append that makes room first. */
void
tv_strbuf_add_grow(struct tv_strbuf *sb, const char *s, size_t n)
{
	reserve(sb, n);
	if (n == 0)
		return;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

/* Append printf output. */
void
tv_strbuf_addf(struct tv_strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tv_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

/* Append vprintf output. */
void
tv_strbuf_vaddf(struct tv_strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	reserve(sb, 0);
	va_copy(ap2, ap);
	n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= sb->cap - sb->len) {
		reserve(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

/* See util.h. */
const char tv_digits2[100][2] = {
#define D10(t)	{ t, '0' }, { t, '1' }, { t, '2' }, { t, '3' }, { t, '4' }, \
		{ t, '5' }, { t, '6' }, { t, '7' }, { t, '8' }, { t, '9' }
	D10('0'), D10('1'), D10('2'), D10('3'), D10('4'),
	D10('5'), D10('6'), D10('7'), D10('8'), D10('9'),
#undef D10
};

/* See util.h. */
char *
tv_fmt_u64(char *end, uint64_t v)
{
	while (v >= 100) {
		end -= 2;
		memcpy(end, tv_digits2[v % 100], 2);
		v /= 100;
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, tv_digits2[v], 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

/*
 * Decimal digits of @v, 1 to 20, without a division: log10 from the bit
 * length (1233 / 4096 is just over log10(2)), one look-up to correct it.
 */
static size_t
u64_digits(uint64_t v)
{
	static const uint64_t p10[20] = {
		UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000),
		UINT64_C(10000), UINT64_C(100000), UINT64_C(1000000),
		UINT64_C(10000000), UINT64_C(100000000),
		UINT64_C(1000000000), UINT64_C(10000000000),
		UINT64_C(100000000000), UINT64_C(1000000000000),
		UINT64_C(10000000000000), UINT64_C(100000000000000),
		UINT64_C(1000000000000000), UINT64_C(10000000000000000),
		UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
		UINT64_C(10000000000000000000),
	};
	unsigned bits = 64 - (unsigned)__builtin_clzll(v | 1);
	unsigned t = (bits * 1233) >> 12;

	return t + 1 - ((v | 1) < p10[t]);
}

/* Append an unsigned decimal without printf, in place when it fits. */
void
tv_strbuf_add_u64(struct tv_strbuf *sb, uint64_t v)
{
	char tmp[TV_FMT_U64_MAX];
	char *p;
	size_t k;

	if (sb->buf != NULL && sb->cap - sb->len > TV_FMT_U64_MAX) {
		k = u64_digits(v);
		(void)tv_fmt_u64(sb->buf + sb->len + k, v);
		sb->len += k;
		sb->buf[sb->len] = '\0';
		return;
	}
	p = tv_fmt_u64(tmp + sizeof(tmp), v);
	tv_strbuf_add(sb, p, (size_t)(tmp + sizeof(tmp) - p));
}

/* Append a signed decimal without printf (INT64_MIN included). */
void
tv_strbuf_add_i64(struct tv_strbuf *sb, int64_t v)
{
	if (v < 0) {
		tv_strbuf_addc(sb, '-');
		tv_strbuf_add_u64(sb, (uint64_t)0 - (uint64_t)v);
	} else {
		tv_strbuf_add_u64(sb, (uint64_t)v);
	}
}
