/*
 * tv_event_owner(): the one place that reads who an event belongs to
 * from its own fields.  LTTng contexts carry tid/vtid, pid/vpid and
 * procname; ftrace records carry common_pid (a thread, despite its
 * name); perf's CTF conversion puts perf_tid and perf_pid in every
 * payload.  A tid is never taken for a pid: the process of a thread the
 * fields do not name is left to the state layer.
 */
#include "tview/tview.h"

#include <string.h>

#include "tview/field.h"
#include "tview/owner.h"

/* The scopes an owner field may live in, most specific first. */
static const enum tv_scope owner_scopes[] = {
	TV_SCOPE_EVENT_SPECIFIC_CONTEXT,
	TV_SCOPE_EVENT_COMMON_CONTEXT,
	TV_SCOPE_EVENT_PAYLOAD,
};

/* The thread fields of a context, in the order they are believed. */
static const char *const owner_tid_names[] = { "tid", "vtid", "common_pid" };
/* The process fields of a context. */
static const char *const owner_pid_names[] = { "pid", "vpid" };

/* The first integer member of struct @v among @names; false if none. */
static bool
owner_int(const struct tv_value *v, const char *const *names, size_t n,
    int64_t *out)
{
	size_t i;

	if (v->fc == NULL || v->fc->kind != TV_FC_STRUCT)
		return false;
	for (i = 0; i < n; i++)
		if (tv_value_as_int(tv_value_member(v, names[i]), out))
			return true;
	return false;
}

/* See owner.h. */
void
tv_event_owner_reset(struct tv_event_owner *o)
{
	o->tid = TV_TID_UNKNOWN;
	o->pid = TV_TID_UNKNOWN;
	o->name[0] = '\0';
	o->from_context = false;
}

/* See owner.h. */
bool
tv_event_owner(const struct tv_event_fields *f, struct tv_event_owner *o)
{
	/* perf_tid first: perf copies common_pid from the sample's tid */
	static const char *const payload_tid[] = { "perf_tid", "common_pid" };
	static const char *const payload_pid[] = { "perf_pid" };
	const struct tv_value *v;
	bool found = false;
	size_t i;
	int64_t n;

	tv_event_owner_reset(o);
	for (i = 0; i < TV_ARRAY_SIZE(owner_scopes); i++) {
		v = f->scope[owner_scopes[i]];
		if (v == NULL)
			continue;
		if (owner_scopes[i] == TV_SCOPE_EVENT_PAYLOAD) {
			/* a payload's tid is whom the event is about */
			if (!found && owner_int(v, payload_tid,
			    TV_ARRAY_SIZE(payload_tid), &n)) {
				o->tid = n;
				found = true;
			}
			if (found && o->pid == TV_TID_UNKNOWN &&
			    owner_int(v, payload_pid,
			    TV_ARRAY_SIZE(payload_pid), &n))
				o->pid = n;
			continue;
		}
		if (!found && owner_int(v, owner_tid_names,
		    TV_ARRAY_SIZE(owner_tid_names), &n)) {
			o->tid = n;
			found = true;
		}
		if (o->pid == TV_TID_UNKNOWN && owner_int(v, owner_pid_names,
		    TV_ARRAY_SIZE(owner_pid_names), &n))
			o->pid = n;
		if (o->name[0] == '\0')
			(void)tv_value_str(tv_value_member(v, "procname"),
			    o->name, sizeof(o->name));
	}
	o->from_context = found;
	return found;
}
