/*
 * --dump for LTT: one record printed as LTTV's textDump module prints it
 * ("channel.event: sec.nsec (tracefile), pid, tgid, name, brand, ppid,
 * function, mode { field = value, ... }"), each field with the conversion
 * its marker format gave it, syscall and softirq ids followed by the
 * symbol LTTV's state knew at that time.  The process columns are those
 * of the process running after the record, as LTTV prints them after
 * its state hooks ran (print_record_state, --dump): pid and tgid from
 * tview's process state, the others by LTTV's conventions (ltt-lttv.c);
 * without a state they print as LTTV prints an unknown process.  Loss
 * records become LTTV's warning line.
 * Never translated: this output is data.
 */
#include "tview/tview.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/state.h"
#include "tview/util.h"
#include "ltt-priv.h"

#define NS_PER_S	INT64_C(1000000000)

/* "sec.nsec" as LTTV prints an LttTime. */
static void
print_time(struct tv_strbuf *sb, int64_t ns)
{
	char buf[48];

	if (ns < 0)
		snprintf(buf, sizeof(buf), "-%" PRId64 ".%09" PRId64,
		    -(ns / NS_PER_S), -(ns % NS_PER_S));
	else
		snprintf(buf, sizeof(buf), "%" PRId64 ".%09" PRId64,
		    ns / NS_PER_S, ns % NS_PER_S);
	tv_strbuf_adds(sb, buf);
}

/* One integer with the conversion of its marker field. */
static void
print_int(struct tv_strbuf *sb, const struct ltt_mfield *fd, uint64_t v)
{
	char spec[16], buf[96];

	tv_strbuf_adds(sb, fd->prefix);
	if (!fd->conv)
		return;
	if (fd->conv == 'c') {
		unsigned char c = (unsigned char)v;

		if (c)
			tv_strbuf_addc(sb, (char)c);
		return;
	}
	/* Built here from a fixed set of characters: never trace data. */
	snprintf(spec, sizeof(spec), "%%%sll%c", fd->flags, fd->conv);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (fd->conv == 'd' || fd->conv == 'i')
		snprintf(buf, sizeof(buf), spec, (long long)v);
	else
		snprintf(buf, sizeof(buf), spec, (unsigned long long)v);
#pragma GCC diagnostic pop
	tv_strbuf_adds(sb, buf);
}

/* The name LTTV's state gives id @id at time @ts, or NULL. */
static const char *
sym_lookup(const struct ltt_symtab *tab, uint64_t id, int64_t ts)
{
	const char *name = NULL;
	size_t lo = 0, hi;

	if (!tab)
		return NULL;
	hi = tab->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tab->defs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < tab->n && tab->defs[lo].id == id &&
	    tab->defs[lo].ts <= ts; lo++)
		name = tab->defs[lo].name;
	return name;
}

/* The " [symbol]" LTTV appends to syscall and softirq ids. */
static void
print_annotation(struct tv_strbuf *sb, const struct ltt_trace_priv *tp,
    const struct ltt_marker *m, const struct ltt_mfield *fd, uint64_t v,
    int64_t ts)
{
	const char *ch = tp->channels[m->channel].name;
	const struct ltt_symtab *tab;
	const char *kind, *name;
	char buf[64];

	if (strcmp(ch, "kernel") != 0)
		return;
	if (strcmp(m->name, "syscall_entry") == 0 &&
	    strcmp(fd->name, "syscall_id") == 0) {
		tab = tp->syscalls;
		kind = "syscall";
	} else if ((strcmp(m->name, "softirq_entry") == 0 ||
	    strcmp(m->name, "softirq_exit") == 0 ||
	    strcmp(m->name, "softirq_raise") == 0) &&
	    strcmp(fd->name, "softirq_id") == 0) {
		tab = tp->softirqs;
		kind = "softirq";
	} else {
		return;
	}
	name = sym_lookup(tab, v, ts);
	tv_strbuf_add(sb, " [", 2);
	if (name) {
		tv_strbuf_adds(sb, name);
	} else {
		snprintf(buf, sizeof(buf), "%s %d", kind, (int)v);
		tv_strbuf_adds(sb, buf);
	}
	tv_strbuf_addc(sb, ']');
}

/* LTTV's warning for events or sub-buffers lost before @ev->packet. */
static void
print_loss(const struct tv_event *ev, struct tv_strbuf *sb)
{
	const struct tv_stream *s = ev->stream;
	uint64_t total = 0, i;

	if (ev->packet >= s->npackets)
		return;
	if (ev->rec.kind == TV_REC_LOST_PACKETS) {
		total = s->packets[ev->packet].seq_num - ev->packet;
	} else {
		for (i = 0; i <= ev->packet; i++)
			total += s->packets[i].discarded;
	}
	tv_strbuf_adds(sb, "WARNING: ");
	tv_strbuf_add_u64(sb, total);
	tv_strbuf_adds(sb, ev->rec.kind == TV_REC_LOST_PACKETS ?
	    " subbuffer(s) corrupted so far in tracefile " :
	    " events lost so far in tracefile ");
	tv_strbuf_adds(sb, s->name);
	tv_strbuf_adds(sb, " at block ");
	tv_strbuf_add_u64(sb, ev->packet);
}

/*
 * textDump's process columns "pid, tgid, name, brand, ppid, function,
 * mode": LTTV's pid is a thread id, its tgid the process, both the facts
 * of tview's state (@t, the thread running; none: LTTV's unknown 0);
 * the others by LTTV's conventions (@p, ltt-lttv.c; none: unknown).
 */
static void
print_process(struct tv_strbuf *sb, const struct tv_thread *t,
    const struct ltt_lv_proc *p)
{
	tv_strbuf_add(sb, ", ", 2);
	tv_strbuf_add_i64(sb, t != NULL ? t->tid : 0);
	tv_strbuf_add(sb, ", ", 2);
	tv_strbuf_add_i64(sb, t != NULL && t->pid != TV_TID_UNKNOWN ?
	    t->pid : 0);
	tv_strbuf_add(sb, ", ", 2);
	if (p != NULL)
		ltt_lttv_print(sb, p);
	else
		tv_strbuf_adds(sb, ", , 0, 0x0, MODE_UNKNOWN");
}

/*
 * Print one record of @ev as LTTV's textDump would, @run running; with
 * @lttv, the record goes through LTTV's process rules first, and @out
 * NULL only does that (a record --dump does not print).
 */
static enum tv_status
print_record(const struct tv_event *ev, const struct tv_thread *run,
    bool lttv, struct tv_arena *arena, struct tv_strbuf *out,
    struct tv_error *err)
{
	const struct ltt_lv_proc *proc = NULL;
	const struct tv_stream *s = ev->stream;
	const struct ltt_trace_priv *tp = s->trace->priv;
	const struct tv_event_class *ec;
	const struct ltt_marker *m;
	const struct tv_value *v;
	struct tv_event_fields f;
	enum tv_status st;
	uint32_t i;

	if (ev->rec.kind != TV_REC_EVENT) {
		if (out != NULL)
			print_loss(ev, out);
		return TV_OK;
	}
	st = ltt_decode_fields(ev, arena, &f, TV_SCOPES_ALL, err);
	if (st != TV_OK)
		return st;
	v = f.scope[TV_SCOPE_EVENT_PAYLOAD];
	if (lttv)
		proc = ltt_lttv_apply(ev, v);
	if (out == NULL)
		return TV_OK;
	ec = s->trace->classes[ev->rec.class_index];
	m = ec->priv;
	tv_strbuf_adds(out, ec->name);
	tv_strbuf_add(out, ": ", 2);
	print_time(out, ev->rec.ts);
	tv_strbuf_add(out, " (", 2);
	tv_strbuf_adds(out, s->name);
	tv_strbuf_addc(out, ')');
	print_process(out, run, proc);
	if (!v || m->fmt.nfields == 0)
		return TV_OK;
	tv_strbuf_adds(out, " { ");
	for (i = 0; i < m->fmt.nfields && i < v->kids.count; i++) {
		const struct ltt_mfield *fd = &m->fmt.fields[i];
		const struct tv_value *k = &v->kids.items[i];

		if (i)
			tv_strbuf_add(out, ", ", 2);
		tv_strbuf_adds(out, fd->name);
		tv_strbuf_add(out, " = ", 3);
		switch (fd->type) {
		case LTT_F_SIGNED:
		case LTT_F_UNSIGNED:
			print_int(out, fd, k->u);
			print_annotation(out, tp, m, fd, k->u, ev->rec.ts);
			break;
		case LTT_F_POINTER:
			tv_strbuf_adds(out, "0x");
			{
				char buf[24];

				snprintf(buf, sizeof(buf), "%" PRIx64, k->u);
				tv_strbuf_adds(out, buf);
			}
			break;
		case LTT_F_STRING:
			tv_strbuf_addc(out, '"');
			tv_strbuf_add(out, k->str.ptr ? k->str.ptr : "",
			    k->str.ptr ? k->str.len : 0);
			tv_strbuf_addc(out, '"');
			break;
		default:
			break;
		}
	}
	tv_strbuf_adds(out, " }");
	return TV_OK;
}

/* Print one record of @ev as LTTV would, @run running (--dump). */
enum tv_status
ltt_print_record_state(const struct tv_event *ev, const struct tv_thread *run,
    struct tv_arena *arena, struct tv_strbuf *out, struct tv_error *err)
{
	return print_record(ev, run, true, arena, out, err);
}

/* Print one record of @ev as LTTV would, the process unknown. */
enum tv_status
ltt_print_record(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *out, struct tv_error *err)
{
	return print_record(ev, NULL, false, arena, out, err);
}

/* LTTV textDump's first line (one trace per LTT trace directory). */
enum tv_status
ltt_print_header(const struct tv_trace *trace, struct tv_strbuf *out,
    struct tv_error *err)
{
	(void)trace;
	(void)err;
	tv_strbuf_adds(out, "Trace set contains 1 traces\n");
	return TV_OK;
}

/* LTTV textDump's last lines, after the records. */
enum tv_status
ltt_print_footer(const struct tv_trace *trace, struct tv_strbuf *out,
    struct tv_error *err)
{
	(void)trace;
	(void)err;
	tv_strbuf_adds(out, "End trace set\n");
	return TV_OK;
}

/* Order symbol definitions by id, then time. */
static int
cmp_def(const void *a, const void *b)
{
	const struct ltt_symdef *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->ts > y->ts) - (x->ts < y->ts);
}

/* Collect the (id, symbol) events of @chan.@event into a table. */
static struct ltt_symtab *
load_table(struct tv_trace *t, const char *chan, const char *event)
{
	const struct ltt_trace_priv *tp = t->priv;
	struct ltt_symtab *tab = NULL;
	struct tv_arena scratch;
	uint32_t i, j;
	uint64_t k, r;

	tv_arena_init(&scratch);
	for (i = 0; i < t->nstreams; i++) {
		struct tv_stream *s = t->streams[i];
		const struct ltt_stream_priv *sp = s->priv;

		if (strcmp(tp->channels[sp->channel].name, chan) != 0)
			continue;
		for (k = 0; k < s->npackets; k++) {
			struct tv_packet_events pe;

			memset(&pe, 0, sizeof(pe));
			ltt_decode_packet(s, k, &pe);
			for (r = 0; r < pe.count; r++) {
				const struct tv_event_class *ec;
				const struct tv_value *v, *id = NULL,
				    *sym = NULL;
				struct tv_event_fields f;
				struct tv_event ev;

				if (pe.recs[r].kind != TV_REC_EVENT)
					continue;
				ec = t->classes[pe.recs[r].class_index];
				if (strcmp(((const struct ltt_marker *)
				    ec->priv)->name, event) != 0)
					continue;
				ev.stream = s;
				ev.packet = k;
				ev.index = r;
				ev.rec = pe.recs[r];
				tv_arena_reset(&scratch);
				if (ltt_decode_fields(&ev, &scratch, &f,
				    TV_SCOPES_ALL, NULL) != TV_OK ||
				    !(v = f.scope[TV_SCOPE_EVENT_PAYLOAD]))
					continue;
				for (j = 0; j < v->kids.count; j++) {
					const struct tv_value *kv =
					    &v->kids.items[j];

					if (strcmp(kv->name, "id") == 0)
						id = kv;
					else if (strcmp(kv->name, "symbol") == 0)
						sym = kv;
				}
				if (!id || !sym || sym->fc->kind !=
				    TV_FC_STRING || id->fc->kind != TV_FC_INT)
					continue;
				if (!tab)
					tab = tv_xcalloc(1, sizeof(*tab));
				TV_VEC_GROW(tab->defs, tab->n, tab->cap);
				tab->defs[tab->n].ts = pe.recs[r].ts;
				tab->defs[tab->n].id = id->u;
				tab->defs[tab->n].name = tv_arena_strndup(
				    &t->arena, sym->str.ptr, sym->str.len);
				tab->n++;
			}
			tv_packet_events_fini(&pe);
		}
	}
	tv_arena_fini(&scratch);
	if (tab)
		qsort(tab->defs, tab->n, sizeof(*tab->defs), cmp_def);
	return tab;
}

/* Build the syscall and softirq name tables; see ltt-priv.h. */
void
ltt_load_symbols(struct tv_trace *t)
{
	struct ltt_trace_priv *tp = t->priv;

	tp->syscalls = load_table(t, "syscall_state", "sys_call_table");
	tp->softirqs = load_table(t, "softirq_state", "softirq_vec");
}
