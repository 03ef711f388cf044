/*
 * The trace.dat version 7 layout: the compression header, the chain of
 * OPTIONS sections (each ends with DONE and the offset of the next; loops
 * are refused), the sections the options point to (header info, ftrace
 * and event formats, kallsyms, printk, cmdlines), possibly compressed,
 * and the BUFFER options that describe each instance's per-CPU data.
 * The pieces and the options are read by tracedat-meta.c, as in v6.
 */
#include "tview/tview.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/i18n.h"
#include "tracedat-priv.h"

#define SEC_COMPRESSED	0x1

/* Offsets of the metadata sections, from the options (0: absent). */
struct v7_sections {
	uint64_t	 off[TD_OPT_COUNT];
};

/*
 * The section at @off: check its id, and give its (decompressed) data in
 * @out.  Decompressed data is owned by the file.
 */
static enum tv_status
read_section(struct td_file *f, uint64_t off, uint16_t want,
    struct td_cur *out, struct tv_error *err)
{
	struct td_cur c;
	uint16_t id, flags;
	uint32_t strid, csize, usize;
	uint64_t size;
	struct td_blob b;
	uint8_t *buf;
	uint32_t i;

	td_cur_init(&c, f->path, f->mf.data, f->mf.size, 0, f->be);
	if (off > f->mf.size)
		return tv_error_at(err, TV_CORRUPT, f->path, off,
		    _("section offset is past the end of the file"));
	c.pos = off;
	if (td_read_u16(&c, &id, err) != TV_OK ||
	    td_read_u16(&c, &flags, err) != TV_OK ||
	    td_read_u32(&c, &strid, err) != TV_OK ||
	    td_read_u64(&c, &size, err) != TV_OK)
		return TV_CORRUPT;
	if (id != want) {
		c.pos = off;
		return td_error(&c, err, _("section id %u where %u was "
		    "expected"), id, want);
	}
	if (!(flags & SEC_COMPRESSED)) {
		if (td_read_bytes(&c, size, &b, err) != TV_OK)
			return TV_CORRUPT;
		td_cur_init(out, f->path, b.ptr, b.len, c.pos - size, f->be);
		return TV_OK;
	}
	if (td_read_u32(&c, &csize, err) != TV_OK ||
	    td_read_u32(&c, &usize, err) != TV_OK)
		return TV_CORRUPT;
	/* already decompressed for another option: share it */
	for (i = 0; i < f->nowned; i++)
		if (f->owned[i].off == off) {
			td_cur_init(out, f->path, f->owned[i].buf,
			    f->owned[i].len, c.pos, f->be);
			return TV_OK;
		}
	if (usize > TD_MAX_SECTION)
		return td_error(&c, err, _("section too large (%u bytes)"),
		    usize);
	if (usize > TD_MAX_INFLATE - f->inflated) {
		c.pos -= 4;
		return td_error(&c, err, _("decompressing this section "
		    "(%u bytes) would exceed the %u MiB one file may "
		    "decompress"), usize, TD_MAX_INFLATE >> 20);
	}
	if (td_read_bytes(&c, csize, &b, err) != TV_OK)
		return TV_CORRUPT;
	buf = tv_xmalloc(usize ? usize : 1);
	if (td_decompress(f, b.ptr, csize, buf, usize, c.pos - csize,
	    err) != TV_OK) {
		free(buf);
		return TV_CORRUPT;
	}
	td_file_own(f, off, buf, usize);
	td_cur_init(out, f->path, buf, usize, c.pos - csize, f->be);
	return TV_OK;
}

/* The options of one OPTIONS section; *next gets DONE's offset. */
static enum tv_status
read_options(struct td_file *f, struct td_cur *c, struct v7_sections *secs,
    uint64_t *next, struct tv_error *err)
{
	struct td_cur d;
	uint16_t id;

	*next = 0;
	while (c->pos < c->len) {
		if (td_read_u16(c, &id, err) != TV_OK ||
		    td_read_option_data(c, &d, err) != TV_OK)
			return TV_CORRUPT;
		if (id == TD_OPT_DONE) {
			if (td_read_u64(&d, next, err) != TV_OK)
				return TV_CORRUPT;
			return TV_OK;
		}
		if (id < 32)
			f->option_mask |= 1u << id;
		if (id >= TD_OPT_HEADER_INFO && id <= TD_OPT_CMDLINES) {
			if (td_read_u64(&d, &secs->off[id], err) != TV_OK)
				return TV_CORRUPT;
			continue;
		}
		if (id == TD_OPT_BUFFER_TEXT) {
			struct td_buffer *bt;
			const char *name;

			if (f->nbuffers >= TD_MAX_BUFFERS)
				return td_error(&d, err,
				    _("too many buffers"));
			bt = td_add_buffer(f);
			bt->is_text = true;
			if (td_read_u64(&d, &bt->v6_offset, err) != TV_OK ||
			    td_read_str(&d, &name, err) != TV_OK)
				return TV_CORRUPT;
			bt->name = tv_xstrdup(name);
			continue;
		}
		if (td_parse_option(f, id, &d, err) != TV_OK)
			return TV_CORRUPT;
	}
	return td_error(c, err, _("options section without DONE"));
}

/* Read the metadata section of option @id, if any, with @fn. */
static enum tv_status
read_meta(struct td_file *f, const struct v7_sections *secs, uint16_t id,
    enum tv_status (*fn)(struct td_file *, struct td_cur *,
    struct tv_error *), struct tv_error *err)
{
	struct td_cur c;

	if (secs->off[id] == 0)
		return TV_OK;
	if (read_section(f, secs->off[id], id, &c, err) != TV_OK)
		return TV_CORRUPT;
	return fn(f, &c, err);
}

/* Latency text of a BUFFER_TEXT section. */
static enum tv_status
read_text_buffers(struct td_file *f, struct tv_error *err)
{
	uint32_t i;

	for (i = 0; i < f->nbuffers; i++) {
		struct td_buffer *b = &f->buffers[i];
		struct td_cur c;

		if (!b->is_text)
			continue;
		if (read_section(f, b->v6_offset, TD_OPT_BUFFER_TEXT, &c,
		    err) != TV_OK)
			return TV_CORRUPT;
		b->text.ptr = c.data;
		b->text.len = c.len;
	}
	return TV_OK;
}

/* Whether the flyrecord section at @off says its data is compressed. */
static bool
buffer_compressed(struct td_file *f, uint64_t off)
{
	struct td_cur c;
	uint16_t id, flags;

	if (f->comp == TD_COMP_NONE)
		return false;
	td_cur_init(&c, f->path, f->mf.data, f->mf.size, 0, f->be);
	if (off > f->mf.size)
		return true;
	c.pos = off;
	if (td_read_u16(&c, &id, NULL) != TV_OK ||
	    td_read_u16(&c, &flags, NULL) != TV_OK || id != TD_OPT_BUFFER)
		return true;
	return (flags & SEC_COMPRESSED) != 0;
}

/* Everything after "7\0", endianness, long size and page size. */
enum tv_status
td_read_v7(struct td_file *f, struct td_cur *c, struct tv_error *err)
{
	struct v7_sections secs;
	const char *name, *ver;
	uint64_t off, seen[64];
	uint32_t nsec = 0, i, k;

	memset(&secs, 0, sizeof(secs));
	if (td_read_str(c, &name, err) != TV_OK ||
	    td_read_str(c, &ver, err) != TV_OK)
		return TV_CORRUPT;
	snprintf(f->comp_name, sizeof(f->comp_name), "%s", name);
	snprintf(f->comp_version, sizeof(f->comp_version), "%s", ver);
	if (strcmp(name, "none") == 0)
		f->comp = TD_COMP_NONE;
	else if (strcmp(name, "zlib") == 0)
		f->comp = TD_COMP_ZLIB;
	else if (strcmp(name, "zstd") == 0)
		f->comp = TD_COMP_ZSTD;
	else
		return tv_error_at(err, TV_UNSUPPORTED, f->path,
		    c->pos, _("unknown compression \"%s\""), name);
	if (td_read_u64(c, &off, err) != TV_OK)
		return TV_CORRUPT;
	f->buffers = tv_xcalloc(1, sizeof(*f->buffers));
	f->buffers[0].name = tv_xstrdup("");
	f->buffers[0].page_size = f->page_size;
	f->nbuffers = 1;
	while (off != 0) {
		struct td_cur oc;

		for (k = 0; k < nsec && k < TV_ARRAY_SIZE(seen); k++)
			if (seen[k] == off)
				return tv_error_at(err, TV_CORRUPT, f->path,
				    off, _("the options sections form a "
				    "loop"));
		if (nsec >= TD_MAX_OPTION_SECTIONS)
			return tv_error_at(err, TV_CORRUPT, f->path, off,
			    _("too many options sections"));
		if (nsec < TV_ARRAY_SIZE(seen))
			seen[nsec] = off;
		nsec++;
		if (read_section(f, off, TD_OPT_DONE, &oc, err) != TV_OK ||
		    read_options(f, &oc, &secs, &off, err) != TV_OK)
			return TV_CORRUPT;
	}
	if (secs.off[TD_OPT_HEADER_INFO] == 0)
		return tv_error_at(err, TV_CORRUPT, f->path, 0,
		    _("no header info section"));
	if (read_meta(f, &secs, TD_OPT_HEADER_INFO, td_read_header_info,
	    err) != TV_OK ||
	    read_meta(f, &secs, TD_OPT_FTRACE_EVENTS, td_read_ftrace_formats,
	    err) != TV_OK ||
	    read_meta(f, &secs, TD_OPT_EVENT_FORMATS, td_read_event_formats,
	    err) != TV_OK ||
	    read_meta(f, &secs, TD_OPT_KALLSYMS, td_read_kallsyms, err) != TV_OK ||
	    read_meta(f, &secs, TD_OPT_PRINTK, td_read_printk, err) != TV_OK ||
	    read_meta(f, &secs, TD_OPT_CMDLINES, td_read_cmdlines, err) != TV_OK ||
	    read_text_buffers(f, err) != TV_OK)
		return TV_CORRUPT;
	if (!(f->option_mask & (1u << TD_OPT_CPUCOUNT)))
		f->cpus = f->buffers[0].ncpus;
	for (i = 0; i < f->nbuffers; i++) {
		struct td_buffer *b = &f->buffers[i];

		if (b->is_text || !buffer_compressed(f, b->v6_offset))
			continue;
		for (k = 0; k < b->ncpus; k++)
			if (td_load_chunks(f, &b->cpus[k], err) != TV_OK)
				return TV_CORRUPT;
	}
	return TV_OK;
}
