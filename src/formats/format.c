/*
 * The registry of trace format drivers, in probe order: main.c hands it
 * to tv_trace_set_open (the core links no driver).
 */
#include "tview/format.h"

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
