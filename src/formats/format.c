/*
 * The registry of trace format drivers and the probe that picks the one
 * that reads a given path.
 */
#include "tview/format.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static const struct tv_format_ops *const registry[] = {
	&tv_ctf_format,
	&tv_ltt_format,
	&tv_tracedat_format,
	NULL,
};

/* Every driver, in the order they are probed. */
const struct tv_format_ops *const *
tv_format_registry(void)
{
	return registry;
}

/*
 * The driver that reads @path.  A driver that recognises the path but
 * cannot read it (its probe fails with anything but TV_FORMAT) stops the
 * search with its own error.
 */
enum tv_status
tv_format_find(const char *path, const struct tv_format_ops **out,
    struct tv_error *err)
{
	struct tv_loc loc = { .path = path, .offset = TV_NO_OFFSET };
	struct stat st;
	size_t i;

	*out = NULL;
	if (stat(path, &st) < 0)
		return tv_error_set(err, TV_IO, &loc, "%s", strerror(errno));
	for (i = 0; registry[i]; i++) {
		enum tv_status s;

		if (!registry[i]->probe)
			continue;
		s = registry[i]->probe(path, err);
		if (s == TV_OK) {
			*out = registry[i];
			tv_error_clear(err);
			return TV_OK;
		}
		if (s != TV_FORMAT)
			return s;
	}
	return tv_error_set(err, TV_FORMAT, &loc,
	    _("not a trace in a known format"));
}
