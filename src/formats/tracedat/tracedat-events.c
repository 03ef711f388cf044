/*
 * The libtraceevent side of a trace.dat file: a tep_handle loaded the way
 * trace-cmd loads it (file endianness and long size, header_page, the
 * ftrace and event-system format files, kallsyms, printk formats, saved
 * cmdlines, the system's libtraceevent plugins), trace-cmd's own handler
 * for kernel_stack, and from the parsed formats the tv_event_class and
 * tv_field_class of each event so the fields pane, search and state can
 * read values.  Timestamp conversion (TSC2NSEC, OFFSET) is here too.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "tview/i18n.h"
#include "tracedat-priv.h"

/* A NUL-terminated copy of @b, for the libtraceevent parsers. */
static char *
blob_str(const struct td_blob *b)
{
	return tv_xstrndup((const char *)b->ptr, b->len);
}

/*
 * kernel_stack: "<stack trace >" then one "=> function (address)" line
 * per saved caller, stopping at the -1 end marker, as trace-cmd prints it.
 */
static int
stack_handler(struct trace_seq *s, struct tep_record *record,
    struct tep_event *event, void *context)
{
	struct td_file *f = context;
	struct tep_format_field *field;
	unsigned long long addr;
	const char *func;
	int off;

	field = tep_find_any_field(event, "caller");
	if (!field) {
		trace_seq_printf(s, "<CANT FIND FIELD %s>", "caller");
		return 0;
	}
	trace_seq_puts(s, "<stack trace >\n");
	for (off = field->offset; off >= 0 &&
	    off + (int)f->long_size <= record->size;
	    off += (int)f->long_size) {
		addr = tep_read_number(event->tep, (char *)record->data + off,
		    (int)f->long_size);
		if ((f->long_size == 8 && addr == (unsigned long long)-1) ||
		    ((int)addr == -1))
			break;
		func = tep_find_function(event->tep, addr);
		if (func)
			trace_seq_printf(s, "=> %s (%llx)\n", func, addr);
		else
			trace_seq_printf(s, "=> %llx\n", addr);
	}
	return 0;
}

/* Offset and size of common field @name, from the first event having it. */
static void
common_field(struct tep_handle *tep, const char *name, int *off, int *size)
{
	int i, n = tep_get_events_count(tep);

	*off = -1;
	*size = 0;
	for (i = 0; i < n; i++) {
		struct tep_format_field *fl;

		fl = tep_find_common_field(tep_get_event(tep, i), name);
		if (fl) {
			*off = fl->offset;
			*size = fl->size;
			return;
		}
	}
}

/* The id of event @sys:@name, or -1. */
static int
event_id(struct tep_handle *tep, const char *sys, const char *name)
{
	struct tep_event *e = tep_find_event_by_name(tep, sys, name);

	return e ? e->id : -1;
}

/* Build the tep_handle of @f from its metadata. */
enum tv_status
td_events_load(struct td_file *f, struct tv_error *err)
{
	struct tep_handle *tep;
	uint64_t dropped;
	uint32_t i;
	char *s;

	tep = tep_alloc();
	if (!tep)
		return tv_error_set(err, TV_NOMEM, NULL, "%s",
		    tv_status_str(TV_NOMEM));
	f->tep = tep;
	/* its parse warnings would break the one-line error rule */
	tep_set_loglevel(TEP_LOG_NONE);
	tep_set_file_bigendian(tep, f->be ? TEP_BIG_ENDIAN :
	    TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN :
	    TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, (int)f->long_size);
	tep_set_page_size(tep, (int)f->page_size);
	f->plugins = tep_load_plugins(tep);
	if (f->header_page.len) {
		s = blob_str(&f->header_page);
		tep_parse_header_page(tep, s, f->header_page.len,
		    (int)f->long_size);
		free(s);
	}
	tep_register_event_handler(tep, -1, "ftrace", "kernel_stack",
	    stack_handler, f);
	/*
	 * A format libtraceevent cannot parse is skipped, as trace-cmd
	 * does; one it could not parse safely is refused first.
	 */
	for (i = 0; i < f->nformats; i++) {
		const struct td_format *fm = &f->formats[i];
		char name[64];
		const char *why;

		/* whole, NUL-terminated: a NUL inside is refused */
		s = tv_xmalloc((size_t)fm->text.len + 1);
		memcpy(s, fm->text.ptr, (size_t)fm->text.len);
		s[fm->text.len] = '\0';
		why = td_format_check(s, (size_t)fm->text.len, name,
		    sizeof(name));
		if (why != NULL) {
			free(s);
			return tv_error_at(err, TV_CORRUPT, f->path,
			    td_blob_offset(f, fm->text.ptr),
			    _("event format \"%s\" of system \"%s\" "
			    "refused (%s): libtraceevent cannot parse it "
			    "safely"), name[0] ? name : "?", fm->system,
			    _(why));
		}
		tep_parse_event(tep, s, strlen(s), fm->system);
		free(s);
	}
	/* only well-formed lines: the library's list parsers trust them */
	if (f->kallsyms.len) {
		s = td_text_clean(&f->kallsyms, TD_TEXT_KALLSYMS, &dropped);
		tep_parse_kallsyms(tep, s);
		free(s);
	}
	if (f->printk.len) {
		s = td_text_clean(&f->printk, TD_TEXT_PRINTK, &dropped);
		tep_parse_printk_formats(tep, s);
		free(s);
	}
	if (f->cmdlines.len) {
		s = td_text_clean(&f->cmdlines, TD_TEXT_CMDLINES, &dropped);
		tep_parse_saved_cmdlines(tep, s);
		free(s);
	}
	common_field(tep, "common_type", &f->ev_type_off, &f->ev_type_size);
	common_field(tep, "common_pid", &f->ev_pid_off, &f->ev_pid_size);
	if (f->ev_type_off < 0) {
		f->ev_type_off = 0;
		f->ev_type_size = 2;
	}
	f->fgraph_entry_id = event_id(tep, "ftrace", "funcgraph_entry");
	f->fgraph_exit_id = event_id(tep, "ftrace", "funcgraph_exit");
	f->stack_id = event_id(tep, "ftrace", "kernel_stack");
	return TV_OK;
}

/* Free the tep_handle and its plugins. */
void
td_events_free(struct td_file *f)
{
	if (!f->tep)
		return;
	if (f->plugins)
		tep_unload_plugins(f->plugins, f->tep);
	tep_free(f->tep);
	f->tep = NULL;
	f->plugins = NULL;
}

/* An integer class of @bytes bytes. */
static struct tv_field_class *
int_class(struct tv_arena *a, uint32_t bytes, bool is_signed, uint8_t base,
    bool be)
{
	struct tv_field_class *fc = tv_field_class_create(a, TV_FC_INT);

	fc->integer.size = bytes * 8;
	fc->integer.is_signed = is_signed;
	fc->integer.base = base;
	fc->integer.byte_order = be ? TV_BO_BE : TV_BO_LE;
	fc->align = 8;
	return fc;
}

/*
 * The field class of one format field: integers with their size and
 * signedness, char arrays as UTF-8 byte arrays, other arrays of integers,
 * __data_loc strings as strings and other dynamic arrays as sequences.
 */
static struct tv_field_class *
field_class(struct tv_arena *a, const struct tep_format_field *fl, bool be)
{
	static const char *const addr_names[] = { "ip", "parent_ip",
		"caller", "func", "call_site", "addr", "ptr" };
	bool sgn = (fl->flags & TEP_FIELD_IS_SIGNED) != 0;
	uint8_t base = (fl->flags & TEP_FIELD_IS_POINTER) ? 16 : 10;
	size_t i;

	/* code and data addresses read better in hex */
	for (i = 0; i < TV_ARRAY_SIZE(addr_names) && !sgn; i++)
		if (strcmp(fl->name, addr_names[i]) == 0)
			base = 16;
	struct tv_field_class *fc;
	uint32_t esize;

	if (fl->flags & TEP_FIELD_IS_DYNAMIC) {
		if (fl->flags & TEP_FIELD_IS_STRING) {
			fc = tv_field_class_create(a, TV_FC_STRING);
			fc->string.encoding = TV_ENC_UTF8;
			return fc;
		}
		fc = tv_field_class_create(a, TV_FC_SEQUENCE);
		esize = fl->elementsize ? fl->elementsize : 1;
		if (esize > 8)
			esize = 1;
		fc->array.elem = int_class(a, esize, sgn, base, be);
		return fc;
	}
	if (fl->flags & TEP_FIELD_IS_ARRAY) {
		fc = tv_field_class_create(a, TV_FC_ARRAY);
		esize = fl->elementsize ? fl->elementsize : 1;
		if (esize > 8)
			esize = 1;
		fc->array.elem = int_class(a, esize, sgn, base, be);
		fc->array.length = fl->arraylen ? fl->arraylen :
		    (uint64_t)fl->size / esize;
		if (fl->flags & TEP_FIELD_IS_STRING)
			fc->array.elem->integer.encoding = TV_ENC_UTF8;
		return fc;
	}
	if (fl->size <= 0 || fl->size > 8) {
		fc = tv_field_class_create(a, TV_FC_ARRAY);
		fc->array.elem = int_class(a, 1, false, 16, be);
		fc->array.length = fl->size > 0 ? (uint64_t)fl->size : 0;
		return fc;
	}
	return int_class(a, (uint32_t)fl->size, sgn, base, be);
}

/* A struct class of the fields of list @fields (NULL-terminated). */
static struct tv_field_class *
struct_class(struct tv_trace *t, struct tep_format_field **fields, bool be)
{
	struct tv_field_class *fc;
	uint32_t n = 0, i;

	if (!fields || !fields[0]) {
		free(fields);
		return NULL;
	}
	while (fields[n])
		n++;
	fc = tv_field_class_create(&t->arena, TV_FC_STRUCT);
	fc->structure.members = tv_arena_zalloc(&t->arena,
	    n * sizeof(*fc->structure.members));
	for (i = 0; i < n; i++) {
		fc->structure.members[i].name = tv_intern(t->names,
		    fields[i]->name, strlen(fields[i]->name));
		fc->structure.members[i].fc = field_class(&t->arena,
		    fields[i], be);
	}
	fc->structure.nmembers = n;
	free(fields);
	return fc;
}

/* A NULL-ended copy of @fields (the library's, freed) in @t's arena. */
static struct tep_format_field **
fields_copy(struct tv_trace *t, struct tep_format_field **fields)
{
	struct tep_format_field **out;
	size_t n = 0;

	while (fields != NULL && fields[n] != NULL)
		n++;
	out = tv_arena_zalloc(&t->arena, (n + 1) * sizeof(*out));
	if (n > 0)
		memcpy(out, fields, n * sizeof(*out));
	free(fields);
	return out;
}

/* The driver data of @e's class. */
static struct td_class *
class_priv(struct tv_trace *t, struct tep_event *e)
{
	struct td_class *tc = tv_arena_zalloc(&t->arena, sizeof(*tc));

	tc->common = fields_copy(t, tep_event_common_fields(e));
	tc->fields = fields_copy(t, tep_event_fields(e));
	return tc;
}

/*
 * One tv_event_class per parsed event (same order for every trace of the
 * file, so f->class_of_id serves them all), plus a last "unknown" class
 * for records whose type has no format.
 */
void
td_events_classes(struct td_file *f, struct tv_trace *t)
{
	int n = tep_get_events_count(f->tep), i, maxid = 0;
	struct tv_event_class *c;

	t->classes = tv_arena_zalloc(&t->arena,
	    ((size_t)n + 1) * sizeof(*t->classes));
	for (i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(f->tep, i);

		c = tv_arena_zalloc(&t->arena, sizeof(*c));
		c->name = tv_intern(t->names, e->name, strlen(e->name));
		if (e->system != NULL)
			c->system = tv_intern(t->names, e->system,
			    strlen(e->system));
		c->follows_previous = e->system != NULL &&
		    strcmp(e->system, "ftrace") == 0 &&
		    (strcmp(e->name, "kernel_stack") == 0 ||
		    strcmp(e->name, "user_stack") == 0);
		c->id = (uint64_t)e->id;
		c->loglevel = -1;
		c->index = (uint32_t)i;
		c->count = TV_COUNT_UNKNOWN;
		c->context = struct_class(t, tep_event_common_fields(e), f->be);
		c->payload = struct_class(t, tep_event_fields(e), f->be);
		c->priv = class_priv(t, e);
		t->classes[i] = c;
		if (e->id > maxid && e->id < TD_MAX_EVENTS)
			maxid = e->id;
	}
	c = tv_arena_zalloc(&t->arena, sizeof(*c));
	c->name = tv_intern(t->names, "unknown", 7);
	c->id = UINT64_MAX;
	c->loglevel = -1;
	c->index = (uint32_t)n;
	c->count = TV_COUNT_UNKNOWN;
	t->classes[n] = c;
	t->nclasses = (uint32_t)n + 1;
	if (f->class_of_id)
		return;
	f->nclass_of_id = (uint32_t)maxid + 1;
	f->class_of_id = tv_xcalloc(f->nclass_of_id, sizeof(uint32_t));
	for (i = 0; i <= maxid; i++)
		f->class_of_id[i] = (uint32_t)n;
	for (i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(f->tep, i);

		if (e->id >= 0 && e->id <= maxid)
			f->class_of_id[e->id] = (uint32_t)i;
	}
}

/* (a * mult) >> shift without overflowing 64 bits. */
static uint64_t
mul_shr(uint64_t a, uint32_t mult, uint32_t shift)
{
	unsigned __int128 r = (unsigned __int128)a * mult;

	return (uint64_t)(r >> shift);
}

/*
 * A raw ring-buffer timestamp of CPU @cpu as trace-cmd reports it: moved
 * onto the host clock by TIME_SHIFT (a guest's file), scaled by TSC2NSEC
 * (its offset is not applied by report either), plus OFFSET and DATE.
 */
int64_t
td_convert_ts(const struct td_file *f, uint32_t cpu, uint64_t raw)
{
	uint64_t ts = raw;

	if (f->tshift != NULL)
		ts = td_tshift_apply(f, cpu, ts);
	if (f->has_tsc2nsec && f->tsc_mult)
		ts = mul_shr(ts, f->tsc_mult, f->tsc_shift);
	ts += (uint64_t)f->ts_offset;
	if (ts > (uint64_t)INT64_MAX)
		return INT64_MAX;
	return (int64_t)ts;
}
