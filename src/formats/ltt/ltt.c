/*
 * The LTT driver family: its vtable, the probe (a directory whose
 * tracefiles start with a sub-buffer header carrying the 0x00D6B7ED
 * magic, in either byte order) and open: one stream per tracefile
 * <channel>_<cpu>, the version of the first header choosing the
 * per-version ops, the trace clock parameters from metadata_0, then the
 * packet index and the event types.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/dir.h"
#include "tview/util.h"
#include "ltt-priv.h"
#include "ltt-xml.h"

#define LTT_MAX_FILES		4096
#define LTT_PROBE_FILES		64
#define HEAD_BYTES		0x18

/* Read the first @n bytes of @path into @buf; false if it is shorter. */
static bool
read_head(const char *path, uint8_t *buf, size_t n)
{
	struct stat st;
	FILE *fp;
	bool ok;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	fp = fopen(path, "rb");
	if (!fp)
		return false;
	ok = fread(buf, 1, n, fp) == n;
	fclose(fp);
	return ok;
}

/* See ltt-priv.h. */
bool
ltt_path_is(const char *dir, const char *name, unsigned type)
{
	struct stat st;
	char *p;
	bool r;

	tv_xasprintf(&p, "%s/%s", dir, name);
	r = stat(p, &st) == 0 && (st.st_mode & S_IFMT) == type;
	free(p);
	return r;
}

/* Does @buf (a file's first bytes) start with an LTT sub-buffer header? */
static bool
has_magic(const uint8_t *buf)
{
	uint32_t m;

	memcpy(&m, buf + 0x10, sizeof(m));
	return m == LTT_MAGIC || m == LTT_MAGIC_REV;
}

/*
 * Split tracefile name @name into channel and CPU as LTTV does
 * ("<channel>_<cpu>", an optional "flight-" prefix); false if it is not
 * one.
 */
static bool
split_name(const char *name, char *chan, size_t chan_size, uint32_t *cpu)
{
	const char *us = strrchr(name, '_');
	char *endp;
	unsigned long v;
	size_t len;

	if (!us || us == name || !us[1] || us[1] < '0' || us[1] > '9')
		return false;
	v = strtoul(us + 1, &endp, 10);
	if (*endp || v > 65535)
		return false;
	if (strncmp(name, "flight-", 7) == 0 && us - name > 7)
		name += 7;
	len = (size_t)(us - name);
	if (len + 1 > chan_size)
		return false;
	memcpy(chan, name, len);
	chan[len] = '\0';
	*cpu = (uint32_t)v;
	return true;
}

/* Is @path a directory of LTT tracefiles? */
static enum tv_status
ltt_probe(const char *path, struct tv_error *err)
{
	struct stat st;
	char **names;
	size_t n, i, seen = 0;
	bool found = false;

	(void)err;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return TV_FORMAT;
	/* The XML-described versions: see ltt-xml.h. */
	if (ltt_newfmt_probe(path) || ltt_fac_probe(path))
		return TV_OK;
	names = tv_dir_list(path, true, LTT_MAX_FILES, &n);
	if (!names)
		return TV_FORMAT;
	for (i = 0; i < n && !found && seen < LTT_PROBE_FILES; i++) {
		uint8_t head[HEAD_BYTES];
		char chan[256], *p;
		uint32_t cpu;

		if (!split_name(names[i], chan, sizeof(chan), &cpu))
			continue;
		seen++;
		tv_xasprintf(&p, "%s/%s", path, names[i]);
		found = read_head(p, head, sizeof(head)) && has_magic(head);
		free(p);
	}
	tv_dir_list_free(names, n);
	return found ? TV_OK : TV_FORMAT;
}

/*
 * Order streams as LTTV orders tracefiles, which decides between events of
 * equal time: channels in the order the directory lists them first (LTTV
 * creates its tracefile groups while reading the directory), then CPUs.
 */
static int
cmp_stream(const void *a, const void *b)
{
	const struct tv_stream *x = *(const struct tv_stream *const *)a;
	const struct tv_stream *y = *(const struct tv_stream *const *)b;
	uint32_t cx = ((const struct ltt_stream_priv *)x->priv)->channel;
	uint32_t cy = ((const struct ltt_stream_priv *)y->priv)->channel;

	if (cx != cy)
		return cx < cy ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* Add the tracefile @name of @dir as a stream of @t. */
static enum tv_status
add_tracefile(struct tv_trace *t, const char *dir, const char *name,
    const char *chan, uint32_t cpu, struct tv_error *err)
{
	struct ltt_stream_priv *sp;
	struct tv_stream *s;
	enum tv_status st;
	uint32_t chi;
	char *p;

	chi = ltt_channel_get(t, chan);
	if (chi == UINT32_MAX)
		return tv_error_at(err, TV_UNSUPPORTED, dir, TV_NO_OFFSET,
		    _("too many channels"));
	s = tv_trace_add_stream(t, name);
	sp = tv_xcalloc(1, sizeof(*sp));
	sp->channel = chi;
	s->priv = sp;
	s->class_id = chi;
	s->cpu = (int32_t)cpu;
	tv_xasprintf(&p, "%s/%s", dir, name);
	st = tv_stream_add_file(s, p, NULL, err);
	free(p);
	return st;
}

/* Set the version, byte order and clock of @t from metadata_0. */
static enum tv_status
read_trace_header(struct tv_trace *t, struct tv_error *err)
{
	struct ltt_trace_priv *tp = t->priv;
	const struct tv_stream *first = NULL;
	const struct tv_mapfile *mf;
	struct ltt_block b;
	enum tv_status st;
	uint32_t i;

	for (i = 0; i < t->nstreams; i++) {
		const struct ltt_stream_priv *sp = t->streams[i]->priv;

		if (tp->channels[sp->channel].is_metadata &&
		    (!first || t->streams[i]->cpu < first->cpu))
			first = t->streams[i];
	}
	if (!first)
		return tv_error_at(err, TV_CORRUPT, t->path, TV_NO_OFFSET,
		    _("no metadata tracefile (metadata_0) in the trace"));
	mf = &first->files[0];
	st = ltt_read_first(mf->data, mf->size, mf->path, &tp->swap, &tp->ops,
	    &b, err);
	if (st != TV_OK)
		return st;
	tp->bo = (tp->swap == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)) ?
	    TV_BO_BE : TV_BO_LE;
	tp->major = b.major;
	tp->minor = b.minor;
	tp->arch_size = b.arch_size;
	tp->alignment = b.alignment;
	tp->start_freq = b.start_freq;
	tp->freq_scale = b.freq_scale;
	tp->start_tsc = b.cycles_begin;
	if (tp->start_freq == 0 || tp->freq_scale == 0)
		return tv_error_at(err, TV_CORRUPT, mf->path, 0x28,
		    _("zero clock frequency in the sub-buffer header"));
	{
		double d = (double)tp->start_tsc * 1000000000.0 *
		    tp->freq_scale / (double)tp->start_freq;

		tp->start_time_from_tsc = d < 9.0e18 ? (uint64_t)d :
		    (uint64_t)9.0e18;
	}
	return TV_OK;
}

/* Fill the trace clock and environment from the header values. */
static void
describe(struct tv_trace *t)
{
	struct ltt_trace_priv *tp = t->priv;
	struct tv_clock *clk;
	struct tv_env_entry *env;
	char buf[32];
	uint32_t i;

	clk = tv_arena_zalloc(&t->arena, sizeof(*clk));
	clk->name = tv_intern(t->names, "tsc", 3);
	clk->freq = tp->start_freq / tp->freq_scale;
	if (clk->freq == 0)
		clk->freq = 1;
	clk->absolute = false;
	tv_clock_finish(clk);
	t->clocks = clk;
	t->nclocks = 1;
	for (i = 0; i < t->nstreams; i++)
		t->streams[i]->clock = clk;
	env = tv_arena_zalloc(&t->arena, sizeof(*env) * 4);
	snprintf(buf, sizeof(buf), "%u.%u", (unsigned)tp->major,
	    (unsigned)tp->minor);
	env[0].key = "ltt_format";
	env[0].str = tv_arena_strdup(&t->arena, buf);
	env[1].key = "arch_size";
	env[1].num = tp->arch_size;
	env[2].key = "alignment";
	env[2].num = tp->alignment;
	env[3].key = "byte_order";
	env[3].str = tp->bo == TV_BO_LE ? "le" : "be";
	t->env = env;
	t->nenv = 4;
}

/* Open the LTT trace in directory @path. */
static enum tv_status
ltt_open(const char *path, unsigned flags,
    struct tv_trace ***out, uint32_t *nout,
    struct tv_error *err)
{
	struct tv_trace *t;
	struct tv_trace **traces;
	struct tv_error damage, e;
	enum tv_status st = TV_OK;
	char **names;
	char *abs;
	size_t n, i;

	*out = NULL;
	*nout = 0;
	/* The XML-described versions: see ltt-xml.h. */
	if (ltt_newfmt_probe(path))
		return ltt_newfmt_open(path, flags, out, nout, err);
	if (ltt_fac_probe(path))
		return ltt_fac_open(path, flags, out, nout, err);
	names = tv_dir_list(path, false, LTT_MAX_FILES, &n);
	if (!names)
		return tv_error_at(err, TV_IO, path, TV_NO_OFFSET,
		    _("cannot list the trace directory"));
	abs = realpath(path, NULL);
	t = tv_trace_create(&tv_ltt_format, abs ? abs : path);
	free(abs);
	t->priv = tv_xcalloc(1, sizeof(struct ltt_trace_priv));
	for (i = 0; i < n && st == TV_OK; i++) {
		char chan[256];
		uint32_t cpu;

		if (!split_name(names[i], chan, sizeof(chan), &cpu) ||
		    !ltt_path_is(t->path, names[i], S_IFREG))
			continue;
		st = add_tracefile(t, t->path, names[i], chan, cpu, err);
	}
	tv_dir_list_free(names, n);
	if (st == TV_OK)
		st = read_trace_header(t, err);
	if (st != TV_OK) {
		tv_trace_destroy(t);
		return st;
	}
	qsort(t->streams, t->nstreams, sizeof(*t->streams), cmp_stream);
	describe(t);
	/*
	 * A damaged tracefile keeps its sub-buffers before the damage and
	 * the others are whole: the trace opens, with the first damage as
	 * its error.
	 */
	tv_error_clear(&damage);
	for (i = 0; i < t->nstreams; i++) {
		tv_error_clear(&e);
		if (ltt_stream_index(t->streams[i], &e) != TV_OK &&
		    damage.status == TV_OK)
			damage = e;
	}
	st = ltt_load_markers(t, err);
	if (st != TV_OK) {
		tv_trace_destroy(t);
		return st;
	}
	ltt_load_symbols(t);
	traces = tv_xcalloc(1, sizeof(*traces));
	traces[0] = t;
	*out = traces;
	*nout = 1;
	if (damage.status != TV_OK && err)
		*err = damage;
	return damage.status;
}

/* Free the driver data of a trace and of its streams. */
static void
ltt_close(struct tv_trace *t)
{
	struct ltt_trace_priv *tp = t->priv;
	uint32_t i;

	for (i = 0; i < t->nstreams; i++) {
		free(t->streams[i]->priv);
		t->streams[i]->priv = NULL;
	}
	if (tp) {
		for (i = 0; i < tp->nchannels; i++)
			free(tp->channels[i].by_id);
		free(tp->channels);
		if (tp->syscalls)
			free(tp->syscalls->defs);
		if (tp->softirqs)
			free(tp->softirqs->defs);
		free(tp->syscalls);
		free(tp->softirqs);
		ltt_lttv_destroy(tp->lttv);
		free(tp);
	}
	t->priv = NULL;
}

const struct tv_format_ops tv_ltt_format = {
	.name		= "ltt",
	.description	= N_("Linux Trace Toolkit / LTTng 0.x (LTTV formats)"),
	.probe		= ltt_probe,
	.open		= ltt_open,
	.close		= ltt_close,
	.decode_packet	= ltt_decode_packet,
	.decode_fields	= ltt_decode_fields,
	.print_record	= ltt_print_record,
	.print_record_state = ltt_print_record_state,
	.print_footer	= ltt_print_footer,
	.print_header	= ltt_print_header,
	.state_rules	= ltt_state_tables,
	.state_hook	= ltt_state_hook,
};
