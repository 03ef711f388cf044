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
#include "tview/flat.h"
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

/*
 * Which members give the owner, among the members @hit of each scope
 * (owner_scopes' order; NULL where absent): the one rule, which
 * tv_event_owner_planned() reads values by and tv_event_owner_sources()
 * hands to a flat reader.  It looks at the members' kinds alone, so what
 * it picks for one event of a class it picks for all, when the scopes
 * are structs.  The thread is the first integer of a context's thread
 * fields, the most specific context first, else of the payload's; the
 * process is the first integer of a context's process fields, or of
 * the payload's once the payload named the thread; the name is the
 * first context's procname text that is not empty.
 */
struct owner_pick {
	int8_t		 tid[2];	/* scope, field; -1 if none */
	int8_t		 pid[2];
	int8_t		 name[TV_OWNER_SCOPES];	/* scopes with a procname */
	uint8_t		 nname;
};

/* The first of @names (@n) among @hit that is an integer, or -1. */
static int
pick_int(const struct tv_value *const *hit, const uint8_t *names, size_t n)
{
	int64_t x;
	size_t i;

	for (i = 0; i < n; i++)
		if (tv_value_as_int(hit[names[i]], &x))
			return names[i];
	return -1;
}

/* Whether @v is a text tv_value_str() reads. */
static bool
is_text(const struct tv_value *v)
{
	return v != NULL && v->fc != NULL && (v->fc->kind == TV_FC_STRING ||
	    v->fc->kind == TV_FC_ARRAY || v->fc->kind == TV_FC_SEQUENCE);
}

static void
owner_pick(const struct tv_value *const hit[TV_OWNER_SCOPES][O_COUNT],
    const bool is_struct[TV_OWNER_SCOPES], struct owner_pick *pk)
{
	bool payload;
	size_t i;
	int j;

	memset(pk, -1, sizeof(*pk));
	pk->nname = 0;
	for (i = 0; i < TV_OWNER_SCOPES; i++) {
		payload = owner_scopes[i] == TV_SCOPE_EVENT_PAYLOAD;
		if (!payload && is_text(hit[i][O_PROCNAME]))
			pk->name[pk->nname++] = (int8_t)i;
		/* the numbers are a struct's members only */
		if (!is_struct[i])
			continue;
		if (pk->tid[0] < 0 && (j = pick_int(hit[i], payload ?
		    payload_tid_names : owner_tid_names, payload ?
		    TV_ARRAY_SIZE(payload_tid_names) :
		    TV_ARRAY_SIZE(owner_tid_names))) >= 0) {
			pk->tid[0] = (int8_t)i;
			pk->tid[1] = (int8_t)j;
		}
		/* a payload's process only once a thread is known */
		if (pk->pid[0] < 0 && (!payload || pk->tid[0] >= 0) &&
		    (j = pick_int(hit[i], payload ? payload_pid_names :
		    owner_pid_names, payload ?
		    TV_ARRAY_SIZE(payload_pid_names) :
		    TV_ARRAY_SIZE(owner_pid_names))) >= 0) {
			pk->pid[0] = (int8_t)i;
			pk->pid[1] = (int8_t)j;
		}
	}
}

/*
 * The owner members of each scope of @f, by plan @p (may be NULL) where
 * it was made for the scope's struct class; whether each is a struct
 * into @is_struct.
 */
static void
owner_hits(const struct tv_event_fields *f, const struct tv_owner_plan *p,
    const struct tv_value *hit[TV_OWNER_SCOPES][O_COUNT],
    bool is_struct[TV_OWNER_SCOPES])
{
	const struct tv_value *v;
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(owner_scopes); i++) {
		v = f->scope[owner_scopes[i]];
		is_struct[i] = v != NULL && v->fc != NULL &&
		    v->fc->kind == TV_FC_STRUCT;
		if (v == NULL) {
			memset(hit[i], 0, sizeof(hit[i]));
			continue;
		}
		if (p == NULL || p->fc[i] == NULL || v->fc != p->fc[i] ||
		    !owner_members_at(v, p->at[i], p->name[i], hit[i]))
			owner_members(v, hit[i]);
	}
}

/* See owner.h. */
bool
tv_event_owner_planned(const struct tv_event_fields *f,
    const struct tv_owner_plan *p, struct tv_event_owner *o)
{
	const struct tv_value *hit[TV_OWNER_SCOPES][O_COUNT];
	bool is_struct[TV_OWNER_SCOPES];
	struct owner_pick pk;
	uint8_t k;

	tv_event_owner_reset(o);
	owner_hits(f, p, hit, is_struct);
	owner_pick(hit, is_struct, &pk);
	if (pk.tid[0] >= 0)
		(void)tv_value_as_int(hit[pk.tid[0]][pk.tid[1]], &o->tid);
	if (pk.pid[0] >= 0)
		(void)tv_value_as_int(hit[pk.pid[0]][pk.pid[1]], &o->pid);
	for (k = 0; k < pk.nname && o->name[0] == '\0'; k++)
		(void)tv_value_str(hit[pk.name[k]][O_PROCNAME], o->name,
		    sizeof(o->name));
	o->from_context = pk.tid[0] >= 0;
	return o->from_context;
}

/* The flat ask for member @m of scope index @i of @f. */
static struct tv_flat_ask
source_ask(const struct tv_event_fields *f, size_t i,
    const struct tv_value *m)
{
	struct tv_flat_ask a;

	a.scope = (uint8_t)owner_scopes[i];
	a.member = (uint16_t)(m - f->scope[owner_scopes[i]]->kids.items);
	return a;
}

/* See owner.h. */
bool
tv_event_owner_sources(const struct tv_event_fields *f,
    const struct tv_owner_plan *p, struct tv_owner_source *src)
{
	const struct tv_value *hit[TV_OWNER_SCOPES][O_COUNT], *v;
	bool is_struct[TV_OWNER_SCOPES];
	struct owner_pick pk;
	size_t i;
	uint8_t k;

	memset(src, 0, sizeof(*src));
	src->tid = src->pid = -1;
	/* a variant's members change with its tag */
	for (i = 0; i < TV_ARRAY_SIZE(owner_scopes); i++) {
		v = f->scope[owner_scopes[i]];
		if (v != NULL && (v->fc == NULL ||
		    v->fc->kind == TV_FC_VARIANT ||
		    (v->fc->kind == TV_FC_STRUCT &&
		    (v->kids.count != v->fc->structure.nmembers ||
		    v->kids.count > UINT16_MAX))))
			return false;
	}
	owner_hits(f, p, hit, is_struct);
	owner_pick(hit, is_struct, &pk);
	if (pk.tid[0] >= 0) {
		src->tid = (int8_t)src->nask;
		src->ask[src->nask++] = source_ask(f, (size_t)pk.tid[0],
		    hit[pk.tid[0]][pk.tid[1]]);
	}
	if (pk.pid[0] >= 0) {
		src->pid = (int8_t)src->nask;
		src->ask[src->nask++] = source_ask(f, (size_t)pk.pid[0],
		    hit[pk.pid[0]][pk.pid[1]]);
	}
	for (k = 0; k < pk.nname; k++) {
		src->name[src->nname++] = src->nask;
		src->ask[src->nask++] = source_ask(f, (size_t)pk.name[k],
		    hit[pk.name[k]][O_PROCNAME]);
	}
	return true;
}

/* See owner.h. */
void
tv_event_owner_flat(const struct tv_owner_source *src,
    const struct tv_flat_value *v, struct tv_event_owner *o)
{
	uint8_t k;

	tv_event_owner_reset(o);
	if (src->tid >= 0)
		o->tid = v[src->tid].i;
	if (src->pid >= 0)
		o->pid = v[src->pid].i;
	for (k = 0; k < src->nname && o->name[0] == '\0'; k++)
		(void)tv_flat_text(&v[src->name[k]], o->name, sizeof(o->name));
	o->from_context = src->tid >= 0;
}
