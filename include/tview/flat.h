/*
 * Reading a few members of a record straight from its bytes, with no
 * value tree: what the state layer reads of most records (a switch's
 * tids and names, a context's owner fields) lies at places the record's
 * start fixes, and decoding a tree to find them cost nine tenths of a
 * whole-trace state pass.  A driver that can (format.h: flat_plan,
 * flat_read) compiles a plan per event class once; reading a record is
 * then a few loads.  The answer is the one the tree gives: a value as
 * tv_value_as_int() reads it, a text as tv_value_str() does.
 */
#ifndef TVIEW_FLAT_H
#define TVIEW_FLAT_H

#include "tview/tview.h"

struct tv_event;
struct tv_event_class;
struct tv_trace;

/* Most members one plan reads. */
#define TV_FLAT_MAX	16

/* One member to read: a member of a scope's struct, by its index. */
struct tv_flat_ask {
	uint8_t		 scope;		/* enum tv_scope */
	uint16_t	 member;	/* in the scope's struct class */
};

/* What a plan read of one member. */
struct tv_flat_value {
	int64_t		 i;		/* an integer's value */
	const char	*text;		/* NULL for an integer; else its
					   bytes, in the mapped record */
	size_t		 len;		/* bytes at @text (a NUL may end it
					   sooner) */
};

/* What the caller does with the values of one read (see below). */
typedef void	 (*tv_flat_use_fn)(void *arg,
		    const struct tv_flat_value *v);

/**
 * tv_event_flat_plan() - the driver's plan to read @n members @asks (at
 * most TV_FLAT_MAX) of every record of class @ec of @trace, or NULL when
 * the driver cannot read one of them without decoding (the caller
 * decodes then).  Free with free().
 */
void		*tv_event_flat_plan(const struct tv_trace *trace,
		    const struct tv_event_class *ec,
		    const struct tv_flat_ask *asks, unsigned n);

/**
 * tv_event_flat_read() - read plan @plan's members of record @ev and
 * hand their values, in the plan's order, to @use(@arg, values), all
 * under a mapping guard: a text points into the mapping, which may
 * shrink under a followed trace, so it is read there and never kept.
 * False when this record cannot be read so (cut short, a file that
 * shrank, perhaps while @use ran: what it did is then to be undone):
 * decoding it says why.
 */
bool		 tv_event_flat_read(const struct tv_event *ev,
		    const void *plan, tv_flat_use_fn use, void *arg);

/**
 * tv_flat_text() - text @v as tv_value_str() gives the same member:
 * its bytes up to the first NUL, at most @size - 1 of them, into @buf.
 * False for an integer.
 */
bool		 tv_flat_text(const struct tv_flat_value *v, char *buf,
		    size_t size);

#endif /* TVIEW_FLAT_H */
