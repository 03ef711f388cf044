/*
 * Parsing of the times users type in the "go to time" prompt and on the
 * command line: wall-clock times, dates, seconds from origin, offsets from
 * the cursor and percentages of the trace.
 */
#include "tview/time.h"

#include <ctype.h>
#include <string.h>
#include <time.h>

#define NS_PER_S	INT64_C(1000000000)
#define NS_PER_DAY	(INT64_C(86400) * NS_PER_S)
#define TEXT_MAX	128

/* Digits at *p (at most @maxdig of them) as a number; false if none. */
static bool
scan_uint(const char **p, int maxdig, uint64_t *out, int *ndig)
{
	const char *s = *p;
	uint64_t v = 0;
	int n = 0;

	while (isdigit((unsigned char)*s)) {
		if (n == maxdig)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
		s++;
		n++;
	}
	if (n == 0)
		return false;
	*p = s;
	*out = v;
	if (ndig)
		*ndig = n;
	return true;
}

/*
 * An optional ".fraction" of up to 9 digits, as nanoseconds of a second
 * (".5" is 500000000).  False on a dot without digits or too many digits.
 */
static bool
scan_frac(const char **p, int64_t *frac)
{
	uint64_t v;
	int n;

	*frac = 0;
	if (**p != '.')
		return true;
	(*p)++;
	if (!scan_uint(p, 9, &v, &n))
		return false;
	while (n++ < 9)
		v *= 10;
	*frac = (int64_t)v;
	return true;
}

/* A unit suffix: ns per unit, or 0 when the text is not a unit. */
static int64_t
scan_unit(const char **p)
{
	static const struct {
		const char	*name;
		int64_t		 ns;
	} units[] = {
		{ "ns", 1 },
		{ "us", 1000 },
		{ "\xc2\xb5s", 1000 },	/* MICRO SIGN */
		{ "\xce\xbcs", 1000 },	/* GREEK SMALL LETTER MU */
		{ "ms", 1000000 },
		{ "s", NS_PER_S },
	};
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(units); i++) {
		size_t n = strlen(units[i].name);

		if (strncmp(*p, units[i].name, n) == 0) {
			*p += n;
			return units[i].ns;
		}
	}
	return 0;
}

/*
 * "N[.frac][unit]" (unit defaults to seconds) as a non-negative number
 * of ns; false on bad text or overflow.
 */
static bool
scan_duration(const char **p, __int128 *out)
{
	uint64_t ip;
	int64_t frac, unit = NS_PER_S;

	if (!scan_uint(p, 19, &ip, NULL))
		return false;
	if (!scan_frac(p, &frac))
		return false;
	if (**p) {
		unit = scan_unit(p);
		if (!unit)
			return false;
	}
	*out = (__int128)ip * unit + (__int128)frac * unit / NS_PER_S;
	return true;
}

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t
days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/* "HH:MM[:SS[.frac]]" at *p; the time of day in ns. */
static bool
scan_clock(const char **p, int *h, int *m, int *sec, int64_t *frac)
{
	uint64_t v;

	if (!scan_uint(p, 2, &v, NULL) || v > 23)
		return false;
	*h = (int)v;
	if (**p != ':')
		return false;
	(*p)++;
	if (!scan_uint(p, 2, &v, NULL) || v > 59)
		return false;
	*m = (int)v;
	*sec = 0;
	*frac = 0;
	if (**p != ':')
		return true;
	(*p)++;
	if (!scan_uint(p, 2, &v, NULL) || v > 60)
		return false;
	*sec = (int)v;
	return scan_frac(p, frac);
}

/* Seconds from origin of a broken-down time, in UTC or local time. */
static bool
civil_to_s(int64_t y, int mo, int d, int h, int mi, int s, bool local,
    int64_t *out)
{
	if (local) {
		struct tm tm;
		time_t t;

		memset(&tm, 0, sizeof(tm));
		tm.tm_year = (int)(y - 1900);
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		tm.tm_hour = h;
		tm.tm_min = mi;
		tm.tm_sec = s;
		tm.tm_isdst = -1;
		t = mktime(&tm);
		if (t == (time_t)-1 && !(tm.tm_year == 69 && tm.tm_hour == 23))
			return false;
		*out = (int64_t)t;
		return true;
	}
	*out = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 +
	    h * 3600 + mi * 60 + s;
	return true;
}

/* Narrow a 128-bit ns count to a timestamp; false if out of range. */
static bool
fit_ns(__int128 v, int64_t *out)
{
	if (v > INT64_MAX || v <= INT64_MIN)
		return false;
	*out = (int64_t)v;
	return true;
}

/* "YYYY-MM-DD[ T]HH:MM[:SS[.frac]]". */
static bool
parse_date(const char *s, bool local, int64_t *out)
{
	uint64_t y, mo, d;
	int h, mi, sec;
	int64_t frac, secs;

	if (!scan_uint(&s, 4, &y, NULL) || *s++ != '-')
		return false;
	if (!scan_uint(&s, 2, &mo, NULL) || mo < 1 || mo > 12 || *s++ != '-')
		return false;
	if (!scan_uint(&s, 2, &d, NULL) || d < 1 || d > 31)
		return false;
	if (*s != ' ' && *s != 'T' && *s != 't')
		return false;
	while (*s == ' ' || *s == 'T' || *s == 't')
		s++;
	if (!scan_clock(&s, &h, &mi, &sec, &frac) || *s)
		return false;
	if (!civil_to_s((int64_t)y, (int)mo, (int)d, h, mi, sec, local, &secs))
		return false;
	return fit_ns((__int128)secs * NS_PER_S + frac, out);
}

/*
 * "HH:MM[:SS[.frac]]" on the day of ctx->begin; if that is before the
 * trace and the next day's is inside it (a trace over midnight), the next
 * day's.
 */
static bool
parse_wall(const char *s, const struct tv_time_ctx *ctx, int64_t *out)
{
	int64_t begin = ctx->begin == TV_TIME_NONE ? 0 : ctx->begin;
	int64_t bs = begin / NS_PER_S, frac, secs;
	int h, mi, sec;
	struct tm tm;
	time_t t;
	__int128 v;

	if (!scan_clock(&s, &h, &mi, &sec, &frac) || *s)
		return false;
	if (begin % NS_PER_S < 0)
		bs--;
	t = (time_t)bs;
	if (!(ctx->local ? localtime_r(&t, &tm) : gmtime_r(&t, &tm)))
		return false;
	if (!civil_to_s((int64_t)tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
	    h, mi, sec, ctx->local, &secs))
		return false;
	v = (__int128)secs * NS_PER_S + frac;
	if (v < begin && ctx->end != TV_TIME_NONE &&
	    v + NS_PER_DAY <= ctx->end)
		v += NS_PER_DAY;
	return fit_ns(v, out);
}

/* "N%" or "N.M%" of [begin, end], N in [0, 100]. */
static bool
parse_percent(const char *s, const struct tv_time_ctx *ctx, int64_t *out)
{
	uint64_t ip;
	int64_t frac;
	__int128 pct, span;

	if (!scan_uint(&s, 3, &ip, NULL) || !scan_frac(&s, &frac))
		return false;
	if (strcmp(s, "%") != 0)
		return false;
	pct = (__int128)ip * NS_PER_S + frac;	/* percent * 1e9 */
	if (pct > (__int128)100 * NS_PER_S)
		return false;
	if (ctx->begin == TV_TIME_NONE || ctx->end == TV_TIME_NONE)
		return false;
	span = (__int128)ctx->end - ctx->begin;
	return fit_ns(ctx->begin + span * pct / ((__int128)100 * NS_PER_S),
	    out);
}

/* Dispatch on the shape of the (trimmed) text. */
static bool
parse_trimmed(const char *s, const struct tv_time_ctx *ctx, int64_t *out)
{
	size_t n = strlen(s);
	__int128 v;

	if (n == 0)
		return false;
	if (s[n - 1] == '%')
		return parse_percent(s, ctx, out);
	if (s[0] == '+' || s[0] == '-') {
		const char *p = s + 1;
		int64_t cur = ctx->cursor == TV_TIME_NONE ? 0 : ctx->cursor;

		if (!scan_duration(&p, &v) || *p)
			return false;
		return fit_ns((__int128)cur + (s[0] == '-' ? -v : v), out);
	}
	if (n >= 5 && isdigit((unsigned char)s[0]) && s[4] == '-')
		return parse_date(s, ctx->local, out);
	if (strchr(s, ':'))
		return parse_wall(s, ctx, out);
	if (!scan_duration(&s, &v) || *s)
		return false;
	return fit_ns(v, out);
}

/* Parse what a user typed as a time; see time.h for the forms. */
enum tv_status
tv_time_parse(const char *text, const struct tv_time_ctx *ctx, int64_t *out,
    struct tv_error *err)
{
	char buf[TEXT_MAX];
	size_t n;
	const char *s = text;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n < sizeof(buf)) {
		memcpy(buf, s, n);
		buf[n] = '\0';
		if (parse_trimmed(buf, ctx, out))
			return TV_OK;
	}
	return tv_error_set(err, TV_SYNTAX, NULL,
	    _("invalid time \"%.*s\": expected HH:MM[:SS[.frac]], "
	    "YYYY-MM-DD HH:MM:SS[.frac], SECONDS[.frac], +/-N[ns|us|ms|s] "
	    "or N%%"), (int)TV_MIN(n, (size_t)64), s);
}
