/*
 * Unit tests of the browser's text: escaping of control bytes and invalid
 * UTF-8, integers in their declared base, one-line values (structs,
 * arrays, text arrays, enums, variants), display widths, and the keymap
 * table (every key maps to one request, every request has a name), and
 * plain-text search patterns against PCRE2.
 */
#include "../../src/ui/ui-priv.h"
#include "../tap.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

/* Escape @len bytes of @s and compare with @want. */
static void
check_escape(const char *s, size_t len, const char *want, const char *what)
{
	struct tv_strbuf sb;

	tv_strbuf_init(&sb);
	tv_ui_escape(&sb, s, len);
	is_str(sb.buf ? sb.buf : "", want, "escape: %s", what);
	tv_strbuf_fini(&sb);
}

/* Control bytes, quotes, invalid and valid UTF-8. */
static void
test_escape(void)
{
	check_escape("plain", 5, "plain", "plain text unchanged");
	check_escape("a\nb\tc", 5, "a\\nb\\tc", "newline and tab");
	check_escape("\x1b[31m", 5, "\\x1b[31m", "ESC of a colour sequence");
	check_escape("q\"b\\", 4, "q\\\"b\\\\", "quote and backslash");
	check_escape("\x7f", 1, "\\x7f", "DEL");
	check_escape("caf\xc3\xa9", 5, "caf\xc3\xa9", "valid UTF-8 kept");
	check_escape("\xff\xfe", 2, "\\xff\\xfe", "invalid bytes");
	check_escape("\xc3", 1, "\\xc3", "truncated sequence");
	check_escape("\xc0\xaf", 2, "\\xc0\\xaf", "overlong encoding");
	check_escape("\xed\xa0\x80", 3, "\\xed\\xa0\\x80", "surrogate");
	check_escape("\xc2\x9b", 2, "\\xc2\\x9b", "C1 control (CSI)");
	check_escape("a\0b", 3, "a\\x00b", "NUL inside a string");
}

/* An integer value of @bits bits in @base. */
static void
check_int(uint64_t v, uint8_t base, bool sgn, uint32_t bits,
    const char *want)
{
	struct tv_field_class fc;
	struct tv_value val;
	struct tv_strbuf sb;

	memset(&fc, 0, sizeof(fc));
	memset(&val, 0, sizeof(val));
	fc.kind = TV_FC_INT;
	fc.integer.size = bits;
	fc.integer.base = base;
	fc.integer.is_signed = sgn;
	val.fc = &fc;
	val.u = v;
	tv_strbuf_init(&sb);
	tv_ui_render_value(&sb, &val);
	is_str(sb.buf, want, "int base %u: %s", base, want);
	tv_strbuf_fini(&sb);
}

/* Bases 2, 8, 10, 16, signed and unsigned. */
static void
test_ints(void)
{
	check_int(255, 16, false, 32, "0xff");
	check_int(8, 8, false, 32, "010");
	check_int(5, 2, false, 4, "0b0101");
	check_int(42, 10, false, 32, "42");
	check_int((uint64_t)-7, 10, true, 32, "-7");
	check_int(UINT64_MAX, 10, false, 64, "18446744073709551615");
}

/* Struct with a string, a text array, a number array, an enum. */
static void
test_compound(void)
{
	struct tv_field_class fi, fchar, farr, ftext, fstr, fenum, fst, fvar;
	struct tv_enum_range r = { 1, 1 };
	struct tv_enum_mapping map = { "RUNNING", &r, 1 };
	struct tv_value kids[5], arr[3], text[4], opt, st;
	struct tv_strbuf sb;
	int i;

	memset(&fi, 0, sizeof(fi));
	fi.kind = TV_FC_INT;
	fi.integer.size = 32;
	fi.integer.base = 10;
	fchar = fi;
	fchar.integer.size = 8;
	fchar.integer.encoding = TV_ENC_UTF8;
	memset(&farr, 0, sizeof(farr));
	farr.kind = TV_FC_ARRAY;
	farr.array.elem = &fi;
	farr.array.length = 3;
	ftext = farr;
	ftext.array.elem = &fchar;
	ftext.array.length = 4;
	memset(&fstr, 0, sizeof(fstr));
	fstr.kind = TV_FC_STRING;
	memset(&fenum, 0, sizeof(fenum));
	fenum.kind = TV_FC_ENUM;
	fenum.enumeration.integer = fi.integer;
	fenum.enumeration.maps = &map;
	fenum.enumeration.nmaps = 1;
	memset(&fst, 0, sizeof(fst));
	fst.kind = TV_FC_STRUCT;
	memset(&fvar, 0, sizeof(fvar));
	fvar.kind = TV_FC_VARIANT;

	memset(kids, 0, sizeof(kids));
	memset(arr, 0, sizeof(arr));
	memset(text, 0, sizeof(text));
	for (i = 0; i < 3; i++) {
		arr[i].fc = &fi;
		arr[i].u = (uint64_t)i + 1;
	}
	for (i = 0; i < 4; i++)
		text[i].fc = &fchar;
	text[0].u = 'a';
	text[1].u = '\n';
	text[2].u = 0;
	text[3].u = 'z';	/* after the NUL: not shown */
	kids[0].fc = &fstr;
	kids[0].name = "comm";
	kids[0].str.ptr = "sh\x1b";
	kids[0].str.len = 3;
	kids[1].fc = &farr;
	kids[1].name = "nums";
	kids[1].kids.items = arr;
	kids[1].kids.count = 3;
	kids[2].fc = &ftext;
	kids[2].name = "txt";
	kids[2].kids.items = text;
	kids[2].kids.count = 4;
	kids[3].fc = &fenum;
	kids[3].name = "state";
	kids[3].u = 1;
	memset(&opt, 0, sizeof(opt));
	opt.fc = &fi;
	opt.name = "small";
	opt.u = 9;
	kids[4].fc = &fvar;
	kids[4].name = "v";
	kids[4].kids.items = &opt;
	kids[4].kids.count = 1;
	memset(&st, 0, sizeof(st));
	st.fc = &fst;
	st.kids.items = kids;
	st.kids.count = 5;

	tv_strbuf_init(&sb);
	tv_ui_render_value(&sb, &st);
	is_str(sb.buf, "{ comm = \"sh\\x1b\", nums = [ 1, 2, 3 ], "
	    "txt = \"a\\n\", state = RUNNING, v = { small = 9 } }",
	    "struct rendered on one line");
	tv_strbuf_reset(&sb);
	kids[3].u = 7;
	tv_ui_render_value(&sb, &kids[3]);
	is_str(sb.buf, "(7)", "enum without a label shows the number");
	tv_strbuf_fini(&sb);
}

/* Columns of ASCII, accented and wide characters. */
static void
test_width(void)
{
	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		tv_skip("no C.UTF-8 locale");
		tv_skip("no C.UTF-8 locale");
		tv_skip("no C.UTF-8 locale");
		return;
	}
	is_int(tv_ui_width("abc"), 3, "width: ASCII");
	is_int(tv_ui_width("caf\xc3\xa9"), 4, "width: accented letter");
	is_int(tv_ui_width("\xe6\x97\xa5\xe6\x9c\xac"), 4,
	    "width: two CJK characters are four columns");
}

/* One request per key; every request named; every binding labelled. */
static void
test_keymap(void)
{
	const struct tv_ui_binding *b;
	size_t n, i, j;
	bool unique = true, labelled = true, lookup = true, named = true;
	int r;

	b = tv_ui_keymap(&n);
	ok(n >= 30, "keymap: %zu bindings", n);
	for (i = 0; i < n; i++) {
		labelled &= b[i].label && b[i].label[0];
		lookup &= tv_ui_keymap_lookup(b[i].key) == b[i].req;
		for (j = 0; j < i; j++)
			unique &= b[j].key != b[i].key;
	}
	ok(unique, "keymap: no key bound twice");
	ok(labelled, "keymap: every binding has a label for the help");
	ok(lookup, "keymap: lookup finds every binding");
	ok(tv_ui_keymap_lookup('Z' + 1000) == TV_UI_REQ_NONE,
	    "keymap: unbound key is NONE");
	for (r = 0; r < TV_UI_REQ_COUNT; r++)
		named &= strcmp(tv_ui_req_name((enum tv_ui_req)r), "?") != 0 &&
		    tv_ui_req_help((enum tv_ui_req)r)[0] != '\0';
	ok(named, "requests: every one has a name and a help text");
	is_str(tv_ui_req_name(TV_UI_REQ_PAGE_DOWN), "page-down",
	    "requests: names come from the X-macro");
}

/*
 * Plain-text patterns (literal.c): what counts as one, its anchors, and
 * tv_ui_literal_find() against PCRE2 with the browser's options on
 * subjects with upper case, non-ASCII and invalid UTF-8 bytes.
 */
static void
test_literal(void)
{
	static const char *const pats[] = {
		"prev_prio", "Wait", "a\\.b", "9:28", "x86", "zq9x", "thread",
		"THREAD", "_one_to_one", "0x7f",
	};
	static const char *const subjects[] = {
		"sched_switch: prev_prio = 20", "PREV_PRIO", "Waiting", "WAIT",
		"a.b", "axb", "09:28:46.0", "X86_64", "\xe2\x84\xaathread",
		"th\xffREAD", "\xc3thread\xc3", "_One_To_One-427932",
		"buf = 0x7F08", "prev_pri", "",
	};
	struct tv_ui_literal lit;
	pcre2_code *re;
	pcre2_match_data *md;
	PCRE2_SIZE off;
	uint32_t opts;
	size_t i, j;
	int code, diff = 0;
	bool want;

	ok(tv_ui_literal_compile("prev_prio", true, &lit) &&
	    lit.nanchors == 4, "literal: prev_prio, caseless: anchors p, r, "
	    "v, o (e is hex, i of inf)");
	ok(tv_ui_literal_compile("Wait", false, &lit) && lit.nanchors == 1,
	    "literal: Wait, case kept: only W is never generated");
	ok(tv_ui_literal_compile("a\\.b", true, &lit) && lit.len == 3 &&
	    memcmp(lit.s, "a.b", 3) == 0, "literal: an escaped dot is a dot");
	ok(tv_ui_literal_compile("9:28", true, &lit) && lit.anchors == 0,
	    "literal: digits and colons have no anchor");
	ok(!tv_ui_literal_compile("a b", true, &lit) && !lit.ok,
	    "literal: no white space");
	ok(!tv_ui_literal_compile("a.b", true, &lit) &&
	    !tv_ui_literal_compile("a+", true, &lit) &&
	    !tv_ui_literal_compile("\\d", true, &lit) &&
	    !tv_ui_literal_compile("(x)", true, &lit) &&
	    !tv_ui_literal_compile("", true, &lit),
	    "literal: regex syntax, an escaped letter, nothing: not plain");
	ok(!tv_ui_literal_compile("kthread", true, &lit) &&
	    !tv_ui_literal_compile("sched", true, &lit) &&
	    tv_ui_literal_compile("Kthread", false, &lit),
	    "literal: k and s only when case is kept (Unicode folds them)");
	ok(!tv_ui_literal_compile("\xc3\xa9t\xc3\xa9", false, &lit),
	    "literal: ASCII only");
	for (i = 0; i < TV_ARRAY_SIZE(pats); i++) {
		bool caseless = true;

		for (j = 0; pats[i][j]; j++)
			if (pats[i][j] >= 'A' && pats[i][j] <= 'Z')
				caseless = false;
		if (!tv_ui_literal_compile(pats[i], caseless, &lit)) {
			diff++;
			diag("literal: %s not plain text", pats[i]);
			continue;
		}
		opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF |
		    (caseless ? PCRE2_CASELESS : 0);
		re = pcre2_compile((PCRE2_SPTR)pats[i], PCRE2_ZERO_TERMINATED,
		    opts, &code, &off, NULL);
		md = pcre2_match_data_create_from_pattern(re, NULL);
		for (j = 0; j < TV_ARRAY_SIZE(subjects); j++) {
			want = pcre2_match(re, (PCRE2_SPTR)subjects[j],
			    strlen(subjects[j]), 0, 0, md, NULL) >= 0;
			if (tv_ui_literal_find(&lit, subjects[j],
			    strlen(subjects[j])) != want) {
				diff++;
				diag("literal: %s in \"%s\": PCRE2 says %d",
				    pats[i], subjects[j], want);
			}
		}
		pcre2_match_data_free(md);
		pcre2_code_free(re);
	}
	ok(diff == 0, "literal: found where PCRE2 finds it, %zu patterns "
	    "x %zu subjects", TV_ARRAY_SIZE(pats), TV_ARRAY_SIZE(subjects));
	/* why k and s are left to PCRE2: the KELVIN SIGN is a k to it */
	re = pcre2_compile((PCRE2_SPTR)"k", 1, PCRE2_UTF | PCRE2_CASELESS,
	    &code, &off, NULL);
	md = pcre2_match_data_create_from_pattern(re, NULL);
	ok(pcre2_match(re, (PCRE2_SPTR)"\xe2\x84\xaa", 3, 0, 0, md, NULL) >= 0,
	    "literal: PCRE2 folds KELVIN SIGN with k, as the rule assumes");
	pcre2_match_data_free(md);
	pcre2_code_free(re);
}

int
main(void)
{
	tv_plan(0);
	test_escape();
	test_ints();
	test_compound();
	test_width();
	test_keymap();
	test_literal();
	return tv_done();
}
