/*
 * --stats and --latency: the figures of one statistics walk (stats.h)
 * printed as tables for people and scripts.  Like --processes, the tables
 * are data: headers and names are not translated, durations are seconds
 * (CPU time) or microseconds (latencies) with every nanosecond digit, so
 * a test can compare them exactly with a ground truth.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/filter.h"
#include "tview/i18n.h"
#include "tview/stats.h"
#include "tview/trace.h"
#include "cli.h"

/* Seconds with nine decimals. */
static const char *
stats_sec(int64_t ns, char *buf, size_t size)
{
	snprintf(buf, size, "%s%lld.%09lld", ns < 0 ? "-" : "",
	    (long long)(ns < 0 ? -ns : ns) / 1000000000LL,
	    (long long)(ns < 0 ? -ns : ns) % 1000000000LL);
	return buf;
}

/* Microseconds with three decimals. */
static const char *
stats_us(int64_t ns, char *buf, size_t size)
{
	snprintf(buf, size, "%s%lld.%03lld", ns < 0 ? "-" : "",
	    (long long)(ns < 0 ? -ns : ns) / 1000LL,
	    (long long)(ns < 0 ? -ns : ns) % 1000LL);
	return buf;
}

/* The per-mode columns of a row: user, syscall, irq, softirq, trap, other. */
static void
stats_modes(const struct tv_time_row *r)
{
	static const enum tv_exec_mode order[] = {
		TV_MODE_USER, TV_MODE_SYSCALL, TV_MODE_IRQ, TV_MODE_SOFTIRQ,
		TV_MODE_TRAP, TV_MODE_UNKNOWN,
	};
	char b[32];
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(order); i++)
		printf(" %14s", stats_sec(r->ns[order[i]], b, sizeof(b)));
	putchar('\n');
}

/* --stats. */
static void
stats_print(const struct tv_stats *st, const struct tv_trace_set *set,
    const struct tv_cli_options *o)
{
	const struct tv_class_count *cls;
	const struct tv_time_row *rows;
	char b1[32], b2[32], b3[32], b4[64];
	uint64_t events, lost;
	int64_t begin, end;
	size_t n, i;

	tv_stats_totals(st, &events, &lost, &begin, &end);
	printf("events %llu\nlost %llu\n", (unsigned long long)events,
	    (unsigned long long)lost);
	if (o->filter != NULL)
		printf("filter %s\n", o->filter);
	if (begin != TV_TIME_NONE)
		printf("begin %s\n", tv_time_format(begin, o->time_style,
		    set->ts_begin, b4, sizeof(b4)));
	if (end != TV_TIME_NONE)
		printf("end %s\n", tv_time_format(end, o->time_style,
		    set->ts_begin, b4, sizeof(b4)));

	printf("\n%10s  %s\n", "EVENTS", "CLASS");
	cls = tv_stats_classes(st, &n);
	for (i = 0; i < n; i++)
		printf("%10llu  %s\n", (unsigned long long)cls[i].count,
		    cls[i].name);

	printf("\n%5s %10s %14s %14s %14s %14s %14s %14s %14s %14s %14s\n",
	    "CPU", "EVENTS", "BUSY", "IDLE", "UNKNOWN", "USER", "SYSCALL",
	    "IRQ", "SOFTIRQ", "TRAP", "OTHER");
	rows = tv_stats_cpus(st, &n);
	for (i = 0; i < n; i++) {
		printf("%5d %10llu %14s %14s %14s", rows[i].cpu,
		    (unsigned long long)rows[i].events,
		    stats_sec(tv_time_row_running(&rows[i]), b1, sizeof(b1)),
		    stats_sec(rows[i].idle_ns, b2, sizeof(b2)),
		    stats_sec(rows[i].unknown_ns, b3, sizeof(b3)));
		stats_modes(&rows[i]);
	}

	printf("\n%7s %7s %-16s %4s %10s %14s %14s %14s %14s %14s %14s "
	    "%14s\n", "TID", "PID", "NAME", "CPU", "EVENTS", "RUNNING", "USER",
	    "SYSCALL", "IRQ", "SOFTIRQ", "TRAP", "OTHER");
	rows = tv_stats_threads(st, &n);
	for (i = 0; i < n; i++) {
		char pid[24], cpu[16];

		if (rows[i].pid == TV_TID_UNKNOWN)
			snprintf(pid, sizeof(pid), "-");
		else
			snprintf(pid, sizeof(pid), "%lld",
			    (long long)rows[i].pid);
		if (rows[i].cpu == TV_CPU_UNKNOWN)
			snprintf(cpu, sizeof(cpu), "-");
		else
			snprintf(cpu, sizeof(cpu), "%d", rows[i].cpu);
		printf("%7lld %7s %-16s %4s %10llu %14s",
		    (long long)rows[i].tid, pid,
		    rows[i].name[0] != '\0' ? rows[i].name : "-", cpu,
		    (unsigned long long)rows[i].events,
		    stats_sec(tv_time_row_running(&rows[i]), b1, sizeof(b1)));
		stats_modes(&rows[i]);
	}
}

/* One latency kind: the summary of each series, then the longest. */
static void
stats_latency_print(const struct tv_stats *st, enum tv_lat_kind kind,
    const struct tv_trace_set *set, const struct tv_cli_options *o)
{
	const struct tv_lat_series *s;
	const struct tv_lat_instance *in;
	char b[6][32], when[64];
	size_t n, i;
	uint32_t k;

	s = tv_stats_latency(st, kind, &n);
	printf("%-24s %10s %14s %14s %14s %14s %14s\n", "LATENCY (us)",
	    "COUNT", "MIN", "MEAN", "P50", "P99", "MAX");
	for (i = 0; i < n; i++) {
		printf("%-24s %10llu %14s %14s %14s %14s %14s%s\n",
		    i == 0 ? tv_lat_kind_name(kind) : s[i].name,
		    (unsigned long long)s[i].count,
		    stats_us(s[i].min, b[0], sizeof(b[0])),
		    stats_us(s[i].count ? s[i].total /
		    (int64_t)s[i].count : 0, b[1], sizeof(b[1])),
		    stats_us(s[i].p50, b[2], sizeof(b[2])),
		    stats_us(s[i].p99, b[3], sizeof(b[3])),
		    stats_us(s[i].max, b[4], sizeof(b[4])),
		    s[i].exact ? "" : " ~");
	}
	if (n == 0 || s[0].ntop == 0)
		return;
	printf("\n%-32s %14s %7s %4s\n", "LONGEST (start)", "DURATION",
	    "TID", "CPU");
	for (k = 0; k < s[0].ntop; k++) {
		in = &s[0].top[k];
		printf("%-32s %14s %7lld %4d\n", tv_time_format(in->ts,
		    o->time_style, set->ts_begin, when, sizeof(when)),
		    stats_us(in->dur, b[5], sizeof(b[5])), (long long)in->tid,
		    in->cpu);
	}
}

/* --filter: what --dump --filter prints (stack traces after a match). */
struct stats_filter {
	struct tv_filter	*f;
	struct tv_filter_follow	*follow;
};

/* The statistics' keep predicate (tv_stats_set_keep) for --filter. */
static bool
stats_keep(void *arg, const struct tv_event *ev,
    const struct tv_event_owner *owner, struct tv_arena *arena)
{
	struct stats_filter *sf = arg;
	bool hit = false;

	if (tv_filter_verdict(sf->f, ev) != TV_FILTER_NEVER)
		hit = tv_filter_match(sf->f, ev, owner, arena);
	return tv_filter_follow(sf->follow, ev, hit);
}

/* See cli.h. */
int
tv_cli_stats(struct tv_trace_set *set, const struct tv_cli_options *o)
{
	bool local = o->time_style == TV_TIME_WALL_LOCAL;
	int64_t begin = TV_TIME_NONE, end = TV_TIME_NONE;
	struct stats_filter sf = { NULL, NULL };
	struct tv_stats *st;
	struct tv_error err;
	enum tv_lat_kind k;
	int status = 0;

	tv_error_clear(&err);
	if ((o->begin != NULL &&
	    tv_cli_parse_time(set, o->begin, local, &begin, &err) != TV_OK) ||
	    (o->end != NULL &&
	    tv_cli_parse_time(set, o->end, local, &end, &err) != TV_OK)) {
		tv_cli_error(&err);
		return 2;
	}
	if ((status = tv_cli_filter(set, o, &sf.f)) != 0)
		return status;
	st = tv_stats_create(set);
	tv_stats_set_sequential(st);	/* RSS near the heap */
	if (sf.f != NULL) {
		sf.follow = tv_filter_follow_create(set);
		tv_stats_set_keep(st, stats_keep, &sf);
	}
	if (tv_stats_run(st, begin, end, NULL, &err) != TV_OK) {
		tv_cli_error(&err);
		status = 1;
	}
	if (o->latency == NULL) {
		stats_print(st, set, o);
	} else {
		for (k = 0; k < TV_LAT_COUNT; k++) {
			if (strcmp(o->latency, "all") != 0 &&
			    strcmp(o->latency, tv_lat_kind_name(k)) != 0)
				continue;
			/* a trace without function spans: no empty table */
			if (strcmp(o->latency, "all") == 0 &&
			    !tv_stats_has_latency(st, k))
				continue;
			if (strcmp(o->latency, "all") == 0 && k > 0)
				putchar('\n');
			stats_latency_print(st, k, set, o);
		}
	}
	tv_stats_destroy(st);
	tv_filter_follow_destroy(sf.follow);
	tv_filter_destroy(sf.f);
	if (fflush(stdout) != 0 && status == 0) {
		tv_error_set(&err, TV_IO, NULL, _("cannot write the output"));
		tv_cli_error(&err);
		status = 1;
	}
	return status;
}
