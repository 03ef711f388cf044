/*
 * --processes: the process table at one instant (--at TIME, default the
 * end of the trace), as the process pane shows it, for scripts and tests.
 * The table is data, like --dump: its header and state names are not
 * translated.  With traces of several hosts, a HOST column comes first;
 * MODE, last, is the execution-mode stack, outermost first.  With
 * --format=tsv the same rows are tab-separated, HOST always first.  The
 * state comes from the background pass's checkpoints (cached under
 * $XDG_CACHE_HOME/tview) plus a replay up to TIME.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/state.h"
#include "tview/trace.h"
#include "cli.h"

/* Order of the table: machine, then PID, then TID (unknown PIDs last). */
static int
procs_cmp(const void *pa, const void *pb)
{
	const struct tv_thread *a = *(const struct tv_thread *const *)pa;
	const struct tv_thread *b = *(const struct tv_thread *const *)pb;
	int64_t ka, kb;

	if (a->machine != b->machine)
		return a->machine < b->machine ? -1 : 1;
	ka = a->pid == TV_TID_UNKNOWN ? INT64_MAX : a->pid;
	kb = b->pid == TV_TID_UNKNOWN ? INT64_MAX : b->pid;
	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
}

/* An id column: the number or "-". */
static const char *
procs_id(int64_t v, char *buf, size_t size)
{
	if (v == TV_TID_UNKNOWN)
		return "-";
	snprintf(buf, size, "%lld", (long long)v);
	return buf;
}

/* Print one row; with several machines, the host first. */
static void
procs_row(const struct tv_state *s, const struct tv_thread *t,
    enum tv_time_style style, int64_t ref)
{
	char pid[24], tid[24], ppid[24], cpu[16], st[24], since[64];
	char modes[128];

	snprintf(st, sizeof(st), "%s%s",
	    tv_thread_state_name((enum tv_thread_state)t->state),
	    t->uncertain ? "?" : "");
	if (t->cpu == TV_CPU_UNKNOWN)
		snprintf(cpu, sizeof(cpu), "-");
	else
		snprintf(cpu, sizeof(cpu), "%d", t->cpu);
	if (t->since == TV_TIME_NONE)
		snprintf(since, sizeof(since), "-");
	else
		tv_time_format(t->since, style, ref, since, sizeof(since));
	tv_thread_modes_text(t, false, modes, sizeof(modes));
	if (tv_state_machines(s) > 1)
		printf("%-15s ", tv_state_machine_name(s, t->machine));
	printf("%7s %7s %7s %-15s %-9s %3s %-18s %s\n",
	    procs_id(t->pid, pid, sizeof(pid)),
	    procs_id(t->tid, tid, sizeof(tid)),
	    procs_id(t->ppid, ppid, sizeof(ppid)),
	    t->name[0] != '\0' ? t->name : "-", st, cpu, since, modes);
}

/*
 * A TSV field: tabs, newlines and backslashes escaped (\t \n \\), other
 * control bytes as \xHH, so a task name cannot break a row.
 */
static void
procs_tsv_field(const char *v)
{
	const unsigned char *p;

	if (v == NULL || v[0] == '\0') {
		putchar('-');
		return;
	}
	for (p = (const unsigned char *)v; *p != '\0'; p++) {
		if (*p == '\t')
			fputs("\\t", stdout);
		else if (*p == '\n')
			fputs("\\n", stdout);
		else if (*p == '\\')
			fputs("\\\\", stdout);
		else if (*p < 0x20 || *p == 0x7f)
			printf("\\x%02x", *p);
		else
			putchar(*p);
	}
}

/*
 * Print one row as TSV: always the same columns (HOST first, '-' when
 * unknown), whatever the number of hosts, for scripts.
 */
static void
procs_row_tsv(const struct tv_state *s, const struct tv_thread *t,
    enum tv_time_style style, int64_t ref)
{
	char pid[24], tid[24], ppid[24], since[64], modes[128];

	procs_tsv_field(tv_state_machine_name(s, t->machine));
	printf("\t%s\t%s\t%s\t", procs_id(t->pid, pid, sizeof(pid)),
	    procs_id(t->tid, tid, sizeof(tid)),
	    procs_id(t->ppid, ppid, sizeof(ppid)));
	procs_tsv_field(t->name);
	printf("\t%s%s\t",
	    tv_thread_state_name((enum tv_thread_state)t->state),
	    t->uncertain ? "?" : "");
	if (t->cpu == TV_CPU_UNKNOWN)
		putchar('-');
	else
		printf("%d", t->cpu);
	if (t->since == TV_TIME_NONE)
		snprintf(since, sizeof(since), "-");
	else
		tv_time_format(t->since, style, ref, since, sizeof(since));
	tv_thread_modes_text(t, false, modes, sizeof(modes));
	printf("\t%s\t%s\n", since, modes);
}

/* See cli.h. */
int
tv_cli_processes(struct tv_trace_set *set, const struct tv_cli_options *o)
{
	bool local = o->time_style == TV_TIME_WALL_LOCAL;
	const struct tv_thread *threads, **rows;
	struct tv_state_index *idx;
	struct tv_state *s;
	struct tv_error err;
	int64_t at = set->ts_end;
	size_t n, i;
	int status = 0;

	tv_error_clear(&err);
	if (o->at != NULL &&
	    tv_cli_parse_time(set, o->at, local, &at, &err) != TV_OK) {
		tv_cli_error(&err);
		return 2;
	}
	idx = tv_state_index_create(set, 0);
	tv_state_index_set_sequential(idx);	/* RSS near the heap */
	s = tv_state_create(set);
	if (tv_state_index_run(idx, true, &err) != TV_OK ||
	    tv_state_at(idx, at, s, &err) != TV_OK) {
		tv_cli_error(&err);
		status = 1;
	}
	threads = tv_state_threads(s, &n);
	rows = tv_xcalloc(TV_MAX(n, (size_t)1), sizeof(*rows));
	for (i = 0; i < n; i++)
		rows[i] = &threads[i];
	qsort(rows, n, sizeof(*rows), procs_cmp);
	if (o->format == TV_CLI_FORMAT_TSV) {
		printf("HOST\tPID\tTID\tPPID\tNAME\tSTATE\tCPU\tSINCE\t"
		    "MODE\n");
		for (i = 0; i < n; i++)
			procs_row_tsv(s, rows[i], o->time_style,
			    set->ts_begin);
	} else {
		if (tv_state_machines(s) > 1)
			printf("%-15s ", "HOST");
		printf("%7s %7s %7s %-15s %-9s %3s %-18s %s\n", "PID", "TID",
		    "PPID", "NAME", "STATE", "CPU", "SINCE", "MODE");
		for (i = 0; i < n; i++)
			procs_row(s, rows[i], o->time_style, set->ts_begin);
	}
	free(rows);
	tv_state_destroy(s);
	tv_state_index_destroy(idx);
	if (fflush(stdout) != 0 && status == 0) {
		tv_error_set(&err, TV_IO, NULL, _("cannot write the output"));
		tv_cli_error(&err);
		status = 1;
	}
	return status;
}
