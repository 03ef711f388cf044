/*
 * The pane table and the panes' open / focus state: which panes are
 * open (struct tv_pane.open), which has the focus (ui->focus), and the
 * generic meaning of a pane's open request (Enter, P, B, h): open it
 * focused, focus it, or close it when it toggles.  Where open panes go
 * on screen is layout.c's business.
 */
#include "ui-priv.h"

static const struct tv_pane_ops *const pane_ops[TV_UI_NPANES] = {
#define TV_UI_PANE_OPS(id, ops) &ops,
	TV_UI_PANE_LIST(TV_UI_PANE_OPS)
#undef TV_UI_PANE_OPS
};

/* See pane.h. */
void
tv_ui_panes_init(struct tv_ui *ui)
{
	int i;

	ui->focus = TV_UI_PANE_EVENTS;
	for (i = 0; i < TV_UI_NPANES; i++) {
		ui->panes[i].ops = pane_ops[i];
		ui->panes[i].open = pane_ops[i]->place == TV_PANE_MAIN;
	}
	for (i = 0; i < TV_UI_NPANES; i++)
		ui->panes[i].ops->init(ui, &ui->panes[i]);
}

/* See pane.h. */
bool
tv_ui_has_focus(const struct tv_ui *ui, const struct tv_pane *p)
{
	return &ui->panes[ui->focus] == p;
}

/* See pane.h. */
struct tv_pane *
tv_ui_overlay(struct tv_ui *ui)
{
	int i;

	for (i = 0; i < TV_UI_NPANES; i++)
		if (ui->panes[i].open &&
		    ui->panes[i].ops->place == TV_PANE_OVERLAY)
			return &ui->panes[i];
	return NULL;
}

/* Whether a pane placed alone at the bottom is open. */
static bool
alone_open(const struct tv_ui *ui)
{
	int i;

	for (i = 0; i < TV_UI_NPANES; i++)
		if (ui->panes[i].open &&
		    ui->panes[i].ops->place == TV_PANE_BOTTOM_ALONE)
			return true;
	return false;
}

/* See pane.h. */
bool
tv_ui_pane_shown(const struct tv_ui *ui, int id)
{
	const struct tv_pane *p = &ui->panes[id];
	int i;

	if (!p->open)
		return false;
	for (i = 0; i < TV_UI_NPANES; i++)
		if (i != id && ui->panes[i].open &&
		    ui->panes[i].ops->place == TV_PANE_OVERLAY)
			return false;
	return p->ops->place != TV_PANE_BOTTOM || !alone_open(ui);
}

/* See pane.h. */
void
tv_ui_pane_open(struct tv_ui *ui, int id)
{
	struct tv_pane *p = &ui->panes[id];
	int i;

	if (p->open)
		return;
	if (p->ops->can_open && !p->ops->can_open(ui, p))
		return;
	/* a bottom pane opened under a lone one would stay hidden */
	if (p->ops->place == TV_PANE_BOTTOM)
		for (i = 0; i < TV_UI_NPANES; i++)
			if (ui->panes[i].open &&
			    ui->panes[i].ops->place == TV_PANE_BOTTOM_ALONE)
				tv_ui_pane_close(ui, i);
	p->open = true;
	if (p->ops->place != TV_PANE_OVERLAY)
		ui->focus = id;
	tv_ui_layout(ui);
	if (p->ops->sync)
		p->ops->sync(ui, p);
}

/* See pane.h. */
void
tv_ui_pane_close(struct tv_ui *ui, int id)
{
	struct tv_pane *p = &ui->panes[id];

	if (!p->open || p->ops->place == TV_PANE_MAIN)
		return;
	p->open = false;
	if (p->ops->place != TV_PANE_OVERLAY) {
		ui->maximised = false;
		if (ui->focus == id || !ui->panes[ui->focus].open)
			ui->focus = TV_UI_PANE_EVENTS;
	}
	if (p->ops->closed)
		p->ops->closed(ui, p);
	tv_ui_layout(ui);
}

/* See pane.h. */
bool
tv_ui_pane_request(struct tv_ui *ui, enum tv_ui_req req)
{
	struct tv_pane *ov = tv_ui_overlay(ui), *p;
	int id;

	for (id = 0; id < TV_UI_NPANES; id++) {
		p = &ui->panes[id];
		if (p->ops->open_req != req || req == TV_UI_REQ_NONE)
			continue;
		if (ov && ov != p)
			return true;	/* not under an overlay */
		if (p->open && (p == ov || ui->focus == id)) {
			if (p->ops->flags & TV_PANE_TOGGLE)
				tv_ui_pane_close(ui, id);
		} else if (p->open) {
			tv_ui_focus(ui, id);
		} else {
			tv_ui_pane_open(ui, id);
		}
		return true;
	}
	return false;
}

/* See pane.h. */
void
tv_ui_focus_next(struct tv_ui *ui)
{
	int i, id;

	if (tv_ui_overlay(ui))
		return;
	for (i = 1; i < TV_UI_NPANES; i++) {
		id = (ui->focus + i) % TV_UI_NPANES;
		if (ui->panes[id].ops->place != TV_PANE_OVERLAY &&
		    tv_ui_pane_shown(ui, id)) {
			tv_ui_focus(ui, id);
			return;
		}
	}
}
