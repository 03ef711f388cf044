/*
 * Fuzz target: the CTF metadata file as the driver reads it: packetized
 * metadata (either byte order) unpacked to TSDL, or plain text, then the
 * TSDL model built from it.  The input is DIR/metadata.
 */
#include "tview/tview.h"
#include "tview/error.h"
#include "tview/format.h"
#include "tview/trace.h"
#include "tview/util.h"

#include <stdlib.h>

#include "../src/formats/ctf/ctf-priv.h"
#include "fz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = { "metadata", NULL };
static struct fz_tree *tree;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ctf_trace_priv *priv;
	struct tv_trace *t;
	struct tv_error err;
	const char *dir;

	if (!tree)
		tree = fz_tree_new(names);
	dir = fz_tree_fill(tree, data, size);
	t = tv_trace_create(&tv_ctf_format, dir);
	priv = tv_xcalloc(1, sizeof(*priv));
	t->priv = priv;
	tv_error_clear(&err);
	if (ctf_metadata_read(dir, 0, &priv->tc, &err) == TV_OK)
		(void)ctf_tsdl_build(priv->tc.metadata,
		    priv->tc.metadata_len, "metadata", t, &priv->tc, &err);
	tv_trace_destroy(t);
	return 0;
}
