/*
 * Unit tests of the ftrace ring-buffer page decoder (ringbuf-page.c) on
 * hand-built pages: data records of both length encodings, time extends,
 * absolute time stamps, padding, lost-event flags with and without a
 * stored count, big-endian and 32-bit pages, and corrupt pages; and
 * the page layout taken from header_page rather than the long size.
 */
#include "tview/tview.h"

#include <string.h>

#include "../../src/formats/tracedat/tracedat-priv.h"
#include "../tap.h"

#define PAGE	256

/* A page being built: header, then records appended at ->pos. */
struct pb {
	uint8_t		 p[PAGE];
	uint32_t	 hdr;
	uint32_t	 pos;	/* in data */
	bool		 be;
	uint32_t	 lsize;
};

/* Store @v in @n bytes at @at in the page's byte order. */
static void
put(struct pb *b, uint32_t at, uint64_t v, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		unsigned sh = b->be ? (n - 1 - i) * 8 : i * 8;

		b->p[at + i] = (uint8_t)(v >> sh);
	}
}

/* Start a page with timestamp @ts. */
static void
pb_init(struct pb *b, bool be, uint32_t lsize, uint64_t ts)
{
	memset(b, 0, sizeof(*b));
	b->be = be;
	b->lsize = lsize;
	b->hdr = 8 + lsize;
	put(b, 0, ts, 8);
}

/* Append a record header word (type_len, delta). */
static void
pb_word(struct pb *b, uint32_t type_len, uint32_t delta)
{
	uint32_t w = b->be ? (type_len << 27) | delta : (delta << 5) | type_len;

	put(b, b->hdr + b->pos, w, 4);
	b->pos += 4;
}

/* Append a 32-bit word of data. */
static void
pb_u32(struct pb *b, uint32_t v)
{
	put(b, b->hdr + b->pos, v, 4);
	b->pos += 4;
}

/* Begin a page whose layout follows from long size @lsize alone. */
static enum tv_status
begin(struct td_page_iter *it, const uint8_t *p, uint32_t size,
    uint32_t lsize, bool be, struct tv_error *err)
{
	struct td_file f;

	memset(&f, 0, sizeof(f));
	f.be = be;
	f.long_size = lsize;
	f.page_size = PAGE;
	td_page_layout_parse(&f, NULL);
	return td_page_begin(it, &f, p, size, err);
}

/* Set the commit field (with @flags bits) to what was appended. */
static void
pb_commit(struct pb *b, uint64_t flags)
{
	put(b, 8, b->pos | flags, b->lsize);
}

/* Walk a well-formed little-endian page with every record kind. */
static void
test_kinds(void)
{
	struct td_page_iter it;
	struct tv_error err;
	struct pb b;

	pb_init(&b, false, 8, 1000);
	pb_word(&b, 2, 5);		/* data, 8 bytes, ts 1005 */
	pb_u32(&b, 0x11111111);
	pb_u32(&b, 0x22222222);
	pb_word(&b, 30, 3);		/* extend: (1 << 27) + 3 */
	pb_u32(&b, 1);
	pb_word(&b, 0, 7);		/* data, length in next word */
	pb_u32(&b, 4 + 6);		/* 6 bytes, rounded to 8 */
	pb_u32(&b, 0x33333333);
	pb_u32(&b, 0x00004444);
	pb_word(&b, 29, 0);		/* padding of 4 more bytes */
	pb_u32(&b, 4);
	pb_word(&b, 31, 20);		/* absolute: (2 << 27) | 20 */
	pb_u32(&b, 2);
	pb_word(&b, 1, 1);		/* data, 4 bytes */
	pb_u32(&b, 0x55555555);
	pb_commit(&b, 0);

	ok(begin(&it, b.p, PAGE, 8, false, &err) == TV_OK,
	    "page header read");
	is_int(it.commit, b.pos, "commit size");
	is_int(it.lost, 0, "nothing lost");
	ok(td_page_next(&it, &err) == TV_OK, "first record");
	is_int((int64_t)it.ts, 1005, "first timestamp: page + delta");
	is_int(it.data_len, 8, "type_len 2 is 8 bytes");
	is_int(it.rec_off, 0, "first record at 0");
	ok(it.at_start, "first record is at the page start");
	is_int((int64_t)td_get_u(b.p + it.hdr + it.data_off, 4, false),
	    0x11111111, "payload found");
	ok(td_page_next(&it, &err) == TV_OK, "second record");
	is_int((int64_t)it.ts, 1005 + 3 + (1 << 27) + 7,
	    "time extend then delta");
	is_int(it.data_len, 8, "length word rounded up to 4");
	ok(!it.at_start, "not at the page start");
	ok(td_page_next(&it, &err) == TV_OK, "third record");
	is_int((int64_t)it.ts, (((int64_t)2 << 27) | 20) + 1,
	    "absolute stamp, then the delta");
	is_int(it.data_len, 4, "type_len 1 is 4 bytes");
	ok(td_page_next(&it, &err) == TV_END, "end of page");
}

/* Lost events: a stored count after the data, or the unknown flag. */
static void
test_lost(void)
{
	struct td_page_iter it;
	struct tv_error err;
	struct pb b;

	pb_init(&b, false, 8, 50);
	pb_word(&b, 1, 0);
	pb_u32(&b, 7);
	put(&b, b.hdr + b.pos, 1234, 8);	/* the stored count */
	pb_commit(&b, (1ULL << 31) | (1ULL << 30));
	ok(begin(&it, b.p, PAGE, 8, false, &err) == TV_OK,
	    "page with a lost count");
	is_int(it.lost, 1234, "stored lost count");
	pb_commit(&b, 1ULL << 31);
	begin(&it, b.p, PAGE, 8, false, &err);
	is_int(it.lost, -1, "lost without a count");
}

/* The same records in a big-endian page with 32-bit longs. */
static void
test_be32(void)
{
	struct td_page_iter it;
	struct tv_error err;
	struct pb b;

	pb_init(&b, true, 4, 77);
	pb_word(&b, 1, 3);
	pb_u32(&b, 0xabcdef01);
	pb_commit(&b, 0);
	ok(begin(&it, b.p, PAGE, 4, true, &err) == TV_OK,
	    "big-endian page");
	is_int(it.hdr, 12, "12-byte header with 32-bit longs");
	ok(td_page_next(&it, &err) == TV_OK, "big-endian record");
	is_int((int64_t)it.ts, 80, "big-endian delta");
	is_int((int64_t)td_get_u(b.p + it.hdr + it.data_off, 4, true),
	    0xabcdef01, "big-endian payload");
	ok(td_page_next(&it, &err) == TV_END, "big-endian end");
}

/* A file written by a 64-bit host of a 32-bit kernel's pages. */
static void
test_layout(void)
{
	static const char hp32[] =
	    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	    "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
	    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	    "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n";
	static const char bad[] =
	    "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
	    "\tfield: char data;\toffset:4;\tsize:4084;\tsigned:1;\n";
	struct td_page_iter it;
	struct tv_error err;
	struct td_file f;
	struct pb b;

	memset(&f, 0, sizeof(f));
	f.path = (char *)"x.dat";
	f.long_size = 8;
	f.page_size = 4096;
	f.header_page.ptr = (const uint8_t *)hp32;
	f.header_page.len = sizeof(hp32) - 1;
	ok(td_page_layout_parse(&f, &err) == TV_OK, "32-bit header_page");
	is_int(f.layout.commit_off, 8, "commit offset from header_page");
	is_int(f.layout.commit_size, 4, "commit size from header_page, "
	    "not the long size");
	is_int(f.layout.data_off, 12, "data offset from header_page");
	pb_init(&b, false, 4, 10);
	pb_word(&b, 1, 2);
	pb_u32(&b, 0x01020304);
	pb_commit(&b, 0);
	put(&b, 12 + b.pos, 0xffffffff, 4);	/* not part of the commit */
	ok(td_page_begin(&it, &f, b.p, PAGE, &err) == TV_OK &&
	    td_page_next(&it, &err) == TV_OK && it.ts == 12 &&
	    td_get_u(b.p + it.hdr + it.data_off, 4, false) == 0x01020304 &&
	    td_page_next(&it, &err) == TV_END,
	    "32-bit page of a long-size-8 file read through header_page");
	f.header_page.ptr = (const uint8_t *)"nothing useful\n";
	f.header_page.len = 15;
	ok(td_page_layout_parse(&f, &err) == TV_OK &&
	    f.layout.commit_size == 8 && f.layout.data_off == 16,
	    "silent header_page: the long size");
	f.header_page.ptr = (const uint8_t *)bad;
	f.header_page.len = sizeof(bad) - 1;
	ok(td_page_layout_parse(&f, &err) == TV_CORRUPT &&
	    strstr(err.msg, "header_page") != NULL,
	    "data overlapping the commit refused: %s", err.msg);
}

/* Lying sizes are errors, not reads past the page. */
static void
test_corrupt(void)
{
	struct td_page_iter it;
	struct tv_error err;
	struct pb b;

	pb_init(&b, false, 8, 0);
	put(&b, 8, PAGE, 8);
	ok(begin(&it, b.p, PAGE, 8, false, &err) == TV_CORRUPT,
	    "commit larger than the page refused");
	pb_init(&b, false, 8, 0);
	pb_word(&b, 0, 0);
	pb_u32(&b, 100000);		/* far past the commit */
	pb_commit(&b, 0);
	begin(&it, b.p, PAGE, 8, false, &err);
	ok(td_page_next(&it, &err) == TV_CORRUPT,
	    "record longer than the page data refused");
	ok(strstr(err.msg, "0x10") != NULL, "error names the offset: %s",
	    err.msg);
	pb_init(&b, false, 8, 0);
	pb_word(&b, 0, 0);
	pb_u32(&b, 2);			/* shorter than its own length word */
	pb_commit(&b, 0);
	begin(&it, b.p, PAGE, 8, false, &err);
	ok(td_page_next(&it, &err) == TV_CORRUPT, "length < 4 refused");
	pb_init(&b, false, 8, 0);
	pb_word(&b, 3, 0);		/* 12 bytes announced, 0 there */
	pb_commit(&b, 0);
	begin(&it, b.p, PAGE, 8, false, &err);
	ok(td_page_next(&it, &err) == TV_CORRUPT, "truncated data refused");
	ok(begin(&it, b.p, 8, 8, false, &err) == TV_CORRUPT,
	    "page smaller than its header refused");
}

/* Run every test. */
int
main(void)
{
	tv_plan(0);
	test_kinds();
	test_lost();
	test_be32();
	test_layout();
	test_corrupt();
	return tv_done();
}
