/*
 * Errors are values.  Every fallible function returns an enum tv_status and
 * fills a struct tv_error (which may be NULL) with a translated message and
 * the position it refers to.  One line renders it:
 *   binary data:  "path: offset 0x1a40: message"
 *   text:         "path:12:5: message"
 */
#ifndef TVIEW_ERROR_H
#define TVIEW_ERROR_H

#include "tview/tview.h"
#include "tview/i18n.h"

#define TV_STATUS_LIST(_)						\
	_(OK,		N_("success"))					\
	_(END,		N_("end of stream"))				\
	_(NOMEM,	N_("out of memory"))				\
	_(IO,		N_("input/output error"))			\
	_(FORMAT,	N_("not a trace in a known format"))		\
	_(SYNTAX,	N_("syntax error"))				\
	_(SEMANTIC,	N_("invalid definition"))			\
	_(CORRUPT,	N_("corrupt or truncated data"))		\
	_(UNSUPPORTED,	N_("unsupported feature"))			\
	_(NOT_FOUND,	N_("not found"))				\
	_(CANCELLED,	N_("cancelled"))

enum tv_status {
#define TV_STATUS_ENUM(name, msg) TV_##name,
	TV_STATUS_LIST(TV_STATUS_ENUM)
#undef TV_STATUS_ENUM
};

#define TV_NO_OFFSET	UINT64_MAX

/* Where an error is: a byte offset in a binary file, or line:column in text. */
struct tv_loc {
	const char	*path;		/* borrowed; copied into tv_error */
	uint64_t	 offset;	/* byte offset, TV_NO_OFFSET if none */
	uint32_t	 line;		/* 1-based; 0 for binary data */
	uint32_t	 column;	/* 1-based; 0 if unknown */
};

struct tv_error {
	enum tv_status	 status;
	int		 sys_errno;	/* errno for TV_IO, else 0 */
	uint64_t	 offset;
	uint32_t	 line;
	uint32_t	 column;
	char		 path[512];	/* "" when no file */
	char		 msg[512];	/* translated, no trailing newline */
};

/** tv_status_str() - translated one-word-ish description of @st. */
const char	*tv_status_str(enum tv_status st);

/**
 * tv_error_set() - fill @err (if not NULL) and return @st, so callers can
 * write "return tv_error_set(err, TV_CORRUPT, &loc, ...)".  @loc may be NULL.
 */
enum tv_status	 tv_error_set(struct tv_error *err, enum tv_status st,
		    const struct tv_loc *loc, const char *fmt, ...)
		    TV_PRINTFLIKE(4, 5);

/** tv_error_at() - shorthand for a binary position: path + byte offset. */
enum tv_status	 tv_error_at(struct tv_error *err, enum tv_status st,
		    const char *path, uint64_t offset, const char *fmt, ...)
		    TV_PRINTFLIKE(5, 6);

/** tv_error_prefix() - prepend context ("while indexing X: ") to msg. */
void		 tv_error_prefix(struct tv_error *err, const char *fmt, ...)
		    TV_PRINTFLIKE(2, 3);

/** tv_error_clear() - reset @err to TV_OK with no position. */
void		 tv_error_clear(struct tv_error *err);

/** tv_error_format() - one-line rendering into @buf; returns @buf. */
char		*tv_error_format(const struct tv_error *err, char *buf,
		    size_t size);

#endif /* TVIEW_ERROR_H */
