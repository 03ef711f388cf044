/*
 * Process state reconstruction: the rule table, attribution and final
 * state on gen-ctf traces against the simulator's ground truth (--truth),
 * checkpoints + replay equal to a full replay, the cache file (reuse,
 * stale, corrupt), lost events, and invariants on real LTTng kernel
 * traces from $TVIEW_SHARED (skipped when absent).
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "tview/format.h"
#include "tview/merge.h"
#include "tview/state.h"
#include "tview/timeline.h"
#include "tview/trace.h"
#include "../../src/core/state-priv.h"
#include "../state-eq.h"
#include "../tap.h"

/* One "E ts cpu tid pid" line of the ground truth. */
struct truth_ev {
	uint64_t	 ts;
	uint32_t	 cpu;
	int32_t		 tid;
	int32_t		 pid;
};

/* One "T tid pid ppid state comm" line. */
struct truth_task {
	int32_t		 tid;
	int32_t		 pid;
	int32_t		 ppid;
	char		 state[16];
	char		 comm[32];
};

struct truth {
	struct truth_ev		*evs;
	size_t			 nevs;
	size_t			 evs_cap;
	struct truth_task	*tasks;
	size_t			 ntasks;
	size_t			 tasks_cap;
};

static char test_dir[256];

/* Order of truth events: (cpu, ts), unique in a gen-ctf trace. */
static int
truth_cmp(const void *pa, const void *pb)
{
	const struct truth_ev *a = pa, *b = pb;

	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

/* Read a --truth file. */
static bool
truth_load(const char *path, struct truth *t)
{
	char line[256];
	FILE *fp = fopen(path, "r");
	struct truth_ev *e;
	struct truth_task *k;
	unsigned long long ts;

	memset(t, 0, sizeof(*t));
	if (fp == NULL)
		return false;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (line[0] == 'E') {
			TV_VEC_GROW(t->evs, t->nevs, t->evs_cap);
			e = &t->evs[t->nevs];
			if (sscanf(line, "E %llu %u %d %d", &ts, &e->cpu,
			    &e->tid, &e->pid) == 4) {
				e->ts = ts;
				t->nevs++;
			}
		} else if (line[0] == 'T') {
			TV_VEC_GROW(t->tasks, t->ntasks, t->tasks_cap);
			k = &t->tasks[t->ntasks];
			memset(k, 0, sizeof(*k));
			if (sscanf(line, "T %d %d %d %15s %31[^\n]", &k->tid,
			    &k->pid, &k->ppid, k->state, k->comm) == 5)
				t->ntasks++;
		}
	}
	fclose(fp);
	qsort(t->evs, t->nevs, sizeof(*t->evs), truth_cmp);
	return true;
}

/* The truth of the event on @cpu at @ts, or NULL. */
static const struct truth_ev *
truth_find(const struct truth *t, uint32_t cpu, uint64_t ts)
{
	struct truth_ev key = { ts, cpu, 0, 0 };

	return bsearch(&key, t->evs, t->nevs, sizeof(*t->evs), truth_cmp);
}

/* Run gen-ctf with @args into @dir (and --truth @truth if not NULL). */
static bool
gen(const char *dir, const char *truth, const char *args)
{
	const char *top = getenv("top_builddir");
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && '%s/gen-ctf' --quiet %s "
	    "%s%s%s '%s'", dir, top != NULL ? top : ".", args,
	    truth ? "--truth '" : "", truth ? truth : "", truth ? "'" : "",
	    dir);
	return system(cmd) == 0;
}

/* Open one trace path as a set. */
static struct tv_trace_set *
open_set(const char *path)
{
	struct tv_trace_set *set = NULL;
	struct tv_error err;

	if (tv_trace_set_open(&set, &path, 1, tv_format_registry(),
	    &err) != TV_OK || set == NULL ||
	    set->ntraces == 0) {
		diag("cannot open %s: %s", path, err.msg);
		if (set != NULL)
			tv_trace_set_close(set);
		return NULL;
	}
	return set;
}

/* ---- the rule table ---- */

/* The built-in driver named @name, or NULL. */
static const struct tv_format_ops *
format_named(const char *name)
{
	const struct tv_format_ops *const *r;

	for (r = tv_format_registry(); *r != NULL; r++)
		if (strcmp((*r)->name, name) == 0)
			return *r;
	return NULL;
}

/*
 * Every packet's event count is known once the pass has ended, even
 * when its counter thread (held by TVIEW_TEST_SLOW_COUNTER) counted
 * none: the walk notes each packet it decodes.  The browser's "event N
 * of M" waits for every count; a pass quicker than the counter left it
 * unsaid for good.
 */
static void
test_counts_after_pass(void)
{
	struct tv_state_index *idx;
	struct tv_trace_set *set;
	uint64_t k, unknown = 0, total = 0;
	char dir[300];
	uint32_t i;

	snprintf(dir, sizeof(dir), "%s/gen-counts", test_dir);
	/* no index files: no packet's count is known at open */
	if (!ok(gen(dir, NULL, "--cpus 2 --events 30000 --packet-size 8192 --seed 11"),
	    "gen-ctf for the counts") || (set = open_set(dir)) == NULL)
		return;
	setenv("TVIEW_TEST_SLOW_COUNTER", "500", 1);
	idx = tv_state_index_create(set, 0);
	ok(tv_state_index_run(idx, false, NULL) == TV_OK,
	    "counts: the pass runs, its counter held");
	unsetenv("TVIEW_TEST_SLOW_COUNTER");
	for (i = 0; i < set->nstreams; i++)
		for (k = 0; k < set->streams[i]->npackets; k++) {
			uint64_t n = __atomic_load_n(
			    &set->streams[i]->packets[k].event_count,
			    __ATOMIC_RELAXED);

			if (n == TV_COUNT_UNKNOWN)
				unknown++;
			else
				total += n;
		}
	ok(unknown == 0 && total == 30000, "counts: every packet's count "
	    "known after the pass (%llu unknown, %llu events)",
	    (unsigned long long)unknown, (unsigned long long)total);
	tv_state_index_destroy(idx);
	tv_trace_set_close(set);
}

/* Lookups across formats, eras and name spellings. */
static void
test_rules(void)
{
	static const struct {
		const char	*name;
		const char	*fmt;
		int		 action;	/* -1: no rule */
	} cases[] = {
		{ "sched_switch", "ctf", TV_SA_SWITCH },
		{ "sched_switch", "tracedat", TV_SA_SWITCH },
		{ "sched:sched_switch", "tracedat", TV_SA_SWITCH },
		{ "sched_switch", "ltt", -1 },
		{ "kernel.sched_schedule", "ltt", TV_SA_SWITCH },
		{ "process.schedchange", "ltt", TV_SA_SWITCH },
		{ "process.fork", "ltt", TV_SA_FORK },
		{ "fork", "ctf", -1 },
		{ "fs.exec", "ltt", TV_SA_EXEC },
		{ "task_state.process_state", "ltt", TV_SA_STATEDUMP },
		{ "statedump.enumerate_process_state", "ltt",
		  TV_SA_STATEDUMP },
		{ "lttng_statedump_process_state", "ctf", TV_SA_STATEDUMP },
		{ "syscall_entry_openat", "ctf", TV_SA_SYSCALL_ENTRY },
		{ "syscall_exit_openat", "ctf", TV_SA_SYSCALL_EXIT },
		{ "sys_exit", "ctf", TV_SA_SYSCALL_EXIT },
		{ "sys_open", "ctf", TV_SA_SYSCALL_ENTRY },
		{ "exit_syscall", "ctf", TV_SA_SYSCALL_EXIT },
		{ "raw_syscalls:sys_enter", "tracedat", TV_SA_SYSCALL_ENTRY },
		{ "syscalls:sys_exit_read", "tracedat", TV_SA_SYSCALL_EXIT },
		{ "irq:softirq_entry", "tracedat", TV_SA_SOFTIRQ_ENTRY },
		{ "irq_softirq_exit", "ctf", TV_SA_SOFTIRQ_EXIT },
		{ "kernel.irq_entry", "ltt", TV_SA_IRQ_ENTRY },
		{ "kernel.trap_exit", "ltt", TV_SA_TRAP_EXIT },
		{ "sched_waking", "ctf", TV_SA_WAKEUP },
		{ "sched_process_free", "tracedat", TV_SA_FREE },
		{ "my_app:tracepoint", "ctf", -1 },
		{ "sched_switch", "nosuchformat", -1 },
	};
	const struct tv_state_rule *r;
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(cases); i++) {
		r = tv_state_rule_find(cases[i].name,
		    format_named(cases[i].fmt));
		is_int(r != NULL ? r->action : -1, cases[i].action,
		    "rule for %s (%s)", cases[i].name, cases[i].fmt);
	}
}

/* A driver's own table: the core matches it, knowing no format. */
static void
test_rules_fake(void)
{
	static const struct tv_state_rule fake_rules[] = {
		{ "my_*", TV_SA_SYSCALL_ENTRY, TV_SR_NOARGS },
		{ "tracepoint", TV_SA_WAKEUP, TV_SR_NOARGS },
		TV_SR_END,
	};
	static const struct tv_state_rule *const fake_tables[] = {
		fake_rules, NULL,
	};
	struct tv_format_ops fake = { .name = "fake" };
	const struct tv_state_rule *r;

	ok(tv_state_rule_find("my_app:tracepoint", &fake) == NULL,
	    "a driver without rules has none");
	fake.state_rules = fake_tables;
	r = tv_state_rule_find("my_app:tracepoint", &fake);
	is_int(r != NULL ? r->action : -1, TV_SA_SYSCALL_ENTRY,
	    "fake driver: the whole name first (my_*)");
	r = tv_state_rule_find("app:tracepoint", &fake);
	is_int(r != NULL ? r->action : -1, TV_SA_WAKEUP,
	    "fake driver: then the part after ':'");
	ok(tv_state_rule_find("sched_switch", &fake) == NULL,
	    "fake driver: no Linux rule it did not hand");
}

/* ---- generated traces against the simulator ---- */

/* Map a simulator state to ours; NULL when more than one fits. */
static bool
state_matches(const char *gen_state, const struct tv_thread *t)
{
	if (strcmp(gen_state, "running") == 0)
		return t->state == TV_TS_RUNNING;
	if (strcmp(gen_state, "runnable") == 0)
		return t->state == TV_TS_RUNNABLE;
	if (strcmp(gen_state, "blocked") == 0)
		return t->state == TV_TS_BLOCKED;
	if (strcmp(gen_state, "dead") == 0)
		return t->state == TV_TS_ZOMBIE || t->state == TV_TS_EXITED;
	return false;
}

/* Whether decoded values @a and @b are the same tree. */
static bool
value_eq(const struct tv_value *a, const struct tv_value *b)
{
	uint32_t i;

	if (a == NULL || b == NULL)
		return a == b;
	if (a->fc != b->fc || a->bit_offset != b->bit_offset ||
	    a->bit_size != b->bit_size || (a->name == NULL) !=
	    (b->name == NULL) || (a->name && strcmp(a->name, b->name) != 0))
		return false;
	if (a->fc == NULL)
		return true;
	switch (a->fc->kind) {
	case TV_FC_STRING:
		return a->str.len == b->str.len &&
		    memcmp(a->str.ptr, b->str.ptr, a->str.len) == 0;
	case TV_FC_STRUCT:
	case TV_FC_VARIANT:
	case TV_FC_ARRAY:
	case TV_FC_SEQUENCE:
		if (a->kids.count != b->kids.count)
			return false;
		for (i = 0; i < a->kids.count; i++)
			if (!value_eq(&a->kids.items[i], &b->kids.items[i]))
				return false;
		return true;
	default:
		return a->u == b->u;	/* a float's bits too */
	}
}

/*
 * A decode of the event's own scopes (what the state pass, the event
 * list and searches ask for) gives those scopes exactly as the decode
 * of every scope does, over the first @max events of @set; a CTF trace
 * builds no tree for the packet scopes and the event header then.
 */
static void
check_decode_scopes(struct tv_trace_set *set, const char *name, uint64_t max)
{
	static const enum tv_scope own[] = {
		TV_SCOPE_EVENT_COMMON_CONTEXT,
		TV_SCOPE_EVENT_SPECIFIC_CONTEXT, TV_SCOPE_EVENT_PAYLOAD,
	};
	struct tv_event_fields all, part;
	struct tv_arena a1, a2;
	struct tv_merge *m = tv_merge_create(set);
	struct tv_event ev;
	uint64_t n = 0, differ = 0, extra = 0, ctx = 0;
	bool ctf = strcmp(set->traces[0]->ops->name, "ctf") == 0;
	size_t i;

	tv_arena_init(&a1);
	tv_arena_init(&a2);
	tv_merge_seek_begin(m);
	while (n < max && tv_merge_next(m, &ev) == TV_OK) {
		if (ev.rec.kind != TV_REC_EVENT)
			continue;
		tv_arena_reset(&a1);
		tv_arena_reset(&a2);
		if (tv_event_decode(&ev, &a1, &all, NULL) != TV_OK)
			continue;
		n++;
		if (tv_event_decode_scopes(&ev, &a2, &part, TV_SCOPES_EVENT,
		    NULL) != TV_OK) {
			differ++;
			continue;
		}
		for (i = 0; i < TV_ARRAY_SIZE(own); i++)
			if (!value_eq(all.scope[own[i]], part.scope[own[i]]) &&
			    differ++ < 3)
				diag("%s: event %llu, scope %d differs", name,
				    (unsigned long long)n, (int)own[i]);
		ctx += all.scope[TV_SCOPE_EVENT_COMMON_CONTEXT] != NULL ||
		    all.scope[TV_SCOPE_EVENT_SPECIFIC_CONTEXT] != NULL;
		extra += part.scope[TV_SCOPE_PACKET_HEADER] != NULL ||
		    part.scope[TV_SCOPE_PACKET_CONTEXT] != NULL ||
		    part.scope[TV_SCOPE_EVENT_HEADER] != NULL;
	}
	ok(n > 0 && differ == 0, "%s: the event's own scopes as in a whole "
	    "decode (%llu events, %llu with contexts, %llu differ)", name,
	    (unsigned long long)n, (unsigned long long)ctx,
	    (unsigned long long)differ);
	if (ctf)
		ok(extra == 0, "%s: no packet or header tree when not asked "
		    "(%llu events had one)", name, (unsigned long long)extra);
	tv_merge_destroy(m);
	tv_arena_fini(&a1);
	tv_arena_fini(&a2);
}

/*
 * Every event's owner equals the task the simulator had current on its
 * CPU; the final table equals the simulator's tasks.
 */
static void
test_gen_truth(void)
{
	char dir[300], tpath[300];
	struct tv_trace_set *set;
	struct tv_event_owner o;
	const struct truth_ev *te;
	const struct tv_thread *th;
	struct tv_state *s;
	struct tv_merge *m;
	struct tv_event ev;
	struct truth tr;
	uint64_t n = 0, bad = 0, unknown = 0, missing = 0;
	uint64_t bad_state = 0, bad_id = 0;
	bool seen_switch[64] = { false };
	size_t i;

	snprintf(dir, sizeof(dir), "%s/gen-truth", test_dir);
	snprintf(tpath, sizeof(tpath), "%s/gen-truth.txt", test_dir);
	if (!ok(gen(dir, tpath, "--cpus 4 --events 200000 --seed 3"),
	    "gen-ctf --truth ran") || !ok(truth_load(tpath, &tr),
	    "truth file read"))
		return;
	set = open_set(dir);
	if (!ok(set != NULL, "generated trace opens"))
		return;
	check_decode_scopes(set, "generated", 20000);
	s = tv_state_create(set);
	m = tv_merge_create(set);
	tv_merge_seek_begin(m);
	while (tv_merge_next(m, &ev) == TV_OK) {
		if (ev.rec.kind != TV_REC_EVENT)
			continue;
		tv_state_apply(s, &ev, &o, NULL);
		n++;
		te = truth_find(&tr, (uint32_t)ev.stream->cpu,
		    (uint64_t)ev.rec.ts);
		if (te == NULL) {
			missing++;
			continue;
		}
		if (o.tid == TV_TID_UNKNOWN) {
			/* only before the first switch on that CPU */
			if (seen_switch[ev.stream->cpu & 63])
				bad++;
			unknown++;
		} else if (o.tid != te->tid || o.pid != te->pid) {
			if (bad++ < 5)
				diag("ts %lld cpu %d: owner %lld/%lld, truth "
				    "%d/%d", (long long)ev.rec.ts,
				    ev.stream->cpu, (long long)o.pid,
				    (long long)o.tid, te->pid, te->tid);
		}
		if (strcmp(tv_event_class_of(&ev)->name, "sched_switch") == 0)
			seen_switch[ev.stream->cpu & 63] = true;
	}
	is_int((int64_t)n, (int64_t)tr.nevs, "every event has a truth line");
	is_int((int64_t)missing, 0, "no event without truth");
	is_int((int64_t)bad, 0, "owner = simulator's current task on all "
	    "%llu events (%llu unknown before the CPU's first switch)",
	    (unsigned long long)n, (unsigned long long)unknown);
	ok(unknown < 2000, "few unknown owners (%llu)",
	    (unsigned long long)unknown);
	for (i = 0; i < tr.ntasks; i++) {
		th = tv_state_find(s, 0, tr.tasks[i].tid);
		if (tr.tasks[i].tid == 0)
			continue;	/* idle tasks: one per CPU */
		if (th == NULL) {
			bad_id++;
			diag("task %d (%s) unknown", tr.tasks[i].tid,
			    tr.tasks[i].comm);
			continue;
		}
		if (th->pid != tr.tasks[i].pid ||
		    th->ppid != tr.tasks[i].ppid ||
		    strncmp(th->name, tr.tasks[i].comm, 15) != 0) {
			bad_id++;
			diag("task %d: %lld/%lld/%s, truth %d/%d/%s",
			    tr.tasks[i].tid, (long long)th->pid,
			    (long long)th->ppid, th->name, tr.tasks[i].pid,
			    tr.tasks[i].ppid, tr.tasks[i].comm);
		}
		if (!state_matches(tr.tasks[i].state, th)) {
			bad_state++;
			diag("task %d (%s): state %s, truth %s",
			    tr.tasks[i].tid, th->name,
			    tv_thread_state_name(th->state),
			    tr.tasks[i].state);
		}
	}
	is_int((int64_t)bad_id, 0, "pid, ppid, name of all %zu live tasks",
	    tr.ntasks);
	/*
	 * The simulator may have changed a task's state in its last step
	 * without the event being written (the run stopped): allow one.
	 */
	ok(bad_state <= 1, "final states match the simulator (%llu off)",
	    (unsigned long long)bad_state);
	tv_merge_destroy(m);
	tv_state_destroy(s);
	tv_trace_set_close(set);
	free(tr.evs);
	free(tr.tasks);
}

/* Checkpoint + replay = full replay, at random times; then the cache. */
static void
test_checkpoints(void)
{
	struct tv_state_index *idx, *idx2;
	struct tv_trace_set *set;
	struct tv_state *a, *b;
	struct tv_error err;
	char dir[300], path[400];
	struct stat sb;
	uint64_t r = 12345;
	size_t nck, i, same = 0;
	int64_t ts;
	char *cpath;
	FILE *fp;
	int c;

	snprintf(dir, sizeof(dir), "%s/gen-ckpt", test_dir);
	if (!ok(gen(dir, NULL, "--cpus 3 --events 60000 --seed 7"),
	    "gen-ctf for checkpoints"))
		return;
	set = open_set(dir);
	if (set == NULL)
		return;
	idx = tv_state_index_create(set, 1000);
	ok(tv_state_index_run(idx, false, &err) == TV_OK, "pass runs");
	nck = tv_state_index_checkpoints(idx);
	is_int((int64_t)nck, 60, "a checkpoint every 1000 events");
	is_int((int64_t)tv_state_index_events(idx), 60000, "events counted");
	a = tv_state_create(set);
	b = tv_state_create(set);
	for (i = 0; i < 40; i++) {
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		ts = set->ts_begin + (int64_t)((r >> 11) %
		    (uint64_t)(set->ts_end - set->ts_begin + 1));
		if (i == 0)
			ts = set->ts_begin - 1;
		if (i == 1)
			ts = set->ts_end;
		tv_state_at(idx, ts, a, NULL);
		tv_test_replay_to(set, ts, b);
		if (tv_test_states_equal(a, b))
			same++;
		else
			diag("state at %lld differs", (long long)ts);
	}
	is_int((int64_t)same, 40, "checkpoint + replay = full replay at 40 "
	    "times");

	/* the cache: written, reused, stale after a change, corrupt */
	cpath = tv_state_cache_path(set);
	ok(cpath != NULL && strncmp(cpath, test_dir, strlen(test_dir)) == 0,
	    "cache file under $XDG_CACHE_HOME");
	idx2 = tv_state_index_create(set, 1000);
	tv_state_index_run(idx2, true, NULL);
	ok(!tv_state_index_from_cache(idx2) && cpath != NULL &&
	    stat(cpath, &sb) == 0, "first run walks and writes the cache");
	tv_state_index_destroy(idx2);
	idx2 = tv_state_index_create(set, 1000);
	tv_state_index_run(idx2, true, NULL);
	ok(tv_state_index_from_cache(idx2), "second run loads the cache");
	is_int((int64_t)tv_state_index_checkpoints(idx2), (int64_t)nck,
	    "same checkpoints from the cache");
	is_int((int64_t)tv_state_index_events(idx2), 60000,
	    "same event count from the cache");
	{
		/* a fresh open: counts come back from the cache */
		struct tv_trace_set *set2 = open_set(dir);
		struct tv_state_index *idx3;
		uint64_t pk = 0, cl = 0, j;
		bool all = true;

		if (set2 != NULL) {
			idx3 = tv_state_index_create(set2, 1000);
			tv_state_index_run(idx3, true, NULL);
			for (j = 0; j < set2->nstreams; j++) {
				uint64_t q;

				for (q = 0; q < set2->streams[j]->npackets;
				    q++) {
					uint64_t ec = set2->streams[j]->
					    packets[q].event_count;

					if (ec == TV_COUNT_UNKNOWN)
						all = false;
					else
						pk += ec;
				}
			}
			for (j = 0; j < set2->traces[0]->nclasses; j++) {
				uint64_t cc = set2->traces[0]->classes[j]->count;

				if (cc != TV_COUNT_UNKNOWN)
					cl += cc;
			}
			ok(tv_state_index_from_cache(idx3) && all &&
			    pk == 60000, "packet event counts restored from "
			    "the cache (%llu)", (unsigned long long)pk);
			is_int((int64_t)cl, 60000, "class counts restored "
			    "from the cache");
			tv_state_index_destroy(idx3);
			tv_trace_set_close(set2);
		}
	}
	ts = set->ts_begin + (set->ts_end - set->ts_begin) / 3;
	tv_state_at(idx2, ts, a, NULL);
	tv_test_replay_to(set, ts, b);
	ok(tv_test_states_equal(a, b), "state from cached checkpoints is right");
	tv_state_index_destroy(idx2);

	/* flip a byte in the middle: corrupt, rebuilt */
	fp = cpath != NULL ? fopen(cpath, "r+b") : NULL;
	if (fp != NULL) {
		fseek(fp, (long)sb.st_size / 2, SEEK_SET);
		c = fgetc(fp);
		fseek(fp, (long)sb.st_size / 2, SEEK_SET);
		fputc(c ^ 0x5a, fp);
		fclose(fp);
	}
	idx2 = tv_state_index_create(set, 1000);
	tv_state_index_run(idx2, true, NULL);
	ok(!tv_state_index_from_cache(idx2) &&
	    tv_state_index_checkpoints(idx2) == nck,
	    "corrupt cache detected and rebuilt");
	tv_state_index_destroy(idx2);
	idx2 = tv_state_index_create(set, 1000);
	tv_state_index_run(idx2, true, NULL);
	ok(tv_state_index_from_cache(idx2), "rebuilt cache is used");
	tv_state_index_destroy(idx2);

	/* truncated file */
	if (cpath != NULL)
		(void)truncate(cpath, sb.st_size / 3);
	idx2 = tv_state_index_create(set, 1000);
	tv_state_index_run(idx2, true, NULL);
	ok(!tv_state_index_from_cache(idx2), "truncated cache rebuilt");
	tv_state_index_destroy(idx2);

	/* a trace file changes (mtime): stale, rebuilt under a new name */
	snprintf(path, sizeof(path), "%s/channel0_0", dir);
	{
		struct timeval tv[2] = { { 1000000000, 0 },
		    { 1000000000, 0 } };

		utimes(path, tv);
	}
	free(cpath);
	cpath = tv_state_cache_path(set);
	idx2 = tv_state_index_create(set, 1000);
	tv_state_index_run(idx2, true, NULL);
	ok(!tv_state_index_from_cache(idx2), "changed trace: cache is stale");
	tv_state_index_destroy(idx2);

	/*
	 * A timeline of a window the pass has not walked is not replayed
	 * (that would walk the trace again beside the pass): it is sampled
	 * and empty past where the pass is; walked, it is exact.
	 */
	idx2 = tv_state_index_create(set, 1000);
	{
		struct tv_timeline *tl = NULL;
		size_t k, filled = 0;
		uint32_t col;

		ok(tv_timeline_build(idx2, set, set->ts_begin,
		    set->ts_end + 1, 50, NULL, &tl, NULL) == TV_OK && tl &&
		    tl->sampled, "timeline before the pass: sampled");
		for (k = 0; tl && k < tl->ncpus; k++)
			for (col = 0; col < tl->ncols; col++)
				filled += tl->cpus[k].cells[col] != TV_CELL_NONE;
		is_int((int64_t)filled, 0, "timeline before the pass: no "
		    "column past where the pass is");
		tv_timeline_destroy(tl);
		ok(tv_timeline_build(idx, set, set->ts_begin,
		    set->ts_end + 1, 50, NULL, &tl, NULL) == TV_OK && tl &&
		    !tl->sampled, "timeline after the pass: exact");
		tv_timeline_destroy(tl);
	}
	tv_state_index_destroy(idx2);

	/* the background thread: same checkpoints as the batch pass */
	idx2 = tv_state_index_create(set, 1000);
	ok(tv_state_index_start(idx2, false, NULL) == TV_OK, "worker starts");
	{
		bool done = false;
		int spins = 0;

		size_t eq = 0, asked = 0;

		/* queries while it runs (the UI does this): still right */
		while (!done && spins++ < 3000) {
			(void)tv_state_index_progress(idx2, &done);
			ts = set->ts_begin + (set->ts_end - set->ts_begin) /
			    5 * (spins % 5);
			if (asked < 8) {
				tv_state_at(idx2, ts, a, NULL);
				tv_test_replay_to(set, ts, b);
				eq += tv_test_states_equal(a, b);
				asked++;
			}
			usleep(2000);
		}
		ok(done, "worker finishes");
		is_int((int64_t)eq, (int64_t)asked, "state at T asked while "
		    "the pass runs = full replay (%zu times)", asked);
	}
	is_int((int64_t)tv_state_index_checkpoints(idx2), (int64_t)nck,
	    "worker recorded the same checkpoints");
	tv_state_index_destroy(idx2);
	/* destroying while it runs cancels it */
	idx2 = tv_state_index_create(set, 1000);
	tv_state_index_start(idx2, false, NULL);
	tv_state_index_destroy(idx2);
	ok(true, "destroy cancels a running pass");

	free(cpath);
	tv_state_destroy(a);
	tv_state_destroy(b);
	tv_state_index_destroy(idx);
	tv_trace_set_close(set);
}

/* Lost events make the state of threads on that CPU uncertain. */
static void
test_lost(void)
{
	struct tv_trace_set *set;
	struct tv_state *s;
	struct tv_merge *m;
	struct tv_event ev;
	const struct tv_thread *t;
	char dir[300];
	size_t n, i;
	bool lost = false, flagged = false;

	snprintf(dir, sizeof(dir), "%s/gen-lost", test_dir);
	if (!ok(gen(dir, NULL, "--cpus 2 --events 50000 --seed 5 --discard "
	    "--packet-size 4096"), "gen-ctf --discard"))
		return;
	set = open_set(dir);
	if (set == NULL)
		return;
	s = tv_state_create(set);
	m = tv_merge_create(set);
	tv_merge_seek_begin(m);
	while (tv_merge_next(m, &ev) == TV_OK) {
		tv_state_apply(s, &ev, NULL, NULL);
		if (ev.rec.kind == TV_REC_EVENT || lost)
			continue;
		lost = true;
		t = tv_state_threads(s, &n);
		for (i = 0; i < n; i++)
			if (t[i].cpu == ev.stream->cpu && t[i].uncertain)
				flagged = true;
	}
	ok(lost, "the trace has lost events");
	ok(flagged, "threads of that CPU are flagged uncertain");
	tv_merge_destroy(m);
	tv_state_destroy(s);
	tv_trace_set_close(set);
}

/* ---- invariants on real LTTng kernel traces ---- */

/* A small set of tids (freed, seen), linear: the traces are small. */
struct tidset {
	int64_t		*v;
	size_t		 n;
	size_t		 cap;
};

/* Index of @tid in @s, or -1. */
static ssize_t
tidset_find(const struct tidset *s, int64_t tid)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i] == tid)
			return (ssize_t)i;
	return -1;
}

/* Add @tid if absent. */
static void
tidset_add(struct tidset *s, int64_t tid)
{
	if (tidset_find(s, tid) >= 0)
		return;
	TV_VEC_GROW(s->v, s->n, s->cap);
	s->v[s->n++] = tid;
}

/* Remove @tid if present. */
static void
tidset_del(struct tidset *s, int64_t tid)
{
	ssize_t i = tidset_find(s, tid);

	if (i >= 0)
		s->v[i] = s->v[--s->n];
}

/* Integer field @name of the payload of @ev, or false. */
static bool
payload_int(const struct tv_event *ev, struct tv_arena *a, const char *name,
    int64_t *out)
{
	struct tv_event_fields f;
	const struct tv_value *v;

	tv_arena_reset(a);
	if (tv_event_decode(ev, a, &f, NULL) != TV_OK)
		return false;
	v = tv_value_member(f.scope[TV_SCOPE_EVENT_PAYLOAD], name);
	return v != NULL && tv_value_as_int(v, out);
}

/*
 * One running thread per CPU, every RUNNING thread current on its CPU,
 * fork before a child's first event, no event after exit + free.
 */
static void
test_invariants(const char *shared, const char *name)
{
	struct tidset freed = { 0 }, seen = { 0 };
	const struct tv_thread *t, *r;
	struct tv_trace_set *set;
	struct tv_event_owner o;
	struct tv_arena arena;
	struct tv_state *s;
	struct tv_merge *m;
	struct tv_event ev;
	const char *cls;
	char path[512];
	uint64_t n = 0, two_run = 0, run_not_cur = 0, after_free = 0;
	uint64_t fork_late = 0, forks = 0, frees = 0, known = 0;
	int64_t tid;
	size_t nt, i, j;

	snprintf(path, sizeof(path), "%s/traces/ctf/%s", shared, name);
	set = open_set(path);
	if (set == NULL) {
		tv_skip("%s not readable", name);
		return;
	}
	check_decode_scopes(set, name, 20000);
	tv_arena_init(&arena);
	s = tv_state_create(set);
	m = tv_merge_create(set);
	tv_merge_seek_begin(m);
	while (tv_merge_next(m, &ev) == TV_OK) {
		if (ev.rec.kind != TV_REC_EVENT) {
			tv_state_apply(s, &ev, NULL, NULL);
			continue;
		}
		cls = tv_event_class_of(&ev)->name;
		if (strcmp(cls, "sched_process_fork") == 0 &&
		    payload_int(&ev, &arena, "child_tid", &tid)) {
			forks++;
			if (tidset_find(&seen, tid) >= 0)
				fork_late++;
			tidset_del(&freed, tid);
		}
		tv_state_apply(s, &ev, &o, NULL);
		n++;
		if (o.tid != TV_TID_UNKNOWN)
			known++;
		if (o.tid != TV_TID_UNKNOWN && o.tid != 0) {
			tidset_add(&seen, o.tid);
			if (tidset_find(&freed, o.tid) >= 0 &&
			    after_free++ < 3)
				diag("%s: event %s of freed %lld", name, cls,
				    (long long)o.tid);
		}
		if (strcmp(cls, "sched_process_free") == 0 &&
		    payload_int(&ev, &arena, "tid", &tid)) {
			frees++;
			tidset_add(&freed, tid);
			tidset_del(&seen, tid);
		}
		if (n % 97 != 0)
			continue;
		t = tv_state_threads(s, &nt);
		for (i = 0; i < nt; i++) {
			if (t[i].state != TV_TS_RUNNING)
				continue;
			r = tv_state_running(s, t[i].machine, t[i].cpu);
			if (r != &t[i] && run_not_cur++ < 3)
				diag("%s: %lld running but not current on %d",
				    name, (long long)t[i].tid, t[i].cpu);
			for (j = i + 1; j < nt; j++)
				if (t[j].state == TV_TS_RUNNING &&
				    t[j].machine == t[i].machine &&
				    t[j].cpu == t[i].cpu)
					two_run++;
		}
	}
	diag("%s: %llu events, %llu attributed, %llu forks, %llu frees",
	    name, (unsigned long long)n, (unsigned long long)known,
	    (unsigned long long)forks, (unsigned long long)frees);
	ok(known * 10 >= n * 9, "%s: >= 90%% of events attributed", name);
	is_int((int64_t)two_run, 0, "%s: one running thread per CPU", name);
	is_int((int64_t)run_not_cur, 0, "%s: running threads are current",
	    name);
	is_int((int64_t)fork_late, 0, "%s: fork before the child's first "
	    "event", name);
	is_int((int64_t)after_free, 0, "%s: no event after exit + free", name);
	tv_merge_destroy(m);
	tv_state_destroy(s);
	tv_arena_fini(&arena);
	tv_trace_set_close(set);
	free(freed.v);
	free(seen.v);
}

/* Whether a driver named @name is built in. */
static bool
have_format(const char *name)
{
	const struct tv_format_ops *const *r;

	for (r = tv_format_registry(); *r != NULL; r++)
		if (strcmp((*r)->name, name) == 0)
			return true;
	return false;
}

/*
 * ftrace: every event carries common_pid, the ground truth.  The thread
 * the state says runs on the event's CPU (before the event) must be it
 * on >= 99.99% of the events where the state knows one and the trace
 * holds every switch before them.
 */
static void
test_ftrace(const char *path, const char *name)
{
	const struct tv_thread *run;
	struct tv_trace_set *set;
	struct tv_event_owner o;
	struct tv_state *s;
	struct tv_merge *m;
	struct tv_event ev;
	uint64_t n = 0, ctx = 0, cmp = 0, bad = 0, stacks = 0, explained = 0;
	int64_t cur, last_cur[256], prev_pid[256], out[256];
	struct tv_arena arena;
	bool missed;
	int cpu;
	const char *cls;
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(last_cur); i++)
		last_cur[i] = prev_pid[i] = out[i] = TV_TID_UNKNOWN;

	set = open_set(path);
	if (set == NULL) {
		tv_skip("%s not readable", name);
		return;
	}
	tv_arena_init(&arena);
	s = tv_state_create(set);
	m = tv_merge_create(set);
	tv_merge_seek_begin(m);
	while (tv_merge_next(m, &ev) == TV_OK) {
		cur = TV_TID_UNKNOWN;
		if (ev.rec.kind == TV_REC_EVENT) {
			run = tv_state_running(s, tv_state_machine_of(s,
			    ev.stream), ev.stream->cpu);
			if (run != NULL && !run->uncertain)
				cur = run->tid;
			/*
			 * A stack trace record (stacktrace option) belongs to
			 * the event before it on its CPU, recorded in the
			 * same context: after a sched_switch it is still the
			 * task switched out, so compare with what ran then.
			 */
			cls = tv_event_class_of(&ev)->name;
			if ((strcmp(cls, "kernel_stack") == 0 ||
			    strcmp(cls, "user_stack") == 0) &&
			    ev.stream->cpu >= 0 && ev.stream->cpu < 256) {
				cur = last_cur[ev.stream->cpu];
				stacks++;
			} else if (ev.stream->cpu >= 0 &&
			    ev.stream->cpu < 256) {
				last_cur[ev.stream->cpu] = cur;
			}
		}
		tv_state_apply(s, &ev, &o, NULL);
		if (ev.rec.kind != TV_REC_EVENT)
			continue;
		n++;
		if (!o.from_context)
			continue;
		ctx++;
		cpu = ev.stream->cpu & 255;
		/*
		 * A difference is explained when the trace itself lacks the
		 * switch: the thread the previous record on this CPU implies
		 * (its common_pid, or next_pid for a sched_switch) is not
		 * this one, so the kernel's sched_switch record is missing
		 * from the ring buffer.
		 */
		missed = prev_pid[cpu] != TV_TID_UNKNOWN &&
		    prev_pid[cpu] != o.tid;
		/*
		 * Or when the event carries the task the last switch on this
		 * CPU took out: ftrace tags the events fired during that
		 * switch with it (TLB flushes), and they do not prove it runs.
		 */
		if (o.tid == out[cpu])
			missed = true;
		prev_pid[cpu] = o.tid;
		if (strcmp(tv_event_class_of(&ev)->name, "sched_switch") == 0) {
			if (!payload_int(&ev, &arena, "next_pid",
			    &prev_pid[cpu]))
				prev_pid[cpu] = TV_TID_UNKNOWN;
			out[cpu] = o.tid;
		}
		if (cur == TV_TID_UNKNOWN)
			continue;
		cmp++;
		if (cur == o.tid)
			continue;
		if (missed) {
			explained++;
			continue;
		}
		if (bad++ < 5)
			diag("%s: ts %lld cpu %d: state says %lld runs, "
			    "common_pid %lld (%s)", name, (long long)ev.rec.ts,
			    ev.stream->cpu, (long long)cur, (long long)o.tid,
			    tv_event_class_of(&ev)->name);
	}
	diag("%s: %llu events, %llu with common_pid, %llu compared, %llu "
	    "differ unexplained, %llu after a switch missing from the trace, "
	    "%llu stack records", name, (unsigned long long)n,
	    (unsigned long long)ctx, (unsigned long long)cmp,
	    (unsigned long long)bad, (unsigned long long)explained,
	    (unsigned long long)stacks);
	is_int((int64_t)ctx, (int64_t)n, "%s: every event has common_pid",
	    name);
	/*
	 * The bar applies to the events the trace records fully: right after
	 * a sched_switch the ring buffer lost, no reader can know the switch
	 * (a loaded machine loses a few dozen in a live recording).  Those
	 * are counted above and each must be such a gap (next check).
	 */
	ok(cmp > explained && bad * 10000 <= cmp - explained, "%s: running "
	    "thread = common_pid on >= 99.99%% of %llu events (%llu after a "
	    "switch the trace lacks not counted)", name,
	    (unsigned long long)(cmp - explained),
	    (unsigned long long)explained);
	is_int((int64_t)bad, 0, "%s: every difference is a switch the trace "
	    "lacks", name);
	tv_arena_fini(&arena);
	tv_merge_destroy(m);
	tv_state_destroy(s);
	tv_trace_set_close(set);
}

/*
 * The shared trace at @rel (under ../shared), opened; NULL with a skip
 * when the shared traces are absent or it does not open.
 */
static struct tv_trace_set *
open_shared(const char *shared, const char *rel)
{
	struct tv_trace_set *set;
	char path[1200];

	if (shared == NULL || shared[0] == '\0') {
		tv_skip("TVIEW_SHARED not set: no real trace %s", rel);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", shared, rel);
	set = open_set(path);
	if (set == NULL)
		tv_skip("%s not readable", rel);
	return set;
}

/*
 * The owner the state gives each event whose contexts name it is the one
 * a whole decode of the event's own scopes names: the state pass decodes
 * the contexts alone where they hold a tid and a pid and no rule reads
 * the payload (state_class.scopes), and must lose nothing by it.
 */
static void
check_context_owners(struct tv_trace_set *set, const char *name)
{
	struct tv_state *s = tv_state_create(set);
	struct tv_merge *m = tv_merge_create(set);
	struct tv_event_owner o, want;
	struct tv_event_fields f;
	struct tv_arena a;
	struct tv_event ev;
	uint64_t n = 0, differ = 0;

	tv_arena_init(&a);
	tv_merge_seek_begin(m);
	while (tv_merge_next(m, &ev) == TV_OK) {
		tv_event_owner_reset(&o);
		(void)tv_state_apply(s, &ev, &o, NULL);
		if (ev.rec.kind != TV_REC_EVENT)
			continue;
		tv_arena_reset(&a);
		if (tv_event_decode_scopes(&ev, &a, &f, TV_SCOPES_EVENT,
		    NULL) != TV_OK || !tv_event_owner(&f, &want))
			continue;
		n++;
		if ((o.tid != want.tid || (want.pid != TV_TID_UNKNOWN &&
		    o.pid != want.pid) || (want.name[0] != '\0' &&
		    strcmp(o.name, want.name) != 0)) && differ++ < 3)
			diag("%s: event %llu: state %lld/%lld/%s, fields "
			    "%lld/%lld/%s", name, (unsigned long long)n,
			    (long long)o.tid, (long long)o.pid, o.name,
			    (long long)want.tid, (long long)want.pid,
			    want.name);
	}
	ok(n > 0 && differ == 0, "%s: the state's owner is the fields' on "
	    "each of %llu events that name theirs (%llu differ)", name,
	    (unsigned long long)n, (unsigned long long)differ);
	tv_arena_fini(&a);
	tv_merge_destroy(m);
	tv_state_destroy(s);
}

/* The own-scope decode on real traces whose events carry contexts. */
static void
test_decode_contexts(const char *shared)
{
	static const char *const ctx[] = {
		"tc-memory", "bt-wk-heartbeat-u", "tc-context-switches-ust",
	};
	struct tv_trace_set *set;
	char path[512];
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(ctx); i++) {
		snprintf(path, sizeof(path), "traces/ctf/%s", ctx[i]);
		if ((set = open_shared(shared, path)) == NULL)
			continue;
		check_decode_scopes(set, ctx[i], 20000);
		check_context_owners(set, ctx[i]);
		tv_trace_set_close(set);
	}
}

/*
 * A real trace recorded now on this machine (root only, with the shared
 * recording script): perf bench sched messaging under sched, irq and
 * raw_syscalls events; same check as the samples.
 */
static void
test_recorded(const char *shared)
{
	char cmd[1200], path[300];

	if (shared == NULL || shared[0] == '\0' || !have_format("tracedat")) {
		tv_skip("no TVIEW_SHARED or no trace.dat driver: no recording");
		return;
	}
	if (geteuid() != 0 || getenv("TVIEW_NO_RECORD") != NULL) {
		tv_skip("recording a kernel trace needs root");
		return;
	}
	snprintf(path, sizeof(path), "%s/recorded.dat", test_dir);
	/*
	 * A 64 MiB per-CPU buffer: with the default 8 MiB a loaded machine
	 * loses more sched_switch records.  flock: one kernel recording at
	 * a time, since the recorder sets the global tracing state and
	 * tests/tracedat-oracle.sh records too (make check -j runs them side
	 * by side).
	 */
	snprintf(cmd, sizeof(cmd), "flock \"${TMPDIR:-/tmp}/"
	    "tview-ftrace-record.lock\" timeout 120 bash '%s/tools/"
	    "record-ftrace-trace.sh' --buffer-kb 65536 '%s' -- "
	    "perf bench sched messaging "
	    "-g 2 -l 100 >'%s/record.log' 2>&1", shared, path, test_dir);
	if (system(cmd) != 0) {
		tv_skip("record-ftrace-trace.sh failed (see its log): no "
		    "recording on this machine");
		return;
	}
	test_ftrace(path, "recorded perf bench sched messaging");
}

/*
 * The owners scan holds the tid and the pid of every event's owner, as
 * the state applied in timeline order gives them, and not an id that no
 * record names.
 */
static void
ids_vs_pass(struct tv_trace_set *set, const char *name,
    const struct tv_owner_set *os)
{
	struct tv_state *s = tv_state_create(set);
	struct tv_merge *m = tv_merge_create(set);
	struct tv_event_owner o;
	struct tv_event ev;
	uint64_t n = 0, known = 0, missing = 0;

	tv_merge_seek_begin(m);
	while (tv_merge_next(m, &ev) == TV_OK) {
		tv_event_owner_reset(&o);
		(void)tv_state_apply(s, &ev, &o, NULL);
		n++;
		if (o.tid != TV_TID_UNKNOWN) {
			known++;
			if (!tv_owner_set_has_id(os, o.tid) && missing++ < 3)
				diag("%s: record %llu: tid %lld not scanned",
				    name, (unsigned long long)n,
				    (long long)o.tid);
		}
		if (o.pid != TV_TID_UNKNOWN &&
		    !tv_owner_set_has_id(os, o.pid) && missing++ < 3)
			diag("%s: record %llu: pid %lld not scanned", name,
			    (unsigned long long)n, (long long)o.pid);
	}
	ok(missing == 0, "%s: the scan's ids hold the owner of "
	    "each of %llu records (%llu with a tid)", name,
	    (unsigned long long)n, (unsigned long long)known);
	ok(!tv_owner_set_has_id(os, 987654321) &&
	    !tv_owner_set_has_id(os, -2), "%s: an id no record names is not "
	    "in the scan's", name);
	tv_merge_destroy(m);
	tv_state_destroy(s);
}

/*
 * The names scan holds every owner name the pass finds (a pass name is
 * a scan name, or the first 15 bytes of one: a comm is cut there).
 */
static void
names_vs_pass(struct tv_trace_set *set, const char *name)
{
	const char *const *pn, *const *sn;
	struct tv_state_index *idx;
	struct tv_owner_set *ns;
	size_t npn, nsn, i, j, missing = 0;

	idx = tv_state_index_create(set, 0);
	ns = tv_state_owners_scan(set, NULL, NULL);
	if (!ok(tv_state_index_run(idx, false, NULL) == TV_OK && ns != NULL &&
	    tv_state_index_owner_names(idx, &pn, &npn), "%s: pass and scan "
	    "ran", name)) {
		tv_owner_set_free(ns);
		tv_state_index_destroy(idx);
		return;
	}
	tv_owner_set_names(ns, &sn, &nsn);
	for (i = 0; i < npn; i++) {
		for (j = 0; j < nsn; j++)
			if (strcmp(pn[i], sn[j]) == 0 ||
			    (strlen(pn[i]) == 15 &&
			    strncmp(pn[i], sn[j], 15) == 0))
				break;
		if (j == nsn && missing++ < 3)
			diag("%s: owner name \"%s\" not scanned", name, pn[i]);
	}
	is_int((int64_t)missing, 0, "%s: the scan's %zu names hold the pass's "
	    "%zu", name, nsn, npn);
	ids_vs_pass(set, name, ns);
	tv_owner_set_free(ns);
	tv_state_index_destroy(idx);
}

/* A names scan's stop function: stop at the second ask. */
static bool
names_stop_second(void *arg)
{
	int *asked = arg;

	return ++*asked == 2;
}

/* The names scan on a generated trace and real ones; a cancelled one. */
static void
test_names(const char *shared)
{
	static const char *const real[] = {
		"traces/ctf/tc-ros2", "traces/ctf/tc-many-threads",
		"traces/ctf/bt-multi-domains",
		"traces/ftrace/lisa-sched_load/trace.dat",
		"traces/ltt0/trace-2.6", "traces/lttnew/smp_example",
	};
	struct tv_trace_set *set;
	char dir[300];
	struct tv_owner_set *ns;
	size_t i;
	int asked;

	snprintf(dir, sizeof(dir), "%s/gen-names", test_dir);
	if (ok(gen(dir, NULL, "--cpus 4 --events 80000 --seed 13"),
	    "gen-ctf for the names scan") && (set = open_set(dir)) != NULL) {
		names_vs_pass(set, "generated");
		/* the first ask is before any record; the second comes when
		   this thread has read 4096, which the other workers may
		   have left it no time to */
		asked = 0;
		ns = tv_state_owners_scan(set, names_stop_second, &asked);
		ok(asked >= 1 && (ns == NULL) == (asked >= 2), "a scan told "
		    "to stop at its second ask gives nothing, else all "
		    "(asked %d times)", asked);
		tv_owner_set_free(ns);
		asked = 1;
		ok(tv_state_owners_scan(set, names_stop_second, &asked) ==
		    NULL && asked == 2, "a scan told to stop at its first "
		    "ask reads nothing");
		tv_trace_set_close(set);
	}
	for (i = 0; i < TV_ARRAY_SIZE(real); i++) {
		if ((set = open_shared(shared, real[i])) == NULL)
			continue;
		names_vs_pass(set, real[i]);
		tv_trace_set_close(set);
	}
}

/* A held pass waits, idle, and goes on to the end once let go. */
static void
test_hold(void)
{
	struct tv_state_index *idx;
	struct tv_trace_set *set;
	struct timespec ts = { 0, 300000000L };
	char dir[300];
	uint64_t walked;
	bool done = false;
	int tries;

	snprintf(dir, sizeof(dir), "%s/gen-hold", test_dir);
	if (!ok(gen(dir, NULL, "--cpus 2 --events 50000 --seed 5"),
	    "gen-ctf for a held pass") || (set = open_set(dir)) == NULL)
		return;
	idx = tv_state_index_create(set, 0);
	tv_state_index_hold(idx, true);
	ok(tv_state_index_start(idx, false, NULL) == TV_OK, "held pass starts");
	/* it walks up to its first look (slowly under a sanitizer) */
	for (tries = 0; tries < 600 && tv_state_index_walked(idx) < 4095;
	    tries++)
		nanosleep(&(struct timespec){ 0, 50000000L }, NULL);
	nanosleep(&ts, NULL);
	walked = tv_state_index_walked(idx);
	(void)tv_state_index_progress(idx, &done);
	ok(!done && walked == 4095, "held: it stops at its first look "
	    "(%llu records walked), not done", (unsigned long long)walked);
	nanosleep(&ts, NULL);
	is_int((int64_t)tv_state_index_walked(idx), (int64_t)walked,
	    "held: nothing more walked in 0.3 s");
	tv_state_index_hold(idx, false);
	for (tries = 0; tries < 600 && !done; tries++) {
		nanosleep(&(struct timespec){ 0, 50000000L }, NULL);
		(void)tv_state_index_progress(idx, &done);
	}
	ok(done, "let go: the pass ends");
	is_int((int64_t)tv_state_index_events(idx), 50000,
	    "let go: every event counted");
	tv_state_index_destroy(idx);
	tv_trace_set_close(set);
}

/* ---- the state walk against tv_state_apply() ---- */

/* A caller's work beside the state's: the record's index as its bytes. */
static enum tv_status
walk_index_work(void *arg, const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *out, uint8_t *flags, struct tv_error *err)
{
	(void)arg;
	(void)arena;
	(void)err;
	tv_strbuf_add(out, (const char *)&ev->index, sizeof(ev->index));
	*flags = (uint8_t)(ev->index & 0x7f);
	return TV_OK;
}

/* Whether two states hold the same threads, in the same order. */
static bool
same_threads(const struct tv_state *a, const struct tv_state *b)
{
	const struct tv_thread *ta, *tb;
	size_t na, nb;

	ta = tv_state_threads(a, &na);
	tb = tv_state_threads(b, &nb);
	return na == nb && (na == 0 || memcmp(ta, tb, na * sizeof(*ta)) == 0);
}

/*
 * The records of @set walked by tv_state_walk on @nthreads workers (with
 * a work of the caller's when @work) against the merger and
 * tv_state_apply(): the same records in the same order, each with the
 * same owner and the caller's bytes, and the same threads every so
 * often and at the end.
 */
static void
walk_vs_apply(struct tv_trace_set *set, const char *name, unsigned nthreads,
    bool work)
{
	struct tv_state *s1 = tv_state_create(set), *s2 = tv_state_create(set);
	struct tv_event_owner o1, o2;
	struct tv_state_walk *w;
	struct tv_pwalk_item it;
	struct tv_merge *m;
	struct tv_event ev;
	uint64_t n = 0, bad_pos = 0, bad_owner = 0, bad_bytes = 0;
	uint64_t bad_state = 0;

	m = tv_merge_create(set);
	tv_merge_seek_begin(m);
	w = tv_state_walk_start(set, s2, INT64_MIN, INT64_MAX, NULL,
	    work ? walk_index_work : NULL, NULL, nthreads, TV_PAGES_RELEASE);
	while (tv_merge_next(m, &ev) == TV_OK) {
		if (tv_state_walk_next(w, &it) != TV_OK) {
			bad_pos++;
			break;
		}
		n++;
		if (it.ev.stream != ev.stream || it.ev.packet != ev.packet ||
		    it.ev.index != ev.index) {
			if (bad_pos++ < 3)
				diag("%s: record %llu differs", name,
				    (unsigned long long)n);
			continue;
		}
		if (work && (it.len != sizeof(ev.index) ||
		    memcmp(it.bytes, &ev.index, sizeof(ev.index)) != 0 ||
		    it.flags != (ev.index & 0x7f)))
			bad_bytes++;
		(void)tv_state_apply(s1, &ev, &o1, NULL);
		tv_state_walk_apply(w, &o2);
		if (o1.tid != o2.tid || o1.pid != o2.pid ||
		    o1.from_context != o2.from_context ||
		    strcmp(o1.name, o2.name) != 0) {
			if (bad_owner++ < 3)
				diag("%s: record %llu: owner %lld/%lld %s, walk "
				    "%lld/%lld %s", name, (unsigned long long)n,
				    (long long)o1.tid, (long long)o1.pid,
				    o1.name, (long long)o2.tid,
				    (long long)o2.pid, o2.name);
		}
		if (n % 997 == 0 && !same_threads(s1, s2))
			bad_state++;
	}
	if (bad_pos == 0 && tv_state_walk_next(w, &it) != TV_END)
		bad_pos++;
	is_int((int64_t)bad_pos, 0, "%s, %u workers%s: the walk gives the "
	    "merger's %llu records", name, nthreads, work ? ", with work" : "",
	    (unsigned long long)n);
	is_int((int64_t)bad_owner, 0, "%s: every owner as tv_state_apply's",
	    name);
	is_int((int64_t)bad_bytes, 0, "%s: the caller's bytes and flags",
	    name);
	ok(bad_state == 0 && same_threads(s1, s2), "%s: the same threads "
	    "all along (%llu differed)", name, (unsigned long long)bad_state);
	tv_state_walk_destroy(w);
	tv_merge_destroy(m);
	tv_state_destroy(s1);
	tv_state_destroy(s2);
}

/* The walk on a generated trace and on real ones with owner contexts. */
static void
test_walk(const char *shared)
{
	static const char *const real[] = {
		"tc-context-switches-ust", "tc-many-threads",
		"bt-wk-heartbeat-u",
	};
	struct tv_trace_set *set;
	char dir[300], path[512];
	size_t i;

	snprintf(dir, sizeof(dir), "%s/gen-walk", test_dir);
	if (!ok(gen(dir, NULL, "--cpus 3 --events 60000 --seed 11"),
	    "gen-ctf ran") || (set = open_set(dir)) == NULL)
		return;
	walk_vs_apply(set, "generated", 1, false);
	walk_vs_apply(set, "generated", 3, true);
	tv_trace_set_close(set);
	for (i = 0; i < TV_ARRAY_SIZE(real); i++) {
		snprintf(path, sizeof(path), "traces/ctf/%s", real[i]);
		if ((set = open_shared(shared, path)) == NULL)
			continue;
		walk_vs_apply(set, real[i], 2, i == 0);
		tv_trace_set_close(set);
	}
	/* trace.dat: the owner in the payload, rules with hooks */
	if (shared == NULL || shared[0] == '\0' || !have_format("tracedat")) {
		tv_skip("no TVIEW_SHARED or no trace.dat driver: no ftrace walk");
		return;
	}
	snprintf(path, sizeof(path), "%s/traces/ftrace/lisa-sched_load/"
	    "trace.dat", shared);
	set = open_set(path);
	if (set == NULL) {
		tv_skip("lisa-sched_load not readable");
		return;
	}
	walk_vs_apply(set, "lisa-sched_load", 2, true);
	tv_trace_set_close(set);
}

/* Set up a scratch dir (also the cache home), run every group. */
int
main(void)
{
	static const char *const real[] = {
		"tc-many-threads", "cts-stream-pass-lttng-modules-2.0-pre5",
		"tc-synctraces-scp_src", "tc-synctraces-scp_dest",
	};
	static const char *const ftrace[] = {
		"lisa-sched_load", "derived-lisa-sched_load-v7-nocompress",
		"driver-irq-arm32", "kernel-monitor-framework-rpi",
		"labsisop-tutorial3", "langraph-v7-zstd", "lisa-example_rtapp",
	};
	const char *shared = getenv("TVIEW_SHARED");
	char cmd[300], path[512];
	size_t i;

	snprintf(test_dir, sizeof(test_dir), "/tmp/tview-test-state.%ld",
	    (long)getpid());
	mkdir(test_dir, 0700);
	setenv("XDG_CACHE_HOME", test_dir, 1);
	unsetenv("TVIEW_CACHE");
	test_rules();
	test_rules_fake();
	test_gen_truth();
	test_checkpoints();
	test_lost();
	test_decode_contexts(shared);
	test_walk(shared);
	test_hold();
	test_counts_after_pass();
	test_names(shared);
	for (i = 0; i < TV_ARRAY_SIZE(real); i++) {
		if (shared == NULL || shared[0] == '\0')
			tv_skip("TVIEW_SHARED not set: no real trace %s",
			    real[i]);
		else
			test_invariants(shared, real[i]);
	}
	for (i = 0; i < TV_ARRAY_SIZE(ftrace); i++) {
		if (shared == NULL || shared[0] == '\0')
			tv_skip("TVIEW_SHARED not set: no ftrace sample %s",
			    ftrace[i]);
		else if (!have_format("tracedat"))
			tv_skip("no trace.dat driver: cannot check %s",
			    ftrace[i]);
		else {
			snprintf(path, sizeof(path),
			    "%s/traces/ftrace/%s/trace.dat", shared, ftrace[i]);
			test_ftrace(path, ftrace[i]);
		}
	}
	test_recorded(shared);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", test_dir);
	if (system(cmd) != 0)
		diag("cannot remove %s", test_dir);
	return tv_done();
}
