/*
 * State rules: how a driver tells the state layer what its kernel events
 * do.  Each driver hands tables of rules through tv_format_ops
 * (state_rules, and state_hook for an event whose payload says what
 * happened); the core matches event names against them (state-rules.c)
 * and applies the transitions (state.c), knowing no format.
 */
#ifndef TVIEW_STATE_RULES_H
#define TVIEW_STATE_RULES_H

#include "tview/tview.h"

struct tv_format_ops;

/* What an event does. */
enum tv_state_action {
	TV_SA_NONE,
	TV_SA_SWITCH,		/* TID out (STATE), TID2 in; NAME, NAME2 */
	TV_SA_FORK,		/* TID/PID parent, TID2/PID2 child, NAME2 */
	TV_SA_EXEC,		/* TID (or current), NAME = filename */
	TV_SA_EXIT,		/* TID (or current) */
	TV_SA_FREE,		/* TID */
	TV_SA_WAKEUP,		/* TID, CPU target, NAME */
	TV_SA_STATEDUMP,	/* TID PID PPID NAME STATE(status) CPU */
	TV_SA_KTHREAD,		/* TID: a new kernel thread */
	TV_SA_SYSCALL_ENTRY,
	TV_SA_SYSCALL_EXIT,
	TV_SA_IRQ_ENTRY,
	TV_SA_IRQ_EXIT,
	TV_SA_SOFTIRQ_ENTRY,
	TV_SA_SOFTIRQ_EXIT,
	TV_SA_TRAP_ENTRY,
	TV_SA_TRAP_EXIT,
	/*
	 * A record that repeats the context of the event before it (ftrace
	 * stack traces): its owner never corrects the CPU's current thread.
	 */
	TV_SA_ECHO,
	/*
	 * One event type whose payload says what happened: the driver's
	 * state_hook returns the action (one of the TASK ones below).
	 */
	TV_SA_HOOK,
	TV_SA_TASK_WAKEUP,	/* TID runnable, unless running */
	TV_SA_TASK_NEW,		/* TID a new process, child of the current */
	TV_SA_TASK_EXIT,	/* the current thread exits (TID present) */
};

/* The payload fields a rule reads, by meaning. */
enum tv_state_arg {
	TV_ARG_TID,
	TV_ARG_PID,
	TV_ARG_PPID,
	TV_ARG_NAME,
	TV_ARG_STATE,
	TV_ARG_TID2,
	TV_ARG_PID2,
	TV_ARG_NAME2,
	TV_ARG_CPU,
	TV_ARG_COUNT,
};

/* A rule's fields, in enum tv_state_arg order. */
#define TV_SR_ARGS(tid, pid, ppid, name, st, tid2, pid2, name2, cpu) \
	{ tid, pid, ppid, name, st, tid2, pid2, name2, cpu }
#define TV_SR_NOARGS \
	TV_SR_ARGS(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
/* The rule that ends a table. */
#define TV_SR_END	{ NULL, TV_SA_NONE, TV_SR_NOARGS }

/*
 * One rule.  @pattern is an event name, or a prefix ending in '*'; it is
 * tried on the whole name and then on the part after the last '.' or ':'
 * (LTT "channel.event", ftrace "system:event").  Each arg is a field
 * name or several separated by '|', tried in order; NULL when unused.
 * A table ends with a rule whose pattern is NULL.
 */
struct tv_state_rule {
	const char	*pattern;
	uint8_t		 action;	/* enum tv_state_action */
	const char	*args[TV_ARG_COUNT];
};

/*
 * The Linux scheduler, syscall and IRQ tracepoints as LTTng 2.x (tid)
 * and ftrace (pid) both record them: a table the CTF and trace.dat
 * drivers share (src/formats/linux-rules.c).
 */
extern const struct tv_state_rule tv_linux_state_rules[];

/**
 * tv_state_rule_find() - the first rule of @ops's tables matching
 * @event_name (the whole name in every table, then the part after the
 * last '.' or ':'), or NULL (also when @ops has no rules).
 */
const struct tv_state_rule *tv_state_rule_find(const char *event_name,
		    const struct tv_format_ops *ops);

/**
 * tv_rule_name_matches() - whether @event_name, whole or the part after
 * its last '.' or ':', matches @pattern (exact, or a prefix ending in
 * '*'): how every driver rule names its events.
 */
bool		 tv_rule_name_matches(const char *pattern,
		    const char *event_name);

/**
 * tv_state_rule_label() - what the '*' of @r's pattern matched in
 * @event_name ("openat" of "syscall_entry_openat"), or the name itself
 * (after any "channel." or "system:" part) for an exact pattern.
 */
const char	*tv_state_rule_label(const struct tv_state_rule *r,
		    const char *event_name);

#endif /* TVIEW_STATE_RULES_H */
