/*
 * Reads of mapped files that survive the file changing underneath: a
 * SIGBUS taken inside a guard (tview/mapfile.h) jumps back to the guard,
 * which turns it into an error value worded after a fresh stat of the
 * file (truncated, replaced, deleted).
 *
 * The only mutable globals outside src/ui are here, because a signal
 * handler can reach nothing else: the innermost guard of each thread
 * (thread-local, so worker threads decoding beside the UI each catch
 * their own faults) and the action that was installed before ours,
 * written once under pthread_once before any guard exists.
 */
#include "tview/mapfile.h"
#include "tview/util.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static __thread struct tv_map_guard *guard_top;
static struct sigaction guard_prev;
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;

/* SIGBUS: back to the innermost guard, else to whoever handled it before. */
static void
guard_handler(int sig, siginfo_t *si, void *ctx)
{
	struct tv_map_guard *g = guard_top;

	/*
	 * Only a fault (si_code > 0) means the guarded read failed; a
	 * SIGBUS sent with kill() (SI_USER, SI_QUEUE, SI_TKILL: <= 0) must
	 * not abandon a driver call half-way.
	 */
	if (g != NULL && si != NULL && si->si_code > 0) {
		g->addr = si->si_addr;
		guard_top = g->prev;
		siglongjmp(g->jb, 1);
	}
	if ((guard_prev.sa_flags & SA_SIGINFO) &&
	    guard_prev.sa_sigaction != NULL) {
		guard_prev.sa_sigaction(sig, si, ctx);
		return;
	}
	if (!(guard_prev.sa_flags & SA_SIGINFO) &&
	    guard_prev.sa_handler != SIG_DFL &&
	    guard_prev.sa_handler != SIG_IGN) {
		guard_prev.sa_handler(sig);
		return;
	}
	/* the faulting read runs again and the default action kills */
	signal(sig, SIG_DFL);
}

/*
 * SA_NODEFER: the jump leaves the handler without restoring the signal
 * mask (sigsetjmp(jb, 0) saves none, which keeps guards free of system
 * calls on the hot path), so SIGBUS must not be blocked inside it.
 */
static void
guard_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = guard_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGBUS, &sa, &guard_prev);
}

/* Make sure the handler is in place; called when a file is mapped. */
void
tv_map_guard_init(void)
{
	(void)pthread_once(&guard_once, guard_install);
}

/* Push @g: faults from here on jump to it. */
void
tv_map_guard_enter(struct tv_map_guard *g)
{
	g->addr = NULL;
	g->prev = guard_top;
	guard_top = g;
}

/* Pop @g (already popped if it caught a fault). */
void
tv_map_guard_leave(struct tv_map_guard *g)
{
	guard_top = g->prev;
}

/* Whether @addr falls inside @mf's mapping. */
bool
tv_mapfile_contains(const struct tv_mapfile *mf, const void *addr)
{
	const uint8_t *a = addr;

	return mf->data != NULL && a >= mf->data && a < mf->data + mf->size;
}

/* A size for people: "512 bytes", "1.2 MiB". */
static void
human_size(uint64_t n, char *buf, size_t size)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)n;
	int u = -1;

	if (n < 1024) {
		snprintf(buf, size, _("%llu bytes"), (unsigned long long)n);
		return;
	}
	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, "%.1f %s", v, units[u]);
}

/* Whether @mf's file is no longer what was mapped: shorter or another. */
bool
tv_mapfile_changed(const struct tv_mapfile *mf)
{
	struct stat st;

	if (mf->path == NULL)
		return false;
	if (stat(mf->path, &st) < 0)
		return true;
	return st.st_dev != mf->dev || st.st_ino != mf->ino ||
	    (uint64_t)st.st_size < mf->size;
}

/* The error for a fault at @addr in @mf, worded from a fresh stat. */
enum tv_status
tv_mapfile_fault(const struct tv_mapfile *mf, const void *addr,
    struct tv_error *err)
{
	uint64_t off = TV_NO_OFFSET;
	char left[32], total[32];
	struct stat st;

	if (tv_mapfile_contains(mf, addr))
		off = (uint64_t)((const uint8_t *)addr - mf->data);
	if (stat(mf->path, &st) < 0)
		return tv_error_at(err, TV_IO, mf->path, off,
		    _("was deleted while open"));
	if (st.st_dev != mf->dev || st.st_ino != mf->ino)
		return tv_error_at(err, TV_IO, mf->path, off,
		    _("was replaced by another file while open"));
	human_size(mf->size, total, sizeof(total));
	if ((uint64_t)st.st_size < mf->size) {
		human_size((uint64_t)st.st_size, left, sizeof(left));
		return tv_error_at(err, TV_IO, mf->path, off,
		    _("was truncated while open: %s left of %s"), left, total);
	}
	return tv_error_at(err, TV_IO, mf->path, off,
	    _("was truncated and rewritten while open (%s when opened)"),
	    total);
}
