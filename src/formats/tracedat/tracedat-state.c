/*
 * What the state layer needs from ftrace (trace.dat) beyond the shared
 * Linux tracepoints: stack traces that echo the event before them and
 * the per-syscall events; and the function_graph tracer's spans, whose
 * exit record carries the call and return times.
 */
#include "tview/span.h"
#include "tview/state-rules.h"

#include <stddef.h>

#include "tracedat-priv.h"

static const struct tv_state_rule td_state_rules[] = {
	/* stack traces recorded with the event before them */
	{ "kernel_stack", TV_SA_ECHO, TV_SR_NOARGS },
	{ "user_stack", TV_SA_ECHO, TV_SR_NOARGS },
	{ "sys_enter_*", TV_SA_SYSCALL_ENTRY, TV_SR_NOARGS },
	{ "sys_exit_*", TV_SA_SYSCALL_EXIT, TV_SR_NOARGS },
	TV_SR_END,
};

/* See tracedat-priv.h: first match wins, the shared tracepoints first. */
const struct tv_state_rule *const td_state_tables[] = {
	tv_linux_state_rules,
	td_state_rules,
	NULL,
};

/* See tracedat-priv.h: function_graph entry and exit records. */
const struct tv_span_rule td_span_rules[] = {
	{ "funcgraph_entry", "funcgraph_exit", "func", "depth", "calltime",
	    "rettime" },
	TV_SPAN_RULE_END,
};
