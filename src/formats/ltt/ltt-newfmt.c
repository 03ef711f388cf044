/*
 * The 2004 "new LTT trace format" (LTTV's doc/developer/format.html):
 * a directory with eventdefs/ (*.xml), info/system.xml (the traced system,
 * put into the trace environment), control/ tracefiles and cpu/N
 * tracefiles (sparse numbering allowed).  Tracefiles are equal-size
 * blocks (ltt_block_size of system.xml); the last uint32 of a block
 * locates its last event, block_end (as an offset, or as the number of
 * bytes from that event to the end of the block, which is what LTTV's
 * converter wrote); the first event is block_start.  Both carry a
 * timespec, the cycle counter and the block id.  An event is a uint16
 * type id (facility base + event index), the low 32 bits of the cycle
 * counter, then the packed payload, in the byte order of system.xml.
 * Event times are interpolated between the block's two timespecs.
 */
#include "tview/tview.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/mapfile.h"
#include "tview/util.h"
#include "ltt-priv.h"
#include "ltt-xml.h"

#define HEAD		6u	/* uint16 id + uint32 time */
#define STAMP		20u	/* block_start/end payload */
#define MAX_CPUS	4096
#define MIN_BLOCK	(2 * (HEAD + STAMP) + 4)
#define MAX_BLOCK	(UINT64_C(1) << 30)

/* The builtin facility, for traces whose eventdefs do not define it. */
static const char builtin_xml[] =
	"<facility name=builtin>\n"
	"<event name=facility_load><struct>"
	"<field name=name><string/></field>"
	"<field name=checksum><uint size=4/></field>"
	"<field name=base_code><uint size=4/></field></struct></event>\n"
	"<event name=block_start><typeref name=block_timestamp/></event>\n"
	"<event name=block_end><typeref name=block_timestamp/></event>\n"
	"<event name=time_heartbeat><typeref name=timestamp/></event>\n"
	"<type name=block_timestamp><struct>"
	"<field name=timestamp><typeref name=timestamp/></field>"
	"<field name=block_id><uint size=4/></field></struct></type>\n"
	"<type name=timestamp><struct>"
	"<field name=time><typeref name=timespec/></field>"
	"<field name=cycle_count><uint size=8/></field></struct></type>\n"
	"<type name=timespec><struct>"
	"<field name=seconds><uint size=4/></field>"
	"<field name=nanoseconds><uint size=4/></field></struct></type>\n"
	"</facility>\n";

/* See ltt-xml.h. */
bool
ltt_newfmt_probe(const char *path)
{
	return ltt_path_is(path, "cpu", S_IFDIR) &&
	    ltt_path_is(path, "eventdefs", S_IFDIR);
}

/* The facility defining the builtin events: "builtin", else one that has
 * block_start and block_end ("core" in LTTV's sample). */
static const struct ltt_xfacility *
find_builtin(const struct ltt_xdefs *d)
{
	const struct ltt_xfacility *best = NULL;
	uint32_t i;

	for (i = 0; i < d->nfacs; i++) {
		const struct ltt_xfacility *f = &d->facs[i];

		if (ltt_xevent_index(f, "block_start") == UINT32_MAX ||
		    ltt_xevent_index(f, "block_end") == UINT32_MAX)
			continue;
		if (strcmp(f->name, "builtin") == 0)
			return f;
		if (!best)
			best = f;
	}
	return best;
}

/* Give facility @f the type ids from @base on. */
static void
assign(struct tv_trace *t, const struct ltt_xfacility *f, uint32_t base)
{
	struct ltt_xtrace *xt = t->priv;
	uint32_t i;

	for (i = 0; i < f->nevents && base + i <= UINT16_MAX; i++)
		ltt_xset_id(xt, base + i, ltt_xclass_add(t, f, i, &xt->sizes));
}

/* Read info/system.xml into the environment and the trace layout. */
static enum tv_status
read_system(struct tv_trace *t, struct tv_error *err)
{
	struct ltt_xtrace *xt = t->priv;
	const struct tv_env_entry *e;
	struct tv_env_entry *env;
	enum tv_status st;
	uint32_t n, i;
	size_t len;
	char *p, *buf, *end;

	tv_xasprintf(&p, "%s/info/system.xml", t->path);
	st = tv_read_file(p, 1u << 20, &buf, &len, err);
	if (st != TV_OK) {
		free(p);
		return st;
	}
	st = ltt_xml_attrs(p, buf, len, &t->arena, &env, &n, err);
	free(buf);
	if (st != TV_OK) {
		free(p);
		return st;
	}
	t->env = tv_arena_zalloc(&t->arena, sizeof(*env) * (n + 1));
	memcpy(t->env, env, sizeof(*env) * n);
	t->env[n].key = "ltt_format";
	t->env[n].str = "new (2004)";
	t->nenv = n + 1;
	xt->sizes.int_size = xt->sizes.long_size = 4;
	xt->sizes.pointer_size = xt->sizes.size_t_size = 4;
	xt->sizes.bo = TV_BO_LE;
	e = tv_trace_env_get(t, "endian");
	if (e && e->str && (strncmp(e->str, "BIG", 3) == 0 ||
	    strncmp(e->str, "big", 3) == 0))
		xt->sizes.bo = TV_BO_BE;
	e = tv_trace_env_get(t, "arch_size");
	if (e && e->str && strcmp(e->str, "LP64") == 0)
		xt->sizes.long_size = xt->sizes.pointer_size =
		    xt->sizes.size_t_size = 8;
	else if (e && e->str && strcmp(e->str, "ILP64") == 0)
		xt->sizes.int_size = xt->sizes.long_size =
		    xt->sizes.pointer_size = xt->sizes.size_t_size = 8;
	else if (e && e->str && strcmp(e->str, "LP32") == 0)
		xt->sizes.int_size = 2;
	xt->swap = (xt->sizes.bo == TV_BO_BE) !=
	    (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	e = tv_trace_env_get(t, "ltt_block_size");
	xt->block_size = e && e->str ? strtoull(e->str, &end, 10) : 0;
	if (!e || !e->str || *end || xt->block_size < MIN_BLOCK ||
	    xt->block_size > MAX_BLOCK) {
		st = tv_error_set(err, TV_CORRUPT, &(struct tv_loc){ p,
		    TV_NO_OFFSET, 1, 0 },
		    _("missing or invalid ltt_block_size"));
		free(p);
		return st;
	}
	/* The status bar names the trace after the traced system. */
	for (i = 0; i < n; i++)
		if (strcmp(t->env[i].key, "node_name") == 0 && t->env[i].str &&
		    t->env[i].str[0]) {
			const struct tv_env_entry *kn, *kr;

			kn = tv_trace_env_get(t, "kernel_name");
			kr = tv_trace_env_get(t, "kernel_release");
			free(t->name);
			if (kn && kn->str && kr && kr->str)
				tv_xasprintf(&t->name, "%s (%s %s)",
				    t->env[i].str, kn->str, kr->str);
			else
				t->name = tv_xstrdup(t->env[i].str);
		}
	free(p);
	return TV_OK;
}

/* One block's bounds and stamps. */
struct nf_block {
	uint64_t	 last;		/* offset of block_end */
	uint64_t	 cycles[2];
	int64_t		 ns[2];
};

/* Read the block_start/block_end stamp at @p. */
static void
read_stamp(const struct ltt_xtrace *xt, const uint8_t *p, uint64_t *cyc,
    int64_t *ns)
{
	uint32_t sec = ltt_u32(p + HEAD, xt->swap);
	uint32_t nsec = ltt_u32(p + HEAD + 4, xt->swap);

	*cyc = ltt_u64(p + HEAD + 8, xt->swap);
	*ns = (int64_t)sec * 1000000000 + nsec;
}

/* Locate and read the start and end events of the block at @b. */
static enum tv_status
read_block(const struct ltt_xtrace *xt, const uint8_t *b, const char *path,
    uint64_t off, struct nf_block *out, struct tv_error *err)
{
	uint64_t bs = xt->block_size, cand[2];
	uint32_t v = ltt_u32(b + bs - 4, xt->swap);
	int i;

	if (ltt_u16(b, xt->swap) != xt->id_start)
		return tv_error_at(err, TV_CORRUPT, path, off,
		    _("block does not start with a block_start event"));
	cand[0] = v;
	cand[1] = bs - v;
	for (i = 0; i < 2; i++) {
		if (cand[i] < HEAD + STAMP || cand[i] > bs ||
		    bs - cand[i] < HEAD + STAMP + 4 ||
		    ltt_u16(b + cand[i], xt->swap) != xt->id_end)
			continue;
		out->last = cand[i];
		read_stamp(xt, b, &out->cycles[0], &out->ns[0]);
		read_stamp(xt, b + cand[i], &out->cycles[1], &out->ns[1]);
		return TV_OK;
	}
	return tv_error_at(err, TV_CORRUPT, path, off + bs - 4,
	    _("the block's last-event offset (%u) does not lead to a "
	    "block_end event"), v);
}

/* One packet per block of stream @s. */
static enum tv_status
index_stream(struct tv_stream *s, struct tv_error *err)
{
	const struct ltt_xtrace *xt = s->trace->priv;
	const struct tv_mapfile *mf = &s->files[0];
	enum tv_status st;
	uint64_t off;

	/* whole blocks first: a truncated file keeps those */
	for (off = 0; off + xt->block_size <= mf->size;
	    off += xt->block_size) {
		struct tv_packet *p;
		struct nf_block b;

		st = read_block(xt, mf->data + off, mf->path, off, &b, err);
		if (st != TV_OK)
			return st;
		p = tv_stream_add_packet(s);
		p->offset = off;
		p->size = xt->block_size;
		p->content_bits = (b.last + HEAD + STAMP) * 8;
		p->cycles_begin = b.cycles[0];
		p->cycles_end = b.cycles[1];
		p->ts_begin = b.ns[0];
		p->ts_end = b.ns[1] >= b.ns[0] ? b.ns[1] : b.ns[0];
	}
	if (mf->size % xt->block_size)
		return tv_error_at(err, TV_CORRUPT, mf->path,
		    mf->size - mf->size % xt->block_size,
		    _("truncated block: the file size is not a multiple of "
		    "the block size (%llu)"),
		    (unsigned long long)xt->block_size);
	return TV_OK;
}

/* Time of cycle count @c in block @p, interpolated between its stamps. */
static int64_t
interp(const struct tv_packet *p, uint64_t c)
{
	__int128 d, dt;
	uint64_t dc;

	if (p->cycles_end <= p->cycles_begin || c <= p->cycles_begin)
		return p->ts_begin;
	dc = c - p->cycles_begin;
	dt = (__int128)p->ts_end - p->ts_begin;
	if (dc >> 62 != 0 || dt > INT64_MAX || dt < -INT64_MAX) {
		/*
		 * Stamps no tracer writes (a hostile block): the exact
		 * product would pass 128 bits; the result saturates at the
		 * timeline's ends below anyway.
		 */
		long double x = (long double)dc * (long double)dt /
		    (long double)(p->cycles_end - p->cycles_begin) +
		    (long double)p->ts_begin;

		return x >= (long double)INT64_MAX ? INT64_MAX :
		    x <= (long double)INT64_MIN ? INT64_MIN : (int64_t)x;
	}
	d = (__int128)dc * dt / (__int128)(p->cycles_end - p->cycles_begin) +
	    p->ts_begin;
	return d > INT64_MAX ? INT64_MAX : d < INT64_MIN ? INT64_MIN :
	    (int64_t)d;
}

/* decode_packet: the records of one block. */
static enum tv_status
nf_decode_packet(struct tv_stream *s, uint64_t pkt,
    struct tv_packet_events *out)
{
	const struct ltt_xtrace *xt = s->trace->priv;
	const struct tv_packet *p;
	const struct tv_mapfile *mf;
	const uint8_t *b;
	uint64_t pos = 0, end, tsc;
	enum tv_status st = TV_OK;

	b = ltt_xblock(s, pkt, out, &p, &mf);
	if (!b)
		return TV_NOT_FOUND;
	end = p->content_bits / 8;
	tsc = p->cycles_begin;
	while (pos < end) {
		const struct ltt_xclass *xc;
		uint64_t full, data;
		uint32_t id;

		if (end - pos < HEAD) {
			st = ltt_xblock_damage(out, mf, p, pos, NULL);
			break;
		}
		id = ltt_u16(b + pos, xt->swap);
		full = ltt_tsc_extend(tsc, ltt_u32(b + pos + 2, xt->swap));
		xc = id < xt->nids ? xt->by_id[id] : NULL;
		if (!xc) {
			st = tv_error_at(&out->err, TV_CORRUPT, mf->path,
			    p->offset + pos, _("unknown event type id %u"),
			    id);
			break;
		}
		data = pos + HEAD;
		if (xc->fixed >= 0) {
			data += (uint64_t)xc->fixed;
		} else if (ltt_xdecode(xc->payload, b, &data, end, 0, NULL,
		    NULL, 0) != TV_OK) {
			data = UINT64_MAX;
		}
		if (data > end) {
			st = ltt_xblock_damage(out, mf, p, pos, xc);
			break;
		}
		if (id == xt->id_heartbeat && data - pos >= HEAD + 16)
			full = ltt_u64(b + pos + HEAD + 8, xt->swap);
		tsc = full;
		ltt_xpush_event(out, xc, pos, interp(p, full), full);
		pos = data;
	}
	out->status = st;
	return st;
}

/* Where facility_load events put facilities. */
struct nf_loads {
	const struct ltt_xfacility	*builtin;
	uint32_t			*next_base;	/* past the last id */
};

/* Is @ec the builtin facility_load? */
static bool
is_facility_load(const struct tv_trace *t, const struct tv_event_class *ec,
    void *ctx)
{
	const struct ltt_xtrace *xt = t->priv;

	(void)ctx;
	return ec == xt->by_id[xt->id_facload]->ec;
}

/* Place the facility one facility_load names at its base; a load that
 * names no known facility or a bad base is passed over. */
static enum tv_status
facility_load(struct tv_trace *t, const struct tv_event *ev,
    const struct tv_value *v, void *ctx, struct tv_error *err)
{
	struct ltt_xtrace *xt = t->priv;
	const struct nf_loads *nl = ctx;
	const struct ltt_xfacility *f;
	const struct tv_value *nm, *ck, *bc;
	char name[256];

	(void)ev;
	(void)err;
	nm = tv_value_member(v, "name");
	ck = tv_value_member(v, "checksum");
	bc = tv_value_member(v, "base_code");
	if (!nm || !ck || !bc || nm->fc->kind != TV_FC_STRING ||
	    nm->str.len >= sizeof(name))
		return TV_OK;
	memcpy(name, nm->str.ptr, nm->str.len);
	name[nm->str.len] = '\0';
	f = ltt_xdefs_find(&xt->defs, name, (uint32_t)ck->u, true);
	if (!f || f == nl->builtin || bc->u > UINT16_MAX ||
	    t->nclasses + f->nevents > LTT_X_MAX_CLASSES)
		return TV_OK;
	assign(t, f, (uint32_t)bc->u);
	if (bc->u + f->nevents > *nl->next_base)
		*nl->next_base = (uint32_t)bc->u + f->nevents;
	return TV_OK;
}

/* Read control/facilities: facility_load events give names and bases. */
static void
load_facilities(struct tv_trace *t, struct tv_stream *s,
    const struct ltt_xfacility *builtin, uint32_t *next_base)
{
	struct nf_loads nl = { builtin, next_base };
	const struct ltt_xload how = { is_facility_load, facility_load, &nl,
	    false };

	(void)ltt_xload_facilities(t, s, &how, NULL);
}

/* Numeric names first, by value: cpu/2 before cpu/10. */
static int
cmp_num(const struct dirent **a, const struct dirent **b)
{
	unsigned long x = strtoul((*a)->d_name, NULL, 10);
	unsigned long y = strtoul((*b)->d_name, NULL, 10);

	return (x > y) - (x < y);
}

/* Is @e a CPU tracefile name (digits only)? */
static int
is_cpu(const struct dirent *e)
{
	const char *p = e->d_name;

	if (!*p || strlen(p) > 5)
		return 0;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

/* Is @e a visible file name? */
static int
visible(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* Add every tracefile of cpu/ and control/ as a stream. */
static enum tv_status
add_streams(struct tv_trace *t, struct tv_error *err)
{
	struct dirent **ents = NULL;
	enum tv_status st = TV_OK;
	char *dir, *sname;
	int i, n;

	tv_xasprintf(&dir, "%s/cpu", t->path);
	n = scandir(dir, &ents, is_cpu, cmp_num);
	for (i = 0; i < n; i++) {
		if (st == TV_OK && i < MAX_CPUS) {
			tv_xasprintf(&sname, "cpu/%s", ents[i]->d_name);
			st = ltt_xadd_file(t, dir, ents[i]->d_name, sname,
			    (int32_t)strtol(ents[i]->d_name, NULL, 10), false,
			    true, err);
			free(sname);
		}
		free(ents[i]);
	}
	free(ents);
	free(dir);
	/* scandir leaves ents alone when it fails: no stale pointer */
	ents = NULL;
	tv_xasprintf(&dir, "%s/control", t->path);
	n = scandir(dir, &ents, visible, alphasort);
	for (i = 0; i < n; i++) {
		if (st == TV_OK && i < MAX_CPUS) {
			tv_xasprintf(&sname, "control/%s", ents[i]->d_name);
			st = ltt_xadd_file(t, dir, ents[i]->d_name, sname,
			    TV_CPU_UNKNOWN, true, true, err);
			free(sname);
		}
		free(ents[i]);
	}
	free(ents);
	free(dir);
	return st;
}

/* The event ids of the builtin facility, and its classes at base 0. */
static enum tv_status
setup_builtin(struct tv_trace *t, const struct ltt_xfacility **out,
    struct tv_error *err)
{
	struct ltt_xtrace *xt = t->priv;
	const struct ltt_xfacility *b = find_builtin(&xt->defs);
	enum tv_status st;

	if (!b) {
		st = ltt_xdefs_parse(&xt->defs, "(builtin)", builtin_xml,
		    sizeof(builtin_xml) - 1, err);
		if (st != TV_OK)
			return st;
		b = &xt->defs.facs[xt->defs.nfacs - 1];
	}
	xt->id_start = ltt_xevent_index(b, "block_start");
	xt->id_end = ltt_xevent_index(b, "block_end");
	xt->id_heartbeat = ltt_xevent_index(b, "time_heartbeat");
	xt->id_facload = ltt_xevent_index(b, "facility_load");
	assign(t, b, 0);
	*out = b;
	return TV_OK;
}

static const struct tv_format_ops nf_format;

/* See ltt-xml.h. */
enum tv_status
ltt_newfmt_open(const char *path, unsigned flags,
    struct tv_trace ***out, uint32_t *nout,
    struct tv_error *err)
{
	const struct ltt_xfacility *builtin;
	struct tv_error damage;
	struct ltt_xtrace *xt;
	struct tv_trace *t;
	struct tv_clock *clk;
	enum tv_status st;
	uint32_t i, next = 0;
	char *p;

	(void)flags;
	*out = NULL;
	*nout = 0;
	t = ltt_xtrace_new(&nf_format, path);
	xt = t->priv;
	xt->head_size = HEAD;
	clk = tv_arena_zalloc(&t->arena, sizeof(*clk));
	clk->name = tv_intern(t->names, "timespec", 8);
	clk->freq = 1000000000;
	clk->absolute = true;
	tv_clock_finish(clk);
	t->clocks = clk;
	t->nclocks = 1;
	st = read_system(t, err);
	if (st == TV_OK) {
		tv_xasprintf(&p, "%s/eventdefs", t->path);
		st = ltt_xdefs_load_dir(&xt->defs, p, err);
		free(p);
	}
	if (st == TV_OK)
		st = setup_builtin(t, &builtin, err);
	if (st == TV_OK)
		st = add_streams(t, err);
	tv_error_clear(&damage);
	if (st == TV_OK)
		ltt_xindex_streams(t, index_stream, &damage);
	if (st == TV_OK && xt->id_facload != UINT32_MAX) {
		next = builtin->nevents;
		for (i = 0; i < t->nstreams; i++)
			if (strcmp(t->streams[i]->name, "control/facilities")
			    == 0)
				load_facilities(t, t->streams[i], builtin,
				    &next);
	}
	if (st == TV_OK && t->nstreams == 0)
		st = tv_error_at(err, TV_CORRUPT, t->path, TV_NO_OFFSET,
		    _("no tracefile in cpu/"));
	/* Facilities no facility_load placed: after the others, in order. */
	for (i = 0; st == TV_OK && i < xt->defs.nfacs; i++) {
		const struct ltt_xfacility *f = &xt->defs.facs[i];
		uint32_t j;
		bool used = f == builtin;

		for (j = 0; j < xt->nids && !used; j++)
			used = xt->by_id[j] && xt->by_id[j]->fac == f;
		if (!used) {
			assign(t, f, next);
			next += f->nevents;
		}
	}
	return ltt_xopen_end(t, st, &damage, out, nout, err);
}

static const struct tv_format_ops nf_format =
    LTT_XFORMAT(N_("LTT new trace format (2004, XML event definitions)"),
    ltt_newfmt_open, nf_decode_packet);
