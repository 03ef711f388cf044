/*
 * Small building blocks with no knowledge of traces: allocation that dies
 * cleanly on exhaustion, a growable string buffer, a bump arena, and a
 * growable array macro.  Sizes derived from input must be checked against
 * the file size or a hard limit before they reach these functions.
 */
#ifndef TVIEW_UTIL_H
#define TVIEW_UTIL_H

#include "tview/tview.h"
#include <stdarg.h>
#include <string.h>

void	*tv_xmalloc(size_t size);
void	*tv_xcalloc(size_t nmemb, size_t size);
void	*tv_xcalloc_aligned(size_t align, size_t size);
void	*tv_xrealloc(void *ptr, size_t size);
void	*tv_xreallocarray(void *ptr, size_t nmemb, size_t size);
char	*tv_xstrdup(const char *s);
char	*tv_xstrndup(const char *s, size_t n);
int	 tv_xasprintf(char **out, const char *fmt, ...) TV_PRINTFLIKE(2, 3);

/** tv_online_cores() - online cores (>= 1): one worker each in a pool. */
unsigned tv_online_cores(void);
/**
 * tv_worker_count() - workers for @units units of work taken from a
 * shared counter: one per online core, at most @max and @units, >= 1.
 */
unsigned tv_worker_count(uint64_t units, unsigned max);
/**
 * tv_run_workers() - run @fn on @n workers at once, worker i given
 * (char *)@args + i * @size: worker 0 on this thread, the others each on
 * a thread of its own; returns when all have.  The workers share their
 * work through a counter: one whose thread fails to start is not
 * needed, the others take its share.
 */
void	 tv_run_workers(unsigned n, void *(*fn)(void *), void *args,
	    size_t size);

/* Grow *items (count *count, capacity *cap) so that one more fits. */
#define TV_VEC_GROW(items, count, cap) do {				\
	if ((count) >= (cap)) {						\
		(cap) = (cap) ? (cap) * 2 : 8;				\
		(items) = tv_xreallocarray((items), (cap),		\
		    sizeof(*(items)));					\
	}								\
} while (0)

/* A growable, always NUL-terminated string. */
struct tv_strbuf {
	char	*buf;		/* owned */
	size_t	 len;
	size_t	 cap;
};

void	 tv_strbuf_init(struct tv_strbuf *sb);
void	 tv_strbuf_fini(struct tv_strbuf *sb);
void	 tv_strbuf_reset(struct tv_strbuf *sb);
/* The appends with growth: what the inline ones below call when full. */
void	 tv_strbuf_add_grow(struct tv_strbuf *sb, const char *s, size_t n);

/*
 * Append @n bytes of @s.  Inline: rows, dumps and searches append a few
 * bytes at a time, millions of times, and nearly always fit.
 */
static inline void
tv_strbuf_add(struct tv_strbuf *sb, const char *s, size_t n)
{
	if (sb->buf != NULL && n < sb->cap - sb->len) {
		char *d = sb->buf + sb->len;

		/*
		 * Most pieces are short (a name, ", ", " = "): two
		 * overlapping fixed-size copies from both ends, inlined,
		 * cost less than a call to memcpy (8% of a --dump).
		 */
		if (n >= 8 && n <= 16) {
			memcpy(d, s, 8);
			memcpy(d + n - 8, s + n - 8, 8);
		} else if (n >= 4 && n < 8) {
			memcpy(d, s, 4);
			memcpy(d + n - 4, s + n - 4, 4);
		} else if (n > 0 && n < 4) {
			d[0] = s[0];
			d[n / 2] = s[n / 2];
			d[n - 1] = s[n - 1];
		} else if (n > 16) {
			memcpy(d, s, n);
		}
		sb->len += n;
		sb->buf[sb->len] = '\0';
	} else {
		tv_strbuf_add_grow(sb, s, n);
	}
}

/* Append one character. */
static inline void
tv_strbuf_addc(struct tv_strbuf *sb, char c)
{
	if (sb->buf != NULL && sb->cap - sb->len > 1) {
		sb->buf[sb->len++] = c;
		sb->buf[sb->len] = '\0';
	} else {
		tv_strbuf_add_grow(sb, &c, 1);
	}
}

/* Append a NUL-terminated string. */
static inline void
tv_strbuf_adds(struct tv_strbuf *sb, const char *s)
{
	tv_strbuf_add(sb, s, strlen(s));
}
void	 tv_strbuf_addf(struct tv_strbuf *sb, const char *fmt, ...)
	    TV_PRINTFLIKE(2, 3);
void	 tv_strbuf_vaddf(struct tv_strbuf *sb, const char *fmt, va_list ap);
/* Fast paths for the dump hot loop. */
void	 tv_strbuf_add_u64(struct tv_strbuf *sb, uint64_t v);
/* "00" to "99": decimals two digits at a time, zero-padded times. */
extern const char tv_digits2[100][2];
/* Room for any uint64_t in decimal. */
#define TV_FMT_U64_MAX	20
/**
 * tv_fmt_u64() - @v in decimal, written backwards to end just before
 * @end (TV_FMT_U64_MAX bytes at most, no NUL); returns its first byte.
 */
char	*tv_fmt_u64(char *end, uint64_t v);

/* Room tv_fmt_g() wants to take its fast way (with the NUL). */
#define TV_FMT_G_MAX	32
/**
 * tv_fmt_g() - @v as snprintf(@buf, @size, "%g", @v) writes it, byte for
 * byte, without printf's big-number conversion for the usual values
 * (src/util/fmt-float.c); returns the length.
 */
size_t	 tv_fmt_g(char *buf, size_t size, double v);
void	 tv_strbuf_add_i64(struct tv_strbuf *sb, int64_t v);

/*
 * A bump allocator: many small allocations freed at once.  Used for parse
 * trees and for decoded field values of one event.  tv_arena_reset() keeps
 * the first chunk so a hot loop does not call malloc.  Taking a piece of
 * the current chunk and a reset with one chunk are inline: a pass that
 * decodes every event does a few of each per event, and the calls were a
 * tenth of its instructions.
 */
#define TV_ARENA_ALIGN	16
#define TV_ARENA_CHUNK	(64 * 1024)
struct tv_arena_chunk;
struct tv_arena {
	struct tv_arena_chunk	*head;	/* owned list */
	unsigned char		*base;	/* head's bytes, or NULL */
	size_t			 cap;	/* of them */
	size_t			 used;	/* of them */
	size_t			 total;	/* bytes handed out since reset */
	bool			 more;	/* chunks behind head */
};

void	 tv_arena_init(struct tv_arena *a);
void	 tv_arena_fini(struct tv_arena *a);
/* the out-of-line ways of tv_arena_reset and tv_arena_alloc */
void	 tv_arena_reset_chunks(struct tv_arena *a);
void	*tv_arena_alloc_chunk(struct tv_arena *a, size_t size);

/* Free every chunk but the oldest of the default size. */
static inline void
tv_arena_reset(struct tv_arena *a)
{
	if (!a->more && (a->head == NULL || a->cap == TV_ARENA_CHUNK)) {
		a->used = 0;
		a->total = 0;
		return;
	}
	tv_arena_reset_chunks(a);
}

/* @size bytes, 16-byte aligned, valid until reset or fini. */
static inline void *
tv_arena_alloc(struct tv_arena *a, size_t size)
{
	size_t rounded = (size + TV_ARENA_ALIGN - 1) &
	    ~(size_t)(TV_ARENA_ALIGN - 1);
	void *p;

	/* size 0 and the huge sizes go the long way too */
	if (size - 1 < TV_ARENA_CHUNK && a->cap - a->used >= rounded) {
		p = a->base + a->used;
		a->used += rounded;
		a->total += rounded;
		return p;
	}
	return tv_arena_alloc_chunk(a, size);
}

/* Zeroed allocation. */
static inline void *
tv_arena_zalloc(struct tv_arena *a, size_t size)
{
	void *p = tv_arena_alloc(a, size);

	memset(p, 0, size);
	return p;
}

char	*tv_arena_strdup(struct tv_arena *a, const char *s);
char	*tv_arena_strndup(struct tv_arena *a, const char *s, size_t n);
/* tv_arena_adopt() - @src's allocations now live as long as @dst's. */
void	 tv_arena_adopt(struct tv_arena *dst, struct tv_arena *src);

/*
 * String interning: equal strings share one pointer for the life of the
 * pool, so event and process names compare by pointer.
 */
struct tv_intern;
struct tv_intern	*tv_intern_create(void);
void			 tv_intern_destroy(struct tv_intern *pool);
const char		*tv_intern(struct tv_intern *pool, const char *s,
			    size_t len);
/* tv_intern_count() - the distinct strings @pool holds. */
size_t			 tv_intern_count(const struct tv_intern *pool);

/* tv_clock_ms() - milliseconds of the monotonic clock. */
int64_t			 tv_clock_ms(void);

/*
 * tv_test_hold() - tests: sleep as many milliseconds (up to a minute) as
 * environment variable @env says; nothing when it is unset.
 */
void			 tv_test_hold(const char *env);

#endif /* TVIEW_UTIL_H */
