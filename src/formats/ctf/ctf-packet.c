/*
 * One CTF packet: its header and context (ctf_read_packet_head, which
 * the packet index also reads every packet with), then its events:
 * decode_packet reads each event header in skip mode, keeps the stream
 * clock up to date and records where every event starts (the hot path of
 * counting and merging; LTTng's usual records by a quick table, the
 * others by the generic decoder); decode_fields re-decodes one event's scopes into
 * values on demand.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/time.h"
#include "ctf-decode.h"

#define SLOTS_ON_STACK	64
#define CTF_PACKET_MAGIC	0xC1FC1FC1u

/* Stream class by id; a trace whose only class has no id matches any. */
struct ctf_stream_class *
ctf_sclass_find(struct ctf_trace_class *tc, uint64_t id)
{
	uint32_t i;

	for (i = 0; i < tc->nsclasses; i++)
		if (tc->sclasses[i]->id == id)
			return tc->sclasses[i];
	if (tc->nsclasses == 1 && !tc->sclasses[0]->has_id && id == 0)
		return tc->sclasses[0];
	return NULL;
}

/* Decode header + context of the packet at @off; set d->end to content. */
enum tv_status
ctf_read_packet_head(struct ctf_dec *d, struct ctf_trace_class *tc,
    const struct tv_mapfile *mf, uint64_t off, struct ctf_stream_class **sc,
    struct tv_error *err)
{
	uint64_t v, left = mf->size - off, psize, csize;
	enum tv_status st;

	*sc = NULL;
	if (tc->packet_header) {
		st = ctf_dec_skip(d, tc->packet_header);
		if (st != TV_OK)
			return st;
	}
	if (ctf_dec_role(d, TV_ROLE_MAGIC, &v) && v != CTF_PACKET_MAGIC)
		return tv_error_at(err, TV_CORRUPT, mf->path, off,
		    _("bad packet magic 0x%llx (expected 0x%x)"),
		    (unsigned long long)v, CTF_PACKET_MAGIC);
	if (!ctf_dec_role(d, TV_ROLE_STREAM_ID, &v))
		v = tc->nsclasses == 1 ? tc->sclasses[0]->id : 0;
	*sc = ctf_sclass_find(tc, v);
	if (!*sc)
		return tv_error_at(err, TV_CORRUPT, mf->path, off,
		    _("packet refers to unknown stream class %llu"),
		    (unsigned long long)v);
	if ((*sc)->packet_context) {
		st = ctf_dec_skip(d, (*sc)->packet_context);
		if (st != TV_OK)
			return st;
	}
	if (ctf_dec_role(d, TV_ROLE_PACKET_SIZE, &psize)) {
		if (psize % 8 || psize / 8 > left || psize < d->pos || !psize)
			return tv_error_at(err, TV_CORRUPT, mf->path, off,
			    _("invalid packet size %llu bits (%llu bytes left in file)"),
			    (unsigned long long)psize,
			    (unsigned long long)left);
	} else if (ctf_dec_role(d, TV_ROLE_CONTENT_SIZE, &csize)) {
		/* As babeltrace2: the packet ends where its content ends. */
		psize = (csize + 7) & ~UINT64_C(7);
		if (psize / 8 > left || psize == 0 || csize < d->pos)
			return tv_error_at(err, TV_CORRUPT, mf->path, off,
			    _("invalid content size %llu bits (%llu bytes left in file)"),
			    (unsigned long long)csize,
			    (unsigned long long)left);
	} else {
		psize = left * 8;
	}
	if (ctf_dec_role(d, TV_ROLE_CONTENT_SIZE, &csize)) {
		if (csize > psize || csize < d->pos)
			return tv_error_at(err, TV_CORRUPT, mf->path, off,
			    _("invalid content size %llu bits (packet size %llu bits)"),
			    (unsigned long long)csize,
			    (unsigned long long)psize);
	} else {
		csize = psize;
	}
	d->roles[TV_ROLE_PACKET_SIZE] = psize;
	d->roles[TV_ROLE_CONTENT_SIZE] = csize;
	d->end = csize;
	return TV_OK;
}

/* Event class of stream class @sc with id @id (binary search), or NULL. */
static const struct tv_event_class *
find_event(const struct ctf_stream_class *sc, uint64_t id)
{
	uint32_t lo = 0, hi = sc->nevents;

	if (id < sc->nby_id)
		return sc->by_id[id];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint64_t mid_id = sc->events[mid]->id;

		if (mid_id == id)
			return sc->events[mid];
		if (mid_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Records for what was lost before packet @pkt, ordered like babeltrace2. */
static void
push_losses(const struct tv_stream *s, uint64_t pkt,
    struct tv_packet_events *out)
{
	const struct tv_packet *p = &s->packets[pkt];
	const struct tv_packet *prev = pkt ? &s->packets[pkt - 1] : NULL;
	struct tv_event_rec *r;

	if (p->discarded) {
		r = tv_packet_events_push(out);
		memset(r, 0, sizeof(*r));
		r->kind = TV_REC_DISCARDED;
		r->ts = prev ? prev->ts_end : p->ts_begin;
		r->count = p->discarded;
	}
	if ((p->flags & TV_PACKET_LOST_BEFORE) && prev &&
	    prev->seq_num != TV_COUNT_UNKNOWN) {
		r = tv_packet_events_push(out);
		memset(r, 0, sizeof(*r));
		r->kind = TV_REC_LOST_PACKETS;
		r->ts = prev->ts_end;
		r->count = p->seq_num - prev->seq_num - 1;
	}
}

/*
 * Add fixed scope @fc (NULL: none) to *@rel, the bits from the header's
 * aligned start: false if it is not fixed or its alignment is not one
 * the header's start gives (then where it lands depends on the record).
 */
static bool
quick_scope(const struct tv_field_class *fc, uint64_t hdr_align,
    uint64_t *rel)
{
	if (fc == NULL)
		return true;
	if (!fc->skip_fixed || fc->align == 0 || hdr_align % fc->align != 0)
		return false;
	*rel = ((*rel + fc->align - 1) & ~(fc->align - 1)) + fc->skip_bits;
	return true;
}

/* Whether header integer @op is read as the quick walk reads it. */
static bool
quick_int(const struct ctf_hop *op, uint64_t hdr_align)
{
	return !op->be && !op->sgn && op->size >= 1 && op->size <= 64 &&
	    op->align != 0 && hdr_align % op->align == 0;
}

/*
 * The extended header of @hp into @qw, if it has one the quick walk
 * reads: a variant option other than the usual one, of an event id then
 * a timestamp, both byte-aligned, chosen by one tag value only.
 */
static void
quick_ext(const struct ctf_hprog *hp, struct ctf_quick_walk *qw)
{
	const struct ctf_hop *tag = &hp->pre[0];
	uint32_t k;
	uint64_t v, at;

	if (tag->size > 16)
		return;
	for (k = 0; k < hp->nopt; k++) {
		const struct ctf_hprog_opt *po = &hp->opt[k];
		const struct ctf_hop *id = &po->ops[0], *ts = &po->ops[1];
		uint64_t found = 0, which = 0;

		if (k == hp->word_opt || po->n != 2 || po->align == 0 ||
		    hp->align % po->align != 0 ||
		    !quick_int(id, hp->align) || !quick_int(ts, hp->align) ||
		    id->role != TV_ROLE_EVENT_ID || id->clock || !ts->clock)
			continue;
		for (v = 0; v < (UINT64_C(1) << tag->size) && found < 2; v++)
			if (ctf_hprog_opt_of(hp, v) == (int32_t)k) {
				found++;
				which = v;
			}
		if (found != 1)
			continue;
		at = (tag->size + po->align - 1) & ~((uint64_t)po->align - 1);
		at = (at + id->align - 1) & ~(id->align - 1);
		qw->ext_id_at = (uint32_t)at;
		at = (at + id->size + ts->align - 1) & ~(ts->align - 1);
		qw->ext_ts_at = (uint32_t)at;
		qw->ext_bits = (uint32_t)(at + ts->size);
		if (qw->ext_id_at % 8 != 0 || qw->ext_ts_at % 8 != 0 ||
		    qw->ext_bits % 8 != 0)
			continue;
		qw->ext_tag = which;
		qw->ext_id_mask = id->size >= 64 ? UINT64_MAX :
		    (UINT64_C(1) << id->size) - 1;
		qw->ext_ts_mask = ts->size >= 64 ? UINT64_MAX :
		    (UINT64_C(1) << ts->size) - 1;
		qw->ext = true;
		return;
	}
}

/* See ctf-decode.h. */
void
ctf_quick_build(struct ctf_stream_class *sc, struct tv_arena *a)
{
	const struct ctf_hprog *hp = sc->hdr_prog;
	const struct ctf_hop *tag, *ts;
	struct ctf_quick_walk *qw;
	uint64_t n, id;

	__atomic_store_n(&sc->quick, NULL, __ATOMIC_RELEASE);
	if (hp == NULL || !hp->word || sc->by_id == NULL)
		return;
	tag = &hp->pre[0];
	ts = &hp->opt[hp->word_opt].ops[0];
	/* the header ends on a byte, and where the scopes after it land
	   matters only modulo their alignments, all dividing the header's */
	if (tag->role != TV_ROLE_EVENT_ID || !ts->clock || ts->size >= 64 ||
	    (tag->size + ts->size) % 8 != 0)
		return;
	n = sc->nby_id;
	qw = tv_arena_zalloc(a, sizeof(*qw) + n * sizeof(qw->by_id[0]));
	qw->align = hp->align;
	qw->tag_mask = hp->tag_mask;
	qw->ts_mask = hp->ts_mask;
	qw->word_lo = hp->word_lo;
	qw->word_hi = hp->word_hi;
	qw->tag_bits = tag->size;
	qw->head_bits = tag->size + ts->size;
	qw->n = n;
	quick_ext(hp, qw);
	for (id = 0; id < n; id++) {
		const struct tv_event_class *ec = sc->by_id[id];
		const struct ctf_event_class *cec;
		struct ctf_quick *q = &qw->by_id[id];
		uint64_t rel = 0;

		if (ec == NULL)
			continue;
		cec = ec->priv;
		if (!quick_scope(sc->event_context, hp->align, &rel) ||
		    !quick_scope(ec->context, hp->align, &rel))
			continue;
		if (!quick_scope(ec->payload, hp->align, &rel)) {
			/* a skipper that reads no slot the header fills */
			if (cec->pay_prog == NULL ||
			    !ctf_head_skippable(sc->event_header,
			    &ec->payload, 1))
				continue;
			q->pay = cec->pay_prog;
		}
		q->index = ec->index;
		q->rest_bits = rel;
		q->ok = 1;
		if (q->pay == NULL && rel % 8 == 0 && hp->align == 8 &&
		    id >= hp->word_lo && id <= hp->word_hi)
			q->step = (uint32_t)((qw->head_bits + rel) / 8);
	}
	qw->bytewise = hp->align == 8;
	__atomic_store_n(&sc->quick, qw, __ATOMIC_RELEASE);
}

/*
 * tv_clock_to_ns, with the common 1 GHz clock done inline: base + cycles
 * when that neither overflows nor hits TV_TIME_NONE (else the general,
 * saturating conversion).
 */
static inline int64_t
event_ns(const struct tv_clock *clk, bool ns_clock, uint64_t cycles)
{
	int64_t r;

	if (ns_clock && cycles < (uint64_t)INT64_MAX &&
	    !__builtin_add_overflow(clk->base_ns, (int64_t)cycles, &r) &&
	    r > INT64_MIN + 1)
		return r;
	return tv_clock_to_ns(clk, cycles);
}

/* Record @r: an event of class @index at bit @pos, its header @head. */
static inline __attribute__((always_inline)) void
quick_rec(struct tv_event_rec *r, const struct tv_clock *clk, bool ns_clock,
    uint64_t clock, uint64_t pos, uint32_t index, uint64_t head)
{
	r->ts = clk ? event_ns(clk, ns_clock, clock) : TV_TIME_NONE;
	r->bit_offset = pos;
	r->class_index = index;
	r->kind = TV_REC_EVENT;
	r->head_bits = (uint16_t)head;
	r->count = clock;
}

/*
 * The records from @d's position that @qw covers, into @out while it
 * has room; stops before the first it does not (left to the generic
 * walk, which then gives any error, as if the quick walk had not been).
 * Position and clock live in registers here: the generic walk keeps
 * them in memory, its decoder's address handed to every call.
 */
static void
quick_walk(struct ctf_dec *d, const struct ctf_quick_walk *qw,
    const struct tv_clock *clk, bool ns_clock, struct tv_packet_events *out)
{
	const uint8_t *buf = d->buf;
	const uint64_t amask = qw->align - 1, end = d->end;
	uint64_t pos = d->pos, clock = d->clock, n = out->count;
	struct tv_event_rec *recs = out->recs;

	while (n < out->cap) {
		uint64_t p = (pos + amask) & ~amask, w, tag, id, next, now;
		uint32_t head;
		const struct ctf_quick *q;

		if (qw->bytewise && (pos & 7) == 0) {
			/*
			 * The usual header and fixed scopes, whole bytes
			 * each: the position in bytes, the record's size
			 * one table entry.  What carries from one record
			 * to the next (load, mask, entry, add) is all the
			 * walk waits on; aligning and shifting a bit
			 * position added a third to it.
			 */
			uint64_t pb = pos >> 3;
			const uint64_t endb = end >> 3;

			while (n < out->cap && pb + 8 <= endb) {
				uint64_t nb;

				w = ctf_load_word(buf + pb);
				tag = w & qw->tag_mask;
				/* step is set for the usual tags only */
				if (tag >= qw->n || qw->by_id[tag].step == 0)
					break;
				q = &qw->by_id[tag];
				nb = pb + q->step;
				if (nb > endb)
					break;
				clock = ctf_clock_next(clock, (w >>
				    qw->tag_bits) & qw->ts_mask, qw->ts_mask);
				quick_rec(&recs[n++], clk, ns_clock, clock,
				    pb << 3, q->index, qw->head_bits);
				pb = nb;
			}
			pos = pb << 3;
			p = (pos + amask) & ~amask;
			if (n >= out->cap)
				break;
		}
		if (p + 64 > end)
			break;
		w = ctf_load_word(buf + (p >> 3));
		tag = w & qw->tag_mask;
		if (tag >= qw->word_lo && tag <= qw->word_hi) {
			id = tag;
			head = qw->head_bits;
			now = ctf_clock_next(clock, (w >> qw->tag_bits) &
			    qw->ts_mask, qw->ts_mask);
		} else if (qw->ext && tag == qw->ext_tag &&
		    p + qw->ext_bits + 64 <= end) {
			uint64_t v;

			id = ctf_load_word(buf + ((p + qw->ext_id_at) >> 3)) &
			    qw->ext_id_mask;
			head = qw->ext_bits;
			v = ctf_load_word(buf + ((p + qw->ext_ts_at) >> 3)) &
			    qw->ext_ts_mask;
			now = qw->ext_ts_mask == UINT64_MAX ? v :
			    ctf_clock_next(clock, v, qw->ext_ts_mask);
		} else {
			break;
		}
		if (id >= qw->n || !qw->by_id[id].ok)
			break;
		q = &qw->by_id[id];
		next = p + head + q->rest_bits;
		if (next > end)
			break;
		if (q->pay != NULL) {
			d->pos = pos;
			ctf_dec_event_start(d);
			d->pos = next;
			if (ctf_sprog_skip(d, q->pay) != TV_OK) {
				d->pos = pos;	/* the generic walk says why */
				break;
			}
			next = d->pos;
		}
		clock = now;
		quick_rec(&recs[n++], clk, ns_clock, clock, pos, q->index,
		    p - pos + head);
		pos = next;
	}
	d->pos = pos;
	d->clock = clock;
	out->count = n;
}

/* Walk every event of packet @pkt of @s into @out. */
enum tv_status
ctf_decode_packet(struct tv_stream *s, uint64_t pkt,
    struct tv_packet_events *out)
{
	struct ctf_stream_priv *sp = s->priv;
	const struct ctf_stream_class *sc = sp->sclass;
	uint64_t stack_slots[SLOTS_ON_STACK], *slots = stack_slots;
	const struct tv_packet *p;
	const struct tv_mapfile *mf;
	const uint8_t *b;
	struct ctf_stream_class *hsc;
	const struct tv_clock *clk = s->clock;
	bool ns_clock = clk && clk->freq == UINT64_C(1000000000);
	const struct ctf_quick_walk *qw = __atomic_load_n(&sc->quick,
	    __ATOMIC_ACQUIRE);
	uint32_t nslots = sp->tc->nslots;
	enum tv_status st;
	struct ctf_dec d;
	uint64_t v;

	out->status = TV_OK;
	tv_error_clear(&out->err);
	b = tv_event_bytes(s, pkt, &p, &mf);
	if (!b)
		return TV_NOT_FOUND;
	if (nslots > SLOTS_ON_STACK)
		slots = tv_xcalloc(nslots, sizeof(*slots));
	else
		memset(stack_slots, 0, sizeof(stack_slots));
	ctf_dec_init(&d, b, p->size, p->offset, mf->path, slots, nslots,
	    &out->err);
	st = ctf_read_packet_head(&d, sp->tc, mf, p->offset, &hsc, &out->err);
	if (st != TV_OK)
		goto out;
	push_losses(s, pkt, out);
	/* One allocation per packet: known count, else ~32 bytes/event. */
	{
		/* atomic: another thread's packet cache may be storing it */
		uint64_t n = __atomic_load_n(&p->event_count,
		    __ATOMIC_RELAXED);
		uint64_t est = n != TV_COUNT_UNKNOWN ? n + 2 :
		    (d.end - d.pos) / 256 + 8;

		if (est > out->cap && est < (UINT64_C(1) << 26)) {
			out->recs = tv_xreallocarray(out->recs, est,
			    sizeof(*out->recs));
			out->cap = est;
		}
	}
	d.clock = p->cycles_begin;
	while (d.pos < d.end) {
		const struct tv_event_class *ec;
		const struct ctf_event_class *cec;
		uint64_t start = d.pos, head_bits;
		struct tv_event_rec *r;

		if (qw != NULL) {
			quick_walk(&d, qw, clk, ns_clock, out);
			if (d.pos >= d.end)
				break;
			start = d.pos;
		}
		d.seen &= ~(1u << TV_ROLE_EVENT_ID);
		ctf_dec_event_start(&d);
		if (sc->hdr_prog) {
			st = ctf_hprog_run(&d, sc->hdr_prog);
			if (st != TV_OK)
				break;
		} else if (sc->event_header) {
			st = ctf_dec_skip(&d, sc->event_header);
			if (st != TV_OK)
				break;
		}
		head_bits = d.pos - start;
		if (!ctf_dec_role(&d, TV_ROLE_EVENT_ID, &v))
			v = sc->nevents == 1 ? sc->events[0]->id : 0;
		ec = find_event(sc, v);
		if (!ec && sp->tc->following) {
			/*
			 * LTTng may write the packet before the metadata
			 * declaring its class: not an error yet, the
			 * records up to here are good, the packet is
			 * decoded again once the metadata grows.
			 */
			st = tv_error_at(&out->err, TV_NOT_FOUND, mf->path,
			    p->offset + start / 8,
			    _("event id %llu of stream class %llu is not in "
			    "the metadata yet"), (unsigned long long)v,
			    (unsigned long long)sc->id);
			break;
		}
		if (!ec) {
			st = tv_error_at(&out->err, TV_CORRUPT, mf->path,
			    p->offset + start / 8,
			    _("unknown event id %llu in stream class %llu"),
			    (unsigned long long)v,
			    (unsigned long long)sc->id);
			break;
		}
		cec = ec->priv;
		if (sc->event_context) {
			st = sc->ctx_prog ? ctf_sprog_skip(&d, sc->ctx_prog) :
			    ctf_dec_skip(&d, sc->event_context);
			if (st != TV_OK)
				break;
		}
		if (ec->context) {
			st = cec->ctx_prog ? ctf_sprog_skip(&d, cec->ctx_prog) :
			    ctf_dec_skip(&d, ec->context);
			if (st != TV_OK)
				break;
		}
		if (ec->payload) {
			st = cec->pay_prog ? ctf_sprog_skip(&d, cec->pay_prog) :
			    ctf_dec_skip(&d, ec->payload);
			if (st != TV_OK)
				break;
		}
		if (d.pos == start) {
			st = tv_error_at(&out->err, TV_CORRUPT, mf->path,
			    p->offset + start / 8,
			    _("event of zero bits: cannot make progress"));
			break;
		}
		if (out->count < out->cap)
			r = &out->recs[out->count++];
		else
			r = tv_packet_events_push(out);
		r->ts = clk ? event_ns(clk, ns_clock, d.clock) : TV_TIME_NONE;
		r->bit_offset = start;
		r->class_index = ec->index;
		r->kind = TV_REC_EVENT;
		r->count = d.clock;
		r->head_bits = head_bits <= UINT16_MAX ?
		    (uint16_t)head_bits : 0;
	}
out:
	if (slots != stack_slots)
		free(slots);
	out->status = st;
	return st;
}

/* Free what a print cache holds. */
void
ctf_print_cache_free(struct ctf_print_cache *pc)
{
	if (!pc)
		return;
	free(pc->slots);
	free(pc->text);
	pc->slots = NULL;
	pc->text = NULL;
	pc->nslots = 0;
	__atomic_store_n(&pc->pkt, 0, __ATOMIC_RELAXED);
}

/* Free a stream's print caches. */
void
ctf_print_caches_free(struct ctf_print_caches *pcs)
{
	size_t i;

	if (!pcs)
		return;
	for (i = 0; i < CTF_PRINT_CACHES; i++)
		ctf_print_cache_free(&pcs->c[i]);
	free(pcs);
}

/* Remember what packet @pkt's scopes left in @d (they decoded fine). */
static void
cache_packet_scopes(struct ctf_print_cache *pc, uint64_t pkt,
    const struct ctf_dec *d, uint32_t nslots)
{
	if (pc->nslots != nslots) {
		free(pc->slots);
		pc->slots = tv_xcalloc(nslots ? nslots : 1, sizeof(*pc->slots));
		pc->nslots = nslots;
	}
	if (nslots && d->slots)
		memcpy(pc->slots, d->slots, sizeof(*pc->slots) * nslots);
	pc->clock = d->clock;
	free(pc->text);
	pc->text = NULL;
	pc->len = 0;
	__atomic_store_n(&pc->pkt, pkt + 1, __ATOMIC_RELAXED);
}

/*
 * Take a cache of the set in *@set (made on first use) for packet @pkt:
 * one that holds @pkt if a free one does, else any free one, else @own
 * (a thread past the CTF_PRINT_CACHES using this stream at once: no
 * caching).
 */
struct ctf_print_cache *
ctf_scope_cache_take(struct ctf_print_caches **set, uint64_t pkt,
    struct ctf_print_cache *own)
{
	struct ctf_print_caches *pcs = __atomic_load_n(set,
	    __ATOMIC_ACQUIRE);
	struct ctf_print_cache *pc = NULL;
	size_t i;

	if (pcs == NULL) {
		struct ctf_print_caches *fresh = tv_xcalloc_aligned(64,
		    sizeof(*fresh));

		if (__atomic_compare_exchange_n(set, &pcs, fresh,
		    false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			pcs = fresh;
		else
			free(fresh);	/* another thread's is in pcs */
	}
	/*
	 * Packet @pkt's home first: workers on different packets touch
	 * different cache lines (scanning every entry's pkt made the
	 * workers' caches trade lines at every event: 11% of a pass).
	 * Then the one that holds @pkt, else any.
	 */
	pc = &pcs->c[pkt % CTF_PRINT_CACHES];
	if (!__atomic_exchange_n(&pc->busy, 1, __ATOMIC_ACQUIRE))
		return pc;
	pc = NULL;
	for (i = 0; i < CTF_PRINT_CACHES; i++) {
		struct ctf_print_cache *c = &pcs->c[i];

		if (__atomic_load_n(&c->pkt, __ATOMIC_RELAXED) == pkt + 1 &&
		    !__atomic_exchange_n(&c->busy, 1, __ATOMIC_ACQUIRE)) {
			if (__atomic_load_n(&c->pkt, __ATOMIC_RELAXED) ==
			    pkt + 1)
				return c;
			pc = c;		/* another packet's by now */
			break;
		}
	}
	for (i = 0; pc == NULL && i < CTF_PRINT_CACHES; i++)
		if (!__atomic_exchange_n(&pcs->c[i].busy, 1,
		    __ATOMIC_ACQUIRE))
			pc = &pcs->c[i];
	if (pc != NULL)
		return pc;
	memset(own, 0, sizeof(*own));
	return own;
}

/*
 * Give back a cache ctf_scope_cache_take() gave, emptied when the decode
 * that used it failed (@st): what it holds may be half made.
 */
void
ctf_scope_cache_give(struct ctf_print_cache *pc, struct ctf_print_cache *own,
    enum tv_status st)
{
	if (st != TV_OK)
		__atomic_store_n(&pc->pkt, 0, __ATOMIC_RELAXED);
	if (pc == own)
		ctf_print_cache_free(own);
	else
		__atomic_store_n(&pc->busy, 0, __ATOMIC_RELEASE);
}

/*
 * May the scopes of an event of class @ec (NULL: none known) be decoded
 * without its packet's (ctf_packet_skippable)?  No scope cache is taken
 * then: taking one was an atomic exchange per event, a twelfth of a pass
 * decoding every event.
 */
static bool
packet_skip(const struct tv_event_class *ec)
{
	return ec != NULL &&
	    ((const struct ctf_event_class *)ec->priv)->packet_skip;
}

/* The class of event @ev, or NULL. */
static const struct tv_event_class *
class_of(const struct tv_event *ev)
{
	const struct tv_trace *t = ev->stream->trace;

	return ev->rec.class_index < t->nclasses ?
	    t->classes[ev->rec.class_index] : NULL;
}

/*
 * Decode the scopes of one event (or the packet scopes of a loss record);
 * those not in @trees (TV_SCOPE_BIT()s) are only skipped, leaving their
 * save slots and clock (printing skips the packet header and the event
 * header: it shows neither).
 */
static enum tv_status
decode_scopes(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_event_fields *out, unsigned trees, struct ctf_print_cache *pc,
    int stop, struct ctf_dec *dout, struct tv_error *err)
{
	const struct tv_stream *s = ev->stream;
	struct ctf_stream_priv *sp = s->priv;
	const struct ctf_stream_class *sc = sp->sclass;
	struct ctf_trace_class *tc = sp->tc;
	const struct tv_event_class *ec = NULL;
	const struct tv_packet *p;
	const struct tv_mapfile *mf;
	const uint8_t *b;
	const struct tv_field_class *scope_fc[TV_SCOPE_COUNT];
	uint64_t *slots;
	enum tv_status st = TV_OK;
	struct ctf_dec local, *d = dout != NULL ? dout : &local;
	int i;

	memset(out, 0, sizeof(*out));
	b = tv_event_bytes(s, ev->packet, &p, &mf);
	if (!b)
		return tv_error_at(err, TV_NOT_FOUND, NULL, TV_NO_OFFSET,
		    _("no such packet"));
	if (ev->rec.kind == TV_REC_EVENT) {
		if (ev->rec.class_index >= s->trace->nclasses)
			return tv_error_at(err, TV_CORRUPT, mf->path,
			    p->offset, _("no such event class"));
		ec = s->trace->classes[ev->rec.class_index];
	}
	scope_fc[TV_SCOPE_PACKET_HEADER] = tc->packet_header;
	scope_fc[TV_SCOPE_PACKET_CONTEXT] = sc->packet_context;
	scope_fc[TV_SCOPE_EVENT_HEADER] = ec ? sc->event_header : NULL;
	scope_fc[TV_SCOPE_EVENT_COMMON_CONTEXT] = ec ? sc->event_context :
	    NULL;
	scope_fc[TV_SCOPE_EVENT_SPECIFIC_CONTEXT] = ec ? ec->context : NULL;
	scope_fc[TV_SCOPE_EVENT_PAYLOAD] = ec ? ec->payload : NULL;

	slots = tv_arena_zalloc(arena, sizeof(*slots) * (tc->nslots + 1));
	ctf_dec_init(d, b, p->size, p->offset, mf->path, slots, tc->nslots,
	    err);
	d->arena = arena;
	d->clock = p->cycles_begin;
	i = 0;
	if (pc) {
		pc->hit = __atomic_load_n(&pc->pkt, __ATOMIC_RELAXED) ==
		    ev->packet + 1 && pc->nslots == tc->nslots;
		if (pc->hit) {
			if (tc->nslots)
				memcpy(slots, pc->slots,
				    sizeof(*slots) * tc->nslots);
			d->clock = pc->clock;
			i = TV_SCOPE_EVENT_HEADER;
		} else {
			__atomic_store_n(&pc->pkt, 0, __ATOMIC_RELAXED);
		}
	} else if (!(trees & (TV_SCOPE_BIT(TV_SCOPE_PACKET_HEADER) |
	    TV_SCOPE_BIT(TV_SCOPE_PACKET_CONTEXT))) && packet_skip(ec)) {
		/* the packet scopes leave nothing the event's read */
		i = TV_SCOPE_EVENT_HEADER;
	}
	for (; i < stop; i++) {
		struct tv_value *v;

		if (i == TV_SCOPE_EVENT_HEADER) {
			if (pc && !pc->hit)
				cache_packet_scopes(pc, ev->packet, d,
				    tc->nslots);
			d->end = p->content_bits;
			d->pos = ev->rec.bit_offset;
			ctf_dec_event_start(d);
		}
		if (!scope_fc[i])
			continue;
		if (!(trees & TV_SCOPE_BIT(i))) {
			if (i == TV_SCOPE_EVENT_HEADER && ev->rec.head_bits &&
			    ec && ((const struct ctf_event_class *)
			    ec->priv)->head_skip &&
			    ev->rec.head_bits <= d->end - d->pos) {
				/*
				 * Nothing after the header reads what it
				 * leaves but the clock, which the packet
				 * walk kept: step over it (a tenth of a
				 * pass decoding every event).
				 */
				d->pos += ev->rec.head_bits;
				d->clock = ev->rec.count;
				continue;
			}
			d->arena = NULL;
			/* the event header as the packet walk read it */
			if (i == TV_SCOPE_EVENT_HEADER && sc->hdr_prog)
				st = ctf_hprog_run(d, sc->hdr_prog);
			else
				st = ctf_dec_skip(d, scope_fc[i]);
			d->arena = arena;
			if (st != TV_OK)
				break;
			continue;
		}
		v = tv_arena_zalloc(arena, sizeof(*v));
		st = ctf_dec_field(d, scope_fc[i], v);
		out->scope[i] = v;
		if (st != TV_OK)
			break;
	}
	return st;
}

/* The scopes before @stop, leaving in @d the decoder at scope @stop. */
enum tv_status
ctf_decode_scopes_to(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_event_fields *out, struct ctf_print_cache *pc, int stop,
    struct ctf_dec *d, struct tv_error *err)
{
	return decode_scopes(ev, arena, out, TV_SCOPES_ALL &
	    ~(TV_SCOPE_BIT(TV_SCOPE_PACKET_HEADER) |
	    TV_SCOPE_BIT(TV_SCOPE_EVENT_HEADER)), pc, stop, d, err);
}

/*
 * The scope after the last of @scopes: nothing after it need be read,
 * the packet walk read past it already (a state pass asks for the
 * contexts alone).  All of them when none is asked for: the decode
 * then says whether the event decodes.
 */
static int
scopes_end(unsigned scopes)
{
	int stop = TV_SCOPE_COUNT;

	while (scopes != 0 && stop > 0 && !(scopes & TV_SCOPE_BIT(stop - 1)))
		stop--;
	return stop;
}

/*
 * Decode the scopes @scopes of one event into @arena.  When neither
 * packet scope is asked for, a cache of what the packet's scopes left
 * (save slots, clock) spares decoding them again for each event of a
 * packet: that was a third of a pass decoding every event.
 */
static __attribute__((noinline)) enum tv_status
decode_cached(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_event_fields *out, unsigned scopes, struct tv_error *err)
{
	struct ctf_stream_priv *sp = ev->stream->priv;
	struct ctf_print_cache *pc;
	enum tv_status st;

	CTF_WITH_SCOPE_CACHE(&sp->dcache, ev, pc, st, err,
	    decode_scopes(ev, arena, out, scopes, pc, scopes_end(scopes),
	    NULL, err));
	return st;
}

/*
 * The uncached way needs none of the cache's frame (a cache of its own
 * on the stack, aligned to a cache line, and a map guard): out of line
 * in decode_cached, it no longer costs every event its set-up.
 */
enum tv_status
ctf_decode_fields(const struct tv_event *ev, struct tv_arena *arena,
    struct tv_event_fields *out, unsigned scopes, struct tv_error *err)
{
	if (scopes & (TV_SCOPE_BIT(TV_SCOPE_PACKET_HEADER) |
	    TV_SCOPE_BIT(TV_SCOPE_PACKET_CONTEXT)) ||
	    ev->rec.kind != TV_REC_EVENT || packet_skip(class_of(ev)))
		return decode_scopes(ev, arena, out, scopes, NULL,
		    scopes_end(scopes), NULL, err);
	return decode_cached(ev, arena, out, scopes, err);
}

/* ctf_visit_payload() with the scope cache @pc taken. */
static enum tv_status
visit_payload(const struct tv_event *ev, struct tv_arena *arena,
    tv_member_fn fn, void *ctx, struct ctf_print_cache *pc,
    struct tv_error *err)
{
	const struct tv_field_class *fc;
	struct tv_event_fields f;
	struct tv_value *v;
	enum tv_status st;
	struct ctf_dec d;

	/* every scope before the payload read past, none built */
	st = decode_scopes(ev, arena, &f, 0, pc, TV_SCOPE_EVENT_PAYLOAD, &d,
	    err);
	fc = st == TV_OK ? ev->stream->trace->classes[ev->rec.class_index]->
	    payload : NULL;
	if (fc != NULL && fc->kind == TV_FC_STRUCT) {
		st = ctf_dec_struct_each(&d, fc, CTF_EACH_LIMITS, fn, ctx);
	} else if (fc != NULL) {
		v = tv_arena_zalloc(arena, sizeof(*v));
		st = ctf_dec_field(&d, fc, v);
		if (st == TV_OK)
			fn(ctx, v, NULL);
	}
	return st;
}

/* See ctf-decode.h. */
enum tv_status
ctf_visit_payload(const struct tv_event *ev, struct tv_arena *arena,
    tv_member_fn fn, void *ctx, struct tv_error *err)
{
	struct ctf_stream_priv *sp = ev->stream->priv;
	struct ctf_print_cache *pc;
	enum tv_status st;

	if (ev->rec.kind != TV_REC_EVENT)
		return TV_OK;	/* no payload */
	if (packet_skip(class_of(ev)))
		return visit_payload(ev, arena, fn, ctx, NULL, err);
	CTF_WITH_SCOPE_CACHE(&sp->dcache, ev, pc, st, err,
	    visit_payload(ev, arena, fn, ctx, pc, err));
	return st;
}
