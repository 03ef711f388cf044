/*
 * The bookmark set: the list sorted by time, next/previous lookups, the
 * log of changes (add, edit, delete) that makes a save able to merge, and
 * undo of deletions until the next save.  Times are "seconds.nnnnnnnnn"
 * in the file, ns from the clock's origin here, as event timestamps are.
 */
#include "tview/tview.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/bookmark.h"
#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "bookmark-priv.h"

#define NS_PER_S	1000000000LL

/* See tview/bookmark.h. */
struct tv_bookmarks *
tv_bookmarks_create(void)
{
	struct tv_bookmarks *bms = tv_xcalloc(1, sizeof(*bms));

	bms->base = tv_bm_doc_new();
	bms->doc = tv_bm_doc_copy(bms->base);
	return bms;
}

/* Free what one op owns. */
static void
op_fini(struct tv_bm_op *op)
{
	free(op->sig);
	free(op->name);
	free(op->text);
}

/* See bookmark-priv.h. */
void
tv_bm_ops_clear(struct tv_bookmarks *bms)
{
	size_t i;

	for (i = 0; i < bms->nops; i++)
		op_fini(&bms->ops[i]);
	bms->nops = 0;
}

/* See tview/bookmark.h. */
void
tv_bookmarks_destroy(struct tv_bookmarks *bms)
{
	size_t i;

	if (!bms)
		return;
	tv_bm_ops_clear(bms);
	free(bms->ops);
	for (i = 0; i < bms->count; i++) {
		free(bms->items[i].name);
		free(bms->items[i].text);
	}
	free(bms->items);
	tv_bm_doc_free(bms->base);
	tv_bm_doc_free(bms->doc);
	free(bms->path);
	free(bms->trace_path);
	free(bms->bytes);
	free(bms);
}

/* See tview/bookmark.h. */
size_t
tv_bookmarks_count(const struct tv_bookmarks *bms)
{
	return bms ? bms->count : 0;
}

/* See tview/bookmark.h. */
const struct tv_bookmark *
tv_bookmarks_get(const struct tv_bookmarks *bms, size_t i)
{
	if (!bms || i >= bms->count)
		return NULL;
	return &bms->items[i].bm;
}

/* Sort key of an unresolved time: last. */
static int64_t
key(int64_t t)
{
	return t == TV_TIME_NONE ? INT64_MAX : t;
}

/* qsort order: start, end, then place in the file. */
static int
item_cmp(const void *a, const void *b)
{
	const struct tv_bm_item *x = a, *y = b;
	int64_t xs = key(x->bm.start), ys = key(y->bm.start);
	int64_t xe = key(x->bm.end), ye = key(y->bm.end);

	if (xs != ys)
		return xs < ys ? -1 : 1;
	if (xe != ye)
		return xe < ye ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Cycle bookmarks to ns with the clock, then sort. */
static void
resolve_sort(struct tv_bookmarks *bms)
{
	size_t i;

	for (i = 0; i < bms->count; i++) {
		struct tv_bookmark *b = &bms->items[i].bm;

		if (!b->by_cycle)
			continue;
		if (bms->clk) {
			b->start = tv_clock_to_ns(bms->clk, b->start_cycle);
			b->end = tv_clock_to_ns(bms->clk, b->end_cycle);
		} else {
			b->start = b->end = TV_TIME_NONE;
		}
	}
	if (bms->count > 1)
		qsort(bms->items, bms->count, sizeof(*bms->items), item_cmp);
}

/* See bookmark-priv.h. */
void
tv_bm_rebuild(struct tv_bookmarks *bms)
{
	size_t i;

	tv_bm_doc_free(bms->doc);
	bms->doc = tv_bm_doc_copy(bms->base);
	for (i = 0; i < bms->nops; i++)
		(void)tv_bm_op_apply(bms->doc, &bms->ops[i]);
	/* every location of base was valid and ops only write valid ones */
	(void)tv_bm_doc_items(bms, "", NULL);
	resolve_sort(bms);
}

/* See tview/bookmark.h. */
void
tv_bookmarks_set_clock(struct tv_bookmarks *bms, const struct tv_clock *clk)
{
	bms->clk = clk;
	resolve_sort(bms);
}

/* Append a zeroed op to the log. */
static struct tv_bm_op *
op_new(struct tv_bookmarks *bms, enum tv_bm_op_kind kind)
{
	struct tv_bm_op *op;

	TV_VEC_GROW(bms->ops, bms->nops, bms->ops_cap);
	op = &bms->ops[bms->nops++];
	memset(op, 0, sizeof(*op));
	op->kind = kind;
	return op;
}

/* Copy name and text into @op. */
static void
op_set_strings(struct tv_bm_op *op, const char *name, const char *text)
{
	op->name = tv_xstrdup(name ? name : "");
	op->text = tv_xstrdup(text ? text : "");
	op->spec.name = op->name;
	op->spec.text = op->text;
}

/*
 * Could @s be written into bookmarks.xml and read back?  It must be
 * UTF-8 (shortest forms, no surrogates, at most U+10FFFF) of characters
 * XML 1.0 allows (no C0 control but tab, newline and carriage return, no
 * U+FFFE or U+FFFF), and short enough for the file to stay under
 * TV_BM_MAX_FILE.
 */
enum tv_status
tv_bookmark_text_check(const char *s, struct tv_error *err)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t i = 0, n = strlen((const char *)p);

	if (n > TV_BM_MAX_TEXT)
		return tv_error_set(err, TV_UNSUPPORTED, NULL,
		    _("bookmark name or text longer than %u bytes"),
		    TV_BM_MAX_TEXT);
	while (i < n) {
		uint32_t c = p[i], min;
		size_t k, len;

		if (c < 0x80) {
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
				return tv_error_set(err, TV_UNSUPPORTED, NULL,
				    _("bookmark name or text holds control "
				    "character 0x%02x at byte %zu"), c, i);
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			len = 2, c &= 0x1f, min = 0x80;
		} else if (c >= 0xe0 && c <= 0xef) {
			len = 3, c &= 0x0f, min = 0x800;
		} else if (c >= 0xf0 && c <= 0xf4) {
			len = 4, c &= 0x07, min = 0x10000;
		} else {
			goto bad;
		}
		if (n - i < len)
			goto bad;
		for (k = 1; k < len; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				goto bad;
			c = (c << 6) | (p[i + k] & 0x3f);
		}
		if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) ||
		    c == 0xfffe || c == 0xffff)
			goto bad;
		i += len;
	}
	return TV_OK;
bad:
	return tv_error_set(err, TV_UNSUPPORTED, NULL,
	    _("bookmark name or text is not valid UTF-8 at byte %zu"), i);
}

/* May @name and @text be saved?  Else the error. */
static enum tv_status
check_strings(const char *name, const char *text, struct tv_error *err)
{
	enum tv_status st = tv_bookmark_text_check(name, err);

	return st != TV_OK ? st : tv_bookmark_text_check(text, err);
}

/* See tview/bookmark.h. */
enum tv_status
tv_bookmarks_add(struct tv_bookmarks *bms, const struct tv_bookmark_spec *spec,
    size_t *index, struct tv_error *err)
{
	struct tv_bm_op *op;
	enum tv_status st;
	uint32_t order;
	size_t i;

	st = check_strings(spec->name, spec->text, err);
	if (st != TV_OK)
		return st;
	if (bms->count >= TV_BM_MAX_COUNT)
		return tv_error_set(err, TV_UNSUPPORTED, NULL,
		    _("more than %u bookmarks"), TV_BM_MAX_COUNT);
	op = op_new(bms, TV_BM_OP_ADD);
	op->spec = *spec;
	if (op->spec.interval && op->spec.end < op->spec.start) {
		op->spec.start = spec->end;
		op->spec.end = spec->start;
	}
	if (!op->spec.interval)
		op->spec.end = op->spec.start;
	op_set_strings(op, spec->name, spec->text);
	tv_bm_rebuild(bms);
	/* the new one is the last location of the document */
	order = 0;
	for (i = 0; i < bms->count; i++)
		if (bms->items[i].order >= order)
			order = bms->items[i].order;
	*index = 0;
	for (i = 0; i < bms->count; i++)
		if (bms->items[i].order == order)
			*index = i;
	return TV_OK;
}

/* See tview/bookmark.h. */
enum tv_status
tv_bookmarks_edit(struct tv_bookmarks *bms, size_t i, const char *name,
    const char *text, struct tv_error *err)
{
	struct tv_bm_op *op;
	enum tv_status st;

	if (i >= bms->count)
		return tv_error_set(err, TV_NOT_FOUND, NULL,
		    _("no bookmark %zu"), i);
	if (strcmp(bms->items[i].name, name ? name : "") == 0 &&
	    strcmp(bms->items[i].text, text ? text : "") == 0)
		return TV_OK;
	st = check_strings(name, text, err);
	if (st != TV_OK)
		return st;
	op = op_new(bms, TV_BM_OP_EDIT);
	op->sig = tv_bm_node_sig(bms->doc, bms->items[i].node);
	op_set_strings(op, name, text);
	tv_bm_rebuild(bms);
	return TV_OK;
}

/* See tview/bookmark.h. */
void
tv_bookmarks_delete(struct tv_bookmarks *bms, size_t i)
{
	struct tv_bm_op *op;

	if (i >= bms->count)
		return;
	op = op_new(bms, TV_BM_OP_DELETE);
	op->sig = tv_bm_node_sig(bms->doc, bms->items[i].node);
	tv_bm_rebuild(bms);
}

/* See tview/bookmark.h. */
bool
tv_bookmarks_undo(struct tv_bookmarks *bms)
{
	size_t i;

	for (i = bms->nops; i-- > 0;) {
		if (bms->ops[i].kind != TV_BM_OP_DELETE)
			continue;
		op_fini(&bms->ops[i]);
		memmove(&bms->ops[i], &bms->ops[i + 1],
		    (bms->nops - i - 1) * sizeof(*bms->ops));
		bms->nops--;
		tv_bm_rebuild(bms);
		return true;
	}
	return false;
}

/* See tview/bookmark.h. */
bool
tv_bookmarks_dirty(const struct tv_bookmarks *bms)
{
	return bms && bms->nops > 0;
}

/* See tview/bookmark.h. */
long
tv_bookmarks_next(const struct tv_bookmarks *bms, int64_t ts, int dir)
{
	size_t i;

	if (!bms)
		return -1;
	if (dir > 0) {
		for (i = 0; i < bms->count; i++)
			if (bms->items[i].bm.start != TV_TIME_NONE &&
			    bms->items[i].bm.start > ts)
				return (long)i;
		return -1;
	}
	for (i = bms->count; i-- > 0;)
		if (bms->items[i].bm.start != TV_TIME_NONE &&
		    bms->items[i].bm.start < ts)
			return (long)i;
	return -1;
}

/* See tview/bookmark.h. */
long
tv_bookmarks_covering(const struct tv_bookmarks *bms, int64_t ts, int cpu)
{
	size_t i;

	if (!bms)
		return -1;
	for (i = 0; i < bms->count; i++) {
		const struct tv_bookmark *b = &bms->items[i].bm;

		if (b->start == TV_TIME_NONE || b->start > ts)
			break;
		if (ts > b->end)
			continue;
		if (cpu >= 0 && b->cpu >= 0 && b->cpu != cpu)
			continue;
		return (long)i;
	}
	return -1;
}

/* See tview/bookmark.h. */
long
tv_bookmarks_find(const struct tv_bookmarks *bms, int64_t ts)
{
	size_t i;

	for (i = 0; bms && i < bms->count; i++)
		if (bms->items[i].bm.start == ts)
			return (long)i;
	return -1;
}

/* See tview/bookmark.h. */
char *
tv_bookmark_format_time(int64_t ns, char *buf, size_t size)
{
	uint64_t u = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	snprintf(buf, size, "%s%" PRIu64 ".%09" PRIu64, ns < 0 ? "-" : "",
	    u / (uint64_t)NS_PER_S, u % (uint64_t)NS_PER_S);
	return buf;
}

/* See tview/bookmark.h. */
bool
tv_bookmark_parse_time(const char *s, int64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	bool neg = false, digits = false;
	int nfrac = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	for (; *s >= '0' && *s <= '9'; s++) {
		digits = true;
		if (sec > (uint64_t)(INT64_MAX / NS_PER_S) / 10)
			return false;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++) {
			digits = true;
			if (++nfrac > 9)
				return false;
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
	}
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (!digits || *s != '\0' || sec > (uint64_t)(INT64_MAX / NS_PER_S) - 1)
		return false;
	for (; nfrac < 9; nfrac++)
		frac *= 10;
	*ns = (int64_t)(sec * NS_PER_S + frac);
	if (neg)
		*ns = -*ns;
	return true;
}
