/*
 * td-timeshift: from an uncompressed little-endian v7 trace.dat (the
 * shared derived-lisa-sched_load-v7-nocompress sample), write a copy
 * that looks like a guest's file: a TIME_SHIFT option with the given
 * samples for every CPU (and a GUEST option naming a guest), in a new
 * OPTIONS section appended to the file and chained from the last DONE.
 * tests/tracedat-timeshift.sh compares tview with the live report and
 * checks the shift by arithmetic.
 *
 * FLAGS is written as given, except bit 0x100: then CPU 0's sample count
 * lies (100000 samples in an option that holds far fewer), for the
 * corrupt-input test; bit 0x200 adds a TSC2NSEC option (mult 3, shift 1,
 * offset 12345: times x 1.5).  Bits above 0xff are not written.  CPUS 0
 * writes no TIME_SHIFT (TSC2NSEC alone).
 *
 * usage: td-timeshift SAMPLE OUT FLAGS CPUS TIME:OFFSET:SCALING:FRACTION...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SAMPLES	64

/* One sample of the command line. */
struct sample {
	long long	 time, offset, scaling, fraction;
};

/* A growable output buffer. */
struct out {
	uint8_t	*p;
	size_t	 n, cap;
};

/* Append @n bytes. */
static void
put(struct out *o, const void *v, size_t n)
{
	if (o->n + n > o->cap) {
		o->cap = (o->n + n) * 2;
		o->p = realloc(o->p, o->cap);
		if (!o->p) {
			perror("realloc");
			exit(99);
		}
	}
	memcpy(o->p + o->n, v, n);
	o->n += n;
}

/* Append @v as @n little-endian bytes. */
static void
put_le(struct out *o, uint64_t v, int n)
{
	uint8_t b[8];
	int i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	put(o, b, (size_t)n);
}

/* Little-endian @n bytes at @p. */
static uint64_t
get(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = (v << 8) | p[n];
	return v;
}

/* Read @path whole; exits on failure. */
static uint8_t *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *p;
	long n;

	if (!fp || fseek(fp, 0, SEEK_END) != 0 || (n = ftell(fp)) < 0) {
		perror(path);
		exit(99);
	}
	rewind(fp);
	p = malloc((size_t)n + 1);
	if (!p || fread(p, 1, (size_t)n, fp) != (size_t)n) {
		perror(path);
		exit(99);
	}
	fclose(fp);
	*len = (size_t)n;
	return p;
}

/* Position of the 8-byte "next" of the last DONE option; exits if none. */
static size_t
last_done(const uint8_t *p, size_t len, uint32_t *strid)
{
	size_t pos = 10, off, end;
	uint64_t next;

	pos += strlen((const char *)p + pos) + 1;	/* version */
	if (p[pos - 2] != '7' || p[pos] != 0) {
		fprintf(stderr, "not a little-endian v7 file\n");
		exit(99);
	}
	pos += 2 + 4;					/* endian, long, page */
	pos += strlen((const char *)p + pos) + 1;	/* compression */
	pos += strlen((const char *)p + pos) + 1;	/* its version */
	next = get(p + pos, 8);
	for (;;) {
		off = (size_t)next;
		if (off + 16 > len || get(p + off, 2) != 0 ||
		    get(p + off + 2, 2) != 0) {
			fprintf(stderr, "options section at %zu: not an "
			    "uncompressed OPTIONS section\n", off);
			exit(99);
		}
		*strid = (uint32_t)get(p + off + 4, 4);
		end = off + 16 + (size_t)get(p + off + 8, 8);
		for (pos = off + 16; pos + 6 <= end;) {
			uint16_t id = (uint16_t)get(p + pos, 2);
			uint32_t sz = (uint32_t)get(p + pos + 2, 4);

			if (id == 0)
				break;
			pos += 6 + sz;
		}
		if (pos + 14 > end) {
			fprintf(stderr, "no DONE in section at %zu\n", off);
			exit(99);
		}
		next = get(p + pos + 6, 8);
		if (next == 0)
			return pos + 6;
	}
}

int
main(int argc, char **argv)
{
	struct sample s[MAX_SAMPLES];
	struct out o = { 0 }, opt = { 0 };
	unsigned flags, cpus, ns = 0, c, i;
	size_t len, done;
	uint32_t strid;
	uint8_t *p;
	FILE *fp;

	if (argc < 5) {
		fprintf(stderr, "usage: td-timeshift SAMPLE OUT FLAGS CPUS "
		    "TIME:OFFSET:SCALING:FRACTION...\n");
		return 2;
	}
	flags = (unsigned)strtoul(argv[3], NULL, 0);
	cpus = (unsigned)strtoul(argv[4], NULL, 0);
	for (i = 5; i < (unsigned)argc && ns < MAX_SAMPLES; i++, ns++)
		if (sscanf(argv[i], "%lld:%lld:%lld:%lld", &s[ns].time,
		    &s[ns].offset, &s[ns].scaling, &s[ns].fraction) != 4) {
			fprintf(stderr, "bad sample: %s\n", argv[i]);
			return 2;
		}
	p = slurp(argv[1], &len);
	done = last_done(p, len, &strid);
	/* the TIME_SHIFT payload */
	put_le(&opt, 0x1234abcdULL, 8);		/* the host's trace id */
	put_le(&opt, flags & 0xff, 4);
	put_le(&opt, cpus, 4);
	for (c = 0; c < cpus; c++) {
		put_le(&opt, c == 0 && (flags & 0x100) ? 100000 : ns, 4);
		for (i = 0; i < ns; i++)
			put_le(&opt, (uint64_t)s[i].time, 8);
		for (i = 0; i < ns; i++)
			put_le(&opt, (uint64_t)s[i].offset, 8);
		for (i = 0; i < ns; i++)
			put_le(&opt, (uint64_t)s[i].scaling, 8);
	}
	for (c = 0; c < cpus; c++)
		for (i = 0; i < ns; i++)
			put_le(&opt, (uint64_t)s[i].fraction, 8);
	/* the file, then a section: TIME_SHIFT, GUEST, DONE */
	put(&o, p, len);
	{
		uint8_t nextoff[8];
		uint64_t v = len;

		for (i = 0; i < 8; i++)
			nextoff[i] = (uint8_t)(v >> (8 * i));
		memcpy(o.p + done, nextoff, 8);
	}
	put_le(&o, 0, 2);				/* OPTIONS id */
	put_le(&o, 0, 2);				/* flags */
	put_le(&o, strid, 4);
	put_le(&o, (cpus ? 6 + opt.n : 0) + 6 + (6 + 8 + 4 + 8) +
	    (flags & 0x200 ? 6 + 16 : 0) + 6 + 8, 8);
	if (cpus) {
		put_le(&o, 12, 2);			/* TIME_SHIFT */
		put_le(&o, opt.n, 4);
		put(&o, opt.p, opt.n);
	}
	if (flags & 0x200) {
		put_le(&o, 14, 2);			/* TSC2NSEC */
		put_le(&o, 16, 4);
		put_le(&o, 3, 4);
		put_le(&o, 1, 4);
		put_le(&o, 12345, 8);
	}
	put_le(&o, 13, 2);				/* GUEST */
	put_le(&o, 6 + 8 + 4 + 8, 4);
	put(&o, "guest", 6);
	put_le(&o, 0x5678ULL, 8);
	put_le(&o, 1, 4);				/* one vCPU: */
	put_le(&o, 0, 4);				/* vCPU 0 */
	put_le(&o, 4242, 4);				/* host PID */
	put_le(&o, 0, 2);				/* DONE */
	put_le(&o, 8, 4);
	put_le(&o, 0, 8);
	fp = fopen(argv[2], "wb");
	if (!fp || fwrite(o.p, 1, o.n, fp) != o.n || fclose(fp) != 0) {
		perror(argv[2]);
		return 99;
	}
	free(p);
	free(o.p);
	free(opt.p);
	return 0;
}
