/*
 * The columns of the event list: the one table of their names, titles,
 * priorities and widths, the order and widths the config file's
 * "columns = ..." gives, and the one rule that fits columns to a width
 * (the process pane fits its own table by the same rule).  render.c
 * draws what tv_ui_columns_layout() decided here.
 */
#include "ui-priv.h"

#include <stdlib.h>
#include <string.h>

/*
 * Priority 0 is never dropped; the higher, the sooner a column shrinks
 * (down to its min) and then goes when the screen is narrow.  A width
 * of 0 is measured from the trace (render.c, row-columns.c).  The
 * fields come last and take what is left, no less than their min.
 */
static const struct tv_ui_col event_cols[TV_UI_COL_COUNT] = {
	[TV_UI_COL_TIME] = { "time", N_("Time"), 0, 0, 0 },
	[TV_UI_COL_CPU] = { "cpu", N_("CPU"), 2, 3, 3 },
	[TV_UI_COL_TRACE] = { "trace", N_("Trace"), 3, 0, 5 },
	[TV_UI_COL_TASK] = { "task", N_("Task"), 4, 22, 16 },
	[TV_UI_COL_EVENT] = { "event", N_("Event"), 1, 32, 10 },
	[TV_UI_COL_FIELDS] = { "fields", N_("Fields"), 0, 0, 32 },
};

/* See ui-priv.h. */
const struct tv_ui_col *
tv_ui_column(int id)
{
	return &event_cols[id];
}

/* Screen columns the shown columns of @c take, gaps included. */
static int
total(const struct tv_ui_colfit *c, int n, int gap)
{
	int i, sum = 0, shown = 0;

	for (i = 0; i < n; i++) {
		if (c[i].width <= 0)
			continue;
		sum += c[i].width;
		shown++;
	}
	return sum + (shown > 1 ? (shown - 1) * gap : 0);
}

/* The shown column of least priority that can still shrink
   (@shrinkable) or that may go (priority above 0); -1 if none. */
static int
weakest(const struct tv_ui_colfit *c, int n, bool shrinkable)
{
	int i, k = -1;

	for (i = 0; i < n; i++) {
		if (c[i].width <= 0 || (shrinkable ? c[i].width <= c[i].min :
		    c[i].priority == 0))
			continue;
		if (k < 0 || c[i].priority >= c[k].priority)
			k = i;
	}
	return k;
}

/*
 * See ui-priv.h.  Start from what each column wants; while too wide,
 * the column of least priority that can shrink shrinks, down to its
 * min; when none can, the one of least priority is dropped and the
 * others start again from what they want; before a column of priority
 * 1 goes, the last column's min gives way to a quarter of the room.
 * The last column takes what is left.
 */
void
tv_ui_columns_fit(struct tv_ui_colfit *c, int n, int room, int gap)
{
	bool gone[TV_UI_COLFIT_MAX] = { false }, relaxed = false;
	int i, k, over;

	if (n <= 0 || n > TV_UI_COLFIT_MAX)
		return;
	for (;;) {
		for (i = 0; i < n; i++)
			c[i].width = gone[i] ? 0 : TV_MAX(c[i].want, 1);
		while ((over = total(c, n, gap) - room) > 0 &&
		    (k = weakest(c, n, true)) >= 0)
			c[k].width -= TV_MIN(over, c[k].width - c[k].min);
		if (over <= 0 || (k = weakest(c, n, false)) < 0)
			break;
		if (c[k].priority <= 1 && !relaxed && !gone[n - 1]) {
			/* the last column gives room before a column of
			   the first rank goes: a narrow screen still shows
			   the event names */
			relaxed = true;
			c[n - 1].want = c[n - 1].min = TV_MAX(TV_MIN(
			    c[n - 1].min, room / 4), 1);
			continue;
		}
		gone[k] = true;
	}
	if (c[n - 1].width > 0 && over < 0)
		c[n - 1].width -= over;
}

/* See ui-priv.h. */
const char *
tv_ui_columns_parse(struct tv_ui *ui, const char *val)
{
	char *copy = tv_xstrdup(val), *tok, *save = NULL, *colon, *end;
	const char *why = NULL;
	bool seen[TV_UI_COL_COUNT] = { false };
	int n = 0, id, w;
	long l;

	for (tok = strtok_r(copy, ",", &save); tok && !why;
	    tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ' || *tok == '\t')
			tok++;
		end = tok + strlen(tok);
		while (end > tok && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		w = 0;
		if ((colon = strchr(tok, ':')) != NULL) {
			*colon++ = '\0';
			l = strtol(colon, &end, 10);
			if (end == colon || *end || l < 1 || l > 200) {
				why = _("a column's width is a number of "
				    "columns, 1 to 200 (event:20)");
				break;
			}
			w = (int)l;
		}
		for (id = 0; id < TV_UI_COL_COUNT; id++)
			if (strcmp(tok, event_cols[id].id) == 0)
				break;
		if (id == TV_UI_COL_COUNT)
			why = _("unknown column (time, cpu, trace, task, event, "
			    "fields)");
		else if (seen[id])
			why = _("a column is named twice");
		else if (n > 0 && ui->col_order[n - 1] == TV_UI_COL_FIELDS)
			why = _("the fields column comes last");
		else {
			seen[id] = true;
			ui->col_order[n] = id;
			ui->col_given[n++] = w;
		}
	}
	free(copy);
	if (!why && n == 0)
		why = _("expected column names, comma-separated");
	if (why) {
		ui->ncol_order = 0;	/* the default order */
		return why;
	}
	ui->ncol_order = n;
	return NULL;
}

/*
 * See ui-priv.h.  @measured: what each column wants from the trace
 * (time, trace names, the longest event name), 0 for the table's
 * width, -1 for a column this trace set has not (one trace: no Trace
 * column).  A width the config gives wins: that column is not shrunk
 * and goes with the first rank only.
 */
void
tv_ui_columns_layout(struct tv_ui *ui, const int *measured)
{
	struct tv_ui_colfit fit[TV_UI_COL_COUNT];
	int of[TV_UI_COL_COUNT];
	int i, n = 0, id;

	if (ui->ncol_order == 0) {
		for (i = 0; i < TV_UI_COL_COUNT; i++) {
			ui->col_order[i] = i;
			ui->col_given[i] = 0;
		}
		ui->ncol_order = TV_UI_COL_COUNT;
	}
	for (i = 0; i < ui->ncol_order; i++) {
		const struct tv_ui_col *c;
		int given = ui->col_given[i];

		id = ui->col_order[i];
		c = &event_cols[id];
		if (measured[id] < 0)
			continue;
		of[n] = id;
		fit[n].priority = c->priority;
		fit[n].want = measured[id] > 0 ? measured[id] : c->width;
		fit[n].min = c->min > 0 ? TV_MIN(c->min, fit[n].want) :
		    fit[n].want;
		if (id == TV_UI_COL_FIELDS)
			fit[n].want = fit[n].min = given ? given : c->min;
		else if (given) {
			/* asked for: not shrunk, and it goes last */
			fit[n].want = fit[n].min = given;
			fit[n].priority = TV_MIN(c->priority, 1);
		}
		n++;
	}
	/* the row starts one column in, after the selection mark */
	tv_ui_columns_fit(fit, n, ui->cols > 0 ? ui->cols - 1 : 1000, 2);
	memset(ui->col_width, 0, sizeof(ui->col_width));
	for (i = 0; i < n; i++)
		ui->col_width[of[i]] = fit[i].width;
}
