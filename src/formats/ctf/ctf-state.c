/*
 * What the state layer needs from LTTng 2.x kernel traces beyond the
 * shared Linux tracepoints: the statedump, the per-syscall events of
 * every lttng-modules era and its softirq names.
 */
#include "tview/state-rules.h"

#include <stddef.h>

#include "ctf-priv.h"

static const struct tv_state_rule ctf_state_rules[] = {
	{ "lttng_statedump_process_state", TV_SA_STATEDUMP,
	  TV_SR_ARGS("tid", "pid", "ppid", "name", "status", NULL, NULL, NULL,
	    "cpu") },
	/* ---- LTTng 2.x modes ---- */
	{ "syscall_entry_*", TV_SA_SYSCALL_ENTRY, TV_SR_NOARGS },
	{ "syscall_exit_*", TV_SA_SYSCALL_EXIT, TV_SR_NOARGS },
	{ "compat_syscall_entry_*", TV_SA_SYSCALL_ENTRY, TV_SR_NOARGS },
	{ "compat_syscall_exit_*", TV_SA_SYSCALL_EXIT, TV_SR_NOARGS },
	{ "exit_syscall", TV_SA_SYSCALL_EXIT, TV_SR_NOARGS },
	/* lttng-modules 2.0-2.5: one event per syscall, "sys_open" */
	{ "sys_*", TV_SA_SYSCALL_ENTRY, TV_SR_NOARGS },
	{ "irq_softirq_entry", TV_SA_SOFTIRQ_ENTRY, TV_SR_NOARGS },
	{ "irq_softirq_exit", TV_SA_SOFTIRQ_EXIT, TV_SR_NOARGS },
	TV_SR_END,
};

/* See ctf-priv.h: first match wins, the shared tracepoints first. */
const struct tv_state_rule *const ctf_state_tables[] = {
	tv_linux_state_rules,
	ctf_state_rules,
	NULL,
};
