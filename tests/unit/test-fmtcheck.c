/*
 * Unit tests of the check tview makes of an event format file before
 * libtraceevent may parse it (tracedat-fmtcheck.c): a well-formed format
 * (print fmt strings with newlines, designated initialisers, division by
 * a literal) is accepted; each shape that crashed libtraceevent in the
 * fuzz reproducers (a NUL or binary byte, an open quote or bracket, a
 * stray '.', a malformed number, REC-> of no field, division by a record
 * value, "->" or '[' after "a ? b : c" or "x[i]", a malformed field
 * line) is refused.  Then every format file of
 * the running kernel (/sys/kernel/tracing/events, when readable) must be
 * accepted: the check must not refuse what kernels write.
 */
#include "tview/tview.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/formats/tracedat/tracedat-priv.h"
#include "../tap.h"

static const char head[] =
    "name: ev\nID: 12\nformat:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int a;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\tfield:char s[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:__data_loc char[] d;\toffset:24;\tsize:4;\tsigned:0;\n\n";

/* Check HEAD + @fmt (or @whole when non-NULL); NULL if accepted. */
static const char *
check(const char *fmt, const char *whole)
{
	static char buf[4096];
	char name[64];

	if (whole)
		snprintf(buf, sizeof(buf), "%s", whole);
	else
		snprintf(buf, sizeof(buf), "%sprint fmt: %s\n", head, fmt);
	return td_format_check(buf, strlen(buf), name, sizeof(name));
}

static void
test_good(void)
{
	const char *why;

	why = check("\"a=%d s=%s\n d=%s\", REC->a, REC->s, __get_str(d)",
	    NULL);
	ok(why == NULL, "plain format with a newline in its string: %s",
	    why ? why : "accepted");
	why = check("\"%llu %d\", (unsigned long long)(((ktime_t) { .tv64 = "
	    "REC->a }).tv64), REC->a / 1000 % 7", NULL);
	ok(why == NULL, "designated initialiser, division by literals: %s",
	    why ? why : "accepted");
	why = check("\"%d\", REC->a & 0x1fUL ? 1 : 0", NULL);
	ok(why == NULL, "suffixed hex literal: %s", why ? why : "accepted");
}

static void
test_bad(void)
{
	char nul[512];
	size_t n;
	char name[64];

	ok(check("\"%d\",'REC->a", NULL) != NULL, "open quote refused");
	ok(check("\"%d\", (REC->a", NULL) != NULL, "open bracket refused");
	ok(check("\"%d\", REC->a)", NULL) != NULL, "stray ')' refused");
	ok(check("\"%d %d\", REC->a. REC->a", NULL) != NULL,
	    "stray '.' refused");
	ok(check("\"%d\", REC->a & 5x1000", NULL) != NULL,
	    "malformed number refused");
	ok(check("\"%d\", REC->a & 0x10$0", NULL) != NULL,
	    "'$' refused");
	ok(check("\"%d\", REC->nosuch", NULL) != NULL,
	    "REC-> of no field refused");
	ok(check("\"%d\", 100 / REC->a", NULL) != NULL,
	    "division by a record value refused");
	ok(check("\"%d\", 100 % (REC->a + 1)", NULL) != NULL,
	    "modulo by a record expression refused");
	ok(check("\"%d\", REC->a %d->s", NULL) != NULL,
	    "modulo by a name the library does not know refused");
	ok(check("\"%d\", REC->a / (1000 * 1000)", NULL) == NULL,
	    "division by a bracket of literals accepted");
	ok(check("\"%d\", 100 / 0", NULL) != NULL,
	    "division by zero refused");
	/*
	 * libtraceevent 1.7 and trace-cmd report SEGV on these: after the
	 * third operand of a conditional, or after an index, an operator
	 * the library gives no precedence
	 */
	ok(check("\"%d\", REC->a ? 1 : 3;", NULL) != NULL,
	    "';' after a conditional refused");
	ok(check("\"%d\", REC->a ? 1 : 3 ; REC->a", NULL) != NULL,
	    "';' between arguments refused");
	ok(check("\"%d\", REC->a ? 1 : x->y", NULL) != NULL,
	    "'->' after a conditional refused");
	ok(check("\"%d\", REC->a ? 1 : REC->a->y", NULL) != NULL,
	    "'->' after REC->a after a conditional refused");
	ok(check("\"%d\", REC->a == 1 ? 1 : (x)->y", NULL) != NULL,
	    "'->' after a bracket after a conditional refused");
	ok(check("\"%d\", REC->a ? 1 : REC->a ? 2 : x.y", NULL) != NULL,
	    "'.' after a nested conditional refused");
	ok(check("\"%d\", REC->a ? 1 : x[1]", NULL) != NULL,
	    "'[' after a conditional refused");
	ok(check("\"%d\", REC->a ? 1 : x = 2", NULL) != NULL,
	    "'=' after a conditional refused");
	ok(check("\"%d\", REC->a ? 1 : \"s\" \"t\" -> y", NULL) != NULL,
	    "'->' after adjacent strings after a conditional refused");
	ok(check("\"%d\", REC->a ? 1 : (int)x->y", NULL) != NULL,
	    "'->' after a cast after a conditional refused");
	ok(check("\"%d\", x[1]->y", NULL) != NULL,
	    "'->' after an index refused");
	ok(check("\"%d\", x[1][2]", NULL) != NULL,
	    "'[' after an index refused");
	ok(check("\"%d\", REC->a ? 1 : -x->y", NULL) == NULL,
	    "'->' after a unary operand accepted (the library fails it)");
	ok(check("\"%d\", REC->a ? 1 : 2 + 3, REC->s[1] | 4",
	    NULL) == NULL, "ranked operators after '?:' and '[]' accepted");
	ok(check("\"%d\", REC->a ? x[1] : f(REC->a) ? 2 : 3 ? 4 : 5",
	    NULL) == NULL, "chained conditionals accepted");
	ok(check("\"%d\", ({ int x = REC->a; x; })", NULL) == NULL,
	    "';' inside a statement expression accepted");
	ok(check("\"%d\", ({ static const char *t[] = { \"a\" }; t[0]; })",
	    NULL) == NULL, "'[] =' inside a statement expression accepted");
	ok(check("REC->a", NULL) != NULL, "print fmt without a string");
	ok(check(NULL, "name: ev\nID: 12\nformat:\n"
	    "\tfield:unsigned cha) x;\toffset:0;\tsize:1;\tsigned:0;\n"
	    "print fmt: \"%d\", REC->x\n") != NULL,
	    "unbalanced field declaration refused");
	ok(check(NULL, "name: ev\nID: 12\nformat:\n"
	    "\tfield:int x;\toffset:0;\tsize:99999999;\tsigned:0;\n"
	    "print fmt: \"%d\", REC->x\n") != NULL, "huge field size refused");
	ok(check(NULL, "name: ev\nID: 1x\nformat:\n") != NULL,
	    "bad ID refused");
	ok(check(NULL, "name: ev\nID: 1\nformat:\n\tfield:int x;\toffset:0;"
	    "\tsize:4;\tsigned:0;\n") != NULL, "missing print fmt refused");
	snprintf(nul, sizeof(nul), "%sprint fmt: \"%%d\", REC->a\n", head);
	n = strlen(nul);
	nul[30] = '\0';
	ok(td_format_check(nul, n, name, sizeof(name)) != NULL,
	    "a NUL inside refused");
	nul[30] = (char)0xc3;
	ok(td_format_check(nul, n, name, sizeof(name)) != NULL &&
	    strcmp(name, "ev") == 0, "a binary byte refused, name kept");
}

/*
 * Widths and precisions written in a format are bounded: the library
 * pads to any, and "%1000000000d" printed (and allocated) a gigabyte per
 * record, in the print fmt as in a printk format of a bprint record.
 */
static void
test_widths(void)
{
	static const char printk[] =
	    "0xffffffff82000000 : \"ok %-16s %08lx %256d\\n\"\n"
	    "0xffffffff82000010 : \"big %1000000000d\"\n"
	    "0xffffffff82000020 : \"prec %.100000u\"\n"
	    "0xffffffff82000030 : \"escaped %%1000000000d\"\n";
	struct td_blob b = { (const uint8_t *)printk, sizeof(printk) - 1 };
	uint64_t dropped;
	char *clean;

	ok(check("\"%-16s %08lx %.*s %256d\", REC->s, REC->a, REC->a, "
	    "REC->s, REC->a", NULL) == NULL, "usual widths accepted");
	ok(check("\"%%1000000000d %d\", REC->a", NULL) == NULL,
	    "%%%% is no conversion");
	ok(check("\"a=%1000000000d\", REC->a", NULL) != NULL,
	    "a width of 10^9 refused");
	ok(check("\"a=%257d\", REC->a", NULL) != NULL,
	    "a width over 256 refused");
	ok(check("\"a=%.99999u\", REC->a", NULL) != NULL,
	    "a precision of 99999 refused");
	ok(check("\"a=%d\" \" b=%0999999x\", REC->a, REC->a", NULL) != NULL,
	    "in the second of adjacent string literals too");
	clean = td_text_clean(&b, TD_TEXT_PRINTK, &dropped);
	ok(dropped == 2 && strstr(clean, "ok %-16s") != NULL &&
	    strstr(clean, "escaped") != NULL && strstr(clean, "big") == NULL,
	    "printk formats with huge widths dropped (%llu dropped)",
	    (unsigned long long)dropped);
	free(clean);
}

/*
 * A list whose last line has no newline: the copy gives it one, in a
 * buffer that has room for it (fuzz-tracedat: a heap overflow of one
 * byte, caught by ASan in the suite's sanitizer build).
 */
static void
test_clean_last_line(void)
{
	static const char cmd[] = "1 init\n42 kvm_mmu_unsync_pa";
	static const char ksym[] = "ffffffff81000000 T _stext";
	struct td_blob b = { (const uint8_t *)cmd, sizeof(cmd) - 1 };
	uint64_t dropped;
	char *clean;

	clean = td_text_clean(&b, TD_TEXT_CMDLINES, &dropped);
	ok(dropped == 0 && strcmp(clean, "1 init\n42 kvm_mmu_unsync_pa\n")
	    == 0, "cmdlines: a last line without newline kept, one added");
	free(clean);
	b = (struct td_blob){ (const uint8_t *)ksym, sizeof(ksym) - 1 };
	clean = td_text_clean(&b, TD_TEXT_KALLSYMS, &dropped);
	ok(dropped == 0 && strcmp(clean, "ffffffff81000000 T _stext\n") == 0,
	    "kallsyms: the same with a single line");
	free(clean);
}

/* Every format of the running kernel is accepted. */
static void
test_kernel(void)
{
	glob_t g;
	size_t i, nok = 0, nread = 0;
	char bad[512] = "";

	if (glob("/sys/kernel/tracing/events/*/*/format", 0, NULL, &g) != 0 &&
	    glob("/sys/kernel/debug/tracing/events/*/*/format", 0, NULL,
	    &g) != 0) {
		tv_skip("no readable kernel event formats");
		return;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		static char buf[256 << 10];
		char name[64];
		const char *why;
		FILE *fp = fopen(g.gl_pathv[i], "r");
		size_t n;

		if (!fp)
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, fp);
		fclose(fp);
		if (n == 0)
			continue;
		buf[n] = '\0';
		nread++;
		why = td_format_check(buf, n, name, sizeof(name));
		if (why == NULL)
			nok++;
		else if (!bad[0])
			snprintf(bad, sizeof(bad), "%s: %s", g.gl_pathv[i],
			    why);
	}
	globfree(&g);
	if (nread == 0) {
		tv_skip("no readable kernel event formats");
		return;
	}
	ok(nok == nread, "%zu of %zu kernel formats accepted %s", nok, nread,
	    bad);
}

int
main(void)
{
	tv_plan(0);
	test_good();
	test_bad();
	test_widths();
	test_clean_last_line();
	test_kernel();
	return tv_done();
}
