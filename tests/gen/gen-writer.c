/*
 * gen-ctf: the per-CPU stream writer.  Each CPU gets a file channel0_N
 * made of fixed-size packets as the LTTng consumer writes them: packet
 * header (magic, uuid, stream_id, stream_instance_id), packet context,
 * then events with a compact (5-bit id, 27-bit timestamp) or large
 * (16-bit id, 32-bit timestamp) header that falls back to the extended
 * form when the id or the timestamp delta does not fit.  The last packet
 * of a stream is cut to a page multiple.  Optionally writes LTTng 1.1
 * index files.  Full packets go to a background thread that writes them,
 * so the simulation and the kernel's copying overlap.
 */
#include "gen-ctf.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GEN_HDR_BYTES	84	/* packet header + packet context */
#define GEN_PAGE	4096
#define GEN_SPARE	8	/* packet buffers beyond one per stream */

/* One per-CPU stream being written. */
struct gen_stream {
	FILE		*fp;
	FILE		*idx;
	char		 path[4096];
	uint8_t		*pkt;		/* the packet being filled */
	uint32_t	 used;		/* bytes in pkt */
	bool		 open;
	uint64_t	 ts_begin;
	uint64_t	 clock;		/* the decoder's clock value */
	uint64_t	 file_off;
	uint64_t	 seq;
	uint64_t	 discarded;	/* free-running counter */
};

/* A packet handed to the I/O thread. */
struct gen_job {
	struct gen_stream	*s;
	uint8_t			*buf;
	size_t			 size;
};

struct tv_gen_writer {
	const struct tv_gen_opts *o;
	uint8_t		 uuid[16];
	bool		 be;
	struct gen_stream *streams;
	uint32_t	 nstreams;
	struct tv_gen_evbuf eb;		/* the payload being built */
	uint64_t	 events;
	uint64_t	 bytes;		/* closed packets */
	bool		 done;
	struct tv_gen_rng rng;		/* discards and sequence gaps */
	enum tv_status	 status;
	struct tv_error	 err;
	/* the I/O thread; everything below is under mu */
	pthread_t	 thread;
	bool		 thread_on;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv_job;
	pthread_cond_t	 cv_free;
	struct gen_job	 jobs[GEN_SPARE + 1];
	uint32_t	 jhead;
	uint32_t	 jcount;
	uint8_t		*spare[GEN_SPARE + 1];	/* + the one being swapped */
	uint32_t	 nspare;
	bool		 stop;
	int		 io_errno;
	const char	*io_path;
};

/* The I/O thread: write queued packets until told to stop. */
static void *
gen_io_thread(void *arg)
{
	struct tv_gen_writer *w = arg;
	struct gen_job job;
	bool ok;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (w->jcount == 0 && !w->stop)
			pthread_cond_wait(&w->cv_job, &w->mu);
		if (w->jcount == 0)
			break;
		job = w->jobs[w->jhead];
		w->jhead = (w->jhead + 1) % TV_ARRAY_SIZE(w->jobs);
		w->jcount--;
		pthread_mutex_unlock(&w->mu);
		ok = w->io_errno != 0 ||
		    fwrite(job.buf, 1, job.size, job.s->fp) == job.size;
		pthread_mutex_lock(&w->mu);
		if (!ok && !w->io_errno) {
			w->io_errno = errno ? errno : EIO;
			w->io_path = job.s->path;
		}
		w->spare[w->nspare++] = job.buf;
		pthread_cond_signal(&w->cv_free);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/*
 * Queue the packet of @s (@size bytes) for writing and give @s an empty
 * buffer; waits while every buffer is in flight.
 */
static void
gen_submit(struct tv_gen_writer *w, struct gen_stream *s, size_t size)
{
	pthread_mutex_lock(&w->mu);
	w->jobs[(w->jhead + w->jcount) % TV_ARRAY_SIZE(w->jobs)] =
	    (struct gen_job){ s, s->pkt, size };
	w->jcount++;
	pthread_cond_signal(&w->cv_job);
	while (w->nspare == 0)
		pthread_cond_wait(&w->cv_free, &w->mu);
	s->pkt = w->spare[--w->nspare];
	if (w->io_errno)
		w->done = true;
	pthread_mutex_unlock(&w->mu);
}

/* Wait for the queued packets to be written and stop the I/O thread. */
static void
gen_io_stop(struct tv_gen_writer *w)
{
	if (!w->thread_on)
		return;
	pthread_mutex_lock(&w->mu);
	w->stop = true;
	pthread_cond_signal(&w->cv_job);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	w->thread_on = false;
	if (w->io_errno && w->status == TV_OK) {
		errno = w->io_errno;
		w->status = tv_error_at(&w->err, TV_IO, w->io_path,
		    TV_NO_OFFSET, "%s", strerror(errno));
	}
}

/* Remember the first write error; later writes are skipped. */
static void
gen_io_error(struct tv_gen_writer *w, const char *path)
{
	if (w->status == TV_OK)
		w->status = tv_error_at(&w->err, TV_IO, path, TV_NO_OFFSET,
		    "%s", strerror(errno));
	w->done = true;
}

/* Open the stream and index files of CPU @cpu. */
static enum tv_status
gen_stream_open(struct tv_gen_writer *w, uint32_t cpu, struct tv_error *err)
{
	struct gen_stream *s = &w->streams[cpu];
	uint8_t hdr[16];
	char ipath[4096];

	snprintf(s->path, sizeof(s->path), "%s/channel0_%u", w->o->out, cpu);
	s->fp = fopen(s->path, "wb");
	if (!s->fp)
		return tv_error_at(err, TV_IO, s->path, TV_NO_OFFSET, "%s",
		    strerror(errno));
	/* whole packets only: no stdio buffer, no copy */
	setvbuf(s->fp, NULL, _IONBF, 0);
	s->pkt = calloc(1, w->o->packet_size);
	if (!s->pkt)
		return tv_error_at(err, TV_NOMEM, s->path, TV_NO_OFFSET, "%s",
		    strerror(ENOMEM));
	if (!w->o->index)
		return TV_OK;
	snprintf(ipath, sizeof(ipath), "%s/index/channel0_%u.idx", w->o->out,
	    cpu);
	s->idx = fopen(ipath, "wb");
	if (!s->idx)
		return tv_error_at(err, TV_IO, ipath, TV_NO_OFFSET, "%s",
		    strerror(errno));
	tv_gen_store(hdr, 0xc1f1dcc1, 4, true);
	tv_gen_store(hdr + 4, 1, 4, true);		/* major */
	tv_gen_store(hdr + 8, 1, 4, true);		/* minor */
	tv_gen_store(hdr + 12, 72, 4, true);	/* entry size */
	if (fwrite(hdr, 1, sizeof(hdr), s->idx) != sizeof(hdr))
		return tv_error_at(err, TV_IO, ipath, TV_NO_OFFSET, "%s",
		    strerror(errno));
	return TV_OK;
}

/* Open the stream (and index) files and start the I/O thread. */
enum tv_status
tv_gen_writer_create(struct tv_gen_writer **out, const struct tv_gen_opts *o,
    const uint8_t uuid[16], struct tv_error *err)
{
	struct tv_gen_writer *w;
	char path[4096];
	enum tv_status st;
	uint32_t i;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return tv_error_set(err, TV_NOMEM, NULL, "%s", strerror(ENOMEM));
	w->o = o;
	memcpy(w->uuid, uuid, 16);
	w->be = o->big_endian;
	w->eb.be = o->big_endian;
	w->nstreams = o->cpus;
	tv_gen_rng_seed(&w->rng, o->seed ^ 0x9e3779b97f4a7c15ULL);
	w->streams = calloc(o->cpus, sizeof(*w->streams));
	if (!w->streams) {
		free(w);
		return tv_error_set(err, TV_NOMEM, NULL, "%s", strerror(ENOMEM));
	}
	if (o->index) {
		snprintf(path, sizeof(path), "%s/index", o->out);
		if (mkdir(path, 0777) != 0 && errno != EEXIST) {
			st = tv_error_at(err, TV_IO, path, TV_NO_OFFSET, "%s",
			    strerror(errno));
			tv_gen_writer_destroy(w);
			return st;
		}
	}
	for (i = 0; i < o->cpus; i++) {
		st = gen_stream_open(w, i, err);
		if (st != TV_OK) {
			tv_gen_writer_destroy(w);
			return st;
		}
	}
	for (i = 0; i < GEN_SPARE; i++) {
		w->spare[i] = malloc(o->packet_size);
		if (!w->spare[i]) {
			tv_gen_writer_destroy(w);
			return tv_error_set(err, TV_NOMEM, NULL, "%s",
			    strerror(ENOMEM));
		}
		w->nspare++;
	}
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv_job, NULL);
	pthread_cond_init(&w->cv_free, NULL);
	if (pthread_create(&w->thread, NULL, gen_io_thread, w) != 0) {
		tv_gen_writer_destroy(w);
		return tv_error_set(err, TV_IO, NULL, "cannot start a thread");
	}
	w->thread_on = true;
	*out = w;
	return TV_OK;
}

/* Start a packet on @s whose timestamp_begin is @ts. */
static void
gen_packet_begin(struct tv_gen_writer *w, struct gen_stream *s, uint64_t ts)
{
	memset(s->pkt, 0, GEN_HDR_BYTES);
	tv_gen_store(s->pkt, 0xc1fc1fc1, 4, w->be);
	memcpy(s->pkt + 4, w->uuid, 16);
	tv_gen_store(s->pkt + 20, TV_GEN_STREAM_ID, 4, w->be);
	tv_gen_store(s->pkt + 24, (uint64_t)(s - w->streams), 8, w->be);
	s->used = GEN_HDR_BYTES;
	s->ts_begin = ts;
	s->clock = ts;
	s->open = true;
}

/* Write one index entry for the packet just written. */
static void
gen_index_entry(struct tv_gen_writer *w, struct gen_stream *s,
    uint64_t size, uint64_t ts_end)
{
	uint8_t e[72];

	tv_gen_store(e, s->file_off, 8, true);
	tv_gen_store(e + 8, size * 8, 8, true);
	tv_gen_store(e + 16, (uint64_t)s->used * 8, 8, true);
	tv_gen_store(e + 24, s->ts_begin, 8, true);
	tv_gen_store(e + 32, ts_end, 8, true);
	tv_gen_store(e + 40, s->discarded, 8, true);
	tv_gen_store(e + 48, TV_GEN_STREAM_ID, 8, true);
	tv_gen_store(e + 56, (uint64_t)(s - w->streams), 8, true);
	tv_gen_store(e + 64, s->seq, 8, true);
	if (fwrite(e, 1, sizeof(e), s->idx) != sizeof(e))
		gen_io_error(w, s->path);
}

/*
 * Close the packet of @s at time @ts_end.  A full packet keeps the whole
 * sub-buffer size; the last one (@last) is cut to a page multiple.
 */
static void
gen_packet_end(struct tv_gen_writer *w, struct gen_stream *s,
    uint64_t ts_end, bool last)
{
	uint64_t size = w->o->packet_size;
	uint8_t *c = s->pkt + 32;

	if (last)
		size = ((uint64_t)s->used + GEN_PAGE - 1) / GEN_PAGE * GEN_PAGE;
	if (w->o->discard && tv_gen_rng_next(&w->rng) % 3 == 0)
		s->discarded += tv_gen_rng_range(&w->rng, 1, 400);
	if (w->o->seq_gap && s->seq > 0 && tv_gen_rng_next(&w->rng) % 4 == 0)
		s->seq += tv_gen_rng_range(&w->rng, 1, 3);
	memset(s->pkt + s->used, 0, size - s->used);
	tv_gen_store(c, s->ts_begin, 8, w->be);
	tv_gen_store(c + 8, ts_end, 8, w->be);
	tv_gen_store(c + 16, (uint64_t)s->used * 8, 8, w->be);
	tv_gen_store(c + 24, size * 8, 8, w->be);
	tv_gen_store(c + 32, s->seq, 8, w->be);
	tv_gen_store(c + 40, s->discarded, 8, w->be);
	tv_gen_store(c + 48, (uint64_t)(s - w->streams), 4, w->be);
	if (s->idx)
		gen_index_entry(w, s, size, ts_end);
	gen_submit(w, s, size);
	s->file_off += size;
	s->seq++;
	s->open = false;
	w->bytes += size;
	if (w->o->size && w->bytes >= w->o->size)
		w->done = true;
}

/* The payload buffer the simulation fills before each commit. */
struct tv_gen_evbuf *
tv_gen_writer_evbuf(struct tv_gen_writer *w)
{
	return &w->eb;
}

/*
 * Encode the event header for @id at @ts into @h given the stream clock;
 * returns its size.
 */
static uint32_t
gen_header(struct tv_gen_writer *w, uint8_t *h, uint64_t clock, uint32_t id,
    uint64_t ts)
{
	uint64_t delta = ts - clock;

	if (w->o->large_header) {
		if (id < 65535 && delta < (1ULL << 32)) {
			tv_gen_store(h, id, 2, w->be);
			tv_gen_store(h + 2, ts & 0xffffffffULL, 4, w->be);
			return 6;
		}
		tv_gen_store(h, 65535, 2, w->be);
		tv_gen_store(h + 2, id, 4, w->be);
		tv_gen_store(h + 6, ts, 8, w->be);
		return 14;
	}
	if (id < 31 && delta < (1ULL << 27)) {
		uint64_t t27 = ts & ((1ULL << 27) - 1);

		tv_gen_store(h, w->be ? ((uint64_t)id << 27) | t27 :
		    id | (t27 << 5), 4, w->be);
		return 4;
	}
	h[0] = w->be ? 31 << 3 : 31;
	tv_gen_store(h + 1, id, 4, w->be);
	tv_gen_store(h + 5, ts, 8, w->be);
	return 13;
}

/* Append the built payload as one event, starting packets as needed. */
bool
tv_gen_ev_commit(struct tv_gen_writer *w, uint32_t cpu, uint32_t id,
    uint64_t ts)
{
	struct gen_stream *s = &w->streams[cpu];
	uint8_t h[16];
	uint32_t hs;

	if (w->done)
		return false;
	if (w->o->events && w->events >= w->o->events) {
		w->done = true;
		return false;
	}
	if (!s->open)
		gen_packet_begin(w, s, ts);
	hs = gen_header(w, h, s->clock, id, ts);
	if (s->used + hs + w->eb.len > w->o->packet_size) {
		gen_packet_end(w, s, ts, false);
		if (w->done)
			return false;
		gen_packet_begin(w, s, ts);
		hs = gen_header(w, h, s->clock, id, ts);
	}
	memcpy(s->pkt + s->used, h, hs);
	memcpy(s->pkt + s->used + hs, w->eb.data, w->eb.len);
	s->used += hs + w->eb.len;
	s->clock = ts;
	w->events++;
	return true;
}

/* Whether the run is over: count or size reached, or an I/O error. */
bool
tv_gen_writer_done(const struct tv_gen_writer *w)
{
	return w->done || (w->o->events && w->events >= w->o->events);
}

/* Events written so far. */
uint64_t
tv_gen_writer_events(const struct tv_gen_writer *w)
{
	return w->events;
}

/* Bytes of stream files in closed packets. */
uint64_t
tv_gen_writer_bytes(const struct tv_gen_writer *w)
{
	return w->bytes;
}

/* The first I/O error, copied to @err. */
enum tv_status
tv_gen_writer_status(const struct tv_gen_writer *w, struct tv_error *err)
{
	if (w->status != TV_OK && err)
		*err = w->err;
	return w->status;
}

/* Close every stream's last packet at @end_ts and the files. */
enum tv_status
tv_gen_writer_finish(struct tv_gen_writer *w, uint64_t end_ts,
    struct tv_error *err)
{
	struct gen_stream *s;
	uint32_t i;

	for (i = 0; i < w->nstreams; i++) {
		s = &w->streams[i];
		/* An idle CPU still gets one empty packet, as LTTng does. */
		if (!s->open && s->file_off == 0)
			gen_packet_begin(w, s, end_ts);
		if (s->open)
			gen_packet_end(w, s, TV_MAX(end_ts, s->clock), true);
	}
	gen_io_stop(w);
	for (i = 0; i < w->nstreams; i++) {
		s = &w->streams[i];
		if (fclose(s->fp) != 0)
			gen_io_error(w, s->path);
		s->fp = NULL;
		if (s->idx && fclose(s->idx) != 0)
			gen_io_error(w, s->path);
		s->idx = NULL;
	}
	return tv_gen_writer_status(w, err);
}

/* Free the writer (stops the I/O thread first). */
void
tv_gen_writer_destroy(struct tv_gen_writer *w)
{
	uint32_t i;

	if (!w)
		return;
	gen_io_stop(w);
	for (i = 0; i < w->nspare; i++)
		free(w->spare[i]);
	for (i = 0; i < w->nstreams; i++) {
		if (w->streams[i].fp)
			fclose(w->streams[i].fp);
		if (w->streams[i].idx)
			fclose(w->streams[i].idx);
		free(w->streams[i].pkt);
	}
	free(w->streams);
	free(w);
}
