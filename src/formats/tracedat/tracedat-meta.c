/*
 * The trace.dat metadata both versions read, written once: the readers
 * of the pieces v6 stores in line and v7 in sections (header info, ftrace
 * and event formats, kallsyms, printk formats, saved cmdlines) and the
 * option parser (v6 options, v7 OPTIONS sections).  tracedat-v6.c and
 * tracedat-v7.c only walk their layouts.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/i18n.h"
#include "tracedat-priv.h"

_Static_assert(TD_OPT_COUNT == TD_NOPTION_NAMES, "one name per option id");

/* The names of the options, by id, for --info. */
const char *const td_option_names[TD_NOPTION_NAMES] = {
	"DONE", "DATE", "CPUSTAT", "BUFFER", "TRACECLOCK", "UNAME", "HOOK",
	"OFFSET", "CPUCOUNT", "VERSION", "PROCMAPS", "TRACEID", "TIME_SHIFT",
	"GUEST", "TSC2NSEC", "STRINGS", "HEADER_INFO", "FTRACE_EVENTS",
	"EVENT_FORMATS", "KALLSYMS", "PRINTK", "CMDLINES", "BUFFER_TEXT",
};

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

/* The kallsyms, a sized blob (both versions). */
enum tv_status
td_read_kallsyms(struct td_file *f, struct td_cur *c, struct tv_error *err)
{
	return td_read_sized(c, 4, &f->kallsyms, err);
}

/* The printk formats, a sized blob. */
enum tv_status
td_read_printk(struct td_file *f, struct td_cur *c, struct tv_error *err)
{
	return td_read_sized(c, 4, &f->printk, err);
}

/* The saved cmdlines, a sized blob. */
enum tv_status
td_read_cmdlines(struct td_file *f, struct td_cur *c, struct tv_error *err)
{
	return td_read_sized(c, 8, &f->cmdlines, err);
}

/* An option's SIZE32 and that many bytes, as the cursor @data. */
enum tv_status
td_read_option_data(struct td_cur *c, struct td_cur *data,
    struct tv_error *err)
{
	struct td_blob b;
	uint32_t size;

	if (td_read_u32(c, &size, err) != TV_OK ||
	    td_read_bytes(c, size, &b, err) != TV_OK)
		return TV_CORRUPT;
	td_cur_init(data, c->path, b.ptr, b.len, c->base_off + c->pos - size,
	    c->be);
	return TV_OK;
}

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
struct td_buffer *
td_add_buffer(struct td_file *f)
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
		b = td_add_buffer(f);
	free(b->name);
	b->name = tv_xstrdup(name);
	free(b->clock);
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
		b = td_add_buffer(f);
		b->name = tv_xstrdup("");
	}
	b = td_add_buffer(f);
	b->name = tv_xstrdup(name);
	b->v6_offset = off;
	return TV_OK;
}

/*
 * *@off += @v * @unit, false when that overflows (a hostile DATE or
 * OFFSET option).
 */
static bool
add_offset(int64_t *off, long long v, long long unit)
{
	long long prod;

	return !__builtin_mul_overflow(v, unit, &prod) &&
	    !__builtin_add_overflow(*off, prod, off);
}

/* One option (both versions); @d holds exactly its data. */
enum tv_status
td_parse_option(struct td_file *f, uint16_t id, struct td_cur *d,
    struct tv_error *err)
{
	char *s;
	bool ok;

	f->noptions++;
	if (id < 32)
		f->option_mask |= 1u << id;
	switch (id) {
	case TD_OPT_DATE:
		/* report adds it (microseconds) unless given --nodate */
		free(f->date);
		f->date = td_opt_string(d);
		if (!add_offset(&f->ts_offset, strtoll(f->date, NULL, 0),
		    1000))
			return td_error(d, err, _("bad time offset"));
		break;
	case TD_OPT_BUFFER:
		return f->version >= 7 ? opt_buffer_v7(f, d, err) :
		    opt_buffer_v6(f, d, err);
	case TD_OPT_TRACECLOCK:
		f->has_trace_clock_opt = true;
		if (d->len > 0) {
			free(f->trace_clock);
			f->trace_clock = td_opt_string(d);
		}
		break;
	case TD_OPT_UNAME:
		free(f->uname);
		f->uname = td_opt_string(d);
		break;
	case TD_OPT_OFFSET:
		s = td_opt_string(d);
		ok = add_offset(&f->ts_offset, strtoll(s, NULL, 0), 1);
		free(s);
		if (!ok)
			return td_error(d, err, _("bad time offset"));
		break;
	case TD_OPT_CPUCOUNT:
		if (d->len >= 4) {
			uint32_t n;

			td_read_u32(d, &n, NULL);
			if (n > TD_MAX_CPUS)
				return td_error(d, err,
				    _("too many CPUs (%u)"), n);
			f->cpus = n;
		}
		break;
	case TD_OPT_VERSION:
		free(f->tc_version);
		f->tc_version = td_opt_string(d);
		break;
	case TD_OPT_TRACEID:
		if (td_read_u64(d, &f->trace_id, NULL) == TV_OK)
			f->has_trace_id = true;
		break;
	case TD_OPT_TSC2NSEC:
		if (td_read_u32(d, &f->tsc_mult, NULL) == TV_OK &&
		    td_read_u32(d, &f->tsc_shift, NULL) == TV_OK &&
		    td_read_u64(d, &f->tsc_offset, NULL) == TV_OK &&
		    f->tsc_shift < 64)
			f->has_tsc2nsec = true;
		break;
	case TD_OPT_TIME_SHIFT:
		return td_opt_time_shift(f, d, err);
	case TD_OPT_GUEST:
		return td_opt_guest(f, d, err);
	default:
		/* CPUSTAT, HOOK, PROCMAPS, STRINGS and
		 * the section offsets (read by the v7 code) */
		break;
	}
	return TV_OK;
}
