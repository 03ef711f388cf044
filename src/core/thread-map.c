/*
 * The thread-key map of thread-map.h: open addressing with linear
 * probing over a power-of-two table of indexes into the key array,
 * grown at half full.  Nothing is ever removed: passes that need it
 * live for one walk.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/trace.h"
#include "tview/util.h"
#include "thread-map.h"

/* See thread-map.h. */
void
tv_thread_map_init(struct tv_thread_map *m)
{
	memset(m, 0, sizeof(*m));
}

/* See thread-map.h. */
void
tv_thread_map_fini(struct tv_thread_map *m)
{
	free(m->keys);
	free(m->table);
	memset(m, 0, sizeof(*m));
}

/* Hash of a key (the CPU is part of it for the idle threads only). */
static size_t
map_hash(const struct tv_thread_key *k)
{
	uint64_t h = (uint64_t)k->tid * 0x9e3779b97f4a7c15ULL ^
	    ((uint64_t)k->machine << 40) ^ (uint64_t)(uint32_t)(k->cpu + 1);

	h ^= h >> 29;
	return (size_t)(h * 0xbf58476d1ce4e5b9ULL >> 17);
}

/* The slot of @k: its entry, or the empty slot where it would go. */
static size_t
map_slot(const struct tv_thread_map *m, const struct tv_thread_key *k)
{
	size_t mask = m->table_cap - 1, i = map_hash(k) & mask;
	const struct tv_thread_key *e;

	while (m->table[i] != 0) {
		e = &m->keys[m->table[i] - 1];
		if (e->tid == k->tid && e->machine == k->machine &&
		    e->cpu == k->cpu)
			return i;
		i = (i + 1) & mask;
	}
	return i;
}

/* Grow the table to @cap slots and re-insert every key. */
static void
map_rehash(struct tv_thread_map *m, size_t cap)
{
	size_t i;

	free(m->table);
	m->table = tv_xcalloc(cap, sizeof(*m->table));
	m->table_cap = cap;
	for (i = 0; i < m->n; i++)
		m->table[map_slot(m, &m->keys[i])] = (uint32_t)i + 1;
}

/* See thread-map.h. */
size_t
tv_thread_map_get(struct tv_thread_map *m, uint32_t machine, int64_t tid,
    int32_t cpu, bool *added)
{
	struct tv_thread_key k;
	size_t i;

	k.machine = machine;
	k.tid = tid;
	k.cpu = tid == 0 ? cpu : TV_CPU_UNKNOWN;
	if (m->table_cap == 0 || (m->n + 1) * 2 > m->table_cap)
		map_rehash(m, m->table_cap ? m->table_cap * 2 : 256);
	i = map_slot(m, &k);
	if (added != NULL)
		*added = m->table[i] == 0;
	if (m->table[i] != 0)
		return m->table[i] - 1;
	TV_VEC_GROW(m->keys, m->n, m->keys_cap);
	m->keys[m->n] = k;
	m->table[i] = (uint32_t)++m->n;
	return m->n - 1;
}
