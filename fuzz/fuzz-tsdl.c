/*
 * Fuzz target: TSDL text (CTF 1.8 metadata) through the lexer, the parser
 * and the model builder, as the CTF driver runs them on DIR/metadata.
 * The input is the metadata text; no file is involved.
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The driver's text is NUL-terminated (tv_read_file), so is this. */
	char *text = fz_text(data, size);
	struct ctf_trace_priv *priv;
	struct tv_trace *t;
	struct tv_error err;

	t = tv_trace_create(&tv_ctf_format, "fuzz");
	priv = tv_xcalloc(1, sizeof(*priv));
	t->priv = priv;
	tv_error_clear(&err);
	(void)ctf_tsdl_build(text, size, "metadata", t, &priv->tc, &err);
	tv_trace_destroy(t);
	free(text);
	return 0;
}
