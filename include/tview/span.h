/*
 * Spans: what a format records as an entry record and an exit record on
 * one CPU at one nesting depth, the exit carrying when the span began
 * and ended (ftrace's function_graph: funcgraph_entry / funcgraph_exit
 * with calltime and rettime).  A driver hands its span rules through
 * tv_format_ops (span_rules, and symbol to name an address); the core
 * reads spans for the latency tables and the matching event, knowing no
 * event name.
 */
#ifndef TVIEW_SPAN_H
#define TVIEW_SPAN_H

#include "tview/trace.h"

/*
 * One kind of span.  Event names match as state rule patterns do
 * (tv_rule_name_matches).  Field names are payload members; @func holds
 * an address (named by the driver's symbol hook) or a string.
 */
struct tv_span_rule {
	const char	*entry;		/* entry event */
	const char	*exit;		/* exit event */
	const char	*func;		/* both: what runs */
	const char	*depth;		/* both: nesting depth */
	const char	*calltime;	/* exit: start, ns */
	const char	*rettime;	/* exit: end, ns */
};
/* The rule that ends a table. */
#define TV_SPAN_RULE_END	{ NULL, NULL, NULL, NULL, NULL, NULL }

enum tv_span_end {
	TV_SPAN_NONE,
	TV_SPAN_ENTRY,
	TV_SPAN_EXIT,
};

/* What one record says of its span. */
struct tv_span {
	enum tv_span_end end;
	int64_t		 depth;
	uint64_t	 func;		/* address, or 0 with @name set */
	char		 name[64];	/* when @func is a string */
	int64_t		 begin;		/* exit: calltime */
	int64_t		 dur;		/* exit: rettime - calltime */
};

struct tv_span_reader;

/** tv_span_reader_create() - a reader for events of @set (borrowed). */
struct tv_span_reader *tv_span_reader_create(const struct tv_trace_set *set);
void		 tv_span_reader_destroy(struct tv_span_reader *r);

/**
 * tv_span_read() - what @ev says of its span; false (and @out->end
 * TV_SPAN_NONE) when it is no span record or its fields are unreadable.
 * Cheap for other events: the answer per class is kept.
 */
bool		 tv_span_read(struct tv_span_reader *r, const struct tv_event *ev,
		    struct tv_span *out);

/**
 * tv_span_name() - the name of @sp's function into @buf: its string, the
 * driver's symbol for its address, or the address in hex.
 */
void		 tv_span_name(const struct tv_event *ev, const struct tv_span *sp,
		    char *buf, size_t size);

#endif /* TVIEW_SPAN_H */
