/*
 * Unit tests of the bookmarks: every attribute form of <location>, CPU
 * optional, cycles, unknown content kept through a save, unquoted
 * attributes, malformed input, undo, and two sets saving the same file
 * (merge of concurrent edits).
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tview/bookmark.h"
#include "tview/error.h"
#include "tview/mapfile.h"
#include "tview/util.h"
#include "../tap.h"

/* Parse @xml; NULL (with a diagnostic) on failure. */
static struct tv_bookmarks *
parse(const char *xml, struct tv_error *err)
{
	struct tv_bookmarks *bms = NULL;

	tv_error_clear(err);
	if (tv_bookmarks_parse(&bms, "t.xml", xml, strlen(xml), err) != TV_OK)
		return NULL;
	return bms;
}

/* The serialized document as a string (malloc'ed). */
static char *
ser(struct tv_bookmarks *bms)
{
	char *s;
	size_t n;

	tv_bookmarks_serialize(bms, &s, &n);
	return s;
}

/* Every attribute form, CPU optional, sorted by time. */
static void
test_forms(void)
{
	struct tv_error err;
	const struct tv_bookmark *b;
	struct tv_bookmarks *bms = parse(
	    "<bookmarks>\n"
	    "<location name=\"b\" cpu=\"2\" start_time=\"3.5\" "
	    "end_time=\"4.000000001\">spike</location>\n"
	    "<location name=\"a\" time=\"1.123456789\"/>\n"
	    "<location cycle=\"18446744073709551615\">big</location>\n"
	    "<location name='c' start_cycle='10' end_cycle='20'/>\n"
	    "</bookmarks>\n", &err);

	ok(bms != NULL, "all forms parse");
	if (!bms)
		return;
	is_int((int64_t)tv_bookmarks_count(bms), 4, "four bookmarks");
	b = tv_bookmarks_get(bms, 0);
	is_str(b->name, "a", "first by time is a");
	is_int(b->start, 1123456789, "time with nine decimals");
	ok(!b->interval && b->cpu == TV_BM_NO_CPU, "instant, no CPU");
	b = tv_bookmarks_get(bms, 1);
	is_str(b->name, "b", "then b");
	is_int(b->start, 3500000000LL, "start_time");
	is_int(b->end, 4000000001LL, "end_time");
	is_int(b->cpu, 2, "cpu");
	is_str(b->text, "spike", "annotation");
	b = tv_bookmarks_get(bms, 2);
	ok(b->by_cycle && b->start == TV_TIME_NONE, "cycles unresolved sort "
	    "last");
	ok(tv_bookmarks_get(bms, 2)->start_cycle == UINT64_MAX ||
	    tv_bookmarks_get(bms, 3)->start_cycle == UINT64_MAX,
	    "64-bit cycle");
	b = tv_bookmarks_get(bms, 2)->interval ? tv_bookmarks_get(bms, 2) :
	    tv_bookmarks_get(bms, 3);
	ok(b->interval && b->start_cycle == 10 && b->end_cycle == 20,
	    "start_cycle / end_cycle");
	is_int(tv_bookmarks_next(bms, 1123456789, 1), 1, "next after a is b");
	is_int(tv_bookmarks_next(bms, 3500000000LL, -1), 0, "prev of b is a");
	is_int(tv_bookmarks_covering(bms, 3700000000LL, -1), 1,
	    "inside the interval");
	is_int(tv_bookmarks_covering(bms, 3700000000LL, 1), -1,
	    "other CPU does not count");
	is_int(tv_bookmarks_covering(bms, 2000000000LL, -1), -1,
	    "outside every bookmark");
	tv_bookmarks_destroy(bms);
}

/* Unquoted attribute values, as the format notes show them. */
static void
test_unquoted(void)
{
	struct tv_error err;
	struct tv_bookmarks *bms = parse(
	    "<bookmarks>\n"
	    "<location name=name cpu=1 start_time=10.5 end_time=11>Some "
	    "text</location>\n"
	    "</bookmarks>\n", &err);
	const struct tv_bookmark *b;

	ok(bms != NULL, "unquoted attributes parse");
	if (!bms)
		return;
	b = tv_bookmarks_get(bms, 0);
	ok(b && strcmp(b->name, "name") == 0 && b->cpu == 1 &&
	    b->start == 10500000000LL && b->end == 11000000000LL,
	    "unquoted values read");
	tv_bookmarks_destroy(bms);
}

/* Malformed input: clear path:line:col errors. */
static void
test_malformed(void)
{
	static const struct {
		const char *xml, *want;
	} cases[] = {
		{ "<bookmarks>\n<location time=\"1\">\n</bookmarks>\n",
		  "t.xml:3:" },
		{ "<bookmarks><location time=\"x\"/></bookmarks>",
		  "t.xml:1: <location> attribute time" },
		{ "<bookmarks>\n\n<location name=\"n\"/></bookmarks>",
		  "t.xml:3: <location> has neither" },
		{ "<marks/>", "not <bookmarks>" },
		{ "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
		  "<bookmarks/>", "document type" },
		{ "<bookmarks><location time=\"1.0000000001\"/></bookmarks>",
		  "attribute time" },
		{ "<bookmarks><location start_time=\"1\"/></bookmarks>",
		  "end_time" },
		{ "", "t.xml:1" },
	};
	struct tv_error err;
	char buf[1100];
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(cases); i++) {
		struct tv_bookmarks *bms = parse(cases[i].xml, &err);

		tv_error_format(&err, buf, sizeof(buf));
		ok(!bms && strstr(buf, cases[i].want) != NULL,
		    "malformed %zu: %s", i, buf);
		tv_bookmarks_destroy(bms);
	}
}

/* Unknown elements, attributes, comments survive add/edit/delete. */
static void
test_roundtrip(void)
{
	static const char xml[] =
	    "<?xml version=\"1.0\"?>\n"
	    "<!-- kept -->\n"
	    "<bookmarks xmlns:x=\"urn:x\" version=\"2\">\n"
	    "  <location name=\"a\" time=\"1.000000000\" colour=\"red\">"
	    "one<x:note>inner</x:note></location>\n"
	    "  <unknown attr=\"v\">stuff &amp; <![CDATA[<raw>]]></unknown>\n"
	    "  <location name=\"b\" time=\"2.000000000\">two</location>\n"
	    "</bookmarks>\n";
	struct tv_bookmark_spec spec = { "new", "a & b <c>", 3, true,
	    5000000000LL, 6000000000LL };
	struct tv_bookmarks *bms, *again;
	struct tv_error err;
	size_t ix;
	char *s;
	long i;

	bms = parse(xml, &err);
	ok(bms != NULL, "round-trip input parses");
	if (!bms)
		return;
	s = ser(bms);
	is_str(s, xml, "unchanged document serializes byte for byte");
	free(s);
	ok(!tv_bookmarks_dirty(bms), "unchanged set is not dirty");
	ok(tv_bookmarks_add(bms, &spec, &ix, &err) == TV_OK, "add");
	i = tv_bookmarks_find(bms, 1000000000LL);
	ok(tv_bookmarks_edit(bms, (size_t)i, "A", "uno", &err) == TV_OK,
	    "edit");
	i = tv_bookmarks_find(bms, 2000000000LL);
	tv_bookmarks_delete(bms, (size_t)i);
	s = ser(bms);
	ok(strstr(s, "<!-- kept -->") && strstr(s, "version=\"2\"") &&
	    strstr(s, "colour=\"red\"") &&
	    strstr(s, "<x:note>inner</x:note>") &&
	    strstr(s, "<unknown attr=\"v\">stuff &amp; <![CDATA[<raw>]]>"
	    "</unknown>") && !strstr(s, "two"),
	    "unknown content kept through add, edit, delete");
	ok(strstr(s, "<location name=\"new\" cpu=\"3\" "
	    "start_time=\"5.000000000\" end_time=\"6.000000000\">"
	    "a &amp; b &lt;c&gt;</location>\n</bookmarks>") != NULL,
	    "new location written quoted and escaped: %s", s);
	again = parse(s, &err);
	ok(again && tv_bookmarks_count(again) == 2, "output reads back");
	if (again) {
		const struct tv_bookmark *b = tv_bookmarks_get(again, 0);

		ok(strcmp(b->name, "A") == 0 && strcmp(b->text, "uno") == 0,
		    "edit read back");
		b = tv_bookmarks_get(again, 1);
		ok(strcmp(b->text, "a & b <c>") == 0 && b->cpu == 3 &&
		    b->interval, "new bookmark read back");
	}
	tv_bookmarks_destroy(again);
	free(s);
	ok(tv_bookmarks_undo(bms), "undo the delete");
	ok(tv_bookmarks_find(bms, 2000000000LL) >= 0, "deleted one is back");
	ok(!tv_bookmarks_undo(bms), "nothing more to undo");
	tv_bookmarks_destroy(bms);
}

/* Write @s to @path. */
static void
put(const char *path, const char *s)
{
	FILE *fp = fopen(path, "w");

	if (fp) {
		fputs(s, fp);
		fclose(fp);
	}
}

/* Two sets on one file: both saves keep both sets' changes. */
static void
test_merge(void)
{
	size_t ix;
	char dir[] = "/tmp/tv-bm-test.XXXXXX", path[256], *buf = NULL, bak[300];
	struct tv_bookmark_spec s1 = { "one", "", TV_BM_NO_CPU, false,
	    1000000000LL, 0 };
	struct tv_bookmark_spec s2 = { "two", "", 1, false, 2000000000LL, 0 };
	struct tv_bookmarks *a = NULL, *b = NULL, *c = NULL;
	struct tv_error err;
	size_t len;

	if (!mkdtemp(dir)) {
		tv_skip("mkdtemp failed");
		return;
	}
	snprintf(path, sizeof(path), "%s/trace.dat", dir);
	put(path, "x");
	snprintf(path, sizeof(path), "%s/trace.dat.bookmarks.xml", dir);
	put(path, "<bookmarks>\n<location name=old time=0.5>hand-written"
	    "</location>\n<location name=gone time=0.7/>\n</bookmarks>\n");
	snprintf(path, sizeof(path), "%s/trace.dat", dir);
	ok(tv_bookmarks_open(&a, path, &err) == TV_OK &&
	    tv_bookmarks_open(&b, path, &err) == TV_OK, "two sets open");
	if (!a || !b)
		goto out;
	ok(!tv_bookmarks_fallback(a) && strstr(tv_bookmarks_path(a),
	    "trace.dat.bookmarks.xml"), "single file: next to it");
	ok(tv_bookmarks_add(a, &s1, &ix, &err) == TV_OK, "add");
	tv_bookmarks_delete(b, (size_t)tv_bookmarks_find(b, 700000000));
	ok(tv_bookmarks_add(b, &s2, &ix, &err) == TV_OK, "add");
	ok(tv_bookmarks_save(a, &err) == TV_OK, "first save");
	ok(tv_bookmarks_save(b, &err) == TV_OK, "second save merges");
	is_int((int64_t)tv_bookmarks_count(b), 3, "b sees a's bookmark");
	ok(tv_bookmarks_open(&c, path, &err) == TV_OK, "reopen");
	if (c) {
		is_int((int64_t)tv_bookmarks_count(c), 3,
		    "file holds old, one, two");
		ok(tv_bookmarks_find(c, 500000000) >= 0 &&
		    tv_bookmarks_find(c, 1000000000) >= 0 &&
		    tv_bookmarks_find(c, 2000000000) >= 0 &&
		    tv_bookmarks_find(c, 700000000) < 0,
		    "nobody's change lost");
	}
	snprintf(bak, sizeof(bak), "%s.bak", tv_bookmarks_path(a));
	ok(tv_read_file(bak, 1 << 20, &buf, &len, NULL) == TV_OK &&
	    strstr(buf, "name=old time=0.5") != NULL,
	    ".bak holds the hand-written original");
	free(buf);
	/* A malformed file is an error and stays as it is. */
	put(tv_bookmarks_path(a), "<bookmarks><location");
	ok(tv_bookmarks_add(a, &s2, &ix, &err) == TV_OK, "add");
	ok(tv_bookmarks_save(a, &err) == TV_SYNTAX, "malformed: save refused");
	buf = NULL;
	ok(tv_read_file(tv_bookmarks_path(a), 1 << 20, &buf, &len, NULL) ==
	    TV_OK && strcmp(buf, "<bookmarks><location") == 0,
	    "malformed file not overwritten");
	free(buf);
out:
	tv_bookmarks_destroy(a);
	tv_bookmarks_destroy(b);
	tv_bookmarks_destroy(c);
	snprintf(bak, sizeof(bak), "rm -rf '%s'", dir);
	if (system(bak) != 0)
		diag("cannot remove %s", dir);
}

/* A file tview wrote itself gets no .bak when rewritten. */
static void
test_no_bak(void)
{
	size_t ix;
	char dir[] = "/tmp/tv-bm-test.XXXXXX", path[256], bak[300];
	struct tv_bookmark_spec s1 = { "one", "", TV_BM_NO_CPU, false,
	    1000000000LL, 0 };
	struct tv_bookmarks *a = NULL;
	struct tv_error err;

	if (!mkdtemp(dir)) {
		tv_skip("mkdtemp failed");
		return;
	}
	ok(tv_bookmarks_open(&a, dir, &err) == TV_OK, "directory trace opens");
	if (a) {
		snprintf(path, sizeof(path), "%s/info/bookmarks.xml", dir);
		is_str(tv_bookmarks_path(a), path, "DIR/info/bookmarks.xml");
		ok(tv_bookmarks_add(a, &s1, &ix, &err) == TV_OK, "add");
		ok(tv_bookmarks_save(a, &err) == TV_OK, "creates info/");
		s1.start = 2000000000LL;
		ok(tv_bookmarks_add(a, &s1, &ix, &err) == TV_OK, "add");
		ok(tv_bookmarks_save(a, &err) == TV_OK, "second save");
		snprintf(bak, sizeof(bak), "%s.bak", path);
		ok(access(bak, F_OK) != 0, "no .bak of tview's own file");
		ok(!tv_bookmarks_dirty(a) && tv_bookmarks_save(a, &err) ==
		    TV_OK, "nothing to save: nothing written");
	}
	tv_bookmarks_destroy(a);
	snprintf(bak, sizeof(bak), "rm -rf '%s'", dir);
	if (system(bak) != 0)
		diag("cannot remove %s", dir);
}

/* Text that would make the saved XML unreadable is refused. */
static void
test_text_check(void)
{
	static const char *const good[] = {
		"", "plain", "tab\there", "two\nlines", "cr\r", "caf\xc3\xa9",
		"\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf",
		"& < > \" '", "\x7f",
	};
	static const char *const bad[] = {
		"\x01", "a\x1b[31m", "\x0c", "\xc3", "\xc3(", "\xc0\xaf",
		"\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		"\xef\xbf\xbe", "\xef\xbf\xbf", "\xff", "\x80", "\xf8\x88\x80\x80\x80",
	};
	struct tv_bookmark_spec spec = { "n", "", TV_BM_NO_CPU, false,
	    1000000000LL, 0 };
	struct tv_bookmarks *bms = tv_bookmarks_create();
	struct tv_error err;
	size_t i, ix;
	char *big, *s;

	for (i = 0; i < TV_ARRAY_SIZE(good); i++)
		ok(tv_bookmark_text_check(good[i], &err) == TV_OK,
		    "accepted: good[%zu]", i);
	for (i = 0; i < TV_ARRAY_SIZE(bad); i++) {
		tv_error_clear(&err);
		ok(tv_bookmark_text_check(bad[i], &err) == TV_UNSUPPORTED &&
		    err.msg[0], "refused with a message: bad[%zu]", i);
	}
	big = malloc(TV_BM_MAX_TEXT + 2);
	memset(big, 'x', TV_BM_MAX_TEXT + 1);
	big[TV_BM_MAX_TEXT + 1] = '\0';
	ok(tv_bookmark_text_check(big, &err) == TV_UNSUPPORTED,
	    "longer than TV_BM_MAX_TEXT refused");
	big[TV_BM_MAX_TEXT] = '\0';
	ok(tv_bookmark_text_check(big, &err) == TV_OK,
	    "TV_BM_MAX_TEXT bytes accepted");
	free(big);

	spec.text = "bell\a";
	ok(tv_bookmarks_add(bms, &spec, &ix, &err) == TV_UNSUPPORTED,
	    "add refuses a control character in the text");
	spec.text = "";
	spec.name = "\xc3";
	ok(tv_bookmarks_add(bms, &spec, &ix, &err) == TV_UNSUPPORTED,
	    "add refuses a name that is not UTF-8");
	ok(tv_bookmarks_count(bms) == 0 && !tv_bookmarks_dirty(bms),
	    "nothing added");
	spec.name = "ok";
	ok(tv_bookmarks_add(bms, &spec, &ix, &err) == TV_OK, "a good one");
	ok(tv_bookmarks_edit(bms, ix, "ok", "\x02", &err) == TV_UNSUPPORTED,
	    "edit refuses a control character");
	ok(strcmp(tv_bookmarks_get(bms, ix)->text, "") == 0, "not changed");
	ok(tv_bookmarks_edit(bms, 5, "a", "b", &err) == TV_NOT_FOUND,
	    "edit of no bookmark");
	s = ser(bms);
	tv_bookmarks_destroy(bms);
	bms = parse(s, &err);
	ok(bms && tv_bookmarks_count(bms) == 1, "what was accepted reads back");
	tv_bookmarks_destroy(bms);
	free(s);
}

/* @ascii as UTF-16LE with a BOM, in @out (@len bytes; malloc'ed). */
static char *
utf16(const char *ascii, size_t *len)
{
	size_t n = strlen(ascii), i;
	char *out = malloc(2 * n + 2);

	out[0] = (char)0xff;
	out[1] = (char)0xfe;
	for (i = 0; i < n; i++) {
		out[2 + 2 * i] = ascii[i];
		out[3 + 2 * i] = 0;
	}
	*len = 2 * n + 2;
	return out;
}

/*
 * A UTF-16 bookmarks.xml: read, added to, saved as UTF-8 with every
 * bookmark (the original in .bak), read again.  A DOCTYPE in UTF-16 is
 * refused like one in UTF-8.
 */
static void
test_utf16(void)
{
	char dir[] = "/tmp/tv-bm-test.XXXXXX", path[300], cmd[300];
	char *x, *buf = NULL;
	struct tv_bookmark_spec s1 = { "b", "added", TV_BM_NO_CPU, false,
	    2000000000LL, 0 };
	struct tv_bookmarks *a = NULL, *c = NULL;
	struct tv_error err;
	size_t len, blen, ix;
	FILE *fp;

	x = utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<bookmarks>"
	    "<location name=\"a\" time=\"1.0\">hello</location></bookmarks>\n",
	    &len);
	ok(tv_bookmarks_parse(&a, "u.xml", x, len, &err) == TV_OK &&
	    tv_bookmarks_count(a) == 1 &&
	    strcmp(tv_bookmarks_get(a, 0)->text, "hello") == 0,
	    "UTF-16 parses");
	if (a) {
		char *s;
		size_t n;

		tv_bookmarks_serialize(a, &s, &n);
		ok(n == strlen(s) && strstr(s, "encoding=\"UTF-8\"") &&
		    strstr(s, ">hello</location>"),
		    "serialized as UTF-8, its length is its length");
		free(s);
	}
	tv_bookmarks_destroy(a);
	a = NULL;
	if (!mkdtemp(dir)) {
		tv_skip("mkdtemp failed");
		free(x);
		return;
	}
	snprintf(path, sizeof(path), "%s/info", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/info/bookmarks.xml", dir);
	fp = fopen(path, "wb");
	if (fp) {
		fwrite(x, 1, len, fp);
		fclose(fp);
	}
	ok(tv_bookmarks_open(&a, dir, &err) == TV_OK, "UTF-16 file opens");
	if (a) {
		ok(tv_bookmarks_add(a, &s1, &ix, &err) == TV_OK, "add");
		ok(tv_bookmarks_save(a, &err) == TV_OK, "save");
	}
	ok(tv_read_file(path, 1 << 20, &buf, &blen, NULL) == TV_OK &&
	    blen == strlen(buf) && strncmp(buf, "<?xml", 5) == 0,
	    "the file is text (no NUL, no heap bytes)");
	free(buf);
	ok(tv_bookmarks_open(&c, dir, &err) == TV_OK && c &&
	    tv_bookmarks_count(c) == 2 &&
	    tv_bookmarks_find(c, 1000000000LL) >= 0 &&
	    tv_bookmarks_find(c, 2000000000LL) >= 0,
	    "reopened: both bookmarks");
	snprintf(path, sizeof(path), "%s/info/bookmarks.xml.bak", dir);
	buf = NULL;
	ok(tv_read_file(path, 1 << 20, &buf, &blen, NULL) == TV_OK &&
	    blen == len && memcmp(buf, x, len) == 0,
	    ".bak is the UTF-16 original");
	free(buf);
	tv_bookmarks_destroy(a);
	tv_bookmarks_destroy(c);
	free(x);

	x = utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n"
	    "<!DOCTYPE bookmarks [<!ENTITY who \"entity-text\">]>\n"
	    "<bookmarks><location name=\"a\" time=\"1.0\">&who;</location>"
	    "</bookmarks>\n", &len);
	a = NULL;
	tv_error_clear(&err);
	ok(tv_bookmarks_parse(&a, "d.xml", x, len, &err) == TV_SYNTAX &&
	    !a && strstr(err.msg, "document type") && err.line == 2,
	    "UTF-16 DOCTYPE refused at line 2: %s", err.msg);
	free(x);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("cannot remove %s", dir);
}

/* Times: format and parse agree; bad values refused. */
static void
test_time(void)
{
	char buf[64];
	int64_t ns = 0;

	is_str(tv_bookmark_format_time(-1500000000LL, buf, sizeof(buf)),
	    "-1.500000000", "negative time");
	ok(tv_bookmark_parse_time("1351530909.000000010", &ns) &&
	    ns == 1351530909000000010LL, "epoch seconds");
	ok(!tv_bookmark_parse_time("1e3", &ns), "1e3 refused");
	ok(!tv_bookmark_parse_time("99999999999999999999", &ns),
	    "overflow refused");
	ok(tv_bookmark_parse_time(" 7 ", &ns) && ns == 7000000000LL,
	    "blanks around");
}

int
main(void)
{
	tv_plan(0);
	test_forms();
	test_unquoted();
	test_malformed();
	test_roundtrip();
	test_merge();
	test_no_bak();
	test_time();
	test_text_check();
	test_utf16();
	return tv_done();
}
