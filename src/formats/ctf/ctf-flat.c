/*
 * The flat_plan and flat_read ops (flat.h): members of a record's
 * contexts and payload read where they lie, with no value tree.  After
 * the event header, a record is its stream's event context, its own
 * context, then its payload, each aligned; when everything before a
 * member has a fixed size (tv_field_class.skip_fixed), the member lies
 * at the header's end plus constant steps, alignments included, that a
 * plan works out once per class.  Only classes whose header can be
 * stepped over (head_skip: nothing after it reads what the header
 * leaves) qualify, and records whose header length the packet walk kept.
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>

#include "tview/util.h"
#include "ctf-decode.h"
#include "ctf-priv.h"

/* Runtime alignments one member's place may need. */
#define FLAT_STEPS	6
/* Bits a place's constant part may add (a step's, or past its last
   step): no packet is larger, and sums of them cannot wrap. */
#define FLAT_MAX_BITS	(UINT64_C(1) << 48)

/* pos = align_up(pos + add, align), in bits; then past a NUL-ended
   string there when @string. */
struct flat_step {
	uint64_t	 add;
	uint64_t	 align;
	bool		 string;
};

/* How a member is read. */
enum flat_how {
	FLAT_DECODE,	/* by ctf_dec_flat() */
	FLAT_INT,	/* an integer on a byte: ctf_int_load8() */
	FLAT_BYTES,	/* a byte array on a byte: its bytes */
};

/* Where one member lies, from the end of its record's header. */
struct flat_member {
	const struct tv_field_class	*fc;
	struct flat_step		 step[FLAT_STEPS];
	uint32_t			 nsteps;
	bool				 same;	/* the steps of the member
						   before: its base */
	uint32_t			 how;	/* enum flat_how */
	uint64_t			 off;	/* bits after the last step */
	const struct tv_int_class	*ic;	/* FLAT_INT: its layout */
	uint64_t			 len;	/* FLAT_BYTES: its bytes */
};

struct ctf_flat_plan {
	unsigned		 n;
	/*
	 * Every member on one base (the same steps) and on a byte, read
	 * with one bound check: the bits from the base that its reads
	 * span, an integer's 8-byte load included.
	 */
	bool			 one_base;
	uint64_t		 span;
	struct flat_member	 m[];
};

/*
 * A place being worked out: the last runtime alignment, @known bits,
 * and @off bits past it.  Aligning to at most @known is then a constant
 * (alignments are powers of two), a larger one a runtime step.
 */
static bool
place_align(struct flat_member *m, uint64_t *known, uint64_t a)
{
	if (a <= 1)
		return true;
	if (a <= *known) {
		m->off = (m->off + a - 1) & ~(a - 1);
		return true;
	}
	if (m->nsteps == FLAT_STEPS)
		return false;
	m->step[m->nsteps].add = m->off;
	m->step[m->nsteps++].align = a;
	m->off = 0;
	*known = a;
	return true;
}

/*
 * Step over field @fc, of a fixed size or a NUL-ended string (an exec's
 * file name before its tid: a runtime step); false for anything else.
 */
static bool
place_skip(struct flat_member *m, uint64_t *known,
    const struct tv_field_class *fc)
{
	if (fc != NULL && fc->kind == TV_FC_STRING && ctf_flat_readable(fc)) {
		if (m->nsteps == FLAT_STEPS)
			return false;
		m->step[m->nsteps].add = m->off;
		m->step[m->nsteps].align = TV_MAX(fc->align, 8u);
		m->step[m->nsteps++].string = true;
		m->off = 0;
		*known = 8;	/* a string ends on a byte */
		return true;
	}
	if (fc == NULL || !fc->skip_fixed || fc->skip_bits > FLAT_MAX_BITS ||
	    !place_align(m, known, fc->align))
		return false;
	m->off += fc->skip_bits;
	return m->off <= FLAT_MAX_BITS;
}

/* The layout of integer @fc when ctf_int_load8() reads it, else NULL. */
static const struct tv_int_class *
flat_int(const struct tv_field_class *fc)
{
	const struct tv_int_class *ic = fc->kind == TV_FC_INT ?
	    &fc->integer : fc->kind == TV_FC_ENUM ?
	    &fc->enumeration.integer : NULL;

	return ic != NULL && !ic->varlen && ic->size >= 1 && ic->size <= 64 ?
	    ic : NULL;
}

/* Work out where @ask lies in records of class @ec, into @m. */
static bool
place(const struct tv_event_class *ec, const struct tv_flat_ask *ask,
    struct flat_member *m)
{
	const struct ctf_event_class *cec = ec->priv;
	const struct tv_field_class *scope[3], *s;
	uint64_t known = 1;
	uint32_t i, k;

	scope[0] = cec->sclass->event_context;
	scope[1] = ec->context;
	scope[2] = ec->payload;
	memset(m, 0, sizeof(*m));
	if (ask->scope < TV_SCOPE_EVENT_COMMON_CONTEXT ||
	    ask->scope > TV_SCOPE_EVENT_PAYLOAD)
		return false;
	k = ask->scope - TV_SCOPE_EVENT_COMMON_CONTEXT;
	for (i = 0; i < k; i++)
		if (scope[i] != NULL && !place_skip(m, &known, scope[i]))
			return false;
	s = scope[k];
	if (s == NULL || s->kind != TV_FC_STRUCT ||
	    ask->member >= s->structure.nmembers ||
	    !place_align(m, &known, s->align))
		return false;
	for (i = 0; i < ask->member; i++)
		if (!place_skip(m, &known, s->structure.members[i].fc))
			return false;
	m->fc = s->structure.members[ask->member].fc;
	if (m->fc == NULL || !ctf_flat_readable(m->fc) ||
	    !place_align(m, &known, m->fc->align))
		return false;
	m->how = FLAT_DECODE;
	/* on a byte whatever the record's start: one load */
	if (known >= 8 && m->off % 8 == 0) {
		if (m->fc->kind == TV_FC_ARRAY) {
			m->how = FLAT_BYTES;
			m->len = m->fc->array.length;
		} else if ((m->ic = flat_int(m->fc)) != NULL) {
			m->how = FLAT_INT;
		}
	}
	return true;
}

/* See format.h (flat_plan). */
void *
ctf_flat_plan(const struct tv_event_class *ec, const struct tv_flat_ask *asks,
    unsigned n)
{
	const struct ctf_event_class *cec = ec->priv;
	struct ctf_flat_plan *fp;
	unsigned i;

	if (cec == NULL || cec->sclass == NULL || !cec->head_skip)
		return NULL;
	fp = tv_xcalloc(1, sizeof(*fp) + n * sizeof(fp->m[0]));
	fp->n = n;
	for (i = 0; i < n; i++) {
		if (!place(ec, &asks[i], &fp->m[i])) {
			free(fp);
			return NULL;
		}
		/* members of one scope after its first runtime alignment
		   share their steps: worked out once per record */
		fp->m[i].same = i > 0 && fp->m[i].nsteps ==
		    fp->m[i - 1].nsteps && memcmp(fp->m[i].step,
		    fp->m[i - 1].step, fp->m[i].nsteps *
		    sizeof(fp->m[i].step[0])) == 0;
	}
	fp->one_base = true;
	for (i = 0; i < n; i++) {
		const struct flat_member *m = &fp->m[i];

		fp->one_base = fp->one_base && (i == 0 || m->same) &&
		    m->how != FLAT_DECODE;
		fp->span = TV_MAX(fp->span, m->off + (m->how == FLAT_INT ?
		    64 : m->len * 8));
	}
	return fp;
}

/*
 * The base of member @m (the place its steps lead to) in a record whose
 * fields start at bit @start of packet bytes @b with @end bits of
 * content, into *@base; false when a string it steps over runs past the
 * content (the decode says so).
 */
static inline __attribute__((always_inline)) bool
flat_base(const struct flat_member *m, const uint8_t *b, uint64_t end,
    uint64_t start, uint64_t *base)
{
	const uint8_t *nul;
	uint64_t pos = start, at, lim = end / 8;
	uint32_t k;

	for (k = 0; k < m->nsteps; k++) {
		pos = (pos + m->step[k].add + m->step[k].align - 1) &
		    ~(m->step[k].align - 1);
		if (!m->step[k].string)
			continue;
		/* as ctf_dec_field() reads a NUL-ended string */
		at = pos / 8;
		if (at >= lim || (nul = memchr(b + at, 0, lim - at)) == NULL)
			return false;
		pos = ((uint64_t)(nul - b) + 1) * 8;
	}
	*base = pos;
	return true;
}

/*
 * The value of FLAT_INT or FLAT_BYTES member @m at byte @at, its bounds
 * checked by the caller, into @out.
 */
static inline __attribute__((always_inline)) void
read_on_byte(const struct flat_member *m, const uint8_t *at,
    struct tv_flat_value *out)
{
	if (m->how == FLAT_INT) {
		uint64_t v = ctf_int_load8(at, m->ic);

		out->i = (int64_t)(m->ic->is_signed ?
		    ctf_sign_extend(v, m->ic->size) : v);
		out->text = NULL;
		out->len = 0;
	} else {
		out->text = (const char *)at;
		out->len = (size_t)m->len;
	}
}

/*
 * Member @m of a record whose fields start at bit @pos of packet @p's
 * bytes @b (in @mf) into @out, by ctf_dec_flat() over decoder @d (set
 * up on first use: most reads need none).
 */
static bool
read_decoded(const struct flat_member *m, const struct tv_packet *p,
    const struct tv_mapfile *mf, const uint8_t *b, uint64_t pos,
    struct ctf_dec *d, bool *have_d, struct tv_flat_value *out)
{
	if (!*have_d) {
		ctf_dec_init(d, b, p->size, p->offset, mf->path, NULL, 0,
		    NULL);
		d->end = p->content_bits;
		*have_d = true;
	}
	d->pos = pos;
	return ctf_dec_flat(d, m->fc, out);
}

/* See format.h (flat_read). */
bool
ctf_flat_read(const struct tv_event *ev, const void *plan,
    struct tv_flat_value *out)
{
	const struct ctf_flat_plan *fp = plan;
	const struct tv_packet *p;
	const struct tv_mapfile *mf;
	const uint8_t *b;
	struct ctf_dec d;
	bool have_d = false;
	uint64_t start, base = 0, pos, end, bytes;
	unsigned i;

	/* a record whose header length was not kept is decoded */
	if (ev->rec.kind != TV_REC_EVENT || (ev->rec.head_bits == 0 &&
	    ((const struct ctf_stream_priv *)ev->stream->priv)->sclass->
	    event_header != NULL))
		return false;
	b = tv_event_bytes(ev->stream, ev->packet, &p, &mf);
	if (b == NULL)
		return false;
	end = p->content_bits;
	bytes = p->size;
	start = ev->rec.bit_offset + ev->rec.head_bits;
	if (fp->one_base) {
		const struct flat_member *m = &fp->m[0];
		const uint8_t *at;

		if (!flat_base(m, b, end, start, &base))
			return false;
		/* within the content, and so within the mapped bytes */
		if (base <= end && fp->span <= end - base && end <= bytes * 8) {
			at = b + base / 8;
			for (i = 0; i < fp->n; i++)
				read_on_byte(&fp->m[i], at + fp->m[i].off / 8,
				    &out[i]);
			return true;
		}
	}
	for (i = 0; i < fp->n; i++) {
		const struct flat_member *m = &fp->m[i];

		if (!m->same && !flat_base(m, b, end, start, &base))
			return false;
		pos = base + m->off;
		if (pos > end)
			return false;
		/* an integer's 8-byte load near the mapping's end, and
		   FLAT_DECODE, go through the decoder */
		if ((m->how == FLAT_INT && pos / 8 + 8 <= bytes) ||
		    m->how == FLAT_BYTES) {
			if ((m->how == FLAT_INT ? m->ic->size : m->len * 8) >
			    end - pos)
				return false;
			read_on_byte(m, b + pos / 8, &out[i]);
		} else if (!read_decoded(m, p, mf, b, pos, &d, &have_d,
		    &out[i])) {
			return false;
		}
	}
	return true;
}
