/*
 * The packet index of a CTF stream: read from LTTng's index/<file>.idx
 * when it is present and agrees with the file, otherwise built by walking
 * the packet headers and contexts in skip mode.  Also converts packet
 * times to ns and turns the free-running discarded-events counter and
 * sequence numbers into per-packet losses.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/bytes.h"
#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/time.h"
#include "tview/util.h"
#include "ctf-decode.h"

#define CTF_INDEX_MAGIC		0xC1F1DCC1u
#define CTF_INDEX_HDR		16
#define CTF_INDEX_MIN_ENTRY	56	/* v1.0: 7 fields of 8 bytes */

/*
 * Compare the packet's uuid with the trace's.  babeltrace2 (the oracle)
 * reads traces whose packets carry another uuid, and so do we: only a
 * strict reader (strict = true below) refuses them.
 */
static enum tv_status
check_uuid(const struct ctf_dec *d, const struct tv_trace *t,
    const struct tv_mapfile *mf, uint64_t off, struct tv_error *err)
{
	static const bool strict = false;

	if (!strict || !(d->seen & (1u << TV_ROLE_UUID)))
		return TV_OK;
	if (!t->has_uuid || d->uuid_pos % 8 ||
	    d->uuid_pos / 8 + 16 > d->buf_bytes)
		return TV_OK;
	if (memcmp(d->buf + d->uuid_pos / 8, t->uuid, 16) != 0)
		return tv_error_at(err, TV_CORRUPT, mf->path,
		    off + d->uuid_pos / 8,
		    _("packet uuid does not match the trace uuid"));
	return TV_OK;
}

/* Fill index entry @p from the roles the head decode found. */
static void
fill_packet(struct tv_packet *p, const struct ctf_dec *d, uint64_t off,
    uint32_t file)
{
	uint64_t v;

	p->offset = off;
	p->size = d->roles[TV_ROLE_PACKET_SIZE] / 8;
	p->content_bits = d->roles[TV_ROLE_CONTENT_SIZE];
	p->ts_begin = TV_TIME_NONE;
	p->ts_end = TV_TIME_NONE;
	p->cycles_begin = ctf_dec_role(d, TV_ROLE_PACKET_BEGIN_TS, &v) ? v : 0;
	p->cycles_end = ctf_dec_role(d, TV_ROLE_PACKET_END_TS, &v) ? v : 0;
	/* Raw counter for now: turned into a delta at the end. */
	p->discarded = ctf_dec_role(d, TV_ROLE_DISCARDED, &v) ? v : 0;
	p->seq_num = ctf_dec_role(d, TV_ROLE_SEQ_NUM, &v) ? v :
	    TV_COUNT_UNKNOWN;
	p->event_count = TV_COUNT_UNKNOWN;
	p->file = file;
	p->flags = 0;
}

/*
 * While following, the most bytes a packet's header and context may take
 * for a failure to read them at the end of a file to mean "not all
 * written yet" rather than "corrupt": LTTng's take well under 200.
 */
#define CTF_PENDING_HEAD_MAX	4096

/* See ctf-decode.h. */
bool
ctf_head_pending(const struct ctf_dec *d, uint64_t left)
{
	uint64_t v;

	if (left < CTF_PENDING_HEAD_MAX)
		return true;
	if (ctf_dec_role(d, TV_ROLE_PACKET_SIZE, &v))
		return v / 8 > left;
	if (ctf_dec_role(d, TV_ROLE_CONTENT_SIZE, &v))
		return (v + 7) / 8 > left;
	return false;
}

/*
 * Walk the packet headers of file @fi of @s from offset *@off to its end,
 * adding them to the index; *@off is then where the walk stopped.  With
 * TV_OPEN_FOLLOW in @flags, a packet cut short at the end of the stream's
 * last file stops the walk without an error: it is pending.
 */
static enum tv_status
scan_file(struct tv_stream *s, uint32_t fi, uint64_t *offp, unsigned flags,
    struct ctf_head_roles *hr, struct tv_error *err)
{
	struct ctf_stream_priv *sp = s->priv;
	const struct tv_mapfile *mf = &s->files[fi];
	uint64_t off = *offp, *slots;
	enum tv_status st = TV_OK;
	bool live = (flags & TV_OPEN_FOLLOW) && fi + 1 == s->nfiles;
	struct tv_error quiet;

	slots = tv_xcalloc(sp->tc->nslots + 1, sizeof(*slots));
	while (off < mf->size) {
		struct ctf_stream_class *sc;
		struct tv_packet *p;
		struct ctf_dec d;

		tv_error_clear(&quiet);
		ctf_dec_init(&d, mf->data + off, mf->size - off, off, mf->path,
		    slots, sp->tc->nslots, live ? &quiet : err);
		st = ctf_read_packet_head(&d, sp->tc, mf, off, &sc,
		    live ? &quiet : err);
		if (st != TV_OK && live && ctf_head_pending(&d, mf->size - off)) {
			st = TV_OK;
			break;
		}
		if (st != TV_OK && live && err)
			*err = quiet;
		if (st == TV_OK)
			st = check_uuid(&d, s->trace, mf, off, err);
		if (st == TV_OK && sc != sp->sclass)
			st = tv_error_at(err, TV_CORRUPT, mf->path, off,
			    _("packet of stream class %llu in a stream of class %llu"),
			    (unsigned long long)sc->id,
			    (unsigned long long)sp->sclass->id);
		if (st != TV_OK)
			break;
		hr->begin |= !!(d.seen & (1u << TV_ROLE_PACKET_BEGIN_TS));
		hr->end |= !!(d.seen & (1u << TV_ROLE_PACKET_END_TS));
		hr->disc |= !!(d.seen & (1u << TV_ROLE_DISCARDED));
		hr->seq |= !!(d.seen & (1u << TV_ROLE_SEQ_NUM));
		p = tv_stream_add_packet(s);
		fill_packet(p, &d, off, fi);
		off += p->size;
	}
	free(slots);
	*offp = off;
	return st;
}

/*
 * Read index/<name>.idx next to file @fi.  TV_NOT_FOUND (no message) when
 * it is absent or disagrees with the data file: the caller scans instead.
 */
static enum tv_status
idx_file(struct tv_stream *s, uint32_t fi, struct ctf_head_roles *hr)
{
	struct ctf_stream_priv *sp = s->priv;
	const struct tv_mapfile *mf = &s->files[fi];
	struct ctf_stream_class *sc;
	struct tv_mapfile im;
	uint64_t n, i, off = 0, *slots;
	uint32_t minor, elen;
	const char *slash;
	struct ctf_dec d;
	enum tv_status st;
	char *ipath;

	if (mf->size == 0)
		return TV_NOT_FOUND;
	slash = strrchr(mf->path, '/');
	if (slash)
		tv_xasprintf(&ipath, "%.*s/index/%s.idx",
		    (int)(slash - mf->path), mf->path, slash + 1);
	else
		tv_xasprintf(&ipath, "index/%s.idx", mf->path);
	st = tv_mapfile_open(&im, ipath, NULL);
	free(ipath);
	if (st != TV_OK)
		return TV_NOT_FOUND;
	st = TV_NOT_FOUND;
	if (im.size < CTF_INDEX_HDR || tv_be32(im.data) != CTF_INDEX_MAGIC ||
	    tv_be32(im.data + 4) != 1)
		goto out;
	minor = tv_be32(im.data + 8);
	elen = tv_be32(im.data + 12);
	if (elen < CTF_INDEX_MIN_ENTRY || elen > 4096 ||
	    (minor >= 1 && elen < CTF_INDEX_MIN_ENTRY + 16) ||
	    (im.size - CTF_INDEX_HDR) % elen)
		goto out;
	n = (im.size - CTF_INDEX_HDR) / elen;
	if (n == 0 || n > mf->size / 8)
		goto out;

	/* The first packet tells which roles the context carries. */
	slots = tv_xcalloc(sp->tc->nslots + 1, sizeof(*slots));
	ctf_dec_init(&d, mf->data, mf->size, 0, mf->path, slots,
	    sp->tc->nslots, NULL);
	st = ctf_read_packet_head(&d, sp->tc, mf, 0, &sc, NULL);
	free(slots);
	if (st != TV_OK || sc != sp->sclass) {
		st = TV_NOT_FOUND;
		goto out;
	}
	st = TV_NOT_FOUND;
	if ((d.seen & (1u << TV_ROLE_SEQ_NUM)) && minor < 1)
		goto out;
	for (i = 0; i < n; i++) {
		const uint8_t *e = im.data + CTF_INDEX_HDR + i * elen;
		uint64_t po = tv_be64(e), psz = tv_be64(e + 8), csz = tv_be64(e + 16);

		if (po != off || psz % 8 || psz == 0 ||
		    psz / 8 > mf->size - off || csz > psz)
			goto undo;
		off += psz / 8;
	}
	if (off != mf->size)
		goto undo;
	hr->begin |= !!(d.seen & (1u << TV_ROLE_PACKET_BEGIN_TS));
	hr->end |= !!(d.seen & (1u << TV_ROLE_PACKET_END_TS));
	hr->disc |= !!(d.seen & (1u << TV_ROLE_DISCARDED));
	hr->seq |= !!(d.seen & (1u << TV_ROLE_SEQ_NUM));
	for (i = 0; i < n; i++) {
		const uint8_t *e = im.data + CTF_INDEX_HDR + i * elen;
		struct tv_packet *p = tv_stream_add_packet(s);

		p->offset = tv_be64(e);
		p->size = tv_be64(e + 8) / 8;
		p->content_bits = tv_be64(e + 16);
		p->ts_begin = TV_TIME_NONE;
		p->ts_end = TV_TIME_NONE;
		p->cycles_begin = tv_be64(e + 24);
		p->cycles_end = tv_be64(e + 32);
		p->discarded = tv_be64(e + 40);
		p->seq_num = (d.seen & (1u << TV_ROLE_SEQ_NUM)) ?
		    tv_be64(e + 64) : TV_COUNT_UNKNOWN;
		p->event_count = TV_COUNT_UNKNOWN;
		p->file = fi;
		p->flags = 0;
	}
	st = TV_OK;
	goto out;
undo:
	st = TV_NOT_FOUND;
out:
	tv_mapfile_close(&im);
	return st;
}

/*
 * Times to ns, counters to deltas, sequence gaps to flags, for the
 * packets from @from on (the counters go on from the stream's last).
 */
static void
finish_index(struct tv_stream *s, uint64_t from)
{
	struct ctf_stream_priv *sp = s->priv;
	const struct ctf_head_roles *hr = &sp->hr;
	uint64_t i;

	for (i = from; i < s->npackets; i++) {
		struct tv_packet *p = &s->packets[i];
		uint64_t raw = p->discarded;

		if (s->clock && hr->begin)
			p->ts_begin = tv_clock_to_ns(s->clock, p->cycles_begin);
		if (s->clock && hr->end)
			p->ts_end = tv_clock_to_ns(s->clock, p->cycles_end);
		p->discarded = hr->disc && raw > sp->last_disc ?
		    raw - sp->last_disc : 0;
		sp->last_disc = raw;
		if (hr->seq && p->seq_num != TV_COUNT_UNKNOWN) {
			if (sp->last_seq != TV_COUNT_UNKNOWN &&
			    p->seq_num > sp->last_seq + 1)
				p->flags |= TV_PACKET_LOST_BEFORE;
			sp->last_seq = p->seq_num;
		}
	}
}

/*
 * Without timestamp_begin in the packet context, babeltrace2's stream clock
 * runs on from the previous packet's last event: walk the events once so
 * that each packet from @from on starts from there (cycles_begin; times
 * stay unknown).
 */
static void
chain_clock(struct tv_stream *s, uint64_t from)
{
	struct tv_packet_events pe;
	uint64_t k, clk = 0;

	memset(&pe, 0, sizeof(pe));
	for (k = from > 0 ? from - 1 : 0; k < s->npackets; k++) {
		if (k >= from)
			s->packets[k].cycles_begin = clk;
		ctf_decode_packet(s, k, &pe);
		if (pe.count && pe.recs[pe.count - 1].kind == TV_REC_EVENT)
			clk = pe.recs[pe.count - 1].count;
		tv_packet_events_fini(&pe);
	}
}

/*
 * Index the packets of @s's files from file sp->next_file, offset
 * sp->next_off on; see ctf_stream_index.  @from: packets before it are
 * indexed already.
 */
static enum tv_status
index_from(struct tv_stream *s, uint64_t from, unsigned flags,
    struct tv_error *err)
{
	struct ctf_stream_priv *sp = s->priv;
	enum tv_status st = TV_OK;
	uint32_t fi;

	for (fi = sp->next_file; fi < s->nfiles; fi++) {
		uint64_t off = fi == sp->next_file ? sp->next_off : 0;

		if (off == 0 && idx_file(s, fi, &sp->hr) == TV_OK) {
			off = s->files[fi].size;
		} else {
			st = scan_file(s, fi, &off, flags, &sp->hr, err);
		}
		sp->next_file = fi;
		sp->next_off = off;
		if (st != TV_OK || off < s->files[fi].size)
			break;
	}
	finish_index(s, from);
	if (!sp->hr.begin && s->clock && s->npackets > 1 &&
	    s->npackets > from)
		chain_clock(s, from);
	return st;
}

/* Build @s's packet index from its files, in their order. */
enum tv_status
ctf_stream_index(struct tv_stream *s, unsigned flags, struct tv_error *err)
{
	struct ctf_stream_priv *sp = s->priv;

	memset(&sp->hr, 0, sizeof(sp->hr));
	sp->next_file = 0;
	sp->next_off = 0;
	sp->last_disc = 0;
	sp->last_seq = TV_COUNT_UNKNOWN;
	return index_from(s, 0, flags, err);
}

/*
 * Index what was written to @s since the last look: the file where
 * indexing stopped grew, or files were added after it.  A packet that
 * failed to index stays where it was: the same error again.
 */
enum tv_status
ctf_stream_extend(struct tv_stream *s, unsigned flags, bool *grew,
    struct tv_error *err)
{
	struct ctf_stream_priv *sp = s->priv;
	uint64_t before = s->npackets;
	enum tv_status st;
	uint32_t fi;
	bool g;

	*grew = false;
	for (fi = sp->next_file; fi < s->nfiles; fi++) {
		st = tv_mapfile_grow(&s->files[fi], &g, err);
		if (st != TV_OK)
			return st;
	}
	if (sp->next_file < s->nfiles &&
	    sp->next_off >= s->files[sp->next_file].size &&
	    sp->next_file + 1 >= s->nfiles)
		return TV_OK;	/* nothing new */
	st = index_from(s, before, flags, err);
	*grew = s->npackets > before;
	return st;
}
