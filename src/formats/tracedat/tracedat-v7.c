/*
 * The trace.dat version 7 layout: the compression header, the chain of
 * OPTIONS sections (each ends with DONE and the offset of the next; loops
 * are refused), the sections the options point to (header info, ftrace
 * and event formats, kallsyms, printk, cmdlines), possibly compressed,
 * and the BUFFER options that describe each instance's per-CPU data.
 * The option parser is shared with v6.
 */
#include "tview/tview.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/i18n.h"
#include "tracedat-priv.h"

enum {
	OPT_DONE = 0, OPT_DATE, OPT_CPUSTAT, OPT_BUFFER, OPT_TRACECLOCK,
	OPT_UNAME, OPT_HOOK, OPT_OFFSET, OPT_CPUCOUNT, OPT_VERSION,
	OPT_PROCMAPS, OPT_TRACEID, OPT_TIME_SHIFT, OPT_GUEST, OPT_TSC2NSEC,
	OPT_STRINGS, OPT_HEADER_INFO, OPT_FTRACE_EVENTS, OPT_EVENT_FORMATS,
	OPT_KALLSYMS, OPT_PRINTK, OPT_CMDLINES, OPT_BUFFER_TEXT,
	OPT_COUNT,
};

#define SEC_COMPRESSED	0x1

_Static_assert(OPT_COUNT == TD_NOPTION_NAMES, "one name per option id");

/* Offsets of the metadata sections, from the options (0: absent). */
struct v7_sections {
	uint64_t	 off[OPT_COUNT];
};

/* The names of the options, by id, for --info. */
const char *const td_option_names[TD_NOPTION_NAMES] = {
	"DONE", "DATE", "CPUSTAT", "BUFFER", "TRACECLOCK", "UNAME", "HOOK",
	"OFFSET", "CPUCOUNT", "VERSION", "PROCMAPS", "TRACEID", "TIME_SHIFT",
	"GUEST", "TSC2NSEC", "STRINGS", "HEADER_INFO", "FTRACE_EVENTS",
	"EVENT_FORMATS", "KALLSYMS", "PRINTK", "CMDLINES", "BUFFER_TEXT",
};

/* An option's data as a string, without trailing NULs or newlines. */
char *
td_opt_string(const struct td_cur *data)
{
	size_t n = data->len;

	while (n > 0 && (data->data[n - 1] == '\0' ||
	    data->data[n - 1] == '\n'))
		n--;
	return tv_xstrndup((const char *)data->data, n);
}

/* Add a buffer (instance) to the file; returns it. */
static struct td_buffer *
add_buffer(struct td_file *f)
{
	struct td_buffer *b;

	f->buffers = tv_xreallocarray(f->buffers, f->nbuffers + 1,
	    sizeof(*f->buffers));
	b = &f->buffers[f->nbuffers++];
	memset(b, 0, sizeof(*b));
	b->page_size = f->page_size;
	return b;
}

/* The v7 BUFFER option: OFFSET NAME CLOCK PAGESIZE NCPUS (ID OFF SIZE)*. */
static enum tv_status
opt_buffer_v7(struct td_file *f, struct td_cur *d, struct tv_error *err)
{
	const char *name, *clock;
	struct td_buffer *b;
	uint64_t off;
	uint32_t psize, n, i;

	if (td_read_u64(d, &off, err) != TV_OK ||
	    td_read_str(d, &name, err) != TV_OK ||
	    td_read_str(d, &clock, err) != TV_OK ||
	    td_read_u32(d, &psize, err) != TV_OK ||
	    td_read_u32(d, &n, err) != TV_OK)
		return TV_CORRUPT;
	if (n > TD_MAX_CPUS)
		return td_error(d, err, _("too many CPUs (%u)"), n);
	if (psize < 16 || psize > TD_MAX_PAGE)
		return td_error(d, err, _("bad page size %u"), psize);
	if (f->nbuffers >= TD_MAX_BUFFERS)
		return td_error(d, err, _("too many buffers"));
	if (name[0] == '\0' && f->nbuffers > 0 && f->buffers[0].cpus == NULL)
		b = &f->buffers[0];
	else
		b = add_buffer(f);
	free(b->name);
	b->name = tv_xstrdup(name);
	b->clock = tv_xstrdup(clock);
	b->page_size = psize;
	b->v6_offset = off;
	b->cpus = tv_xcalloc(n ? n : 1, sizeof(*b->cpus));
	for (i = 0; i < n; i++) {
		struct td_cpu *cpu = &b->cpus[b->ncpus];
		uint64_t at = d->pos;

		if (td_read_u32(d, &cpu->cpu, err) != TV_OK ||
		    td_read_u64(d, &cpu->offset, err) != TV_OK ||
		    td_read_u64(d, &cpu->size, err) != TV_OK)
			return TV_CORRUPT;
		if (cpu->offset > f->mf.size ||
		    cpu->size > f->mf.size - cpu->offset) {
			d->pos = at;
			return td_error(d, err, _("CPU %u data (offset 0x%llx,"
			    " %llu bytes) is past the end of the file"),
			    cpu->cpu, (unsigned long long)cpu->offset,
			    (unsigned long long)cpu->size);
		}
		cpu->usize = cpu->size;
		if (cpu->size != 0)
			b->ncpus++;
	}
	return TV_OK;
}

/* The v6 BUFFER option: OFFSET NAME (the data has the CPU table). */
static enum tv_status
opt_buffer_v6(struct td_file *f, struct td_cur *d, struct tv_error *err)
{
	struct td_buffer *b;
	const char *name;
	uint64_t off;

	if (td_read_u64(d, &off, err) != TV_OK ||
	    td_read_str(d, &name, err) != TV_OK)
		return TV_CORRUPT;
	if (f->nbuffers >= TD_MAX_BUFFERS)
		return td_error(d, err, _("too many buffers"));
	if (f->nbuffers == 0) {
		b = add_buffer(f);
		b->name = tv_xstrdup("");
	}
	b = add_buffer(f);
	b->name = tv_xstrdup(name);
	b->v6_offset = off;
	return TV_OK;
}

/* One option (both versions); @d holds exactly its data. */
enum tv_status
td_parse_option(struct td_file *f, uint16_t id, struct td_cur *d,
    struct tv_error *err)
{
	char *s;

	f->noptions++;
	if (id < 32)
		f->option_mask |= 1u << id;
	switch (id) {
	case OPT_DATE:
		/* report adds it (microseconds) unless given --nodate */
		free(f->date);
		f->date = td_opt_string(d);
		f->ts_offset += strtoll(f->date, NULL, 0) * 1000;
		break;
	case OPT_BUFFER:
		return f->version >= 7 ? opt_buffer_v7(f, d, err) :
		    opt_buffer_v6(f, d, err);
	case OPT_TRACECLOCK:
		f->has_trace_clock_opt = true;
		if (d->len > 0) {
			free(f->trace_clock);
			f->trace_clock = td_opt_string(d);
		}
		break;
	case OPT_UNAME:
		free(f->uname);
		f->uname = td_opt_string(d);
		break;
	case OPT_OFFSET:
		s = td_opt_string(d);
		f->ts_offset += strtoll(s, NULL, 0);
		free(s);
		break;
	case OPT_CPUCOUNT:
		if (d->len >= 4) {
			uint32_t n;

			td_read_u32(d, &n, NULL);
			if (n > TD_MAX_CPUS)
				return td_error(d, err,
				    _("too many CPUs (%u)"), n);
			f->cpus = n;
		}
		break;
	case OPT_VERSION:
		free(f->tc_version);
		f->tc_version = td_opt_string(d);
		break;
	case OPT_TRACEID:
		if (td_read_u64(d, &f->trace_id, NULL) == TV_OK)
			f->has_trace_id = true;
		break;
	case OPT_TSC2NSEC:
		if (td_read_u32(d, &f->tsc_mult, NULL) == TV_OK &&
		    td_read_u32(d, &f->tsc_shift, NULL) == TV_OK &&
		    td_read_u64(d, &f->tsc_offset, NULL) == TV_OK &&
		    f->tsc_shift < 64)
			f->has_tsc2nsec = true;
		break;
	case OPT_TIME_SHIFT:
		return td_opt_time_shift(f, d, err);
	case OPT_GUEST:
		return td_opt_guest(f, d, err);
	default:
		/* CPUSTAT, HOOK, PROCMAPS, STRINGS and
		 * the section offsets (read by the v7 code) */
		break;
	}
	return TV_OK;
}

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
	struct td_blob b;
	struct td_cur d;
	uint16_t id;
	uint32_t size;

	*next = 0;
	while (c->pos < c->len) {
		if (td_read_u16(c, &id, err) != TV_OK ||
		    td_read_u32(c, &size, err) != TV_OK ||
		    td_read_bytes(c, size, &b, err) != TV_OK)
			return TV_CORRUPT;
		td_cur_init(&d, c->path, b.ptr, b.len,
		    c->base_off + c->pos - size, c->be);
		if (id == OPT_DONE) {
			if (td_read_u64(&d, next, err) != TV_OK)
				return TV_CORRUPT;
			return TV_OK;
		}
		if (id < 32)
			f->option_mask |= 1u << id;
		if (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES) {
			if (td_read_u64(&d, &secs->off[id], err) != TV_OK)
				return TV_CORRUPT;
			continue;
		}
		if (id == OPT_BUFFER_TEXT) {
			struct td_buffer *bt;
			const char *name;

			if (f->nbuffers >= TD_MAX_BUFFERS)
				return td_error(&d, err,
				    _("too many buffers"));
			bt = add_buffer(f);
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

/* Sections whose whole content is one sized blob. */
static enum tv_status
meta_kallsyms(struct td_file *f, struct td_cur *c, struct tv_error *err)
{
	return td_read_sized(c, 4, &f->kallsyms, err);
}

/* The printk formats section. */
static enum tv_status
meta_printk(struct td_file *f, struct td_cur *c, struct tv_error *err)
{
	return td_read_sized(c, 4, &f->printk, err);
}

/* The saved cmdlines section. */
static enum tv_status
meta_cmdlines(struct td_file *f, struct td_cur *c, struct tv_error *err)
{
	return td_read_sized(c, 8, &f->cmdlines, err);
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
		if (read_section(f, b->v6_offset, OPT_BUFFER_TEXT, &c,
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
	    td_read_u16(&c, &flags, NULL) != TV_OK || id != OPT_BUFFER)
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
		if (read_section(f, off, OPT_DONE, &oc, err) != TV_OK ||
		    read_options(f, &oc, &secs, &off, err) != TV_OK)
			return TV_CORRUPT;
	}
	if (secs.off[OPT_HEADER_INFO] == 0)
		return tv_error_at(err, TV_CORRUPT, f->path, 0,
		    _("no header info section"));
	if (read_meta(f, &secs, OPT_HEADER_INFO, td_read_header_info,
	    err) != TV_OK ||
	    read_meta(f, &secs, OPT_FTRACE_EVENTS, td_read_ftrace_formats,
	    err) != TV_OK ||
	    read_meta(f, &secs, OPT_EVENT_FORMATS, td_read_event_formats,
	    err) != TV_OK ||
	    read_meta(f, &secs, OPT_KALLSYMS, meta_kallsyms, err) != TV_OK ||
	    read_meta(f, &secs, OPT_PRINTK, meta_printk, err) != TV_OK ||
	    read_meta(f, &secs, OPT_CMDLINES, meta_cmdlines, err) != TV_OK ||
	    read_text_buffers(f, err) != TV_OK)
		return TV_CORRUPT;
	if (!(f->option_mask & (1u << OPT_CPUCOUNT)))
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
