/*
 * The trace.dat version 6 layout (after the common file header): header
 * page/event formats, ftrace and event-system formats, kallsyms, printk
 * formats, saved cmdlines, the CPU count, the options, then either the
 * latency text or the flyrecord table of per-CPU data.  The metadata
 * readers here also read the same pieces inside v7 sections.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/i18n.h"
#include "tracedat-priv.h"

/* A size of @width bytes (4 or 8) followed by that many bytes. */
enum tv_status
td_read_sized(struct td_cur *c, unsigned width, struct td_blob *out,
    struct tv_error *err)
{
	uint32_t s32;
	uint64_t size;
	enum tv_status st;

	if (width == 4) {
		st = td_read_u32(c, &s32, err);
		size = s32;
	} else {
		st = td_read_u64(c, &size, err);
	}
	if (st != TV_OK)
		return st;
	return td_read_bytes(c, size, out, err);
}

/* "header_page\0" SIZE DATA "header_event\0" SIZE DATA. */
enum tv_status
td_read_header_info(struct td_file *f, struct td_cur *c, struct tv_error *err)
{
	if (td_expect(c, "header_page", 12, err) != TV_OK ||
	    td_read_sized(c, 8, &f->header_page, err) != TV_OK ||
	    td_expect(c, "header_event", 13, err) != TV_OK ||
	    td_read_sized(c, 8, &f->header_event, err) != TV_OK)
		return TV_CORRUPT;
	return TV_OK;
}

/* COUNT, then COUNT x (SIZE8 FORMAT) of the ftrace system. */
enum tv_status
td_read_ftrace_formats(struct td_file *f, struct td_cur *c,
    struct tv_error *err)
{
	struct td_blob b;
	uint32_t n, i;

	if (td_read_u32(c, &n, err) != TV_OK)
		return TV_CORRUPT;
	if (n > TD_MAX_EVENTS)
		return td_error(c, err, _("too many event formats (%u)"), n);
	for (i = 0; i < n; i++) {
		if (td_read_sized(c, 8, &b, err) != TV_OK)
			return TV_CORRUPT;
		td_add_format(f, "ftrace", b);
	}
	return TV_OK;
}

/* NSYSTEMS, then per system: NAME COUNT COUNT x (SIZE8 FORMAT). */
enum tv_status
td_read_event_formats(struct td_file *f, struct td_cur *c,
    struct tv_error *err)
{
	const char *sys;
	struct td_blob b;
	uint32_t nsys, n, i, j;

	if (td_read_u32(c, &nsys, err) != TV_OK)
		return TV_CORRUPT;
	if (nsys > TD_MAX_SYSTEMS)
		return td_error(c, err, _("too many event systems (%u)"),
		    nsys);
	for (i = 0; i < nsys; i++) {
		if (td_read_str(c, &sys, err) != TV_OK ||
		    td_read_u32(c, &n, err) != TV_OK)
			return TV_CORRUPT;
		if (n > TD_MAX_EVENTS || f->nformats + n > TD_MAX_EVENTS)
			return td_error(c, err,
			    _("too many event formats (%u)"), n);
		for (j = 0; j < n; j++) {
			if (td_read_sized(c, 8, &b, err) != TV_OK)
				return TV_CORRUPT;
			td_add_format(f, sys, b);
		}
	}
	return TV_OK;
}

/* The flyrecord table: @ncpus x (OFFSET8 SIZE8), checked against the file. */
static enum tv_status
read_cpu_table(struct td_file *f, struct td_cur *c, struct td_buffer *b,
    uint32_t ncpus, struct tv_error *err)
{
	uint32_t i;

	b->cpus = tv_xcalloc(ncpus ? ncpus : 1, sizeof(*b->cpus));
	for (i = 0; i < ncpus; i++) {
		struct td_cpu *cpu = &b->cpus[b->ncpus];
		uint64_t at = c->pos;

		if (td_read_u64(c, &cpu->offset, err) != TV_OK ||
		    td_read_u64(c, &cpu->size, err) != TV_OK)
			return TV_CORRUPT;
		if (cpu->offset > f->mf.size ||
		    cpu->size > f->mf.size - cpu->offset) {
			/* a cut file: what is there is read, then an error */
			(void)at;
			cpu->declared = cpu->size;
			cpu->size = cpu->offset > f->mf.size ? 0 :
			    f->mf.size - cpu->offset;
			cpu->truncated = true;
			if (cpu->offset > f->mf.size)
				cpu->offset = f->mf.size;
		}
		cpu->cpu = i;
		cpu->usize = cpu->size;
		if (cpu->size != 0 || cpu->truncated)
			b->ncpus++;
	}
	return TV_OK;
}

/* The v6 options: ID16, then (unless 0) SIZE32 and the data. */
static enum tv_status
read_options(struct td_file *f, struct td_cur *c, struct tv_error *err)
{
	struct td_blob b;
	struct td_cur oc;
	uint16_t id;
	uint32_t size;

	for (;;) {
		if (td_read_u16(c, &id, err) != TV_OK)
			return TV_CORRUPT;
		if (id == 0)
			return TV_OK;
		if (td_read_u32(c, &size, err) != TV_OK)
			return TV_CORRUPT;
		if (td_read_bytes(c, size, &b, err) != TV_OK)
			return TV_CORRUPT;
		td_cur_init(&oc, c->path, b.ptr, b.len,
		    c->base_off + c->pos - size, c->be);
		if (td_parse_option(f, id, &oc, err) != TV_OK)
			return TV_CORRUPT;
	}
}

/* The data of a v6 instance buffer: its own flyrecord table. */
static enum tv_status
read_v6_instances(struct td_file *f, struct tv_error *err)
{
	uint32_t i;

	for (i = 1; i < f->nbuffers; i++) {
		struct td_buffer *b = &f->buffers[i];
		struct td_cur c;

		if (b->is_text)
			continue;
		td_cur_init(&c, f->path, f->mf.data, f->mf.size, 0, f->be);
		if (b->v6_offset > f->mf.size)
			return tv_error_at(err, TV_CORRUPT, f->path,
			    b->v6_offset, _("buffer \"%s\" is past the end "
			    "of the file"), b->name);
		c.pos = b->v6_offset;
		if (c.len - c.pos >= 10 &&
		    memcmp(c.data + c.pos, "flyrecord", 10) == 0)
			c.pos += 10;
		if (read_cpu_table(f, &c, b, f->cpus, err) != TV_OK)
			return TV_CORRUPT;
		b->page_size = f->page_size;
	}
	return TV_OK;
}

/* Everything after the common header of a v6 file. */
enum tv_status
td_read_v6(struct td_file *f, struct td_cur *c, struct tv_error *err)
{
	struct td_buffer *top;
	struct td_blob clk;
	uint32_t cpus;

	if (td_read_header_info(f, c, err) != TV_OK ||
	    td_read_ftrace_formats(f, c, err) != TV_OK ||
	    td_read_event_formats(f, c, err) != TV_OK ||
	    td_read_sized(c, 4, &f->kallsyms, err) != TV_OK ||
	    td_read_sized(c, 4, &f->printk, err) != TV_OK ||
	    td_read_sized(c, 8, &f->cmdlines, err) != TV_OK ||
	    td_read_u32(c, &cpus, err) != TV_OK)
		return TV_CORRUPT;
	if (cpus > TD_MAX_CPUS)
		return td_error(c, err, _("too many CPUs (%u)"), cpus);
	f->cpus = cpus;
	/* buffers[0] is the top buffer; options may add instances */
	f->buffers = tv_xcalloc(1, sizeof(*f->buffers));
	f->buffers[0].name = tv_xstrdup("");
	f->buffers[0].page_size = f->page_size;
	f->nbuffers = 1;
	if (c->len - c->pos < 10)
		return td_error(c, err, _("no trace data"));
	if (memcmp(c->data + c->pos, "options  ", 10) == 0) {
		c->pos += 10;
		if (read_options(f, c, err) != TV_OK)
			return TV_CORRUPT;
	}
	top = &f->buffers[0];
	if (c->len - c->pos >= 10 &&
	    memcmp(c->data + c->pos, "latency  ", 10) == 0) {
		c->pos += 10;
		top->is_text = true;
		top->text.ptr = c->data + c->pos;
		top->text.len = c->len - c->pos;
		return TV_OK;
	}
	if (td_expect(c, "flyrecord", 10, err) != TV_OK)
		return TV_CORRUPT;
	if (read_cpu_table(f, c, top, cpus, err) != TV_OK)
		return TV_CORRUPT;
	if (f->has_trace_clock_opt) {
		/* a bug in old trace-cmd could leave this unreadable */
		if (td_read_sized(c, 8, &clk, NULL) == TV_OK) {
			free(f->trace_clock);
			f->trace_clock = tv_xstrndup((const char *)clk.ptr,
			    clk.len);
		} else {
			free(f->trace_clock);
			f->trace_clock = tv_xstrdup("[local]");
		}
	}
	return read_v6_instances(f, err);
}
