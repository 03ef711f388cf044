/*
 * LTTng 0.x facility era (placeholder while being written).
 */
#include "tview/tview.h"

#include "tview/error.h"
#include "ltt-xml.h"

/* See ltt-xml.h. */
bool
ltt_fac_probe(const char *path)
{
	(void)path;
	return false;
}

/* See ltt-xml.h. */
enum tv_status
ltt_fac_open(const char *path, struct tv_trace ***out, uint32_t *nout,
    struct tv_error *err)
{
	(void)out;
	(void)nout;
	return tv_error_at(err, TV_UNSUPPORTED, path, TV_NO_OFFSET, "todo");
}
