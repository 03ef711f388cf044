/*
 * Fuzz target: CTF 2 metadata (a JSON text sequence) through the RS
 * framing, json-c and the CTF 2 model builder, as the CTF driver runs
 * them on a DIR/metadata that starts with RS.  The input is the metadata
 * text; no file is involved.  Besides crashes, leaks and hangs, a failure
 * that is not one line naming the metadata file aborts: every malformed
 * CTF 2 must get a one-line error (issue 16).  Seeds: gen-ctf2's traces
 * and its traces with one mistake each; dictionary: fuzz/ctf2.dict.
 */
#include "tview/tview.h"
#include "tview/error.h"
#include "tview/format.h"
#include "tview/trace.h"
#include "tview/util.h"

#include <stdlib.h>
#include <string.h>

#include "../src/formats/ctf/ctf-priv.h"
#include "fz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Is @err what a failed read must leave: one line naming the file? */
static bool
one_line(const struct tv_error *err)
{
	return strcmp(err->path, "metadata") == 0 && err->msg[0] != '\0' &&
	    strchr(err->msg, '\n') == NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The driver's text is NUL-terminated (tv_read_file), so is this. */
	char *json = fz_text(data, size);
	struct tv_trace *tr = tv_trace_create(&tv_ctf_format, "fuzz");
	struct ctf_trace_priv *cp = tv_xcalloc(1, sizeof(*cp));
	struct tv_error err;
	enum tv_status st;

	tr->priv = cp;
	tv_error_clear(&err);
	st = ctf_ctf2_build(json, size, "metadata", tr, &cp->tc, &err);
	if (st != TV_OK && !one_line(&err))
		abort();
	tv_trace_destroy(tr);
	free(json);
	return 0;
}
