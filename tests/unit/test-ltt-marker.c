/*
 * Unit tests of the LTTng 0.x marker format parser (ltt-marker.c): field
 * names, types, sizes with the traced machine's C type sizes, "#" trace
 * types overriding "%" C types, network byte order, print prefixes and
 * conversions, fixed sizes and alignment, LTTV's quirks (a name cut at a
 * space, "#1%d" that makes no field, unnamed fields), and the formats
 * LTTV refuses.
 */
#include "tview/tview.h"
#include "../../src/formats/ltt/ltt-priv.h"
#include "../tap.h"

#include <string.h>

static const struct ltt_msizes i386 = { 4, 4, 4, 4, 0 };
static const struct ltt_msizes aligned64 = { 4, 8, 8, 8, 8 };

/* Parse @fmt with sizes @sz into @out (arena @a); true on success. */
static bool
parse(const char *fmt, const struct ltt_msizes *sz, struct tv_arena *a,
    struct ltt_mformat *out)
{
	struct tv_error err;

	tv_error_clear(&err);
	if (ltt_mformat_parse(fmt, sz, a, out, &err) != TV_OK) {
		diag("%s: %s", fmt, err.msg);
		return false;
	}
	return true;
}

/* The basic sched_schedule format. */
static void
test_sched(struct tv_arena *a)
{
	struct ltt_mformat f;

	if (!ok(parse("prev_pid %d next_pid %d prev_state #2d%ld", &i386, a,
	    &f), "sched_schedule parses"))
		return;
	is_int(f.nfields, 3, "three fields");
	is_str(f.fields[0].name, "prev_pid", "first name");
	is_int(f.fields[0].type, LTT_F_SIGNED, "%%d is signed");
	is_int(f.fields[0].size, 4, "%%d is an int");
	is_str(f.fields[2].name, "prev_state", "third name");
	is_int(f.fields[2].size, 2, "#2d overrides %%ld's size");
	is_int(f.fields[2].type, LTT_F_SIGNED, "#2d is signed");
	is_int(f.fields[2].conv, 'd', "printed with %%d");
	is_int(f.fixed_size, 10, "4 + 4 + 2 bytes");
	is_int(f.largest_align, 4, "largest alignment 4");
}

/* Strings, pointers, size_t, long long, and the core marker format. */
static void
test_types(struct tv_arena *a)
{
	struct ltt_mformat f;

	if (!ok(parse("channel %s name %s event_id %hu int #1u%zu long "
	    "#1u%zu pointer #1u%zu size_t #1u%zu alignment #1u%u", &i386, a,
	    &f), "core_marker_id parses"))
		return;
	is_int(f.nfields, 8, "eight fields");
	is_int(f.fields[0].type, LTT_F_STRING, "%%s is a string");
	is_int(f.fields[2].size, 2, "%%hu is 2 bytes");
	is_int(f.fields[3].size, 1, "#1u%%zu is 1 byte");
	is_int(f.fixed_size, -1, "strings make the size vary");
	ok(parse("filp %p sector %llu size %zu", &i386, a, &f),
	    "pointer, long long, size_t");
	is_int(f.fields[0].type, LTT_F_POINTER, "%%p is a pointer");
	is_int(f.fields[0].size, 4, "pointer of arch_size 4");
	is_int(f.fields[1].size, 8, "%%llu is 8 bytes");
	is_int(f.fields[2].size, 4, "size_t of 4");
	is_int(f.fixed_size, 16, "4 + 8 + 4 unaligned");
	ok(parse("filp %p sector %llu size %zu", &aligned64, a, &f),
	    "the same on an aligned 64-bit machine");
	is_int(f.fields[0].size, 8, "pointer of 8");
	is_int(f.fixed_size, 24, "8 + 8 + 8");
	ok(parse("a #1u%u b %llu", &aligned64, a, &f), "aligned fields");
	is_int(f.fixed_size, 16, "1 byte, 7 of padding, 8");
	is_int(f.largest_align, 8, "largest alignment 8");
}

/* Print prefixes, conversions, network byte order, quirks. */
static void
test_print(struct tv_arena *a)
{
	struct ltt_mformat f;

	ok(parse("ip 0x%lX", &i386, a, &f), "hex with a 0x prefix");
	is_str(f.fields[0].name, "ip", "name before the space");
	is_str(f.fields[0].prefix, "0x", "prefix 0x");
	is_int(f.fields[0].conv, 'X', "upper-case hex");
	ok(parse("address #n4u%lu", &i386, a, &f), "network byte order");
	ok(f.fields[0].net_order, "#n sets network byte order");
	is_int(f.fields[0].size, 4, "#n4u is 4 bytes");
	ok(parse("size %u rw(A,B, C,D) %lX flag %-#x", &i386, a, &f),
	    "a name with a space");
	is_str(f.fields[1].name, "rw(A,B,", "LTTV cuts the name at a space");
	is_str(f.fields[2].flags, "-#", "printf flags kept");
	ok(parse("irqstate #1%d", &i386, a, &f), "#1%%d");
	is_int(f.nfields, 0, "#1%%d makes no field, as in LTTV");
	ok(parse("%d %u", &i386, a, &f), "unnamed fields");
	is_str(f.fields[0].name, "field 1", "first unnamed field");
	is_str(f.fields[1].name, "field 2", "second unnamed field");
	ok(parse(" ", &i386, a, &f), "a format of one space");
	is_int(f.nfields, 0, "no fields");
	ok(parse("pct 100%% x %c", &i386, a, &f), "%%%% escape");
	is_int(f.nfields, 1, "one field after %%%%");
	is_int(f.fields[0].conv, 'c', "%%c");
	is_int(f.fields[0].size, 1, "%%c is one byte");
}

/* Formats LTTV refuses. */
static void
test_bad(struct tv_arena *a)
{
	struct ltt_mformat f;
	struct tv_error err;

	tv_error_clear(&err);
	ok(ltt_mformat_parse("x %y", &i386, a, &f, &err) == TV_SEMANTIC,
	    "unknown conversion refused");
	ok(strstr(err.msg, "%y") != NULL, "the message quotes the format");
	ok(ltt_mformat_parse("x %", &i386, a, &f, &err) == TV_SEMANTIC,
	    "a trailing %% refused");
	ok(ltt_mformat_parse("x #", &i386, a, &f, NULL) == TV_OK,
	    "a trailing # is ignored");
	{
		struct ltt_msizes odd = { 3, 4, 4, 4, 0 };

		ok(ltt_mformat_parse("x %d", &odd, a, &f, NULL) ==
		    TV_SEMANTIC, "an int of 3 bytes refused");
	}
	{
		char big[LTT_MAX_FIELDS * 3 + 8];
		size_t i;

		for (i = 0; i < LTT_MAX_FIELDS + 1; i++)
			memcpy(big + i * 3, "%d ", 3);
		big[(LTT_MAX_FIELDS + 1) * 3] = '\0';
		ok(ltt_mformat_parse(big, &i386, a, &f, NULL) == TV_SEMANTIC,
		    "too many fields refused");
	}
}

/* Run the marker format tests. */
int
main(void)
{
	struct tv_arena a;

	tv_arena_init(&a);
	test_sched(&a);
	test_types(&a);
	test_print(&a);
	test_bad(&a);
	tv_arena_fini(&a);
	return tv_done();
}
