/*
 * Fuzz target: a 2004 "new format" LTT trace directory (info/system.xml,
 * eventdefs/NAME.xml, control/facilities, cpu/N) opened, walked both ways
 * through the merger and printed.  The input is a packed directory
 * (fz.h); seeds are gen-ltt --format new traces.
 */
#include "fz.h"

#include <stddef.h>

static const char *const names[] = {
	"info/system.xml", "control/facilities", "cpu/0", "cpu/1", "cpu/2",
	"eventdefs/builtin.xml", "eventdefs/gen.xml", "eventdefs/gen_v2.xml",
	NULL
};

FZ_DIR_TARGET(names)
