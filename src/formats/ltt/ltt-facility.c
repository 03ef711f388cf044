/*
 * LTTng 0.x, facility era: a directory with eventdefs/ (facility XML),
 * control/ (facilities_N, interrupts_N, modules_N, processes_N) and the
 * per-CPU tracefiles cpu_N at its root.  Every tracefile is a sequence of
 * equal-size blocks: a block header (begin/end cycle count and frequency,
 * lost_size, buf_size), then the trace file header (magic 0x00D6B7ED in
 * the trace's byte order, arch type/variant, float word order, arch_size,
 * major/minor, flight recorder, has_heartbeat, alignment, freq_scale, and
 * from 0.7 on start_freq, start_tsc, start_time), then events.
 *
 * An event header is a 64-bit cycle count (or its low 32 bits when the
 * trace has heartbeats: the full count is rebuilt from the previous event,
 * adding 2^32 when the low half goes back), facility id, event id and
 * event_size (0xFFFF: size from the definition); header and payload are
 * aligned as the trace header's alignment says.  Facility ids come from
 * the facility_load / state_dump_facility_load events of control/
 * facilities_N (name, checksum, id, C type sizes, alignment); facility 0
 * is "core", which describes those events.
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

#define BLOCK_HEAD	40u
#define HEAD_06		66u	/* end of the trace file header before 0.7 */
#define HEAD_07		98u
#define MIN_BLOCK	128u
#define MAX_BLOCK	(UINT64_C(1) << 30)
#define MAX_FILES	4096

/* The fields of facility_load and state_dump_facility_load. */
#define LOAD_FIELDS							\
	"<field name=name><string/></field>"				\
	"<field name=checksum><uint size=4/></field>"			\
	"<field name=id><uint size=4/></field>"				\
	"<field name=int_size><uint size=4/></field>"			\
	"<field name=long_size><uint size=4/></field>"			\
	"<field name=pointer_size><uint size=4/></field>"		\
	"<field name=size_t_size><uint size=4/></field>"		\
	"<field name=has_alignment><uint size=4/></field></event>\n"

/* The core facility, for traces whose eventdefs lack core.xml. */
static const char core_xml[] =
	"<facility name=core>\n"
	"<event name=facility_load>"
	LOAD_FIELDS
	"<event name=facility_unload><field name=id><uint size=4/></field>"
	"</event>\n"
	"<event name=time_heartbeat></event>\n"
	"<event name=state_dump_facility_load>"
	LOAD_FIELDS
	"</facility>\n";

/* Does the file @path carry the magic at offset 40, in either order? */
static bool
magic_at_40(const char *path)
{
	uint8_t buf[BLOCK_HEAD + 4];
	uint32_t m;
	FILE *fp = fopen(path, "rb");
	bool ok;

	if (!fp)
		return false;
	ok = fread(buf, 1, sizeof(buf), fp) == sizeof(buf);
	fclose(fp);
	if (!ok)
		return false;
	memcpy(&m, buf + BLOCK_HEAD, sizeof(m));
	return m == LTT_MAGIC || m == LTT_MAGIC_REV;
}

/* See ltt-xml.h. */
bool
ltt_fac_probe(const char *path)
{
	char *p;
	bool ok;

	/* The magic, or the layout (so that a bad magic is reported). */
	tv_xasprintf(&p, "%s/control/facilities_0", path);
	ok = magic_at_40(p);
	free(p);
	return ok || (ltt_path_is(path, "eventdefs", S_IFDIR) &&
	    ltt_path_is(path, "control/facilities_0", S_IFREG));
}

/* The trace-wide facts of the first block of @mf; checks the magic. */
static enum tv_status
read_header(struct ltt_xtrace *xt, const struct tv_mapfile *mf,
    struct tv_error *err)
{
	const uint8_t *p = mf->data;
	uint32_t m;
	uint8_t arch_size;

	if (mf->size < MIN_BLOCK)
		return tv_error_at(err, TV_CORRUPT, mf->path, 0,
		    _("file too short for a block header"));
	memcpy(&m, p + BLOCK_HEAD, sizeof(m));
	if (m != LTT_MAGIC && m != LTT_MAGIC_REV)
		return tv_error_at(err, TV_FORMAT, mf->path, BLOCK_HEAD,
		    _("bad magic number 0x%08x"), m);
	xt->swap = m == LTT_MAGIC_REV;
	xt->sizes.bo = xt->swap == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
	    ? TV_BO_BE : TV_BO_LE;
	{
		static const char *const archs[] = { NULL, "i386", "ppc",
		    "sh", "s390", "mips", "arm", "powerpc", "x86_64" };
		uint32_t at = ltt_u32(p + 44, xt->swap);

		xt->arch = at < TV_ARRAY_SIZE(archs) ? archs[at] : NULL;
	}
	arch_size = p[56];
	xt->major = p[57];
	xt->minor = p[58];
	xt->heartbeat = p[60] != 0;
	xt->sizes.alignment = p[61];
	xt->freq_scale = ltt_u32(p + 62, xt->swap);
	if (arch_size != 4 && arch_size != 8)
		return tv_error_at(err, TV_CORRUPT, mf->path, 56,
		    _("invalid arch_size %u"), arch_size);
	if (xt->sizes.alignment > 8 ||
	    (xt->sizes.alignment & (xt->sizes.alignment - 1)))
		return tv_error_at(err, TV_CORRUPT, mf->path, 61,
		    _("invalid alignment %u"), xt->sizes.alignment);
	if (xt->major != 0)
		return tv_error_at(err, TV_UNSUPPORTED, mf->path, 57,
		    _("unsupported facility-era version %u.%u"), xt->major,
		    xt->minor);
	xt->sizes.int_size = 4;
	xt->sizes.long_size = xt->sizes.pointer_size =
	    xt->sizes.size_t_size = arch_size;
	xt->data_start = xt->minor >= 7 ? HEAD_07 : HEAD_06;
	if (xt->sizes.alignment)
		xt->data_start += ltt_align(xt->data_start, 8,
		    xt->sizes.alignment);
	xt->head_size = xt->heartbeat ? 8 : 12;
	xt->has_size = true;
	if (xt->freq_scale == 0)
		xt->freq_scale = 1;
	if (xt->minor >= 7) {
		xt->start_freq = ltt_u64(p + 66, xt->swap);
		xt->start_tsc = ltt_u64(p + 74, xt->swap);
		/* seconds kept below 9e9 (year 2255) so ns fit an int64 */
		xt->start_ns = (int64_t)(ltt_u64(p + 82, xt->swap) %
		    UINT64_C(9000000000)) * 1000000000 +
		    (int64_t)(ltt_u64(p + 90, xt->swap) % 1000000) * 1000;
	} else {
		xt->start_freq = ltt_u64(p + 8, xt->swap);
		xt->start_tsc = 0;
		xt->start_ns = 0;
	}
	if (xt->start_freq == 0)
		return tv_error_at(err, TV_CORRUPT, mf->path,
		    xt->minor >= 7 ? 66 : 8, _("zero clock frequency"));
	return TV_OK;
}

/* ns of cycle count @tsc: start time plus elapsed cycles over the
 * frequency (scaled by freq_scale). */
static int64_t
tsc_to_ns(const struct ltt_xtrace *xt, uint64_t tsc)
{
	__int128 d = (__int128)((int64_t)(tsc - xt->start_tsc)) *
	    1000000000 * xt->freq_scale / (__int128)xt->start_freq;

	int64_t ns;

	if (d > INT64_MAX / 2)
		d = INT64_MAX / 2;
	if (d < -(INT64_MAX / 2))
		d = -(INT64_MAX / 2);
	/* a hostile start time plus a far cycle count: the timeline's
	 * ends, never past them (nor onto TV_TIME_NONE) */
	if (__builtin_add_overflow(xt->start_ns, (int64_t)d, &ns))
		return d > 0 ? INT64_MAX : INT64_MIN + 1;
	return ns == TV_TIME_NONE ? INT64_MIN + 1 : ns;
}

/* One packet per block of stream @s, checking each header. */
static enum tv_status
index_stream(struct tv_stream *s, struct tv_error *err)
{
	const struct ltt_xtrace *xt = s->trace->priv;
	const struct tv_mapfile *mf = &s->files[0];
	uint64_t off, bs;
	uint32_t m;

	if (mf->size < MIN_BLOCK)
		return tv_error_at(err, TV_CORRUPT, mf->path, 0,
		    _("file too short for a block header"));
	bs = ltt_u32(mf->data + 36, xt->swap);
	if (bs < MIN_BLOCK || bs > MAX_BLOCK || bs % 8)
		return tv_error_at(err, TV_CORRUPT, mf->path, 36,
		    _("invalid block size %llu"), (unsigned long long)bs);
	/* whole blocks first: a truncated file keeps those */
	for (off = 0; off + bs <= mf->size; off += bs) {
		const uint8_t *b = mf->data + off;
		struct tv_packet *p;
		uint32_t lost, size;

		memcpy(&m, b + BLOCK_HEAD, sizeof(m));
		if (m != (xt->swap ? LTT_MAGIC_REV : LTT_MAGIC))
			return tv_error_at(err, TV_CORRUPT, mf->path,
			    off + BLOCK_HEAD, _("bad magic number 0x%08x"), m);
		size = ltt_u32(b + 36, xt->swap);
		lost = ltt_u32(b + 32, xt->swap);
		if (size != bs)
			return tv_error_at(err, TV_CORRUPT, mf->path, off + 36,
			    _("block size %u differs from the first block's "
			    "(%llu)"), size, (unsigned long long)bs);
		if (lost > bs - xt->data_start)
			return tv_error_at(err, TV_CORRUPT, mf->path, off + 32,
			    _("lost_size %u is larger than the block"), lost);
		p = tv_stream_add_packet(s);
		p->offset = off;
		p->size = bs;
		p->content_bits = (bs - lost) * 8;
		p->cycles_begin = ltt_u64(b, xt->swap);
		p->cycles_end = ltt_u64(b + 16, xt->swap);
		p->ts_begin = tsc_to_ns(xt, p->cycles_begin);
		p->ts_end = tsc_to_ns(xt, p->cycles_end);
		if (p->ts_end < p->ts_begin)
			p->ts_end = p->ts_begin;
	}
	if (mf->size % bs)
		return tv_error_at(err, TV_CORRUPT, mf->path,
		    mf->size - mf->size % bs, _("truncated block: the file "
		    "size is not a multiple of the block size (%llu)"),
		    (unsigned long long)bs);
	return TV_OK;
}

/* decode_packet: the records of one block. */
static enum tv_status
fac_decode_packet(struct tv_stream *s, uint64_t pkt,
    struct tv_packet_events *out)
{
	const struct ltt_xtrace *xt = s->trace->priv;
	const struct tv_packet *p;
	const struct tv_mapfile *mf;
	const uint8_t *b;
	uint64_t pos, end, tsc;
	enum tv_status st = TV_OK;
	uint8_t al = xt->sizes.alignment;

	b = ltt_xblock(s, pkt, out, &p, &mf);
	if (!b)
		return TV_NOT_FOUND;
	end = p->content_bits / 8;
	tsc = p->cycles_begin;
	pos = xt->data_start;
	for (;;) {
		const struct ltt_xclass *xc;
		uint64_t full, data;
		uint32_t fid, eid, size;

		pos += ltt_align(pos, xt->heartbeat ? 4 : 8, al);
		if (pos >= end)
			break;
		if (end - pos < xt->head_size) {
			st = ltt_xblock_damage(out, mf, p, pos, NULL);
			break;
		}
		if (xt->heartbeat) {
			full = ltt_tsc_extend(tsc, ltt_u32(b + pos, xt->swap));
		} else {
			full = ltt_u64(b + pos, xt->swap);
		}
		fid = b[pos + xt->head_size - 4];
		eid = b[pos + xt->head_size - 3];
		size = ltt_u16(b + pos + xt->head_size - 2, xt->swap);
		xc = (fid << 8 | eid) < xt->nids ? xt->by_id[fid << 8 | eid] :
		    NULL;
		if (!xc) {
			st = tv_error_at(&out->err, TV_CORRUPT, mf->path,
			    p->offset + pos, _("unknown facility id %u or "
			    "event id %u"), fid, eid);
			break;
		}
		data = pos + xt->head_size;
		if (xc->payload)
			data += ltt_align(data, xc->payload->align / 8,
			    xc->alignment);
		if (size != 0xFFFF)
			data += size;
		else if (xc->payload && ltt_xdecode(xc->payload, b, &data,
		    end, xc->alignment, NULL, NULL, 0) != TV_OK)
			data = UINT64_MAX;
		if (data > end) {
			st = ltt_xblock_damage(out, mf, p, pos, xc);
			break;
		}
		tsc = full;
		ltt_xpush_event(out, xc, pos, tsc_to_ns(xt, full), full);
		pos = data;
	}
	out->status = st;
	return st;
}

/* Give facility @f the id @fid with sizes @sz. */
static void
assign(struct tv_trace *t, const struct ltt_xfacility *f, uint32_t fid,
    const struct ltt_xsizes *sz)
{
	struct ltt_xtrace *xt = t->priv;
	uint32_t i;

	for (i = 0; i < f->nevents && i < 256; i++)
		ltt_xset_id(xt, fid << 8 | i, ltt_xclass_add(t, f, i, sz));
}

/* An integer member of a decoded struct, or false. */
static bool
member_u(const struct tv_value *v, const char *name, uint64_t *out)
{
	const struct tv_value *k = tv_value_member(v, name);

	if (!k || (k->fc->kind != TV_FC_INT && k->fc->kind != TV_FC_ENUM))
		return false;
	*out = k->u;
	return true;
}

/* Is @b a valid C type size? */
static bool
good_size(uint64_t b)
{
	return b == 1 || b == 2 || b == 4 || b == 8;
}

/*
 * Without a checksum match, the facility of that name written for the
 * traced architecture (kernel_arch comes in one file per arch).
 */
static const struct ltt_xfacility *
find_arch(const struct ltt_xdefs *d, const char *name, const char *arch)
{
	uint32_t i;

	for (i = 0; arch && i < d->nfacs; i++)
		if (strcmp(d->facs[i].name, name) == 0 && d->facs[i].arch &&
		    strcmp(d->facs[i].arch, arch) == 0)
			return &d->facs[i];
	return NULL;
}

/* Apply one decoded facility_load event @v of record @ev. */
static enum tv_status
facility_load(struct tv_trace *t, const struct tv_event *ev,
    const struct tv_value *v, void *ctx, struct tv_error *err)
{
	struct ltt_xtrace *xt = t->priv;
	const struct tv_packet *p = &ev->stream->packets[ev->packet];
	const char *path = ev->stream->files[p->file].path;
	uint64_t off = p->offset + ev->rec.bit_offset / 8;
	const struct tv_value *nm = tv_value_member(v, "name");
	const struct ltt_xfacility *f;
	struct ltt_xsizes sz = xt->sizes;
	uint64_t ck, id, is, ls, ps, ss, al;
	char name[256];

	(void)ctx;
	if (!nm || nm->fc->kind != TV_FC_STRING || nm->str.len >= sizeof(name)
	    || !member_u(v, "checksum", &ck) || !member_u(v, "id", &id) ||
	    !member_u(v, "int_size", &is) || !member_u(v, "long_size", &ls) ||
	    !member_u(v, "pointer_size", &ps) ||
	    !member_u(v, "size_t_size", &ss) ||
	    !member_u(v, "has_alignment", &al))
		return tv_error_at(err, TV_CORRUPT, path, off,
		    _("facility_load event without the expected fields"));
	memcpy(name, nm->str.ptr, nm->str.len);
	name[nm->str.len] = '\0';
	if (id > 255 || !good_size(is) || !good_size(ls) || !good_size(ps) ||
	    !good_size(ss) || al > 8 || (al & (al - 1)))
		return tv_error_at(err, TV_CORRUPT, path, off,
		    _("invalid facility_load of %s (id %llu)"), name,
		    (unsigned long long)id);
	f = ltt_xdefs_find(&xt->defs, name, (uint32_t)ck, false);
	if (!f)
		f = find_arch(&xt->defs, name, xt->arch);
	if (!f)
		f = ltt_xdefs_find(&xt->defs, name, (uint32_t)ck, true);
	if (!f)
		return tv_error_at(err, TV_NOT_FOUND, path, off,
		    _("facility %s is not defined in eventdefs/"), name);
	/* Loaded again (state dump, or core describing itself): keep it. */
	if ((id << 8) < xt->nids && xt->by_id[id << 8] &&
	    xt->by_id[id << 8]->fac == f)
		return TV_OK;
	if (t->nclasses + f->nevents > LTT_X_MAX_CLASSES)
		return tv_error_at(err, TV_UNSUPPORTED, path, off,
		    _("too many facility loads"));
	sz.int_size = (uint8_t)is;
	sz.long_size = (uint8_t)ls;
	sz.pointer_size = (uint8_t)ps;
	sz.size_t_size = (uint8_t)ss;
	sz.alignment = (uint8_t)al;
	assign(t, f, (uint32_t)id, &sz);
	return TV_OK;
}

/* The facility_load events of the core facility, as loaded. */
struct core_loads {
	const struct ltt_xfacility	*core;
	const struct tv_event_class	*lc, *sc;	/* may be NULL */
	uint32_t			 ld, sd;	/* event indexes */
};

/* Is @ec a (state dump) facility_load of the core facility? */
static bool
is_facility_load(const struct tv_trace *t, const struct tv_event_class *ec,
    void *ctx)
{
	const struct core_loads *cl = ctx;
	const struct ltt_xclass *xc = ec->priv;

	(void)t;
	if (ec == cl->lc || ec == cl->sc)
		return true;
	/* A reloaded core has new classes. */
	return xc->fac == cl->core && (xc->event == cl->ld ||
	    xc->event == cl->sd);
}

/* Load the facilities named by the facility_load events of @s. */
static enum tv_status
load_facilities(struct tv_trace *t, struct tv_stream *s,
    const struct ltt_xfacility *core, struct tv_error *err)
{
	struct ltt_xtrace *xt = t->priv;
	struct core_loads cl = { core, NULL, NULL,
	    ltt_xevent_index(core, "facility_load"),
	    ltt_xevent_index(core, "state_dump_facility_load") };
	const struct ltt_xload how = { is_facility_load, facility_load, &cl,
	    true };

	cl.lc = cl.ld < xt->nids && xt->by_id[cl.ld] ? xt->by_id[cl.ld]->ec :
	    NULL;
	cl.sc = cl.sd < xt->nids && xt->by_id[cl.sd] ? xt->by_id[cl.sd]->ec :
	    NULL;
	return ltt_xload_facilities(t, s, &how, err);
}

/* "<name>_<digits>": the CPU number, or -1. */
static long
cpu_of(const char *name)
{
	const char *us = strrchr(name, '_');
	char *end;
	long v;

	if (!us || !us[1] || us[1] < '0' || us[1] > '9')
		return -1;
	v = strtol(us + 1, &end, 10);
	return *end || v > 65535 ? -1 : v;
}

/* Visible names of tracefiles "<name>_<cpu>". */
static int
is_tracefile(const struct dirent *e)
{
	return e->d_name[0] != '.' && cpu_of(e->d_name) >= 0;
}

/* The tracefiles "<name>_<cpu>" of @sub ("" for the root) as streams:
 * cpu_N first, then control/; index_stream() checks their magic. */
static enum tv_status
add_dir(struct tv_trace *t, const char *sub, struct tv_error *err)
{
	struct dirent **ents = NULL;
	enum tv_status st = TV_OK;
	char *dir, *p, *sname;
	int i, n;

	tv_xasprintf(&dir, "%s%s%s", t->path, *sub ? "/" : "", sub);
	n = scandir(dir, &ents, is_tracefile, alphasort);
	for (i = 0; i < n; i++) {
		tv_xasprintf(&p, "%s/%s", dir, ents[i]->d_name);
		if (st == TV_OK && i < MAX_FILES) {
			tv_xasprintf(&sname, "%s%s%s", sub, *sub ? "/" : "",
			    ents[i]->d_name);
			st = ltt_xadd_file(t, dir, ents[i]->d_name, sname,
			    *sub ? TV_CPU_UNKNOWN :
			    (int32_t)cpu_of(ents[i]->d_name), *sub != 0, false,
			    err);
			free(sname);
		}
		free(p);
		free(ents[i]);
	}
	free(ents);
	free(dir);
	return st;
}

/* The environment --info shows. */
static void
describe(struct tv_trace *t, const struct tv_mapfile *mf)
{
	struct ltt_xtrace *xt = t->priv;
	struct tv_env_entry *env = tv_arena_zalloc(&t->arena,
	    sizeof(*env) * 7);
	char buf[32];

	snprintf(buf, sizeof(buf), "%u.%u", (unsigned)xt->major,
	    (unsigned)xt->minor);
	env[0].key = "ltt_format";
	env[0].str = tv_arena_strdup(&t->arena, buf);
	env[1].key = "arch_type";
	env[1].num = ltt_u32(mf->data + 44, xt->swap);
	env[2].key = "arch_size";
	env[2].num = xt->sizes.pointer_size;
	env[3].key = "byte_order";
	env[3].str = xt->sizes.bo == TV_BO_LE ? "le" : "be";
	env[4].key = "has_heartbeat";
	env[4].num = xt->heartbeat;
	env[5].key = "alignment";
	env[5].num = xt->sizes.alignment;
	env[6].key = "flight_recorder";
	env[6].num = mf->data[59];
	t->env = env;
	t->nenv = 7;
}

static const struct tv_format_ops fac_format;

/*
 * Open the trace: header, eventdefs, streams, core, facilities.  The
 * first damaged tracefile goes to @damage, not @err: the trace opens.
 */
static enum tv_status
open_trace(struct tv_trace *t, struct tv_error *damage, struct tv_error *err)
{
	struct ltt_xtrace *xt = t->priv;
	const struct ltt_xfacility *core;
	struct tv_clock *clk;
	enum tv_status st;
	uint32_t i;
	char *p;

	st = add_dir(t, "", err);
	if (st == TV_OK)
		st = add_dir(t, "control", err);
	if (st != TV_OK)
		return st;
	for (i = 0; i < t->nstreams; i++)
		if (strncmp(t->streams[i]->name, "control/facilities_", 19)
		    == 0)
			break;
	if (i == t->nstreams)
		return tv_error_at(err, TV_CORRUPT, t->path, TV_NO_OFFSET,
		    _("no control/facilities_N tracefile"));
	st = read_header(xt, &t->streams[i]->files[0], err);
	if (st != TV_OK)
		return st;
	describe(t, &t->streams[i]->files[0]);
	clk = tv_arena_zalloc(&t->arena, sizeof(*clk));
	clk->name = tv_intern(t->names, "tsc", 3);
	clk->freq = xt->start_freq / xt->freq_scale ?
	    xt->start_freq / xt->freq_scale : 1;
	tv_clock_finish(clk);
	t->clocks = clk;
	t->nclocks = 1;
	tv_xasprintf(&p, "%s/eventdefs", t->path);
	st = ltt_xdefs_load_dir(&xt->defs, p, err);
	free(p);
	if (st != TV_OK)
		return st;
	core = ltt_xdefs_find(&xt->defs, "core", 0, true);
	if (!core || ltt_xevent_index(core, "facility_load") == UINT32_MAX) {
		st = ltt_xdefs_parse(&xt->defs, "(core)", core_xml,
		    sizeof(core_xml) - 1, err);
		if (st != TV_OK)
			return st;
		core = &xt->defs.facs[xt->defs.nfacs - 1];
	}
	assign(t, core, 0, &xt->sizes);
	ltt_xindex_streams(t, index_stream, damage);
	for (i = 0; i < t->nstreams && st == TV_OK; i++)
		if (strncmp(t->streams[i]->name, "control/facilities_", 19)
		    == 0)
			st = load_facilities(t, t->streams[i], core, err);
	return st;
}

/* See ltt-xml.h. */
enum tv_status
ltt_fac_open(const char *path, unsigned flags,
    struct tv_trace ***out, uint32_t *nout,
    struct tv_error *err)
{
	struct tv_error damage;
	struct tv_trace *t;
	enum tv_status st;

	(void)flags;
	*out = NULL;
	*nout = 0;
	t = ltt_xtrace_new(&fac_format, path);
	tv_error_clear(&damage);
	st = open_trace(t, &damage, err);
	return ltt_xopen_end(t, st, &damage, out, nout, err);
}

static const struct tv_format_ops fac_format =
    LTT_XFORMAT(N_("LTTng 0.x, facility era (XML event definitions)"),
    ltt_fac_open, fac_decode_packet);
