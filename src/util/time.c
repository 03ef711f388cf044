/*
 * Clock conversion (cycles to ns from origin, bit-for-bit as babeltrace2
 * 2.0 does it, so --dump matches) and formatting of times for display.
 */
#include "tview/time.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define NS_PER_S	INT64_C(1000000000)

/*
 * Cycles to ns as babeltrace2 does: cycles as is at 1 GHz, otherwise
 * 1e9 * cycles / freq in double arithmetic, truncated.  UINT64_MAX if the
 * result does not fit.
 */
static uint64_t
ns_from_cycles(uint64_t freq, uint64_t cycles)
{
	double d;

	if (freq == (uint64_t)NS_PER_S)
		return cycles;
	if (freq == 0)
		return UINT64_MAX;
	d = (1e9 * (double)cycles) / (double)freq;
	if (d >= (double)UINT64_MAX)
		return UINT64_MAX;
	return (uint64_t)d;
}

/*
 * base_ns = offset_s * 1e9 + ns(offset_cycles).  Like babeltrace2's CTF
 * source, offset_cycles >= freq is first moved into whole seconds; a
 * negative offset_cycles is moved the same way (floor), so the cycle part
 * is always in [0, freq).  Saturates instead of overflowing.
 */
void
tv_clock_finish(struct tv_clock *clk)
{
	int64_t off_s = clk->offset_s;
	int64_t off_c = clk->offset_cycles;
	uint64_t freq = clk->freq ? clk->freq : (uint64_t)NS_PER_S;
	uint64_t cyc;
	__int128 base;

	if (freq <= (uint64_t)INT64_MAX) {
		int64_t f = (int64_t)freq;
		int64_t q = off_c / f, r = off_c % f;

		if (r < 0) {
			r += f;
			q--;
		}
		if (__builtin_add_overflow(off_s, q, &off_s))
			off_s = q < 0 ? INT64_MIN : INT64_MAX;
		cyc = (uint64_t)r;
	} else {
		/* freq above INT64_MAX: any non-negative offset is < freq */
		if (off_c < 0) {
			off_s = off_s == INT64_MIN ? off_s : off_s - 1;
			cyc = freq - ((uint64_t)0 - (uint64_t)off_c);
		} else {
			cyc = (uint64_t)off_c;
		}
	}
	base = (__int128)off_s * NS_PER_S + (__int128)ns_from_cycles(freq, cyc);
	if (base > INT64_MAX)
		clk->base_ns = INT64_MAX;
	else if (base <= INT64_MIN)
		clk->base_ns = INT64_MIN + 1;	/* not TV_TIME_NONE */
	else
		clk->base_ns = (int64_t)base;
}

/* ns from origin of a cycle count: base_ns + ns(cycles), saturated. */
int64_t
tv_clock_to_ns(const struct tv_clock *clk, uint64_t cycles)
{
	uint64_t freq = clk->freq ? clk->freq : (uint64_t)NS_PER_S;
	uint64_t v = ns_from_cycles(freq, cycles);
	__int128 sum;

	if (v >= (uint64_t)INT64_MAX)
		return INT64_MAX;
	sum = (__int128)clk->base_ns + (__int128)v;
	if (sum > INT64_MAX)
		return INT64_MAX;
	if (sum <= INT64_MIN)
		return INT64_MIN + 1;
	return (int64_t)sum;
}

/* 10^(9 - @digits): the ns one printed digit stands for. */
static uint64_t
digit_unit(int digits)
{
	uint64_t u = 1;
	int i;

	for (i = digits; i < 9; i++)
		u *= 10;
	return u;
}

/*
 * "S.nnnnnnnnn" of a magnitude with @digits digits after the point (0 to
 * 9), rounded half up as trace-cmd report rounds its microseconds, and
 * @sign ("", "-" or "+") in front.
 */
static void
format_seconds(const char *sign, uint64_t mag, int digits, char *buf,
    size_t size)
{
	uint64_t unit = digit_unit(digits);
	uint64_t s = mag / (uint64_t)NS_PER_S;
	uint64_t f = (mag % (uint64_t)NS_PER_S + unit / 2) / unit;

	if (f * unit >= (uint64_t)NS_PER_S) {
		s++;
		f = 0;
	}
	if (digits == 0)
		snprintf(buf, size, "%s%llu", sign, (unsigned long long)s);
	else
		snprintf(buf, size, "%s%llu.%0*llu", sign,
		    (unsigned long long)s, digits, (unsigned long long)f);
}

/*
 * "HH:MM:SS" and, with @digits, "." and @frac in that many digits, into
 * @buf (cut to @size): what "%02d:%02d:%02d.%0*lld" prints, by hand,
 * since a whole-trace search formats one for every row.
 */
static void
format_clock(int h, int m, int sec, uint64_t frac, int digits, char *buf,
    size_t size)
{
	char t[32];
	size_t n = 0;
	int i;

	if (h < 0 || h > 99 || m < 0 || m > 59 || sec < 0 || sec > 60) {
		snprintf(buf, size, "%02d:%02d:%02d", h, m, sec);
		return;
	}
	t[n++] = (char)('0' + h / 10);
	t[n++] = (char)('0' + h % 10);
	t[n++] = ':';
	t[n++] = (char)('0' + m / 10);
	t[n++] = (char)('0' + m % 10);
	t[n++] = ':';
	t[n++] = (char)('0' + sec / 10);
	t[n++] = (char)('0' + sec % 10);
	if (digits > 0) {
		t[n++] = '.';
		for (i = digits - 1; i >= 0; i--) {
			t[n + (size_t)i] = (char)('0' + frac % 10);
			frac /= 10;
		}
		n += (size_t)digits;
	}
	if (n >= size)
		n = size - 1;
	memcpy(buf, t, n);
	buf[n] = '\0';
}

/* |v| as unsigned, INT64_MIN included. */
static uint64_t
magnitude(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/*
 * Write @ns in @style with @digits digits after the second.  Wall clock
 * styles split at whole seconds rounding down, so times before the origin
 * show the right calendar time; SECONDS and RELATIVE print sign and
 * magnitude ("-1.500000000").  RAW prints the integer as is (callers pass
 * the cycle count).  TV_TIME_NONE prints as "-".  No style writes a
 * letter: the browser's plain-text search counts on it (src/ui/literal.c).
 */
char *
tv_time_format_prec(int64_t ns, enum tv_time_style style, int64_t ref,
    int digits, char *buf, size_t size)
{
	if (!buf || size == 0)
		return buf;
	if (digits < 0 || digits > 9)
		digits = 9;
	if (ns == TV_TIME_NONE && style != TV_TIME_RAW) {
		snprintf(buf, size, "-");
		return buf;
	}
	switch (style) {
	case TV_TIME_WALL_UTC:
	case TV_TIME_WALL_LOCAL: {
		uint64_t unit = digit_unit(digits);
		int64_t s = ns / NS_PER_S, frac = ns % NS_PER_S;
		struct tm tm;
		time_t t;

		if (frac < 0) {
			frac += NS_PER_S;
			s--;
		}
		frac = (int64_t)(((uint64_t)frac + unit / 2) / unit);
		if ((uint64_t)frac * unit >= (uint64_t)NS_PER_S) {
			s++;
			frac = 0;
		}
		if (style == TV_TIME_WALL_UTC) {
			/*
			 * The time of day in UTC is the seconds modulo a day
			 * (time_t has no leap seconds): no gmtime_r(), whose
			 * time zone lock every row of a search would take.
			 */
			int64_t d = s % 86400;

			if (d < 0)
				d += 86400;
			format_clock((int)(d / 3600), (int)(d / 60 % 60),
			    (int)(d % 60), (uint64_t)frac, digits, buf, size);
			break;
		}
		t = (time_t)s;
		if (!localtime_r(&t, &tm)) {
			format_seconds(ns < 0 ? "-" : "", magnitude(ns),
			    digits, buf, size);
			break;
		}
		format_clock(tm.tm_hour, tm.tm_min, tm.tm_sec, (uint64_t)frac,
		    digits, buf, size);
		break;
	}
	case TV_TIME_SECONDS:
		format_seconds(ns < 0 ? "-" : "", magnitude(ns), digits, buf,
		    size);
		break;
	case TV_TIME_RELATIVE: {
		__int128 d = (__int128)ns -
		    (__int128)(ref == TV_TIME_NONE ? 0 : ref);
		__int128 a = d < 0 ? -d : d;

		format_seconds(d < 0 ? "-" : "+", a > (__int128)UINT64_MAX ?
		    UINT64_MAX : (uint64_t)a, digits, buf, size);
		break;
	}
	case TV_TIME_RAW:
	default:
		snprintf(buf, size, "%lld", (long long)ns);
		break;
	}
	return buf;
}

/* Write @ns in @style to the nanosecond; see tv_time_format_prec(). */
char *
tv_time_format(int64_t ns, enum tv_time_style style, int64_t ref, char *buf,
    size_t size)
{
	return tv_time_format_prec(ns, style, ref, 9, buf, size);
}

/* See time.h. */
char *
tv_time_format_span(int64_t ns, char *buf, size_t size)
{
	static const struct { int64_t div; const char *unit; } units[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" },
	};
	double v;
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(units); i++) {
		if (ns >= units[i].div || ns <= -units[i].div) {
			v = (double)ns / (double)units[i].div;
			snprintf(buf, size, "%.*f %s", v >= 100 || v <= -100 ?
			    0 : v >= 10 || v <= -10 ? 1 : 2, v,
			    units[i].unit);
			return buf;
		}
	}
	snprintf(buf, size, "%lld ns", (long long)ns);
	return buf;
}

/* See time.h. */
int64_t
tv_window_col_time(int64_t t0, int64_t t1, uint32_t ncols, uint32_t col)
{
	__int128 span = (__int128)t1 - t0;

	return ncols == 0 ? t0 : t0 + (int64_t)(span * col / ncols);
}

/* See time.h. */
uint32_t
tv_window_col_of(int64_t t0, int64_t t1, uint32_t ncols, int64_t ts)
{
	__int128 span = (__int128)t1 - t0, c;

	if (ts <= t0 || span <= 0 || ncols == 0)
		return 0;
	c = ((__int128)ts - t0) * ncols / span;
	/* the column whose start is <= ts, despite the rounding down */
	while (c + 1 < ncols &&
	    tv_window_col_time(t0, t1, ncols, (uint32_t)c + 1) <= ts)
		c++;
	while (c > 0 && tv_window_col_time(t0, t1, ncols, (uint32_t)c) > ts)
		c--;
	return c >= ncols ? ncols - 1 : (uint32_t)c;
}
