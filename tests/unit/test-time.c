/*
 * Unit tests of time: clock conversion as babeltrace2 does it (1 GHz and
 * other frequencies, offsets in cycles beyond the frequency, negative
 * offsets, saturation), formatting in every style, and every form the
 * time parser accepts or must refuse.
 */
#include "tview/time.h"
#include "../tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ns of a clock made of @freq, @off_s, @off_c for @cycles. */
static int64_t
conv(uint64_t freq, int64_t off_s, int64_t off_c, uint64_t cycles)
{
	struct tv_clock c;

	memset(&c, 0, sizeof(c));
	c.freq = freq;
	c.offset_s = off_s;
	c.offset_cycles = off_c;
	tv_clock_finish(&c);
	return tv_clock_to_ns(&c, cycles);
}

/* Conversion, compared with values babeltrace2's formula gives. */
static void
test_clock(void)
{
	is_int(conv(1000000000, 1351530929, 945824323, 100),
	    1351530929945824423LL, "clock: 1 GHz adds cycles as is");
	is_int(conv(1000000000, 0, 0, UINT64_C(9007199254740993)),
	    9007199254740993LL, "clock: 1 GHz exact beyond 2^53");
	is_int(conv(1000000, 0, 0, UINT64_C(9007199254740993)),
	    9007199254740992000LL,
	    "clock: 1 MHz goes through double like babeltrace2");
	is_int(conv(2400000000ULL, 0, 0, 12345678901234567ULL),
	    5144032875514403LL, "clock: 2.4 GHz truncates");
	is_int(conv(3, 0, 0, 1), 333333333, "clock: 3 Hz truncates");
	is_int(conv(1193180, 0, 0, 987654321), 827749644647LL,
	    "clock: PIT frequency");
	is_int(conv(1000, 10, 2500, 0), 12500000000LL,
	    "clock: offset cycles beyond freq move into seconds");
	is_int(conv(1000, 10, 2500, 1), 12501000000LL,
	    "clock: and cycles add after");
	is_int(conv(1000000000, -10, 0, 5000000000ULL), -5000000000LL,
	    "clock: negative offset in seconds");
	is_int(conv(1000, 0, -1500, 0), -1500000000LL,
	    "clock: negative offset in cycles");
	is_int(conv(1000000000, 0, 0, UINT64_MAX), INT64_MAX,
	    "clock: saturates above INT64_MAX");
	is_int(conv(1000000000, INT64_MAX, 0, 0), INT64_MAX,
	    "clock: huge offset saturates");
	is_int(conv(1000000000, INT64_MIN, 0, 0), INT64_MIN + 1,
	    "clock: huge negative offset saturates above TV_TIME_NONE");
}

/* Every style, negative times included. */
static void
test_format(void)
{
	char b[64];

	is_str(tv_time_format(1351530929945824423LL, TV_TIME_WALL_UTC, 0, b,
	    sizeof(b)), "17:15:29.945824423", "format: wall UTC");
	is_str(tv_time_format(-1, TV_TIME_WALL_UTC, 0, b, sizeof(b)),
	    "23:59:59.999999999", "format: wall before the epoch");
	is_str(tv_time_format(1351530929945824423LL, TV_TIME_WALL_LOCAL, 0, b,
	    sizeof(b)), "18:15:29.945824423", "format: wall local (UTC+1)");
	is_str(tv_time_format(1351530929000000010LL, TV_TIME_SECONDS, 0, b,
	    sizeof(b)), "1351530929.000000010", "format: seconds");
	is_str(tv_time_format(0, TV_TIME_SECONDS, 0, b, sizeof(b)),
	    "0.000000000", "format: zero seconds");
	is_str(tv_time_format(-1500000000LL, TV_TIME_SECONDS, 0, b,
	    sizeof(b)), "-1.500000000", "format: negative seconds");
	is_str(tv_time_format(-1, TV_TIME_SECONDS, 0, b, sizeof(b)),
	    "-0.000000001", "format: negative below one second");
	is_str(tv_time_format(INT64_MIN + 1, TV_TIME_SECONDS, 0, b,
	    sizeof(b)), "-9223372036.854775807", "format: most negative");
	is_str(tv_time_format(1000012345, TV_TIME_RELATIVE, 1000000000, b,
	    sizeof(b)), "+0.000012345", "format: relative after");
	is_str(tv_time_format(1000000000, TV_TIME_RELATIVE, 3500000000LL, b,
	    sizeof(b)), "-2.500000000", "format: relative before");
	is_str(tv_time_format(5, TV_TIME_RELATIVE, 5, b, sizeof(b)),
	    "+0.000000000", "format: relative zero");
	is_str(tv_time_format(INT64_MAX, TV_TIME_RELATIVE, INT64_MIN + 1, b,
	    sizeof(b)), "+18446744073.709551614",
	    "format: relative across the whole range");
	is_str(tv_time_format(123456789, TV_TIME_RAW, 0, b, sizeof(b)),
	    "123456789", "format: raw");
	is_str(tv_time_format(TV_TIME_NONE, TV_TIME_WALL_UTC, 0, b,
	    sizeof(b)), "-", "format: no timestamp");
	is_str(tv_time_format(1351530929945824423LL, TV_TIME_WALL_UTC, 0, b,
	    9), "17:15:29", "format: truncated to the buffer");
}

/* Fewer digits, rounded half up as trace-cmd report rounds. */
static void
test_format_prec(void)
{
	char b[64];

	is_str(tv_time_format_prec(896504231342LL, TV_TIME_SECONDS, 0, 6, b,
	    sizeof(b)), "896.504231", "prec: report's 896.504231");
	is_str(tv_time_format_prec(896505710888LL, TV_TIME_SECONDS, 0, 6, b,
	    sizeof(b)), "896.505711", "prec: rounded up, as report");
	is_str(tv_time_format_prec(896504230500LL, TV_TIME_SECONDS, 0, 6, b,
	    sizeof(b)), "896.504231", "prec: half rounds up");
	is_str(tv_time_format_prec(1999999500LL, TV_TIME_SECONDS, 0, 6, b,
	    sizeof(b)), "2.000000", "prec: the carry reaches the second");
	is_str(tv_time_format_prec(-1500000600LL, TV_TIME_SECONDS, 0, 6, b,
	    sizeof(b)), "-1.500001", "prec: negative, magnitude rounded");
	is_str(tv_time_format_prec(1351530929999999600LL, TV_TIME_WALL_UTC, 0,
	    6, b, sizeof(b)), "17:15:30.000000", "prec: wall carry");
	is_str(tv_time_format_prec(1000012345, TV_TIME_RELATIVE, 1000000000,
	    6, b, sizeof(b)), "+0.000012", "prec: relative");
	is_str(tv_time_format_prec(1500000000LL, TV_TIME_SECONDS, 0, 0, b,
	    sizeof(b)), "2", "prec: no digit");
	is_str(tv_time_format_prec(1000000001LL, TV_TIME_SECONDS, 0, 12, b,
	    sizeof(b)), "1.000000001", "prec: out of range is 9");
	is_str(tv_time_format_prec(123456789, TV_TIME_RAW, 0, 6, b,
	    sizeof(b)), "123456789", "prec: raw untouched");
}

/* One parse expected to succeed with @want. */
static void
parse_ok(const char *text, const struct tv_time_ctx *ctx, int64_t want)
{
	struct tv_error e;
	int64_t v = 0;
	enum tv_status st = tv_time_parse(text, ctx, &v, &e);

	if (st != TV_OK)
		diag("'%s': %s", text, e.msg);
	is_int(v, want, "parse: '%s'", text);
}

/* One parse expected to fail with a message naming the text. */
static void
parse_bad(const char *text, const struct tv_time_ctx *ctx)
{
	struct tv_error e;
	int64_t v = 0;
	enum tv_status st = tv_time_parse(text, ctx, &v, &e);

	ok(st == TV_SYNTAX && strstr(e.msg, text) != NULL,
	    "parse: '%s' refused, message names it", text);
}

/* Every accepted form, and bad input. */
static void
test_parse(void)
{
	/* 2012-10-29 17:15:29.945824423 UTC to 17:15:39.945824423 */
	struct tv_time_ctx ctx = {
		.begin = 1351530929945824423LL,
		.end = 1351530939945824423LL,
		.cursor = 1351530930000000000LL,
		.local = false,
	};
	struct tv_time_ctx night = {
		.begin = 1351554600000000000LL,		/* 23:50 */
		.end = 1351557000000000000LL,		/* 00:30 */
		.cursor = 0,
	};
	struct tv_time_ctx local = ctx;
	const int64_t day = 1351468800000000000LL;	/* 2012-10-29 00:00 */

	local.local = true;
	parse_ok("17:15:30", &ctx, day + 62130000000000LL);
	parse_ok("17:15", &ctx, day + 62100000000000LL);
	parse_ok("17:15:30.5", &ctx, day + 62130500000000LL);
	parse_ok("17:15:30.000000001", &ctx, day + 62130000000001LL);
	parse_ok("  17:15:30  ", &ctx, day + 62130000000000LL);
	parse_ok("18:15:30", &local, day + 62130000000000LL);
	parse_ok("00:10", &night, 1351555800000000000LL);
	parse_ok("23:55", &night, 1351554900000000000LL);
	parse_ok("2012-10-29 17:15:30.25", &ctx, day + 62130250000000LL);
	parse_ok("2012-10-29T17:15:30", &ctx, day + 62130000000000LL);
	parse_ok("1970-01-01 00:00:00", &ctx, 0);
	parse_ok("2012-10-29 18:15:30", &local, day + 62130000000000LL);
	parse_ok("1351530930.5", &ctx, 1351530930500000000LL);
	parse_ok("0", &ctx, 0);
	parse_ok("12.000000001", &ctx, 12000000001LL);
	parse_ok("1500ms", &ctx, 1500000000LL);
	parse_ok("+1.5ms", &ctx, ctx.cursor + 1500000);
	parse_ok("-200us", &ctx, ctx.cursor - 200000);
	parse_ok("+3s", &ctx, ctx.cursor + 3000000000LL);
	parse_ok("+10ns", &ctx, ctx.cursor + 10);
	parse_ok("+3\xc2\xb5s", &ctx, ctx.cursor + 3000);
	parse_ok("+3\xce\xbcs", &ctx, ctx.cursor + 3000);
	parse_ok("+2", &ctx, ctx.cursor + 2000000000LL);
	parse_ok("-0.5", &ctx, ctx.cursor - 500000000LL);
	parse_ok("+1.123456789ms", &ctx, ctx.cursor + 1123456);
	parse_ok("0%", &ctx, ctx.begin);
	parse_ok("50%", &ctx, ctx.begin + 5000000000LL);
	parse_ok("12.5%", &ctx, ctx.begin + 1250000000LL);
	parse_ok("100%", &ctx, ctx.end);

	parse_bad("", &ctx);
	parse_bad("bogus", &ctx);
	parse_bad("12:", &ctx);
	parse_bad("25:00", &ctx);
	parse_bad("12:60", &ctx);
	parse_bad("12:30:61", &ctx);
	parse_bad("1.1234567890", &ctx);
	parse_bad("1.", &ctx);
	parse_bad("1..2", &ctx);
	parse_bad("+", &ctx);
	parse_bad("+5xs", &ctx);
	parse_bad("+5 s", &ctx);
	parse_bad("101%", &ctx);
	parse_bad("-5%", &ctx);
	parse_bad("2012-13-01 00:00:00", &ctx);
	parse_bad("2012-10-29", &ctx);
	parse_bad("99999999999999999999", &ctx);
	parse_bad("+9999999999s", &ctx);
}

/* Run every time test; the exit status says whether all passed. */
int
main(void)
{
	setenv("TZ", "CET-1", 1);	/* UTC+1, no tzdata needed */
	tzset();
	tv_plan(0);
	test_clock();
	test_format();
	test_format_prec();
	test_parse();
	return tv_done();
}
