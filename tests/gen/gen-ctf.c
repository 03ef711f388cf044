/*
 * gen-ctf: writes a CTF 1.8 trace directory from scratch that looks like
 * an LTTng 2.x kernel trace of a small machine compiling code: the demo
 * trace, the test fixtures and the 1 GB benchmark trace.  Command line,
 * random numbers and the order of the parts (metadata, streams).
 *
 *   gen-ctf [--cpus N] [--events N | --size BYTES] [--seed S] OUTDIR
 */
#include "gen-ctf.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Print the usage text to @fp. */
static void
usage(FILE *fp)
{
	fputs("usage: gen-ctf [options] OUTDIR\n"
	    "Write a CTF 1.8 trace that looks like an LTTng kernel trace.\n"
	    "  --cpus N          per-CPU streams (default 4, max 64)\n"
	    "  --events N        events to write (default 100000)\n"
	    "  --size BYTES      write until the streams reach BYTES (K, M, G\n"
	    "                    suffixes); overrides --events\n"
	    "  --seed S          random seed (default 1)\n"
	    "  --packet-size B   packet (sub-buffer) size, multiple of 4096\n"
	    "                    (default 262144)\n"
	    "  --packetized      packetized metadata instead of plain text\n"
	    "  --discard         the tracer loses events (events_discarded)\n"
	    "  --seq-gap         the tracer loses packets (packet_seq_num gaps)\n"
	    "  --index           also write index/channel0_N.idx\n"
	    "  --big-endian      big-endian trace\n"
	    "  --large-header    event_header_large instead of compact\n"
	    "  --quiet           no summary line\n"
	    "  --truth FILE      write the schedule's ground truth to FILE:\n"
	    "                    \"E ts cpu tid pid id\" per event (the task\n"
	    "                    current on its CPU, the event id), \"X ts\n"
	    "                    cpu tid\" for the task a switch puts on the\n"
	    "                    CPU, \"W ts cpu tid\" for a task woken from a\n"
	    "                    wait, then \"T tid pid ppid state comm\"\n"
	    "                    per task at the end\n", fp);
}

/* Parse a size with an optional K/M/G suffix (powers of 1024). */
static bool
parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mult = 1;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return false;
	switch (*end) {
	case 'k': case 'K':
		mult = 1ULL << 10;
		end++;
		break;
	case 'm': case 'M':
		mult = 1ULL << 20;
		end++;
		break;
	case 'g': case 'G':
		mult = 1ULL << 30;
		end++;
		break;
	default:
		break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || v > UINT64_MAX / mult)
		return false;
	*out = v * mult;
	return true;
}

/* Parse the command line into @o; exits on errors. */
static void
parse_args(int argc, char **argv, struct tv_gen_opts *o)
{
	enum { O_CPUS = 256, O_EVENTS, O_SIZE, O_SEED, O_PKT, O_PACKETIZED,
	    O_DISCARD, O_SEQGAP, O_INDEX, O_BE, O_LARGE, O_QUIET, O_TRUTH };
	static const struct option longopts[] = {
		{ "cpus", required_argument, NULL, O_CPUS },
		{ "events", required_argument, NULL, O_EVENTS },
		{ "size", required_argument, NULL, O_SIZE },
		{ "seed", required_argument, NULL, O_SEED },
		{ "packet-size", required_argument, NULL, O_PKT },
		{ "packetized", no_argument, NULL, O_PACKETIZED },
		{ "discard", no_argument, NULL, O_DISCARD },
		{ "seq-gap", no_argument, NULL, O_SEQGAP },
		{ "index", no_argument, NULL, O_INDEX },
		{ "big-endian", no_argument, NULL, O_BE },
		{ "large-header", no_argument, NULL, O_LARGE },
		{ "quiet", no_argument, NULL, O_QUIET },
		{ "truth", required_argument, NULL, O_TRUTH },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int ch;

	memset(o, 0, sizeof(*o));
	o->cpus = 4;
	o->events = 100000;
	o->packet_size = 262144;
	o->seed = 1;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case O_CPUS:
			if (!parse_size(optarg, &v) || v < 1 || v > 64)
				goto bad;
			o->cpus = (uint32_t)v;
			break;
		case O_EVENTS:
			if (!parse_size(optarg, &v) || v < 1)
				goto bad;
			o->events = v;
			break;
		case O_SIZE:
			if (!parse_size(optarg, &v) || v < 1)
				goto bad;
			o->size = v;
			o->events = 0;
			break;
		case O_SEED:
			if (!parse_size(optarg, &v))
				goto bad;
			o->seed = v;
			break;
		case O_PKT:
			if (!parse_size(optarg, &v) || v < 4096 ||
			    v % 4096 || v > (1ULL << 28))
				goto bad;
			o->packet_size = (uint32_t)v;
			break;
		case O_PACKETIZED:
			o->packetized = true;
			break;
		case O_DISCARD:
			o->discard = true;
			break;
		case O_SEQGAP:
			o->seq_gap = true;
			break;
		case O_INDEX:
			o->index = true;
			break;
		case O_BE:
			o->big_endian = true;
			break;
		case O_LARGE:
			o->large_header = true;
			break;
		case O_QUIET:
			o->quiet = true;
			break;
		case O_TRUTH:
			o->truth = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		exit(2);
	}
	o->out = argv[optind];
	if (o->size)
		o->events = 0;
	return;
bad:
	fprintf(stderr, "gen-ctf: invalid value '%s'\n", optarg);
	exit(2);
}

/* A uuid (version 4 layout) derived from the seed. */
static void
make_uuid(uint64_t seed, uint8_t uuid[16])
{
	struct tv_gen_rng r;
	uint64_t a, b;
	int i;

	tv_gen_rng_seed(&r, seed ^ 0x7669657775756964ULL);
	a = tv_gen_rng_next(&r);
	b = tv_gen_rng_next(&r);
	for (i = 0; i < 8; i++) {
		uuid[i] = (uint8_t)(a >> (8 * i));
		uuid[8 + i] = (uint8_t)(b >> (8 * i));
	}
	uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40);
	uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80);
}

/* Parse options, write the metadata, run the simulation, report. */
int
main(int argc, char **argv)
{
	struct tv_gen_opts o;
	struct tv_gen_writer *w = NULL;
	struct tv_error err;
	struct timespec t0, t1;
	uint8_t uuid[16];
	enum tv_status st;
	char buf[1200];
	double secs;

	parse_args(argc, argv, &o);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (mkdir(o.out, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "gen-ctf: %s: %s\n", o.out, strerror(errno));
		return 1;
	}
	make_uuid(o.seed, uuid);
	tv_error_clear(&err);
	st = tv_gen_trace(&o, uuid, &w, &err);
	if (st != TV_OK) {
		fprintf(stderr, "gen-ctf: %s\n",
		    tv_error_format(&err, buf, sizeof(buf)));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (!o.quiet)
		fprintf(stderr, "gen-ctf: %s: %" PRIu64 " events, %" PRIu64
		    " bytes in %u streams, %.2f s (%.0f MB/s)\n", o.out,
		    tv_gen_writer_events(w), tv_gen_writer_bytes(w), o.cpus,
		    secs, secs > 0 ? (double)tv_gen_writer_bytes(w) / 1e6 /
		    secs : 0.0);
	tv_gen_writer_destroy(w);
	return 0;
}
