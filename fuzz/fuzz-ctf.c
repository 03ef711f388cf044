/*
 * Fuzz target: a whole CTF 1.8 trace directory (metadata, up to three
 * stream files of one stream class, their index files) opened, indexed
 * and walked through the merger forwards and backwards, every event
 * decoded and printed as --dump prints it.  The input is a packed
 * directory (fz.h); seeds are gen-ctf traces.
 */
#include "fz.h"

#include <stddef.h>

static const char *const names[] = {
	"metadata", "channel0_0", "channel0_1", "channel0_2", "stream",
	"index/channel0_0.idx", "index/channel0_1.idx",
	"index/channel0_2.idx", NULL
};

FZ_DIR_TARGET(names)
