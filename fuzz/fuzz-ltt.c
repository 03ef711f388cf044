/*
 * Fuzz target: an LTT 0.x trace directory, marker era (metadata_N and
 * channel_N tracefiles) or facility era (control/facilities_0, cpu_N,
 * eventdefs/NAME.xml), opened, indexed, walked both ways through the merger
 * and printed as LTTV's textDump prints it.  The input is a packed
 * directory (fz.h); seeds are test-ltt-synth's and gen-ltt's traces.
 */
#include "fz.h"

#include <stddef.h>

static const char *const names[] = {
	"metadata_0", "metadata_1", "kernel_0", "kernel_1", "fs_0",
	"control/facilities_0", "cpu_0", "cpu_1",
	"eventdefs/core.xml", "eventdefs/gen.xml", "eventdefs/gen_v2.xml",
	NULL
};

FZ_DIR_TARGET(names)
