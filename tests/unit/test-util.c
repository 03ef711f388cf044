/*
 * Unit tests of the util layer: arena, strbuf, intern pool, error
 * rendering, file mapping and reading, and the field helpers.
 */
#include "tview/util.h"
#include "tview/error.h"
#include "tview/mapfile.h"
#include "tview/field.h"
#include "../tap.h"

#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 10^@e, exactly for the small @e used here. */
static double
pow10_of(int e)
{
	double p = 1;

	while (e-- > 0)
		p *= 10;
	return p;
}

/* Alignment, big allocations, reset and string copies. */
static void
test_arena(void)
{
	struct tv_arena a;
	bool aligned = true, intact = true;
	unsigned char *p[2000];
	char *big, *s;
	int i;

	tv_arena_init(&a);
	for (i = 0; i < 2000; i++) {
		p[i] = tv_arena_alloc(&a, (size_t)(i % 37) + 1);
		aligned &= ((uintptr_t)p[i] % 16) == 0;
		memset(p[i], i & 0xff, (size_t)(i % 37) + 1);
	}
	ok(aligned, "arena: 2000 small allocations are 16-byte aligned");
	big = tv_arena_alloc(&a, 1 << 20);
	ok(((uintptr_t)big % 16) == 0, "arena: big allocation aligned");
	memset(big, 0x5a, 1 << 20);
	for (i = 0; i < 2000; i++)
		intact &= p[i][(i % 37)] == (i & 0xff);
	ok(intact, "arena: big allocation does not overwrite small ones");
	/* A small allocation after a big one still fits in the chunk. */
	s = tv_arena_strdup(&a, "hello");
	is_str(s, "hello", "arena: strdup");
	s = tv_arena_strndup(&a, "hello world", 5);
	is_str(s, "hello", "arena: strndup stops at n");
	s = tv_arena_strndup(&a, "hi", 10);
	is_str(s, "hi", "arena: strndup stops at NUL");
	ok(a.total >= (1 << 20), "arena: total counts handed-out bytes");
	tv_arena_reset(&a);
	is_int((int64_t)a.total, 0, "arena: reset clears total");
	ok(tv_arena_alloc(&a, 5) == (void *)p[0],
	    "arena: reset keeps the first chunk");
	s = tv_arena_zalloc(&a, 100);
	for (i = 0, intact = true; i < 100; i++)
		intact &= s[i] == 0;
	ok(intact, "arena: zalloc zeroes after reset");
	ok(tv_arena_alloc(&a, 0) != NULL, "arena: zero-size allocation");
	tv_arena_fini(&a);
	ok(a.head == NULL, "arena: fini frees everything");
}

/* "@b-1 @b " appended to @sb, and by printf to @all (@n bytes so far). */
static void
u64_pair(struct tv_strbuf *sb, char *all, size_t size, size_t *n, uint64_t b)
{
	*n += (size_t)snprintf(all + *n, size - *n, "%" PRIu64 " %" PRIu64 " ",
	    b - 1, b);
	tv_strbuf_add_u64(sb, b - 1);
	tv_strbuf_addc(sb, ' ');
	tv_strbuf_add_u64(sb, b);
	tv_strbuf_addc(sb, ' ');
}

/* Appends, formatting and the integer fast paths. */
static void
test_strbuf(void)
{
	struct tv_strbuf sb;
	char want[64];
	int i;

	tv_strbuf_init(&sb);
	is_str(sb.buf, "", "strbuf: empty after init");
	tv_strbuf_adds(&sb, "ab");
	tv_strbuf_addc(&sb, 'c');
	tv_strbuf_add(&sb, "defgh", 2);
	is_str(sb.buf, "abcde", "strbuf: add, addc, adds");
	tv_strbuf_reset(&sb);
	tv_strbuf_addf(&sb, "%s=%d", "x", 42);
	is_str(sb.buf, "x=42", "strbuf: addf");
	tv_strbuf_reset(&sb);
	for (i = 0; i < 1000; i++)
		tv_strbuf_addf(&sb, "%04d", i);
	is_int((int64_t)sb.len, 4000, "strbuf: grows over many addf");
	ok(memcmp(sb.buf + 3996, "0999", 5) == 0, "strbuf: content intact");
	tv_strbuf_reset(&sb);
	tv_strbuf_addf(&sb, "%300s|", "");
	is_int((int64_t)sb.len, 301, "strbuf: one long addf");
	tv_strbuf_reset(&sb);
	tv_strbuf_add_u64(&sb, 0);
	is_str(sb.buf, "0", "strbuf: u64 zero");
	tv_strbuf_reset(&sb);
	tv_strbuf_add_u64(&sb, UINT64_MAX);
	is_str(sb.buf, "18446744073709551615", "strbuf: u64 max");
	tv_strbuf_reset(&sb);
	{
		/* every digit count's ends, in place and where it grows */
		char one[32], all[4096];
		uint64_t p10 = 1;
		size_t n = 0;
		int k;

		for (k = 0; k < 20; k++, p10 *= 10)
			u64_pair(&sb, all, sizeof(all), &n, p10);
		is_str(sb.buf, all, "strbuf: u64 at every digit count");
		/* and at every bit length's ends, what its count starts from */
		for (k = 0, n = 0, tv_strbuf_reset(&sb); k < 64; k++)
			u64_pair(&sb, all, sizeof(all), &n, UINT64_C(1) << k);
		is_str(sb.buf, all, "strbuf: u64 at every bit length");
		snprintf(one, sizeof(one), "%" PRIu64, (uint64_t)987654321);
		tv_strbuf_reset(&sb);
		tv_strbuf_add_u64(&sb, 987654321);
		is_str(sb.buf, one, "strbuf: u64 of nine digits");
	}
	tv_strbuf_reset(&sb);
	tv_strbuf_add_i64(&sb, INT64_MIN);
	is_str(sb.buf, "-9223372036854775808", "strbuf: i64 min");
	tv_strbuf_reset(&sb);
	tv_strbuf_add_i64(&sb, -7);
	tv_strbuf_addc(&sb, ' ');
	tv_strbuf_add_i64(&sb, 1234567890123LL);
	snprintf(want, sizeof(want), "%d %lld", -7, 1234567890123LL);
	is_str(sb.buf, want, "strbuf: i64 matches printf");
	tv_strbuf_fini(&sb);
	memset(&sb, 0, sizeof(sb));
	tv_strbuf_add(&sb, NULL, 0);
	is_str(sb.buf, "", "strbuf: a zeroed buffer works without init");
	tv_strbuf_add_u64(&sb, 7);
	is_str(sb.buf, "7", "strbuf: and grows");
	tv_strbuf_fini(&sb);
}

/* Equal strings share a pointer, across table growth. */
static void
test_intern(void)
{
	struct tv_intern *pool = tv_intern_create();
	const char *a, *b, *c, *first[500];
	char name[32];
	bool same = true;
	int i;

	a = tv_intern(pool, "sched_switch", 12);
	b = tv_intern(pool, "sched_switch_extra", 12);
	c = tv_intern(pool, "sched_wakeup", 12);
	ok(a == b, "intern: equal bytes give one pointer");
	ok(a != c, "intern: different strings differ");
	is_str(b, "sched_switch", "intern: copy is NUL-terminated");
	for (i = 0; i < 500; i++) {
		snprintf(name, sizeof(name), "name%d", i);
		first[i] = tv_intern(pool, name, strlen(name));
	}
	for (i = 0; i < 500; i++) {
		snprintf(name, sizeof(name), "name%d", i);
		same &= tv_intern(pool, name, strlen(name)) == first[i];
	}
	ok(same, "intern: 500 names stable across growth");
	ok(tv_intern(pool, "sched_switch", 12) == a,
	    "intern: early pointer survives growth");
	is_str(tv_intern(pool, "", 0), "", "intern: empty string");
	tv_intern_destroy(pool);
}

/* The one-line renderings and the helpers around them. */
static void
test_error(void)
{
	struct tv_error e;
	struct tv_loc text = { .path = "metadata", .offset = TV_NO_OFFSET,
	    .line = 12, .column = 5 };
	char buf[1200];

	tv_error_at(&e, TV_CORRUPT, "chan_0", 0x1a40, "bad magic %#x", 0xc1);
	is_str(tv_error_format(&e, buf, sizeof(buf)),
	    "chan_0: offset 0x1a40: bad magic 0xc1", "error: binary position");
	is_int(e.status, TV_CORRUPT, "error: status kept");
	ok(tv_error_set(&e, TV_SYNTAX, &text, "unexpected '%c'", '}') ==
	    TV_SYNTAX, "error: set returns its status");
	is_str(tv_error_format(&e, buf, sizeof(buf)),
	    "metadata:12:5: unexpected '}'", "error: text position");
	tv_error_set(&e, TV_IO, &(struct tv_loc){ .path = "x",
	    .offset = TV_NO_OFFSET }, "cannot open");
	is_str(tv_error_format(&e, buf, sizeof(buf)), "x: cannot open",
	    "error: path only");
	tv_error_set(&e, TV_NOMEM, NULL, "no room");
	is_str(tv_error_format(&e, buf, sizeof(buf)), "no room",
	    "error: message only");
	tv_error_at(&e, TV_CORRUPT, "f", 0, "short");
	tv_error_prefix(&e, "while indexing %s: ", "stream0");
	is_str(tv_error_format(&e, buf, sizeof(buf)),
	    "f: offset 0x0: while indexing stream0: short",
	    "error: prefix keeps the position");
	tv_error_clear(&e);
	is_int(e.status, TV_OK, "error: clear");
	is_str(tv_error_format(&e, buf, sizeof(buf)), "success",
	    "error: cleared renders the status");
	is_int(tv_error_set(NULL, TV_CORRUPT, NULL, "x"), TV_CORRUPT,
	    "error: NULL err accepted");
	tv_error_prefix(NULL, "x");
	is_str(tv_status_str(TV_END), "end of stream", "error: status string");
	is_str(tv_status_str((enum tv_status)999), "unknown error",
	    "error: out-of-range status");
	errno = ENOENT;
	tv_error_set(&e, TV_IO, NULL, "open");
	is_int(e.sys_errno, ENOENT, "error: TV_IO keeps errno");
	tv_error_at(&e, TV_CORRUPT, "p", 4, "inner");
	tv_error_set(&e, TV_CORRUPT, &(struct tv_loc){ .path = e.path,
	    .offset = e.offset }, "outer: %s", e.msg);
	is_str(tv_error_format(&e, buf, sizeof(buf)),
	    "p: offset 0x4: outer: inner", "error: re-wrapping itself");
	memset(buf, 'x', sizeof(buf));
	buf[sizeof(buf) - 1] = '\0';
	tv_error_set(&e, TV_CORRUPT, &(struct tv_loc){ .path = buf,
	    .offset = 1 }, "%s", buf);
	tv_error_prefix(&e, "%s", buf);
	ok(strlen(e.path) == sizeof(e.path) - 1 &&
	    strlen(e.msg) == sizeof(e.msg) - 1,
	    "error: long path and message truncated");
	ok(strlen(tv_error_format(&e, buf, 40)) == 39,
	    "error: format truncates to the buffer");
}

/* Mapping and reading real files, empty files and missing ones. */
static void
test_files(void)
{
	char path[] = "/tmp/tview-test-XXXXXX";
	struct tv_mapfile mf;
	struct tv_error e;
	char *text;
	size_t len;
	int fd = mkstemp(path);

	if (fd < 0) {
		diag("mkstemp failed: skipping file tests");
		return;
	}
	is_int(tv_mapfile_open(&mf, path, &e), TV_OK, "mapfile: empty file");
	ok(mf.data == NULL && mf.size == 0, "mapfile: empty has no data");
	tv_mapfile_close(&mf);
	if (write(fd, "hello world\n", 12) != 12)
		diag("short write");
	close(fd);
	is_int(tv_mapfile_open(&mf, path, &e), TV_OK, "mapfile: open");
	ok(mf.size == 12 && memcmp(mf.data, "hello", 5) == 0,
	    "mapfile: contents");
	tv_mapfile_advise(&mf, true);
	tv_mapfile_close(&mf);
	is_int(tv_mapfile_open(&mf, "/nonexistent/x", &e), TV_IO,
	    "mapfile: missing file is TV_IO");
	is_int(e.sys_errno, ENOENT, "mapfile: errno kept");
	is_int(tv_mapfile_open(&mf, "/tmp", &e), TV_IO,
	    "mapfile: directory refused");
	is_int(tv_read_file(path, 100, &text, &len, &e), TV_OK, "read_file");
	ok(len == 12 && strcmp(text, "hello world\n") == 0,
	    "read_file: contents NUL-terminated");
	free(text);
	is_int(tv_read_file(path, 12, &text, &len, &e), TV_OK,
	    "read_file: exactly at the cap");
	free(text);
	is_int(tv_read_file(path, 5, &text, &len, &e), TV_UNSUPPORTED,
	    "read_file: over the cap refused");
	ok(text == NULL, "read_file: nothing returned over the cap");
	unlink(path);
}

/* The resident KiB of the mapping starting at @addr (smaps); -1: unknown. */
static long
mapped_kib(const void *addr)
{
	char line[512], want[32];
	bool in = false;
	long kib = -1;
	size_t tok;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (f == NULL)
		return -1;
	snprintf(want, sizeof(want), "%lx-", (unsigned long)(uintptr_t)addr);
	while (fgets(line, sizeof(line), f) != NULL) {
		/* a mapping's first line starts "lo-hi perms", its fields
		   "Name: value" */
		tok = strcspn(line, " ");
		if (memchr(line, ':', tok) == NULL)
			in = strncmp(line, want, strlen(want)) == 0;
		else if (in && sscanf(line, "Rss: %ld kB", &kib) == 1)
			break;
	}
	fclose(f);
	return kib;
}

/* The way of @r that holds a stretch of @mf, NULL if none. */
static const struct tv_map_stretch *
way_of(const struct tv_map_release *r, const struct tv_mapfile *mf)
{
	unsigned i;

	for (i = 0; i < TV_MAP_RELEASE_WAYS; i++)
		if (r->way[i].mf == mf)
			return &r->way[i];
	return NULL;
}

/*
 * A release batch gathers the ranges of each mapping into a stretch and
 * gives its pages back once it spans TV_MAP_RELEASE_BATCH, when a far
 * range comes, when a mapping past TV_MAP_RELEASE_WAYS takes its way,
 * and when flushed; until then they stay mapped.  The resident sizes
 * are compared with a slack of 1 MiB (the kernel may reclaim clean
 * pages meanwhile): a release drops at least 4 MiB.
 */
static void
test_release(void)
{
	char path[] = "/tmp/tview-test-XXXXXX";
	const uint64_t unit = TV_MAP_RELEASE_BATCH / 8;
	const uint64_t size = 4 * (uint64_t)TV_MAP_RELEASE_BATCH;
	const long slack = 1024;
	struct tv_map_release r = TV_MAP_RELEASE_INIT;
	struct tv_mapfile mf, many[TV_MAP_RELEASE_WAYS];
	const struct tv_map_stretch *w;
	struct tv_error e;
	volatile uint8_t sum = 0;
	long all, kib;
	uint64_t off;
	unsigned i, nmany = 0;
	int fd = mkstemp(path);

	if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
		diag("cannot make a file: skipping release tests");
		if (fd >= 0)
			close(fd);
		unlink(path);
		return;
	}
	close(fd);
	if (tv_mapfile_open(&mf, path, &e) != TV_OK) {
		diag("cannot map the file: skipping release tests");
		unlink(path);
		return;
	}
	for (nmany = 0; nmany < TV_MAP_RELEASE_WAYS; nmany++)
		if (tv_mapfile_open(&many[nmany], path, &e) != TV_OK)
			break;
	for (off = 0; off < size; off += 4096)
		sum = (uint8_t)(sum + mf.data[off]);
	all = mapped_kib(mf.data);
	if (all < (long)(size / 1024 / 2) || nmany < TV_MAP_RELEASE_WAYS) {
		diag("no resident size from smaps (%ld) or no mappings (%u): "
		    "skipping", all, nmany);
		goto out;
	}
	/* packets every second unit (another worker has the rest) */
	for (off = 0; off + 2 * unit < TV_MAP_RELEASE_BATCH; off += 2 * unit)
		tv_map_release_add(&r, &mf, off, unit);
	w = way_of(&r, &mf);
	ok(w != NULL && w->off == 0 && w->end == off - unit,
	    "release: ranges near each other join one stretch");
	ok(mapped_kib(mf.data) >= all - slack,
	    "release: a short stretch stays mapped");
	tv_map_release_add(&r, &mf, off, 2 * unit);
	ok(way_of(&r, &mf) == NULL, "release: a stretch of a batch is given back");
	kib = mapped_kib(mf.data);
	ok(kib <= all - (long)(TV_MAP_RELEASE_BATCH / 1024) + slack,
	    "release: its pages are dropped (%ld of %ld KiB left)", kib, all);
	/* another mapping beside it: each has its way */
	tv_map_release_add(&r, &mf, TV_MAP_RELEASE_BATCH, unit);
	tv_map_release_add(&r, &many[0], 0, unit);
	tv_map_release_add(&r, &mf, TV_MAP_RELEASE_BATCH + unit, unit);
	w = way_of(&r, &mf);
	ok(w != NULL && w->off == TV_MAP_RELEASE_BATCH &&
	    w->end == TV_MAP_RELEASE_BATCH + 2 * unit &&
	    way_of(&r, &many[0]) != NULL,
	    "release: ranges of two mappings in turns gather side by side");
	tv_map_release_add(&r, &mf, size - unit, unit);
	w = way_of(&r, &mf);
	ok(w != NULL && w->off == size - unit && w->end == size,
	    "release: a range far past the stretch starts another");
	tv_map_release_add(&r, &mf, 0, unit);
	w = way_of(&r, &mf);
	ok(w != NULL && w->off == 0 && w->end == unit,
	    "release: a range behind the stretch starts another");
	ok(mapped_kib(mf.data) <= kib - (long)(3 * unit / 1024) + slack,
	    "release: the stretches it ended are given back");
	/* more mappings than ways: mf (way 0) and many[0] (way 1) came
	   first; many[1..] take the empty ways, then mf's */
	for (i = 1; i < nmany; i++)
		tv_map_release_add(&r, &many[i], 0, unit);
	for (i = 0; i < TV_MAP_RELEASE_WAYS; i++)
		if (r.way[i].mf == NULL)
			break;
	ok(i == TV_MAP_RELEASE_WAYS && way_of(&r, &mf) == NULL &&
	    way_of(&r, &many[nmany - 1]) == &r.way[0] &&
	    way_of(&r, &many[0]) != NULL,
	    "release: a mapping past the ways takes the first one's way");
	tv_map_release_add(&r, &mf, 2 * unit, unit);
	tv_map_release_add(&r, &many[0], 2 * unit, unit);
	ok(way_of(&r, &mf) == &r.way[1] && way_of(&r, &many[0]) == &r.way[2] &&
	    way_of(&r, &many[1]) == NULL && way_of(&r, &many[2]) != NULL,
	    "release: and the next ones the ways after it, in turn");
	tv_map_release_flush(&r);
	for (i = 0; i < TV_MAP_RELEASE_WAYS; i++)
		if (r.way[i].mf != NULL || r.way[i].end != 0)
			break;
	ok(i == TV_MAP_RELEASE_WAYS, "release: flush empties every way");
	tv_map_release_flush(&r);
	ok(way_of(&r, NULL) == &r.way[0],
	    "release: flushing an empty batch does nothing");
out:
	for (i = 0; i < nmany; i++)
		tv_mapfile_close(&many[i]);
	tv_mapfile_close(&mf);
	unlink(path);
	(void)sum;
}

/* Enum labels (signed and unsigned ranges) and value accessors. */
static void
test_field(void)
{
	struct tv_arena a;
	struct tv_field_class *en, *in, *st;
	struct tv_enum_range r[3] = { { 0, 0 }, { 1, 9 },
	    { (uint64_t)-5, (uint64_t)-1 } };
	struct tv_enum_mapping maps[3] = {
		{ "ZERO", &r[0], 1 }, { "SMALL", &r[1], 1 },
		{ "NEG", &r[2], 1 },
	};
	struct tv_value kids[2], sv;
	int64_t v;

	tv_arena_init(&a);
	en = tv_field_class_create(&a, TV_FC_ENUM);
	is_int(en->save_slot, -1, "field: no save slot by default");
	en->enumeration.maps = maps;
	en->enumeration.nmaps = 3;
	is_str(tv_enum_label(en, 0), "ZERO", "enum: exact value");
	is_str(tv_enum_label(en, 5), "SMALL", "enum: inside a range");
	is_str(tv_enum_label(en, 10), NULL, "enum: no label");
	is_str(tv_enum_label(en, (uint64_t)-3), "NEG",
	    "enum: unsigned compare of a big value");
	en->enumeration.integer.is_signed = true;
	r[2].lo = (uint64_t)-5;
	r[2].hi = 3;	/* signed: -5..3 overlaps; first label wins */
	is_str(tv_enum_label(en, (uint64_t)-2), "NEG", "enum: signed range");
	is_str(tv_enum_label(en, 2), "SMALL", "enum: first match wins");
	is_str(tv_enum_label(en, (uint64_t)-6), NULL,
	    "enum: signed below range");

	in = tv_field_class_create(&a, TV_FC_INT);
	in->integer.is_signed = true;
	st = tv_field_class_create(&a, TV_FC_STRUCT);
	memset(kids, 0, sizeof(kids));
	kids[0].fc = in;
	kids[0].name = "prev_tid";
	kids[0].s = -42;
	kids[1].fc = en;
	kids[1].name = "state";
	kids[1].u = 1;
	memset(&sv, 0, sizeof(sv));
	sv.fc = st;
	sv.kids.items = kids;
	sv.kids.count = 2;
	ok(tv_value_member(&sv, "state") == &kids[1], "value: member by name");
	ok(tv_value_member(&sv, "nope") == NULL, "value: missing member");
	ok(tv_value_as_int(tv_value_member(&sv, "prev_tid"), &v) && v == -42,
	    "value: signed int");
	ok(tv_value_as_int(&kids[1], &v) && v == 1, "value: enum as int");
	ok(!tv_value_as_int(&sv, &v), "value: struct is not an int");
	tv_arena_fini(&a);
}

/* tv_fmt_g() against snprintf's %g, the reference, byte for byte. */
static void
test_fmt_g(void)
{
	static const double fixed[] = {
		0.428571, 1.0, -1.0, 0.5, 100000.5, 100001.5, 999999.5,
		9.999995, 9.9999949, 0.0001, 0.00009999996, 0.000123456,
		123456.0, 1234567.0, 1e-5, 0.1, 0.3, 2.5e-4, 1.0 / 3.0,
		-0.0, 0.0, 12.5, 0.125, 3.14159265, 65535.99999, 1e6,
		999999.4999, 0.00048828125, 3153120.0, 3153125.0, 1e22,
		9.9999951e27, 1e28, 1.5e-17, 1e-18, 123456789012.0,
		-2.5e-9, 5e-324, 1.7976931348623157e308, 1e100, 1e-100,
	};
	char a[64], b[64];
	uint64_t seed = 88172645463325252ULL, bits;
	unsigned i, bad = 0, n = 0;
	double v;
	size_t len;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		len = tv_fmt_g(a, sizeof(a), fixed[i]);
		snprintf(b, sizeof(b), "%g", fixed[i]);
		if (strcmp(a, b) != 0 || len != strlen(b)) {
			if (bad++ < 5)
				diag("%%g of %.17g: [%s], not [%s]",
				    fixed[i], a, b);
		}
	}
	ok(bad == 0, "fmt_g: %u chosen values as printf writes them",
	    (unsigned)(sizeof(fixed) / sizeof(fixed[0])));
	/* random doubles of every scale (1e-21 to 1e27, past both ends of
	   the fast way), and short decimals near halves */
	for (i = 0; i < 400000; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		if (i % 2) {
			bits = (seed & 0x800FFFFFFFFFFFFFULL) |
			    ((uint64_t)(1023 - 70 + (seed >> 52) % 160) << 52);
			memcpy(&v, &bits, sizeof(v));
		} else {
			/* k/2 * 10^-e: ties and their neighbours */
			v = (double)(seed % 20000001) / 2.0 /
			    pow10_of((int)((seed >> 40) % 12));
			if (i % 4 == 2)	/* the same, in e-notation */
				v *= pow10_of(12 + (int)((seed >> 44) % 10));
		}
		len = tv_fmt_g(a, sizeof(a), v);
		snprintf(b, sizeof(b), "%g", v);
		n++;
		if (strcmp(a, b) != 0 || len != strlen(b)) {
			if (bad++ < 5)
				diag("%%g of %.17g: [%s], not [%s]", v, a, b);
		}
	}
	ok(bad == 0, "fmt_g: %u random values as printf writes them", n);
	/* the locale's decimal point, as printf's (when there is one) */
	if (setlocale(LC_NUMERIC, "fr_FR.UTF-8") != NULL ||
	    setlocale(LC_NUMERIC, "de_DE.UTF-8") != NULL) {
		for (i = bad = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
			(void)tv_fmt_g(a, sizeof(a), fixed[i]);
			snprintf(b, sizeof(b), "%g", fixed[i]);
			bad += strcmp(a, b) != 0;
		}
		(void)tv_fmt_g(a, sizeof(a), 3153120.5);
		ok(bad == 0 && strcmp(a, "3,15312e+06") == 0, "fmt_g: a "
		    "comma where the locale writes one");
		setlocale(LC_NUMERIC, "C");
	} else {
		tv_skip("fmt_g: no locale with a decimal comma installed");
	}
	len = tv_fmt_g(a, 8, 0.428571);
	ok(strcmp(a, "0.42857") == 0 && len == 8,
	    "fmt_g: a short buffer is printf's to cut");
}

/* Run every util test; the exit status says whether all passed. */
int
main(void)
{
	tv_plan(0);
	test_arena();
	test_strbuf();
	test_intern();
	test_error();
	test_files();
	test_release();
	test_field();
	test_fmt_g();
	return tv_done();
}
