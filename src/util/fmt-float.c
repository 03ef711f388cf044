/*
 * printf's "%g" without printf for the usual doubles: six significant
 * digits, fixed notation between 1e-4 and 1e6 and e-notation around it
 * (1e-17 to 1e28), trailing zeros dropped.
 * glibc's %g converts the exact binary value with big-number arithmetic
 * (a tenth of a --dump of a trace with one float per eighth event); a
 * double scaled by a power of ten that is itself exact is off by less
 * than a part in 1e9, so its rounding to six digits is certain unless
 * it sits next to a half: those, and everything out of range, go to
 * snprintf, which stays the reference.  E-notation is common too: a
 * latency of a few milliseconds in nanoseconds is past 1e6.
 */
#include "tview/util.h"

#include <langinfo.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The powers of ten a double holds exactly: 10^22 is the last. */
static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* Decimal exponents whose scaling by 10^(5 - x) is one exact power. */
#define EXP_MIN	(5 - 22)
#define EXP_MAX	(5 + 22)

/*
 * @a times 10^(5 - @x): one multiplication or division by an exact
 * power of ten, so correctly rounded (within half a unit in the last
 * place of the double, far below what six digits can see).
 */
static double
scale(double a, int x)
{
	return x <= 5 ? a * pow10_exact[5 - x] : a / pow10_exact[x - 5];
}

/* The six digits of @a scaled into [1e5, 1e6), rounded; false if unsure. */
static bool
six_digits(double a, int x, uint32_t *out)
{
	double y = scale(a, x), r = floor(y), frac = y - r;

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

/*
 * The decimal exponent of @a (> 0): the x with 10^x <= a < 10^(x+1),
 * or one off next to a power of ten (six_digits() then says unsure).
 */
static int
exponent_of(double a)
{
	int e2;

	(void)frexp(a, &e2);
	/* log10(2) a little low: floor((e2 - 1) * log10 2) or one less */
	return (int)floor((e2 - 1) * 0.30102999566398);
}

/* Write the exponent of %g's e-notation: e+05, e-17, e+123. */
static char *
put_exp(char *p, int x)
{
	unsigned u = (unsigned)(x < 0 ? -x : x);

	*p++ = 'e';
	*p++ = x < 0 ? '-' : '+';
	if (u >= 100)
		*p++ = (char)('0' + u / 100);
	*p++ = (char)('0' + u / 10 % 10);
	*p++ = (char)('0' + u % 10);
	return p;
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
	/* normal doubles whose scaling is exact: the rest to printf */
	if (!isnormal(a))
		return (size_t)snprintf(buf, size, "%g", v);
	x = exponent_of(a);
	if (x + 1 >= EXP_MIN && x + 1 <= EXP_MAX && scale(a, x + 1) >= 1e5)
		x++;		/* the estimate was one low */
	if (x < EXP_MIN || x > EXP_MAX || !six_digits(a, x, &n))
		return (size_t)snprintf(buf, size, "%g", v);
	for (i = 5; i >= 0; i--, n /= 10)
		digits[i] = (char)('0' + n % 10);
	for (last = 5; last > 0 && digits[last] == '0'; last--)
		;
	if (signbit(v))
		*p++ = '-';
	if (x < -4 || x >= 6) {
		/* e-notation: one digit, the point and the rest if any */
		*p++ = digits[0];
		if (last > 0) {
			*p++ = radix[0];
			for (i = 1; i <= last; i++)
				*p++ = digits[i];
		}
		p = put_exp(p, x);
	} else if (x >= 0) {
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
