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

/* Is @path a directory holding a directory @sub? */
static bool
has_dir(const char *path, const char *sub)
{
	struct stat st;
	char *p;
	bool ok;

	tv_xasprintf(&p, "%s/%s", path, sub);
	ok = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
	free(p);
	return ok;
}

/* See ltt-xml.h. */
bool
ltt_newfmt_probe(const char *path)
{
	return has_dir(path, "cpu") && has_dir(path, "eventdefs");
}

/* Index of the event named @name in @f, or UINT32_MAX. */
static uint32_t
event_index(const struct ltt_xfacility *f, const char *name)
{
	uint32_t i;

	for (i = 0; i < f->nevents; i++)
		if (strcmp(f->events[i].name, name) == 0)
			return i;
	return UINT32_MAX;
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

		if (event_index(f, "block_start") == UINT32_MAX ||
		    event_index(f, "block_end") == UINT32_MAX)
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
	__int128 d;

	if (p->cycles_end <= p->cycles_begin || c <= p->cycles_begin)
		return p->ts_begin;
	d = (__int128)(c - p->cycles_begin) * (p->ts_end - p->ts_begin) /
	    (__int128)(p->cycles_end - p->cycles_begin);
	return p->ts_begin + (int64_t)d;
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

	out->status = TV_OK;
	tv_error_clear(&out->err);
	if (pkt >= s->npackets)
		return TV_NOT_FOUND;
	p = &s->packets[pkt];
	mf = &s->files[p->file];
	b = mf->data + p->offset;
	end = p->content_bits / 8;
	tsc = p->cycles_begin;
	while (pos < end) {
		const struct ltt_xclass *xc;
		struct tv_event_rec *r;
		uint64_t full, data;
		uint32_t id, t32;

		if (end - pos < HEAD) {
			st = tv_error_at(&out->err, TV_CORRUPT, mf->path,
			    p->offset + pos, _("event header runs past the "
			    "block"));
			break;
		}
		id = ltt_u16(b + pos, xt->swap);
		t32 = ltt_u32(b + pos + 2, xt->swap);
		full = (tsc & ~UINT64_C(0xffffffff)) | t32;
		if (full < tsc)
			full += UINT64_C(1) << 32;
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
			st = tv_error_at(&out->err, TV_CORRUPT, mf->path,
			    p->offset + pos, _("payload of %s runs past the "
			    "block"), xc->ec->name);
			break;
		}
		if (data > end) {
			st = tv_error_at(&out->err, TV_CORRUPT, mf->path,
			    p->offset + pos, _("payload of %s runs past the "
			    "block"), xc->ec->name);
			break;
		}
		if (id == xt->id_heartbeat && data - pos >= HEAD + 16)
			full = ltt_u64(b + pos + HEAD + 8, xt->swap);
		tsc = full;
		r = tv_packet_events_push(out);
		r->ts = interp(p, full);
		r->bit_offset = pos * 8;
		r->class_index = xc->ec->index;
		r->kind = TV_REC_EVENT;
		r->count = full;
		pos = data;
	}
	out->status = st;
	return st;
}

/* Read control/facilities: facility_load events give names and bases. */
static void
load_facilities(struct tv_trace *t, struct tv_stream *s,
    const struct ltt_xfacility *builtin, uint32_t *next_base)
{
	struct ltt_xtrace *xt = t->priv;
	struct tv_arena scratch;
	uint64_t k, r;

	tv_arena_init(&scratch);
	for (k = 0; k < s->npackets; k++) {
		struct tv_packet_events pe;

		memset(&pe, 0, sizeof(pe));
		nf_decode_packet(s, k, &pe);
		for (r = 0; r < pe.count; r++) {
			const struct ltt_xfacility *f;
			const struct tv_value *v, *nm, *ck, *bc;
			struct tv_event_fields fl;
			struct tv_event ev = { s, k, r, pe.recs[r] };
			char name[256];

			if (t->classes[pe.recs[r].class_index] !=
			    xt->by_id[xt->id_facload]->ec)
				continue;
			tv_arena_reset(&scratch);
			if (ltt_xdecode_fields(&ev, &scratch, &fl, NULL) !=
			    TV_OK || !(v = fl.scope[TV_SCOPE_EVENT_PAYLOAD]))
				continue;
			nm = tv_value_member(v, "name");
			ck = tv_value_member(v, "checksum");
			bc = tv_value_member(v, "base_code");
			if (!nm || !ck || !bc || nm->fc->kind != TV_FC_STRING ||
			    nm->str.len >= sizeof(name))
				continue;
			memcpy(name, nm->str.ptr, nm->str.len);
			name[nm->str.len] = '\0';
			f = ltt_xdefs_find(&xt->defs, name, (uint32_t)ck->u,
			    true);
			if (!f || f == builtin || bc->u > UINT16_MAX ||
			    t->nclasses + f->nevents > LTT_X_MAX_CLASSES)
				continue;
			assign(t, f, (uint32_t)bc->u);
			if (bc->u + f->nevents > *next_base)
				*next_base = (uint32_t)bc->u + f->nevents;
		}
		tv_packet_events_fini(&pe);
	}
	tv_arena_fini(&scratch);
}

/* Add tracefile @dir/@name as a stream; empty files are skipped. */
static enum tv_status
add_file(struct tv_trace *t, const char *dir, const char *name,
    const char *sname, int32_t cpu, bool control, struct tv_error *err)
{
	struct ltt_xstream *sp;
	struct tv_stream *s;
	struct stat stb;
	enum tv_status st;
	char *p;

	tv_xasprintf(&p, "%s/%s", dir, name);
	if (stat(p, &stb) != 0 || !S_ISREG(stb.st_mode) || stb.st_size == 0) {
		free(p);
		return TV_OK;
	}
	s = tv_trace_add_stream(t, sname);
	sp = tv_xcalloc(1, sizeof(*sp));
	sp->control = control;
	s->priv = sp;
	s->cpu = cpu;
	s->clock = t->clocks;
	st = tv_stream_add_file(s, p, NULL, err);
	free(p);
	return st;
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
			st = add_file(t, dir, ents[i]->d_name, sname,
			    (int32_t)strtol(ents[i]->d_name, NULL, 10), false,
			    err);
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
			st = add_file(t, dir, ents[i]->d_name, sname,
			    TV_CPU_UNKNOWN, true, err);
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
	xt->id_start = event_index(b, "block_start");
	xt->id_end = event_index(b, "block_end");
	xt->id_heartbeat = event_index(b, "time_heartbeat");
	xt->id_facload = event_index(b, "facility_load");
	assign(t, b, 0);
	*out = b;
	return TV_OK;
}

static const struct tv_format_ops nf_format;

/* See ltt-xml.h. */
enum tv_status
ltt_newfmt_open(const char *path, struct tv_trace ***out, uint32_t *nout,
    struct tv_error *err)
{
	const struct ltt_xfacility *builtin;
	struct tv_error damage, e;
	struct ltt_xtrace *xt;
	struct tv_trace *t;
	struct tv_clock *clk;
	enum tv_status st;
	uint32_t i, next = 0;
	char *abs, *p;

	*out = NULL;
	*nout = 0;
	abs = realpath(path, NULL);
	t = tv_trace_create(&nf_format, abs ? abs : path);
	free(abs);
	xt = tv_xcalloc(1, sizeof(*xt));
	t->priv = xt;
	ltt_xdefs_init(&xt->defs, &t->arena);
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
	/*
	 * A damaged tracefile keeps its blocks before the damage and the
	 * others are whole: the trace opens, with the first damage as its
	 * error.
	 */
	tv_error_clear(&damage);
	for (i = 0; i < t->nstreams && st == TV_OK; i++) {
		tv_error_clear(&e);
		if (index_stream(t->streams[i], &e) != TV_OK &&
		    damage.status == TV_OK)
			damage = e;
	}
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
	if (st != TV_OK) {
		tv_trace_destroy(t);
		return st;
	}
	/* Facilities no facility_load placed: after the others, in order. */
	for (i = 0; i < xt->defs.nfacs; i++) {
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
	*out = tv_xcalloc(1, sizeof(**out));
	(*out)[0] = t;
	*nout = 1;
	if (damage.status != TV_OK && err)
		*err = damage;
	return damage.status;
}

static const struct tv_format_ops nf_format = {
	.name		= "ltt",
	.description	= N_("LTT new trace format (2004, XML event "
			    "definitions)"),
	.probe		= NULL,
	.open		= ltt_newfmt_open,
	.close		= ltt_xclose,
	.decode_packet	= nf_decode_packet,
	.decode_fields	= ltt_xdecode_fields,
	.print_record	= ltt_xprint_record,
	.print_header	= ltt_print_header,	/* LTTV's first line */
	.state_rules	= ltt_state_tables,
	.state_hook	= ltt_state_hook,
};
