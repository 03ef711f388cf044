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
 *
 * With --follow the first wait ends once the relay has sent what it
 * holds, and a thread goes on receiving into the mirror while --follow
 * reads it as it reads any growing trace; tv_cli_live_done() tells when
 * nothing more will come.  The thread blocks SIGINT and SIGTERM so that
 * they reach the thread that follows.
 */
#include "tview/tview.h"

#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdatomic.h>
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

/* A session being mirrored (cli.h). */
struct tv_cli_live {
	struct tv_live	*lv;		/* owned; NULL once the thread ended */
	char		*mirror;	/* owned: the directory */
	pthread_t	 thread;
	bool		 threaded;
	atomic_bool	 stop;		/* asked to stop */
	atomic_bool	 done;		/* nothing more will come */
	enum tv_status	 st;		/* the thread's, read after joining */
	struct tv_error	 err;
};

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

/* Remove and free the mirror directory @mirror. */
static void
live_cleanup(char *mirror)
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

/* The receiving thread of --follow: rounds until the end or a stop. */
static void *
live_thread(void *arg)
{
	struct tv_cli_live *l = arg;
	struct timespec nap = { 0, LIVE_IDLE_MS * 1000000L };
	bool grew, ended = false;
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	(void)pthread_sigmask(SIG_BLOCK, &block, NULL);
	while (!ended && !atomic_load(&l->stop)) {
		l->st = tv_live_poll(l->lv, &grew, &ended, &l->err);
		if (l->st != TV_OK)
			break;
		if (!grew && !ended)
			(void)nanosleep(&nap, NULL);
	}
	/* the mirror files are closed before done is seen */
	tv_live_close(l->lv);
	l->lv = NULL;
	atomic_store(&l->done, true);
	return NULL;
}

/* See cli.h. */
int
tv_cli_live_open(const char *url, bool until_end, bool follow,
    char ***paths, size_t *npaths, struct tv_cli_live **out)
{
	struct tv_live_url u;
	struct tv_cli_live *l;
	struct tv_error err;
	const char *const *traces;
	const char *tmp = getenv("TMPDIR");
	sigset_t block, old;
	enum tv_status st;
	size_t n, i;

	*paths = NULL;
	*npaths = 0;
	*out = NULL;
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
	l = tv_xcalloc(1, sizeof(*l));
	atomic_init(&l->stop, false);
	atomic_init(&l->done, true);
	*out = l;
	(void)tv_xasprintf(&l->mirror, "%s/tview-live-XXXXXX",
	    tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(l->mirror)) {
		tv_error_set(&err, TV_IO, NULL, "%s: %s", l->mirror,
		    strerror(errno));
		tv_cli_error(&err);
		free(l->mirror);
		l->mirror = NULL;
		return 1;
	}
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	(void)sigprocmask(SIG_BLOCK, &block, &old);
	st = tv_live_attach(&u, l->mirror, &l->lv, &err);
	if (st == TV_OK)
		st = live_wait(l->lv, until_end && !follow, &err);
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	if (st != TV_OK) {
		/* what arrived before the error is still shown */
		tv_cli_error(&err);
	}
	if (l->lv) {
		traces = tv_live_traces(l->lv, &n);
		*paths = tv_xcalloc(n + 1, sizeof(**paths));
		for (i = 0; i < n; i++)
			(*paths)[i] = tv_xstrdup(traces[i]);
		*npaths = n;
	}
	if (*npaths == 0) {
		if (st == TV_OK) {
			tv_error_set(&err, TV_NOT_FOUND, NULL,
			    _("%s: the session sent no trace"), url);
			tv_cli_error(&err);
		}
		return 1;
	}
	if (follow && st == TV_OK) {
		atomic_store(&l->done, false);
		if (pthread_create(&l->thread, NULL, live_thread, l) == 0)
			l->threaded = true;
		else
			atomic_store(&l->done, true);
	}
	if (!l->threaded) {
		tv_live_close(l->lv);
		l->lv = NULL;
	}
	return -1;
}

/* See cli.h. */
bool
tv_cli_live_done(const struct tv_cli_live *l)
{
	return atomic_load(&l->done);
}

/* See cli.h. */
void
tv_cli_live_close(struct tv_cli_live *l)
{
	if (!l)
		return;
	atomic_store(&l->stop, true);
	if (l->threaded) {
		pthread_join(l->thread, NULL);
		if (l->st != TV_OK)
			tv_cli_error(&l->err);
	}
	tv_live_close(l->lv);
	live_cleanup(l->mirror);
	free(l);
}
