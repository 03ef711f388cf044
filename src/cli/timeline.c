/*
 * --timeline: the control-flow and CPU timelines of [--begin, --end) as
 * text, one letter a column (the legend is in tview(1) and on the first
 * line), for scripts and tests: what the browser's timeline views draw,
 * built by the same core code.  CPU rows come first, then one row a
 * thread; cells sit between bars so that names with spaces come after.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/state.h"
#include "tview/timeline.h"
#include "cli.h"

/* The cells of @r as letters. */
static void
timeline_cells(const struct tv_timeline *tl, const struct tv_timeline_row *r)
{
	uint32_t i;

	putchar('|');
	for (i = 0; i < tl->ncols; i++)
		putchar(tv_cell_letter((enum tv_cell)r->cells[i]));
	putchar('|');
}

/* See cli.h. */
int
tv_cli_timeline(struct tv_trace_set *set, const struct tv_cli_options *o)
{
	bool local = o->time_style == TV_TIME_WALL_LOCAL;
	int64_t t0 = set->ts_begin, t1 = set->ts_end + 1;
	struct tv_state_index *idx;
	struct tv_timeline *tl = NULL;
	struct tv_error err;
	char b0[64], b1[64];
	size_t i;
	int status = 0;

	tv_error_clear(&err);
	if ((o->begin != NULL &&
	    tv_cli_parse_time(set, o->begin, local, &t0, &err) != TV_OK) ||
	    (o->end != NULL &&
	    tv_cli_parse_time(set, o->end, local, &t1, &err) != TV_OK)) {
		tv_cli_error(&err);
		return 2;
	}
	idx = tv_state_index_create(set, 0);
	tv_state_index_set_sequential(idx);	/* RSS near the heap */
	if (tv_state_index_run(idx, true, &err) != TV_OK) {
		tv_cli_error(&err);
		status = 1;
	}
	if (tv_timeline_build(idx, set, t0, t1, o->timeline_cols, NULL, &tl,
	    &err) != TV_OK) {
		tv_cli_error(&err);
		tv_state_index_destroy(idx);
		return status ? status : 1;
	}
	printf("window %s %s columns %u %s legend ' '=none ?=unknown "
	    "x=exited z=zombie .=blocked -=runnable _=idle R=user S=syscall "
	    "T=trap s=softirq I=irq\n",
	    tv_time_format(tl->t0, o->time_style, set->ts_begin, b0,
	    sizeof(b0)), tv_time_format(tl->t1, o->time_style,
	    set->ts_begin, b1, sizeof(b1)), tl->ncols,
	    tl->sampled ? "sampled" : "exact");
	for (i = 0; i < tl->ncpus; i++) {
		timeline_cells(tl, &tl->cpus[i]);
		printf(" cpu %d\n", tl->cpus[i].cpu);
	}
	for (i = 0; i < tl->nthreads; i++) {
		const struct tv_timeline_row *r = &tl->threads[i];

		timeline_cells(tl, r);
		printf(" %lld ", (long long)r->tid);
		if (r->pid == TV_TID_UNKNOWN)
			printf("-");
		else
			printf("%lld", (long long)r->pid);
		printf(" %s\n", r->name[0] != '\0' ? r->name : "-");
	}
	tv_timeline_destroy(tl);
	tv_state_index_destroy(idx);
	if (fflush(stdout) != 0 && status == 0) {
		tv_error_set(&err, TV_IO, NULL, _("cannot write the output"));
		tv_cli_error(&err);
		status = 1;
	}
	return status;
}
