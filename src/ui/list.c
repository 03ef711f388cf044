/*
 * The list engine the list panes share (bookmarks, processes, fields,
 * help): a cursor and the first row shown over @n rows, @h of them on
 * screen, moved by the motion requests and the mouse.  Written once so
 * that every pane pages alike: a page moves the cursor and the view by
 * h rows, half a page by h/2 (at least 1), the cursor keeping its row on
 * screen as in the event list.  A list without a cursor (the help text)
 * only scrolls.
 */
#include "ui-priv.h"

/* The first row shown when the last row is at the bottom. */
static size_t
max_top(size_t n, size_t h)
{
	return n > h ? n - h : 0;
}

/* See ui-priv.h. */
void
tv_ui_list_fit(struct tv_ui_list *l, size_t n, int h)
{
	size_t rows = (size_t)TV_MAX(h, 1);

	if (l->no_cursor) {
		l->cur = 0;
		l->top = TV_MIN(l->top, max_top(n, rows));
		return;
	}
	if (l->cur >= n)
		l->cur = n ? n - 1 : 0;
	if (l->top > l->cur)
		l->top = l->cur;
	if (l->cur >= l->top + rows)
		l->top = l->cur - rows + 1;
}

/* Move by @delta rows (negative: up), the view with the cursor. */
static void
list_move(struct tv_ui_list *l, size_t n, size_t rows, long long delta,
    bool scroll)
{
	size_t *at = l->no_cursor ? &l->top : &l->cur;
	size_t last = l->no_cursor ? max_top(n, rows) : (n ? n - 1 : 0);
	size_t old = *at;

	if (delta < 0)
		*at = (size_t)-delta > *at ? 0 : *at - (size_t)-delta;
	else
		*at = TV_MIN(*at + (size_t)delta, last);
	if (l->no_cursor || !scroll)
		return;
	/* the view follows by as much as the cursor moved */
	if (*at >= old)
		l->top = TV_MIN(l->top + (*at - old), max_top(n, rows));
	else
		l->top = l->top > old - *at ? l->top - (old - *at) : 0;
}

/* See ui-priv.h. */
bool
tv_ui_list_request(struct tv_ui_list *l, size_t n, int h,
    enum tv_ui_req req)
{
	size_t rows = (size_t)TV_MAX(h, 1);
	long long page = (long long)rows, half = TV_MAX(page / 2, 1);

	switch (req) {
	case TV_UI_REQ_DOWN:
		list_move(l, n, rows, +1, false);
		break;
	case TV_UI_REQ_UP:
		list_move(l, n, rows, -1, false);
		break;
	case TV_UI_REQ_PAGE_DOWN:
		list_move(l, n, rows, page, true);
		break;
	case TV_UI_REQ_PAGE_UP:
		list_move(l, n, rows, -page, true);
		break;
	case TV_UI_REQ_HALF_DOWN:
		list_move(l, n, rows, half, true);
		break;
	case TV_UI_REQ_HALF_UP:
		list_move(l, n, rows, -half, true);
		break;
	case TV_UI_REQ_FIRST:
		l->cur = l->top = 0;
		break;
	case TV_UI_REQ_LAST:
		if (l->no_cursor)
			l->top = max_top(n, rows);
		else
			l->cur = n ? n - 1 : 0;
		break;
	default:
		return false;
	}
	tv_ui_list_fit(l, n, h);
	return true;
}

/* See ui-priv.h. */
bool
tv_ui_list_click(struct tv_ui_list *l, size_t n, int h, int row)
{
	if (l->no_cursor || row < 0 || row >= TV_MAX(h, 1) ||
	    l->top + (size_t)row >= n)
		return false;
	l->cur = l->top + (size_t)row;
	return true;
}
