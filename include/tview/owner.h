/*
 * Who an event belongs to: the one rule, read from the event's own
 * fields.  The state layer (tv_state_apply) completes it with what it
 * knows (the thread current on the event's CPU, a thread's process);
 * the UI's PID search, --with-pid and the filter's tid/pid all go
 * through here, so they cannot name different tasks for one event.
 */
#ifndef TVIEW_OWNER_H
#define TVIEW_OWNER_H

#include "tview/flat.h"
#include "tview/trace.h"

#define TV_TID_UNKNOWN		INT64_MIN
#define TV_THREAD_NAME_MAX	32	/* bytes, NUL included */

/* Who an event belongs to. */
struct tv_event_owner {
	int64_t		 tid;		/* TV_TID_UNKNOWN if nobody known */
	int64_t		 pid;		/* thread group; TV_TID_UNKNOWN */
	char		 name[TV_THREAD_NAME_MAX];
	bool		 from_context;	/* the event's own fields said so */
};

/**
 * tv_event_owner() - the owner the decoded fields @f of an event name:
 * the thread in its context (tid, else vtid, else common_pid), its
 * process (pid, else vpid; never a tid) and procname, the most specific
 * context first; an ftrace payload's common_pid is a thread too.  @o is
 * reset first; its pid stays unknown when no field says it.  True if a
 * thread was found (then from_context is set).
 */
bool		 tv_event_owner(const struct tv_event_fields *f,
		    struct tv_event_owner *o);

/* The scopes an owner field may lie in, and the fields it may be. */
#define TV_OWNER_SCOPES		3
#define TV_OWNER_FIELDS		8

/*
 * Where the owner fields lie in the events of one class (their scopes'
 * structs, member by member), so that reading an owner is a few loads
 * rather than a look at every member's name.  Plain data: made once,
 * then read by any thread.
 */
struct tv_owner_plan {
	/* per scope: the struct class the places are for (NULL: none) */
	const struct tv_field_class	*fc[TV_OWNER_SCOPES];
	/* per scope and field: the member's index, -1 if absent, and its
	   name as the plan's event had it (the same string, most often) */
	int16_t				 at[TV_OWNER_SCOPES][TV_OWNER_FIELDS];
	const char			*name[TV_OWNER_SCOPES][TV_OWNER_FIELDS];
};

/**
 * tv_event_owner_plan() - where the owner fields lie in fields @f, for
 * tv_event_owner_planned() on other events of the same class.
 */
void		 tv_event_owner_plan(const struct tv_event_fields *f,
		    struct tv_owner_plan *p);

/**
 * tv_event_owner_planned() - tv_event_owner() of @f, reading the members
 * plan @p (may be NULL) places, for each scope whose struct class it was
 * made for; the same answer, whatever the plan.
 */
bool		 tv_event_owner_planned(const struct tv_event_fields *f,
		    const struct tv_owner_plan *p, struct tv_event_owner *o);

/**
 * tv_owner_plan_needs_payload() - false when plan @p places an integer
 * tid and pid in the contexts of its class, whose events then name
 * their owner wholly there: tv_event_owner_planned() does not look at
 * their payload, which need not be decoded.
 */
bool		 tv_owner_plan_needs_payload(const struct tv_owner_plan *p);

/*
 * Which members name the owner of every event of one class, as flat
 * reads (flat.h): the indexes in @ask of the thread's and the process's
 * (-1: none), and of the procnames, tried in turn for one not empty.
 */
struct tv_owner_source {
	struct tv_flat_ask	 ask[2 + TV_OWNER_SCOPES];
	uint8_t			 nask;
	int8_t			 tid;
	int8_t			 pid;
	uint8_t			 name[TV_OWNER_SCOPES];
	uint8_t			 nname;
};

/**
 * tv_event_owner_sources() - which members of its scopes name the owner
 * of @f's event, as tv_event_owner_planned() (plan @p, may be NULL)
 * picks them: by their kinds alone, so for every event of its class.
 * False when a scope is a variant (its members change with its tag),
 * has no class, or is a struct not decoded whole.
 */
bool		 tv_event_owner_sources(const struct tv_event_fields *f,
		    const struct tv_owner_plan *p,
		    struct tv_owner_source *src);

/**
 * tv_event_owner_flat() - the owner @v says, the values a flat read of
 * @src's asks gave (in their order): tv_event_owner() of the same
 * record.
 */
void		 tv_event_owner_flat(const struct tv_owner_source *src,
		    const struct tv_flat_value *v, struct tv_event_owner *o);

/** tv_event_owner_reset() - @o names nobody. */
void		 tv_event_owner_reset(struct tv_event_owner *o);

#endif /* TVIEW_OWNER_H */
