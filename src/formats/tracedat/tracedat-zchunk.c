/*
 * Compressed trace.dat v7 data: whole sections through zlib or zstd, and
 * per-CPU flyrecord data stored as chunks.  Chunks are decompressed on
 * demand into small LRUs (TD_CHUNK_SETS of TD_CHUNK_CACHE slots, each
 * with its lock, so that threads reading at once rarely wait), never the
 * whole file; every size is checked against the file and hard caps
 * first.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include "tview/i18n.h"
#include "tracedat-priv.h"

/* Decompress @csize bytes at @src into exactly @usize bytes at @dst. */
enum tv_status
td_decompress(struct td_file *f, const uint8_t *src, uint32_t csize,
    uint8_t *dst, uint32_t usize, uint64_t off, struct tv_error *err)
{
	if (f->comp == TD_COMP_ZLIB) {
		uLongf out = usize;
		int r = uncompress(dst, &out, src, csize);

		if (r != Z_OK || out != usize)
			return tv_error_at(err, TV_CORRUPT, f->path, off,
			    _("bad zlib data (%d, %lu of %u bytes)"), r,
			    (unsigned long)out, usize);
		return TV_OK;
	}
	if (f->comp == TD_COMP_ZSTD) {
#ifdef HAVE_ZSTD
		size_t r = ZSTD_decompress(dst, usize, src, csize);

		if (ZSTD_isError(r) || r != usize)
			return tv_error_at(err, TV_CORRUPT, f->path, off,
			    _("bad zstd data (%s)"), ZSTD_isError(r) ?
			    ZSTD_getErrorName(r) : _("wrong size"));
		return TV_OK;
#else
		return tv_error_at(err, TV_UNSUPPORTED, f->path, off,
		    _("built without zstd support"));
#endif
	}
	return tv_error_at(err, TV_CORRUPT, f->path, off,
	    _("compressed data in a file without compression"));
}

/* Read the chunk table of @cpu: COUNT, then (CSIZE USIZE DATA)*. */
enum tv_status
td_load_chunks(struct td_file *f, struct td_cpu *cpu, struct tv_error *err)
{
	struct td_cur c;
	uint32_t n, i;
	uint64_t uoff = 0;

	/* the recorded size leaves out the 4-byte chunk count */
	td_cur_init(&c, f->path, f->mf.data + cpu->offset,
	    TV_MIN(cpu->size + 4, f->mf.size - cpu->offset), cpu->offset,
	    f->be);
	if (td_read_u32(&c, &n, err) != TV_OK)
		return TV_CORRUPT;
	if ((uint64_t)n * 8 > c.len)
		return td_error(&c, err, _("%u chunks cannot fit in %llu "
		    "bytes"), n, (unsigned long long)cpu->size);
	cpu->chunks = tv_xcalloc(n ? n : 1, sizeof(*cpu->chunks));
	for (i = 0; i < n; i++) {
		struct td_chunk *ch = &cpu->chunks[i];
		struct td_blob b;

		if (td_read_u32(&c, &ch->csize, err) != TV_OK ||
		    td_read_u32(&c, &ch->usize, err) != TV_OK)
			return TV_CORRUPT;
		/* a chunk of no data would make its events vanish */
		if (ch->usize == 0 || ch->csize == 0) {
			c.pos -= 8;
			return td_error(&c, err, _("empty compressed chunk "
			    "(%u bytes, %u uncompressed)"), ch->csize,
			    ch->usize);
		}
		if (ch->usize > TD_MAX_CHUNK) {
			c.pos -= 4;
			return td_error(&c, err, _("chunk too large (%u "
			    "bytes)"), ch->usize);
		}
		if (td_read_bytes(&c, ch->csize, &b, err) != TV_OK)
			return TV_CORRUPT;
		ch->file_off = cpu->offset + c.pos - ch->csize;
		ch->uoff = uoff;
		uoff += ch->usize;
		cpu->nchunks++;
	}
	cpu->usize = uoff;
	return TV_OK;
}

/* The chunk of @cpu holding uncompressed offset @off (binary search). */
static uint32_t
find_chunk(const struct td_cpu *cpu, uint64_t off)
{
	uint32_t lo = 0, hi = cpu->nchunks;

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (cpu->chunks[mid].uoff <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* See tracedat-priv.h. */
void
td_chunks_init(struct td_file *f)
{
	uint32_t i;

	for (i = 0; i < TD_CHUNK_SETS; i++)
		pthread_mutex_init(&f->chunks[i].lock, NULL);
}

/*
 * See tracedat-priv.h.  Not inlined: inlined into a caller that sets a
 * mapping guard's jump, its loop's locals draw gcc's -Wclobbered, a
 * false alarm (none is live across the jump) that -Werror would fail.
 */
__attribute__((noinline)) struct td_chunks *
td_chunks_take(struct td_file *f)
{
	uint64_t h = (uint64_t)(uintptr_t)pthread_self();
	uint32_t first, i;

	/* a thread's handle is an address: its middle bits tell threads
	   apart, and a thread keeps to one set while it may */
	h = (h >> 12) * UINT64_C(0x9e3779b97f4a7c15);
	first = (uint32_t)(h >> 32) % TD_CHUNK_SETS;
	for (i = 0; i < TD_CHUNK_SETS; i++) {
		struct td_chunks *c = &f->chunks[(first + i) % TD_CHUNK_SETS];

		if (pthread_mutex_trylock(&c->lock) == 0)
			return c;
	}
	pthread_mutex_lock(&f->chunks[first].lock);
	return &f->chunks[first];
}

/* See tracedat-priv.h. */
void
td_chunks_put(struct td_chunks *c)
{
	pthread_mutex_unlock(&c->lock);
}

/* The decompressed chunk @idx of @cpu, from cache @c or decompressed. */
static const struct td_chunk_slot *
get_chunk(struct td_file *f, struct td_chunks *c, const struct td_cpu *cpu,
    uint32_t idx, struct tv_error *err)
{
	const struct td_chunk *ch = &cpu->chunks[idx];
	struct td_chunk_slot *s, *victim = &c->slots[0];
	uint32_t i;

	for (i = 0; i < TD_CHUNK_CACHE; i++) {
		s = &c->slots[i];
		if (s->cpu == cpu && s->chunk == idx) {
			s->stamp = ++c->stamp;
			return s;
		}
		if (!s->cpu || (victim->cpu && s->stamp < victim->stamp))
			victim = s;
	}
	/* the buffer is kept: a chunk the size of the last needs no
	   allocation (freed, it was unmapped and faulted in again) */
	victim->cpu = NULL;
	if (victim->cap < ch->usize) {
		free(victim->buf);
		victim->buf = tv_xmalloc(ch->usize);
		victim->cap = ch->usize;
	}
	if (td_decompress(f, f->mf.data + ch->file_off, ch->csize,
	    victim->buf, ch->usize, ch->file_off, err) != TV_OK)
		return NULL;
	victim->cpu = cpu;
	victim->chunk = idx;
	victim->stamp = ++c->stamp;
	return victim;
}

/* Bytes [off, off + len) of @cpu's (uncompressed) data. */
const uint8_t *
td_cpu_bytes(struct td_file *f, struct td_chunks *c,
    const struct td_cpu *cpu, uint64_t off, uint64_t len,
    struct tv_error *err)
{
	const struct td_chunk_slot *s;
	const struct td_chunk *ch;
	uint32_t idx;

	if (off > cpu->usize || len > cpu->usize - off) {
		tv_error_at(err, TV_CORRUPT, f->path, cpu->offset + off,
		    _("page past the end of the CPU data"));
		return NULL;
	}
	if (!cpu->chunks)
		return f->mf.data + cpu->offset + off;
	if (cpu->nchunks == 0) {
		tv_error_at(err, TV_CORRUPT, f->path, cpu->offset,
		    _("no compressed chunks"));
		return NULL;
	}
	/* most reads are of a chunk just read: no search for it */
	for (idx = 0; c != NULL && idx < TD_CHUNK_CACHE; idx++) {
		struct td_chunk_slot *cs = &c->slots[idx];

		if (cs->cpu != cpu)
			continue;
		ch = &cpu->chunks[cs->chunk];
		if (off >= ch->uoff && off - ch->uoff <= ch->usize &&
		    len <= ch->usize - (off - ch->uoff)) {
			cs->stamp = ++c->stamp;
			return cs->buf + (off - ch->uoff);
		}
	}
	idx = find_chunk(cpu, off);
	ch = &cpu->chunks[idx];
	if (off - ch->uoff > ch->usize || len > ch->usize - (off - ch->uoff)) {
		tv_error_at(err, TV_CORRUPT, f->path, ch->file_off,
		    _("page crosses a chunk boundary"));
		return NULL;
	}
	if (c == NULL) {
		tv_error_at(err, TV_CORRUPT, f->path, ch->file_off,
		    _("compressed data read without a chunk cache"));
		return NULL;
	}
	s = get_chunk(f, c, cpu, idx, err);
	if (!s)
		return NULL;
	return s->buf + (off - ch->uoff);
}

/* Free every cached chunk, and the caches' locks. */
void
td_chunk_cache_free(struct td_file *f)
{
	uint32_t i, k;

	for (k = 0; k < TD_CHUNK_SETS; k++) {
		for (i = 0; i < TD_CHUNK_CACHE; i++) {
			free(f->chunks[k].slots[i].buf);
			f->chunks[k].slots[i].buf = NULL;
			f->chunks[k].slots[i].cap = 0;
			f->chunks[k].slots[i].cpu = NULL;
		}
		pthread_mutex_destroy(&f->chunks[k].lock);
	}
}

/* td_packet_copy with chunk cache @c taken. */
static enum tv_status
copy_locked(struct td_file *f, struct td_chunks *c,
    const struct td_cpu *cpu, const struct tv_packet *p, uint8_t **out,
    uint64_t *len, struct tv_error *err)
{
	const uint8_t *pg = td_cpu_bytes(f, c, cpu, p->offset, p->size, err);

	if (!pg)
		return err ? err->status : TV_CORRUPT;
	*out = tv_xmalloc(p->size ? p->size : 1);
	memcpy(*out, pg, p->size);
	*len = p->size;
	return TV_OK;
}

/* The packet_copy op: page @pkt of @s, decompressed, copied under the lock. */
enum tv_status
td_packet_copy(const struct tv_stream *s, uint64_t pkt, uint8_t **out,
    uint64_t *len, struct tv_error *err)
{
	const struct td_trace_priv *tp = s->trace->priv;
	const struct td_stream_priv *sp = s->priv;
	struct td_file *f = tp->file;
	const struct tv_packet *p;
	struct td_chunks *c;
	enum tv_status st;

	*out = NULL;
	*len = 0;
	if (pkt >= s->npackets)
		return tv_error_set(err, TV_NOT_FOUND, NULL, _("no such record"));
	p = &s->packets[pkt];
	TD_CHUNKED(f, c, st, err, copy_locked(f, c, sp->cpu, p, out, len,
	    err));
	if (st != TV_OK) {
		/* a fault in the copy comes back here with the buffer made */
		free(*out);
		*out = NULL;
		*len = 0;
	}
	return st;
}
