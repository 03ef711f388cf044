/*
 * The bump allocator: chunks of memory handed out in 16-byte aligned
 * pieces and freed all at once.  Reset keeps the first chunk so that a loop
 * decoding one event after another does not call malloc.
 */
#include "tview/util.h"

#include <stdlib.h>
#include <string.h>

#define ARENA_ALIGN	16
#define ARENA_CHUNK	(64 * 1024)

struct tv_arena_chunk {
	struct tv_arena_chunk	*next;
	size_t			 size;	/* bytes of data[] */
	/* keeps data[] 16-aligned whatever the header size */
	_Alignas(ARENA_ALIGN) unsigned char data[];
};

/* An empty arena: no chunk until the first allocation. */
void
tv_arena_init(struct tv_arena *a)
{
	a->head = NULL;
	a->used = 0;
	a->total = 0;
}

/* Free every chunk. */
void
tv_arena_fini(struct tv_arena *a)
{
	struct tv_arena_chunk *c, *next;

	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	tv_arena_init(a);
}

/*
 * Free everything but the first (oldest) chunk of the default size, so
 * that the next round of allocations reuses it.
 */
void
tv_arena_reset(struct tv_arena *a)
{
	struct tv_arena_chunk *c, *next, *keep = NULL;

	/* one chunk, the usual case: nothing to free (a pass resets its
	   arena once per record) */
	if (a->head == NULL || (a->head->next == NULL &&
	    a->head->size == ARENA_CHUNK)) {
		a->used = 0;
		a->total = 0;
		return;
	}
	for (c = a->head; c; c = c->next)
		if (c->size == ARENA_CHUNK)
			keep = c;	/* the oldest one wins */
	for (c = a->head; c; c = next) {
		next = c->next;
		if (c != keep)
			free(c);
	}
	a->head = keep;
	if (keep)
		keep->next = NULL;
	a->used = 0;
	a->total = 0;
}

/*
 * Move every chunk of @src into @dst (behind its head, which stays the
 * one allocated from), so that what was allocated in @src lives as long
 * as @dst; @src is left empty.
 */
void
tv_arena_adopt(struct tv_arena *dst, struct tv_arena *src)
{
	struct tv_arena_chunk *last;

	if (src->head == NULL)
		return;
	if (dst->head == NULL) {
		*dst = *src;
		tv_arena_init(src);
		return;
	}
	for (last = src->head; last->next; last = last->next)
		continue;
	last->next = dst->head->next;
	dst->head->next = src->head;
	dst->total += src->total;
	tv_arena_init(src);
}

/* A new chunk of at least @size bytes. */
static struct tv_arena_chunk *
chunk_new(size_t size)
{
	struct tv_arena_chunk *c;

	if (size > SIZE_MAX - sizeof(*c))
		size = SIZE_MAX - sizeof(*c);	/* fails cleanly */
	c = tv_xmalloc(sizeof(*c) + size);
	c->size = size;
	c->next = NULL;
	return c;
}

/* @size bytes, 16-byte aligned, valid until reset or fini. */
void *
tv_arena_alloc(struct tv_arena *a, size_t size)
{
	struct tv_arena_chunk *c;
	size_t rounded;
	void *p;

	if (size == 0)
		size = 1;
	if (size > SIZE_MAX - ARENA_ALIGN)
		rounded = SIZE_MAX;
	else
		rounded = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (a->head && a->head->size - a->used >= rounded) {
		p = a->head->data + a->used;
		a->used += rounded;
		a->total += rounded;
		return p;
	}
	if (rounded > ARENA_CHUNK / 4) {
		/*
		 * A big allocation gets its own chunk, linked behind the
		 * current head so the free space of the head is not lost.
		 */
		c = chunk_new(rounded);
		if (a->head) {
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = NULL;
			a->head = c;
			a->used = rounded;
		}
		a->total += rounded;
		return c->data;
	}
	c = chunk_new(ARENA_CHUNK);
	c->next = a->head;
	a->head = c;
	a->used = rounded;
	a->total += rounded;
	return c->data;
}

/* Zeroed allocation. */
void *
tv_arena_zalloc(struct tv_arena *a, size_t size)
{
	void *p = tv_arena_alloc(a, size);

	memset(p, 0, size);
	return p;
}

/* Copy of a NUL-terminated string in the arena. */
char *
tv_arena_strdup(struct tv_arena *a, const char *s)
{
	return tv_arena_strndup(a, s, strlen(s));
}

/* Copy of at most @n bytes of @s (stopping at a NUL), NUL-terminated. */
char *
tv_arena_strndup(struct tv_arena *a, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p;

	if (len == SIZE_MAX)
		len--;
	p = tv_arena_alloc(a, len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
