/*
 * The bump allocator: chunks of memory handed out in 16-byte aligned
 * pieces and freed all at once.  Reset keeps the first chunk so that a loop
 * decoding one event after another does not call malloc.
 */
#include "tview/util.h"

#include <stdlib.h>
#include <string.h>

struct tv_arena_chunk {
	struct tv_arena_chunk	*next;
	size_t			 size;	/* bytes of data[] */
	/* keeps data[] 16-aligned whatever the header size */
	_Alignas(TV_ARENA_ALIGN) unsigned char data[];
};

/* Make @c (or none) the chunk allocations are taken from. */
static void
set_head(struct tv_arena *a, struct tv_arena_chunk *c, size_t used)
{
	a->head = c;
	a->base = c ? c->data : NULL;
	a->cap = c ? c->size : 0;
	a->used = used;
}

/* An empty arena: no chunk until the first allocation. */
void
tv_arena_init(struct tv_arena *a)
{
	set_head(a, NULL, 0);
	a->total = 0;
	a->more = false;
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
 * tv_arena_reset() past one chunk: free everything but the first
 * (oldest) chunk of the default size, so that the next round of
 * allocations reuses it.
 */
void
tv_arena_reset_chunks(struct tv_arena *a)
{
	struct tv_arena_chunk *c, *next, *keep = NULL;

	for (c = a->head; c; c = c->next)
		if (c->size == TV_ARENA_CHUNK)
			keep = c;	/* the oldest one wins */
	for (c = a->head; c; c = next) {
		next = c->next;
		if (c != keep)
			free(c);
	}
	if (keep)
		keep->next = NULL;
	set_head(a, keep, 0);
	a->total = 0;
	a->more = false;
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
	dst->more = true;
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

/* tv_arena_alloc() when the head chunk has no room (or no size asked). */
void *
tv_arena_alloc_chunk(struct tv_arena *a, size_t size)
{
	struct tv_arena_chunk *c;
	size_t rounded;
	void *p;

	if (size == 0)
		size = 1;
	if (size > SIZE_MAX - TV_ARENA_ALIGN)
		rounded = SIZE_MAX;
	else
		rounded = (size + TV_ARENA_ALIGN - 1) &
		    ~(size_t)(TV_ARENA_ALIGN - 1);
	if (a->head && a->cap - a->used >= rounded) {
		p = a->base + a->used;
		a->used += rounded;
		a->total += rounded;
		return p;
	}
	if (rounded > TV_ARENA_CHUNK / 4) {
		/*
		 * A big allocation gets its own chunk, linked behind the
		 * current head so the free space of the head is not lost.
		 */
		c = chunk_new(rounded);
		if (a->head) {
			c->next = a->head->next;
			a->head->next = c;
			a->more = true;
		} else {
			set_head(a, c, rounded);
		}
		a->total += rounded;
		return c->data;
	}
	c = chunk_new(TV_ARENA_CHUNK);
	c->next = a->head;
	a->more = a->more || a->head != NULL;
	set_head(a, c, rounded);
	a->total += rounded;
	return c->data;
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
