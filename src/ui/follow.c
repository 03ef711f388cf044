/*
 * F and --follow: the browser follows a trace still being written, as
 * less +F follows a file.  Every TV_UI_FOLLOW_MS, a stat per stream
 * tells whether the trace may have grown; if so, every thread reading
 * the trace is stopped (the background state pass, the filters' pass,
 * the statistics walk), the indexes are extended, and the walks go on
 * over the longer trace, none from the start: the state pass from its
 * last checkpoint before the new records (tv_state_index_extend), the
 * filters' pass over the new packets (tv_pass_extend), the statistics
 * from where they stopped (tv_stats_walk).  The event list keeps its
 * selection on its row, unless the last event was selected: then the
 * new last one is.
 */
#include "ui-priv.h"

/* How often a trace being followed is looked at. */
#define TV_UI_FOLLOW_MS	200

/* Is the selection the last event the list shows (or is there none)? */
static bool
at_last_event(struct tv_ui *ui)
{
	struct tv_event ev;

	if (!ui->have_sel)
		return true;
	tv_merge_seek_event(ui->merge, &ui->sel);
	if (tv_ui_merge_step_raw(ui, +1, &ev) != TV_OK)
		return true;
	return tv_ui_merge_step(ui, +1, &ev) == TV_END;
}

/*
 * Take in what the trace gained.  No other thread may read the set
 * while it is extended (its packet arrays and mappings may move): stop
 * them all first, start them again after.
 */
static void
follow_extend(struct tv_ui *ui)
{
	struct tv_error err;
	char buf[1200];
	bool to_end, grew = false;
	enum tv_status st;

	to_end = at_last_event(ui);
	tv_ui_stats_pause(ui);
	tv_ui_filter_suspend(ui);
	tv_ui_session_pause(ui);
	tv_error_clear(&err);
	st = tv_trace_set_extend(ui->set, TV_OPEN_FOLLOW, &grew, &err);
	/* the merger's heap and the rank's prefix sums are per stream */
	tv_merge_destroy(ui->merge);
	ui->merge = tv_merge_create(ui->set);
	tv_ui_position_fini();
	tv_ui_session_extend(ui);
	tv_ui_filter_resume(ui);
	tv_ui_stats_extend(ui);
	/* a damaged packet stops its stream's index: said each time the
	 * trace grows, the rest goes on */
	if (st != TV_OK)
		tv_ui_error(ui, "%s", tv_error_format(&err, buf, sizeof(buf)));
	if (st == TV_UNSUPPORTED)
		ui->following = false;
	if (grew) {
		tv_ui_count_lost(ui);
		tv_ui_render_widths(ui);
	}
	tv_ui_events_reload(ui, to_end);
	tv_ui_mark_all(ui);
}

/* See ui-priv.h. */
void
tv_ui_follow_toggle(struct tv_ui *ui)
{
	ui->following = !ui->following;
	if (!ui->following) {
		/* the statistics walked to the settled time: now to the end */
		tv_ui_stats_extend(ui);
		tv_ui_mark_all(ui);
		tv_ui_message(ui, _("stopped following the trace"));
		return;
	}
	ui->follow_look = true;
	ui->follow_next_ms = tv_clock_ms();
	tv_ui_message(ui, _("following the trace as it is written "
	    "(F stops)"));
	tv_ui_follow_poll(ui);
}

/* See ui-priv.h. */
void
tv_ui_follow_poll(struct tv_ui *ui)
{
	int64_t now;

	if (!ui->following)
		return;
	now = tv_clock_ms();
	if (now < ui->follow_next_ms)
		return;
	ui->follow_next_ms = now + TV_UI_FOLLOW_MS;
	if (!ui->follow_look && !tv_trace_set_grown(ui->set))
		return;
	ui->follow_look = false;
	follow_extend(ui);
}

/* See ui-priv.h. */
int
tv_ui_follow_wait_ms(const struct tv_ui *ui)
{
	int64_t left;

	if (!ui->following)
		return -1;
	left = ui->follow_next_ms - tv_clock_ms();
	return left < 0 ? 0 : left > TV_UI_FOLLOW_MS ? TV_UI_FOLLOW_MS :
	    (int)left;
}
