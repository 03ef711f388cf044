/*
 * The jump list, as vim's: every request that moves the selection far
 * (g, G, :goto, t, searches, n/N, %, u/U, a bookmark's Enter, a click)
 * leaves the place it started from here; Ctrl-O goes back, Ctrl-I (Tab
 * when no other pane can take the focus) forward, '' to the place before
 * the last jump and back again.
 */
#include "ui-priv.h"

#include <stdlib.h>
#include <string.h>

#define JUMPS_MAX	100

struct tv_ui_jumps {
	struct tv_event	 back[JUMPS_MAX];	/* oldest first */
	int		 nback;
	struct tv_event	 fwd[JUMPS_MAX];	/* newest first */
	int		 nfwd;
};

/* The list, made on first use. */
static struct tv_ui_jumps *
jumps(struct tv_ui *ui)
{
	if (!ui->jumps)
		ui->jumps = tv_xcalloc(1, sizeof(*ui->jumps));
	return ui->jumps;
}

/* Push @ev on a stack of @n, dropping the oldest when full. */
static void
push(struct tv_event *stack, int *n, const struct tv_event *ev)
{
	if (*n > 0 && tv_event_cmp(&stack[*n - 1], ev) == 0)
		return;
	if (*n == JUMPS_MAX) {
		memmove(stack, stack + 1, (JUMPS_MAX - 1) * sizeof(*stack));
		(*n)--;
	}
	stack[(*n)++] = *ev;
}

/* Whether @req moves the selection far enough to be a jump. */
bool
tv_ui_jump_req(const struct tv_ui *ui, enum tv_ui_req req)
{
	switch (req) {
	case TV_UI_REQ_FIRST:
	case TV_UI_REQ_LAST:
	case TV_UI_REQ_COMMAND:
	case TV_UI_REQ_TIME_PROMPT:
	case TV_UI_REQ_SEARCH_FWD:
	case TV_UI_REQ_SEARCH_BWD:
	case TV_UI_REQ_SEARCH_NEXT:
	case TV_UI_REQ_SEARCH_PREV:
	case TV_UI_REQ_PID_PROMPT:
	case TV_UI_REQ_MATCH:
	case TV_UI_REQ_BM_NEXT:
	case TV_UI_REQ_BM_PREV:
		return true;
	case TV_UI_REQ_FIELDS:
		/* Enter in the bookmark or process pane goes there */
		return ui->focus != TV_UI_PANE_EVENTS;
	default:
		return false;
	}
}

/* See ui-priv.h. */
void
tv_ui_jump_moved(struct tv_ui *ui, bool had, const struct tv_event *before)
{
	struct tv_ui_jumps *j;

	if (!had || !ui->have_sel || tv_event_cmp(before, &ui->sel) == 0)
		return;
	j = jumps(ui);
	push(j->back, &j->nback, before);
	j->nfwd = 0;
}

/* Go to @ev, from the jump list. */
static void
go(struct tv_ui *ui, const struct tv_event *ev)
{
	struct tv_event to = *ev;

	tv_ui_focus(ui, TV_UI_PANE_EVENTS);
	tv_ui_events_goto(ui, &to);
}

/* See ui-priv.h: Ctrl-O (@dir < 0) and Ctrl-I; the place left goes on
 * the other stack. */
void
tv_ui_jump_step(struct tv_ui *ui, int dir)
{
	struct tv_ui_jumps *j = jumps(ui);
	struct tv_event *from = dir < 0 ? j->back : j->fwd;
	struct tv_event *to = dir < 0 ? j->fwd : j->back;
	int *nfrom = dir < 0 ? &j->nback : &j->nfwd;
	int *nto = dir < 0 ? &j->nfwd : &j->nback;

	if (*nfrom == 0 || !ui->have_sel) {
		tv_ui_message(ui, dir < 0 ? _("no older jump") :
		    _("no newer jump"));
		return;
	}
	push(to, nto, &ui->sel);
	go(ui, &from[--*nfrom]);
}

/* See ui-priv.h. */
void
tv_ui_jump_last(struct tv_ui *ui)
{
	struct tv_ui_jumps *j = jumps(ui);
	struct tv_event to;

	if (j->nback == 0 || !ui->have_sel) {
		tv_ui_message(ui, _("no jump yet"));
		return;
	}
	to = j->back[--j->nback];
	push(j->back, &j->nback, &ui->sel);
	j->nfwd = 0;
	go(ui, &to);
}

/* See ui-priv.h. */
void
tv_ui_jump_fini(struct tv_ui *ui)
{
	free(ui->jumps);
	ui->jumps = NULL;
}
