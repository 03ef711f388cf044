/*
 * printf's "%g" without printf for the usual doubles: six significant
 * digits, fixed notation between 1e-4 and 1e6, trailing zeros dropped.
 * glibc's %g converts the exact binary value with big-number arithmetic
 * (a tenth of a --dump of a trace with one float per eighth event); a
 * double scaled by a power of ten that is itself exact is off by less
 * than a part in 1e9, so its rounding to six digits is certain unless
 * it sits next to a half: those, and everything out of range, go to
 * snprintf, which stays the reference.
 */
#include "tview/util.h"

#include <langinfo.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The powers of ten a double holds exactly, up to what is needed. */
static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
};

/* 10^5 down to 10^-3: where each decimal exponent starts. */
static const double bounds[] = {
	1e5, 1e4, 1e3, 1e2, 1e1, 1e0, 1e-1, 1e-2, 1e-3,
};

/* The six digits of @x scaled into [1e5, 1e6), rounded; false if unsure. */
static bool
six_digits(double a, int x, uint32_t *out)
{
	double y = a * pow10_exact[5 - x], r = floor(y), frac = y - r;

	/* out of [1e5, 1e6): x was off (a power of ten's neighbours) */
	if (y < 1e5 || y >= 1e6)
		return false;
	if (fabs(frac - 0.5) < 1e-6)
		return false;	/* a near tie: the exact value decides */
	if (frac > 0.5)
		r += 1;
	if (r >= 1e6)
		return false;	/* rounds up to the next power of ten */
	*out = (uint32_t)r;
	return true;
}

/* See util.h. */
size_t
tv_fmt_g(char *buf, size_t size, double v)
{
	/* glibc's nl_langinfo reads the locale's data; localeconv()
	   would fill one static struct from every thread */
	const char *radix = nl_langinfo(RADIXCHAR);
	char digits[6], *p = buf;
	double a = fabs(v);
	uint32_t n = 0;
	int x, i, last;

	/* printf's point is the locale's (LC_NUMERIC): the same here */
	if (size < TV_FMT_G_MAX || radix[0] == '\0' || radix[1] != '\0')
		return (size_t)snprintf(buf, size, "%g", v);
	if (v == 0) {
		/* "0" or "-0", common enough (a latency of nothing) */
		if (signbit(v))
			*p++ = '-';
		*p++ = '0';
		*p = '\0';
		return (size_t)(p - buf);
	}
	/* 1e-4 <= a < 1e6, where %g writes fixed notation */
	if (!(a >= 1e-4 && a < 1e6))
		return (size_t)snprintf(buf, size, "%g", v);
	/* the decimal exponent; one off near a power of ten, which
	   six_digits() finds out of range */
	for (x = 5; x > -4 && a < bounds[5 - x]; x--)
		;
	if (!six_digits(a, x, &n))
		return (size_t)snprintf(buf, size, "%g", v);
	for (i = 5; i >= 0; i--, n /= 10)
		digits[i] = (char)('0' + n % 10);
	for (last = 5; last > 0 && digits[last] == '0'; last--)
		;
	if (signbit(v))
		*p++ = '-';
	if (x >= 0) {
		/* x + 1 digits before the point, the rest after */
		for (i = 0; i <= x; i++)
			*p++ = digits[i];
		if (last > x) {
			*p++ = radix[0];
			for (; i <= last; i++)
				*p++ = digits[i];
		}
	} else {
		*p++ = '0';
		*p++ = radix[0];
		for (i = 0; i < -x - 1; i++)
			*p++ = '0';
		for (i = 0; i <= last; i++)
			*p++ = digits[i];
	}
	*p = '\0';
	return (size_t)(p - buf);
}
