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

/* Read the page header; the iterator then yields the data records. */
enum tv_status
td_page_begin(struct td_page_iter *it, const uint8_t *page,
    uint32_t page_size, uint32_t long_size, bool be, struct tv_error *err)
{
	uint64_t flags;

	memset(it, 0, sizeof(*it));
	it->page = page;
	it->page_size = page_size;
	it->be = be;
	it->long_size = long_size == 4 ? 4 : 8;
	it->hdr = 8 + it->long_size;
	it->first = true;
	if (page_size < it->hdr)
		return tv_error_set(err, TV_CORRUPT, NULL,
		    _("page smaller than its header"));
	it->ts = td_get_u(page, 8, be);
	flags = td_get_u(page + 8, it->long_size, be);
	it->commit = (uint32_t)flags & RB_COMMIT_MASK;
	if (it->commit > page_size - it->hdr)
		return tv_error_set(err, TV_CORRUPT, NULL,
		    _("page commit size %u larger than the page"),
		    it->commit);
	if (flags & RB_MISSED_EVENTS) {
		if ((flags & RB_MISSED_STORED) &&
		    it->commit + it->long_size <= page_size - it->hdr)
			it->lost = (int64_t)td_get_u(page + it->hdr +
			    it->commit, it->long_size, be);
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
