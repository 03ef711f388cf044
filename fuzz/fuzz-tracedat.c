/*
 * Fuzz target: a trace.dat file (v6 or v7, any compression) opened, its
 * event formats handed to libtraceevent, every page indexed, every record
 * walked both ways through the merger and printed as trace-cmd report
 * prints it.  The input is the file; seeds come from td-gen.
 */
#include "fz.h"

#include <stddef.h>

#include <traceevent/event-parse.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The driver loads libtraceevent's plugins at every open and unloads them
 * at close: dlopen and dlclose of a dozen libraries per input, which cost
 * most of an execution (mapping, unmapping, TLB shootdowns).  Loading them
 * once here keeps them mapped (the driver's loads only count references),
 * and the driver runs unchanged.
 */
static struct tep_handle *pin_tep;
static struct tep_plugin_list *pin_plugins;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	pin_tep = tep_alloc();
	if (pin_tep)
		pin_plugins = tep_load_plugins(pin_tep);
	return 0;
}

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
