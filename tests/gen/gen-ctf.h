/*
 * Internal interface of gen-ctf, the CTF 1.8 trace generator: options,
 * the event ids and the three parts (TSDL metadata writer, per-CPU stream
 * writer, simulated schedule) that gen-ctf.c ties together.
 */
#ifndef TVIEW_GEN_CTF_H
#define TVIEW_GEN_CTF_H

#include "tview/tview.h"
#include "tview/error.h"

#include <stdio.h>
#include <string.h>

/* Command-line options. */
struct tv_gen_opts {
	const char	*out;		/* output directory */
	uint32_t	 cpus;
	uint64_t	 events;	/* stop after this many events */
	uint64_t	 size;		/* or when the streams reach this; 0 */
	uint32_t	 packet_size;	/* bytes, multiple of 4096 */
	uint64_t	 seed;
	bool		 packetized;	/* packetized metadata */
	bool		 discard;	/* inject events_discarded */
	bool		 seq_gap;	/* skip packet sequence numbers */
	bool		 index;		/* write index/ files */
	bool		 big_endian;
	bool		 large_header;	/* event_header_large */
	bool		 quiet;
	const char	*truth;		/* ground-truth file, or NULL */
};

/*
 * Event ids as lttng-modules would have assigned them when enabling:
 * the frequent ones below 31 (compact header), the rare ones above
 * (extended header with a 32-bit id).
 */
enum tv_gen_event {
	TV_GEN_SCHED_SWITCH = 0,
	TV_GEN_SCHED_WAKING,
	TV_GEN_SCHED_WAKEUP,
	TV_GEN_IRQ_ENTRY,
	TV_GEN_IRQ_EXIT,
	TV_GEN_SOFTIRQ_RAISE,
	TV_GEN_SOFTIRQ_ENTRY,
	TV_GEN_SOFTIRQ_EXIT,
	TV_GEN_SYS_READ,
	TV_GEN_SYS_READ_EXIT,
	TV_GEN_SYS_WRITE,
	TV_GEN_SYS_WRITE_EXIT,
	TV_GEN_SYS_OPENAT,
	TV_GEN_SYS_OPENAT_EXIT,
	TV_GEN_SYS_CLOSE,
	TV_GEN_SYS_CLOSE_EXIT,
	TV_GEN_SYS_FUTEX,
	TV_GEN_SYS_FUTEX_EXIT,
	TV_GEN_STATEDUMP_START = 40,
	TV_GEN_STATEDUMP_PROCESS,
	TV_GEN_STATEDUMP_END,
	TV_GEN_PROCESS_FORK,
	TV_GEN_PROCESS_EXEC,
	TV_GEN_PROCESS_EXIT,
	TV_GEN_PROCESS_FREE,
	TV_GEN_WAKEUP_NEW,
	TV_GEN_EVENT_MAX,
};

/* Deterministic pseudo-random numbers (xorshift64*). */
struct tv_gen_rng {
	uint64_t	 s;
};

static inline void
tv_gen_rng_seed(struct tv_gen_rng *r, uint64_t seed)
{
	/* splitmix64 of the seed, so small seeds give unrelated streams */
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	r->s = (z ^ (z >> 31)) | 1;
}

static inline uint64_t
tv_gen_rng_next(struct tv_gen_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [lo, hi]. */
static inline uint64_t
tv_gen_rng_range(struct tv_gen_rng *r, uint64_t lo, uint64_t hi)
{
	uint64_t span = hi - lo + 1;

	/* multiply-shift instead of a division; span 0 is the full range */
	if (span == 0)
		return tv_gen_rng_next(r);
	return lo + (uint64_t)(((unsigned __int128)tv_gen_rng_next(r) *
	    span) >> 64);
}

/* ---- metadata (gen-meta.c) ---- */

/* Clock offset: nanoseconds from the epoch of cycle 0. */
#define TV_GEN_CLOCK_OFFSET	1773476400000000000ULL	/* 2026-03-14 08:20 UTC */
#define TV_GEN_STREAM_ID	0

enum tv_status	 tv_gen_write_metadata(const struct tv_gen_opts *o,
		    const uint8_t uuid[16], struct tv_error *err);

/* ---- stream writer (gen-writer.c) ---- */

struct tv_gen_writer;

enum tv_status	 tv_gen_writer_create(struct tv_gen_writer **out,
		    const struct tv_gen_opts *o, const uint8_t uuid[16],
		    struct tv_error *err);
/* Flush every stream's last packet, close the files. */
enum tv_status	 tv_gen_writer_finish(struct tv_gen_writer *w,
		    uint64_t end_ts, struct tv_error *err);
void		 tv_gen_writer_destroy(struct tv_gen_writer *w);

/*
 * The payload of the event being built, in the trace's byte order; the
 * writer owns one.  Inline, since it runs tens of millions of times.
 */
#define TV_GEN_PAYLOAD_MAX	1024
#define TV_GEN_STR_MAX		255	/* longest string field written */

struct tv_gen_evbuf {
	uint8_t		 data[TV_GEN_PAYLOAD_MAX];
	uint32_t	 len;
	bool		 be;
};

struct tv_gen_evbuf *tv_gen_writer_evbuf(struct tv_gen_writer *w);

/* Store the low @n bytes of @v at @p in the given byte order. */
static inline void
tv_gen_store(uint8_t *p, uint64_t v, int n, bool be)
{
	int i;

	if (be) {
		for (i = n - 1; i >= 0; i--, v >>= 8)
			p[i] = (uint8_t)v;
	} else {
		for (i = 0; i < n; i++, v >>= 8)
			p[i] = (uint8_t)v;
	}
}

/* Start a new payload. */
static inline void
tv_gen_ev_begin(struct tv_gen_evbuf *b)
{
	b->len = 0;
}

/* Append an integer of @n bytes. */
static inline void
tv_gen_put(struct tv_gen_evbuf *b, uint64_t v, int n)
{
	tv_gen_store(b->data + b->len, v, n, b->be);
	b->len += (uint32_t)n;
}

#define tv_gen_put_u8(b, v)	tv_gen_put((b), (uint8_t)(v), 1)
#define tv_gen_put_u16(b, v)	tv_gen_put((b), (uint16_t)(v), 2)
#define tv_gen_put_u32(b, v)	tv_gen_put((b), (uint32_t)(v), 4)
#define tv_gen_put_u64(b, v)	tv_gen_put((b), (uint64_t)(v), 8)

/* Append a char[16] field, NUL-padded. */
static inline void
tv_gen_put_comm(struct tv_gen_evbuf *b, const char *s)
{
	size_t n = strnlen(s, 15);

	memcpy(b->data + b->len, s, n);
	memset(b->data + b->len + n, 0, 16 - n);
	b->len += 16;
}

/* Append a NUL-terminated string (cut at TV_GEN_STR_MAX bytes). */
static inline void
tv_gen_put_str(struct tv_gen_evbuf *b, const char *s)
{
	size_t n = strnlen(s, TV_GEN_STR_MAX);

	memcpy(b->data + b->len, s, n);
	b->data[b->len + n] = 0;
	b->len += (uint32_t)n + 1;
}

/*
 * Write the payload built in the writer's evbuf as event @id on CPU
 * @cpu at time @ts; false when the run is over (event count or size
 * reached) and nothing was written.
 */
bool		 tv_gen_ev_commit(struct tv_gen_writer *w, uint32_t cpu,
		    uint32_t id, uint64_t ts);
bool		 tv_gen_writer_done(const struct tv_gen_writer *w);
uint64_t	 tv_gen_writer_events(const struct tv_gen_writer *w);
uint64_t	 tv_gen_writer_bytes(const struct tv_gen_writer *w);
/* First I/O error met while writing, if any. */
enum tv_status	 tv_gen_writer_status(const struct tv_gen_writer *w,
		    struct tv_error *err);

/* ---- simulation (gen-sched.c) ---- */

/* Run the simulated machine until the writer says it is done. */
enum tv_status	 tv_gen_simulate(const struct tv_gen_opts *o,
		    struct tv_gen_writer *w, uint64_t *end_ts,
		    struct tv_error *err);
/*
 * The whole trace: metadata, the simulation through a writer, its end.
 * *@out (the finished writer, for its counts; the caller destroys it) is
 * set on success only; on error everything is freed.
 */
enum tv_status	 tv_gen_trace(const struct tv_gen_opts *o,
		    const uint8_t uuid[16], struct tv_gen_writer **out,
		    struct tv_error *err);

#endif /* TVIEW_GEN_CTF_H */
