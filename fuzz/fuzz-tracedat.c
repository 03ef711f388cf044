/*
 * Fuzz target: a trace.dat file (v6 or v7, any compression) opened, its
 * event formats handed to libtraceevent, every page indexed, every record
 * walked both ways through the merger and printed as trace-cmd report
 * prints it.  The input is the file; seeds come from td-gen.
 */
#include "fz.h"

#include <stddef.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = { "trace.dat", NULL };
static struct fz_tree *tree;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;

	if (!tree)
		tree = fz_tree_new(names);
	(void)fz_tree_fill(tree, data, size);
	path = fz_tree_path(tree, 0);
	fz_walk_paths(&path, 1);
	return 0;
}
