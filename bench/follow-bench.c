/*
 * follow-bench: what a followed trace costs when it grows.  The first
 * 90% of every stream file of TRACE is copied into SCRATCH and opened as
 * a trace being written; the three whole-trace walks run over it (the
 * state pass, the filter's match pass, the statistics).  Then the last
 * 10% is appended, the set extended, and each walk goes on in place;
 * beside it, the same walk from the start over the grown trace.  The
 * ratio is what going on saves.
 *
 *   follow-bench TRACE SCRATCH
 */
#include "bench.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tview/pass.h"
#include "tview/state.h"
#include "tview/stats.h"

/* Share of each stream file copied first, in tenths. */
#define FIRST_TENTHS	9

/* Bytes [@from, @to) of @src appended to @dst. */
static int
copy_part(const char *src, const char *dst, off_t from, off_t to)
{
	static char buf[1 << 20];
	ssize_t n;
	int in = open(src, O_RDONLY), out;
	int rc = 0;

	out = open(dst, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (in < 0 || out < 0 || lseek(in, from, SEEK_SET) != from)
		rc = -1;
	while (rc == 0 && from < to) {
		n = read(in, buf, (size_t)(to - from < (off_t)sizeof(buf) ?
		    to - from : (off_t)sizeof(buf)));
		if (n <= 0 || write(out, buf, (size_t)n) != n)
			rc = -1;
		from += n;
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return rc;
}

/*
 * Grow SCRATCH's copy of every file of @trace to @tenths of its size
 * (the metadata whole); directories (LTTng's index/) are left out.
 */
static int
grow(const char *trace, const char *scratch, int tenths)
{
	char a[4096], b[4096];
	struct dirent *de;
	struct stat sa, sb;
	DIR *d = opendir(trace);
	off_t want;
	int rc = 0;

	if (d == NULL)
		return -1;
	while (rc == 0 && (de = readdir(d)) != NULL) {
		snprintf(a, sizeof(a), "%s/%s", trace, de->d_name);
		snprintf(b, sizeof(b), "%s/%s", scratch, de->d_name);
		if (stat(a, &sa) != 0 || !S_ISREG(sa.st_mode))
			continue;
		if (stat(b, &sb) != 0)
			sb.st_size = 0;
		want = strcmp(de->d_name, "metadata") == 0 ? sa.st_size :
		    sa.st_size / 10 * tenths;
		if (tenths == 10)
			want = sa.st_size;
		if (want > sb.st_size)
			rc = copy_part(a, b, sb.st_size, want);
	}
	closedir(d);
	return rc;
}

/* The match pass's predicate: a third of the classes, no field read. */
static bool
third(void *arg TV_UNUSED, const struct tv_event *ev,
    const struct tv_event_owner *o TV_UNUSED, struct tv_arena *a TV_UNUSED)
{
	return ev->rec.class_index % 3 == 0;
}

/* Wait for the state pass. */
static void
state_wait(struct tv_state_index *idx)
{
	bool done = false;

	while ((void)tv_state_index_progress(idx, &done), !done)
		usleep(1000);
}

/* Wait for the match pass. */
static void
pass_wait(const struct tv_pass *p)
{
	uint64_t kept, seen;
	bool done = false;

	while ((void)tv_pass_progress(p, &kept, &seen, &done), !done)
		usleep(1000);
}

/* Milliseconds since @t0. */
static double
ms_since(int64_t t0)
{
	return (double)(bench_now_ns() - t0) / 1e6;
}

/* One figure: in place, from the start, the ratio. */
static void
say(const char *what, double in_place, double fresh)
{
	printf("%-22s in place %9.1f ms  from start %9.1f ms  %7.1fx\n",
	    what, in_place, fresh, in_place > 0 ? fresh / in_place : 0);
}

int
main(int argc, char **argv)
{
	struct tv_trace_set *set = NULL;
	struct tv_state_index *idx, *fidx;
	struct tv_stats *st, *fst;
	struct tv_pass *p, *fp;
	struct tv_error err;
	const char *path;
	double state_ms, stats_ms, match_ms, ext_ms;
	uint64_t walked;
	int64_t t0;
	bool grew = false;

	if (argc != 3) {
		fputs("usage: follow-bench TRACE SCRATCH\n", stderr);
		return 2;
	}
	path = argv[2];
	if (mkdir(path, 0755) != 0 || grow(argv[1], path,
	    FIRST_TENTHS) != 0) {
		fprintf(stderr, "follow-bench: cannot copy %s into %s\n",
		    argv[1], path);
		return 1;
	}
	tv_error_clear(&err);
	if (tv_trace_set_open_live(&set, &path, 1, tv_format_registry(),
	    &err) != TV_OK || set == NULL || set->nstreams == 0) {
		fprintf(stderr, "follow-bench: %s\n", err.msg);
		return 1;
	}
	/* the walks over the first 90% */
	idx = tv_state_index_create(set, 0);
	(void)tv_state_index_start(idx, false, NULL);
	state_wait(idx);
	p = tv_pass_start(set, false, third, NULL, 0);
	pass_wait(p);
	st = tv_stats_create(set);
	(void)tv_stats_walk(st, tv_trace_set_settled(set), NULL, NULL);
	/* the rest lands */
	tv_state_index_stop(idx);
	tv_pass_stop(p);
	if (grow(argv[1], path, 10) != 0) {
		fprintf(stderr, "follow-bench: cannot append\n");
		return 1;
	}
	t0 = bench_now_ns();
	(void)tv_trace_set_extend(set, TV_OPEN_FOLLOW, &grew, &err);
	ext_ms = ms_since(t0);
	t0 = bench_now_ns();
	(void)tv_state_index_extend(idx, NULL);
	state_wait(idx);
	state_ms = ms_since(t0);
	t0 = bench_now_ns();
	tv_pass_extend(p);
	pass_wait(p);
	match_ms = ms_since(t0);
	t0 = bench_now_ns();
	(void)tv_stats_walk(st, INT64_MAX, NULL, NULL);
	stats_ms = ms_since(t0);
	walked = tv_stats_walked(st);
	printf("grown from %d0%% to 100%% of every stream: extend %.1f ms, "
	    "%llu records new\n", FIRST_TENTHS, ext_ms,
	    (unsigned long long)walked);
	/* the same walks from the start over the grown trace */
	fidx = tv_state_index_create(set, 0);
	t0 = bench_now_ns();
	(void)tv_state_index_start(fidx, false, NULL);
	state_wait(fidx);
	say("state pass", state_ms, ms_since(t0));
	t0 = bench_now_ns();
	fp = tv_pass_start(set, false, third, NULL, 0);
	pass_wait(fp);
	say("filter match pass", match_ms, ms_since(t0));
	fst = tv_stats_create(set);
	t0 = bench_now_ns();
	(void)tv_stats_walk(fst, INT64_MAX, NULL, NULL);
	say("statistics walk", stats_ms, ms_since(t0));
	tv_stats_destroy(fst);
	tv_pass_destroy(fp);
	tv_state_index_destroy(fidx);
	tv_stats_destroy(st);
	tv_pass_destroy(p);
	tv_state_index_destroy(idx);
	tv_trace_set_close(set);
	return grew ? 0 : 1;
}
