/*
 * Flat reads (flat.h) against the value tree: every top-level member of
 * every record's contexts and payload that a driver will read flat must
 * read as the tree decodes it (integers as tv_value_as_int(), texts as
 * tv_value_str()), alone and with the class's other members in one plan;
 * and the owner read from the members tv_event_owner_sources() names is
 * tv_event_owner() of the decoded record.  On gen-ctf (both byte
 * orders, both event headers), gen-ctf2 and every CTF trace of
 * $TVIEW_SHARED/traces/ctf.
 */
#include "tview/tview.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tview/flat.h"
#include "tview/format.h"
#include "tview/owner.h"
#include "tview/packet-cache.h"
#include "tview/trace.h"
#include "../tap.h"

/* Records read per trace at most: the samples are small, gen-ctf's too. */
#define RECORDS_MAX	300000

/* The scopes a flat read reaches, in their order in a record. */
static const enum tv_scope flat_scopes[] = {
	TV_SCOPE_EVENT_COMMON_CONTEXT,
	TV_SCOPE_EVENT_SPECIFIC_CONTEXT,
	TV_SCOPE_EVENT_PAYLOAD,
};

/* Per class: the plans, made at its first record. */
struct class_plans {
	bool		 made;
	unsigned	 n;			/* members with a plan */
	struct tv_flat_ask asks[TV_FLAT_MAX];	/* the first of them */
	void		*one[TV_FLAT_MAX];	/* each alone */
	void		*all;			/* all of @asks at once */
	bool		 sources;		/* @source is good */
	struct tv_owner_source source;
	void		*owner;			/* @source's asks */
};

/* What one trace's check counted. */
struct tally {
	uint64_t	 records;
	uint64_t	 values;	/* member values compared */
	uint64_t	 owners;	/* owners compared */
	uint64_t	 refused;	/* reads a plan declined */
	uint64_t	 differ;
};

/* Whether flat value @v is what the tree gives of member @k. */
static bool
same_value(const struct tv_flat_value *v, const struct tv_value *k)
{
	char want[256], got[256];
	int64_t x;

	if (tv_value_as_int(k, &x))
		return v->text == NULL && v->i == x;
	if (!tv_value_str(k, want, sizeof(want)))
		return false;	/* neither: no plan should read it */
	return tv_flat_text(v, got, sizeof(got)) && strcmp(got, want) == 0;
}

/* Make the plans of the class of @ev, decoded into @f. */
static void
plans_make(struct class_plans *cp, const struct tv_event *ev,
    const struct tv_event_fields *f)
{
	const struct tv_trace *t = ev->stream->trace;
	const struct tv_event_class *ec = tv_event_class_of(ev);
	struct tv_flat_ask a;
	const struct tv_value *v;
	size_t s;
	uint32_t m;
	void *p;

	cp->made = true;
	for (s = 0; s < TV_ARRAY_SIZE(flat_scopes); s++) {
		v = f->scope[flat_scopes[s]];
		if (v == NULL || v->fc == NULL || v->fc->kind != TV_FC_STRUCT)
			continue;
		for (m = 0; m < v->kids.count && cp->n < TV_FLAT_MAX; m++) {
			a.scope = (uint8_t)flat_scopes[s];
			a.member = (uint16_t)m;
			p = tv_event_flat_plan(t, ec, &a, 1);
			if (p == NULL)
				continue;
			cp->asks[cp->n] = a;
			cp->one[cp->n++] = p;
		}
	}
	if (cp->n > 0)
		cp->all = tv_event_flat_plan(t, ec, cp->asks, cp->n);
	cp->sources = tv_event_owner_sources(f, NULL, &cp->source);
	if (cp->sources && cp->source.nask > 0)
		cp->owner = tv_event_flat_plan(t, ec, cp->source.ask,
		    cp->source.nask);
}

static void
plans_free(struct class_plans *cp)
{
	unsigned i;

	for (i = 0; i < cp->n; i++)
		free(cp->one[i]);
	free(cp->all);
	free(cp->owner);
}

/* The tree's member @a of @f. */
static const struct tv_value *
member(const struct tv_event_fields *f, const struct tv_flat_ask *a)
{
	return &f->scope[a->scope]->kids.items[a->member];
}

/* A flat read's values, kept (copied) for the comparisons. */
struct kept {
	unsigned		 n;
	struct tv_flat_value	 v[TV_FLAT_MAX];
	char			 text[TV_FLAT_MAX][256];
	struct tv_owner_source	*source;	/* else no owner */
	struct tv_event_owner	 owner;
};

/* Keep @n values of a read @v (a tv_flat_use_fn; @arg a struct kept). */
static void
keep(void *arg, const struct tv_flat_value *v)
{
	struct kept *k = arg;
	unsigned i;

	for (i = 0; i < k->n; i++) {
		k->v[i] = v[i];
		if (v[i].text != NULL) {
			/* its bytes, as tv_flat_text() reads them, here */
			(void)tv_flat_text(&v[i], k->text[i],
			    sizeof(k->text[i]));
			k->v[i].text = k->text[i];
			k->v[i].len = strlen(k->text[i]);
		}
	}
	if (k->source != NULL)
		tv_event_owner_flat(k->source, v, &k->owner);
}

/* Compare the flat reads of one record @ev (decoded into @f). */
static void
check_record(const char *name, struct class_plans *cp,
    const struct tv_event *ev, const struct tv_event_fields *f,
    struct tally *t)
{
	struct tv_event_owner want;
	struct kept k;
	unsigned i;

	k.source = NULL;
	for (i = 0; i < cp->n; i++) {
		t->values++;
		k.n = 1;
		if (!tv_event_flat_read(ev, cp->one[i], keep, &k)) {
			t->refused++;
		} else if (!same_value(&k.v[0], member(f, &cp->asks[i]))) {
			if (t->differ++ < 5)
				diag("%s: %s: scope %u member %u (%s) reads "
				    "otherwise flat", name,
				    tv_event_class_of(ev)->name,
				    cp->asks[i].scope, cp->asks[i].member,
				    member(f, &cp->asks[i])->name);
		}
	}
	if (cp->n > 0) {
		t->values++;
		k.n = cp->n;
		if (cp->all == NULL) {
			if (t->differ++ < 5)
				diag("%s: %s: no plan of its %u members at "
				    "once", name, tv_event_class_of(ev)->name,
				    cp->n);
		} else if (!tv_event_flat_read(ev, cp->all, keep, &k)) {
			t->refused++;
		} else {
			for (i = 0; i < cp->n; i++)
				if (!same_value(&k.v[i],
				    member(f, &cp->asks[i])) &&
				    t->differ++ < 5)
					diag("%s: %s: member %u of %u reads "
					    "otherwise with the others", name,
					    tv_event_class_of(ev)->name, i,
					    cp->n);
		}
	}
	if (cp->owner == NULL)
		return;
	t->owners++;
	(void)tv_event_owner(f, &want);
	k.n = 0;
	k.source = &cp->source;
	if (!tv_event_flat_read(ev, cp->owner, keep, &k)) {
		t->refused++;
		return;
	}
	if ((k.owner.tid != want.tid || k.owner.pid != want.pid ||
	    k.owner.from_context != want.from_context ||
	    strcmp(k.owner.name, want.name) != 0) && t->differ++ < 5)
		diag("%s: %s: owner %lld/%lld/%s flat, %lld/%lld/%s decoded",
		    name, tv_event_class_of(ev)->name,
		    (long long)k.owner.tid, (long long)k.owner.pid,
		    k.owner.name, (long long)want.tid, (long long)want.pid,
		    want.name);
}

/* Check every record of trace set @set (up to RECORDS_MAX). */
static struct tally
check_set(struct tv_trace_set *set, const char *name)
{
	struct tv_packet_cache *pc = tv_packet_cache_create(4u << 20);
	struct class_plans *plans[64] = { NULL };
	struct tally t = { 0, 0, 0, 0, 0 };
	struct tv_map_release rel = TV_MAP_RELEASE_INIT;
	struct tv_event_fields f;
	struct tv_arena arena;
	struct tv_event ev;
	uint32_t i, k;
	uint64_t pkt, r;

	tv_arena_init(&arena);
	for (i = 0; i < set->nstreams && t.records < RECORDS_MAX; i++) {
		struct tv_stream *s = set->streams[i];
		uint32_t ti;

		for (ti = 0; ti < set->ntraces; ti++)
			if (set->traces[ti] == s->trace)
				break;
		if (ti >= TV_ARRAY_SIZE(plans))
			continue;
		if (plans[ti] == NULL)
			plans[ti] = tv_xcalloc(s->trace->nclasses + 1,
			    sizeof(*plans[ti]));
		for (pkt = 0; pkt < s->npackets && t.records < RECORDS_MAX;
		    pkt++) {
			const struct tv_packet_events *pe =
			    tv_packet_cache_get(pc, s, pkt);

			ev.stream = s;
			ev.packet = pkt;
			for (r = 0; r < pe->count; r++) {
				struct class_plans *cp;

				ev.index = r;
				ev.rec = pe->recs[r];
				if (ev.rec.kind != TV_REC_EVENT ||
				    ev.rec.class_index >= s->trace->nclasses)
					continue;
				tv_arena_reset(&arena);
				if (tv_event_decode_scopes(&ev, &arena, &f,
				    TV_SCOPES_EVENT, NULL) != TV_OK)
					continue;
				t.records++;
				cp = &plans[ti][ev.rec.class_index];
				if (!cp->made)
					plans_make(cp, &ev, &f);
				check_record(name, cp, &ev, &f, &t);
			}
			tv_packet_release(&rel, s, pkt);
		}
	}
	for (i = 0; i < TV_ARRAY_SIZE(plans); i++) {
		if (plans[i] == NULL)
			continue;
		for (k = 0; k < set->traces[i]->nclasses; k++)
			plans_free(&plans[i][k]);
		free(plans[i]);
	}
	tv_map_release_flush(&rel);
	tv_arena_fini(&arena);
	tv_packet_cache_destroy(pc);
	return t;
}

/* Open @path as a set, NULL (and a note) if it is not readable. */
static struct tv_trace_set *
open_set(const char *path)
{
	struct tv_trace_set *set = NULL;
	struct tv_error err;

	if (tv_trace_set_open(&set, &path, 1, tv_format_registry(),
	    &err) != TV_OK && set != NULL && set->ntraces == 0) {
		tv_trace_set_close(set);
		set = NULL;
	}
	return set;
}

/*
 * gen-ctf @args into @dir: its sched_switch, wake-ups and forks are
 * fixed-layout, so members must be read flat, and read right.
 */
static void
test_gen(const char *dir, const char *args)
{
	struct tv_trace_set *set;
	struct tally t;

	if (!ok(tv_gen_ctf(dir, args), "gen-ctf %s", args) ||
	    !ok((set = open_set(dir)) != NULL, "gen-ctf %s opens", args))
		return;
	t = check_set(set, args);
	ok(t.records > 0 && t.values > t.records / 2 && t.differ == 0 &&
	    t.refused == 0, "gen-ctf %s: %llu members of %llu records read "
	    "flat as decoded (%llu differ, %llu declined)", args,
	    (unsigned long long)t.values, (unsigned long long)t.records,
	    (unsigned long long)t.differ, (unsigned long long)t.refused);
	tv_trace_set_close(set);
}

/* gen-ctf2 (every field class of CTF 2) into @dir, @bo its byte order. */
static void
test_gen2(const char *dir, const char *bo)
{
	const char *top = getenv("top_builddir");
	struct tv_trace_set *set;
	struct tally t;
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && '%s/gen-ctf2' %s '%s' "
	    ">/dev/null", dir, top != NULL ? top : ".", bo, dir);
	if (!ok(system(cmd) == 0, "gen-ctf2 %s", bo) ||
	    !ok((set = open_set(dir)) != NULL, "gen-ctf2 %s opens", bo))
		return;
	t = check_set(set, bo);
	ok(t.records > 0 && t.values > 0 && t.differ == 0 && t.refused == 0,
	    "gen-ctf2 %s: %llu members of %llu records read flat as "
	    "decoded (%llu differ, %llu declined)", bo,
	    (unsigned long long)t.values, (unsigned long long)t.records,
	    (unsigned long long)t.differ, (unsigned long long)t.refused);
	tv_trace_set_close(set);
}

/* Every CTF sample of @shared: one line for all, what differs named. */
static void
test_shared(const char *shared)
{
	struct tally t, all = { 0, 0, 0, 0, 0 };
	struct tv_trace_set *set;
	struct dirent **names;
	char dir[1200], path[1600];
	int n, i, traces = 0, ust = 0;

	if (shared == NULL || shared[0] == '\0') {
		tv_skip("TVIEW_SHARED not set: no CTF samples");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/traces/ctf", shared);
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		tv_skip("no %s", dir);
		return;
	}
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir,
			    names[i]->d_name);
			if ((set = open_set(path)) != NULL) {
				traces++;
				t = check_set(set, names[i]->d_name);
				all.records += t.records;
				all.values += t.values;
				all.owners += t.owners;
				all.differ += t.differ;
				all.refused += t.refused;
				ust += t.owners > 0;
				tv_trace_set_close(set);
			}
		}
		free(names[i]);
	}
	free(names);
	/* the UST samples name owners in their contexts; a read is
	   declined only where a header was too long to keep its length */
	ok(traces > 0 && all.values > 0 && ust > 0 && all.differ == 0 &&
	    all.refused * 1000 < all.values, "%d CTF samples: %llu members "
	    "and %llu owners (in %d) of %llu records read flat as decoded "
	    "(%llu differ, %llu declined)", traces,
	    (unsigned long long)all.values, (unsigned long long)all.owners,
	    ust, (unsigned long long)all.records,
	    (unsigned long long)all.differ, (unsigned long long)all.refused);
}

int
main(void)
{
	char dir[256], cmd[300];

	snprintf(dir, sizeof(dir), "/tmp/tview-test-flat.%ld",
	    (long)getpid());
	test_gen(dir, "--events 60000 --seed 3");
	test_gen(dir, "--events 30000 --big-endian --seed 4");
	test_gen(dir, "--events 30000 --large-header --packet-size 4096");
	test_gen2(dir, "");
	test_gen2(dir, "--big-endian");
	test_shared(getenv("TVIEW_SHARED"));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("cannot remove %s", dir);
	return tv_done();
}
