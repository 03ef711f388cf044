/*
 * Reading what a record tells the process state, apart from applying it
 * (state-apply.c): its class's rule, the rule's fields and the owner its
 * own fields name, into a struct state_input.  Reading needs no state
 * but the class facts, so the workers of a walk (state-walk.c) read the
 * records of many packets at once while one thread applies them in
 * timeline order; tv_state_apply() does both in turn.  The input packs
 * into a few bytes, which is how a walk's workers hand it over.
 */
#include "tview/tview.h"

#include <string.h>

#include "tview/flat.h"
#include "tview/format.h"
#include "tview/util.h"
#include "state-priv.h"

/* The longest name a rule reads: an exec's path, cut to its base after. */
#define READ_NAME_MAX	(TV_THREAD_NAME_MAX * 4)

/* Bits of a packed owner. */
#define PACK_FROM_CONTEXT	0x1
#define PACK_TID		0x2
#define PACK_PID		0x4

/* See state-priv.h. */
const struct state_trace *
tv_state_trace_of(const struct tv_state *s, const struct tv_stream *stream)
{
	uint32_t i;

	for (i = 0; i < s->ntraces; i++)
		if (s->traces[i].trace == stream->trace)
			return &s->traces[i];
	return NULL;
}

/*
 * Member @name of struct value @v, trying the index that matched last
 * time first (the same class has the same layout), and keeping the one
 * that matches when @own; NULL if none.
 */
static const struct tv_value *
read_member(const struct tv_value *v, const char *name, uint16_t *hint,
    bool own)
{
	uint32_t i;

	if (v == NULL || v->fc == NULL || v->fc->kind != TV_FC_STRUCT)
		return NULL;
	if (*hint < v->kids.count && v->kids.items[*hint].name != NULL &&
	    strcmp(v->kids.items[*hint].name, name) == 0)
		return &v->kids.items[*hint];
	for (i = 0; i < v->kids.count; i++) {
		if (v->kids.items[i].name != NULL &&
		    strcmp(v->kids.items[i].name, name) == 0) {
			if (own)
				*hint = (uint16_t)TV_MIN(i, 0xffffu);
			return &v->kids.items[i];
		}
	}
	return NULL;
}

/* The first of the '|'-separated field names @names present in @v. */
static const struct tv_value *
read_arg(const struct tv_value *v, const char *names, uint16_t *hint,
    bool own)
{
	const struct tv_value *f;
	const char *bar;
	char one[64];
	size_t n;

	for (;;) {
		bar = strchr(names, '|');
		if (bar == NULL)
			return read_member(v, names, hint, own);
		n = TV_MIN((size_t)(bar - names), sizeof(one) - 1);
		memcpy(one, names, n);
		one[n] = '\0';
		f = read_member(v, one, hint, own);
		if (f != NULL)
			return f;
		names = bar + 1;
	}
}

/*
 * Set the rule's name argument @a of @in from text @p (up to its first
 * NUL, at most @len bytes, cut at READ_NAME_MAX - 1 as a decoded one
 * is), as a thread's name: an exec's file cut to its base.
 */
static void
set_name_arg(const struct state_class *sc, enum tv_state_arg a,
    const char *p, size_t len, struct state_input *in)
{
	size_t n = strnlen(p, TV_MIN(len, (size_t)READ_NAME_MAX - 1)), k;
	char *to;

	/* an exec names the thread after the file it runs */
	if (a == TV_ARG_NAME && sc->rule->action == TV_SA_EXEC) {
		for (k = n; k > 0 && p[k - 1] != '/'; k--)
			continue;
		p += k;
		n -= k;
	}
	n = TV_MIN(n, (size_t)TV_THREAD_NAME_MAX - 1);
	to = a == TV_ARG_NAME ? in->name : in->name2;
	/* zeros after it: one name, one buffer (the tasks scan compares
	   them whole) */
	memset(to, 0, TV_THREAD_NAME_MAX);
	memcpy(to, p, n);
	in->have |= (uint16_t)(1u << a);
}

/* Set the rule's integer argument @a of @in to @v. */
static void
set_int_arg(enum tv_state_arg a, int64_t v, struct state_input *in)
{
	in->arg[a] = v;
	in->have |= (uint16_t)(1u << a);
}

/* Whether the rule's argument @a is a name (else an integer). */
static bool
is_name_arg(enum tv_state_arg a)
{
	return a == TV_ARG_NAME || a == TV_ARG_NAME2;
}

/* Read the rule's argument @a of payload @p into @in. */
static void
read_rule_arg(const struct tv_value *p, struct state_class *sc,
    enum tv_state_arg a, bool own, struct state_input *in)
{
	uint16_t hint = sc->arg_idx[a];
	const struct tv_value *f;
	char name[READ_NAME_MAX];
	int64_t v;

	/* the member found at resolving, where it was: most records */
	if (sc->arg_name[a] != NULL && p != NULL && p->fc != NULL &&
	    p->fc->kind == TV_FC_STRUCT && hint < p->kids.count &&
	    p->kids.items[hint].name == sc->arg_name[a])
		f = &p->kids.items[hint];
	else
		f = read_arg(p, sc->rule->args[a], own ? &sc->arg_idx[a] :
		    &hint, own);
	if (!is_name_arg(a)) {
		if (f != NULL && tv_value_as_int(f, &v))
			set_int_arg(a, v, in);
		return;
	}
	if (tv_value_str(f, name, sizeof(name)))
		set_name_arg(sc, a, name, sizeof(name), in);
}

/* What read_flat() hands tv_event_flat_read(). */
struct flat_reading {
	const struct state_class	*sc;
	uint8_t				 owner;
	struct state_input		*in;
};

/* The values of a flat read into the state input (a tv_flat_use_fn). */
static void
flat_use(void *arg, const struct tv_flat_value *v)
{
	const struct flat_reading *r = arg;
	const struct state_class *sc = r->sc;
	const struct tv_flat_value *x;
	struct state_input *in = r->in;
	enum tv_state_arg a;
	uint8_t i;

	if (r->owner == STATE_OWNER_FIELDS)
		tv_event_owner_flat(&sc->source, v, &in->owner);
	for (i = 0; i < sc->flat_nargs; i++) {
		a = (enum tv_state_arg)sc->flat_args[i].arg;
		x = &v[sc->flat_args[i].ask];
		if (!is_name_arg(a)) {
			if (x->text == NULL)
				set_int_arg(a, x->i, in);
		} else if (x->text != NULL) {
			set_name_arg(sc, a, x->text, x->len, in);
		}
	}
}

/*
 * Read @ev into @in by the flat plan of its class @sc (owner fact
 * @owner): what read_rule_arg() and tv_event_owner_planned() give of a
 * decoded record, with nothing decoded.  False when the record cannot
 * be read so (the caller decodes it), @in as it was.
 */
static bool
read_flat(const struct state_class *sc, uint8_t owner,
    const struct tv_event *ev, struct state_input *in)
{
	struct flat_reading r = { sc, owner, in };

	if (!tv_event_flat_read(ev, sc->flat, flat_use, &r)) {
		/* a fault may have stopped flat_use half way */
		in->have = 0;
		tv_event_owner_reset(&in->owner);
		return false;
	}
	in->how = STATE_IN_READ;
	return true;
}

/* See state-priv.h. */
void
tv_state_read(const struct state_trace *st, const struct tv_event *ev,
    struct tv_arena *arena, struct state_input *in, bool own)
{
	uint8_t (*hook)(const struct tv_state_rule *, const struct tv_value *);
	struct state_class *sc;
	const struct tv_value *p;
	struct tv_event_fields f;
	uint8_t owner;
	uint32_t a;

	in->how = STATE_IN_CLASS;
	in->action = TV_SA_NONE;
	in->have = 0;
	tv_event_owner_reset(&in->owner);
	if (ev->rec.kind != TV_REC_EVENT)
		return;
	if (ev->rec.class_index >= st->nclasses ||
	    !st->classes[ev->rec.class_index].resolved) {
		in->how = STATE_IN_UNREAD;	/* the applier reads it */
		return;
	}
	sc = &st->classes[ev->rec.class_index];
	if (sc->rule != NULL)
		in->action = sc->rule->action;
	if (!tv_state_class_reads(sc))
		return;
	/* a class known to name no owner is not looked at again; one
	   known to name it has a plan of where, and of which scopes to
	   decode (state-apply.c) */
	owner = __atomic_load_n(&sc->owner, __ATOMIC_ACQUIRE);
	if (owner != STATE_OWNER_UNKNOWN && sc->flat != NULL &&
	    read_flat(sc, owner, ev, in))
		return;
	if (tv_event_decode_scopes(ev, arena, &f, owner == STATE_OWNER_FIELDS ?
	    sc->scopes : TV_SCOPES_EVENT, NULL) != TV_OK) {
		in->how = STATE_IN_FAILED;
		return;
	}
	in->how = STATE_IN_READ;
	if (owner != STATE_OWNER_NONE)
		(void)tv_event_owner_planned(&f, owner == STATE_OWNER_FIELDS ?
		    sc->plan : NULL, &in->owner);
	if (sc->rule == NULL)
		return;
	p = f.scope[TV_SCOPE_EVENT_PAYLOAD];
	for (a = 0; a < TV_ARG_COUNT; a++)
		if (sc->rule->args[a] != NULL)
			read_rule_arg(p, sc, (enum tv_state_arg)a, own, in);
	if (sc->rule->action == TV_SA_HOOK) {
		hook = st->trace->ops != NULL ? st->trace->ops->state_hook :
		    NULL;
		in->action = hook != NULL ? hook(sc->rule, p) : TV_SA_NONE;
	}
}

/* ---- packing, for a walk's workers to hand the input over ---- */

/* Append string @s (at most 255 bytes) with its length before it. */
static void
pack_str(struct tv_strbuf *out, const char *s)
{
	uint8_t n = (uint8_t)strnlen(s, TV_MIN(TV_THREAD_NAME_MAX - 1, 255));

	tv_strbuf_add(out, (const char *)&n, 1);
	tv_strbuf_add(out, s, n);
}

/* See state-priv.h. */
void
tv_state_input_pack(const struct state_input *in, struct tv_strbuf *out)
{
	uint8_t head[4] = { in->how, in->action, 0, 0 };
	uint8_t o = 0;
	uint32_t a;

	memcpy(head + 2, &in->have, sizeof(in->have));
	tv_strbuf_add(out, (const char *)head, sizeof(head));
	if (in->how != STATE_IN_READ)
		return;
	for (a = 0; a < TV_ARG_COUNT; a++)
		if ((in->have >> a & 1) && a != TV_ARG_NAME &&
		    a != TV_ARG_NAME2)
			tv_strbuf_add(out, (const char *)&in->arg[a],
			    sizeof(in->arg[a]));
	if (in->have >> TV_ARG_NAME & 1)
		pack_str(out, in->name);
	if (in->have >> TV_ARG_NAME2 & 1)
		pack_str(out, in->name2);
	o |= in->owner.from_context ? PACK_FROM_CONTEXT : 0;
	o |= in->owner.tid != TV_TID_UNKNOWN ? PACK_TID : 0;
	o |= in->owner.pid != TV_TID_UNKNOWN ? PACK_PID : 0;
	tv_strbuf_add(out, (const char *)&o, 1);
	if (o & PACK_TID)
		tv_strbuf_add(out, (const char *)&in->owner.tid,
		    sizeof(in->owner.tid));
	if (o & PACK_PID)
		tv_strbuf_add(out, (const char *)&in->owner.pid,
		    sizeof(in->owner.pid));
	pack_str(out, in->owner.name);
}

/* Take @n bytes at *@p (of *@left) into @to; false if fewer are left. */
static bool
unpack(const char **p, size_t *left, void *to, size_t n)
{
	if (*left < n)
		return false;
	memcpy(to, *p, n);
	*p += n;
	*left -= n;
	return true;
}

/* A string pack_str() wrote, into @to (TV_THREAD_NAME_MAX bytes). */
static bool
unpack_str(const char **p, size_t *left, char *to)
{
	uint8_t n;

	if (!unpack(p, left, &n, 1) || n >= TV_THREAD_NAME_MAX ||
	    !unpack(p, left, to, n))
		return false;
	to[n] = '\0';
	return true;
}

/* See state-priv.h. */
bool
tv_state_input_unpack(const char *p, size_t len, struct state_input *in)
{
	uint8_t head[4], o;
	uint32_t a;

	tv_event_owner_reset(&in->owner);
	if (!unpack(&p, &len, head, sizeof(head)) || head[0] > STATE_IN_READ)
		return false;
	in->how = head[0];
	in->action = head[1];
	memcpy(&in->have, head + 2, sizeof(in->have));
	if (in->how != STATE_IN_READ)
		return len == 0 && in->have == 0;
	for (a = 0; a < TV_ARG_COUNT; a++)
		if ((in->have >> a & 1) && a != TV_ARG_NAME &&
		    a != TV_ARG_NAME2 && !unpack(&p, &len, &in->arg[a],
		    sizeof(in->arg[a])))
			return false;
	if ((in->have >> TV_ARG_NAME & 1) && !unpack_str(&p, &len, in->name))
		return false;
	if ((in->have >> TV_ARG_NAME2 & 1) &&
	    !unpack_str(&p, &len, in->name2))
		return false;
	if (!unpack(&p, &len, &o, 1) ||
	    ((o & PACK_TID) && !unpack(&p, &len, &in->owner.tid,
	    sizeof(in->owner.tid))) ||
	    ((o & PACK_PID) && !unpack(&p, &len, &in->owner.pid,
	    sizeof(in->owner.pid))) ||
	    !unpack_str(&p, &len, in->owner.name))
		return false;
	in->owner.from_context = (o & PACK_FROM_CONTEXT) != 0;
	return len == 0;
}
