/*
 * The TAP producer behind tests/tap.h: numbering, failure diagnostics
 * with file:line and expected/got values, and the final plan; and the
 * one way the unit tests make a trace with gen-ctf.
 */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int planned = -1;
static int run;
static int failed;

/* Announce the number of tests up front (0: at the end). */
void
tv_plan(int n)
{
	if (n > 0) {
		planned = n;
		printf("1..%d\n", n);
	}
	fflush(stdout);
}

/* Print one result line; returns @cond. */
static bool
result(const char *file, int line, bool cond, const char *fmt, va_list ap)
{
	run++;
	printf("%sok %d - ", cond ? "" : "not ", run);
	vprintf(fmt, ap);
	printf("\n");
	if (!cond) {
		failed++;
		printf("#   Failed test at %s line %d.\n", file, line);
	}
	fflush(stdout);
	return cond;
}

/* Pass if @cond holds. */
bool
tv_ok(const char *file, int line, bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	result(file, line, cond, fmt, ap);
	va_end(ap);
	return cond;
}

/* Pass if two integers are equal; show both otherwise. */
bool
tv_is_int(const char *file, int line, int64_t got, int64_t want,
    const char *fmt, ...)
{
	bool cond = got == want;
	va_list ap;

	va_start(ap, fmt);
	result(file, line, cond, fmt, ap);
	va_end(ap);
	if (!cond)
		printf("#          got: %lld\n#     expected: %lld\n",
		    (long long)got, (long long)want);
	return cond;
}

/* Pass if two strings are equal (NULL equals only NULL). */
bool
tv_is_str(const char *file, int line, const char *got, const char *want,
    const char *fmt, ...)
{
	bool cond = (!got && !want) || (got && want && !strcmp(got, want));
	va_list ap;

	va_start(ap, fmt);
	result(file, line, cond, fmt, ap);
	va_end(ap);
	if (!cond)
		printf("#          got: '%s'\n#     expected: '%s'\n",
		    got ? got : "(null)", want ? want : "(null)");
	return cond;
}

/* A "# ..." diagnostic line. */
void
tv_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Count one test as skipped, with the reason. */
void
tv_skip(const char *fmt, ...)
{
	va_list ap;

	run++;
	printf("ok %d # SKIP ", run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Finish: print a deferred plan; 0 if every test passed as planned. */
int
tv_done(void)
{
	if (planned < 0)
		printf("1..%d\n", run);
	else if (planned != run)
		printf("# planned %d tests but ran %d\n", planned, run);
	if (failed)
		printf("# failed %d of %d tests\n", failed, run);
	fflush(stdout);
	return failed || (planned >= 0 && planned != run) ? 1 : 0;
}

/* See tap.h. */
bool
tv_gen_ctf(const char *dir, const char *args)
{
	const char *top = getenv("top_builddir");
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && '%s/gen-ctf' --quiet %s "
	    "'%s'", dir, top != NULL ? top : ".", args, dir);
	return system(cmd) == 0;
}
