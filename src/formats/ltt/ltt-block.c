/*
 * LTT sub-buffers ("blocks"): the header every LTT tracefile version
 * starts each sub-buffer with (cycle counts, the 0x00D6B7ED magic that
 * gives the byte order, version, sizes, lost-event counter), decoded per
 * version, and the packet index of one tracefile: one packet per
 * sub-buffer, every size checked against the mapped file.
 */
#include "tview/tview.h"

#include <string.h>

#include "tview/bytes.h"
#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "ltt-priv.h"

/* Offsets shared by the 2.x sub-buffer headers (LTTng 0.x, marker era). */
#define HDR_CYCLES_BEGIN	0x00
#define HDR_CYCLES_END		0x08
#define HDR_MAGIC		0x10
#define HDR_MAJOR		0x14
#define HDR_MINOR		0x15
#define HDR_ARCH_SIZE		0x16
#define HDR_ALIGNMENT		0x17
#define HDR_START_SEC		0x18
#define HDR_START_USEC		0x20
#define HDR_START_FREQ		0x28
#define HDR_FREQ_SCALE		0x30
#define HDR_SIZE_A		0x34	/* 2.3: lost_size, 2.5+: data_size */
#define HDR_SIZE_B		0x38	/* 2.3: buf_size, 2.5+: sb_size */
#define HDR_EVENTS_LOST		0x3c
#define HDR_SUBBUF_CORRUPT	0x40
#define HDR_END			0x44

/* A 16-bit integer in the trace byte order. */
uint16_t
ltt_u16(const uint8_t *p, bool swap)
{
	return tv_load16(p, swap);
}

/* A 32-bit integer in the trace byte order. */
uint32_t
ltt_u32(const uint8_t *p, bool swap)
{
	return tv_load32(p, swap);
}

/* A 64-bit integer in the trace byte order. */
uint64_t
ltt_u64(const uint8_t *p, bool swap)
{
	return tv_load64(p, swap);
}

/* LTTV's ltt_align(): no padding when the trace is unaligned (0). */
uint64_t
ltt_align(uint64_t off, uint64_t size, uint64_t alignment)
{
	uint64_t a = TV_MIN(alignment, size);

	if (alignment == 0 || a == 0)
		return 0;
	return (a - off) & (a - 1);
}

/* The fields common to the 2.x headers. */
static void
read_common(const uint8_t *p, bool swap, struct ltt_block *b)
{
	b->cycles_begin = ltt_u64(p + HDR_CYCLES_BEGIN, swap);
	b->cycles_end = ltt_u64(p + HDR_CYCLES_END, swap);
	b->major = p[HDR_MAJOR];
	b->minor = p[HDR_MINOR];
	b->arch_size = p[HDR_ARCH_SIZE];
	b->alignment = p[HDR_ALIGNMENT];
	b->start_time_sec = ltt_u64(p + HDR_START_SEC, swap);
	b->start_time_usec = ltt_u64(p + HDR_START_USEC, swap);
	b->start_freq = ltt_u64(p + HDR_START_FREQ, swap);
	b->freq_scale = ltt_u32(p + HDR_FREQ_SCALE, swap);
	b->events_lost = ltt_u32(p + HDR_EVENTS_LOST, swap);
	b->subbuf_corrupt = ltt_u32(p + HDR_SUBBUF_CORRUPT, swap);
}

/* Check the magic of the header at @p. */
static enum tv_status
check_magic(const uint8_t *p, bool swap, const char *path, uint64_t off,
    struct tv_error *err)
{
	uint32_t m = ltt_u32(p + HDR_MAGIC, swap);

	if (m != LTT_MAGIC)
		return tv_error_at(err, TV_CORRUPT, path, off + HDR_MAGIC,
		    _("bad sub-buffer magic 0x%08x (expected 0x%08x)"),
		    (unsigned)m, (unsigned)LTT_MAGIC);
	return TV_OK;
}

/*
 * What every version's sub-buffer header starts with: magic, the common
 * fields, then two sizes.  Reads them into @b, *@field_a (lost_size in 2.3,
 * data_size from 2.5) and *@size, checking the size against the file.
 */
static enum tv_status
read_block_head(const uint8_t *p, uint64_t avail, bool swap, const char *path,
    uint64_t off, struct ltt_block *b, uint32_t *field_a, uint32_t *size,
    struct tv_error *err)
{
	if (avail < HDR_END)
		return tv_error_at(err, TV_CORRUPT, path, off,
		    _("truncated sub-buffer header (%llu bytes left)"),
		    (unsigned long long)avail);
	if (check_magic(p, swap, path, off, err) != TV_OK)
		return TV_CORRUPT;
	read_common(p, swap, b);
	*field_a = ltt_u32(p + HDR_SIZE_A, swap);
	*size = ltt_u32(p + HDR_SIZE_B, swap);
	if (*size < HDR_END || *size > avail)
		return tv_error_at(err, TV_CORRUPT, path, off + HDR_SIZE_B,
		    _("sub-buffer size %u out of range (%llu bytes left)"),
		    (unsigned)*size, (unsigned long long)avail);
	return TV_OK;
}

/* Format 2.3: fixed buf_size, lost_size bytes of padding at the end. */
static enum tv_status
read_block_2_3(const uint8_t *p, uint64_t avail, bool swap, const char *path,
    uint64_t off, struct ltt_block *b, struct tv_error *err)
{
	uint32_t lost, size;

	if (read_block_head(p, avail, swap, path, off, b, &lost, &size,
	    err) != TV_OK)
		return TV_CORRUPT;
	if (lost > size - HDR_END)
		return tv_error_at(err, TV_CORRUPT, path, off + HDR_SIZE_A,
		    _("lost size %u larger than the sub-buffer (%u)"),
		    (unsigned)lost, (unsigned)size);
	b->size = size;
	b->content = size - lost;
	return TV_OK;
}

/* Formats 2.5 and 2.6: data_size and sb_size per sub-buffer. */
static enum tv_status
read_block_2_6(const uint8_t *p, uint64_t avail, bool swap, const char *path,
    uint64_t off, struct ltt_block *b, struct tv_error *err)
{
	uint32_t data, size;

	if (read_block_head(p, avail, swap, path, off, b, &data, &size,
	    err) != TV_OK)
		return TV_CORRUPT;
	if (data < HDR_END || data > size)
		return tv_error_at(err, TV_CORRUPT, path, off + HDR_SIZE_A,
		    _("data size %u out of range (sub-buffer of %u bytes)"),
		    (unsigned)data, (unsigned)size);
	b->size = size;
	b->content = data;
	return TV_OK;
}

const struct ltt_version_ops ltt_ops_2_3 = {
	.name		= "2.3",
	.header_size	= HDR_END,
	.tsc_bits	= 27,
	.read_block	= read_block_2_3,
};

const struct ltt_version_ops ltt_ops_2_6 = {
	.name		= "2.6",
	.header_size	= HDR_END,
	.tsc_bits	= 27,
	.tsc_whole	= true,
	.read_block	= read_block_2_6,
};

/*
 * Byte order and version of a tracefile from its first header; @b gets
 * the header itself.  TV_UNSUPPORTED for LTT versions read elsewhere or
 * not at all.
 */
enum tv_status
ltt_read_first(const uint8_t *p, uint64_t size, const char *path, bool *swap,
    const struct ltt_version_ops **ops, struct ltt_block *b,
    struct tv_error *err)
{
	uint32_t m;

	if (size < HDR_MAGIC + 4)
		return tv_error_at(err, TV_CORRUPT, path, 0,
		    _("file too small for an LTT sub-buffer header "
		    "(%llu bytes)"), (unsigned long long)size);
	m = ltt_u32(p + HDR_MAGIC, false);
	if (m == LTT_MAGIC)
		*swap = false;
	else if (m == LTT_MAGIC_REV)
		*swap = true;
	else
		return tv_error_at(err, TV_CORRUPT, path, HDR_MAGIC,
		    _("bad sub-buffer magic 0x%08x (expected 0x%08x)"),
		    (unsigned)m, (unsigned)LTT_MAGIC);
	if (size < HDR_END)
		return tv_error_at(err, TV_CORRUPT, path, 0,
		    _("truncated sub-buffer header (%llu bytes left)"),
		    (unsigned long long)size);
	if (p[HDR_MAJOR] == 2 && p[HDR_MINOR] == 3)
		*ops = &ltt_ops_2_3;
	else if (p[HDR_MAJOR] == 2 && (p[HDR_MINOR] == 5 ||
	    p[HDR_MINOR] == 6))
		*ops = &ltt_ops_2_6;
	else
		return tv_error_at(err, TV_UNSUPPORTED, path, HDR_MAJOR,
		    _("LTT trace format %u.%u is not supported"),
		    (unsigned)p[HDR_MAJOR], (unsigned)p[HDR_MINOR]);
	return (*ops)->read_block(p, size, *swap, path, 0, b, err);
}

/* Index the sub-buffers of the one file of stream @s. */
enum tv_status
ltt_stream_index(struct tv_stream *s, struct tv_error *err)
{
	const struct ltt_trace_priv *tp = s->trace->priv;
	const struct tv_mapfile *mf = &s->files[0];
	uint32_t prev_lost = 0, prev_corrupt = 0;
	uint64_t off = 0;

	while (off < mf->size) {
		struct ltt_block b;
		struct tv_packet *p;
		enum tv_status st;

		st = tp->ops->read_block(mf->data + off, mf->size - off,
		    tp->swap, mf->path, off, &b, err);
		if (st != TV_OK)
			return st;
		if (b.major != tp->major || b.minor != tp->minor)
			return tv_error_at(err, TV_CORRUPT, mf->path,
			    off + HDR_MAJOR,
			    _("sub-buffer of format %u.%u in a %u.%u trace"),
			    (unsigned)b.major, (unsigned)b.minor,
			    (unsigned)tp->major, (unsigned)tp->minor);
		p = tv_stream_add_packet(s);
		p->offset = off;
		p->size = b.size;
		p->content_bits = b.content * 8;
		p->cycles_begin = b.cycles_begin;
		p->cycles_end = b.cycles_end;
		p->ts_begin = ltt_tsc_to_ns(tp, b.cycles_begin);
		p->ts_end = ltt_tsc_to_ns(tp, b.cycles_end);
		p->discarded = (uint32_t)(b.events_lost - prev_lost);
		prev_lost = b.events_lost;
		/* Sub-buffers lost (corrupt) count in the sequence. */
		p->seq_num = (s->npackets - 1) + b.subbuf_corrupt;
		if (b.subbuf_corrupt != prev_corrupt)
			p->flags |= TV_PACKET_LOST_BEFORE;
		prev_corrupt = b.subbuf_corrupt;
		off += b.size;
	}
	return TV_OK;
}
