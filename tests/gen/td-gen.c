/*
 * td-gen: writes a trace.dat (version 6) from nothing, small for the seed
 * corpus of the trace.dat fuzz target (fuzz/seeds.sh), large for a test
 * of the memory a pass keeps (tests/tracedat-rss.sh):
 *
 *   td-gen [--be] [--long4] [--events N] [--msg-fmt FMT] OUT
 *
 * Two CPUs of ring-buffer pages holding ftrace function and bprint
 * records (printk formats, kallsyms), sched_switch (__print_flags) and a
 * test event with a __data_loc string; a time-extend record; saved
 * cmdlines and a uname option.  --be writes a big-endian file, --long4 a
 * 32-bit one (4-byte longs, commit and pointers).  What it writes is
 * meant to be read by trace-cmd report as well: seeds.sh converts it to
 * version 7 with trace-cmd convert when that is installed.  --msg-fmt
 * replaces the print fmt of the msg event (fields msg, a __data_loc
 * string, and val): tests of what tview lets libtraceevent print.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE		4096u
#define NCPUS		2u
/* Records at most: some 165 MB of pages, for a test of a large file. */
#define TD_GEN_MAX_EVENTS	4000000u
#define ID_FUNC		1u
#define ID_BPRINT	6u
#define ID_SWITCH	300u
#define ID_MSG		301u
#define ADDR_FUNC	UINT64_C(0xffffffff81001000)
#define ADDR_FMT	UINT64_C(0xffffffff82000000)

/* A growing byte buffer in the file's byte order. */
struct buf {
	uint8_t	*p;
	size_t	 len, cap;
	bool	 be;
};

static void
grow(struct buf *b, size_t n)
{
	if (b->len + n <= b->cap)
		return;
	b->cap = (b->len + n) * 2;
	b->p = realloc(b->p, b->cap);
	if (!b->p) {
		perror("td-gen");
		exit(1);
	}
}

static void
put_bytes(struct buf *b, const void *p, size_t n)
{
	grow(b, n);
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* Store @v on @n bytes at @off. */
static void
store(struct buf *b, size_t off, uint64_t v, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		b->p[off + i] = (uint8_t)(v >> (8 * (b->be ? n - 1 - i : i)));
}

static void
put(struct buf *b, uint64_t v, unsigned n)
{
	grow(b, n);
	store(b, b->len, v, n);
	b->len += n;
}

static void
put_str0(struct buf *b, const char *s)
{
	put_bytes(b, s, strlen(s) + 1);
}

/* SIZE (@width bytes) then the text @s. */
static void
put_sized(struct buf *b, unsigned width, const char *s)
{
	put(b, strlen(s), width);
	put_bytes(b, s, strlen(s));
}

static void
pad_to(struct buf *b, size_t align)
{
	while (b->len % align) {
		grow(b, 1);
		b->p[b->len++] = 0;
	}
}

static const char common[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;"
	"\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

/* A format text with the common fields; @fields and @fmt after them. */
static char *
format(const char *name, unsigned id, const char *fields, const char *fmt)
{
	char *s;

	if (asprintf(&s, "name: %s\nID: %u\nformat:\n%s%s\nprint fmt: %s\n",
	    name, id, common, fields, fmt) < 0)
		exit(1);
	return s;
}

struct gen {
	struct buf	 page;
	unsigned	 L;		/* long size */
	uint64_t	 ts;		/* time of the last record */
	uint64_t	 rnd;
};

static uint32_t
rnd(struct gen *g)
{
	g->rnd = g->rnd * 6364136223846793005u + 1442695040888963407u;
	return (uint32_t)(g->rnd >> 33);
}

/* The common fields of a record of event @id by @pid. */
static void
rec_common(struct buf *r, unsigned id, int32_t pid)
{
	put(r, id, 2);
	put(r, 1, 1);
	put(r, 0, 1);
	put(r, (uint32_t)pid, 4);
}

/*
 * An event header: the bit-fields type_len:5, time_delta:27, allocated
 * from the low bits on a little-endian machine, the high bits on a big.
 */
static uint32_t
head(bool be, uint32_t type_len, uint64_t delta)
{
	return be ? type_len << 27 | (uint32_t)delta :
	    type_len | (uint32_t)delta << 5;
}

/*
 * Append record @r to the page at time @ts: a time extend first when the
 * delta does not fit 27 bits.  False when the page is full.
 */
static bool
page_add(struct gen *g, struct buf *r, uint64_t ts)
{
	struct buf *p = &g->page;
	uint64_t delta = ts - g->ts;
	size_t data = 16 - (g->L == 4 ? 4 : 0);
	size_t need = (delta >= (1u << 27) ? 8 : 0) + 4 + ((r->len + 3) & ~3u);

	if (r->len > 112 || p->len + need > PAGE)
		return false;
	if (p->len == data) {
		/* the page timestamp is the first record's time */
		store(p, 0, ts, 8);
		delta = 0;
	}
	if (delta >= (1u << 27)) {
		put(p, head(p->be, 30, delta & ((1u << 27) - 1)), 4);
		put(p, delta >> 27, 4);
		delta = 0;
	}
	put(p, head(p->be, (uint32_t)(r->len + 3) / 4, delta), 4);
	put_bytes(p, r->p, r->len);
	pad_to(p, 4);
	g->ts = ts;
	return true;
}

/* One random record of @g at time @ts into @r. */
static void
make_record(struct gen *g, struct buf *r, unsigned i)
{
	static const char *const comms[] = { "init", "worker", "bash" };
	static const char *const msgs[] = { "", "hello", "a longer message" };
	char comm[16];
	unsigned L = g->L;
	int32_t pid = (int32_t)(1 + i % 3);

	r->len = 0;
	switch (rnd(g) % 4) {
	case 0:
		rec_common(r, ID_FUNC, pid);
		put(r, ADDR_FUNC + 0x10 * (rnd(g) % 3), L);
		put(r, ADDR_FUNC, L);
		break;
	case 1:
		rec_common(r, ID_BPRINT, pid);
		put(r, ADDR_FUNC + 0x10, L);
		put(r, ADDR_FMT, L);
		put(r, rnd(g) % 1000, 4);
		break;
	case 2:
		rec_common(r, ID_SWITCH, pid);
		memset(comm, 0, sizeof(comm));
		strncpy(comm, comms[i % 3], sizeof(comm) - 1);
		put_bytes(r, comm, 16);
		put(r, (uint32_t)pid, 4);
		put(r, 120, 4);
		put(r, rnd(g) % 4, L);
		memset(comm, 0, sizeof(comm));
		strncpy(comm, comms[(i + 1) % 3], sizeof(comm) - 1);
		put_bytes(r, comm, 16);
		put(r, 1 + (i + 1) % 3, 4);
		put(r, 120, 4);
		break;
	default: {
		const char *m = msgs[rnd(g) % 3];

		rec_common(r, ID_MSG, pid);
		put(r, (uint32_t)(strlen(m) + 1) << 16 | 16, 4);
		put(r, rnd(g), 4);
		put_bytes(r, m, strlen(m) + 1);
		break;
	}
	}
}

/* Write the file. */
static int
write_file(const char *out, bool be, unsigned L, unsigned events,
    const char *msg_fmt)
{
	struct buf h = { NULL, 0, 0, be }, r = { NULL, 0, 0, be };
	struct gen g;
	struct buf cpu[NCPUS];
	char fields[1024], *fmts[4];
	unsigned i, c;
	FILE *fp;

	memset(&g, 0, sizeof(g));
	g.L = L;
	g.rnd = 42;
	put_bytes(&h, "\027\010\104tracing", 10);
	put_bytes(&h, "6", 2);
	put(&h, be, 1);
	put(&h, L, 1);
	put(&h, PAGE, 4);
	snprintf(fields, sizeof(fields),
	    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	    "\tfield: local_t commit;\toffset:8;\tsize:%u;\tsigned:1;\n"
	    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	    "\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:1;\n",
	    L, 8 + L, PAGE - 8 - L);
	put_str0(&h, "header_page");
	put_sized(&h, 8, fields);
	put_str0(&h, "header_event");
	put_sized(&h, 8, "# compressed entry header\n"
	    "\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
	    "\tarray       :   32 bits\n\n\tpadding     : type == 29\n"
	    "\ttime_extend : type == 30\n\ttime_stamp : type == 31\n"
	    "\tdata max type_len  == 28\n");
	snprintf(fields, sizeof(fields),
	    "\tfield:unsigned long ip;\toffset:8;\tsize:%u;\tsigned:0;\n"
	    "\tfield:unsigned long parent_ip;\toffset:%u;\tsize:%u;"
	    "\tsigned:0;\n", L, 8 + L, L);
	fmts[0] = format("function", ID_FUNC, fields,
	    "\" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip");
	snprintf(fields, sizeof(fields),
	    "\tfield:unsigned long ip;\toffset:8;\tsize:%u;\tsigned:0;\n"
	    "\tfield:const char * fmt;\toffset:%u;\tsize:%u;\tsigned:0;\n"
	    "\tfield:u32 buf[];\toffset:%u;\tsize:0;\tsigned:0;\n",
	    L, 8 + L, L, 8 + 2 * L);
	fmts[1] = format("bprint", ID_BPRINT, fields,
	    "\"%ps: %s\", (void *)REC->ip, REC->fmt");
	snprintf(fields, sizeof(fields),
	    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	    "\tfield:long prev_state;\toffset:32;\tsize:%u;\tsigned:1;\n"
	    "\tfield:char next_comm[16];\toffset:%u;\tsize:16;\tsigned:0;\n"
	    "\tfield:pid_t next_pid;\toffset:%u;\tsize:4;\tsigned:1;\n"
	    "\tfield:int next_prio;\toffset:%u;\tsize:4;\tsigned:1;\n",
	    L, 32 + L, 48 + L, 52 + L);
	fmts[2] = format("sched_switch", ID_SWITCH, fields,
	    "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> "
	    "next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, "
	    "REC->prev_pid, REC->prev_prio, REC->prev_state ? "
	    "__print_flags(REC->prev_state, \"|\", { 1, \"S\" }, "
	    "{ 2, \"D\" }) : \"R\", REC->next_comm, REC->next_pid, "
	    "REC->next_prio");
	fmts[3] = format("msg", ID_MSG,
	    "\tfield:__data_loc char[] msg;\toffset:8;\tsize:4;\tsigned:0;\n"
	    "\tfield:int val;\toffset:12;\tsize:4;\tsigned:1;\n",
	    msg_fmt ? msg_fmt : "\"val=%d msg=%s\", REC->val, __get_str(msg)");
	put(&h, 2, 4);
	put_sized(&h, 8, fmts[0]);
	put_sized(&h, 8, fmts[1]);
	put(&h, 2, 4);
	put_str0(&h, "sched");
	put(&h, 1, 4);
	put_sized(&h, 8, fmts[2]);
	put_str0(&h, "test");
	put(&h, 1, 4);
	put_sized(&h, 8, fmts[3]);
	put_sized(&h, 4, "ffffffff81001000 T do_fuzz\n"
	    "ffffffff81001010 T fuzz_helper\nffffffff81001020 t "
	    "fuzz_static [fuzzmod]\n");
	put_sized(&h, 4, "0xffffffff82000000 : \"value %d\\n\"\n");
	put_sized(&h, 8, "1 init\n2 worker\n3 bash\n");
	put(&h, NCPUS, 4);
	put_bytes(&h, "options  ", 10);
	put(&h, 5, 2);				/* UNAME */
	put_sized(&h, 4, "Linux fuzz 6.1.0 #1 SMP x86_64");
	put(&h, 0, 2);
	put_bytes(&h, "flyrecord", 10);
	/* the pages: each CPU gets the records of its turn */
	for (c = 0; c < NCPUS; c++) {
		memset(&cpu[c], 0, sizeof(cpu[c]));
		cpu[c].be = be;
	}
	for (c = 0; c < NCPUS; c++) {
		g.ts = 0;
		for (i = c; i < events; i += NCPUS) {
			/* a jump every 7 records: a time extend */
			uint64_t ts = 1000000 + (uint64_t)i * 1000 +
			    (UINT64_C(1) << 28) * (i / 7);

			if (g.page.len == 0) {
				g.page.be = be;
				put(&g.page, 0, 8);
				put(&g.page, 0, L);
			}
			make_record(&g, &r, i);
			if (!page_add(&g, &r, ts)) {
				store(&g.page, 8, g.page.len - 8 - L, L);
				grow(&g.page, PAGE - g.page.len);
				memset(g.page.p + g.page.len, 0,
				    PAGE - g.page.len);
				put_bytes(&cpu[c], g.page.p, PAGE);
				g.page.len = 0;
				i -= NCPUS;
			}
		}
		if (g.page.len > 0) {
			store(&g.page, 8, g.page.len - 8 - L, L);
			grow(&g.page, PAGE - g.page.len);
			memset(g.page.p + g.page.len, 0, PAGE - g.page.len);
			put_bytes(&cpu[c], g.page.p, PAGE);
			g.page.len = 0;
		}
	}
	{
		size_t at = h.len + 16 * NCPUS, off;

		off = (at + PAGE - 1) / PAGE * PAGE;
		for (c = 0; c < NCPUS; c++) {
			put(&h, off, 8);
			put(&h, cpu[c].len, 8);
			off += cpu[c].len;
		}
		pad_to(&h, PAGE);
	}
	fp = fopen(out, "wb");
	if (!fp) {
		perror(out);
		return 1;
	}
	fwrite(h.p, 1, h.len, fp);
	for (c = 0; c < NCPUS; c++)
		fwrite(cpu[c].p, 1, cpu[c].len, fp);
	for (i = 0; i < 4; i++)
		free(fmts[i]);
	free(h.p);
	free(r.p);
	free(g.page.p);
	for (c = 0; c < NCPUS; c++)
		free(cpu[c].p);
	return fclose(fp) == 0 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	bool be = false;
	unsigned L = 8, events = 40;
	const char *msg_fmt = NULL;
	int i;

	for (i = 1; i < argc - 1; i++) {
		if (strcmp(argv[i], "--be") == 0)
			be = true;
		else if (strcmp(argv[i], "--long4") == 0)
			L = 4;
		else if (strcmp(argv[i], "--events") == 0 && i + 2 < argc)
			events = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--msg-fmt") == 0 && i + 2 < argc)
			msg_fmt = argv[++i];
		else
			break;
	}
	if (i != argc - 1 || events > TD_GEN_MAX_EVENTS) {
		fputs("usage: td-gen [--be] [--long4] [--events N] "
		    "[--msg-fmt FMT] OUT\n", stderr);
		return 2;
	}
	return write_file(argv[argc - 1], be, L, events, msg_fmt);
}
