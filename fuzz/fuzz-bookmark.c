/*
 * Fuzz target: a bookmarks.xml read, edited (add, edit, delete, undo)
 * and saved to text as the browser saves it; the saved text must read
 * back with as many bookmarks, or the user would lose them.  No file is
 * involved: tv_bookmarks_serialize is what a save writes.
 */
#include "tview/tview.h"
#include "tview/bookmark.h"
#include "tview/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tv_bookmark_spec spec = { "fz", "fuzz <&> text", 1, true,
	    1000, 2000 };
	struct tv_bookmarks *bms = NULL, *back = NULL;
	struct tv_error err;
	size_t n, len;
	char *out;

	tv_error_clear(&err);
	if (tv_bookmarks_parse(&bms, "bookmarks.xml", (const char *)data,
	    size, &err) != TV_OK || !bms)
		return 0;
	n = tv_bookmarks_count(bms);
	if (n > 0) {
		char *text = strdup(tv_bookmarks_get(bms, 0)->text);

		/* a refused text (the API's checks) is an answer too */
		(void)tv_bookmarks_edit(bms, 0, "renamed", text, NULL);
		free(text);
		tv_bookmarks_delete(bms, n - 1);
		(void)tv_bookmarks_undo(bms);
	}
	(void)tv_bookmarks_add(bms, &spec, &n, NULL);
	n = tv_bookmarks_count(bms);
	tv_bookmarks_serialize(bms, &out, &len);
	tv_error_clear(&err);
	if (tv_bookmarks_parse(&back, "saved.xml", out, len, &err) != TV_OK ||
	    tv_bookmarks_count(back) != n) {
		fprintf(stderr, "saved bookmarks do not read back: %s\n",
		    err.msg);
		abort();
	}
	tv_bookmarks_destroy(back);
	free(out);
	tv_bookmarks_destroy(bms);
	return 0;
}
