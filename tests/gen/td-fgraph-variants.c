/*
 * td-fgraph-variants: from a 1-CPU little-endian v6 function_graph
 * trace.dat (the shared labsisop-funcgraph sample), write variants that
 * exercise how trace-cmd report pairs a leaf entry with its exit:
 *   leaf.dat       the irq_handler_entry records between entry and exit
 *                  turned into padding, so every entry is a leaf;
 *   apart.dat      leaf.dat plus a second CPU: a copy of the data with
 *                  other pids, 10 s later (no interleaving);
 *   interleaved.dat  the same copy 50 us later (the CPUs interleave);
 *   sametime.dat   the same copy at the same timestamps (ties).
 * The files are compared with the live report by tests/tracedat-fgraph.sh.
 *
 * usage: td-fgraph-variants SAMPLE OUTDIR
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole file in memory. */
struct buf {
	uint8_t	*p;
	size_t	 n;
};

/* Read @path into @b; 0 on success. */
static int
slurp(const char *path, struct buf *b)
{
	FILE *fp = fopen(path, "rb");
	long n;

	if (!fp || fseek(fp, 0, SEEK_END) != 0 || (n = ftell(fp)) < 0) {
		perror(path);
		return -1;
	}
	rewind(fp);
	b->n = (size_t)n;
	b->p = malloc(b->n + 65536);
	if (!b->p || fread(b->p, 1, b->n, fp) != b->n) {
		perror(path);
		return -1;
	}
	memset(b->p + b->n, 0, 65536);	/* strtol stops in there */
	fclose(fp);
	return 0;
}

/* Little-endian accessors. */
static uint64_t
get(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = (v << 8) | p[n];
	return v;
}

/* Store @v in @n little-endian bytes at @p. */
static void
put(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Offset of the first @s (@len bytes) in @b from @from, or -1. */
static long
find(const struct buf *b, size_t from, const char *s, size_t len)
{
	size_t i;

	for (i = from; i + len <= b->n; i++)
		if (memcmp(b->p + i, s, len) == 0)
			return (long)i;
	return -1;
}

/*
 * Walk the records of the pages at [off, off + size): turn records of
 * event @pad_id into padding (if >= 0), add @pid_add to every pid.
 */
static void
walk(struct buf *b, uint64_t off, uint64_t size, uint32_t psize, int lsize,
    long pad_id, int32_t pid_add)
{
	uint64_t pg;
	uint32_t hdr = 8 + (uint32_t)lsize;

	for (pg = off; pg + psize <= off + size; pg += psize) {
		uint8_t *d = b->p + pg + hdr;
		uint32_t commit = (uint32_t)get(b->p + pg + 8, lsize) &
		    ((1u << 27) - 1), p = 0;

		while (p + 4 <= commit) {
			uint32_t w = (uint32_t)get(d + p, 4), tl = w & 31;
			uint32_t len, data;

			if (tl == 0) {
				len = ((uint32_t)get(d + p + 4, 4) - 4 + 3) &
				    ~3u;
				data = p + 8;
			} else if (tl <= 28) {
				len = tl * 4;
				data = p + 4;
			} else if (tl == 29) {
				len = (uint32_t)get(d + p + 4, 4);
				data = p + 4;
			} else {
				len = 4;
				data = p + 4;
			}
			if (data + len > commit)
				break;
			if (tl <= 28 && pid_add)
				put(d + data + 4, get(d + data + 4, 4) +
				    (uint32_t)pid_add, 4);
			if (tl <= 28 && (long)get(d + data, 2) == pad_id) {
				put(d + p, (w & ~31u) | 29, 4);
				put(d + p + 4, data + len - p - 4, 4);
			}
			p = data + len;
		}
	}
}

/* Write @len bytes of @p to DIR/NAME. */
static int
spill(const char *dir, const char *name, const uint8_t *p, size_t len)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "wb");
	if (!fp || fwrite(p, 1, len, fp) != len || fclose(fp) != 0) {
		perror(path);
		return -1;
	}
	return 0;
}

/* The variants; see the top of the file. */
int
main(int argc, char **argv)
{
	static const struct { const char *name; uint64_t shift; } two[] = {
		{ "apart.dat", 10000000000ULL },
		{ "interleaved.dat", 50000 },
		{ "sametime.dat", 0 },
	};
	struct buf b, v;
	long fly, opts, idpos, ev;
	uint64_t off, size, clk;
	uint32_t psize;
	size_t i, end, at;
	int lsize;

	if (argc != 3 || slurp(argv[1], &b) != 0)
		return 2;
	if (b.n < 32 || memcmp(b.p + 3, "tracing6", 9) != 0 || b.p[12]) {
		fprintf(stderr, "td-fgraph-variants: not a LE v6 trace.dat\n");
		return 2;
	}
	lsize = b.p[13];
	psize = (uint32_t)get(b.p + 14, 4);
	fly = find(&b, 0, "flyrecord", 10);
	opts = find(&b, 0, "options  ", 10);
	ev = find(&b, 0, "name: irq_handler_entry", 23);
	idpos = ev < 0 ? -1 : find(&b, (size_t)ev, "ID: ", 4);
	if (fly < 0 || idpos < 0 || lsize < 4)
		return 2;
	ev = strtol((char *)b.p + idpos + 4, NULL, 10);
	off = get(b.p + fly + 10, 8);
	size = get(b.p + fly + 18, 8);
	walk(&b, off, size, psize, lsize, ev, 0);
	if (spill(argv[2], "leaf.dat", b.p, b.n) != 0)
		return 1;

	/* two CPUs: the table gets a second entry (there is padding
	 * before the page-aligned data), the copy goes at the end */
	clk = get(b.p + fly + 26, 8);
	end = (size_t)fly + 26 + 8 + (size_t)clk;
	if (end + 16 > off)
		return 2;
	for (i = 0; i < sizeof(two) / sizeof(two[0]); i++) {
		v.n = b.n + (psize - b.n % psize) % psize + size;
		v.p = calloc(1, v.n);
		if (!v.p)
			return 1;
		memcpy(v.p, b.p, (size_t)fly + 26);
		memcpy(v.p + fly + 42, b.p + fly + 26, end - (size_t)fly - 26);
		memcpy(v.p + off, b.p + off, b.n - off);
		put(v.p + (opts >= 0 && opts < fly ? opts : fly) - 4, 2, 4);
		at = v.n - size;
		memcpy(v.p + at, b.p + off, size);
		put(v.p + fly + 26, at, 8);
		put(v.p + fly + 34, size, 8);
		walk(&v, at, size, psize, lsize, -1, 1000);
		{
			uint64_t pg;

			for (pg = at; pg + psize <= at + size; pg += psize)
				put(v.p + pg, get(v.p + pg, 8) + two[i].shift,
				    8);
		}
		if (spill(argv[2], two[i].name, v.p, v.n) != 0)
			return 1;
		free(v.p);
	}
	free(b.p);
	return 0;
}
