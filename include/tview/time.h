/*
 * Time.  Every event carries a signed 64-bit count of nanoseconds from its
 * clock's origin (the Unix epoch for absolute clocks).  Clocks convert raw
 * cycle counts; this module formats and parses what users see and type.
 */
#ifndef TVIEW_TIME_H
#define TVIEW_TIME_H

#include "tview/tview.h"
#include "tview/error.h"

#define TV_TIME_NONE	INT64_MIN	/* "no timestamp" */

/* A clock as CTF describes it; other formats fill the same fields. */
struct tv_clock {
	const char	*name;		/* interned, borrowed from the trace */
	const char	*description;	/* may be NULL */
	uint64_t	 freq;		/* Hz, > 0 */
	uint64_t	 precision;
	int64_t		 offset_s;	/* seconds from origin */
	int64_t		 offset_cycles;
	uint8_t		 uuid[16];
	bool		 has_uuid;
	bool		 absolute;
	/* Derived once at open: offset in ns, so conversion is one add. */
	int64_t		 base_ns;
};

/** tv_clock_finish() - compute base_ns; call after filling the fields. */
void		 tv_clock_finish(struct tv_clock *clk);
/**
 * tv_clock_to_ns() - ns from origin for @cycles, rounded as babeltrace2
 * does (so --dump matches it).  Saturates instead of overflowing.
 */
int64_t		 tv_clock_to_ns(const struct tv_clock *clk, uint64_t cycles);

enum tv_time_style {
	TV_TIME_WALL_UTC,	/* 10:15:09.000000010 */
	TV_TIME_WALL_LOCAL,
	TV_TIME_SECONDS,	/* 1351530909.000000010 */
	TV_TIME_RELATIVE,	/* +0.000012345 from a reference */
	TV_TIME_RAW,		/* clock cycles, when known */
};

/**
 * tv_time_format() - write @ns in @style into @buf; @ref is the reference
 * for TV_TIME_RELATIVE.  Returns @buf.  Handles negative times.
 */
char		*tv_time_format(int64_t ns, enum tv_time_style style,
		    int64_t ref, char *buf, size_t size);
/**
 * tv_time_format_prec() - tv_time_format() with @digits (0 to 9) digits
 * after the second, rounded half up (6: microseconds, as trace-cmd
 * report prints them).
 */
char		*tv_time_format_prec(int64_t ns, enum tv_time_style style,
		    int64_t ref, int digits, char *buf, size_t size);

/**
 * tv_time_format_span() - a duration for people, three significant
 * digits and a unit: "40 ns", "12.5 us", "250 ms", "3.00 s".  Returns @buf.
 */
char		*tv_time_format_span(int64_t ns, char *buf, size_t size);

/* The span a relative or percentage time refers to. */
struct tv_time_ctx {
	int64_t	 begin;		/* trace start */
	int64_t	 end;		/* trace end */
	int64_t	 cursor;	/* current position, for +REL / -REL */
	bool	 local;		/* HH:MM:SS in local time instead of UTC */
};

/**
 * tv_time_parse() - parse what a user types:
 *   HH:MM[:SS[.fraction]]   on the day of ctx->begin
 *   YYYY-MM-DD[ T]HH:MM:SS[.fraction]
 *   SECONDS[.fraction]      from the origin
 *   +1.5ms, -200us, +3s, +10ns   relative to ctx->cursor
 *   N% or N.M%              of [begin, end]
 * TV_SYNTAX with a translated message when it is none of these.
 */
enum tv_status	 tv_time_parse(const char *text, const struct tv_time_ctx *ctx,
		    int64_t *out, struct tv_error *err);

/*
 * A window [@t0, @t1) cut into @ncols equal columns, as the timeline and
 * the density strip draw it: where column @col starts, and the column
 * holding @ts (clamped to the window).
 */
int64_t		 tv_window_col_time(int64_t t0, int64_t t1, uint32_t ncols,
		    uint32_t col);
uint32_t	 tv_window_col_of(int64_t t0, int64_t t1, uint32_t ncols,
		    int64_t ts);

#endif /* TVIEW_TIME_H */
