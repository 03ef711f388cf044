/*
 * The trace.dat (trace-cmd) driver: its vtable, the probe, and open: the
 * common file header, then the v6 or v7 layout, libtraceevent, and one
 * trace per ring buffer (the top one and each instance) with one stream
 * per CPU whose pages form the packet index.  The index is exact: each
 * page is walked once at open (compressed pages through the chunk cache)
 * to get the timestamps of its first and last records.
 */
#include "tview/tview.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tview/i18n.h"
#include "tracedat-priv.h"

static const uint8_t td_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
	'i', 'n', 'g' };

/* Is @path a regular file starting with the trace.dat magic? */
static enum tv_status
td_probe(const char *path, struct tv_error *err)
{
	uint8_t buf[10];
	struct stat st;
	FILE *fp;
	size_t n;

	(void)err;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return TV_FORMAT;
	fp = fopen(path, "rb");
	if (!fp)
		return TV_FORMAT;
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	if (n != sizeof(buf) || memcmp(buf, td_magic, sizeof(buf)) != 0)
		return TV_FORMAT;
	return TV_OK;
}

/* Free the container once no trace uses it. */
static void
file_unref(struct td_file *f)
{
	uint32_t i;

	if (!f || --f->refs > 0)
		return;
	td_events_free(f);
	td_chunk_cache_free(f);
	for (i = 0; i < f->nbuffers; i++) {
		struct td_buffer *b = &f->buffers[i];
		uint32_t k;

		for (k = 0; k < b->ncpus; k++)
			free(b->cpus[k].chunks);
		free(b->cpus);
		free(b->name);
		free(b->clock);
	}
	free(f->buffers);
	for (i = 0; i < f->nowned; i++)
		free(f->owned[i].buf);
	free(f->owned);
	free(f->formats);
	free(f->trace_clock);
	free(f->uname);
	free(f->tc_version);
	free(f->date);
	td_tshift_free(f);
	for (i = 0; i < f->nguests; i++)
		free(f->guests[i].name);
	free(f->guests);
	free(f->clock);
	free(f->class_of_id);
	free(f->scratch);
	tv_mapfile_close(&f->mf);
	pthread_mutex_destroy(&f->lock);
	free(f->path);
	free(f);
}

/*
 * The clock the data was recorded with ("[local] global" selects local)
 * and whether trace-cmd prints its timestamps as seconds.microseconds:
 * only for the nanosecond clocks, else as raw counts.
 */
void
td_select_clock(struct td_file *f)
{
	static const char *const ns_clocks[] = { "local", "global",
		"uptime", "perf", "tsc2nsec", "tai" };
	const char *src = f->trace_clock, *lb, *rb;
	size_t i;

	f->in_usecs = true;
	if ((!src || !*src) && f->nbuffers > 0)
		src = f->buffers[0].clock;
	if (!src || !*src)
		return;
	lb = strchr(src, '[');
	rb = lb ? strchr(lb, ']') : NULL;
	if (lb && rb)
		f->clock = tv_xstrndup(lb + 1, (size_t)(rb - lb - 1));
	else
		f->clock = tv_xstrndup(src, strcspn(src, " \n"));
	if (f->has_tsc2nsec)
		return;		/* converted to ns: report prints seconds */
	for (i = 0; i < TV_ARRAY_SIZE(ns_clocks); i++)
		if (strcmp(f->clock, ns_clocks[i]) == 0)
			return;
	if (strncmp(f->clock, "mono", 4) == 0)
		return;
	f->in_usecs = false;
}

/* Magic, version, endianness, long size, page size; then the layout. */
static enum tv_status
read_file(struct td_file *f, struct tv_error *err)
{
	const char *ver;
	struct td_cur c;
	uint8_t endian, lsize;

	td_cur_init(&c, f->path, f->mf.data, f->mf.size, 0, false);
	if (td_expect(&c, (const char *)td_magic, sizeof(td_magic), err) !=
	    TV_OK || td_read_str(&c, &ver, err) != TV_OK)
		return TV_CORRUPT;
	f->version = atoi(ver);
	if (f->version != 6 && f->version != 7)
		return tv_error_at(err, TV_UNSUPPORTED, f->path, 10,
		    _("trace.dat version \"%s\" is not supported (6 and 7 "
		    "are)"), ver);
	if (c.len - c.pos < 6)
		return td_error(&c, err, _("truncated file header"));
	endian = c.data[c.pos++];
	lsize = c.data[c.pos++];
	if (endian > 1 || (lsize != 4 && lsize != 8)) {
		c.pos -= 2;
		return td_error(&c, err, _("bad endianness (%u) or long "
		    "size (%u)"), endian, lsize);
	}
	f->be = endian == 1;
	c.be = f->be;
	f->long_size = lsize;
	if (td_read_u32(&c, &f->page_size, err) != TV_OK)
		return TV_CORRUPT;
	if (f->page_size < 16 || f->page_size > TD_MAX_PAGE) {
		c.pos -= 4;
		return td_error(&c, err, _("bad page size %u"), f->page_size);
	}
	if ((f->version == 6 ? td_read_v6(f, &c, err) :
	    td_read_v7(f, &c, err)) != TV_OK)
		return err ? err->status : TV_CORRUPT;
	return td_page_layout_parse(f, err);
}

/* Append an environment entry (strings copied to the trace arena). */
static void
env_add(struct tv_trace *t, uint32_t *cap, const char *key, const char *str,
    int64_t num)
{
	struct tv_env_entry *e;

	if (t->nenv >= *cap) {
		struct tv_env_entry *n;

		*cap = *cap ? *cap * 2 : 16;
		n = tv_arena_zalloc(&t->arena, *cap * sizeof(*n));
		if (t->nenv)
			memcpy(n, t->env, t->nenv * sizeof(*n));
		t->env = n;
	}
	e = &t->env[t->nenv++];
	e->key = key;
	e->str = str ? tv_arena_strdup(&t->arena, str) : NULL;
	e->num = num;
}

/* What --info lists: version, compression, clock, CPUs, options... */
static void
fill_env(struct tv_trace *t, const struct td_file *f,
    const struct td_buffer *b)
{
	uint32_t cap = 0, i, ninst = 0;
	char buf[256];

	env_add(t, &cap, "file_version", NULL, f->version);
	if (f->version >= 7) {
		snprintf(buf, sizeof(buf), "%s %s", f->comp_name,
		    f->comp_version);
		env_add(t, &cap, "compression", f->comp == TD_COMP_NONE ?
		    "none" : buf, 0);
	} else {
		env_add(t, &cap, "compression", "none", 0);
	}
	env_add(t, &cap, "endianness", f->be ? "big" : "little", 0);
	env_add(t, &cap, "long_size", NULL, f->long_size);
	env_add(t, &cap, "page_size", NULL, b->page_size);
	env_add(t, &cap, "cpus", NULL, f->cpus);
	env_add(t, &cap, "cpus_with_data", NULL, b->ncpus);
	env_add(t, &cap, "trace_clock", b->clock && *b->clock ? b->clock :
	    (f->clock ? f->clock : "local"), 0);
	env_add(t, &cap, "buffer", b->name[0] ? b->name : "(top)", 0);
	for (i = 1; i < f->nbuffers; i++)
		ninst++;
	env_add(t, &cap, "instances", NULL, ninst);
	for (i = 1; i < f->nbuffers; i++) {
		snprintf(buf, sizeof(buf), "instance_%u", i);
		env_add(t, &cap, tv_arena_strdup(&t->arena, buf),
		    f->buffers[i].name, 0);
	}
	env_add(t, &cap, "options", NULL, f->noptions);
	buf[0] = '\0';
	for (i = 1; i < TD_NOPTION_NAMES; i++) {
		size_t n = strlen(buf);

		if (f->option_mask & (1u << i))
			snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? " " : "",
			    td_option_names[i]);
	}
	if (buf[0])
		env_add(t, &cap, "option_kinds", buf, 0);
	if (f->uname)
		env_add(t, &cap, "uname", f->uname, 0);
	if (f->tc_version)
		env_add(t, &cap, "tracer_version", f->tc_version, 0);
	if (f->date)
		env_add(t, &cap, "date", f->date, 0);
	if (f->ts_offset)
		env_add(t, &cap, "ts_offset", NULL, f->ts_offset);
	if (f->has_tsc2nsec) {
		snprintf(buf, sizeof(buf), "mult=%u shift=%u offset=%" PRIu64,
		    f->tsc_mult, f->tsc_shift, f->tsc_offset);
		env_add(t, &cap, "tsc2nsec", buf, 0);
	}
	if (f->tshift != NULL) {
		size_t n = 0;

		for (i = 0; i < f->tshift_cpus; i++)
			n += f->tshift[i].n;
		snprintf(buf, sizeof(buf), "peer=0x%" PRIx64 " cpus=%u "
		    "samples=%zu%s", f->tshift_peer, f->tshift_cpus, n,
		    f->tshift_flags & 1 ? " interpolated" : "");
		env_add(t, &cap, "time_shift", buf, 0);
	}
	for (i = 0; i < f->nguests; i++) {
		char key[32];

		snprintf(key, sizeof(key), "guest_%u", i);
		snprintf(buf, sizeof(buf), "%s trace_id=0x%" PRIx64
		    " vcpus=%u", f->guests[i].name, f->guests[i].trace_id,
		    f->guests[i].vcpus);
		env_add(t, &cap, tv_arena_strdup(&t->arena, key), buf, 0);
	}
	if (f->has_trace_id) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, f->trace_id);
		env_add(t, &cap, "trace_id", buf, 0);
	}
	env_add(t, &cap, "events", NULL, (int64_t)t->nclasses - 1);
	if (b->is_text)
		env_add(t, &cap, "latency_text", NULL, (int64_t)b->text.len);
}

/*
 * The saved cmdlines ("PID COMM" lines) as the trace's known threads, so
 * the state names threads that no sched event names.
 */
static void
fill_known(struct tv_trace *t, const struct td_file *f)
{
	const char *p = (const char *)f->cmdlines.ptr;
	const char *end, *nl, *sp;
	uint64_t n = 0, i;
	struct tv_known_thread *k;

	/* a v7 file may have no cmdlines section: no pointer to add to */
	if (p == NULL || f->cmdlines.len == 0)
		return;
	end = p + f->cmdlines.len;
	for (i = 0; i < f->cmdlines.len; i++)
		n += p[i] == '\n';
	n++;
	if (n > UINT32_MAX / 2)
		return;
	k = tv_arena_zalloc(&t->arena, (size_t)n * sizeof(*k));
	t->known = k;
	for (; p < end && t->nknown < n; p = nl + 1) {
		char num[24];
		size_t nlen, clen;
		char *e;
		long long tid;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		sp = memchr(p, ' ', (size_t)(nl - p));
		if (sp == NULL || sp == p)
			continue;
		nlen = (size_t)(sp - p);
		clen = (size_t)(nl - sp - 1);
		if (nlen >= sizeof(num) || clen == 0)
			continue;
		memcpy(num, p, nlen);
		num[nlen] = '\0';
		tid = strtoll(num, &e, 10);
		if (*e != '\0' || tid <= 0)
			continue;
		k[t->nknown].tid = tid;
		k[t->nknown].pid = INT64_MIN;
		k[t->nknown].name = tv_intern(t->names, sp + 1, clen);
		t->nknown++;
	}
}

/*
 * Where bytes [@off, @off + @len) of @cpu's data lie in the file, *@at:
 * false when they are compressed (read from a chunk cache) or past it.
 */
static bool
cpu_span(const struct td_cpu *cpu, uint64_t off, uint64_t len, uint64_t *at)
{
	if (cpu->chunks != NULL || off > cpu->usize || len > cpu->usize - off)
		return false;
	*at = cpu->offset + off;
	return true;
}

/*
 * The end of a cut CPU's data: a last packet, the part of a page that is
 * there (maybe nothing), whose decoding gives its whole records and then
 * the error naming where the file ends.
 */
static enum tv_status
index_cut_page(struct td_file *f, struct tv_stream *s, uint64_t off,
    struct tv_error *err)
{
	struct td_stream_priv *sp = s->priv;
	const struct td_cpu *cpu = sp->cpu;
	struct td_page_iter it;
	struct tv_packet *p;
	const uint8_t *pg;
	uint64_t n = 0, first = 0, last = 0, prev = 0;
	uint32_t size = (uint32_t)(cpu->usize - off);

	(void)err;
	if (s->npackets > 0)
		prev = s->packets[s->npackets - 1].cycles_end;
	/* at open, no other thread reads the file: a cache unlocked */
	pg = td_cpu_bytes(f, &f->chunks[0], cpu, off, size, NULL);
	if (pg && td_page_begin(&it, f, pg, size, NULL) == TV_OK)
		while (td_page_next(&it, NULL) == TV_OK) {
			if (n++ == 0)
				first = it.ts;
			last = it.ts;
		}
	if (n == 0)
		first = last = prev;
	p = tv_stream_add_packet(s);
	p->offset = off;
	p->size = size;
	p->content_bits = (uint64_t)size * 8;
	p->cycles_begin = first;
	p->cycles_end = last;
	p->ts_begin = td_convert_ts(f, cpu->cpu, first);
	p->ts_end = td_convert_ts(f, cpu->cpu, last);
	p->flags |= TV_PACKET_CORRUPT;
	sp->pages = tv_xreallocarray(sp->pages, s->npackets,
	    sizeof(*sp->pages));
	sp->pages[s->npackets - 1].lost = 0;
	return TV_OK;
}

/* Index the pages of one CPU: each non-empty page is a packet. */
static enum tv_status
index_stream(struct td_file *f, struct tv_stream *s,
    const struct td_buffer *b, struct tv_error *err)
{
	struct tv_map_release rel = TV_MAP_RELEASE_INIT;
	struct td_stream_priv *sp = s->priv;
	const struct td_cpu *cpu = sp->cpu;
	uint64_t off, at, cap = 0;
	struct tv_error e;

	for (off = 0; off + b->page_size <= cpu->usize;
	    off += b->page_size) {
		struct td_page_iter it;
		const uint8_t *pg;
		struct tv_packet *p;
		enum tv_status st;
		uint64_t first = 0, last = 0, n = 0;

		/* the page before is read: its mapped bytes go back (a file
		   not compressed was all in memory once opened) */
		if (off > 0 && cpu_span(cpu, off - b->page_size,
		    b->page_size, &at))
			tv_map_release_add(&rel, &f->mf, at, b->page_size);
		tv_error_clear(&e);
		/* at open, no other thread reads the file: a cache
		   unlocked */
		pg = td_cpu_bytes(f, &f->chunks[0], cpu, off, b->page_size,
		    &e);
		if (!pg) {
			tv_map_release_flush(&rel);
			*err = e;
			return e.status;
		}
		if (td_page_begin(&it, f, pg, b->page_size, &e) == TV_OK) {
			while ((st = td_page_next(&it, &e)) == TV_OK) {
				if (n == 0)
					first = it.ts;
				last = it.ts;
				n++;
			}
			if (st == TV_END)
				tv_error_clear(&e);
		}
		if (n == 0 && e.status == TV_OK)
			continue;
		if (n == 0)
			first = last = td_get_u(pg, 8, f->be);
		p = tv_stream_add_packet(s);
		p->offset = off;
		p->size = b->page_size;
		p->content_bits = ((uint64_t)it.hdr + it.commit) * 8;
		p->cycles_begin = first;
		p->cycles_end = last;
		p->ts_begin = td_convert_ts(f, cpu->cpu, first);
		p->ts_end = td_convert_ts(f, cpu->cpu, last);
		p->discarded = it.lost > 0 ? (uint64_t)it.lost : 0;
		if (e.status != TV_OK)
			p->flags |= TV_PACKET_CORRUPT;
		if (s->npackets > cap) {
			cap = cap ? cap * 2 : 64;
			sp->pages = tv_xreallocarray(sp->pages, cap,
			    sizeof(*sp->pages));
		}
		sp->pages[s->npackets - 1].lost = it.lost;
	}
	if (off > 0 && cpu_span(cpu, off - b->page_size, b->page_size, &at))
		tv_map_release_add(&rel, &f->mf, at, b->page_size);
	tv_map_release_flush(&rel);
	if (cpu->truncated)
		return index_cut_page(f, s, off, err);
	return TV_OK;
}

/* One trace for buffer @bi of @f, with a stream per CPU. */
static enum tv_status
make_trace(struct td_file *f, uint32_t bi, const char *path,
    struct tv_trace **out, struct tv_error *err)
{
	const struct td_buffer *b = &f->buffers[bi];
	struct td_trace_priv *tp;
	struct tv_clock *clk;
	struct tv_trace *t;
	uint32_t k;

	t = tv_trace_create(&tv_tracedat_format, path);
	tp = tv_xcalloc(1, sizeof(*tp));
	tp->file = f;
	tp->buffer = bi;
	f->refs++;
	t->priv = tp;
	if (b->name[0]) {
		free(t->name);
		t->name = tv_xstrdup(b->name);
	}
	if (f->nbuffers > 1) {
		size_t w = 0;
		uint32_t i;

		for (i = 1; i < f->nbuffers; i++)
			w = TV_MAX(w, strlen(f->buffers[i].name));
		/* report tags instance lines; the top one gets blanks */
		tv_xasprintf(&tp->prefix, bi ? "%*s: " : "%*s  ", (int)w,
		    b->name);
	}
	td_events_classes(f, t);
	clk = tv_arena_zalloc(&t->arena, sizeof(*clk));
	{
		const char *cn = b->clock && *b->clock ? b->clock :
		    (f->clock ? f->clock : "local");

		clk->name = tv_intern(t->names, cn, strlen(cn));
	}
	clk->freq = 1000000000;
	clk->precision = 1;
	tv_clock_finish(clk);
	t->clocks = clk;
	t->nclocks = 1;
	fill_env(t, f, b);
	fill_known(t, f);
	*out = t;
	if (b->is_text)
		return TV_OK;
	for (k = 0; k < b->ncpus; k++) {
		struct td_stream_priv *sp;
		struct tv_stream *s;
		char name[32];

		snprintf(name, sizeof(name), "cpu%u", b->cpus[k].cpu);
		s = tv_trace_add_stream(t, name);
		s->cpu = (int32_t)b->cpus[k].cpu;
		s->class_id = 0;
		s->clock = clk;
		sp = tv_xcalloc(1, sizeof(*sp));
		sp->cpu = &b->cpus[k];
		s->priv = sp;
		if (tv_stream_add_file(s, f->path, NULL, err) != TV_OK)
			return err ? err->status : TV_IO;
		if (index_stream(f, s, b, err) != TV_OK)
			return err ? err->status : TV_CORRUPT;
	}
	return TV_OK;
}

/* Open a trace.dat file: one trace per buffer. */
static enum tv_status
td_open(const char *path, unsigned flags,
    struct tv_trace ***out, uint32_t *nout,
    struct tv_error *err)
{
	struct tv_trace **traces;
	struct td_file *f;
	enum tv_status st;
	char *abs;
	uint32_t i;

	(void)flags;
	*out = NULL;
	*nout = 0;
	f = tv_xcalloc(1, sizeof(*f));
	pthread_mutex_init(&f->lock, NULL);
	td_chunks_init(f);
	f->refs = 1;
	abs = realpath(path, NULL);
	f->path = tv_xstrdup(abs ? abs : path);
	free(abs);
	st = tv_mapfile_open(&f->mf, f->path, err);
	if (st == TV_OK)
		st = read_file(f, err);
	if (st == TV_OK) {
		td_select_clock(f);
		st = td_events_load(f, err);
	}
	if (st != TV_OK) {
		file_unref(f);
		return st;
	}
	traces = tv_xcalloc(f->nbuffers, sizeof(*traces));
	for (i = 0; i < f->nbuffers && st == TV_OK; i++) {
		struct tv_trace *t = NULL;

		st = make_trace(f, i, f->path, &t, err);
		if (t)
			traces[(*nout)++] = t;
	}
	*out = traces;
	file_unref(f);
	return st;
}

/* Free the driver data of a trace and its streams. */
static void
td_close(struct tv_trace *t)
{
	struct td_trace_priv *tp = t->priv;
	uint32_t i;

	for (i = 0; i < t->nstreams; i++) {
		struct td_stream_priv *sp = t->streams[i]->priv;

		if (sp)
			free(sp->pages);
		free(sp);
		t->streams[i]->priv = NULL;
	}
	if (tp) {
		file_unref(tp->file);
		free(tp->prefix);
		free(tp);
	}
	t->priv = NULL;
}

/*
 * Give a page error a position: the page's file offset, or for compressed
 * data the offset of its chunk (the message says where in the page).
 */
void
td_page_error_pos(const struct td_file *f, const struct td_cpu *cpu,
    uint64_t off, struct tv_error *err)
{
	if (!err)
		return;
	snprintf(err->path, sizeof(err->path), "%s", f->path);
	err->line = 0;
	err->column = 0;
	if (!cpu->chunks) {
		err->offset = cpu->offset + off;
	} else {
		uint32_t i = 0;

		while (i + 1 < cpu->nchunks && cpu->chunks[i + 1].uoff <= off)
			i++;
		err->offset = cpu->nchunks ? cpu->chunks[i].file_off :
		    cpu->offset;
	}
}

/* td_decode_packet, with chunk cache @c taken when the data is compressed
 * (else NULL). */
static enum tv_status
decode_page(struct tv_stream *s, struct td_chunks *c, uint64_t pkt,
    struct tv_packet_events *out)
{
	struct td_trace_priv *tp = s->trace->priv;
	struct td_stream_priv *sp = s->priv;
	struct td_file *f = tp->file;
	const struct tv_packet *p = &s->packets[pkt];
	struct td_page_iter it;
	const uint8_t *pg;
	enum tv_status st;

	pg = td_cpu_bytes(f, c, sp->cpu, p->offset, p->size, &out->err);
	if (!pg) {
		st = out->status = out->err.status;
		return st;
	}
	st = td_page_begin(&it, f, pg, (uint32_t)p->size, &out->err);
	while (st == TV_OK && (st = td_page_next(&it, &out->err)) == TV_OK) {
		struct tv_event_rec *r;
		int64_t ts = td_convert_ts(f, sp->cpu->cpu, it.ts);
		uint64_t bit = ((uint64_t)it.hdr + it.rec_off) * 8;
		uint32_t type = 0;

		if (it.at_start && it.lost != 0) {
			r = tv_packet_events_push(out);
			r->ts = ts;
			r->bit_offset = bit - 1;
			r->kind = TV_REC_DISCARDED;
			r->count = it.lost > 0 ? (uint64_t)it.lost : 0;
		}
		r = tv_packet_events_push(out);
		r->ts = ts;
		r->bit_offset = bit;
		r->kind = TV_REC_EVENT;
		r->count = it.ts;
		if (f->ev_type_size > 0 && (uint32_t)f->ev_type_off +
		    (uint32_t)f->ev_type_size <= it.data_len)
			type = (uint32_t)td_get_u(pg + it.hdr + it.data_off +
			    f->ev_type_off, (unsigned)f->ev_type_size, f->be);
		r->class_index = type < f->nclass_of_id ?
		    f->class_of_id[type] : s->trace->nclasses - 1;
	}
	if (st != TV_OK && sp->cpu->truncated && pkt + 1 == s->npackets) {
		tv_error_clear(&out->err);
		st = out->status = tv_error_at(&out->err, TV_CORRUPT, f->path,
		    sp->cpu->offset + sp->cpu->size, _("the file ends inside "
		    "the data of CPU %u (%llu of %llu bytes)"), sp->cpu->cpu,
		    (unsigned long long)sp->cpu->size,
		    (unsigned long long)sp->cpu->declared);
	} else if (st == TV_END) {
		st = TV_OK;
	} else if (st != TV_OK) {
		out->status = st;
		td_page_error_pos(f, sp->cpu, p->offset, &out->err);
	}
	return st;
}

/*
 * The packet_span op: a page of data that is not compressed lies in the
 * file's own mapping, after its CPU's offset (the streams' files are
 * mapped for their names and changes only); a compressed one is read
 * from a chunk cache, nothing mapped.
 */
static bool
td_packet_span(const struct tv_stream *s, uint64_t pkt,
    const struct tv_mapfile **mf, uint64_t *off, uint64_t *len)
{
	const struct td_trace_priv *tp = s->trace->priv;
	const struct td_stream_priv *sp = s->priv;
	const struct tv_packet *p = &s->packets[pkt];

	*mf = &tp->file->mf;
	*len = p->size;
	return cpu_span(sp->cpu, p->offset, p->size, off);
}

/* Decode the records of one page into @out. */
static enum tv_status
td_decode_packet(struct tv_stream *s, uint64_t pkt,
    struct tv_packet_events *out)
{
	struct td_trace_priv *tp = s->trace->priv;
	struct td_stream_priv *sp = s->priv;
	struct td_chunks *c = NULL;
	enum tv_status st;

	if (sp->cpu->chunks == NULL)
		TD_GUARDED(tp->file, st, &out->err, decode_page(s, NULL, pkt,
		    out));
	else
		TD_CHUNKED(tp->file, c, st, &out->err, decode_page(s, c, pkt,
		    out));
	if (st != TV_OK && out->status == TV_OK)
		out->status = st;
	return st;
}

const struct tv_format_ops tv_tracedat_format = {
	.name		= "tracedat",
	.description	= N_("trace-cmd trace.dat, versions 6 and 7"),
	.plain_clock_style = TV_TIME_SECONDS,
	.time_digits = 6,
	.probe		= td_probe,
	.open		= td_open,
	.close		= td_close,
	.decode_packet	= td_decode_packet,
	.decode_fields	= td_decode_fields,
	.print_record	= td_print_record,
	.print_in_order	= true,
	.print_header	= td_print_header,
	.print_info	= td_print_info,
	.value_note	= td_value_note,
	.packet_copy	= td_packet_copy,
	.packet_span	= td_packet_span,
	.state_rules	= td_state_tables,
	.span_rules	= td_span_rules,
	.symbol		= td_symbol,
};
