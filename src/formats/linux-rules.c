/*
 * The state rules of the Linux tracepoints that LTTng 2.x (CTF, thread
 * ids in "tid" fields) and ftrace (trace.dat, "pid" fields) record under
 * the same names: scheduling, raw syscalls, IRQs.  The CTF and trace.dat
 * drivers put this table before their own.
 */
#include "tview/state-rules.h"

#include <stddef.h>

const struct tv_state_rule tv_linux_state_rules[] = {
	/* ---- scheduling: LTTng 2.x (tid) and ftrace (pid) ---- */
	{ "sched_switch", TV_SA_SWITCH,
	  TV_SR_ARGS("prev_tid|prev_pid", NULL, NULL, "prev_comm",
	    "prev_state", "next_tid|next_pid", NULL, "next_comm", NULL) },
	{ "sched_process_fork", TV_SA_FORK,
	  TV_SR_ARGS("parent_tid|parent_pid", "parent_pid", NULL,
	    "parent_comm", NULL, "child_tid|child_pid", "child_pid",
	    "child_comm", NULL) },
	{ "sched_process_exec", TV_SA_EXEC,
	  TV_SR_ARGS("tid|pid", NULL, NULL, "filename", NULL, NULL, NULL, NULL,
	    NULL) },
	{ "sched_process_exit", TV_SA_EXIT,
	  TV_SR_ARGS("tid|pid", NULL, NULL, "comm", NULL, NULL, NULL, NULL,
	    NULL) },
	{ "sched_process_free", TV_SA_FREE,
	  TV_SR_ARGS("tid|pid", NULL, NULL, "comm", NULL, NULL, NULL, NULL,
	    NULL) },
	{ "sched_wakeup", TV_SA_WAKEUP,
	  TV_SR_ARGS("tid|pid", NULL, NULL, "comm", NULL, NULL, NULL, NULL,
	    "target_cpu") },
	{ "sched_wakeup_new", TV_SA_WAKEUP,
	  TV_SR_ARGS("tid|pid", NULL, NULL, "comm", NULL, NULL, NULL, NULL,
	    "target_cpu") },
	{ "sched_waking", TV_SA_WAKEUP,
	  TV_SR_ARGS("tid|pid", NULL, NULL, "comm", NULL, NULL, NULL, NULL,
	    "target_cpu") },
	{ "sys_enter", TV_SA_SYSCALL_ENTRY, TV_SR_NOARGS },
	{ "sys_exit", TV_SA_SYSCALL_EXIT, TV_SR_NOARGS },
	{ "irq_handler_entry", TV_SA_IRQ_ENTRY, TV_SR_NOARGS },
	{ "irq_handler_exit", TV_SA_IRQ_EXIT, TV_SR_NOARGS },
	{ "softirq_entry", TV_SA_SOFTIRQ_ENTRY, TV_SR_NOARGS },
	{ "softirq_exit", TV_SA_SOFTIRQ_EXIT, TV_SR_NOARGS },
	TV_SR_END,
};
