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

/* The owner fields a scope may hold, by their index in owner_names
 * (TV_OWNER_FIELDS of them, a plan's). */
enum owner_name {
	O_TID, O_VTID, O_COMMON_PID, O_PID, O_VPID, O_PROCNAME, O_PERF_TID,
	O_PERF_PID, O_COUNT,
};
static const char *const owner_names[O_COUNT] = {
	"tid", "vtid", "common_pid", "pid", "vpid", "procname", "perf_tid",
	"perf_pid",
};

_Static_assert(O_COUNT == TV_OWNER_FIELDS, "a plan holds every field");
_Static_assert(sizeof(owner_scopes) / sizeof(owner_scopes[0]) ==
    TV_OWNER_SCOPES, "a plan holds every scope");

/* The thread fields of a context, in the order they are believed. */
static const uint8_t owner_tid_names[] = { O_TID, O_VTID, O_COMMON_PID };
/* The process fields of a context. */
static const uint8_t owner_pid_names[] = { O_PID, O_VPID };
/* perf_tid first: perf copies common_pid from the sample's tid */
static const uint8_t payload_tid_names[] = { O_PERF_TID, O_COMMON_PID };
static const uint8_t payload_pid_names[] = { O_PERF_PID };

/*
 * The first member of struct (or variant) @v of each owner name, in one
 * pass over its members: an event list or a search asks for every row,
 * and most members are none of them (their first letter says so).
 */
static void
owner_members(const struct tv_value *v, const struct tv_value *hit[O_COUNT])
{
	uint32_t i, j;

	memset(hit, 0, sizeof(*hit) * O_COUNT);
	if (v->fc == NULL || (v->fc->kind != TV_FC_STRUCT &&
	    v->fc->kind != TV_FC_VARIANT))
		return;
	for (i = 0; i < v->kids.count; i++) {
		const struct tv_value *k = &v->kids.items[i];

		if (k->name == NULL)
			continue;
		for (j = 0; j < O_COUNT; j++)
			if (hit[j] == NULL &&
			    owner_names[j][0] == k->name[0] &&
			    strcmp(owner_names[j], k->name) == 0)
				hit[j] = k;
	}
}

/*
 * owner_members() by plan @at (made for @v's struct class): each
 * member's place checked by its name, so a plan can only save time;
 * false when @v's members do not lie where the plan says.
 */
static bool
owner_members_at(const struct tv_value *v, const int16_t *at,
    const char *const *name, const struct tv_value *hit[O_COUNT])
{
	const struct tv_value *k;
	uint32_t j;

	if (v->kids.count != v->fc->structure.nmembers)
		return false;
	for (j = 0; j < O_COUNT; j++) {
		hit[j] = NULL;
		if (at[j] < 0)
			continue;
		k = &v->kids.items[at[j]];
		if (k->name != name[j] && (k->name == NULL ||
		    strcmp(k->name, owner_names[j]) != 0))
			return false;
		hit[j] = k;
	}
	return true;
}

/* See owner.h. */
void
tv_event_owner_plan(const struct tv_event_fields *f, struct tv_owner_plan *p)
{
	const struct tv_value *v, *hit[O_COUNT];
	size_t i, j;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < TV_ARRAY_SIZE(owner_scopes); i++) {
		v = f->scope[owner_scopes[i]];
		for (j = 0; j < O_COUNT; j++)
			p->at[i][j] = -1;
		/* a struct's members are its class's, in order */
		if (v == NULL || v->fc == NULL || v->fc->kind != TV_FC_STRUCT ||
		    v->kids.count != v->fc->structure.nmembers ||
		    v->kids.count > INT16_MAX)
			continue;
		owner_members(v, hit);
		for (j = 0; j < O_COUNT; j++)
			if (hit[j] != NULL) {
				p->at[i][j] = (int16_t)(hit[j] - v->kids.items);
				p->name[i][j] = hit[j]->name;
			}
		p->fc[i] = v->fc;
	}
}

/*
 * The first integer among the members @hit of struct @v named @names;
 * false if none.
 */
static bool
owner_int(const struct tv_value *v, const struct tv_value *const *hit,
    const uint8_t *names, size_t n, int64_t *out)
{
	size_t i;

	if (v->fc == NULL || v->fc->kind != TV_FC_STRUCT)
		return false;
	for (i = 0; i < n; i++)
		if (tv_value_as_int(hit[names[i]], out))
			return true;
	return false;
}

/* Whether plan @p places an integer named one of @names in scope @i. */
static bool
plan_int(const struct tv_owner_plan *p, size_t i, const uint8_t *names,
    size_t n)
{
	const struct tv_field_class *m;
	size_t j;
	int at;

	for (j = 0; j < n; j++) {
		at = p->at[i][names[j]];
		if (at < 0 || (uint32_t)at >= p->fc[i]->structure.nmembers)
			continue;
		m = p->fc[i]->structure.members[at].fc;
		if (m != NULL && (m->kind == TV_FC_INT || m->kind == TV_FC_ENUM))
			return true;
	}
	return false;
}

/* See owner.h. */
bool
tv_owner_plan_needs_payload(const struct tv_owner_plan *p)
{
	bool tid = false, pid = false;
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(owner_scopes); i++) {
		if (owner_scopes[i] == TV_SCOPE_EVENT_PAYLOAD ||
		    p->fc[i] == NULL || p->fc[i]->kind != TV_FC_STRUCT)
			continue;
		tid = tid || plan_int(p, i, owner_tid_names,
		    TV_ARRAY_SIZE(owner_tid_names));
		pid = pid || plan_int(p, i, owner_pid_names,
		    TV_ARRAY_SIZE(owner_pid_names));
	}
	/* tv_event_owner_planned looks at the payload for a tid the
	   contexts lack, or a pid when the tid was found */
	return !(tid && pid);
}

/* See owner.h. */
bool
tv_event_owner_never(const struct tv_event_fields *f)
{
	const struct tv_field_class *fc;
	const struct tv_value *v;
	uint32_t i, j, m;

	for (i = 0; i < TV_ARRAY_SIZE(owner_scopes); i++) {
		v = f->scope[owner_scopes[i]];
		if (v == NULL)
			continue;
		fc = v->fc;
		if (fc == NULL || fc->kind == TV_FC_VARIANT)
			return false;	/* members that may change */
		if (fc->kind != TV_FC_STRUCT)
			continue;	/* owner_members() finds none */
		for (m = 0; m < fc->structure.nmembers; m++)
			for (j = 0; j < O_COUNT; j++)
				if (fc->structure.members[m].name != NULL &&
				    strcmp(fc->structure.members[m].name,
				    owner_names[j]) == 0)
					return false;
	}
	return true;
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
	return tv_event_owner_planned(f, NULL, o);
}

/* See owner.h. */
bool
tv_event_owner_planned(const struct tv_event_fields *f,
    const struct tv_owner_plan *p, struct tv_event_owner *o)
{
	const struct tv_value *v, *hit[O_COUNT];
	bool found = false;
	size_t i;
	int64_t n;

	tv_event_owner_reset(o);
	for (i = 0; i < TV_ARRAY_SIZE(owner_scopes); i++) {
		v = f->scope[owner_scopes[i]];
		if (v == NULL)
			continue;
		if (p == NULL || p->fc[i] == NULL || v->fc != p->fc[i] ||
		    !owner_members_at(v, p->at[i], p->name[i], hit))
			owner_members(v, hit);
		if (owner_scopes[i] == TV_SCOPE_EVENT_PAYLOAD) {
			/* a payload's tid is whom the event is about */
			if (!found && owner_int(v, hit, payload_tid_names,
			    TV_ARRAY_SIZE(payload_tid_names), &n)) {
				o->tid = n;
				found = true;
			}
			if (found && o->pid == TV_TID_UNKNOWN &&
			    owner_int(v, hit, payload_pid_names,
			    TV_ARRAY_SIZE(payload_pid_names), &n))
				o->pid = n;
			continue;
		}
		if (!found && owner_int(v, hit, owner_tid_names,
		    TV_ARRAY_SIZE(owner_tid_names), &n)) {
			o->tid = n;
			found = true;
		}
		if (o->pid == TV_TID_UNKNOWN && owner_int(v, hit,
		    owner_pid_names, TV_ARRAY_SIZE(owner_pid_names), &n))
			o->pid = n;
		if (o->name[0] == '\0')
			(void)tv_value_str(hit[O_PROCNAME], o->name,
			    sizeof(o->name));
	}
	o->from_context = found;
	return found;
}
