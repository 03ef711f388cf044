/*
 * Error values: translated status names, filling struct tv_error with a
 * message and a position, and the one-line rendering of an error.
 */
#include "tview/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>

static const char *const status_msgs[] = {
#define TV_STATUS_MSG(name, msg) msg,
	TV_STATUS_LIST(TV_STATUS_MSG)
#undef TV_STATUS_MSG
};

/* Translated description of a status, for messages and --info. */
const char *
tv_status_str(enum tv_status st)
{
	if ((size_t)st >= TV_ARRAY_SIZE(status_msgs))
		return _("unknown error");
	return _(status_msgs[st]);
}

/* Copy @src into the fixed buffer @dst, truncating; they may overlap. */
static void
copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memmove(dst, src, n);
	dst[n] = '\0';
}

/* Common body of tv_error_set and tv_error_at. */
static enum tv_status
error_vset(struct tv_error *err, enum tv_status st, const struct tv_loc *loc,
    const char *fmt, va_list ap)
{
	int saved = errno;
	char msg[sizeof(err->msg)];

	if (!err)
		return st;
	/* first, as the arguments may point into *err itself */
	if (fmt)
		vsnprintf(msg, sizeof(msg), fmt, ap);
	else
		copy_str(msg, sizeof(msg), tv_status_str(st));
	if (loc && loc->path)
		copy_str(err->path, sizeof(err->path), loc->path);
	else
		err->path[0] = '\0';
	err->status = st;
	err->sys_errno = st == TV_IO ? saved : 0;
	err->offset = TV_NO_OFFSET;
	err->line = 0;
	err->column = 0;
	if (loc) {
		err->offset = loc->offset;
		err->line = loc->line;
		err->column = loc->column;
	}
	memcpy(err->msg, msg, sizeof(msg));
	return st;
}

/* Fill @err with status, position and message; returns @st. */
enum tv_status
tv_error_set(struct tv_error *err, enum tv_status st, const struct tv_loc *loc,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(err, st, loc, fmt, ap);
	va_end(ap);
	return st;
}

/* Shorthand for an error at a byte offset of a binary file. */
enum tv_status
tv_error_at(struct tv_error *err, enum tv_status st, const char *path,
    uint64_t offset, const char *fmt, ...)
{
	struct tv_loc loc = { .path = path, .offset = offset };
	va_list ap;

	va_start(ap, fmt);
	error_vset(err, st, &loc, fmt, ap);
	va_end(ap);
	return st;
}

/* Prepend context to the message, keeping status and position. */
void
tv_error_prefix(struct tv_error *err, const char *fmt, ...)
{
	char pre[sizeof(err->msg)];
	size_t plen, olen;
	va_list ap;
	int n;

	if (!err)
		return;
	va_start(ap, fmt);
	n = vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	plen = n < 0 ? 0 : TV_MIN((size_t)n, sizeof(pre) - 1);
	olen = TV_MIN(strnlen(err->msg, sizeof(err->msg) - 1),
	    sizeof(err->msg) - 1 - plen);
	memmove(err->msg + plen, err->msg, olen);
	memcpy(err->msg, pre, plen);
	err->msg[plen + olen] = '\0';
}

/* Reset @err to success with no position. */
void
tv_error_clear(struct tv_error *err)
{
	if (!err)
		return;
	err->status = TV_OK;
	err->sys_errno = 0;
	err->offset = TV_NO_OFFSET;
	err->line = 0;
	err->column = 0;
	err->path[0] = '\0';
	err->msg[0] = '\0';
}

/*
 * One line: "path: offset 0x1a40: msg", "path:12:5: msg", "path:12: msg",
 * "path: msg" or "msg".
 */
char *
tv_error_format(const struct tv_error *err, char *buf, size_t size)
{
	const char *msg;

	if (!buf || size == 0)
		return buf;
	if (!err) {
		buf[0] = '\0';
		return buf;
	}
	msg = err->msg[0] ? err->msg : tv_status_str(err->status);
	if (!err->path[0])
		snprintf(buf, size, "%s", msg);
	else if (err->line && err->column)
		snprintf(buf, size, "%s:%u:%u: %s", err->path, err->line,
		    err->column, msg);
	else if (err->line)
		snprintf(buf, size, "%s:%u: %s", err->path, err->line, msg);
	else if (err->offset != TV_NO_OFFSET)
		snprintf(buf, size, "%s: offset 0x%llx: %s", err->path,
		    (unsigned long long)err->offset, msg);
	else
		snprintf(buf, size, "%s: %s", err->path, msg);
	return buf;
}
