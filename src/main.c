/*
 * The tview command: parse the options, set up gettext, open the traces
 * and hand them to a batch mode (--dump, --info) or to the terminal UI.
 */
#include "tview/tview.h"

#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tview/error.h"
#include "tview/format.h"
#include "tview/live.h"
#include "tview/i18n.h"
#include "tview/stats.h"
#include "tview/timeline.h"
#include "tview/trace.h"
#include "tview/ui.h"
#include "tview/util.h"
#include "tview/writers.h"
#include "cli/cli.h"

/* Exit status of a usage error (bad option, no trace). */
#define EXIT_USAGE	2

enum main_mode {
	MODE_UI,
	MODE_DUMP,
	MODE_INFO,
	MODE_PROCESSES,
	MODE_BOOKMARKS,
	MODE_COUNT,
	MODE_STATS,
	MODE_TIMELINE,
};

/* Long-only options get values above the char range. */
enum {
	OPT_TIME_FORMAT = 256,
	OPT_PROCESSES,
	OPT_AT,
	OPT_WITH_PID,
	OPT_BOOKMARKS,
	OPT_BOOKMARKED,
	OPT_COUNT,
	OPT_STATS,
	OPT_LATENCY,
	OPT_TIMELINE,
	OPT_FORMAT,
	OPT_FOLLOW,
};

static const struct option main_longopts[] = {
	{ "dump",		no_argument,		NULL, 'd' },
	{ "info",		optional_argument,	NULL, 'i' },
	{ "begin",		required_argument,	NULL, 'b' },
	{ "end",		required_argument,	NULL, 'e' },
	{ "time-format",	required_argument,	NULL, OPT_TIME_FORMAT },
	{ "processes",		no_argument,		NULL, OPT_PROCESSES },
	{ "at",			required_argument,	NULL, OPT_AT },
	{ "with-pid",		no_argument,		NULL, OPT_WITH_PID },
	{ "bookmarks",		no_argument,		NULL, OPT_BOOKMARKS },
	{ "bookmarked",		no_argument,		NULL, OPT_BOOKMARKED },
	{ "filter",		required_argument,	NULL, 'F' },
	{ "count",		no_argument,		NULL, OPT_COUNT },
	{ "stats",		no_argument,		NULL, OPT_STATS },
	{ "latency",		required_argument,	NULL, OPT_LATENCY },
	{ "timeline",		optional_argument,	NULL, OPT_TIMELINE },
	{ "format",		required_argument,	NULL, OPT_FORMAT },
	{ "follow",		no_argument,		NULL, OPT_FOLLOW },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 },
};

/* Bind the message catalogue; $TEXTDOMAINDIR overrides the install dir. */
static void
main_i18n_init(void)
{
	const char *dir = getenv("TEXTDOMAINDIR");

	setlocale(LC_ALL, "");
	if (dir == NULL || dir[0] == '\0')
		dir = LOCALEDIR;
	(void)bindtextdomain(PACKAGE, dir);
	(void)textdomain(PACKAGE);
}

/* --help: every option, and where the keys are documented. */
static void
main_usage(FILE *fp)
{
	fprintf(fp, _("Usage: %s [OPTION]... [TRACE]...\n"), PACKAGE);
	fputs(_("Browse kernel traces in the terminal: CTF 1.8 and 2 (LTTng "
	    "2.x, barectf),\ntrace-cmd "
	    "trace.dat (versions 6 and 7) and LTT / LTTng 0.x.\n"
	    "With several TRACEs, their events are merged into one "
	    "timeline.\n"), fp);
	fputc('\n', fp);
	fputs(_("Options:\n"
	    "  -d, --dump               print every event, one line each, as "
	    "the format's\n"
	    "                           reference reader does (babeltrace2, "
	    "trace-cmd report,\n"
	    "                           LTTV textDump)\n"
	    "  -i, --info               print a summary: format, environment, "
	    "clocks,\n"
	    "                           streams, event classes and their "
	    "counts, lost data,\n"
	    "                           time span\n"
	    "  -b, --begin=TIME         start at TIME (--dump, or the UI's "
	    "first screen)\n"
	    "  -e, --end=TIME           stop after TIME (--dump)\n"
	    "      --time-format=STYLE  show times as utc (default), local or "
	    "seconds\n"
	    "  -h, --help               print this help and exit\n"
	    "  -V, --version            print the version and exit\n"), fp);
	fputs(_("      --info=counts        --info, counting the events of a "
	    "big trace the\n"
	    "                           browser has not read yet\n"), fp);
	fputs(_("      --processes          print the processes at --at TIME "
	    "(default: the end):\n"
	    "                           PID, TID, PPID, name, state, CPU, "
	    "since\n"
	    "      --at=TIME            the instant of --processes\n"
	    "      --with-pid           with --dump, start each event line "
	    "with its PID,\n"
	    "                           TID and process name, tab-separated "
	    "('-' if unknown)\n"), fp);
	fputs(_("      --format=FORMAT      with --processes, 'table' "
	    "(default, aligned) or\n"
	    "                           'tsv' (tab-separated, a header line, "
	    "for scripts)\n"), fp);
	fputs(_("      --bookmarks          print the trace's bookmarks, one a "
	    "line: start, end,\n"
	    "                           cycles, CPU, name, text, "
	    "tab-separated ('-' if none)\n"
	    "      --bookmarked         with --dump, print only the events "
	    "inside bookmarks\n"), fp);
	fputs(_("  -F, --filter=EXPR        with --dump, --count or --stats, "
	    "only the events\n"
	    "                           EXPR matches\n"
	    "      --count              print how many events there are (in "
	    "--begin/--end,\n"
	    "                           matching --filter)\n"), fp);
	fputs(_("      --follow             follow a trace still being "
	    "written (CTF, net://):\n"
	    "                           --dump prints the events as they "
	    "land, in time order,\n"
	    "                           until Ctrl-C or until the trace "
	    "stops growing and no\n"
	    "                           process writes it any more (the "
	    "LTTng session is\n"
	    "                           destroyed); the browser starts "
	    "following (key F)\n"), fp);
	fputc('\n', fp);
	fputs(_("EXPR is trace-cmd's -F form, 'EVENTS: CONDITION', with "
	    "several parts\n"
	    "separated by commas; EVENTS is a list of event names, systems, "
	    "globs or\n"
	    "regular expressions, and may be left out.  CONDITION compares "
	    "fields by\n"
	    "name and the built-ins cpu, tid, pid, comm, trace and time with "
	    "== != < <=\n"
	    "> >=, =~ !~ (regular expressions), ~ (globs), joined by && || ! "
	    "and ( ).\n"
	    "Example: 'sched_switch: prev_pid == 1 && next_comm ~ \"bash*\"'.  "
	    "See tview(1).\n"), fp);
	fputs(_("      --stats              print statistics over [--begin, "
	    "--end]: events per\n"
	    "                           class, per CPU and per thread, CPU "
	    "time per CPU and\n"
	    "                           per thread by mode (user, syscall, "
	    "irq, softirq)\n"
	    "      --latency=KIND       print latencies: wakeup, syscall, "
	    "irq, softirq,\n"
	    "                           function (function_graph) or all;\n"
	    "                           count, min, mean, p50, p99, max "
	    "and the longest\n"), fp);
	fputs(_("      --timeline[=COLUMNS] print what each CPU and thread "
	    "did over [--begin,\n"
	    "                           --end), one letter a column "
	    "(default 80 columns)\n"), fp);
	fputc('\n', fp);
	/* xgettext:no-c-format */
	fputs(_("TIME is HH:MM[:SS[.N]] (on the trace's first day), "
	    "YYYY-MM-DD HH:MM:SS[.N],\n"
	    "SECONDS[.N] since the clock's origin, +REL or -REL from the "
	    "first event\n"
	    "(+1.5ms, -200us), or N% of the time span from the first event "
	    "to the last.\n"), fp);
	fputc('\n', fp);
	fputs(_("Without --dump or --info, tview opens the interactive "
	    "browser; its keys are\n"
	    "listed in tview(1) and by F1 or h in the browser.  When "
	    "standard output is\n"
	    "not a terminal (a pipe, a file), it prints --dump instead.\n"
	    "Without TRACE, tview opens ./trace.dat or the trace in the "
	    "current directory;\n"
	    "a directory holding a trace.dat opens that file.\n"), fp);
	fputc('\n', fp);
	fputs(_("A TRACE net://HOST[:PORT]/host/HOSTNAME/SESSION is an LTTng "
	    "live session, read\n"
	    "from lttng-relayd (port 5344 by default); net://HOST[:PORT] "
	    "lists its sessions.\n"
	    "--dump and the other batch modes read it until it is "
	    "destroyed (or Ctrl-C);\n"
	    "the browser opens what the relay daemon holds.\n"), fp);
	fputc('\n', fp);
	fputs(_("Exit status: 0 on success, 1 if a trace could not be read "
	    "completely,\n"
	    "2 on a usage error, 3 if the browser cannot start (no usable "
	    "terminal).\n"), fp);
}

/* --version: the version, the licence, where bugs go. */
static void
main_version(void)
{
	printf("%s %s\n", PACKAGE, VERSION);
	printf(_("License %s: <https://spdx.org/licenses/%s.html>\n"),
	    TV_LICENSE, TV_LICENSE);
	fputs(_("You may change and share this program; it comes with no "
	    "warranty,\nto the extent the law allows.\n"), stdout);
	if (PACKAGE_BUGREPORT[0] != '\0')
		printf(_("Report bugs to: %s\n"), PACKAGE_BUGREPORT);
	else
		fputs(_("Report bugs: see BUGS in tview(1) for what to "
		    "include.\n"), stdout);
}

/* Hint printed after a usage error. */
static int
main_usage_error(void)
{
	fprintf(stderr, _("Try '%s --help' for more information.\n"),
	    PACKAGE);
	return EXIT_USAGE;
}

/* Map a --time-format argument to a style; false if unknown. */
static bool
main_time_style(const char *arg, enum tv_time_style *out)
{
	if (strcmp(arg, "utc") == 0)
		*out = TV_TIME_WALL_UTC;
	else if (strcmp(arg, "local") == 0)
		*out = TV_TIME_WALL_LOCAL;
	else if (strcmp(arg, "seconds") == 0)
		*out = TV_TIME_SECONDS;
	else
		return false;
	return true;
}

/* Whether @arg names a kind of latency. */
static bool
main_latency_kind(const char *arg)
{
	enum tv_lat_kind k;

	return tv_lat_kind_parse(arg, &k);
}

/* Parse a column count of --timeline; false if not in range. */
static bool
main_columns(const char *arg, uint32_t *out)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*arg == '\0' || *end != '\0' || v < 1 ||
	    v > TV_TIMELINE_MAX_COLS)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* Free what tv_cli_paths() returned. */
static void
main_paths_free(char **paths, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

/*
 * --follow: how long a trace that cannot be read yet is waited for when
 * no process writes it.  LTTng writes a session's data packets before its
 * metadata (which may stay empty until the metadata buffer fills or the
 * session stops), so a trace being written is waited for as long as a
 * process writes a file under its paths.
 */
#define MAIN_FOLLOW_WAIT_MS	5000
#define MAIN_FOLLOW_STEP_MS	100

/*
 * tv_trace_set_open_live(), tried again every MAIN_FOLLOW_STEP_MS while
 * it fails and the paths exist: MAIN_FOLLOW_WAIT_MS at most, or for as
 * long as a process writes a file under them.  Ctrl-C ends the wait.
 */
static enum tv_status
main_open_live(struct tv_trace_set **set, const char *const *paths,
    size_t npaths, struct tv_error *err)
{
	struct timespec step = { 0, MAIN_FOLLOW_STEP_MS * 1000000L };
	enum tv_status st;
	struct stat sb;
	int64_t until = tv_clock_ms() + MAIN_FOLLOW_WAIT_MS;
	size_t i;

	for (;;) {
		/*
		 * Who writes is asked before the open, not after: a writer
		 * that finishes between a failed open and the question would
		 * otherwise end the wait on what the open saw before it.
		 */
		bool last = false;

		if (tv_clock_ms() >= until) {
			for (i = 0; i < npaths; i++)
				if (tv_files_written_under(paths[i]))
					break;
			last = i == npaths;
		}
		tv_error_clear(err);
		st = tv_trace_set_open_live(set, paths, npaths,
		    tv_format_registry(), err);
		if (st == TV_OK || last)
			return st;
		/* tests: TVIEW_TEST_SLOW_OPEN=MS holds a failed open here */
		tv_test_hold("TVIEW_TEST_SLOW_OPEN");
		for (i = 0; i < npaths; i++)
			if (stat(paths[i], &sb) != 0)
				return st;
		tv_trace_set_close(*set);
		*set = NULL;
		(void)nanosleep(&step, NULL);
	}
}

/* Open the traces and run @mode on them; the process exit status. */
static int
main_run(enum main_mode mode, const struct tv_cli_options *o,
    const char *const *args, size_t nargs)
{
	struct tv_ui_options ui;
	struct tv_trace_set *set = NULL;
	struct tv_error err, perr;
	enum tv_status st, pst;
	struct tv_cli_live *live;
	char **paths;
	size_t npaths, i;
	int status;

	for (i = 0; i < nargs; i++) {
		if (!tv_live_is_url(args[i]))
			continue;
		if (nargs > 1) {
			tv_error_set(&err, TV_UNSUPPORTED, NULL,
			    _("%s: a net:// URL is opened alone"), args[i]);
			tv_cli_error(&err);
			return main_usage_error();
		}
		/* the browser always receives: f can follow at any time */
		status = tv_cli_live_open(args[0], mode != MODE_UI &&
		    !o->follow, mode == MODE_UI || o->follow, &paths,
		    &npaths, &live);
		if (status < 0) {
			struct tv_cli_options lo = *o;

			lo.live = live;
			status = main_run(mode, &lo,
			    (const char *const *)paths, npaths);
		}
		main_paths_free(paths, npaths);
		tv_cli_live_close(live);
		return status;
	}
	tv_error_clear(&perr);
	pst = tv_cli_paths(args, nargs, &paths, &npaths, &perr);
	if (nargs == 0 && pst != TV_OK) {
		tv_cli_error(&perr);
		main_paths_free(paths, npaths);
		return main_usage_error();
	}
	if (npaths == 0) {
		tv_cli_error(&perr);
		main_paths_free(paths, npaths);
		return 1;
	}
	tv_error_clear(&err);
	if (o->follow)
		st = main_open_live(&set, (const char *const *)paths, npaths,
		    &err);
	else
		st = tv_trace_set_open(&set, (const char *const *)paths,
		    npaths, tv_format_registry(), &err);
	main_paths_free(paths, npaths);
	if (pst != TV_OK) {
		/* An argument left out comes first, as it came first. */
		st = pst;
		err = perr;
	}
	if (set == NULL || set->ntraces == 0) {
		if (st == TV_OK)
			tv_error_set(&err, TV_FORMAT, NULL,
			    _("no trace found"));
		tv_cli_error(&err);
		if (set != NULL)
			tv_trace_set_close(set);
		return 1;
	}
	switch (mode) {
	case MODE_DUMP:
		status = o->follow ? tv_cli_dump_follow(set, o) :
		    tv_cli_dump(set, o);
		break;
	case MODE_INFO:
		status = tv_cli_info(set, o);
		break;
	case MODE_PROCESSES:
		status = tv_cli_processes(set, o);
		break;
	case MODE_BOOKMARKS:
		status = tv_cli_bookmarks(set, o);
		break;
	case MODE_COUNT:
		status = tv_cli_count(set, o);
		break;
	case MODE_STATS:
		status = tv_cli_stats(set, o);
		break;
	case MODE_TIMELINE:
		status = tv_cli_timeline(set, o);
		break;
	case MODE_UI:
	default:
		if (st != TV_OK) {
			/* Say what is missing before the screen hides it. */
			tv_cli_error(&err);
			st = TV_OK;
		}
		ui.time_style = o->time_style;
		ui.time_style_given = o->time_style_given;
		ui.initial_goto = o->begin;
		ui.follow = o->follow;
		status = tv_ui_run(set, &ui);
		break;
	}
	if (st != TV_OK) {
		tv_cli_error(&err);
		if (status == 0)
			status = 1;
	}
	/* tests: TVIEW_TEST_SLOW_EXIT=MS holds here, the trace still
	   mapped, so that what stays resident can be read */
	tv_test_hold("TVIEW_TEST_SLOW_EXIT");
	tv_trace_set_close(set);
	return status;
}

int
main(int argc, char **argv)
{
	struct tv_cli_options o = { TV_TIME_WALL_UTC, NULL, NULL, NULL, false,
	    false, NULL, NULL, 80, TV_CLI_FORMAT_TABLE, false, false, false, NULL };
	bool format_given = false;
	enum main_mode mode = MODE_UI;
	int c;

	main_i18n_init();
	/* getopt names the program after argv[0]: "tview:", not its path. */
	if (argc > 0)
		argv[0] = (char *)PACKAGE;
	while ((c = getopt_long(argc, argv, "dib:e:F:hV", main_longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'd':
			mode = MODE_DUMP;
			break;
		case 'i':
			if (optarg != NULL && strcmp(optarg, "counts") != 0) {
				fprintf(stderr, _("%s: unknown --info '%s' "
				    "(use --info or --info=counts)\n"),
				    PACKAGE, optarg);
				return main_usage_error();
			}
			o.info_counts = optarg != NULL;
			mode = MODE_INFO;
			break;
		case 'b':
			o.begin = optarg;
			break;
		case 'e':
			o.end = optarg;
			break;
		case OPT_PROCESSES:
			mode = MODE_PROCESSES;
			break;
		case OPT_AT:
			o.at = optarg;
			break;
		case OPT_WITH_PID:
			o.with_pid = true;
			break;
		case OPT_BOOKMARKS:
			mode = MODE_BOOKMARKS;
			break;
		case OPT_BOOKMARKED:
			o.bookmarked = true;
			break;
		case 'F':
			o.filter = optarg;
			break;
		case OPT_COUNT:
			mode = MODE_COUNT;
			break;
		case OPT_STATS:
			mode = MODE_STATS;
			break;
		case OPT_LATENCY:
			if (strcmp(optarg, "all") != 0 &&
			    !main_latency_kind(optarg)) {
				fprintf(stderr, _("%s: unknown latency '%s' "
				    "(use wakeup, syscall, irq, softirq, "
				    "function or all)\n"), PACKAGE, optarg);
				return main_usage_error();
			}
			o.latency = optarg;
			mode = MODE_STATS;
			break;
		case OPT_TIMELINE:
			if (optarg != NULL && !main_columns(optarg,
			    &o.timeline_cols)) {
				fprintf(stderr, _("%s: --timeline takes a "
				    "number of columns from 1 to %d\n"),
				    PACKAGE, TV_TIMELINE_MAX_COLS);
				return main_usage_error();
			}
			mode = MODE_TIMELINE;
			break;
		case OPT_FORMAT:
			format_given = true;
			if (strcmp(optarg, "tsv") == 0)
				o.format = TV_CLI_FORMAT_TSV;
			else if (strcmp(optarg, "table") == 0)
				o.format = TV_CLI_FORMAT_TABLE;
			else {
				fprintf(stderr, _("%s: unknown format '%s' "
				    "(use table or tsv)\n"), PACKAGE, optarg);
				return main_usage_error();
			}
			break;
		case OPT_FOLLOW:
			o.follow = true;
			break;
		case OPT_TIME_FORMAT:
			o.time_style_given = true;
			if (!main_time_style(optarg, &o.time_style)) {
				fprintf(stderr, _("%s: unknown time format "
				    "'%s' (use utc, local or seconds)\n"),
				    PACKAGE, optarg);
				return main_usage_error();
			}
			break;
		case 'h':
			main_usage(stdout);
			return fflush(stdout) == 0 ? EXIT_SUCCESS : 1;
		case 'V':
			main_version();
			return fflush(stdout) == 0 ? EXIT_SUCCESS : 1;
		default:
			return main_usage_error();
		}
	}
	/* Like git and tig: into a pipe or a file, the text is wanted. */
	if (mode == MODE_UI && !isatty(STDOUT_FILENO))
		mode = MODE_DUMP;
	if (o.end != NULL && mode != MODE_DUMP && mode != MODE_STATS &&
	    mode != MODE_TIMELINE && mode != MODE_COUNT) {
		fprintf(stderr, _("%s: --end only applies to --dump, --stats "
		    "and --timeline\n"),
		    PACKAGE);
		return main_usage_error();
	}
	if (o.filter != NULL && ((mode != MODE_DUMP && mode != MODE_COUNT &&
	    mode != MODE_STATS) || o.latency != NULL)) {
		fprintf(stderr, _("%s: --filter only applies to --dump, --count "
		    "and --stats\n"), PACKAGE);
		return main_usage_error();
	}
	if (o.at != NULL && mode != MODE_PROCESSES) {
		fprintf(stderr, _("%s: --at only applies to --processes\n"),
		    PACKAGE);
		return main_usage_error();
	}
	if (o.with_pid && mode != MODE_DUMP) {
		fprintf(stderr, _("%s: --with-pid only applies to --dump\n"),
		    PACKAGE);
		return main_usage_error();
	}
	if (format_given && mode != MODE_PROCESSES) {
		fprintf(stderr, _("%s: --format only applies to --processes\n"),
		    PACKAGE);
		return main_usage_error();
	}
	if (o.bookmarked && mode != MODE_DUMP && mode != MODE_COUNT) {
		fprintf(stderr, _("%s: --bookmarked only applies to --dump\n"),
		    PACKAGE);
		return main_usage_error();
	}
	if (o.follow && mode != MODE_DUMP && mode != MODE_UI) {
		fprintf(stderr, _("%s: --follow only applies to --dump and "
		    "the browser\n"), PACKAGE);
		return main_usage_error();
	}
	if (o.follow && mode == MODE_DUMP && (o.begin != NULL ||
	    o.end != NULL || o.filter != NULL || o.with_pid ||
	    o.bookmarked)) {
		fprintf(stderr, _("%s: --dump --follow prints every event: "
		    "no --begin, --end, --filter, --with-pid or "
		    "--bookmarked\n"), PACKAGE);
		return main_usage_error();
	}
	return main_run(mode, &o, (const char *const *)(argv + optind),
	    (size_t)(argc - optind));
}
