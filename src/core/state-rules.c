/*
 * The one table that maps each format's kernel events to state
 * transitions and names the payload fields each transition reads: LTT 0.x
 * facility era, LTTng 0.x marker era, LTTng 2.x kernel (CTF) and ftrace
 * (trace.dat).  First match wins, so specific names come before prefixes.
 * state.c applies the transitions; nothing else knows event names.
 */
#include "tview/tview.h"

#include <string.h>

#include "state-priv.h"

#define CTF	TV_SFMT_CTF
#define FTR	TV_SFMT_TRACEDAT
#define LTT	TV_SFMT_LTT
#define ANY	TV_SFMT_ALL

/* args: TID PID PPID NAME STATE TID2 PID2 NAME2 CPU */
#define A(tid, pid, ppid, name, st, tid2, pid2, name2, cpu) \
	{ tid, pid, ppid, name, st, tid2, pid2, name2, cpu }
#define NOARGS	A(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)

static const struct tv_state_rule state_rules[] = {
	/* ---- scheduling: LTTng 2.x (tid) and ftrace (pid) ---- */
	{ "sched_switch", CTF | FTR, TV_SA_SWITCH,
	  A("prev_tid|prev_pid", NULL, NULL, "prev_comm", "prev_state",
	    "next_tid|next_pid", NULL, "next_comm", NULL) },
	{ "sched_process_fork", CTF | FTR, TV_SA_FORK,
	  A("parent_tid|parent_pid", "parent_pid", NULL, "parent_comm", NULL,
	    "child_tid|child_pid", "child_pid", "child_comm", NULL) },
	{ "sched_process_exec", CTF | FTR, TV_SA_EXEC,
	  A("tid|pid", NULL, NULL, "filename", NULL, NULL, NULL, NULL,
	    NULL) },
	{ "sched_process_exit", CTF | FTR, TV_SA_EXIT,
	  A("tid|pid", NULL, NULL, "comm", NULL, NULL, NULL, NULL, NULL) },
	{ "sched_process_free", CTF | FTR, TV_SA_FREE,
	  A("tid|pid", NULL, NULL, "comm", NULL, NULL, NULL, NULL, NULL) },
	{ "sched_wakeup", CTF | FTR, TV_SA_WAKEUP,
	  A("tid|pid", NULL, NULL, "comm", NULL, NULL, NULL, NULL,
	    "target_cpu") },
	{ "sched_wakeup_new", CTF | FTR, TV_SA_WAKEUP,
	  A("tid|pid", NULL, NULL, "comm", NULL, NULL, NULL, NULL,
	    "target_cpu") },
	{ "sched_waking", CTF | FTR, TV_SA_WAKEUP,
	  A("tid|pid", NULL, NULL, "comm", NULL, NULL, NULL, NULL,
	    "target_cpu") },
	/* stack traces recorded with the event before them */
	{ "kernel_stack", FTR, TV_SA_ECHO, NOARGS },
	{ "user_stack", FTR, TV_SA_ECHO, NOARGS },
	{ "lttng_statedump_process_state", CTF, TV_SA_STATEDUMP,
	  A("tid", "pid", "ppid", "name", "status", NULL, NULL, NULL,
	    "cpu") },

	/* ---- LTTng 2.x modes ---- */
	{ "syscall_entry_*", CTF, TV_SA_SYSCALL_ENTRY, NOARGS },
	{ "syscall_exit_*", CTF, TV_SA_SYSCALL_EXIT, NOARGS },
	{ "compat_syscall_entry_*", CTF, TV_SA_SYSCALL_ENTRY, NOARGS },
	{ "compat_syscall_exit_*", CTF, TV_SA_SYSCALL_EXIT, NOARGS },
	{ "exit_syscall", CTF, TV_SA_SYSCALL_EXIT, NOARGS },
	{ "sys_enter", CTF | FTR, TV_SA_SYSCALL_ENTRY, NOARGS },
	{ "sys_exit", CTF | FTR, TV_SA_SYSCALL_EXIT, NOARGS },
	{ "sys_enter_*", FTR, TV_SA_SYSCALL_ENTRY, NOARGS },
	{ "sys_exit_*", FTR, TV_SA_SYSCALL_EXIT, NOARGS },
	/* lttng-modules 2.0-2.5: one event per syscall, "sys_open" */
	{ "sys_*", CTF, TV_SA_SYSCALL_ENTRY, NOARGS },
	{ "irq_handler_entry", CTF | FTR, TV_SA_IRQ_ENTRY, NOARGS },
	{ "irq_handler_exit", CTF | FTR, TV_SA_IRQ_EXIT, NOARGS },
	{ "irq_softirq_entry", CTF, TV_SA_SOFTIRQ_ENTRY, NOARGS },
	{ "irq_softirq_exit", CTF, TV_SA_SOFTIRQ_EXIT, NOARGS },
	{ "softirq_entry", CTF | FTR, TV_SA_SOFTIRQ_ENTRY, NOARGS },
	{ "softirq_exit", CTF | FTR, TV_SA_SOFTIRQ_EXIT, NOARGS },

	/* ---- LTTng 0.x marker era (channel "kernel", "fs", ...) ---- */
	{ "sched_schedule", LTT, TV_SA_SWITCH,
	  A("prev_pid", NULL, NULL, NULL, "prev_state", "next_pid", NULL,
	    NULL, NULL) },
	{ "process_fork", LTT, TV_SA_FORK,
	  A("parent_pid", NULL, NULL, NULL, NULL, "child_pid", "child_tgid",
	    NULL, NULL) },
	{ "process_exit", LTT, TV_SA_EXIT,
	  A("pid", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) },
	{ "process_free", LTT, TV_SA_FREE,
	  A("pid", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) },
	{ "sched_try_wakeup", LTT, TV_SA_WAKEUP,
	  A("pid", NULL, NULL, NULL, NULL, NULL, NULL, NULL, "cpu_id") },
	{ "sched_wakeup_new_task", LTT, TV_SA_WAKEUP,
	  A("pid", NULL, NULL, NULL, NULL, NULL, NULL, NULL, "cpu_id") },
	{ "kthread_create", LTT, TV_SA_KTHREAD,
	  A("pid", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) },
	{ "process_state", LTT, TV_SA_STATEDUMP,
	  A("pid", "tgid", "parent_pid", "name", "status", NULL, NULL, NULL,
	    NULL) },
	{ "syscall_entry", LTT, TV_SA_SYSCALL_ENTRY, NOARGS },
	{ "syscall_exit", LTT, TV_SA_SYSCALL_EXIT, NOARGS },
	{ "irq_entry", LTT, TV_SA_IRQ_ENTRY, NOARGS },
	{ "irq_exit", LTT, TV_SA_IRQ_EXIT, NOARGS },
	{ "softirq_entry", LTT, TV_SA_SOFTIRQ_ENTRY, NOARGS },
	{ "softirq_exit", LTT, TV_SA_SOFTIRQ_EXIT, NOARGS },
	{ "trap_entry", LTT, TV_SA_TRAP_ENTRY, NOARGS },
	{ "trap_exit", LTT, TV_SA_TRAP_EXIT, NOARGS },
	{ "page_fault_entry", LTT, TV_SA_TRAP_ENTRY, NOARGS },
	{ "page_fault_exit", LTT, TV_SA_TRAP_EXIT, NOARGS },
	{ "page_fault_nosem_entry", LTT, TV_SA_TRAP_ENTRY, NOARGS },
	{ "page_fault_nosem_exit", LTT, TV_SA_TRAP_EXIT, NOARGS },
	{ "exec", LTT, TV_SA_EXEC,
	  A(NULL, NULL, NULL, "filename", NULL, NULL, NULL, NULL, NULL) },

	/* ---- LTT 0.x facility era ("process", "fs", "statedump") ---- */
	{ "process", LTT, TV_SA_LTT_PROCESS,
	  A("event_data1", NULL, NULL, NULL, "event_sub_id", NULL, NULL,
	    NULL, NULL) },
	{ "schedchange", LTT, TV_SA_SWITCH,
	  A("out", NULL, NULL, NULL, "out_state", "in", NULL, NULL, NULL) },
	{ "fork", LTT, TV_SA_FORK,
	  A("parent_pid", NULL, NULL, NULL, NULL, "child_pid", "child_tgid",
	    NULL, NULL) },
	{ "kernel_thread", LTT, TV_SA_KTHREAD,
	  A("pid", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) },
	{ "exit", LTT, TV_SA_EXIT,
	  A("pid", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) },
	{ "free", LTT, TV_SA_FREE,
	  A("pid", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) },
	{ "wakeup", LTT, TV_SA_WAKEUP,
	  A("pid", NULL, NULL, NULL, NULL, NULL, NULL, NULL, "cpu_id") },
	{ "enumerate_process_state", LTT, TV_SA_STATEDUMP,
	  A("pid", "tgid", "parent_pid", "name", "status", NULL, NULL, NULL,
	    NULL) },
};

/* The format bit of a driver name. */
static uint8_t
rules_format_bit(const char *format_name)
{
	if (format_name == NULL)
		return 0;
	if (strcmp(format_name, "ctf") == 0)
		return TV_SFMT_CTF;
	if (strcmp(format_name, "tracedat") == 0)
		return TV_SFMT_TRACEDAT;
	if (strcmp(format_name, "ltt") == 0)
		return TV_SFMT_LTT;
	return 0;
}

/* Whether @name matches @pattern (exact, or prefix when it ends in '*'). */
static bool
rules_match(const char *pattern, const char *name)
{
	size_t n = strlen(pattern);

	if (n > 0 && pattern[n - 1] == '*')
		return strncmp(pattern, name, n - 1) == 0 &&
		    name[n - 1] != '\0';
	return strcmp(pattern, name) == 0;
}

/* First rule for @fmt matching @name exactly as given. */
static const struct tv_state_rule *
rules_lookup(const char *name, uint8_t fmt)
{
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(state_rules); i++) {
		if ((state_rules[i].formats & fmt) == 0)
			continue;
		if (rules_match(state_rules[i].pattern, name))
			return &state_rules[i];
	}
	return NULL;
}

/* See state-priv.h.  Runs once per event class, not per event. */
const struct tv_state_rule *
tv_state_rule_find(const char *event_name, const char *format_name)
{
	const struct tv_state_rule *r;
	uint8_t fmt = rules_format_bit(format_name);
	const char *dot, *colon, *base;

	if (event_name == NULL || fmt == 0)
		return NULL;
	r = rules_lookup(event_name, fmt);
	if (r != NULL)
		return r;
	dot = strrchr(event_name, '.');
	colon = strrchr(event_name, ':');
	base = dot > colon ? dot : colon;
	if (base == NULL || base[1] == '\0')
		return NULL;
	return rules_lookup(base + 1, fmt);
}

/* See state-priv.h. */
const struct tv_state_rule *
tv_state_rules(size_t *count)
{
	*count = TV_ARRAY_SIZE(state_rules);
	return state_rules;
}

/* See state-priv.h. */
const char *
tv_state_rule_label(const struct tv_state_rule *r, const char *event_name)
{
	const char *base, *dot, *colon;
	size_t n;

	if (r == NULL || event_name == NULL)
		return event_name;
	dot = strrchr(event_name, '.');
	colon = strrchr(event_name, ':');
	base = dot > colon ? dot + 1 : colon != NULL ? colon + 1 : event_name;
	n = strlen(r->pattern);
	if (n == 0 || r->pattern[n - 1] != '*')
		return base;
	if (strncmp(r->pattern, event_name, n - 1) == 0)
		return event_name + n - 1;
	if (strncmp(r->pattern, base, n - 1) == 0)
		return base + n - 1;
	return base;
}
