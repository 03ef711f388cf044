/*
 * What LTT's kernel events do to the process state: the LTTng 0.x
 * marker era ("kernel.sched_schedule", ...) and the 2004 facility era
 * ("process.schedchange", ...), whose one "core.process" event says
 * with an enum label (event_sub_id) what happened: ltt_state_hook.
 */
#include "tview/state-rules.h"

#include <stddef.h>
#include <string.h>

#include "tview/field.h"
#include "ltt-priv.h"

/* The arguments both eras' events of a kind name alike. */
#define ARGS_PID	TV_SR_ARGS("pid", NULL, NULL, NULL, NULL, NULL, NULL, \
			    NULL, NULL)
#define ARGS_FORK	TV_SR_ARGS("parent_pid", NULL, NULL, NULL, NULL, \
			    "child_pid", "child_tgid", NULL, NULL)
#define ARGS_WAKEUP	TV_SR_ARGS("pid", NULL, NULL, NULL, NULL, NULL, NULL, \
			    NULL, "cpu_id")
#define ARGS_STATEDUMP	TV_SR_ARGS("pid", "tgid", "parent_pid", "name", \
			    "status", NULL, NULL, NULL, NULL)

static const struct tv_state_rule ltt_state_rules[] = {
	/* ---- LTTng 0.x marker era (channel "kernel", "fs", ...) ---- */
	{ "sched_schedule", TV_SA_SWITCH,
	  TV_SR_ARGS("prev_pid", NULL, NULL, NULL, "prev_state", "next_pid",
	    NULL, NULL, NULL) },
	{ "process_fork", TV_SA_FORK, ARGS_FORK },
	{ "process_exit", TV_SA_EXIT, ARGS_PID },
	{ "process_free", TV_SA_FREE, ARGS_PID },
	{ "sched_try_wakeup", TV_SA_WAKEUP, ARGS_WAKEUP },
	{ "sched_wakeup_new_task", TV_SA_WAKEUP, ARGS_WAKEUP },
	{ "kthread_create", TV_SA_KTHREAD, ARGS_PID },
	{ "process_state", TV_SA_STATEDUMP, ARGS_STATEDUMP },
	{ "syscall_entry", TV_SA_SYSCALL_ENTRY, TV_SR_NOARGS },
	{ "syscall_exit", TV_SA_SYSCALL_EXIT, TV_SR_NOARGS },
	{ "irq_entry", TV_SA_IRQ_ENTRY, TV_SR_NOARGS },
	{ "irq_exit", TV_SA_IRQ_EXIT, TV_SR_NOARGS },
	{ "softirq_entry", TV_SA_SOFTIRQ_ENTRY, TV_SR_NOARGS },
	{ "softirq_exit", TV_SA_SOFTIRQ_EXIT, TV_SR_NOARGS },
	{ "trap_entry", TV_SA_TRAP_ENTRY, TV_SR_NOARGS },
	{ "trap_exit", TV_SA_TRAP_EXIT, TV_SR_NOARGS },
	{ "page_fault_entry", TV_SA_TRAP_ENTRY, TV_SR_NOARGS },
	{ "page_fault_exit", TV_SA_TRAP_EXIT, TV_SR_NOARGS },
	{ "page_fault_nosem_entry", TV_SA_TRAP_ENTRY, TV_SR_NOARGS },
	{ "page_fault_nosem_exit", TV_SA_TRAP_EXIT, TV_SR_NOARGS },
	{ "exec", TV_SA_EXEC,
	  TV_SR_ARGS(NULL, NULL, NULL, "filename", NULL, NULL, NULL, NULL,
	    NULL) },
	/* ---- LTT 0.x facility era ("process", "fs", "statedump") ---- */
	{ "process", TV_SA_HOOK,
	  TV_SR_ARGS("event_data1", NULL, NULL, NULL, "event_sub_id", NULL,
	    NULL, NULL, NULL) },
	{ "schedchange", TV_SA_SWITCH,
	  TV_SR_ARGS("out", NULL, NULL, NULL, "out_state", "in", NULL, NULL,
	    NULL) },
	{ "fork", TV_SA_FORK, ARGS_FORK },
	{ "kernel_thread", TV_SA_KTHREAD, ARGS_PID },
	{ "exit", TV_SA_EXIT, ARGS_PID },
	{ "free", TV_SA_FREE, ARGS_PID },
	{ "wakeup", TV_SA_WAKEUP, ARGS_WAKEUP },
	{ "enumerate_process_state", TV_SA_STATEDUMP, ARGS_STATEDUMP },
	TV_SR_END,
};

/* See ltt-priv.h. */
const struct tv_state_rule *const ltt_state_tables[] = {
	ltt_state_rules,
	NULL,
};

/*
 * See ltt-priv.h: core.process's sub-event, an enum label (WAKEUP, FORK,
 * KTHREAD, EXIT...), says what happened to the process in event_data1.
 */
uint8_t
ltt_state_hook(const struct tv_state_rule *r, const struct tv_value *payload)
{
	const struct tv_value *f;
	const char *label;
	int64_t sub;

	f = tv_value_member(payload, r->args[TV_ARG_STATE]);
	if (f == NULL || f->fc == NULL || f->fc->kind != TV_FC_ENUM ||
	    !tv_value_as_int(f, &sub))
		return TV_SA_NONE;
	label = tv_enum_label(f->fc, (uint64_t)sub);
	if (label == NULL)
		return TV_SA_NONE;
	if (strstr(label, "WAKEUP") != NULL)
		return TV_SA_TASK_WAKEUP;
	if (strstr(label, "FORK") != NULL || strstr(label, "KTHREAD") != NULL)
		return TV_SA_TASK_NEW;
	if (strstr(label, "EXIT") != NULL)
		return TV_SA_TASK_EXIT;
	return TV_SA_NONE;
}
