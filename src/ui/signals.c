/*
 * Fatal signals in the browser: whatever kills tview (a fault, SIGTERM,
 * SIGHUP, SIGINT sent by kill, an abort) first puts the terminal back in
 * its normal mode, says so on stderr, then dies of the same signal so the
 * exit status tells which.  A SIGBUS inside a mapping guard is not fatal:
 * the guard's handler (src/util/mapguard.c), installed before ours, gets
 * it first and jumps back to the reader.
 *
 * The handler calls nothing that is unsafe in a signal handler: endwin()
 * may allocate and would deadlock if the fault hit inside malloc.  So the
 * bytes that undo curses (attributes off, mouse reports off, keypad off,
 * cursor on, the main screen back) and the terminal modes curses found
 * are read when the handlers go in, and the handler only write()s the one
 * and tcsetattr()s the other.
 *
 * The saved state is global: a signal handler reaches nothing else.
 */
#include "ui-priv.h"

#include <signal.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

static const int fatal_sigs[] = {
	SIGSEGV, SIGBUS, SIGABRT, SIGTERM, SIGINT, SIGHUP, SIGFPE, SIGILL,
};
/* Their names, in the same order: strsignal() may allocate. */
static const char *const fatal_names[] = {
	"SIGSEGV", "SIGBUS", "SIGABRT", "SIGTERM", "SIGINT", "SIGHUP",
	"SIGFPE", "SIGILL",
};
#define NFATAL	(sizeof(fatal_sigs) / sizeof(fatal_sigs[0]))

static struct sigaction fatal_prev[NFATAL];
static const char *fatal_msg;		/* translated when installed */
static volatile sig_atomic_t fatal_taken;
static char alt_stack[64 * 1024];	/* a stack overflow's SIGSEGV */
static bool installed;
static char reset_seq[256];		/* what endwin() would send */
static size_t reset_len;
static struct termios tty_modes;	/* the modes before curses */
static bool have_tty_modes;

/* Curses off, a line on stderr, then the default action of @sig. */
static void
fatal_handler(int sig, siginfo_t *si, void *ctx)
{
	size_t i;

	for (i = 0; i < NFATAL; i++)
		if (fatal_sigs[i] == sig)
			break;
	/*
	 * a guarded read of a changed file: the guard jumps back.  Only
	 * SIGBUS is passed on: another handler found (a sanitizer's) would
	 * end the process with the terminal still raw.
	 */
	if (sig == SIGBUS && i < NFATAL &&
	    (fatal_prev[i].sa_flags & SA_SIGINFO) &&
	    fatal_prev[i].sa_sigaction != NULL)
		fatal_prev[i].sa_sigaction(sig, si, ctx);
	if (!fatal_taken) {
		fatal_taken = 1;
		(void)!write(STDOUT_FILENO, reset_seq, reset_len);
		if (have_tty_modes)
			(void)tcsetattr(STDIN_FILENO, TCSANOW, &tty_modes);
		if (fatal_msg != NULL) {
			const char *name = i < NFATAL ? fatal_names[i] : "?";

			(void)!write(2, fatal_msg, strlen(fatal_msg));
			(void)!write(2, name, strlen(name));
			(void)!write(2, "\n", 1);
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Append terminfo capability @cap to the reset bytes, when it fits. */
static void
reset_add(const char *cap)
{
	const char *v = tigetstr(cap);
	size_t n;

	if (v == NULL || v == (const char *)-1)
		return;
	n = strlen(v);
	if (n < sizeof(reset_seq) - reset_len) {
		memcpy(reset_seq + reset_len, v, n);
		reset_len += n;
	}
}

/*
 * The bytes and modes the handler restores.  Mouse reports go off by the
 * xterm private modes ncurses turns on for a terminal with kmous.
 */
static void
reset_prepare(void)
{
	static const char mouse_off[] =
	    "\033[?1006l\033[?1003l\033[?1002l\033[?1000l";
	const char *kmous = tigetstr("kmous");

	reset_len = 0;
	reset_add("sgr0");
	if (kmous != NULL && kmous != (const char *)-1 &&
	    sizeof(mouse_off) - 1 < sizeof(reset_seq) - reset_len) {
		memcpy(reset_seq + reset_len, mouse_off, sizeof(mouse_off) - 1);
		reset_len += sizeof(mouse_off) - 1;
	}
	reset_add("rmkx");
	reset_add("cnorm");
	reset_add("rmcup");
}

/* The terminal's modes before curses touches them (before newterm()). */
void
tv_ui_signals_save_tty(void)
{
	have_tty_modes = tcgetattr(STDIN_FILENO, &tty_modes) == 0;
}

/* Install the handlers; called once curses is on. */
void
tv_ui_signals_install(void)
{
	struct sigaction sa;
	stack_t ss;
	size_t i;

	tv_map_guard_init();	/* first: ours passes SIGBUS on to it */
	reset_prepare();
	fatal_msg = _("tview: terminal restored after a fatal signal: ");
	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = alt_stack;
	ss.ss_size = sizeof(alt_stack);
	(void)sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fatal_handler;
	/* SA_NODEFER: the guard may jump out of the chain (mapguard.c) */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NFATAL; i++)
		(void)sigaction(fatal_sigs[i], &sa, &fatal_prev[i]);
	installed = true;
}

/* Put back the actions found at install, before curses goes off. */
void
tv_ui_signals_restore(void)
{
	size_t i;

	if (!installed)
		return;
	for (i = 0; i < NFATAL; i++)
		(void)sigaction(fatal_sigs[i], &fatal_prev[i], NULL);
	installed = false;
}
