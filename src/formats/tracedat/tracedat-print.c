/*
 * trace-cmd report's lines for trace.dat records (--dump): the leading
 * "comm-pid [cpu] sec.usec: event_name:" columns and the event text
 * through libtraceevent's tep_print_event with the format strings
 * trace-cmd uses, the "CPU:N [n EVENTS DROPPED]" line before the first
 * record of a page that follows lost events, trace-cmd's
 * function_graph rendering (a leaf entry swallows its exit), and the
 * instance-name prefix of multi-buffer files.  Also the field values of
 * an event for the fields pane, search and state.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "tview/i18n.h"
#include "tracedat-priv.h"

/* A located record: its payload in the page bytes (held: the caller's
 * chunk cache keeps them while taken). */
struct rec_loc {
	const uint8_t	*data;
	uint32_t	 len;
	uint32_t	 rec_off;	/* offset of its header in page data */
};

/*
 * The record of @s's packet @pkt at @bit_offset (where decode_page found
 * it), through chunk cache @c (taken; NULL for data not compressed).
 * Its header is read where it lies, with the page's bounds: its length
 * is there, and the time the page's walk adds up is the record's
 * already (rec.ts).
 * A walk from the page start was quadratic in the records of a page once
 * two threads took turns, each undoing the other's place.
 */
static enum tv_status
locate(struct td_file *f, struct td_chunks *c, const struct tv_stream *s,
    uint64_t pkt, uint64_t bit_offset, struct rec_loc *out,
    struct tv_error *err)
{
	const struct td_stream_priv *sp = s->priv;
	const struct tv_packet *p = &s->packets[pkt];
	struct td_page_iter it;
	const uint8_t *pg;
	uint64_t want = bit_offset / 8;
	enum tv_status st;

	pg = td_cpu_bytes(f, c, sp->cpu, p->offset, p->size, err);
	if (!pg)
		return err ? err->status : TV_CORRUPT;
	st = td_page_begin(&it, f, pg, (uint32_t)p->size, err);
	if (st == TV_OK && want >= it.hdr && want - it.hdr < it.commit) {
		it.next = (uint32_t)(want - it.hdr);
		st = td_page_next(&it, err);
		if (st == TV_OK && it.rec_off == want - it.hdr) {
			out->data = pg + it.hdr + it.data_off;
			out->len = it.data_len;
			out->rec_off = it.rec_off;
			return TV_OK;
		}
	}
	if (st != TV_OK && st != TV_END) {
		td_page_error_pos(f, sp->cpu, p->offset, err);
		return st;
	}
	return tv_error_set(err, TV_NOT_FOUND, NULL, _("no such record"));
}

/*
 * The record next to (@dir > 0) or before (@dir < 0) the one at
 * @bit_offset in stream @s, crossing into the neighbour page if needed.
 * TV_END if there is none.  The payload is copied into @buf (@cap bytes),
 * its timestamp into *@ts.
 */
static enum tv_status
neighbour(struct td_file *f, struct td_chunks *c, const struct tv_stream *s,
    uint64_t pkt, uint64_t bit_offset, int dir, uint8_t *buf, uint32_t cap,
    uint32_t *len, int64_t *ts)
{
	const struct td_stream_priv *sp = s->priv;
	struct td_page_iter it;
	const uint8_t *pg;
	bool found = false;
	uint64_t k = pkt;
	uint32_t cur;

	for (;;) {
		const struct tv_packet *p = &s->packets[k];

		pg = td_cpu_bytes(f, c, sp->cpu, p->offset, p->size, NULL);
		if (!pg || td_page_begin(&it, f, pg, (uint32_t)p->size,
		    NULL) != TV_OK)
			return TV_CORRUPT;
		cur = k == pkt ? (uint32_t)(bit_offset / 8) - it.hdr :
		    (dir > 0 ? 0 : UINT32_MAX);
		while (td_page_next(&it, NULL) == TV_OK) {
			if (dir > 0 && (k != pkt || it.rec_off > cur)) {
				found = true;
				break;
			}
			if (dir < 0 && it.rec_off < cur) {
				found = true;
				*len = TV_MIN(it.data_len, cap);
				memcpy(buf, pg + it.hdr + it.data_off, *len);
				*ts = td_convert_ts(f, sp->cpu->cpu, it.ts);
			}
			if (dir < 0 && it.rec_off >= cur)
				break;
		}
		if (found && dir > 0) {
			*len = TV_MIN(it.data_len, cap);
			memcpy(buf, pg + it.hdr + it.data_off, *len);
			*ts = td_convert_ts(f, sp->cpu->cpu, it.ts);
		}
		if (found)
			return TV_OK;
		if (dir > 0 && k + 1 < s->npackets)
			k++;
		else if (dir < 0 && k > 0)
			k--;
		else
			return TV_END;
	}
}

/* A record found by a scan: its timestamp and a copy of its payload. */
struct found {
	bool		 ok;
	int64_t		 ts;
	int32_t		 cpu;
	uint32_t	 len;
	uint8_t		 buf[256];
};

/* Does (@ts, @cpu) come after (@kts, @kcpu) in report's order? */
static bool
key_after(int64_t ts, int32_t cpu, int64_t kts, int32_t kcpu)
{
	return ts > kts || (ts == kts && cpu > kcpu);
}

/*
 * In another CPU's stream @s: the first record after (@kts, @kcpu) in
 * report's order (@dir > 0), or the last one before it (@dir < 0).
 */
static void
stream_scan(struct td_file *f, struct td_chunks *c,
    const struct tv_stream *s, int64_t kts, int32_t kcpu, int dir,
    struct found *out)
{
	const struct td_stream_priv *sp = s->priv;
	uint64_t lo = 0, hi = s->npackets, k;

	out->ok = false;
	if (s->npackets == 0)
		return;
	/* dir > 0: first page ending at or after kts; else the last page
	 * beginning at or before it */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (dir > 0 ? s->packets[mid].ts_end < kts :
		    s->packets[mid].ts_begin <= kts)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (dir < 0) {
		if (lo == 0)
			return;
		lo--;
	}
	for (k = lo; k < s->npackets; dir > 0 ? k++ : k--) {
		const struct tv_packet *p = &s->packets[k];
		struct td_page_iter it;
		const uint8_t *pg;

		pg = td_cpu_bytes(f, c, sp->cpu, p->offset, p->size, NULL);
		if (!pg || td_page_begin(&it, f, pg, (uint32_t)p->size,
		    NULL) != TV_OK)
			return;
		while (td_page_next(&it, NULL) == TV_OK) {
			int64_t ts = td_convert_ts(f, sp->cpu->cpu, it.ts);
			bool after = key_after(ts, s->cpu, kts, kcpu);

			if (dir < 0 && after)
				break;
			if (dir > 0 && !after)
				continue;
			out->ok = true;
			out->ts = ts;
			out->cpu = s->cpu;
			out->len = TV_MIN(it.data_len, sizeof(out->buf));
			memcpy(out->buf, pg + it.hdr + it.data_off, out->len);
			if (dir > 0)
				return;
		}
		if (out->ok || k == 0)
			return;
	}
}

/*
 * The record that comes right after (@dir > 0) or right before (@dir < 0)
 * @ev in trace-cmd report's order over every CPU of the buffer: lowest
 * timestamp first, the lowest CPU first among equal ones.
 */
static enum tv_status
report_neighbour(struct td_file *f, struct td_chunks *c,
    const struct tv_event *ev, int dir, uint8_t *buf, uint32_t cap,
    uint32_t *len)
{
	const struct tv_trace *t = ev->stream->trace;
	struct found best, cand;
	uint32_t i;

	best.ok = false;
	if (neighbour(f, c, ev->stream, ev->packet, ev->rec.bit_offset, dir,
	    best.buf, sizeof(best.buf), &best.len, &best.ts) == TV_OK) {
		best.ok = true;
		best.cpu = ev->stream->cpu;
	}
	for (i = 0; i < t->nstreams; i++) {
		const struct tv_stream *s = t->streams[i];

		if (s == ev->stream)
			continue;
		stream_scan(f, c, s, ev->rec.ts, ev->stream->cpu, dir, &cand);
		if (!cand.ok)
			continue;
		if (!best.ok || (dir > 0 ?
		    key_after(best.ts, best.cpu, cand.ts, cand.cpu) :
		    key_after(cand.ts, cand.cpu, best.ts, best.cpu)))
			best = cand;
	}
	if (!best.ok)
		return TV_END;
	*len = TV_MIN(best.len, cap);
	memcpy(buf, best.buf, *len);
	return TV_OK;
}

/* An unsigned field of a record, 0 if absent. */
static unsigned long long
field_val(struct tep_event *ev, const char *name, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (!ev || tep_get_field_val(NULL, ev, name, rec, &v, 0) != 0)
		return 0;
	return v;
}

/* The common_pid of a record, 0 if absent. */
static unsigned long long
pid_val(struct tep_event *ev, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (!ev || tep_get_common_field_val(NULL, ev, "common_pid", rec, &v,
	    0) != 0)
		return 0;
	return v;
}

/* Is @data (of @len bytes) a funcgraph_exit of @pid and @func? */
static bool
is_matching_exit(struct td_file *f, const uint8_t *data, uint32_t len,
    unsigned long long pid, unsigned long long func)
{
	struct tep_event *ex;
	struct tep_record r;

	if (f->fgraph_exit_id < 0 || (uint32_t)f->ev_type_off +
	    (uint32_t)f->ev_type_size > len)
		return false;
	if ((int)td_get_u(data + f->ev_type_off, (unsigned)f->ev_type_size,
	    f->be) != f->fgraph_exit_id)
		return false;
	ex = tep_find_event(f->tep, f->fgraph_exit_id);
	memset(&r, 0, sizeof(r));
	r.data = (void *)(uintptr_t)data;
	r.size = (int)len;
	return pid_val(ex, &r) == pid &&
	    field_val(ex, "func", &r) == func;
}

/* trace-cmd's overhead mark for a duration in ns. */
static void
graph_overhead(struct trace_seq *s, unsigned long long d)
{
	if (d == ~0ULL)
		trace_seq_puts(s, "  ");
	else if (d > 1000000000ULL)
		trace_seq_puts(s, "$ ");
	else if (d > 1000000ULL)
		trace_seq_puts(s, "# ");
	else if (d > 100000ULL)
		trace_seq_puts(s, "! ");
	else if (d > 10000ULL)
		trace_seq_puts(s, "+ ");
	else
		trace_seq_puts(s, "  ");
}

/* "usecs.nsecs us " padded to 7 digits, then "|  ". */
static void
graph_duration(struct trace_seq *s, unsigned long long d)
{
	unsigned int start = s->len, n;

	trace_seq_printf(s, "%llu", d / 1000);
	if (s->len - start < 7)
		trace_seq_printf(s, ".%03llu", d % 1000);
	n = s->len - start;
	trace_seq_puts(s, " us ");
	for (; n < 7; n++)
		trace_seq_putc(s, ' ');
	trace_seq_puts(s, "|  ");
}

/* Indentation and "func" name (or address) of a graph line. */
static void
graph_func(struct trace_seq *s, struct tep_handle *tep,
    unsigned long long depth, unsigned long long func, const char *tail)
{
	const char *name = tep_find_function(tep, func);
	unsigned long long i;

	for (i = 0; i < depth * 2 && i < 4096; i++)
		trace_seq_putc(s, ' ');
	if (name)
		trace_seq_printf(s, "%s()%s", name, tail);
	else
		trace_seq_printf(s, "%llx()%s", func, tail);
}

/*
 * funcgraph_entry: a leaf "func();" with its duration when the record
 * report prints next (over all CPUs, as trace-cmd peeks it) is the
 * matching funcgraph_exit, which report then skips; else "func() {".
 */
static void
print_fgraph_entry(struct td_file *f, struct td_chunks *c,
    const struct tv_event *ev, struct tep_event *te, struct tep_record *rec,
    struct trace_seq *s)
{
	unsigned long long pid = pid_val(te, rec);
	unsigned long long func = field_val(te, "func", rec);
	unsigned long long depth = field_val(te, "depth", rec);
	uint8_t nb[256];
	uint32_t nlen = 0;

	if (report_neighbour(f, c, ev, 1, nb, sizeof(nb), &nlen) == TV_OK &&
	    is_matching_exit(f, nb, nlen, pid, func)) {
		struct tep_event *ex = tep_find_event(f->tep,
		    f->fgraph_exit_id);
		struct tep_record xr;
		unsigned long long d;

		memset(&xr, 0, sizeof(xr));
		xr.data = nb;
		xr.size = (int)nlen;
		d = field_val(ex, "rettime", &xr) - field_val(ex, "calltime",
		    &xr);
		graph_overhead(s, d);
		graph_duration(s, d);
		graph_func(s, f->tep, depth, func, ";");
		return;
	}
	graph_overhead(s, ~0ULL);
	trace_seq_puts(s, "           |  ");
	graph_func(s, f->tep, depth, func, " {");
}

/* funcgraph_exit: duration and the closing brace. */
static void
print_fgraph_exit(struct tep_event *te, struct tep_record *rec,
    struct trace_seq *s)
{
	unsigned long long d = field_val(te, "rettime", rec) -
	    field_val(te, "calltime", rec);
	unsigned long long depth = field_val(te, "depth", rec), i;

	graph_overhead(s, d);
	graph_duration(s, d);
	for (i = 0; i < depth * 2 && i < 4096; i++)
		trace_seq_putc(s, ' ');
	trace_seq_putc(s, '}');
}

/* Was this funcgraph_exit already printed with its leaf entry? */
static bool
exit_swallowed(struct td_file *f, struct td_chunks *c,
    const struct tv_event *ev, struct tep_event *te, struct tep_record *rec)
{
	unsigned long long pid = pid_val(te, rec);
	unsigned long long func = field_val(te, "func", rec);
	struct tep_event *en;
	struct tep_record pr;
	uint8_t pb[256];
	uint32_t plen = 0;

	if (f->fgraph_entry_id < 0 ||
	    report_neighbour(f, c, ev, -1, pb, sizeof(pb), &plen) != TV_OK)
		return false;
	if ((uint32_t)f->ev_type_off + (uint32_t)f->ev_type_size > plen ||
	    (int)td_get_u(pb + f->ev_type_off, (unsigned)f->ev_type_size,
	    f->be) != f->fgraph_entry_id)
		return false;
	en = tep_find_event(f->tep, f->fgraph_entry_id);
	memset(&pr, 0, sizeof(pr));
	pr.data = pb;
	pr.size = (int)plen;
	return pid_val(en, &pr) == pid &&
	    field_val(en, "func", &pr) == func;
}

/* Zeros after a record's copy: a string without its NUL ends there. */
#define TD_REC_PAD	64

/* Where the last fixed field of @te ends: what the library may read. */
static uint32_t
fields_end(const struct tep_event *te)
{
	const struct tep_format_field *fl;
	uint32_t end = 0;

	if (!te)
		return 0;
	for (fl = te->format.common_fields; fl; fl = fl->next)
		if (fl->offset >= 0 && fl->size >= 0)
			end = TV_MAX(end, (uint32_t)fl->offset +
			    (uint32_t)fl->size);
	for (fl = te->format.fields; fl; fl = fl->next)
		if (fl->offset >= 0 && fl->size >= 0)
			end = TV_MAX(end, (uint32_t)fl->offset +
			    (uint32_t)fl->size);
	return end;
}

/*
 * Every __data_loc/__rel_loc field of a record of @te must point inside
 * the record's @len bytes: the library copies and prints what they say
 * unchecked.
 */
static enum tv_status
check_dynamic(const struct tep_event *te, const uint8_t *data, uint32_t len,
    bool be, struct tv_error *err)
{
	const struct tep_format_field *fl;

	for (fl = te->format.fields; fl; fl = fl->next) {
		uint32_t dl, doff, dlen;

		if (!(fl->flags & TEP_FIELD_IS_DYNAMIC) || fl->offset < 0)
			continue;
		if ((uint32_t)fl->offset + 4 > len)
			return tv_error_set(err, TV_CORRUPT, NULL,
			    _("record of %u bytes too short for field %s of "
			    "event %s"), len, fl->name, te->name);
		dl = (uint32_t)td_get_u(data + fl->offset, 4, be);
		doff = dl & 0xffff;
		dlen = dl >> 16;
		if (fl->flags & TEP_FIELD_IS_RELATIVE)
			doff += (uint32_t)fl->offset + 4;
		if (doff > len || dlen > len - doff)
			return tv_error_set(err, TV_CORRUPT, NULL,
			    _("field %s of event %s (offset %u, %u bytes) "
			    "runs past its record of %u bytes"), fl->name,
			    te->name, doff, dlen, len);
	}
	return TV_OK;
}

/*
 * One report line (several for kernel stacks), or with @info_only what
 * it prints after the event's name (a funcgraph_exit report swallows
 * into its leaf entry is still printed then: the browser has its row);
 * caller holds f->lock and chunk cache @c.
 */
static enum tv_status
print_locked(struct td_file *f, struct td_chunks *c,
    const struct tv_event *ev, bool info_only, struct tv_strbuf *out,
    struct tv_error *err)
{
	const struct td_trace_priv *tp = ev->stream->trace->priv;
	const struct td_stream_priv *sp = ev->stream->priv;
	static const char spaces[] = "                    ";
	struct tep_event *te;
	struct tep_record rec;
	struct trace_seq s;
	struct rec_loc loc;
	enum tv_status st;
	int64_t lost;
	uint64_t need;
	size_t nlen;

	st = locate(f, c, ev->stream, ev->packet, ev->rec.bit_offset, &loc,
	    err);
	if (st != TV_OK)
		return st;
	memset(&rec, 0, sizeof(rec));
	rec.ts = (unsigned long long)ev->rec.ts;
	rec.cpu = ev->stream->cpu;
	/*
	 * A copy (looking at neighbour records may evict its chunk),
	 * padded with zeros to the end of the event's last field and a
	 * little more: the library reads fields and strings without
	 * looking at the record size.
	 */
	te = NULL;
	if (f->ev_type_size > 0 && (uint32_t)f->ev_type_off +
	    (uint32_t)f->ev_type_size <= loc.len)
		te = tep_find_event(f->tep, (int)td_get_u(loc.data +
		    f->ev_type_off, (unsigned)f->ev_type_size, f->be));
	need = (uint64_t)TV_MAX(loc.len, fields_end(te)) + TD_REC_PAD;
	if (need > f->scratch_cap) {
		free(f->scratch);
		f->scratch_cap = (uint32_t)need;
		f->scratch = tv_xmalloc(f->scratch_cap);
	}
	memset(f->scratch, 0, (size_t)need);
	if (loc.len)
		memcpy(f->scratch, loc.data, loc.len);
	rec.data = f->scratch;
	rec.size = (int)loc.len;
	rec.record_size = (int)loc.len;
	if (te && ((st = check_dynamic(te, f->scratch, loc.len, f->be,
	    err)) != TV_OK || (st = td_check_print_args(f, te, f->scratch,
	    loc.len, (uint32_t)need, err)) != TV_OK)) {
		td_page_error_pos(f, sp->cpu, ev->stream->packets[ev->packet].
		    offset, err);
		return st;
	}
	te = tep_find_event_by_record(f->tep, &rec);
	trace_seq_init(&s);
	if (info_only)
		goto info;
	if (te && te->id == f->fgraph_exit_id &&
	    exit_swallowed(f, c, ev, te, &rec)) {
		trace_seq_destroy(&s);
		return TV_OK;
	}
	if (tp->prefix)
		tv_strbuf_adds(out, tp->prefix);
	lost = sp->pages ? sp->pages[ev->packet].lost : 0;
	if (loc.rec_off == 0 && lost > 0)
		tv_strbuf_addf(out, "CPU:%d [%lld EVENTS DROPPED]\n",
		    ev->stream->cpu, (long long)lost);
	else if (loc.rec_off == 0 && lost < 0)
		tv_strbuf_addf(out, "CPU:%d [EVENTS DROPPED]\n",
		    ev->stream->cpu);
	tep_print_event(f->tep, &s, &rec, "%16s-%-5d [%03d]",
	    TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU);
	if (f->in_usecs)
		tep_print_event(f->tep, &s, &rec, " %6.1000d:",
		    TEP_PRINT_TIME);
	else
		tep_print_event(f->tep, &s, &rec, "%12d:", TEP_PRINT_TIME);
	if (te) {
		nlen = strlen(te->name);
		trace_seq_printf(&s, " %s: ", te->name);
		if (nlen < 20)
			trace_seq_printf(&s, "%.*s", (int)(20 - nlen), spaces);
	} else {
		trace_seq_puts(&s, " [UNKNOWN EVENT]: ");
	}
info:
	if (te && te->id == f->fgraph_entry_id)
		print_fgraph_entry(f, c, ev, te, &rec, &s);
	else if (te && te->id == f->fgraph_exit_id)
		print_fgraph_exit(te, &rec, &s);
	else
		tep_print_event(f->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	if (s.len && s.buffer[s.len - 1] == '\n')
		s.len--;
	tv_strbuf_add(out, s.buffer, s.len);
	trace_seq_destroy(&s);
	return TV_OK;
}

/* print_locked() under the file's lock; nothing for lost-data records. */
static enum tv_status
print_event(const struct tv_event *ev, bool info_only, struct tv_strbuf *out,
    struct tv_error *err)
{
	const struct td_trace_priv *tp = ev->stream->trace->priv;
	struct td_file *f = tp->file;
	struct td_chunks *c;
	enum tv_status st;

	if (ev->rec.kind != TV_REC_EVENT)
		return TV_OK;	/* trace-cmd puts it before the next event */
	TD_LOCKED(f, c, st, err, print_locked(f, c, ev, info_only, out,
	    err));
	return st;
}

/* The print_record op: trace-cmd report's text of one record. */
enum tv_status
td_print_record(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *out, struct tv_error *err)
{
	(void)arena;
	return print_event(ev, false, out, err);
}

/* The print_info op: what report prints after the event's name. */
enum tv_status
td_print_info(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_strbuf *out, struct tv_error *err)
{
	(void)arena;
	return print_event(ev, true, out, err);
}

/* The bits of common_flags (the kernel's trace_flag_type), as report -l
 * spells out what they mean. */
static const struct {
	unsigned	 bit;
	const char	*what;
} td_flag_names[] = {
	{ 0x01, "irqs-off" },
	{ 0x02, "irqs-notsupported" },
	{ 0x04, "need-resched" },
	{ 0x08, "hardirq" },
	{ 0x10, "softirq" },
	{ 0x20, "preempt-resched" },
	{ 0x40, "nmi" },
};

/* Payload fields that hold a kernel code address. */
static const char *const td_addr_fields[] = {
	"ip", "parent_ip", "func", "call_site", "caller",
};

/*
 * The value_note op: the symbol of a code address from the trace's
 * kallsyms (as report prints it: the function's name), the names
 * of the common_flags bits.
 */
bool
td_value_note(const struct tv_event *ev, enum tv_scope scope,
    const char *name, const struct tv_value *v, struct tv_strbuf *out)
{
	char sym[256];
	size_t i, n = 0;

	if (v->fc == NULL || v->fc->kind != TV_FC_INT)
		return false;
	if (scope == TV_SCOPE_EVENT_COMMON_CONTEXT &&
	    strcmp(name, "common_flags") == 0) {
		for (i = 0; i < TV_ARRAY_SIZE(td_flag_names); i++)
			if (v->u & td_flag_names[i].bit)
				tv_strbuf_addf(out, "%s%s", n++ ? ", " : "",
				    td_flag_names[i].what);
		return n > 0;
	}
	if (scope != TV_SCOPE_EVENT_PAYLOAD || v->u == 0)
		return false;
	for (i = 0; i < TV_ARRAY_SIZE(td_addr_fields); i++)
		if (strcmp(name, td_addr_fields[i]) == 0)
			break;
	if (i == TV_ARRAY_SIZE(td_addr_fields))
		return false;
	if (!td_symbol(ev->stream->trace, v->u, sym, sizeof(sym)))
		return false;
	tv_strbuf_adds(out, sym);
	return true;
}

/* "cpus=N" (and the latency text of a latency trace), as report does. */
enum tv_status
td_print_header(const struct tv_trace *t, struct tv_strbuf *out,
    struct tv_error *err)
{
	const struct td_trace_priv *tp = t->priv;
	const struct td_file *f = tp->file;
	const struct td_buffer *b = &f->buffers[tp->buffer];
	size_t n;

	(void)err;
	if (tp->buffer != 0)
		return TV_OK;
	tv_strbuf_addf(out, "cpus=%u", f->cpus);
	if (b->is_text && b->text.len) {
		n = b->text.len;
		while (n > 0 && (b->text.ptr[n - 1] == '\n' ||
		    b->text.ptr[n - 1] == '\0'))
			n--;
		tv_strbuf_addc(out, '\n');
		tv_strbuf_add(out, (const char *)b->text.ptr, n);
	}
	return TV_OK;
}

/* payload_at, with chunk cache @c taken when the data is compressed. */
static enum tv_status
payload_locked(const struct tv_event *ev, struct td_chunks *c,
    struct tv_arena *arena, uint8_t **data, uint32_t *len, uint64_t *base,
    struct tv_error *err)
{
	const struct td_trace_priv *tp = ev->stream->trace->priv;
	const struct td_stream_priv *sp = ev->stream->priv;
	const struct tv_packet *p = &ev->stream->packets[ev->packet];
	struct td_file *f = tp->file;
	struct rec_loc loc;
	enum tv_status st;

	st = locate(f, c, ev->stream, ev->packet, ev->rec.bit_offset, &loc,
	    err);
	if (st == TV_OK) {
		const uint8_t *pg = td_cpu_bytes(f, c, sp->cpu, p->offset,
		    p->size, NULL);

		*data = tv_arena_alloc(arena, loc.len ? loc.len : 1);
		memcpy(*data, loc.data, loc.len);
		*len = loc.len;
		*base = pg && loc.data >= pg ? (uint64_t)(loc.data - pg) : 0;
	}
	return st;
}

/* The payload of @ev copied into @arena; *base: its offset in the page. */
static enum tv_status
payload_at(const struct tv_event *ev, struct tv_arena *arena,
    uint8_t **data, uint32_t *len, uint64_t *base, struct tv_error *err)
{
	const struct td_trace_priv *tp = ev->stream->trace->priv;
	const struct td_stream_priv *sp = ev->stream->priv;
	struct td_file *f = tp->file;
	struct td_chunks *c = NULL;
	enum tv_status st;

	/* a chunk cache keeps a compressed page's chunk while it is
	   copied; a mapped page needs none */
	if (sp->cpu->chunks == NULL)
		TD_GUARDED(f, st, err, payload_locked(ev, NULL, arena, data,
		    len, base, err));
	else
		TD_CHUNKED(f, c, st, err, payload_locked(ev, c, arena, data,
		    len, base, err));
	return st;
}

/* The payload of @ev copied into @arena. */
enum tv_status
td_event_payload(const struct tv_event *ev, struct tv_arena *arena,
    uint8_t **data, uint32_t *len, struct tv_error *err)
{
	uint64_t base;

	return payload_at(ev, arena, data, len, &base, err);
}

/* Make value offsets count from the page start, as struct tv_value says. */
static void
rebase(const struct tv_value *cv, uint64_t bits, int depth)
{
	struct tv_value *v = (struct tv_value *)cv;	/* ours, in the arena */
	uint32_t i;

	if (!v || depth > 8)
		return;
	v->bit_offset += bits;
	if (v->fc && (v->fc->kind == TV_FC_STRUCT ||
	    v->fc->kind == TV_FC_ARRAY || v->fc->kind == TV_FC_SEQUENCE ||
	    v->fc->kind == TV_FC_VARIANT))
		for (i = 0; i < v->kids.count; i++)
			rebase(&v->kids.items[i], bits, depth + 1);
}

/* An integer of class @fc at @p (bounded by the caller). */
static void
int_value(struct tv_value *v, const struct tv_field_class *fc,
    const uint8_t *p)
{
	unsigned bytes = fc->integer.size / 8;
	uint64_t u = td_get_u(p, bytes, fc->integer.byte_order == TV_BO_BE);

	if (fc->integer.is_signed && bytes < 8 && (u >> (bytes * 8 - 1)) & 1)
		u |= ~0ULL << (bytes * 8);
	v->u = u;
}

/* Decode @n integer elements of class @elem at @p into kids of @v. */
static void
int_items(struct tv_arena *a, struct tv_value *v,
    const struct tv_field_class *elem, const uint8_t *p, uint64_t n,
    uint64_t bit)
{
	unsigned bytes = elem->integer.size / 8;
	uint64_t i;

	v->kids.items = tv_arena_zalloc(a, (n ? n : 1) * sizeof(*v->kids.items));
	v->kids.count = (uint32_t)n;
	for (i = 0; i < n; i++) {
		struct tv_value *k = &v->kids.items[i];

		k->fc = elem;
		k->bit_offset = bit + i * bytes * 8;
		k->bit_size = bytes * 8;
		int_value(k, elem, p + i * bytes);
	}
}

/* Entries of the @eb-byte array at @p (@len bytes) before an all-ones. */
static uint64_t
stack_len(const uint8_t *p, uint32_t len, unsigned eb, bool be)
{
	uint64_t n, ones = eb >= 8 ? ~0ULL : (1ULL << (eb * 8)) - 1;

	if (eb == 0 || eb > 8)
		return 0;
	for (n = 0; (n + 1) * eb <= len; n++)
		if (td_get_u(p + n * eb, eb, be) == ones)
			break;
	return n;
}

/* Decode the fields of one struct class from a record's payload. */
static const struct tv_value *
decode_struct(struct tv_arena *a, const struct tv_field_class *sc,
    struct tep_format_field *const *fields, const uint8_t *data, uint32_t len,
    bool be, bool stack)
{
	struct tv_value *v;
	uint32_t i;

	if (!sc || !fields)
		return NULL;
	v = tv_arena_zalloc(a, sizeof(*v));
	v->fc = sc;
	v->kids.items = tv_arena_zalloc(a, (sc->structure.nmembers + 1) *
	    sizeof(*v->kids.items));
	for (i = 0; i < sc->structure.nmembers && fields[i]; i++) {
		const struct tv_field_class *fc = sc->structure.members[i].fc;
		struct tep_format_field *fl = fields[i];
		struct tv_value *k = &v->kids.items[v->kids.count];
		uint32_t off = (uint32_t)fl->offset, size = (uint32_t)fl->size;

		if (fl->offset < 0 || off > len)
			continue;
		/* a short record (kernel_stack) keeps what it has */
		if (size > len - off && fc->kind == TV_FC_ARRAY)
			size = len - off;
		else if (size > len - off)
			continue;
		k->fc = fc;
		k->name = sc->structure.members[i].name;
		k->bit_offset = (uint64_t)off * 8;
		k->bit_size = (uint64_t)size * 8;
		v->kids.count++;
		if (fc->kind == TV_FC_INT) {
			int_value(k, fc, data + off);
		} else if (fc->kind == TV_FC_ARRAY) {
			unsigned eb = fc->array.elem->integer.size / 8;
			uint64_t n = TV_MIN(fc->array.length, size / eb);

			/* a kernel stack's last array runs to the record's
			 * end, up to the -1 that ends it, as report reads it;
			 * any other array is as long as its format says */
			if (stack && fl->next == NULL && len - off > size) {
				n = stack_len(data + off, len - off, eb, be);
				k->bit_size = n * eb * 8;
			}

			int_items(a, k, fc->array.elem, data + off, n,
			    k->bit_offset);
		} else if (size >= 4) {
			/* __data_loc: offset in the low, length in the
			 * high 16 bits; __rel_loc is relative to the end */
			uint32_t dl = (uint32_t)td_get_u(data + off, 4, be);
			uint32_t doff = dl & 0xffff, dlen = dl >> 16;

			if (fl->flags & TEP_FIELD_IS_RELATIVE)
				doff += off + size;
			if (doff > len || dlen > len - doff)
				dlen = 0, doff = 0;
			if (fc->kind == TV_FC_STRING) {
				k->str.ptr = (const char *)data + doff;
				k->str.len = strnlen(k->str.ptr, dlen);
			} else {
				unsigned eb =
				    fc->array.elem->integer.size / 8;

				int_items(a, k, fc->array.elem, data + doff,
				    dlen / eb, (uint64_t)doff * 8);
			}
		}
	}
	return v;
}

/* The decode_fields op: common fields and payload from the format. */
enum tv_status
td_decode_fields(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_event_fields *out, unsigned scopes TV_UNUSED,
    struct tv_error *err)
{
	const struct tv_event_class *c = tv_event_class_of(ev);
	const struct td_trace_priv *tp = ev->stream->trace->priv;
	const struct td_class *tc;
	uint8_t *data;
	uint32_t len;
	uint64_t base = 0;
	enum tv_status st;

	memset(out, 0, sizeof(*out));
	if (!c || !c->priv)
		return TV_OK;
	tc = c->priv;
	st = payload_at(ev, arena, &data, &len, &base, err);
	if (st != TV_OK)
		return st;
	/* no lock: the fields were listed at open, and are only read */
	out->scope[TV_SCOPE_EVENT_COMMON_CONTEXT] = decode_struct(arena,
	    c->context, tc->common, data, len, tp->file->be, false);
	/* follows_previous: the ftrace stack events */
	out->scope[TV_SCOPE_EVENT_PAYLOAD] = decode_struct(arena, c->payload,
	    tc->fields, data, len, tp->file->be, c->follows_previous);
	rebase(out->scope[TV_SCOPE_EVENT_COMMON_CONTEXT], base * 8, 0);
	rebase(out->scope[TV_SCOPE_EVENT_PAYLOAD], base * 8, 0);
	return TV_OK;
}

/*
 * See tracedat-priv.h.  Under the file's lock: the library is not
 * thread-safe (it sorts its function map on first use).
 */
bool
td_symbol(const struct tv_trace *trace, uint64_t addr, char *buf,
    size_t size)
{
	const struct td_trace_priv *tp = trace->priv;
	const char *name;
	bool found = false;

	if (tp == NULL || tp->file == NULL || tp->file->tep == NULL ||
	    size == 0)
		return false;
	pthread_mutex_lock(&tp->file->lock);
	name = tep_find_function(tp->file->tep, addr);
	if (name != NULL) {
		snprintf(buf, size, "%s", name);
		found = true;
	}
	pthread_mutex_unlock(&tp->file->lock);
	return found;
}
