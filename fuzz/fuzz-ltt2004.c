/*
 * Fuzz target: a 2004 "new format" LTT trace directory (info/system.xml,
 * eventdefs/NAME.xml, control/facilities, cpu/N) opened, walked both ways
 * through the merger and printed.  The input is a packed directory
 * (fz.h); seeds are gen-ltt --format new traces.
 */
#include "fz.h"

#include <stddef.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {
	"info/system.xml", "control/facilities", "cpu/0", "cpu/1", "cpu/2",
	"eventdefs/builtin.xml", "eventdefs/gen.xml", "eventdefs/gen_v2.xml",
	NULL
};
static struct fz_tree *tree;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *dir;

	if (!tree)
		tree = fz_tree_new(names);
	dir = fz_tree_fill(tree, data, size);
	fz_walk_paths(&dir, 1);
	return 0;
}
