/*
 * The trace.dat version 6 layout (after the common file header): header
 * page/event formats, ftrace and event-system formats, kallsyms, printk
 * formats, saved cmdlines, the CPU count, the options, then either the
 * latency text or the flyrecord table of per-CPU data.  The pieces and
 * the options are read by tracedat-meta.c, as in v7.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/i18n.h"
#include "tracedat-priv.h"

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
	struct td_cur oc;
	uint16_t id;

	for (;;) {
		if (td_read_u16(c, &id, err) != TV_OK)
			return TV_CORRUPT;
		if (id == TD_OPT_DONE)
			return TV_OK;
		if (td_read_option_data(c, &oc, err) != TV_OK ||
		    td_parse_option(f, id, &oc, err) != TV_OK)
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
	    td_read_kallsyms(f, c, err) != TV_OK ||
	    td_read_printk(f, c, err) != TV_OK ||
	    td_read_cmdlines(f, c, err) != TV_OK ||
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
