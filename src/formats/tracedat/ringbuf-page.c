/*
 * One page of the kernel's ftrace ring buffer: a header (64-bit
 * timestamp, then a long whose low 27 bits are the bytes committed and
 * whose bits 31/30 say events were missed / the count is stored after the
 * data), then records: a 32-bit word with a 5-bit type_len and a 27-bit
 * time delta.  type_len 29 is padding, 30 a time extend, 31 an absolute
 * time stamp, 0 a data record whose length is in the next word, 1..28 a
 * data record of type_len * 4 bytes.  Walked the way libtraceevent's
 * kbuffer walks it, so timestamps and lost-event reports match
 * trace-cmd, but with every length checked against the page.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/i18n.h"
#include "tracedat-priv.h"

#define RB_TS_SHIFT		27
#define RB_TS_MSB		(0xf8ULL << 56)
#define RB_COMMIT_MASK		((1u << 27) - 1)
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)
#define RB_PADDING		29
#define RB_TIME_EXTEND		30
#define RB_TIME_STAMP		31

/*
 * One "field: TYPE NAME;\toffset:N;\tsize:N;..." line of header_page:
 * true with *off and *size when the field is @name.
 */
static bool
hp_field(const char *line, size_t len, const char *name, uint32_t *off,
    uint32_t *size)
{
	char buf[256], *semi, *p, *e;
	size_t nlen = strlen(name);
	unsigned long o, sz;

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, line, len);
	buf[len] = '\0';
	semi = strchr(buf, ';');
	if (!semi || strncmp(buf + strspn(buf, " \t"), "field:", 6) != 0 ||
	    (size_t)(semi - buf) < nlen ||
	    memcmp(semi - nlen, name, nlen) != 0 ||
	    (semi - nlen > buf && !strchr(" \t*", semi[-(long)nlen - 1])))
		return false;
	p = strstr(semi, "offset:");
	if (!p)
		return false;
	o = strtoul(p + 7, &e, 10);
	if (e == p + 7 || *e != ';')
		return false;
	p = strstr(e, "size:");
	if (!p)
		return false;
	sz = strtoul(p + 5, &e, 10);
	if (e == p + 5 || *e != ';' || o > TD_MAX_PAGE || sz > TD_MAX_PAGE)
		return false;
	*off = (uint32_t)o;
	*size = (uint32_t)sz;
	return true;
}

/*
 * The page layout of @f, as trace-cmd's reader takes it: the commit
 * field's offset and size and the data field's offset from header_page;
 * only a file without one falls back to the long size.
 */
enum tv_status
td_page_layout_parse(struct td_file *f, struct tv_error *err)
{
	struct td_page_layout *l = &f->layout;
	const char *p = (const char *)f->header_page.ptr;
	const char *end = p + f->header_page.len, *nl;
	uint32_t ts_off = 0, ts_size = 8, off, size;
	bool has_commit = false, has_data = false;

	l->commit_off = 8;
	l->commit_size = f->long_size;
	l->data_off = 8 + f->long_size;
	if (f->header_page.len == 0)
		return TV_OK;
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (hp_field(p, (size_t)(nl - p), "timestamp", &off, &size)) {
			ts_off = off;
			ts_size = size;
		} else if (hp_field(p, (size_t)(nl - p), "commit", &off,
		    &size)) {
			l->commit_off = off;
			l->commit_size = size;
			has_commit = true;
		} else if (hp_field(p, (size_t)(nl - p), "data", &off,
		    &size)) {
			l->data_off = off;
			has_data = true;
		}
	}
	if (!has_commit && !has_data)
		return TV_OK;	/* says nothing: the long size it is */
	if (!has_data)
		l->data_off = l->commit_off + l->commit_size;
	if (ts_off != 0 || ts_size != 8 || (l->commit_size != 4 &&
	    l->commit_size != 8) || l->commit_off < 8 ||
	    l->commit_off + l->commit_size > l->data_off ||
	    l->data_off >= f->page_size) {
		return tv_error_at(err, TV_CORRUPT, f->path,
		    td_blob_offset(f, f->header_page.ptr),
		    _("header_page: unusable page layout (commit %u bytes at "
		    "%u, data at %u)"), l->commit_size, l->commit_off,
		    l->data_off);
	}
	return TV_OK;
}

/* Read the page header; the iterator then yields the data records. */
enum tv_status
td_page_begin(struct td_page_iter *it, const struct td_file *f,
    const uint8_t *page, uint32_t page_size, struct tv_error *err)
{
	const struct td_page_layout *l = &f->layout;
	uint64_t flags;

	memset(it, 0, sizeof(*it));
	it->page = page;
	it->page_size = page_size;
	it->be = f->be;
	it->long_size = l->commit_size;
	it->hdr = l->data_off;
	it->first = true;
	if (page_size < it->hdr)
		return tv_error_set(err, TV_CORRUPT, NULL,
		    _("page smaller than its header"));
	it->ts = td_get_u(page, 8, it->be);
	flags = td_get_u(page + l->commit_off, it->long_size, it->be);
	it->commit = (uint32_t)flags & RB_COMMIT_MASK;
	/* the last page of a cut file: the records that are all there */
	if (page_size < f->page_size && it->commit > page_size - it->hdr)
		it->commit = page_size - it->hdr;
	if (it->commit > page_size - it->hdr)
		return tv_error_set(err, TV_CORRUPT, NULL,
		    _("page commit size %u larger than the page"),
		    it->commit);
	if (flags & RB_MISSED_EVENTS) {
		if ((flags & RB_MISSED_STORED) &&
		    it->commit + it->long_size <= page_size - it->hdr)
			it->lost = (int64_t)td_get_u(page + it->hdr +
			    it->commit, it->long_size, it->be);
		else
			it->lost = -1;
	}
	return TV_OK;
}

/* Advance to the next data record, applying time extends and stamps. */
enum tv_status
td_page_next(struct td_page_iter *it, struct tv_error *err)
{
	const uint8_t *d = it->page + it->hdr;
	uint32_t word, type_len, delta, cur, len;
	uint64_t ext;

	for (;;) {
		cur = it->next;
		if (cur >= it->commit)
			return TV_END;
		if (it->commit - cur < 4)
			goto short_rec;
		word = (uint32_t)td_get_u(d + cur, 4, it->be);
		if (it->be) {
			type_len = word >> 27;
			delta = word & ((1u << 27) - 1);
		} else {
			type_len = word & 31;
			delta = word >> 5;
		}
		switch (type_len) {
		case RB_PADDING:
			/* a 4-byte pad can end the page */
			if (it->commit - cur < 8)
				return TV_END;
			len = (uint32_t)td_get_u(d + cur + 4, 4, it->be);
			it->ts += delta;
			if (len > it->commit - cur - 4)
				it->next = it->commit;
			else
				it->next = cur + 4 + len;
			if (it->next <= cur)
				it->next = cur + 8;
			continue;
		case RB_TIME_EXTEND:
		case RB_TIME_STAMP:
			if (it->commit - cur < 8)
				goto short_rec;
			ext = td_get_u(d + cur + 4, 4, it->be);
			ext = (ext << RB_TS_SHIFT) + delta;
			if (type_len == RB_TIME_STAMP)
				it->ts = ext | (it->ts & RB_TS_MSB);
			else
				it->ts += ext;
			it->next = cur + 8;
			continue;
		case 0:
			if (it->commit - cur < 8)
				goto short_rec;
			len = (uint32_t)td_get_u(d + cur + 4, 4, it->be);
			if (len < 4)
				goto bad_len;
			len = ((len - 4) + 3) & ~3u;
			it->data_off = cur + 8;
			break;
		default:
			len = type_len * 4;
			it->data_off = cur + 4;
			break;
		}
		if (len > it->commit - it->data_off)
			goto bad_len;
		it->ts += delta;
		it->rec_off = cur;
		it->data_len = len;
		it->at_start = cur == 0;
		it->next = it->data_off + len;
		it->first = false;
		return TV_OK;
	}
short_rec:
	return tv_error_set(err, TV_CORRUPT, NULL,
	    _("record at page offset 0x%x truncated"), it->hdr + cur);
bad_len:
	return tv_error_set(err, TV_CORRUPT, NULL,
	    _("record at page offset 0x%x runs past the page data"),
	    it->hdr + cur);
}
