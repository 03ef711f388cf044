/*
 * gen-ltt: writes the XML-described LTT trace kinds that no tool alive
 * produces any more, for tview's round-trip tests, with the text
 * `tview --dump` must print for them:
 *
 *   gen-ltt --format fac|new [options] --expect FILE OUTDIR
 *
 * fac: LTTng 0.x facility era (eventdefs/, control/facilities_0, cpu_N;
 * block header + trace file header 0.7; 64-bit or heartbeat 32-bit
 * timestamps; alignment; lost bytes at block ends; event_size 0xFFFF).
 * new: the 2004 new format (info/system.xml, eventdefs/, control/,
 * sparse cpu/N; equal-size blocks ending in the last-event offset;
 * block_start/block_end; uint16 id + uint32 time headers).
 *
 * The event definitions are written here (a "gen" facility in two
 * versions of the same name, loaded under two ids).  Their checksums come
 * from tview's own XML parser, the only definition of that checksum.
 */
#include "tview/tview.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tview/error.h"
#include "tview/util.h"
#include "../../src/formats/ltt/ltt-xml.h"
#include "gen-ltt.h"


/* The generated facility, in two versions.  @V2@ marks the difference. */
const char gen_xml_fmt[] =
	"<?xml version=\"1.0\"?>\n"
	"<facility name=\"gen\">\n"
	"  <description>tview generator facility</description>\n"
	"  <type name=\"mode\"><enum size=\"1\">\n"
	"    <label name=\"USER\" value=\"0\"/><label name=\"KERNEL\"/>\n"
	"    <label name=\"IRQ\" value=\"5\"/></enum></type>\n"
	"  <type name=\"pair\"><struct>\n"
	"    <field name=\"lo\"><uint size=\"2\"/></field>\n"
	"    <field name=\"hi\"><int size=\"8\"/></field></struct></type>\n"
	"  <event name=\"ints\">\n"
	"    <field name=\"a\"><int size=\"1\"/></field>\n"
	"    <field name=\"b\"><uint size=\"2\"/></field>\n"
	"    <field name=\"c\"><int/></field>\n"
	"    <field name=\"d\"><uint size=\"8\"/></field>\n"
	"    <field name=\"e\"><long/></field>\n"
	"    <field name=\"f\"><size_t/></field>\n"
	"    <field name=\"p\"><pointer/></field>\n"
	"    <field name=\"m\"><typeref name=\"mode\"/></field>\n"
	"  </event>\n"
	"  <event name=\"text\">\n"
	"    <field name=\"name\"><string/></field>\n"
	"    <field name=\"n\"><uint size=\"4\"/></field>\n"
	"  </event>\n"
	"  <event name=\"arrays\">\n"
	"    <field name=\"fixed\"><array size=\"3\"><uint size=\"2\"/>"
	"</array></field>\n"
	"    <field name=\"seq\"><sequence><uint size=\"1\"/>"
	"<int size=\"4\"/></sequence></field>\n"
	"  </event>\n"
	"  <event name=\"nested\">\n"
	"    <field name=\"pr\"><typeref name=\"pair\"/></field>\n"
	"    <field name=\"u\"><union typecodesize=\"1\">\n"
	"      <field name=\"i\"><int size=\"4\"/></field>\n"
	"      <field name=\"s\"><string/></field></union></field>\n"
	"    <field name=\"x\"><float size=\"8\"/></field>\n"
	"  </event>\n"
	"  <event name=\"empty\"/>\n"
	"%s"
	"</facility>\n";
const char gen_v2_extra[] =
	"  <event name=\"v2only\">\n"
	"    <field name=\"code\"><uint size=\"4\"/></field>\n"
	"  </event>\n";

/* Facility-era core facility (its events and fields as the doc lists). */
const char core_xml[] =
	"<?xml version=\"1.0\"?>\n"
	"<facility name=\"core\">\n"
	"  <event name=\"facility_load\">\n"
	"    <field name=\"name\"><string/></field>\n"
	"    <field name=\"checksum\"><uint size=\"4\"/></field>\n"
	"    <field name=\"id\"><uint size=\"4\"/></field>\n"
	"    <field name=\"int_size\"><uint size=\"4\"/></field>\n"
	"    <field name=\"long_size\"><uint size=\"4\"/></field>\n"
	"    <field name=\"pointer_size\"><uint size=\"4\"/></field>\n"
	"    <field name=\"size_t_size\"><uint size=\"4\"/></field>\n"
	"    <field name=\"has_alignment\"><uint size=\"4\"/></field>\n"
	"  </event>\n"
	"  <event name=\"facility_unload\">\n"
	"    <field name=\"id\"><uint size=\"4\"/></field>\n"
	"  </event>\n"
	"  <event name=\"time_heartbeat\"/>\n"
	"  <event name=\"state_dump_facility_load\">\n"
	"    <field name=\"name\"><string/></field>\n"
	"    <field name=\"checksum\"><uint size=\"4\"/></field>\n"
	"    <field name=\"id\"><uint size=\"4\"/></field>\n"
	"    <field name=\"int_size\"><uint size=\"4\"/></field>\n"
	"    <field name=\"long_size\"><uint size=\"4\"/></field>\n"
	"    <field name=\"pointer_size\"><uint size=\"4\"/></field>\n"
	"    <field name=\"size_t_size\"><uint size=\"4\"/></field>\n"
	"    <field name=\"has_alignment\"><uint size=\"4\"/></field>\n"
	"  </event>\n"
	"</facility>\n";

/* New-format builtin facility, in the document's unquoted style. */
const char builtin_xml[] =
	"<facility name=builtin>\n"
	"<event name=facility_load><struct>\n"
	"  <field name=\"name\"><string/></field>\n"
	"  <field name=\"checksum\"><uint size=4/></field>\n"
	"  <field name=\"base_code\"><uint size=4/></field>\n"
	"</struct></event>\n"
	"<event name=block_start><typeref name=block_timestamp/></event>\n"
	"<event name=block_end><typeref name=block_timestamp/></event>\n"
	"<event name=time_heartbeat><typeref name=timestamp/></event>\n"
	"<type name=block_timestamp><struct>\n"
	"  <field name=timestamp><typeref name=timestamp/></field>\n"
	"  <field name=block_id><uint size=4/></field>\n"
	"</struct></type>\n"
	"<type name=timestamp><struct>\n"
	"  <field name=time><typeref name=timespec/></field>\n"
	"  <field name=\"cycle_count\"><uint size=8/></field>\n"
	"</struct></type>\n"
	"<type name=timespec><struct>\n"
	"  <field name=\"seconds\"><uint size=4/></field>\n"
	"  <field name=\"nanoseconds\"><uint size=4/></field>\n"
	"</struct></type>\n"
	"</facility>\n";

/* xorshift64*: a small deterministic generator. */
uint64_t
rnd(struct gen *g)
{
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 0x2545F4914F6CDD1Dull;
}

/* Write @v as @n bytes at @p in the trace byte order. */
void
put(struct gen *g, uint8_t *p, uint64_t v, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		p[g->o.be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* Padding tview inserts at @off for a @size-byte type (ltt_align). */
uint64_t
pad(uint64_t off, uint64_t size, uint64_t alignment)
{
	uint64_t a = size < alignment ? size : alignment;

	if (alignment == 0 || a == 0)
		return 0;
	return (a - off) & (a - 1);
}

/* ns of cycle count @tsc (both kinds use start + delta * 1e9 / freq). */
int64_t
ns_of(const struct gen *g, uint64_t tsc)
{
	if (g->o.newfmt)
		return (int64_t)(g->start_ns + (tsc - g->start_tsc));
	if (g->o.minor < 7)	/* no start time: cycles from 0 */
		return (int64_t)((unsigned __int128)tsc * NS / g->freq);
	return (int64_t)(g->start_ns + (uint64_t)((unsigned __int128)(tsc -
	    g->start_tsc) * NS / g->freq));
}

/* One integer field of @n bytes (aligned), printed by @fmt rules. */
static void
pw_int(struct pw *w, uint64_t v, unsigned n)
{
	w->pos += pad(w->pos, n, w->al);
	if (w->pos + n > w->end) {
		w->ok = false;
		return;
	}
	put(w->g, w->blk + w->pos, v, n);
	w->pos += n;
}

/* Padding before a compound field that tview aligns to @n bytes. */
static void
pw_align(struct pw *w, unsigned n)
{
	w->pos += pad(w->pos, n, w->al);
}

/* A NUL-terminated string field. */
static void
pw_str(struct pw *w, const char *s)
{
	size_t n = strlen(s) + 1;

	if (w->pos + n > w->end) {
		w->ok = false;
		return;
	}
	memcpy(w->blk + w->pos, s, n);
	w->pos += n;
}

/* Sign-extend the low @n bytes of @v. */
static int64_t
sext(uint64_t v, unsigned n)
{
	if (n < 8)
		v &= (UINT64_C(1) << (n * 8)) - 1;
	if (n < 8 && (v >> (n * 8 - 1)) & 1)
		v |= ~0ull << (n * 8);
	return (int64_t)v;
}

/* Mask @v to @n bytes. */
static uint64_t
mask(uint64_t v, unsigned n)
{
	return n >= 8 ? v : v & ((1ull << (n * 8)) - 1);
}

/* The payload of one "gen" event @ev (version @ver) and its text. */
void
gen_payload(struct pw *w, int ev, int ver, uint64_t r1, uint64_t r2)
{
	struct tv_strbuf *t = &w->g->text;
	unsigned isz = 4, lsz = w->g->o.lp64 ? 8 : 4;
	static const char *const names[] = { "init", "kworker/0:1", "",
	    "sh", "a b c" };
	static const char *const modes[] = { "USER", "KERNEL", "IRQ" };
	static const uint8_t modev[] = { 0, 1, 5 };
	uint64_t v;
	unsigned i, n;

	(void)ver;
	switch (ev) {
	case 0:	/* ints */
		pw_int(w, r1, 1);
		pw_int(w, r1 >> 8, 2);
		pw_int(w, r2, isz);
		pw_int(w, r1 * 7, 8);
		pw_int(w, r2 >> 3, lsz);
		pw_int(w, r2 >> 5, lsz);
		pw_int(w, r1 ^ r2, lsz);
		pw_int(w, modev[r2 % 3], 1);
		tv_strbuf_addf(t, " { a = %" PRId64 ", b = %" PRIu64
		    ", c = %" PRId64 ", d = %" PRIu64 ", e = %" PRId64
		    ", f = %" PRIu64 ", p = 0x%" PRIx64 ", m = %s }",
		    sext(r1, 1), mask(r1 >> 8, 2), sext(r2, isz), r1 * 7,
		    sext(r2 >> 3, lsz), mask(r2 >> 5, lsz),
		    mask(r1 ^ r2, lsz), modes[r2 % 3]);
		break;
	case 1:	/* text */
		pw_str(w, names[r1 % 5]);
		pw_int(w, r2, 4);
		tv_strbuf_addf(t, " { name = \"%s\", n = %" PRIu64 " }",
		    names[r1 % 5], mask(r2, 4));
		break;
	case 2:	/* arrays */
		tv_strbuf_adds(t, " { fixed = { ");
		for (i = 0; i < 3; i++) {
			v = mask(r1 >> (16 * i), 2);
			pw_int(w, v, 2);
			tv_strbuf_addf(t, "%s%" PRIu64, i ? ", " : "", v);
		}
		n = (unsigned)(r2 % 5);
		pw_align(w, 4);
		pw_int(w, n, 1);
		tv_strbuf_adds(t, " }, seq = { ");
		for (i = 0; i < n; i++) {
			v = (r2 >> (8 * i)) * 2654435761u;
			pw_int(w, v, 4);
			tv_strbuf_addf(t, "%s%" PRId64, i ? ", " : "",
			    sext(v, 4));
		}
		tv_strbuf_adds(t, n ? " } }" : "} }");
		break;
	case 3:	/* nested */
		pw_int(w, r1, 2);
		pw_int(w, r2, 8);
		tv_strbuf_addf(t, " { pr = { lo = %" PRIu64 ", hi = %" PRId64
		    " }, u = { ", mask(r1, 2), (int64_t)r2);
		pw_align(w, 4);
		if (r1 & 0x10000) {
			pw_int(w, 0, 1);
			pw_int(w, r1 >> 20, 4);
			tv_strbuf_addf(t, "i = %" PRId64, sext(r1 >> 20, 4));
		} else {
			pw_int(w, 1, 1);
			pw_str(w, names[r2 % 5]);
			tv_strbuf_addf(t, "s = \"%s\"", names[r2 % 5]);
		}
		{
			double x = (double)(int64_t)(r1 % 2001 - 1000) / 8.0;
			uint64_t bits;
			char buf[64];

			memcpy(&bits, &x, sizeof(bits));
			pw_int(w, bits, 8);
			snprintf(buf, sizeof(buf), "%g", x);
			tv_strbuf_addf(t, " }, x = %s }", buf);
		}
		break;
	case 5:	/* v2only */
		pw_int(w, r1, 4);
		tv_strbuf_addf(t, " { code = %" PRIu64 " }", mask(r1, 4));
		break;
	default:	/* empty */
		break;
	}
}

/* Byte alignment of a "gen" event's payload struct (tview: max member). */
unsigned
gen_align(int ev, bool lp64)
{
	switch (ev) {
	case 0:
		return 8;
	case 1:
		return 4;
	case 2:
		return 4;
	case 3:
		return 8;
	case 5:
		return 4;
	default:
		(void)lp64;
		return 1;
	}
}

/* Record the text built in g->text for an event of @f at @tsc. */
void
add_line(struct gen *g, struct tfile *f, const char *cls, uint64_t tsc)
{
	struct line *l;
	struct tv_strbuf sb;
	int64_t ns = ns_of(g, tsc);

	TV_VEC_GROW(g->lines, g->nlines, g->cap);
	l = &g->lines[g->nlines++];
	tv_strbuf_init(&sb);
	tv_strbuf_addf(&sb, "%s: %" PRId64 ".%09" PRId64 " (%s), 0, 0, , , 0, "
	    "0x0, MODE_UNKNOWN%s", cls, ns / (int64_t)NS, ns % (int64_t)NS,
	    f->name, g->text.buf ? g->text.buf : "");
	l->ts = ns;
	l->ord = f->ord;
	l->seq = f->seq++;
	l->text = sb.buf;
}

/* Order of tview's merge: time, then stream ordinal, then file order. */
static int
cmp_line(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->ord != y->ord)
		return x->ord < y->ord ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Print the usage text to @fp. */
static void
usage(FILE *fp)
{
	fputs("usage: gen-ltt --format fac|new [options] --expect FILE OUTDIR\n"
	    "  --cpus N       per-CPU tracefiles (default 2, max 10)\n"
	    "  --events N     events (default 2000)\n"
	    "  --seed S       random seed (default 1)\n"
	    "  --big-endian   big-endian trace\n"
	    "  --lp64         64-bit longs and pointers\n"
	    "  --heartbeat    fac: 32-bit timestamps and time_heartbeat\n"
	    "  --alignment N  fac: alignment (0, 4 or 8; default 0)\n"
	    "  --lost         blocks closed early (lost bytes)\n"
	    "  --minor N      fac: trace format 0.N, 6 or 7 (default 7)\n"
	    "  --eventdefs D  fac: events of every facility of D/*.xml\n"
	    "                 instead of the built-in \"gen\" facility\n"
	    "  --block B      block size (default 4096)\n", fp);
}

/* Checksums of the two versions of "gen", from tview's parser. */
static int
checksums(struct gen *g)
{
	struct tv_arena a;
	struct ltt_xdefs d;
	char *v1, *v2;
	int rc = 0;

	tv_arena_init(&a);
	ltt_xdefs_init(&d, &a);
	tv_xasprintf(&v1, gen_xml_fmt, "");
	tv_xasprintf(&v2, gen_xml_fmt, gen_v2_extra);
	if (ltt_xdefs_parse(&d, "v1", v1, strlen(v1), NULL) != TV_OK ||
	    ltt_xdefs_parse(&d, "v2", v2, strlen(v2), NULL) != TV_OK ||
	    d.nfacs != 2)
		rc = -1;
	else {
		g->ck[0] = d.facs[0].checksum;
		g->ck[1] = d.facs[1].checksum;
	}
	free(v1);
	free(v2);
	ltt_xdefs_fini(&d);
	tv_arena_fini(&a);
	return rc;
}

/* Entry point: parse options, write the trace and the expected dump. */
int
main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "events", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "big-endian", no_argument, NULL, 'B' },
		{ "lp64", no_argument, NULL, 'L' },
		{ "heartbeat", no_argument, NULL, 'H' },
		{ "alignment", required_argument, NULL, 'a' },
		{ "lost", no_argument, NULL, 'l' },
		{ "block", required_argument, NULL, 'b' },
		{ "minor", required_argument, NULL, 'm' },
		{ "eventdefs", required_argument, NULL, 'D' },
		{ "expect", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 },
	};
	struct gen g;
	const char *expect = NULL, *fmt = NULL;
	FILE *fp;
	size_t i;
	int c;

	memset(&g, 0, sizeof(g));
	g.o.cpus = 2;
	g.o.events = 2000;
	g.o.seed = 1;
	g.o.block = 4096;
	g.o.minor = 7;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'F': fmt = optarg; break;
		case 'c': g.o.cpus = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'n': g.o.events = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 's': g.o.seed = strtoull(optarg, NULL, 10); break;
		case 'B': g.o.be = true; break;
		case 'L': g.o.lp64 = true; break;
		case 'H': g.o.heartbeat = true; break;
		case 'a': g.o.alignment = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'l': g.o.lost = true; break;
		case 'b': g.o.block = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'm': g.o.minor = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'D': g.o.any_dir = optarg; break;
		case 'e': expect = optarg; break;
		default: usage(stderr); return 2;
		}
	}
	if (!fmt || !expect || optind + 1 != argc || g.o.cpus < 1 ||
	    g.o.cpus > 10 || g.o.block < 512 ||
	    (g.o.minor != 6 && g.o.minor != 7) || g.o.block % 8 ||
	    (g.o.alignment != 0 && g.o.alignment != 4 &&
	    g.o.alignment != 8)) {
		usage(stderr);
		return 2;
	}
	g.o.newfmt = strcmp(fmt, "new") == 0;
	g.rng = g.o.seed * 0x9E3779B97F4A7C15ull + 1;
	if (checksums(&g) != 0) {
		fprintf(stderr, "gen-ltt: cannot parse the generated XML\n");
		return 1;
	}
	if ((g.o.newfmt ? write_new(&g, argv[optind]) :
	    write_fac(&g, argv[optind])) != 0)
		return 1;
	qsort(g.lines, g.nlines, sizeof(*g.lines), cmp_line);
	fp = fopen(expect, "w");
	if (!fp) {
		fprintf(stderr, "gen-ltt: %s: %s\n", expect, strerror(errno));
		return 1;
	}
	/* LTTV textDump's first line, as tview prints it. */
	fputs("Trace set contains 1 traces\n\n", fp);
	for (i = 0; i < g.nlines; i++) {
		fprintf(fp, "%s\n", g.lines[i].text);
		free(g.lines[i].text);
	}
	free(g.lines);
	tv_strbuf_fini(&g.text);
	return fclose(fp) == 0 ? 0 : 1;
}
