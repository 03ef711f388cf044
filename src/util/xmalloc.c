/*
 * Allocation that cannot fail: on exhaustion print one line and exit, so
 * callers need no NULL checks.  Sizes derived from input are checked
 * against the file size or a cap before they get here.
 */
#include "tview/util.h"
#include "tview/i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Report exhaustion and exit: there is no sane way to continue. */
static TV_NORETURN void
oom(size_t size)
{
	fprintf(stderr, _("tview: out of memory (allocating %zu bytes)\n"),
	    size);
	abort();
}

/* malloc that never returns NULL. */
void *
tv_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

/*
 * Zeroed memory aligned to @align (a power of two, a multiple of the
 * pointer size) that never returns NULL: for data written by one thread
 * each, which must not share a cache line with another thread's.
 */
void *
tv_xcalloc_aligned(size_t align, size_t size)
{
	void *p = NULL;

	if (posix_memalign(&p, align, size ? size : 1) != 0 || !p)
		oom(size);
	memset(p, 0, size);
	return p;
}

/* calloc that never returns NULL. */
void *
tv_xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > SIZE_MAX / size)
		oom(SIZE_MAX);
	p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		oom(nmemb * size);
	return p;
}

/* realloc that never returns NULL. */
void *
tv_xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

/* realloc of an array, with the multiplication checked for overflow. */
void *
tv_xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		oom(SIZE_MAX);
	return tv_xrealloc(ptr, nmemb * size);
}

/* strdup that never returns NULL. */
char *
tv_xstrdup(const char *s)
{
	size_t n = strlen(s);
	char *p = tv_xmalloc(n + 1);

	memcpy(p, s, n + 1);
	return p;
}

/* strndup that never returns NULL; stops at a NUL before @n. */
char *
tv_xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = tv_xmalloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* asprintf that never fails; returns the length. */
int
tv_xasprintf(char **out, const char *fmt, ...)
{
	va_list ap, ap2;
	int n;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		va_end(ap2);
		*out = tv_xstrdup("");
		return 0;
	}
	*out = tv_xmalloc((size_t)n + 1);
	vsnprintf(*out, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return n;
}
