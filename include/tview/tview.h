/*
 * Common prelude of every tview source file: config.h first, then the
 * attributes and small helpers everybody uses.  Never included from a
 * header other than the public ones in include/tview/.
 */
#ifndef TVIEW_TVIEW_H
#define TVIEW_TVIEW_H

#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TV_PRINTFLIKE(a, b)	__attribute__((format(printf, a, b)))
#define TV_UNUSED		__attribute__((unused))
#define TV_NORETURN		__attribute__((noreturn))
#define TV_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define TV_MIN(a, b)		((a) < (b) ? (a) : (b))
#define TV_MAX(a, b)		((a) > (b) ? (a) : (b))

#endif /* TVIEW_TVIEW_H */
