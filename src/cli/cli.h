/*
 * The batch modes of the tview command (--dump, --info): what main.c
 * dispatches to when no terminal UI is wanted.  They live beside main.c in
 * the binary, not in libtview.a, because only the command line uses them.
 */
#ifndef TVIEW_CLI_H
#define TVIEW_CLI_H

#include "tview/trace.h"
#include "tview/time.h"

/* How a table is printed (--format): aligned for people, or TSV. */
enum tv_cli_format {
	TV_CLI_FORMAT_TABLE,
	TV_CLI_FORMAT_TSV,
};

/* What the command line asked for, shared by the batch modes. */
struct tv_cli_live;

struct tv_cli_options {
	enum tv_time_style	 time_style;	/* --time-format */
	const char		*begin;		/* --begin text, or NULL */
	const char		*end;		/* --end text, or NULL */
	const char		*at;		/* --at text, or NULL */
	bool			 with_pid;	/* --dump --with-pid */
	bool			 bookmarked;	/* --dump --bookmarked */
	const char		*filter;	/* --filter text, or NULL */
	const char		*latency;	/* --latency KIND, or NULL */
	uint32_t		 timeline_cols;	/* --timeline=COLUMNS */
	enum tv_cli_format	 format;	/* --processes --format */
	bool			 time_style_given;	/* --time-format given */
	bool			 info_counts;	/* --info=counts */
	bool			 follow;	/* --follow */
	const struct tv_cli_live *live;	/* borrowed: a net:// session */
};

struct tv_bookmarks;

/**
 * tv_cli_dump() - print every record of @set in [begin, end] to stdout, one
 * line each, as the format's reference reader does.  Returns the process
 * exit status: 0, or 1 after printing what was readable when something was
 * not (the error goes to stderr, prefixed "tview: ").
 */
int	tv_cli_dump(struct tv_trace_set *set, const struct tv_cli_options *o);

/**
 * tv_cli_dump_follow() - --dump --follow: print @set (opened with
 * tv_trace_set_open_live) as --dump does, then, as the trace is written,
 * each record once every stream has gone past its time, until SIGINT or
 * SIGTERM (exit 0) or until the trace stops growing and no process
 * holds its files open for writing any more (an LTTng session
 * destroyed).  The lines are those of a --dump of the finished trace.
 */
int	tv_cli_dump_follow(struct tv_trace_set *set,
	    const struct tv_cli_options *o);

/**
 * tv_cli_count() - --count: print how many events of @set (in [begin,
 * end], matching --filter) there are; exit status as tv_cli_dump().
 */
int	tv_cli_count(struct tv_trace_set *set, const struct tv_cli_options *o);

/**
 * tv_cli_processes() - print the process table of @set at --at (default:
 * the end of the trace) to stdout; exit status as tv_cli_dump().
 */
int	tv_cli_processes(struct tv_trace_set *set,
	    const struct tv_cli_options *o);

/** tv_cli_info() - print a summary of @set to stdout; exit status. */
int	tv_cli_info(struct tv_trace_set *set, const struct tv_cli_options *o);

/**
 * tv_cli_stats() - --stats (and --latency): one statistics walk over
 * [--begin, --end], printed as tables; exit status as tv_cli_dump().
 */
int	tv_cli_stats(struct tv_trace_set *set,
	    const struct tv_cli_options *o);

/**
 * tv_cli_timeline() - --timeline: the CPU and thread timelines of
 * [--begin, --end) in --timeline columns, one letter a cell.
 */
int	tv_cli_timeline(struct tv_trace_set *set,
	    const struct tv_cli_options *o);

/**
 * tv_cli_live_open() - open the net:// argument @url.  When it names no
 * session, list the relay daemon's sessions and return the exit status.
 * Else mirror the session into a new temporary directory: until it is
 * destroyed when @until_end (batch modes), else until the relay has sent
 * what it holds; with @follow a thread then goes on receiving.  The
 * mirror's trace directories are in *@paths (owned, *@npaths).  Returns
 * -1 when there is something to open, else an exit status; *@out (owned,
 * even on failure) is closed with tv_cli_live_close().
 */
int	tv_cli_live_open(const char *url, bool until_end, bool follow,
	    char ***paths, size_t *npaths, struct tv_cli_live **out);

/**
 * tv_cli_live_done() - true once nothing more will reach the mirror (the
 * session ended, the connection failed, or no thread receives).
 */
bool	tv_cli_live_done(const struct tv_cli_live *l);

/**
 * tv_cli_live_close() - stop receiving, say the receiver's error if it
 * had one, remove the mirror and free @l (NULL: nothing).
 */
void	tv_cli_live_close(struct tv_cli_live *l);

/** tv_cli_error() - "tview: MESSAGE" on stderr, for a struct tv_error. */
void	tv_cli_error(const struct tv_error *err);

/** tv_cli_parse_time() - parse a --begin/--end argument against @set. */
enum tv_status tv_cli_parse_time(const struct tv_trace_set *set,
	    const char *text, bool local, int64_t *out,
	    struct tv_error *err);

struct tv_filter;

/**
 * tv_cli_filter() - compile --filter against @set (*@out NULL without
 * one); 0, or the exit status of an error, said on stderr.
 */
int	tv_cli_filter(struct tv_trace_set *set, const struct tv_cli_options *o,
	    struct tv_filter **out);

/** tv_cli_bookmarks() - --bookmarks: print them, one a line; status. */
int	tv_cli_bookmarks(struct tv_trace_set *set,
	    const struct tv_cli_options *o);

/**
 * tv_cli_bookmarks_load() - the bookmarks of trace @k of @set (each trace
 * keeps its own file), times resolved with that trace's clock.
 */
enum tv_status tv_cli_bookmarks_load(const struct tv_trace_set *set,
	    uint32_t k, struct tv_bookmarks **out, struct tv_error *err);

/**
 * tv_cli_paths() - the paths to open for the arguments (see open.c): each
 * argument, a directory holding a trace.dat as that file; with none,
 * ./trace.dat or the current directory's trace.  *@out is a tv_xmalloc'd
 * array of *@nout owned strings (free both).  An argument that is not a
 * trace but where one can be suggested (a CTF metadata file, a directory
 * with traces below) is left out and explained in @err; without arguments
 * and no trace here, TV_NOT_FOUND (a usage error).
 */
enum tv_status tv_cli_paths(const char *const *args, size_t nargs,
	    char ***out, size_t *nout, struct tv_error *err);

#endif /* TVIEW_CLI_H */
