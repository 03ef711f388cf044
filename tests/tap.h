/*
 * A tiny TAP producer for the unit tests: "ok N - desc" / "not ok N -
 * desc", diagnostics as "# ..." lines, and the plan "1..N".
 */
#ifndef TVIEW_TESTS_TAP_H
#define TVIEW_TESTS_TAP_H

#include <stdbool.h>
#include <stdint.h>

/** tv_plan() - announce @n tests; 0 means the plan comes at tv_done(). */
void	tv_plan(int n);
bool	tv_ok(const char *file, int line, bool cond, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));
bool	tv_is_int(const char *file, int line, int64_t got, int64_t want,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
bool	tv_is_str(const char *file, int line, const char *got,
	    const char *want, const char *fmt, ...)
	    __attribute__((format(printf, 5, 6)));
void	tv_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** tv_skip() - one skipped test: "ok N # SKIP why". */
void	tv_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** tv_done() - print the plan if it was deferred; the exit status. */
int	tv_done(void);
/**
 * tv_gen_ctf() - run $top_builddir/gen-ctf --quiet @args into @dir (made
 * anew); whether it succeeded.
 */
bool	tv_gen_ctf(const char *dir, const char *args);

#define ok(cond, ...)		tv_ok(__FILE__, __LINE__, (cond), \
				    __VA_ARGS__)
#define is_int(g, w, ...)	tv_is_int(__FILE__, __LINE__, (g), (w), \
				    __VA_ARGS__)
#define is_str(g, w, ...)	tv_is_str(__FILE__, __LINE__, (g), (w), \
				    __VA_ARGS__)
#define diag(...)		tv_diag(__VA_ARGS__)

#endif /* TVIEW_TESTS_TAP_H */
