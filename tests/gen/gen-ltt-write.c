/*
 * gen-ltt's two trace layouts: the facility-era tracefiles (block header,
 * trace file header, 64- or 32-bit event headers with facility and event
 * ids) and the 2004 new format's (block_start ... block_end and the
 * trailing last-event offset), each block filled with "gen" events until
 * one does not fit or, with --lost, closed early.
 */
#include "tview/tview.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tview/util.h"
#include "../../src/formats/ltt/ltt-xml.h"
#include "gen-ltt.h"

#define FAC_HEAD	98u
#define FAC_HEAD_06	66u
#define NF_HEAD		6u
#define NF_STAMP	20u

/* mkdir @dir/@sub (or @dir if @sub is NULL); -1 with a message. */
static int
mkd(const char *dir, const char *sub)
{
	char *p;
	int rc;

	tv_xasprintf(&p, "%s%s%s", dir, sub ? "/" : "", sub ? sub : "");
	rc = mkdir(p, 0755);
	if (rc != 0 && errno != EEXIST)
		fprintf(stderr, "gen-ltt: %s: %s\n", p, strerror(errno));
	else
		rc = 0;
	free(p);
	return rc;
}

/* Write text @s to @dir/@name. */
static int
write_text(const char *dir, const char *name, const char *s)
{
	char *p;
	FILE *fp;
	int rc;

	tv_xasprintf(&p, "%s/%s", dir, name);
	fp = fopen(p, "w");
	if (!fp) {
		fprintf(stderr, "gen-ltt: %s: %s\n", p, strerror(errno));
		free(p);
		return -1;
	}
	fputs(s, fp);
	rc = fclose(fp) == 0 ? 0 : -1;
	free(p);
	return rc;
}

/* The eventdefs of both versions of "gen". */
static int
write_gen_defs(const char *dir)
{
	char *v1, *v2;
	int rc;

	tv_xasprintf(&v1, gen_xml_fmt, "");
	tv_xasprintf(&v2, gen_xml_fmt, gen_v2_extra);
	rc = write_text(dir, "eventdefs/gen.xml", v1) |
	    write_text(dir, "eventdefs/gen_v2.xml", v2);
	free(v1);
	free(v2);
	return rc;
}

/* Open tracefile @path for stream @name at ordinal @ord. */
static int
open_file(struct gen *g, struct tfile *f, const char *path,
    const char *name, uint32_t ord)
{
	memset(f, 0, sizeof(*f));
	f->fp = fopen(path, "wb");
	if (!f->fp) {
		fprintf(stderr, "gen-ltt: %s: %s\n", path, strerror(errno));
		return -1;
	}
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->ord = ord;
	(void)g;
	return 0;
}

/* ---- facility era ---- */

/* First event offset of a facility-era block. */
static uint64_t
fac_data_start(const struct gen *g)
{
	uint64_t h = g->o.minor >= 7 ? FAC_HEAD : FAC_HEAD_06;

	return h + pad(h, 8, g->o.alignment);
}

/* Write out the current block of @f with its two headers. */
static void
fac_close(struct gen *g, struct tfile *f)
{
	uint8_t *b = f->blk;
	uint64_t lp = g->o.lp64 ? 8 : 4;

	if (!b)
		return;
	put(g, b, f->tsc_first, 8);
	put(g, b + 8, g->freq, 8);
	put(g, b + 16, f->tsc_last, 8);
	put(g, b + 24, g->freq, 8);
	put(g, b + 32, g->o.block - f->pos, 4);
	put(g, b + 36, g->o.block, 4);
	put(g, b + 40, 0x00D6B7EDu, 4);
	put(g, b + 44, g->o.lp64 ? 8 : 1, 4);
	put(g, b + 48, 0, 4);
	put(g, b + 52, g->o.be ? 4321 : 1234, 4);
	b[56] = (uint8_t)lp;
	b[57] = 0;
	b[58] = (uint8_t)g->o.minor;
	b[59] = 0;
	b[60] = g->o.heartbeat;
	b[61] = (uint8_t)g->o.alignment;
	put(g, b + 62, 1, 4);
	if (g->o.minor >= 7) {
		put(g, b + 66, g->freq, 8);
		put(g, b + 74, g->start_tsc, 8);
		put(g, b + 82, g->start_ns / NS, 8);
		put(g, b + 90, g->start_ns % NS / 1000, 8);
	}
	fwrite(b, 1, g->o.block, f->fp);
	free(b);
	f->blk = NULL;
	f->nblocks++;
}

/*
 * One facility-era event of facility @fid, event @eid (a "gen" event
 * @ev of version @ver, or a core event written by @core) at @tsc.
 */
static int
fac_event(struct gen *g, struct tfile *f, uint32_t fid, uint32_t eid,
    int ev, int ver, uint64_t tsc, const char *cls, uint64_t r1,
    uint64_t r2, const struct tv_strbuf *core_payload, bool core_text)
{
	unsigned hs = g->o.heartbeat ? 8 : 12;
	int tries;

	for (tries = 0; tries < 2; tries++) {
		struct pw w = { g, NULL, 0, g->o.block, g->o.alignment, true };
		uint64_t pos, ps, size;

		if (!f->blk) {
			f->blk = tv_xcalloc(1, g->o.block);
			f->pos = fac_data_start(g);
			f->tsc_first = tsc;
		}
		w.blk = f->blk;
		tv_strbuf_reset(&g->text);
		pos = f->pos + pad(f->pos, g->o.heartbeat ? 4 : 8,
		    g->o.alignment);
		ps = pos + hs;
		if (pos + hs > g->o.block) {
			w.ok = false;
		} else if (core_payload) {
			ps += pad(ps, 4, g->o.alignment);
			w.pos = ps;
			if (ps + core_payload->len > g->o.block)
				w.ok = false;
			else
				memcpy(f->blk + ps, core_payload->buf,
				    core_payload->len);
			w.pos = ps + core_payload->len;
			if (core_text)
				tv_strbuf_adds(&g->text, core_payload->buf +
				    core_payload->len + 1);
		} else if (g->cur_fc) {
			ps += pad(ps, g->cur_fc->align / 8, g->o.alignment);
			w.pos = ps;
			gen_any_payload(&w, g->cur_fc, r1);
		} else if (ev >= 0) {
			if (ev != 4)
				ps += pad(ps, gen_align(ev, g->o.lp64),
				    g->o.alignment);
			w.pos = ps;
			gen_payload(&w, ev, ver, r1, r2);
		} else {
			w.pos = ps;
		}
		if (!w.ok) {
			if (tries == 0 && f->pos > fac_data_start(g)) {
				fac_close(g, f);
				continue;
			}
			fprintf(stderr, "gen-ltt: event too large\n");
			return -1;
		}
		size = w.pos - ps;
		if (g->o.heartbeat)
			put(g, f->blk + pos, tsc & 0xffffffffu, 4);
		else
			put(g, f->blk + pos, tsc, 8);
		f->blk[pos + hs - 4] = (uint8_t)fid;
		f->blk[pos + hs - 3] = (uint8_t)eid;
		put(g, f->blk + pos + hs - 2, rnd(g) % 7 == 0 ? 0xFFFF : size,
		    2);
		f->pos = w.pos;
		f->tsc_last = tsc;
		add_line(g, f, cls, tsc);
		if (g->o.lost && rnd(g) % 25 == 0)
			fac_close(g, f);
		return 0;
	}
	return -1;
}

/*
 * A core facility_load payload (8 fields) in @sb: the bytes, a NUL, then
 * the text tview prints (so fac_event() can copy both).
 */
static void
fac_load_payload(struct gen *g, struct tv_strbuf *sb, const char *name,
    uint32_t ck, uint32_t id)
{
	uint8_t b[4];
	uint32_t vals[7];
	unsigned lp = g->o.lp64 ? 8 : 4, i;

	vals[0] = ck;
	vals[1] = id;
	vals[2] = 4;
	vals[3] = lp;
	vals[4] = lp;
	vals[5] = lp;
	vals[6] = g->o.alignment;
	tv_strbuf_reset(sb);
	tv_strbuf_add(sb, name, strlen(name) + 1);
	/* The uint32 fields follow the string, aligned to 4. */
	while (g->o.alignment && sb->len % 4)
		tv_strbuf_addc(sb, '\0');
	for (i = 0; i < 7; i++) {
		put(g, b, vals[i], 4);
		tv_strbuf_add(sb, (const char *)b, 4);
	}
	tv_strbuf_addc(sb, '\0');
	sb->len--;
	{
		size_t n = sb->len;

		tv_strbuf_addc(sb, '\0');
		tv_strbuf_addf(sb, " { name = \"%s\", checksum = %u, id = %u, "
		    "int_size = 4, long_size = %u, pointer_size = %u, "
		    "size_t_size = %u, has_alignment = %u }", name, ck, id,
		    lp, lp, lp, g->o.alignment);
		sb->len = n;
	}
}

/* Pick the step to the next event's cycle count. */
static uint64_t
next_step(struct gen *g)
{
	uint64_t r = rnd(g);

	if (r % 150 == 0)
		return (1ull << 32) + rnd(g) % (1ull << 33);
	return 1 + r % 3000;
}

/*
 * --eventdefs: load every facility of the definitions (core at id 0, the
 * others from 1 on), then random events of all of them.
 */
static int
fac_any(struct gen *g, struct tfile *fac)
{
	const struct ltt_xdefs *d = g->any;
	struct ltt_xsizes sz;
	struct tv_strbuf pl;
	const struct tv_field_class ***fcs;
	uint32_t *ids, i, j, k, next = 1, core = UINT32_MAX;
	uint64_t tsc = g->start_tsc;
	char *cls;
	int rc = 0;

	sz.int_size = 4;
	sz.long_size = sz.pointer_size = sz.size_t_size =
	    g->o.lp64 ? 8 : 4;
	sz.alignment = (uint8_t)g->o.alignment;
	sz.bo = g->o.be ? TV_BO_BE : TV_BO_LE;
	fcs = tv_xcalloc(d->nfacs + 1, sizeof(*fcs));
	ids = tv_xcalloc(d->nfacs + 1, sizeof(*ids));
	tv_strbuf_init(&pl);
	for (i = 0; i < d->nfacs; i++) {
		const struct ltt_xfacility *f = &d->facs[i];

		if (strcmp(f->name, "core") == 0 && core == UINT32_MAX) {
			core = i;
			ids[i] = 0;
		} else {
			ids[i] = next < 256 ? next++ : UINT32_MAX;
		}
		fcs[i] = tv_xcalloc(f->nevents + 1, sizeof(**fcs));
		for (j = 0; j < f->nevents; j++) {
			struct tv_field_class *fc;

			if (!f->events[j].type)
				continue;
			fc = ltt_xtype_fc(f->events[j].type, &sz,
			    g->any_arena);
			if (fc->structure.nmembers)
				fcs[i][j] = fc;
		}
		if (ids[i] == UINT32_MAX)
			continue;
		fac_load_payload(g, &pl, f->name, f->checksum, ids[i]);
		rc |= fac_event(g, fac, 0, 0, -1, 0, ++tsc,
		    "core.facility_load", 0, 0, &pl, true);
	}
	tv_strbuf_fini(&pl);
	for (k = 0; k < g->o.events && rc == 0; k++) {
		struct tfile *f = &g->files[rnd(g) % g->o.cpus];
		uint64_t r1 = rnd(g);

		i = (uint32_t)(rnd(g) % d->nfacs);
		if (ids[i] == UINT32_MAX || i == core ||
		    d->facs[i].nevents == 0 || d->facs[i].nevents > 256)
			continue;
		j = (uint32_t)(rnd(g) % d->facs[i].nevents);
		if (strcmp(d->facs[i].name, "statedump") == 0)
			f = &g->files[g->o.cpus + 1];
		tsc += next_step(g);
		while (g->o.heartbeat && f->blk &&
		    tsc - f->tsc_last >= (1ull << 31)) {
			rc |= fac_event(g, f, 0, 2, -1, 0,
			    f->tsc_last + (1ull << 31) - 1,
			    "core.time_heartbeat", 0, 0, NULL, false);
		}
		tv_xasprintf(&cls, "%s.%s", d->facs[i].name,
		    d->facs[i].events[j].name);
		g->cur_fc = fcs[i][j];
		rc |= fac_event(g, f, ids[i], j, -1, 0, tsc, cls, r1, 0, NULL,
		    false);
		g->cur_fc = NULL;
		free(cls);
	}
	for (i = 0; i < d->nfacs; i++)
		free(fcs[i]);
	free(fcs);
	free(ids);
	return rc;
}

/* The facility-era trace. */
int
write_fac(struct gen *g, const char *dir)
{
	struct tv_strbuf pl;
	struct tfile *fac;
	uint64_t tsc;
	uint32_t i, k;
	char *p, name[64];
	int rc = 0;

	if (mkd(dir, NULL) || mkd(dir, "eventdefs") || mkd(dir, "control"))
		return -1;
	if (g->o.any_dir ? gen_any_load(g, g->o.any_dir, dir) :
	    (write_text(dir, "eventdefs/core.xml", core_xml) ||
	    write_gen_defs(dir)))
		return -1;
	g->freq = 1500000000;
	g->start_tsc = 1000000 + rnd(g) % 1000;
	g->start_ns = 1262304000ull * NS + rnd(g) % 1000000 * 1000;
	/* --eventdefs: statedump events go to control/processes_0. */
	g->nfiles = g->o.cpus + (g->o.any_dir ? 2 : 1);
	g->files = tv_xcalloc(g->nfiles, sizeof(*g->files));
	for (i = 0; i < g->o.cpus; i++) {
		snprintf(name, sizeof(name), "cpu_%u", i);
		tv_xasprintf(&p, "%s/%s", dir, name);
		rc |= open_file(g, &g->files[i], p, name, i);
		free(p);
	}
	tv_xasprintf(&p, "%s/control/facilities_0", dir);
	fac = &g->files[g->o.cpus];
	rc |= open_file(g, fac, p, "control/facilities_0", g->o.cpus);
	free(p);
	if (g->o.any_dir) {
		tv_xasprintf(&p, "%s/control/processes_0", dir);
		rc |= open_file(g, &g->files[g->o.cpus + 1], p,
		    "control/processes_0", g->o.cpus + 1);
		free(p);
	}
	if (rc)
		return -1;
	if (g->o.any_dir) {
		rc = fac_any(g, fac);
		goto close;
	}
	tv_strbuf_init(&pl);
	tsc = g->start_tsc;
	fac_load_payload(g, &pl, "core", 0, 0);
	rc |= fac_event(g, fac, 0, 0, -1, 0, ++tsc, "core.facility_load", 0,
	    0, &pl, true);
	fac_load_payload(g, &pl, "gen", g->ck[0], 1);
	rc |= fac_event(g, fac, 0, 0, -1, 0, ++tsc, "core.facility_load", 0,
	    0, &pl, true);
	fac_load_payload(g, &pl, "gen", g->ck[1], 2);
	rc |= fac_event(g, fac, 0, 3, -1, 0, ++tsc,
	    "core.state_dump_facility_load", 0, 0, &pl, true);
	tv_strbuf_fini(&pl);
	for (k = 0; k < g->o.events && rc == 0; k++) {
		static const char *const cls[2][6] = {
			{ "gen.ints", "gen.text", "gen.arrays", "gen.nested",
			  "gen.empty", "" },
			{ "gen.ints", "gen.text", "gen.arrays", "gen.nested",
			  "gen.empty", "gen.v2only" },
		};
		struct tfile *f = &g->files[rnd(g) % g->o.cpus];
		int ver = (int)(rnd(g) % 2);
		int ev = (int)(rnd(g) % (ver ? 6 : 5));
		uint64_t r1 = rnd(g), r2 = rnd(g);

		tsc += next_step(g);
		/* 32-bit headers: a heartbeat at least every 2^31 cycles. */
		while (g->o.heartbeat && f->blk &&
		    tsc - f->tsc_last >= (1ull << 31)) {
			rc |= fac_event(g, f, 0, 2, -1, 0,
			    f->tsc_last + (1ull << 31) - 1,
			    "core.time_heartbeat", 0, 0, NULL, false);
		}
		rc |= fac_event(g, f, 1 + (uint32_t)ver, (uint32_t)ev, ev, ver,
		    tsc, cls[ver][ev], r1, r2, NULL, false);
	}
close:
	for (i = 0; i < g->nfiles; i++) {
		fac_close(g, &g->files[i]);
		if (fclose(g->files[i].fp) != 0)
			rc = -1;
	}
	free(g->files);
	if (g->any) {
		ltt_xdefs_fini(g->any);
		tv_arena_fini(g->any_arena);
		free(g->any);
		free(g->any_arena);
		g->any = NULL;
	}
	return rc ? -1 : 0;
}

/* ---- new format ---- */

/* Write a block_start/block_end/time_heartbeat stamp at @p. */
static void
nf_stamp(struct gen *g, uint8_t *p, uint32_t id, uint64_t tsc,
    int64_t block_id)
{
	int64_t ns = ns_of(g, tsc);

	put(g, p, id, 2);
	put(g, p + 2, tsc & 0xffffffffu, 4);
	put(g, p + NF_HEAD, (uint64_t)ns / NS, 4);
	put(g, p + NF_HEAD + 4, (uint64_t)ns % NS, 4);
	put(g, p + NF_HEAD + 8, tsc, 8);
	if (block_id >= 0)
		put(g, p + NF_HEAD + 16, (uint64_t)block_id, 4);
}

/* The text tview prints for a stamp event. */
static void
nf_stamp_text(struct gen *g, uint64_t tsc, int64_t block_id)
{
	int64_t ns = ns_of(g, tsc);

	tv_strbuf_reset(&g->text);
	tv_strbuf_addf(&g->text, " { %stime = { seconds = %" PRIu64
	    ", nanoseconds = %" PRIu64 " }, cycle_count = %" PRIu64 "%s",
	    block_id >= 0 ? "timestamp = { " : "", (uint64_t)ns / NS,
	    (uint64_t)ns % NS, tsc, block_id >= 0 ? " }" : " }");
	if (block_id >= 0)
		tv_strbuf_addf(&g->text, ", block_id = %" PRId64 " }",
		    block_id);
}

/* Close the current block of @f: block_end and the last-event offset. */
static void
nf_close(struct gen *g, struct tfile *f)
{
	if (!f->blk)
		return;
	nf_stamp(g, f->blk + f->pos, 2, f->tsc_last, (int64_t)f->nblocks);
	nf_stamp_text(g, f->tsc_last, (int64_t)f->nblocks);
	add_line(g, f, "builtin.block_end", f->tsc_last);
	put(g, f->blk + g->o.block - 4, f->pos, 4);
	fwrite(f->blk, 1, g->o.block, f->fp);
	free(f->blk);
	f->blk = NULL;
	f->nblocks++;
}

/* Open a block of @f at @tsc with its block_start event. */
static void
nf_open(struct gen *g, struct tfile *f, uint64_t tsc)
{
	f->blk = tv_xcalloc(1, g->o.block);
	f->tsc_first = f->tsc_last = tsc;
	nf_stamp(g, f->blk, 1, tsc, (int64_t)f->nblocks);
	nf_stamp_text(g, tsc, (int64_t)f->nblocks);
	add_line(g, f, "builtin.block_start", tsc);
	f->pos = NF_HEAD + NF_STAMP;
}

/* One new-format event of type @id at @tsc; payload as fac_event(). */
static int
nf_event(struct gen *g, struct tfile *f, uint32_t id, int ev, int ver,
    uint64_t tsc, const char *cls, uint64_t r1, uint64_t r2,
    const char *fname, uint32_t ck, uint32_t base)
{
	uint64_t lim = g->o.block - 4 - NF_HEAD - NF_STAMP;
	int tries;

	for (tries = 0; tries < 2; tries++) {
		struct pw w = { g, NULL, 0, lim, 0, true };

		if (!f->blk)
			nf_open(g, f, tsc);
		if (tsc - f->tsc_last >= (1ull << 31)) {
			/* A heartbeat gives the full count again. */
			if (f->pos + NF_HEAD + 16 > lim) {
				nf_close(g, f);
				continue;
			}
			nf_stamp(g, f->blk + f->pos, 3, tsc, -1);
			nf_stamp_text(g, tsc, -1);
			add_line(g, f, "builtin.time_heartbeat", tsc);
			f->pos += NF_HEAD + 16;
			f->tsc_last = tsc;
		}
		w.blk = f->blk;
		w.pos = f->pos + NF_HEAD;
		tv_strbuf_reset(&g->text);
		if (fname) {
			size_t n = strlen(fname) + 1;

			if (w.pos + n + 8 > lim) {
				w.ok = false;
			} else {
				memcpy(w.blk + w.pos, fname, n);
				put(g, w.blk + w.pos + n, ck, 4);
				put(g, w.blk + w.pos + n + 4, base, 4);
				w.pos += n + 8;
				tv_strbuf_addf(&g->text, " { name = \"%s\", "
				    "checksum = %u, base_code = %u }", fname,
				    ck, base);
			}
		} else if (ev >= 0) {
			gen_payload(&w, ev, ver, r1, r2);
		}
		if (w.pos > lim)
			w.ok = false;
		if (!w.ok) {
			if (tries == 0 && f->pos > NF_HEAD + NF_STAMP) {
				nf_close(g, f);
				continue;
			}
			fprintf(stderr, "gen-ltt: event too large\n");
			return -1;
		}
		put(g, f->blk + f->pos, id, 2);
		put(g, f->blk + f->pos + 2, tsc & 0xffffffffu, 4);
		f->pos = w.pos;
		f->tsc_last = tsc;
		add_line(g, f, cls, tsc);
		if (g->o.lost && rnd(g) % 25 == 0)
			nf_close(g, f);
		return 0;
	}
	return -1;
}

/* The new-format trace. */
int
write_new(struct gen *g, const char *dir)
{
	struct tfile *fac;
	struct tv_strbuf sys;
	uint64_t tsc;
	uint32_t i, k;
	char *p, name[64];
	int rc = 0;

	g->base[0] = 10;
	g->base[1] = 40;
	if (mkd(dir, NULL) || mkd(dir, "eventdefs") || mkd(dir, "control") ||
	    mkd(dir, "cpu") || mkd(dir, "info") ||
	    write_text(dir, "eventdefs/builtin.xml", builtin_xml) ||
	    write_gen_defs(dir))
		return -1;
	tv_strbuf_init(&sys);
	tv_strbuf_addf(&sys, "<system\nnode_name=\"gen-host\"\n"
	    "domainname=\"example.org\"\ncpu=%u\narch_size=\"%s\"\n"
	    "endian=\"%s\"\nkernel_name=\"Linux\"\n"
	    "kernel_release=\"2.6.0-gen\"\nmachine=\"%s\"\n"
	    "ltt_major_version=\"2\"\nltt_minor_version=\"2\"\n"
	    "ltt_block_size=\"%u\"\n>\nGenerated by gen-ltt\n</system>\n",
	    g->o.cpus * 2, g->o.lp64 ? "LP64" : "ILP32",
	    g->o.be ? "BIG_ENDIAN" : "LITTLE_ENDIAN",
	    g->o.lp64 ? "x86_64" : "i686", g->o.block);
	rc = write_text(dir, "info/system.xml", sys.buf);
	tv_strbuf_fini(&sys);
	if (rc)
		return -1;
	g->start_tsc = 5000000 + rnd(g) % 1000;
	g->start_ns = 1075000000ull * NS + rnd(g) % NS;
	g->nfiles = g->o.cpus + 1;
	g->files = tv_xcalloc(g->nfiles, sizeof(*g->files));
	/* Sparse CPU numbers: 0, 2, 4, ... */
	for (i = 0; i < g->o.cpus; i++) {
		snprintf(name, sizeof(name), "cpu/%u", i * 2);
		tv_xasprintf(&p, "%s/%s", dir, name);
		rc |= open_file(g, &g->files[i], p, name, i);
		free(p);
	}
	tv_xasprintf(&p, "%s/control/facilities", dir);
	fac = &g->files[g->o.cpus];
	rc |= open_file(g, fac, p, "control/facilities", g->o.cpus);
	free(p);
	if (rc)
		return -1;
	tsc = g->start_tsc;
	for (i = 0; i < 2; i++)
		rc |= nf_event(g, fac, 0, -1, 0, ++tsc,
		    "builtin.facility_load", 0, 0, "gen", g->ck[i],
		    g->base[i]);
	for (k = 0; k < g->o.events && rc == 0; k++) {
		static const char *const cls[6] = { "gen.ints", "gen.text",
		    "gen.arrays", "gen.nested", "gen.empty", "gen.v2only" };
		struct tfile *f = &g->files[rnd(g) % g->o.cpus];
		int ver = (int)(rnd(g) % 2);
		int ev = (int)(rnd(g) % (ver ? 6 : 5));
		uint64_t r1 = rnd(g), r2 = rnd(g);

		tsc += next_step(g);
		rc |= nf_event(g, f, g->base[ver] + (uint32_t)ev, ev, ver, tsc,
		    cls[ev], r1, r2, NULL, 0, 0);
	}
	for (i = 0; i < g->nfiles; i++) {
		nf_close(g, &g->files[i]);
		if (fclose(g->files[i].fp) != 0)
			rc = -1;
	}
	free(g->files);
	return rc ? -1 : 0;
}
