/*
 * String interning: an open-addressing hash set of strings whose bytes
 * live in the pool's arena, so equal names share one pointer.
 */
#include "tview/util.h"

#include <stdlib.h>
#include <string.h>

struct intern_slot {
	const char	*str;		/* NULL when empty */
	size_t		 len;
	uint64_t	 hash;
};

struct tv_intern {
	struct tv_arena		 arena;
	struct intern_slot	*slots;
	size_t			 cap;		/* power of two */
	size_t			 count;
};

/*
 * A multiply-and-fold hash over 8 bytes at a time, then a final mix:
 * names are interned once per record in a pass, and byte-at-a-time
 * FNV-1a took a 16-byte comm sixteen dependent multiplies.
 */
static uint64_t
hash_bytes(const char *s, size_t len)
{
	const uint64_t k = 0x9e3779b97f4a7c15ULL;
	uint64_t h = 0xcbf29ce484222325ULL ^ (len * k), w;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * k;
		h ^= h >> 29;
	}
	if (i < len) {
		w = 0;
		memcpy(&w, s + i, len - i);
		h = (h ^ w) * k;
	}
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ULL;
	h ^= h >> 32;
	return h;
}

/* An empty pool. */
struct tv_intern *
tv_intern_create(void)
{
	struct tv_intern *pool = tv_xcalloc(1, sizeof(*pool));

	tv_arena_init(&pool->arena);
	pool->cap = 64;
	pool->slots = tv_xcalloc(pool->cap, sizeof(*pool->slots));
	return pool;
}

/* Free the pool and every string it handed out. */
void
tv_intern_destroy(struct tv_intern *pool)
{
	if (!pool)
		return;
	tv_arena_fini(&pool->arena);
	free(pool->slots);
	free(pool);
}

/* Double the table and re-insert every string. */
static void
grow(struct tv_intern *pool)
{
	size_t ncap = pool->cap * 2, i, j;
	struct intern_slot *ns = tv_xcalloc(ncap, sizeof(*ns));

	for (i = 0; i < pool->cap; i++) {
		if (!pool->slots[i].str)
			continue;
		j = pool->slots[i].hash & (ncap - 1);
		while (ns[j].str)
			j = (j + 1) & (ncap - 1);
		ns[j] = pool->slots[i];
	}
	free(pool->slots);
	pool->slots = ns;
	pool->cap = ncap;
}

/*
 * The pool's copy of the @len bytes of @s (which need not be
 * NUL-terminated); the copy is NUL-terminated.
 */
const char *
tv_intern(struct tv_intern *pool, const char *s, size_t len)
{
	uint64_t h;
	size_t i;
	char *copy;

	if (!s || !len) {
		s = "";
		len = 0;
	}
	h = hash_bytes(s, len);
	i = h & (pool->cap - 1);

	while (pool->slots[i].str) {
		struct intern_slot *sl = &pool->slots[i];

		if (sl->hash == h && sl->len == len &&
		    memcmp(sl->str, s, len) == 0)
			return sl->str;
		i = (i + 1) & (pool->cap - 1);
	}
	copy = tv_arena_alloc(&pool->arena, len + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	pool->slots[i].str = copy;
	pool->slots[i].len = len;
	pool->slots[i].hash = h;
	if (++pool->count * 4 >= pool->cap * 3)
		grow(pool);
	return copy;
}

/* See util.h. */
size_t
tv_intern_count(const struct tv_intern *pool)
{
	return pool->count;
}
