/*
 * The per-record check of what libtraceevent will read and pad while
 * printing a record: lengths and widths that a print fmt takes from the
 * record itself.  The library trusts them: __print_hex(buf, REC->len),
 * __print_array(p, REC->n, 4) and "%*phD" read that many bytes from the
 * record (a SEGV past the record copy), and "%*d" pads to whatever
 * width the record holds (gigabytes of output and allocation).  Real
 * kernels write such formats (i2c, scsi, thermal), so they cannot be
 * refused at load: each record is checked before it is printed, with
 * the arguments the library parsed, and a record that would make it read
 * past the copy or pad beyond TD_MAX_WIDTH is an error (its neighbours
 * are still printed).
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "tview/i18n.h"
#include "tracedat-priv.h"

/* What the check needs of one record. */
struct ac_rec {
	struct tep_handle	*tep;
	struct tep_event	*te;
	const uint8_t		*data;
	uint32_t		 len;	/* the record's bytes */
	uint32_t		 avail;	/* bytes of the padded copy */
};

/* The field an argument names, resolved the way the library does. */
static struct tep_format_field *
arg_field(const struct ac_rec *r, struct tep_print_arg *a)
{
	if (a->field.field)
		return a->field.field;
	return a->field.name ? tep_find_any_field(r->te, a->field.name) :
	    NULL;
}

/* The data_loc word of dynamic field @fl: offset and length. */
static bool
dyn_loc(const struct ac_rec *r, const struct tep_format_field *fl,
    uint32_t *off, uint32_t *n)
{
	uint32_t dl;

	if (!fl || fl->offset < 0 || (uint32_t)fl->offset + 4 > r->len)
		return false;
	dl = (uint32_t)tep_read_number(r->tep, r->data + fl->offset, 4);
	*off = dl & 0xffff;
	*n = dl >> 16;
	if (fl->flags & TEP_FIELD_IS_RELATIVE)
		*off += (uint32_t)fl->offset + 4;
	return true;
}

/* The value of an integer argument; false when it is not one we know. */
static bool
arg_value(const struct ac_rec *r, struct tep_print_arg *a, long long *v)
{
	struct tep_format_field *fl;
	long long l, rt;
	uint32_t off, n;
	char *e;

	if (!a)
		return false;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		if (!a->atom.atom)
			return false;
		*v = strtoll(a->atom.atom, &e, 0);
		return e != a->atom.atom && *e == '\0';
	case TEP_PRINT_FIELD:
		fl = arg_field(r, a);
		if (!fl || fl->offset < 0 || (fl->size != 1 && fl->size != 2 &&
		    fl->size != 4 && fl->size != 8) ||
		    (uint32_t)fl->offset + (uint32_t)fl->size > r->len)
			return false;
		*v = (long long)tep_read_number(r->tep, r->data + fl->offset,
		    fl->size);
		if ((fl->flags & TEP_FIELD_IS_SIGNED) && fl->size < 8 &&
		    (*v >> (fl->size * 8 - 1)) & 1)
			*v -= 1LL << (fl->size * 8);
		return true;
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		if (!dyn_loc(r, a->dynarray.field, &off, &n))
			return false;
		*v = n;
		return true;
	case TEP_PRINT_TYPE:
		return arg_value(r, a->typecast.item, v);
	case TEP_PRINT_OP:
		if (!a->op.op || !arg_value(r, a->op.left, &l) ||
		    !arg_value(r, a->op.right, &rt) || l < -(1LL << 40) ||
		    l > 1LL << 40 || rt < -(1LL << 40) || rt > 1LL << 40)
			return false;
		/* each operand is within 2^40: only * can overflow */
		if (strcmp(a->op.op, "+") == 0)
			*v = l + rt;
		else if (strcmp(a->op.op, "-") == 0)
			*v = l - rt;
		else if (strcmp(a->op.op, "*") == 0) {
			if (__builtin_mul_overflow(l, rt, v))
				return false;
		} else if (strcmp(a->op.op, "<<") == 0 && rt >= 0 && rt < 31 &&
		    l >= 0)
			*v = l << rt;
		else if (strcmp(a->op.op, "/") == 0 && rt != 0)
			*v = l / rt;
		else if (strcmp(a->op.op, "%") == 0 && rt != 0)
			*v = l % rt;
		else if (strcmp(a->op.op, "&") == 0)
			*v = l & rt;
		else if (strcmp(a->op.op, "|") == 0)
			*v = l | rt;
		else if (strcmp(a->op.op, ">>") == 0 && rt >= 0 && rt < 63)
			*v = l >> rt;
		else
			return false;
		return true;
	default:
		return false;
	}
}

/* Where the bytes a pointer argument names start in the record. */
static bool
arg_start(const struct ac_rec *r, struct tep_print_arg *a, uint32_t *start)
{
	struct tep_format_field *fl;
	uint32_t n;

	if (!a)
		return false;
	switch (a->type) {
	case TEP_PRINT_TYPE:
		return arg_start(r, a->typecast.item, start);
	case TEP_PRINT_FIELD:
		fl = arg_field(r, a);
		if (!fl || fl->offset < 0)
			return false;
		if (fl->flags & TEP_FIELD_IS_DYNAMIC)
			return dyn_loc(r, fl, start, &n);
		*start = (uint32_t)fl->offset;
		return true;
	case TEP_PRINT_DYNAMIC_ARRAY:
		return dyn_loc(r, a->dynarray.field, start, &n);
	default:
		return false;
	}
}

/* Do @count items of @size bytes from pointer argument @p fit the copy? */
static bool
span_ok(const struct ac_rec *r, struct tep_print_arg *p, long long count,
    long long size)
{
	uint32_t start;

	if (count < 0 || size < 0 || count > (1LL << 31) ||
	    size > (1LL << 31) || !arg_start(r, p, &start))
		return false;
	return (uint64_t)start + (uint64_t)count * (uint64_t)size <= r->avail;
}

/* The helpers that read a length's worth of bytes, in @a and below it. */
static bool
helpers_ok(const struct ac_rec *r, struct tep_print_arg *a, int depth)
{
	long long n, el;

	if (!a || depth > 16)
		return a == NULL;
	switch (a->type) {
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		return arg_value(r, a->hex.size, &n) &&
		    span_ok(r, a->hex.field, n, 1);
	case TEP_PRINT_INT_ARRAY:
		return arg_value(r, a->int_array.count, &n) &&
		    arg_value(r, a->int_array.el_size, &el) &&
		    span_ok(r, a->int_array.field, n, el);
	case TEP_PRINT_TYPE:
		return helpers_ok(r, a->typecast.item, depth + 1);
	case TEP_PRINT_OP:
		return helpers_ok(r, a->op.left, depth + 1) &&
		    helpers_ok(r, a->op.right, depth + 1);
	case TEP_PRINT_FLAGS:
		return helpers_ok(r, a->flags.field, depth + 1);
	case TEP_PRINT_SYMBOL:
		return helpers_ok(r, a->symbol.field, depth + 1);
	default:
		return true;
	}
}

/*
 * The conversions of the format paired with their arguments as the
 * library pairs them: a '*' width or precision takes one first.  A
 * width from the record is at most TD_MAX_WIDTH, except "%*ph" (a hex
 * dump: that many bytes) and "%*pb" (a bitmap: that many bits), whose
 * pointer must then hold them.
 */
static bool
stars_ok(const struct ac_rec *r)
{
	struct tep_print_arg *a = r->te->print_fmt.args;
	const char *p = r->te->print_fmt.format;
	long long w;

	if (!p)
		return true;
	while (*p) {
		bool star_w = false;
		long long wv = 0;

		if (*p++ != '%')
			continue;
		if (*p == '%') {
			p++;
			continue;
		}
		while (*p && strchr("-+ #0", *p))
			p++;
		if (*p == '*') {
			if (!arg_value(r, a, &wv))
				return false;
			star_w = true;
			a = a ? a->next : NULL;
			p++;
		}
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '.') {
			p++;
			if (*p == '*') {
				if (!arg_value(r, a, &w) || w > TD_MAX_WIDTH)
					return false;
				a = a ? a->next : NULL;
				p++;
			}
			while (*p >= '0' && *p <= '9')
				p++;
		}
		while (*p && strchr("hlLzjtq", *p))
			p++;
		if (star_w && *p == 'p' && (p[1] == 'h' || p[1] == 'b')) {
			if (!span_ok(r, a, p[1] == 'h' ? wv : (wv + 7) / 8, 1))
				return false;
		} else if (star_w && (wv > TD_MAX_WIDTH ||
		    wv < -TD_MAX_WIDTH)) {
			return false;
		}
		if (*p)
			p++;
		a = a ? a->next : NULL;
	}
	return true;
}

/* See tracedat-priv.h. */
enum tv_status
td_check_print_args(struct td_file *f, struct tep_event *te,
    const uint8_t *data, uint32_t len, uint32_t avail, struct tv_error *err)
{
	struct ac_rec r = { f->tep, te, data, len, avail };
	struct tep_print_arg *a;

	for (a = te->print_fmt.args; a; a = a->next)
		if (!helpers_ok(&r, a, 0))
			return tv_error_set(err, TV_CORRUPT, NULL,
			    _("record of event %s: a length it gives runs "
			    "past its %u bytes"), te->name, len);
	if (!stars_ok(&r))
		return tv_error_set(err, TV_CORRUPT, NULL,
		    _("record of event %s: a width it gives is too large "
		    "or runs past its %u bytes"), te->name, len);
	return TV_OK;
}
