/*
 * Fuzz target: LTT event-definition XML (a facility file of eventdefs/)
 * parsed into facilities, each checksummed and turned into field classes
 * for both byte orders and word sizes; and the same text read as a
 * system.xml (its root's attributes).  No file is involved.
 */
#include "tview/tview.h"
#include "tview/error.h"
#include "tview/util.h"

#include <stdlib.h>

#include "../src/formats/ltt/ltt-xml.h"
#include "fz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ltt_xsizes sizes[2] = {
		{ 4, 4, 4, 4, 0, TV_BO_LE },
		{ 4, 8, 8, 8, 8, TV_BO_BE },
	};
	char *text = fz_text(data, size);
	struct tv_env_entry *env;
	struct ltt_xdefs d;
	struct tv_arena a;
	struct tv_error err;
	uint32_t i, j, nenv;
	int k;

	tv_arena_init(&a);
	ltt_xdefs_init(&d, &a);
	tv_error_clear(&err);
	(void)ltt_xdefs_parse(&d, "fuzz.xml", text, size, &err);
	for (i = 0; i < d.nfacs; i++) {
		const struct ltt_xfacility *f = &d.facs[i];

		(void)ltt_xfacility_checksum(f);
		for (j = 0; j < f->nevents; j++)
			for (k = 0; k < 2; k++)
				if (f->events[j].type)
					(void)ltt_fc_fixed_size(ltt_xtype_fc(
					    f->events[j].type, &sizes[k], &a),
					    sizes[k].alignment);
	}
	ltt_xdefs_fini(&d);
	tv_error_clear(&err);
	(void)ltt_xml_attrs("system.xml", text, size, &a, &env, &nenv, &err);
	tv_arena_fini(&a);
	free(text);
	return 0;
}
