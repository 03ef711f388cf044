/*
 * The LTT event-definition parser (ltt-eventdefs.c) and the payload
 * classes built from it (ltt-xvalue.c): hand-written XML covering every
 * element (facility, event, type/typeref, struct, union, array, sequence
 * in both spellings, enum with labels/values and with words, int/uint/
 * float/string/pointer/long/size_t and short/medium/long/1/2/4/8 sizes),
 * the lenient syntax of the old files (unquoted values, open primitive
 * elements), same-name facilities with different checksums, malformed XML
 * and bad definitions refused with file:line, then every facility file of
 * $TVIEW_SHARED/traces/ltt-facilities (skipped without it).
 */
#include "tview/tview.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tview/error.h"
#include "tview/util.h"
#include "../../src/formats/ltt/ltt-xml.h"
#include "../tap.h"

/* Parse @xml as file "t.xml" into @d; the status. */
static enum tv_status
parse(struct ltt_xdefs *d, const char *xml, struct tv_error *err)
{
	tv_error_clear(err);
	return ltt_xdefs_parse(d, "t.xml", xml, strlen(xml), err);
}

/* Every element, in the new format's unquoted style. */
static void
test_elements(void)
{
	static const char xml[] =
	    "<facility name=f>\n"
	    "<description>d</description>\n"
	    "<event name=e1><struct>\n"
	    " <field name=a><int size=short/></field>\n"
	    " <field name=b><uint size=medium/></field>\n"
	    " <field name=c><int size=long/></field>\n"
	    " <field name=d><uint size=8/></field>\n"
	    " <field name=e><float size=medium/></field>\n"
	    " <field name=f><float size=long/></field>\n"
	    " <field name=g><string/></field>\n"
	    " <field name=h><pointer/></field>\n"
	    " <field name=i><long/></field>\n"
	    " <field name=j><size_t/></field>\n"
	    " <field name=k><enum size=1>A B C</enum></field>\n"
	    " <field name=l><array size=4><uint size=1/></array></field>\n"
	    " <field name=m><sequence lengthsize=2><int size=4/></sequence>"
	    "</field>\n"
	    " <field name=n><union typecodesize=1>"
	    "<field name=x><int size=4/></field>"
	    "<field name=y><string/></field></union></field>\n"
	    " <field name=o><typeref name=t/></field>\n"
	    "</struct></event>\n"
	    "<event name=e2><typeref name=t/></event>\n"
	    "<event name=e3></event>\n"
	    "<type name=t><struct><field name=p><enum size=2>"
	    "<label name=P value=7/><label name=Q/></enum></field></struct>"
	    "</type>\n"
	    "</facility>\n";
	struct ltt_xsizes sz = { 4, 8, 8, 8, 0, TV_BO_LE };
	struct tv_field_class *fc;
	struct tv_arena a;
	struct ltt_xdefs d;
	struct tv_error err;
	const struct ltt_xtype *t;

	tv_arena_init(&a);
	ltt_xdefs_init(&d, &a);
	is_int(parse(&d, xml, &err), TV_OK, "every element parses: %s",
	    err.msg);
	is_int(d.nfacs, 1, "one facility");
	if (d.nfacs != 1)
		goto out;
	is_int(d.facs[0].nevents, 3, "three events");
	t = d.facs[0].events[0].type;
	is_int(t->nfields, 15, "e1 has 15 fields");
	is_int(t->fields[0].type->bytes, 1, "short = 1 byte");
	is_int(t->fields[1].type->bytes, 2, "medium = 2 bytes");
	is_int(t->fields[2].type->bytes, 4, "long = 4 bytes");
	is_int(t->fields[4].type->bytes, 4, "float medium = 4 bytes");
	is_int(t->fields[5].type->bytes, 8, "float long = 8 bytes");
	is_int(t->fields[10].type->nlabels, 3, "enum words as labels");
	is_int(t->fields[10].type->labels[2].value, 2, "word labels count");
	is_int(t->fields[11].type->length, 4, "array size");
	is_int(t->fields[12].type->len->bytes, 2, "sequence lengthsize");
	is_int(t->fields[13].type->nfields, 2, "union options");
	is_int(t->fields[14].type->kind, LTT_X_STRUCT, "typeref resolved");
	is_int(t->fields[14].type->fields[0].type->labels[1].value, 8,
	    "label value follows the previous one");
	ok(d.facs[0].events[1].type &&
	    d.facs[0].events[1].type->kind == LTT_X_STRUCT,
	    "event given by a typeref");
	ok(d.facs[0].events[2].type == NULL, "event without payload");
	fc = ltt_xtype_fc(t, &sz, &a);
	is_int(fc->structure.members[7].fc->integer.size, 64,
	    "pointer takes pointer_size");
	is_int(fc->structure.members[7].fc->integer.base, 16,
	    "pointers print in hex");
	is_int(fc->structure.members[0].fc->integer.is_signed, 1,
	    "int is signed");
	is_int(fc->structure.members[12].fc->kind, TV_FC_SEQUENCE,
	    "sequence class");
	is_int(fc->structure.members[13].fc->kind, TV_FC_VARIANT,
	    "union class");
	is_int(ltt_fc_fixed_size(fc, 0), -1, "a string makes it vary");
	{
		/* Decode a small fixed payload and print it. */
		static const char x2[] = "<facility name=g><event name=e>"
		    "<field name=a><uint size=2/></field>"
		    "<field name=b><enum size=1><label name=Z value=3/>"
		    "</enum></field>"
		    "<field name=c><sequence><uint size=1/><uchar/>"
		    "</sequence></field></event></facility>";
		static const uint8_t data[] = { 0x34, 0x12, 3, 2, 'h', 'i' };
		struct tv_strbuf sb;
		struct tv_value v;
		uint64_t pos = 0;

		is_int(parse(&d, x2, &err), TV_OK, "second facility");
		fc = ltt_xtype_fc(d.facs[1].events[0].type, &sz, &a);
		is_int(ltt_xdecode(fc, data, &pos, sizeof(data), 0, &a, &v,
		    0), TV_OK, "decode");
		is_int(pos, 6, "decoded every byte");
		tv_strbuf_init(&sb);
		ltt_xprint_value(&sb, &v);
		is_str(sb.buf, "{ a = 4660, b = Z, c = { 104, 105 } }",
		    "textDump rendering");
		tv_strbuf_fini(&sb);
		pos = 0;
		is_int(ltt_xdecode(fc, data, &pos, 5, 0, &a, &v, 0),
		    TV_CORRUPT, "truncated payload refused");
	}
out:
	ltt_xdefs_fini(&d);
	tv_arena_fini(&a);
}

/* The facility-era spelling and same-name facilities. */
static void
test_lenient_and_checksums(void)
{
	static const char v1[] =
	    "<?xml version=\"1.0\"?>\n<facility name=\"fs\">\n"
	    "<event name=\"open\"><field name=\"f\"><sequence><uint/><uchar/>"
	    "</sequence></field><field name=\"p\"><pointer></field>"
	    "</event></facility>\n";
	static const char v2[] =
	    "<facility name=fs><event name=open><field name=f><string/>"
	    "</field></event></facility>\n";
	struct tv_arena a;
	struct ltt_xdefs d;
	struct tv_error err;
	const struct ltt_xfacility *f;

	tv_arena_init(&a);
	ltt_xdefs_init(&d, &a);
	is_int(parse(&d, v1, &err), TV_OK, "open <pointer> is closed: %s",
	    err.msg);
	is_int(parse(&d, v2, &err), TV_OK, "second fs");
	if (d.nfacs == 2) {
		ok(d.facs[0].checksum != d.facs[1].checksum,
		    "different definitions, different checksums");
		f = ltt_xdefs_find(&d, "fs", d.facs[1].checksum, false);
		ok(f == &d.facs[1], "found by checksum");
		f = ltt_xdefs_find(&d, "fs", 12345, false);
		ok(f == NULL, "no match without fallback");
		f = ltt_xdefs_find(&d, "fs", 12345, true);
		ok(f == &d.facs[0], "fallback to the first of the name");
		is_int(d.facs[0].events[0].type->fields[0].type->len->sizek,
		    LTT_XS_INT, "<uint/> takes int_size");
	}
	ltt_xdefs_fini(&d);
	tv_arena_fini(&a);
}

/* Malformed XML and bad definitions: file:line errors. */
static void
test_errors(void)
{
	static const struct {
		const char	*xml;
		enum tv_status	 st;
		uint32_t	 line;
		const char	*what;
	} cases[] = {
		{ "<facility name=f>\n<event name=e>\n</facility>\n",
		  TV_SYNTAX, 3, "mismatched tag" },
		{ "<facility name=f>\n<event name=e><field name=a>"
		  "<typeref name=nope/></field></event></facility>",
		  TV_SEMANTIC, 2, "unknown typeref" },
		{ "<facility name=f>\n\n<event name=e><field name=a>"
		  "<int size=3/></field></event></facility>",
		  TV_SEMANTIC, 3, "bad integer size" },
		{ "<facility name=f><type name=t><typeref name=t/></type>\n"
		  "<event name=e><typeref name=t/></event></facility>",
		  TV_SEMANTIC, 1, "typeref loop" },
		{ "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n"
		  "<facility name=f>&e;</facility>", TV_SYNTAX, 1,
		  "DOCTYPE refused" },
		{ "<facility name=f><event name=e><field name=a>"
		  "<array size=99999999><int size=1/></array></field>"
		  "</event></facility>", TV_SEMANTIC, 1, "huge array" },
		{ "<facility name=f><event name=e><field name=a>\n"
		  "<array size=1000000><struct></struct></array></field>"
		  "</event></facility>", TV_SEMANTIC, 2,
		  "array of empty structs" },
		{ "<facility name=f><event name=e><field name=a>\n"
		  "<sequence lengthsize=4><array size=0><int size=1/></array>"
		  "</sequence></field></event></facility>", TV_SEMANTIC, 2,
		  "sequence of empty arrays" },
		{ NULL, TV_SEMANTIC, 0, "typerefs expanding to a huge tree" },
		{ "<facility><event name=e/></facility>", TV_SEMANTIC, 1,
		  "facility without a name" },
		{ "<facility name=f><event name=e><field name=a><frob/>"
		  "</field></event></facility>", TV_SEMANTIC, 1,
		  "unknown element" },
		{ "<facility name=f", TV_SYNTAX, 1, "truncated" },
		{ "", TV_SYNTAX, 1, "empty file" },
	};
	struct tv_arena a;
	struct ltt_xdefs d;
	struct tv_error err;
	char line[1024];
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(cases); i++) {
		struct tv_strbuf big;
		int k, m;

		tv_arena_init(&a);
		ltt_xdefs_init(&d, &a);
		tv_strbuf_init(&big);
		if (!cases[i].xml) {
			/* t0 empty; t(k) has 64 members of t(k-1): 64^6. */
			tv_strbuf_adds(&big, "<facility name=f>\n"
			    "<type name=t0><struct></struct></type>\n");
			for (k = 1; k <= 6; k++) {
				tv_strbuf_addf(&big, "<type name=t%d><struct>",
				    k);
				for (m = 0; m < 64; m++)
					tv_strbuf_addf(&big, "<field name=f%d>"
					    "<typeref name=t%d/></field>", m,
					    k - 1);
				tv_strbuf_adds(&big, "</struct></type>\n");
			}
			tv_strbuf_adds(&big, "<event name=e><typeref name=t6/>"
			    "</event></facility>\n");
		}
		is_int(parse(&d, cases[i].xml ? cases[i].xml : big.buf,
		    &err), cases[i].st, "%s", cases[i].what);
		tv_strbuf_fini(&big);
		if (!cases[i].xml) {
			ok(err.line >= 2, "%s: at a line (%u)", cases[i].what,
			    (unsigned)err.line);
			ltt_xdefs_fini(&d);
			tv_arena_fini(&a);
			continue;
		}
		is_int(err.line, cases[i].line, "%s: line %u: %s",
		    cases[i].what, (unsigned)cases[i].line,
		    tv_error_format(&err, line, sizeof(line)));
		ok(strncmp(line, "t.xml:", 6) == 0, "%s: names the file",
		    cases[i].what);
		ltt_xdefs_fini(&d);
		tv_arena_fini(&a);
	}
}

/* Every XML file of the shared facility definitions parses. */
static void
test_shared(void)
{
	const char *root = getenv("TVIEW_SHARED");
	struct tv_arena a;
	struct ltt_xdefs d;
	struct tv_error err;
	struct dirent **ents = NULL;
	char dir[1024], path[2048], line[1024];
	uint32_t events = 0, i;
	int n, k, files = 0;

	if (root)
		snprintf(dir, sizeof(dir), "%s/traces/ltt-facilities", root);
	if (!root || (n = scandir(dir, &ents, NULL, alphasort)) < 0) {
		tv_skip("no shared facility definitions ($TVIEW_SHARED)");
		return;
	}
	tv_arena_init(&a);
	ltt_xdefs_init(&d, &a);
	for (k = 0; k < n; k++) {
		size_t len = strlen(ents[k]->d_name);

		if (len > 4 && strcmp(ents[k]->d_name + len - 4, ".xml") == 0) {
			snprintf(path, sizeof(path), "%s/%s", dir,
			    ents[k]->d_name);
			tv_error_clear(&err);
			ok(ltt_xdefs_load_file(&d, path, &err) == TV_OK,
			    "%s parses%s%s", ents[k]->d_name,
			    err.status ? ": " : "", err.status ?
			    tv_error_format(&err, line, sizeof(line)) : "");
			files++;
		}
		free(ents[k]);
	}
	free(ents);
	for (i = 0; i < d.nfacs; i++) {
		struct ltt_xsizes sz = { 4, 4, 4, 4, 4, TV_BO_LE };
		uint32_t j;

		events += d.facs[i].nevents;
		for (j = 0; j < d.facs[i].nevents; j++)
			if (d.facs[i].events[j].type)
				(void)ltt_xtype_fc(d.facs[i].events[j].type,
				    &sz, &a);
	}
	ok(files >= 20, "%d facility files", files);
	ok(d.nfacs == (uint32_t)files, "one facility per file (%u)",
	    d.nfacs);
	ok(ltt_xdefs_find(&d, "kernel_arch", 0, true) != NULL &&
	    d.nfacs > 1, "several kernel_arch facilities");
	diag("%u facilities, %u events", d.nfacs, events);
	ltt_xdefs_fini(&d);
	tv_arena_fini(&a);
}

/*
 * A label at INT64_MAX followed by one without a value (found by
 * fuzz-ltt-xml): the next default wraps instead of overflowing, which
 * the UBSan build of the suite would report.
 */
static void
test_label_wrap(void)
{
	static const char x[] = "<facility name=f><event name=e>"
	    "<field name=k><enum size=8>"
	    "<label name=A value=9223372036854775807/><label name=B/>"
	    "</enum></field></event></facility>";
	struct tv_arena a;
	struct ltt_xdefs d;
	struct tv_error err;

	tv_arena_init(&a);
	ltt_xdefs_init(&d, &a);
	is_int(parse(&d, x, &err), TV_OK, "a label at INT64_MAX, then one "
	    "without a value: %s", err.msg);
	ltt_xdefs_fini(&d);
	tv_arena_fini(&a);
}

/* Entry point. */
int
main(void)
{
	tv_plan(0);
	test_elements();
	test_lenient_and_checksums();
	test_errors();
	test_shared();
	test_label_wrap();
	return tv_done();
}
