/*
 * Reading spans (span.h): which event classes enter or leave a span is
 * decided once per class from the driver's span rules; a span record is
 * then decoded and its depth, function and times read by field name.
 */
#include "tview/tview.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/format.h"
#include "tview/span.h"
#include "tview/util.h"

/* Per class: not looked at yet, no span, or which end of which rule. */
struct span_class {
	const struct tv_span_rule *rule;	/* NULL: no span */
	uint8_t			 known;
	uint8_t			 end;		/* enum tv_span_end */
};

struct span_trace {
	const struct tv_trace	*trace;
	struct span_class	*classes;	/* nclasses */
	uint32_t		 nclasses;
};

struct tv_span_reader {
	struct span_trace	*traces;
	uint32_t		 ntraces;
	const struct tv_stream	*last_stream;
	struct span_trace	*last;
	struct tv_arena		 arena;
};

/* See span.h. */
struct tv_span_reader *
tv_span_reader_create(const struct tv_trace_set *set)
{
	struct tv_span_reader *r = tv_xcalloc(1, sizeof(*r));
	uint32_t i;

	r->ntraces = set->ntraces;
	r->traces = tv_xcalloc(set->ntraces + 1, sizeof(*r->traces));
	for (i = 0; i < set->ntraces; i++)
		r->traces[i].trace = set->traces[i];
	tv_arena_init(&r->arena);
	return r;
}

/* See span.h. */
void
tv_span_reader_destroy(struct tv_span_reader *r)
{
	uint32_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->ntraces; i++)
		free(r->traces[i].classes);
	free(r->traces);
	tv_arena_fini(&r->arena);
	free(r);
}

/*
 * The span_trace of @stream's trace, its table grown to the classes
 * the trace has now (a trace followed gains some; so does the set:
 * a trace not met yet is added).
 */
static struct span_trace *
span_trace_of(struct tv_span_reader *r, const struct tv_stream *stream)
{
	const struct tv_trace *tr = stream->trace;
	struct span_trace *st;
	uint32_t i;

	if (stream == r->last_stream && r->last->nclasses >= tr->nclasses)
		return r->last;
	for (i = 0; i < r->ntraces && r->traces[i].trace != tr; i++)
		continue;
	if (i == r->ntraces) {
		r->traces = tv_xreallocarray(r->traces, r->ntraces + 1,
		    sizeof(*r->traces));
		memset(&r->traces[i], 0, sizeof(r->traces[i]));
		r->traces[i].trace = tr;
		r->ntraces++;
	}
	st = &r->traces[i];
	if (st->nclasses < tr->nclasses) {
		st->classes = tv_xreallocarray(st->classes, tr->nclasses,
		    sizeof(*st->classes));
		memset(st->classes + st->nclasses, 0, sizeof(*st->classes) *
		    (tr->nclasses - st->nclasses));
		st->nclasses = tr->nclasses;
	}
	r->last_stream = stream;
	r->last = st;
	return st;
}

/* Decide once which end of which rule class @cls is. */
static void
span_classify(struct span_class *sc, const struct tv_trace *tr,
    const struct tv_event_class *cls)
{
	const struct tv_span_rule *rule;

	sc->known = 1;
	if (tr->ops == NULL || tr->ops->span_rules == NULL || cls == NULL)
		return;
	for (rule = tr->ops->span_rules; rule->entry != NULL; rule++) {
		if (tv_rule_name_matches(rule->entry, cls->name)) {
			sc->rule = rule;
			sc->end = TV_SPAN_ENTRY;
			return;
		}
		if (tv_rule_name_matches(rule->exit, cls->name)) {
			sc->rule = rule;
			sc->end = TV_SPAN_EXIT;
			return;
		}
	}
}

/* Integer member @name of @p; false if absent. */
static bool
span_int(const struct tv_value *p, const char *name, int64_t *out)
{
	return name != NULL && tv_value_as_int(tv_value_member(p, name), out);
}

/* See span.h. */
bool
tv_span_read(struct tv_span_reader *r, const struct tv_event *ev,
    struct tv_span *out)
{
	struct tv_event_fields f;
	const struct tv_value *p, *fn;
	struct span_trace *st;
	struct span_class *sc;
	int64_t v, call, ret;

	memset(out, 0, sizeof(*out));
	if (ev->rec.kind != TV_REC_EVENT ||
	    (st = span_trace_of(r, ev->stream)) == NULL ||
	    ev->rec.class_index >= st->nclasses)
		return false;
	sc = &st->classes[ev->rec.class_index];
	if (!sc->known)
		span_classify(sc, st->trace,
		    st->trace->classes[ev->rec.class_index]);
	if (sc->rule == NULL)
		return false;
	tv_arena_reset(&r->arena);
	if (tv_event_decode_scopes(ev, &r->arena, &f,
	    TV_SCOPE_BIT(TV_SCOPE_EVENT_PAYLOAD), NULL) != TV_OK)
		return false;
	p = f.scope[TV_SCOPE_EVENT_PAYLOAD];
	if (!span_int(p, sc->rule->depth, &out->depth))
		return false;
	fn = tv_value_member(p, sc->rule->func);
	if (tv_value_as_int(fn, &v))
		out->func = (uint64_t)v;
	else if (!tv_value_str(fn, out->name, sizeof(out->name)))
		return false;
	if (sc->end == TV_SPAN_EXIT) {
		/* times are ns since boot: negative ones are no times */
		if (!span_int(p, sc->rule->calltime, &call) ||
		    !span_int(p, sc->rule->rettime, &ret) || call < 0 ||
		    ret < call)
			return false;
		out->begin = call;
		out->dur = ret - call;
	}
	out->end = (enum tv_span_end)sc->end;
	return true;
}

/* See span.h. */
void
tv_span_name(const struct tv_event *ev, const struct tv_span *sp, char *buf,
    size_t size)
{
	const struct tv_trace *tr = ev->stream->trace;

	if (size == 0)
		return;
	if (sp->name[0] != '\0') {
		snprintf(buf, size, "%s", sp->name);
		return;
	}
	if (tr->ops != NULL && tr->ops->symbol != NULL &&
	    tr->ops->symbol(tr, sp->func, buf, size))
		return;
	snprintf(buf, size, "0x%" PRIx64, sp->func);
}
