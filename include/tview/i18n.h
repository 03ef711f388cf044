/*
 * gettext wrappers: _() translates now, N_() marks for later translation.
 * Trace content (event, field and process names) and --dump output are never
 * translated: they are data, and --dump must stay diffable.
 */
#ifndef TVIEW_I18N_H
#define TVIEW_I18N_H

#include "tview/tview.h"

#ifdef ENABLE_NLS
#include <libintl.h>
#define _(s)		gettext(s)
#define P_(s, p, n)	ngettext((s), (p), (n))
#else
#define _(s)		(s)
#define P_(s, p, n)	((n) == 1 ? (s) : (p))
#define textdomain(d)	(d)
#define bindtextdomain(d, dir) (dir)
#define bind_textdomain_codeset(d, c) (c)
#endif
#define N_(s)		(s)

#endif /* TVIEW_I18N_H */
