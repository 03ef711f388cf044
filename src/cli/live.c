/*
 * net:// arguments on the command line: list a relay daemon's sessions,
 * or mirror one session into a temporary directory (live.h) that the
 * batch modes and the browser then open as a local trace, and remove the
 * mirror afterwards.
 *
 * Without --follow a batch mode reads until the session is destroyed (as
 * babeltrace2's lttng-live source does) and the browser opens what the
 * relay holds once it has sent all of it.  Ctrl-C while waiting stops the
 * wait, not tview: what arrived is still shown.  SIGINT and SIGTERM are
 * blocked while waiting and looked for between rounds, which needs no
 * handler and no global flag.
 */
#include "tview/tview.h"

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/live.h"
#include "tview/util.h"
#include "cli.h"

/* How long a round that brought nothing waits before the next. */
#define LIVE_IDLE_MS	100

/* nftw callback: remove one entry of the mirror (depth first). */
static int
live_rm(const char *path, const struct stat *sb TV_UNUSED, int flag,
    struct FTW *ftw TV_UNUSED)
{
	if (flag == FTW_DP)
		(void)rmdir(path);
	else
		(void)unlink(path);
	return 0;
}

/* See cli.h. */
void
tv_cli_live_cleanup(char *mirror)
{
	if (mirror)
		(void)nftw(mirror, live_rm, 16, FTW_DEPTH | FTW_PHYS);
	free(mirror);
}

/* Was SIGINT or SIGTERM sent (they are blocked)?  Takes it if so. */
static bool
live_interrupted(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t pend, want;

	sigemptyset(&want);
	sigaddset(&want, SIGINT);
	sigaddset(&want, SIGTERM);
	if (sigpending(&pend) != 0 || (!sigismember(&pend, SIGINT) &&
	    !sigismember(&pend, SIGTERM)))
		return false;
	(void)sigtimedwait(&want, NULL, &zero);
	return true;
}

/* The mirroring loop: rounds until @until_end is met or Ctrl-C. */
static enum tv_status
live_wait(struct tv_live *lv, bool until_end, struct tv_error *err)
{
	struct timespec nap = { 0, LIVE_IDLE_MS * 1000000L };
	bool grew, ended, said = false;
	enum tv_status st;
	size_t ntraces;

	for (;;) {
		if ((st = tv_live_poll(lv, &grew, &ended, err)) != TV_OK)
			return st;
		(void)tv_live_traces(lv, &ntraces);
		if (ended)
			return TV_OK;
		if (!grew && !until_end && ntraces > 0)
			return TV_OK;
		if (live_interrupted())
			return TV_OK;
		if (!grew && !said && isatty(STDERR_FILENO)) {
			fputs(until_end ? _("tview: reading the live session "
			    "until it is destroyed (Ctrl-C stops)\n") :
			    _("tview: waiting for the live session's first "
			    "packet (Ctrl-C stops)\n"), stderr);
			said = true;
		}
		if (!grew)
			(void)nanosleep(&nap, NULL);
	}
}

/* See cli.h. */
int
tv_cli_live(const char *url, bool until_end, char ***paths, size_t *npaths,
    char **mirror)
{
	struct tv_live_url u;
	struct tv_live *lv = NULL;
	struct tv_error err;
	const char *const *traces;
	const char *tmp = getenv("TMPDIR");
	sigset_t block, old;
	enum tv_status st;
	size_t n, i;
	char *dir;

	*paths = NULL;
	*npaths = 0;
	*mirror = NULL;
	tv_error_clear(&err);
	if (tv_live_parse_url(url, &u, &err) != TV_OK) {
		tv_cli_error(&err);
		return 2;
	}
	if (u.session[0] == '\0') {
		st = tv_live_list(&u, stdout, &err);
		if (st != TV_OK)
			tv_cli_error(&err);
		return st == TV_OK ? 0 : 1;
	}
	(void)tv_xasprintf(&dir, "%s/tview-live-XXXXXX",
	    tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		tv_error_set(&err, TV_IO, NULL, "%s: %s", dir,
		    strerror(errno));
		tv_cli_error(&err);
		free(dir);
		return 1;
	}
	*mirror = dir;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	(void)sigprocmask(SIG_BLOCK, &block, &old);
	st = tv_live_attach(&u, dir, &lv, &err);
	if (st == TV_OK)
		st = live_wait(lv, until_end, &err);
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	if (st != TV_OK) {
		/* what arrived before the error is still shown */
		tv_cli_error(&err);
	}
	if (lv) {
		traces = tv_live_traces(lv, &n);
		*paths = tv_xcalloc(n + 1, sizeof(**paths));
		for (i = 0; i < n; i++)
			(*paths)[i] = tv_xstrdup(traces[i]);
		*npaths = n;
		tv_live_close(lv);
	}
	if (*npaths == 0) {
		if (st == TV_OK) {
			tv_error_set(&err, TV_NOT_FOUND, NULL,
			    _("%s: the session sent no trace"), url);
			tv_cli_error(&err);
		}
		return 1;
	}
	return -1;
}
