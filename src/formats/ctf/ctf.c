/*
 * The CTF driver: its vtable, the probe, and open: find every trace
 * under a directory (a trace is a directory with a `metadata` file, so an
 * LTTng session yields kernel/ and ust/... traces), read each one's
 * metadata, group its data files into streams (tracefile rotation splits
 * one stream over several files) and index their packets.
 */
#include "tview/tview.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tview/error.h"
#include "tview/live.h"
#include "tview/i18n.h"
#include "tview/time.h"
#include "tview/dir.h"
#include "tview/util.h"
#include "ctf-decode.h"

#define CTF_MAX_WALK_DEPTH	8
#define CTF_MAX_TRACES		4096
#define CTF_MAX_FILES		65536

/* Is @path a directory? */
static bool
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Is @path a directory itself (not a symbolic link to one)? */
static bool
is_real_dir(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Is @path a regular file? Its size in *@size. */
static bool
is_file(const char *path, uint64_t *size)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	if (size)
		*size = (uint64_t)st.st_size;
	return true;
}

/* Does directory @dir hold a `metadata` file? */
static bool
has_metadata(const char *dir)
{
	char *p;
	bool r;

	tv_xasprintf(&p, "%s/metadata", dir);
	r = is_file(p, NULL);
	free(p);
	return r;
}

/* A found trace: its directory and its path relative to the input. */
struct found {
	char	*dir;
	char	*rel;
};

struct found_list {
	struct found	*items;
	size_t		 count;
	size_t		 cap;
};

/*
 * Collect every trace directory under @dir (bounded depth, sorted) into
 * @fl; the directories walked that hold no trace into @others, unless
 * NULL.
 */
static void
walk(const char *dir, const char *rel, int depth, struct found_list *fl,
    struct found_list *others)
{
	char **names;
	size_t n, i;

	if (fl->count >= CTF_MAX_TRACES)
		return;
	if (has_metadata(dir)) {
		TV_VEC_GROW(fl->items, fl->count, fl->cap);
		fl->items[fl->count].dir = tv_xstrdup(dir);
		fl->items[fl->count].rel = tv_xstrdup(rel);
		fl->count++;
		return;
	}
	if (depth >= CTF_MAX_WALK_DEPTH)
		return;
	if (others && others->count < CTF_MAX_TRACES) {
		TV_VEC_GROW(others->items, others->count, others->cap);
		others->items[others->count].dir = tv_xstrdup(dir);
		others->items[others->count].rel = NULL;
		others->count++;
	}
	names = tv_dir_list(dir, true, CTF_MAX_FILES, &n);
	for (i = 0; names && i < n; i++) {
		char *sub, *subrel;

		tv_xasprintf(&sub, "%s/%s", dir, names[i]);
		/* Links are not followed: no cycles, no walking the disk. */
		if (is_real_dir(sub)) {
			if (rel[0])
				tv_xasprintf(&subrel, "%s/%s", rel, names[i]);
			else
				subrel = tv_xstrdup(names[i]);
			walk(sub, subrel, depth + 1, fl, others);
			free(subrel);
		}
		free(sub);
	}
	tv_dir_list_free(names, n);
}

/* Free a found-trace list. */
static void
found_free(struct found_list *fl)
{
	size_t i;

	for (i = 0; i < fl->count; i++) {
		free(fl->items[i].dir);
		free(fl->items[i].rel);
	}
	free(fl->items);
}

/* A directory holding at least one CTF trace (1.8 or 2). */
static enum tv_status
ctf_probe(const char *path, struct tv_error *err)
{
	struct found_list fl = { NULL, 0, 0 };
	enum tv_status st = TV_FORMAT;

	(void)err;
	if (!is_dir(path))
		return TV_FORMAT;
	walk(path, "", 0, &fl, NULL);
	if (fl.count)
		st = TV_OK;
	found_free(&fl);
	return st;
}

/* What the first packet of a data file says about its stream. */
struct file_info {
	char			*path;		/* absolute */
	struct ctf_stream_class	*sc;
	uint64_t		 instance;	/* TV_COUNT_UNKNOWN if none */
	int64_t			 cpu;
	uint64_t		 begin;		/* cycles */
	bool			 used;
};

/*
 * Decode the first packet head of @path.  With TV_OPEN_FOLLOW in @flags,
 * TV_NOT_FOUND without a message when the file is empty or its first
 * packet is not all written yet.
 */
static enum tv_status
file_probe(struct ctf_trace_class *tc, struct file_info *fi, unsigned flags,
    struct tv_error *err)
{
	struct tv_mapfile mf;
	struct ctf_dec d;
	uint64_t *slots, v;
	enum tv_status st;

	st = tv_mapfile_open(&mf, fi->path, err);
	if (st != TV_OK)
		return st;
	if (mf.size == 0) {
		tv_mapfile_close(&mf);
		return TV_NOT_FOUND;
	}
	slots = tv_xcalloc(tc->nslots + 1, sizeof(*slots));
	ctf_dec_init(&d, mf.data, mf.size, 0, mf.path, slots, tc->nslots,
	    err);
	st = ctf_read_packet_head(&d, tc, &mf, 0, &fi->sc, err);
	if (st != TV_OK && (flags & TV_OPEN_FOLLOW) &&
	    ctf_head_pending(&d, mf.size)) {
		tv_error_clear(err);
		st = TV_NOT_FOUND;
	}
	if (st == TV_OK) {
		fi->instance = ctf_dec_role(&d, TV_ROLE_STREAM_INSTANCE_ID,
		    &v) ? v : TV_COUNT_UNKNOWN;
		fi->cpu = ctf_dec_role(&d, TV_ROLE_CPU_ID, &v) &&
		    v < INT32_MAX ? (int64_t)v : TV_CPU_UNKNOWN;
		fi->begin = ctf_dec_role(&d, TV_ROLE_PACKET_BEGIN_TS, &v) ?
		    v : 0;
	}
	free(slots);
	tv_mapfile_close(&mf);
	return st;
}

/* Order of a stream's files: by first packet time, then by name. */
static int
cmp_file_time(const void *a, const void *b)
{
	const struct file_info *x = *(struct file_info *const *)a;
	const struct file_info *y = *(struct file_info *const *)b;

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* Order of streams in a trace: class id, instance id, name. */
static int
cmp_stream(const void *a, const void *b)
{
	const struct tv_stream *x = *(struct tv_stream *const *)a;
	const struct tv_stream *y = *(struct tv_stream *const *)b;

	if (x->class_id != y->class_id)
		return x->class_id < y->class_id ? -1 : 1;
	if (x->instance_id != y->instance_id)
		return x->instance_id < y->instance_id ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Stream class @sc's event lookup by id: O(1) when the ids are small. */
static void
index_by_id(struct tv_trace *t, struct ctf_stream_class *sc)
{
	uint64_t max = 0;
	uint32_t j;

	for (j = 0; j < sc->nevents; j++)
		max = TV_MAX(max, sc->events[j]->id);
	sc->by_id = NULL;
	sc->nby_id = 0;
	if (sc->nevents && max < 65536) {
		sc->nby_id = (uint32_t)max + 1;
		sc->by_id = tv_arena_zalloc(&t->arena,
		    sizeof(*sc->by_id) * sc->nby_id);
		for (j = sc->nevents; j-- > 0;)
			sc->by_id[sc->events[j]->id] = sc->events[j];
	}
}

/* Fill the decoder caches of stream class @sc's field classes. */
static void
prepare_sclass(struct tv_trace *t, struct ctf_stream_class *sc)
{
	ctf_fc_prepare(sc->packet_context, &t->arena);
	ctf_fc_prepare(sc->event_header, &t->arena);
	ctf_fc_prepare(sc->event_context, &t->arena);
	sc->hdr_prog = ctf_hprog_build(sc->event_header, &t->arena);
	sc->ctx_prog = ctf_sprog_build(sc->event_context, &t->arena);
	index_by_id(t, sc);
}

/* Fill the decoder caches of event classes @from.. of @t. */
static void
prepare_events(struct tv_trace *t, const struct ctf_trace_class *tc,
    uint32_t from)
{
	const struct tv_field_class *rest[3], *packet[2], *after[4];
	uint32_t i;

	for (i = from; i < t->nclasses; i++) {
		struct ctf_event_class *ec = t->classes[i]->priv;

		ctf_fc_prepare((struct tv_field_class *)t->classes[i]->context,
		    &t->arena);
		ctf_fc_prepare((struct tv_field_class *)t->classes[i]->payload,
		    &t->arena);
		ec->ctx_prog = ctf_sprog_build(t->classes[i]->context,
		    &t->arena);
		ec->pay_prog = ctf_sprog_build(t->classes[i]->payload,
		    &t->arena);
		rest[0] = ec->sclass ? ec->sclass->event_context : NULL;
		rest[1] = t->classes[i]->context;
		rest[2] = t->classes[i]->payload;
		ec->head_skip = ec->sclass && ctf_head_skippable(
		    ec->sclass->event_header, rest, 3);
		if (ec->sclass) {
			packet[0] = tc->packet_header;
			packet[1] = ec->sclass->packet_context;
			after[0] = ec->sclass->event_header;
			memcpy(after + 1, rest, sizeof(rest));
			ec->packet_skip = ctf_packet_skippable(packet, 2,
			    after, 4);
		}
	}
	/* the walk's tables read the skippers just built */
	for (i = 0; i < tc->nsclasses; i++)
		ctf_quick_build(tc->sclasses[i], &t->arena);
}

/* Fill every field class's decoder cache. */
static void
prepare_classes(struct tv_trace *t, struct ctf_trace_class *tc)
{
	uint32_t i;

	ctf_fc_prepare(tc->packet_header, &t->arena);
	for (i = 0; i < tc->nsclasses; i++)
		prepare_sclass(t, tc->sclasses[i]);
	prepare_events(t, tc, 0);
}

/* The trace name babeltrace2 prints: hostname and relative path. */
static char *
bt_trace_name(const struct tv_trace *t, const char *rel)
{
	const struct tv_env_entry *h = tv_trace_env_get(t, "hostname");
	const char *host = h && h->str ? h->str : "";
	char *name;

	if (host[0] && rel[0])
		tv_xasprintf(&name, "%s/%s", host, rel);
	else
		tv_xasprintf(&name, "%s%s", host, rel);
	return name;
}

/* What babeltrace2 prints before event names: hostname:procname:(vpid). */
static char *
bt_event_prefix(const struct tv_trace *t)
{
	const struct tv_env_entry *e;
	struct tv_strbuf sb;
	bool dom = false;

	tv_strbuf_init(&sb);
	e = tv_trace_env_get(t, "hostname");
	if (e && e->str) {
		tv_strbuf_adds(&sb, e->str);
		dom = true;
	}
	e = tv_trace_env_get(t, "procname");
	if (e && e->str) {
		if (dom)
			tv_strbuf_addc(&sb, ':');
		tv_strbuf_adds(&sb, e->str);
		dom = true;
	}
	e = tv_trace_env_get(t, "vpid");
	if (e && !e->str) {
		if (dom)
			tv_strbuf_addc(&sb, ':');
		tv_strbuf_addf(&sb, "(%lld)", (long long)e->num);
		dom = true;
	}
	if (dom)
		tv_strbuf_addc(&sb, ' ');
	return sb.buf;
}

/* Make a stream of the files of @fis[0..n) (same class and instance). */
static enum tv_status
make_stream(struct tv_trace *t, struct ctf_trace_class *tc,
    struct file_info **fis, size_t n, struct tv_error *err)
{
	struct ctf_stream_priv *sp;
	struct tv_stream *s;
	enum tv_status st;
	size_t i;

	qsort(fis, n, sizeof(*fis), cmp_file_time);
	s = tv_trace_add_stream(t, fis[0]->path);
	sp = tv_xcalloc(1, sizeof(*sp));
	sp->tc = tc;
	sp->sclass = fis[0]->sc;
	s->priv = sp;
	s->class_id = fis[0]->sc->id;
	s->instance_id = fis[0]->instance;
	s->cpu = (int32_t)fis[0]->cpu;
	s->clock = fis[0]->sc->clock;
	for (i = 0; i < n; i++) {
		st = tv_stream_add_file(s, fis[i]->path, NULL, err);
		if (st != TV_OK)
			return st;
	}
	return TV_OK;
}

/*
 * Length of the name of @path without its tracefile-rotation suffix:
 * "chan_3_12" -> "chan_3" (two numeric suffixes: cpu, then rotation
 * count); 0 when the name has no such suffix.
 */
static size_t
rotation_base(const char *path)
{
	const char *name = strrchr(path, '/');
	size_t n, i, k;

	name = name ? name + 1 : path;
	n = strlen(name);
	for (k = 0, i = n; k < 2; k++) {
		size_t digits = 0;

		while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') {
			i--;
			digits++;
		}
		if (!digits || i == 0 || name[i - 1] != '_')
			return 0;
		i--;
		if (k == 0)
			n = i;
	}
	return (size_t)(name - path) + n;
}

/* Do files @a and @b hold parts of one rotated stream (no instance id)? */
static bool
same_rotation(const struct file_info *a, const struct file_info *b)
{
	size_t la = rotation_base(a->path), lb = rotation_base(b->path);

	return la && la == lb && strncmp(a->path, b->path, la) == 0 &&
	    a->sc == b->sc && a->cpu == b->cpu;
}

/* Keep the first error met in @first. */
static void
keep_error(struct tv_error *first, const struct tv_error *e)
{
	if (first->status == TV_OK && e->status != TV_OK)
		*first = *e;
}

/* Is @path one of the files of a stream of @t already? */
static bool
file_known(const struct tv_trace *t, const char *path)
{
	uint32_t i, f;

	for (i = 0; i < t->nstreams; i++)
		for (f = 0; f < t->streams[i]->nfiles; f++)
			if (strcmp(t->streams[i]->files[f].path, path) == 0)
				return true;
	return false;
}

/*
 * Probe the data files of @dir that no stream of @t holds yet into
 * @fis (*@nf of them).  Files not readable yet (TV_OPEN_FOLLOW: empty,
 * first packet cut short) are counted in t->pending_files; without
 * TV_OPEN_FOLLOW an empty file is skipped.  The first error in @first.
 */
static enum tv_status
probe_files(struct tv_trace *t, struct ctf_trace_class *tc, const char *dir,
    unsigned flags, struct file_info **fisp, size_t *nf,
    struct tv_error *first, struct tv_error *err)
{
	struct file_info *fis;
	struct tv_error e;
	char **names;
	size_t n, i;

	*nf = 0;
	*fisp = NULL;
	tv_trace_note_pending(t, NULL, 0);
	names = tv_dir_list(dir, true, CTF_MAX_FILES, &n);
	if (!names)
		return tv_error_at(err, TV_IO, dir, TV_NO_OFFSET,
		    _("cannot list the trace directory"));
	fis = tv_xcalloc(n + 1, sizeof(*fis));
	for (i = 0; i < n; i++) {
		struct file_info *fi = &fis[*nf];
		enum tv_status st;
		uint64_t size;
		char *p;

		if (strcmp(names[i], "metadata") == 0)
			continue;
		tv_xasprintf(&p, "%s/%s", dir, names[i]);
		if (!is_file(p, &size) || (size == 0 &&
		    !(flags & TV_OPEN_FOLLOW)) || file_known(t, p)) {
			free(p);
			continue;
		}
		fi->path = p;
		tv_error_clear(&e);
		st = file_probe(tc, fi, flags, &e);
		if (st != TV_OK) {
			if (st == TV_NOT_FOUND && (flags & TV_OPEN_FOLLOW))
				tv_trace_note_pending(t, p, size);
			else if (st != TV_NOT_FOUND)
				keep_error(first, &e);
			free(p);
			fi->path = NULL;
			continue;
		}
		(*nf)++;
	}
	tv_dir_list_free(names, n);
	*fisp = fis;
	return TV_OK;
}

/*
 * Is @fi the next file of stream @s (tracefile rotation): same class and
 * instance id, or without ids the same name less its rotation suffix?
 */
static bool
file_continues(const struct tv_stream *s, const struct file_info *fi)
{
	const struct ctf_stream_priv *sp = s->priv;
	struct file_info first;

	if (sp == NULL || sp->sclass != fi->sc || s->nfiles == 0)
		return false;
	if (fi->instance != TV_COUNT_UNKNOWN)
		return s->instance_id == fi->instance;
	if (s->instance_id != TV_COUNT_UNKNOWN)
		return false;
	memset(&first, 0, sizeof(first));
	first.path = s->files[0].path;
	first.sc = sp->sclass;
	first.cpu = s->cpu;
	return same_rotation(&first, fi);
}

/*
 * Group files @fis[0..nf) into new streams of @t (by class and instance
 * id; files without an id by their name less its rotation suffix:
 * chan_0_0, chan_0_1, ...) and index them.  Errors in @first.
 */
static void
group_files(struct tv_trace *t, struct ctf_trace_class *tc,
    struct file_info *fis, size_t nf, unsigned flags,
    struct tv_error *first)
{
	struct file_info **grp = tv_xcalloc(nf + 1, sizeof(*grp));
	uint32_t before = t->nstreams, k;
	struct tv_error e;
	size_t i, j, ng;

	for (i = 0; i < nf; i++) {
		if (fis[i].used)
			continue;
		ng = 0;
		grp[ng++] = &fis[i];
		fis[i].used = true;
		for (j = i + 1; j < nf; j++) {
			bool same = fis[i].instance != TV_COUNT_UNKNOWN ?
			    fis[j].sc == fis[i].sc &&
			    fis[j].instance == fis[i].instance :
			    fis[j].instance == TV_COUNT_UNKNOWN &&
			    same_rotation(&fis[i], &fis[j]);

			if (!fis[j].used && same) {
				grp[ng++] = &fis[j];
				fis[j].used = true;
			}
		}
		tv_error_clear(&e);
		if (make_stream(t, tc, grp, ng, &e) != TV_OK)
			keep_error(first, &e);
	}
	for (k = before; k < t->nstreams; k++) {
		tv_error_clear(&e);
		if (ctf_stream_index(t->streams[k], flags, &e) != TV_OK)
			keep_error(first, &e);
	}
	if (t->nstreams > 1)
		qsort(t->streams, t->nstreams, sizeof(*t->streams),
		    cmp_stream);
	free(grp);
}

/* Free what probe_files() returned. */
static void
files_free(struct file_info *fis, size_t nf)
{
	size_t i;

	for (i = 0; i < nf; i++)
		free(fis[i].path);
	free(fis);
}

/* Group the data files of trace @t in @dir into streams and index them. */
static enum tv_status
open_streams(struct tv_trace *t, struct ctf_trace_class *tc,
    const char *dir, unsigned flags, struct tv_error *err)
{
	struct tv_error first;
	struct file_info *fis;
	enum tv_status st;
	size_t nf;

	tv_error_clear(&first);
	st = probe_files(t, tc, dir, flags, &fis, &nf, &first, err);
	if (st != TV_OK)
		return st;
	group_files(t, tc, fis, nf, flags, &first);
	files_free(fis, nf);
	st = first.status;
	if (st != TV_OK && err)
		*err = first;
	return st;
}

/*
 * The live mirror's inactivity beacons (live.h): for each stream, the
 * clock value, in decimal, before which it holds no event, in
 * TRACE/.tview-live/FILE (FILE: the name of the stream's first file;
 * the mirror does not rotate).  Read while following, when the trace
 * has the directory (one open of it per look: a trace that is not a
 * mirror costs nothing more); a beacon absent or unreadable is ignored
 * (it only lets --follow print sooner).
 */
static void
read_beacons(struct tv_trace *t)
{
	char *p, buf[32], *end;
	unsigned long long v;
	uint32_t i;
	ssize_t n;
	int dfd, fd;

	tv_xasprintf(&p, "%s/" TV_LIVE_BEACON_DIR, t->path);
	dfd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(p);
	if (dfd < 0)
		return;
	for (i = 0; i < t->nstreams; i++) {
		struct tv_stream *s = t->streams[i];
		const char *base;

		if (s->nfiles == 0)
			continue;
		base = strrchr(s->files[0].path, '/');
		base = base ? base + 1 : s->files[0].path;
		fd = openat(dfd, base, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		errno = 0;
		v = strtoull(buf, &end, 10);
		if (errno != 0 || end == buf ||
		    (*end != '\0' && *end != '\n') || v > INT64_MAX)
			continue;
		s->quiet = true;
		s->quiet_until = s->clock ? tv_clock_to_ns(s->clock, v) :
		    (int64_t)v;
	}
	close(dfd);
}

/* Build the model of @tc's metadata text into @t (CTF 2 or TSDL). */
static enum tv_status
build_metadata(struct tv_trace *t, struct ctf_trace_class *tc,
    struct tv_error *err)
{
	if (ctf_metadata_is_json(tc->metadata, tc->metadata_len))
		return ctf_ctf2_build(tc->metadata, tc->metadata_len,
		    t->meta_path, t, tc, err);
	return ctf_tsdl_build(tc->metadata, tc->metadata_len, t->meta_path,
	    t, tc, err);
}

/* The stream class of id @id among @n sorted by id, or NULL. */
static struct ctf_stream_class *
sclass_by_id(struct ctf_stream_class **v, uint32_t n, uint64_t id)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (v[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo]->id == id ? v[lo] : NULL;
}

/*
 * Take into @t the model @nt, @ntc built from its grown metadata: the
 * text read before is a prefix of the new one, so the new model holds
 * the old classes in the same order, with the same save slots (the
 * model pass numbers them in text order, streams before events), and
 * more.  The old objects stay (streams, records and every per-class
 * table point to them); what is new is appended: event classes at the
 * end of t->classes, stream classes into the sorted table, clocks.
 * Event classes added to an old stream class are moved onto it and
 * its lookup tables rebuilt.
 */
static enum tv_status
merge_metadata(struct tv_trace *t, struct tv_trace *nt,
    struct ctf_trace_class *ntc, struct tv_error *err)
{
	struct ctf_trace_priv *priv = t->priv;
	struct ctf_trace_class *tc = &priv->tc;
	struct ctf_stream_class **scs;
	struct tv_event_class **classes;
	uint32_t old = t->nclasses, i, j;

	for (i = 0; i < old && i < nt->nclasses; i++)
		if (nt->classes[i]->name != t->classes[i]->name ||
		    nt->classes[i]->id != t->classes[i]->id ||
		    nt->classes[i]->stream_class_id !=
		    t->classes[i]->stream_class_id)
			break;
	for (j = 0; i == old && j < tc->nsclasses; j++)
		if (!sclass_by_id(ntc->sclasses, ntc->nsclasses,
		    tc->sclasses[j]->id))
			break;
	if (i < old || j < tc->nsclasses || nt->nclocks < t->nclocks)
		return tv_error_at(err, TV_SEMANTIC, t->meta_path,
		    tc->packetized ? TV_NO_OFFSET : tc->metadata_len,
		    _("the metadata grew into a different trace class: "
		    "classes read before are gone or changed"));
	scs = tv_arena_zalloc(&t->arena, ((size_t)ntc->nsclasses + 1) *
	    sizeof(*scs));
	for (j = 0; j < ntc->nsclasses; j++) {
		struct ctf_stream_class *n = ntc->sclasses[j];
		struct ctf_stream_class *o = sclass_by_id(tc->sclasses,
		    tc->nsclasses, n->id);
		uint32_t k;

		if (o == NULL) {
			/* all its events are new: the new model's */
			scs[j] = n;
			prepare_sclass(t, n);
			continue;
		}
		scs[j] = o;
		if (n->nevents == o->nevents)
			continue;
		/* the old objects where the new model has copies of them */
		for (k = 0; k < n->nevents; k++)
			if (n->events[k]->index < old)
				n->events[k] = t->classes[n->events[k]->index];
			else
				((struct ctf_event_class *)
				    n->events[k]->priv)->sclass = o;
		o->events = n->events;
		o->nevents = n->nevents;
		index_by_id(t, o);
	}
	classes = tv_arena_zalloc(&t->arena, ((size_t)nt->nclasses + 1) *
	    sizeof(*classes));
	memcpy(classes, t->classes, sizeof(*classes) * old);
	memcpy(classes + old, nt->classes + old,
	    sizeof(*classes) * (nt->nclasses - old));
	tc->sclasses = scs;
	tc->nsclasses = ntc->nsclasses;
	tc->nslots = TV_MAX(tc->nslots, ntc->nslots);
	t->classes = classes;
	t->nclasses = nt->nclasses;
	prepare_events(t, tc, old);
	/* copies of the old clocks first: old pointers stay good */
	if (nt->nclocks > t->nclocks) {
		t->clocks = nt->clocks;
		t->nclocks = nt->nclocks;
	}
	return TV_OK;
}

/*
 * Packets of @t decoded before the metadata declared all their classes
 * are marked damaged, their event count short (ctf-packet.c says "not
 * in the metadata yet"): unmark them, to be decoded and counted again.
 */
static void
forget_unknown(struct tv_trace *t)
{
	uint32_t i;
	uint64_t k;

	for (i = 0; i < t->nstreams; i++) {
		struct tv_stream *s = t->streams[i];

		for (k = 0; k < s->npackets; k++)
			if (s->packets[k].flags & TV_PACKET_CORRUPT) {
				s->packets[k].flags &= ~TV_PACKET_CORRUPT;
				s->packets[k].event_count = TV_COUNT_UNKNOWN;
			}
	}
}

/*
 * While followed, the metadata of @t may grow: LTTng appends the event
 * classes of a tracepoint provider when an application registers it,
 * stream classes and clocks as channels are made.  Read it again when
 * its file is longer than what was read (packetized metadata: whole
 * packets only), check that what was read is a prefix of the new text
 * (metadata is only appended to), build the whole text into a model
 * of its own in @t's arena and intern pool (the bytes of a model per
 * growth: a few per session), and merge what is new (merge_metadata).
 * Event blocks, stream blocks, clocks, type declarations may be added;
 * an environment added later is not read; redefining a class is the
 * model pass's error at its block (path:line:col).  Text that does not
 * build while the writers still write (a block cut in two) is looked
 * at again: *@pending until the file stops changing, then the error.
 */
static enum tv_status
metadata_extend(struct tv_trace *t, unsigned flags, bool *pending,
    bool *grew, struct tv_error *err)
{
	struct ctf_trace_priv *priv = t->priv;
	struct ctf_trace_class *tc = &priv->tc, ntc;
	struct tv_trace nt;
	struct stat sb;
	enum tv_status st;
	size_t i;

	*pending = false;
	if (t->meta_path == NULL || stat(t->meta_path, &sb) != 0 ||
	    (uint64_t)sb.st_size == t->meta_size)
		return TV_OK;
	/* said already: not read again until the file changes */
	if (priv->meta_err.status != TV_OK &&
	    (uint64_t)sb.st_size == priv->meta_failed) {
		if (err)
			*err = priv->meta_err;
		return priv->meta_err.status;
	}
	tv_error_clear(&priv->meta_err);
	memset(&ntc, 0, sizeof(ntc));
	st = ctf_metadata_read(t->path, flags, &ntc, err);
	if (st != TV_OK)
		goto retry;
	for (i = 0; i < tc->metadata_len && i < ntc.metadata_len &&
	    tc->metadata[i] == ntc.metadata[i]; i++)
		continue;
	if (i < tc->metadata_len) {
		if (tc->packetized)
			st = tv_error_at(err, TV_CORRUPT, t->meta_path,
			    TV_NO_OFFSET, _("the metadata text changed at "
			    "its byte %zu while followed: it may only grow"),
			    i);
		else
			st = tv_error_at(err, TV_CORRUPT, t->meta_path, i,
			    _("the metadata changed while followed: it may "
			    "only grow"));
		goto retry;
	}
	if (ntc.metadata_len == tc->metadata_len) {
		/* padding, or a packet not all written yet */
		t->meta_size = ntc.metadata_raw;
		*pending = (uint64_t)sb.st_size > ntc.metadata_raw;
		goto out;
	}
	/*
	 * The new model in a trace of its own (t's intern pool: names
	 * compare by pointer), its arena t's once merged, freed if not.
	 */
	memset(&nt, 0, sizeof(nt));
	nt.ops = t->ops;
	nt.path = t->path;
	nt.meta_path = t->meta_path;
	nt.names = t->names;
	tv_arena_init(&nt.arena);
	st = build_metadata(&nt, &ntc, err);
	if (st == TV_OK)
		st = merge_metadata(t, &nt, &ntc, err);
	if (st == TV_OK)
		tv_arena_adopt(&t->arena, &nt.arena);
	tv_arena_fini(&nt.arena);
	if (st != TV_OK)
		goto retry;
	free(tc->metadata);
	tc->metadata = ntc.metadata;
	tc->metadata_len = ntc.metadata_len;
	ntc.metadata = NULL;
	forget_unknown(t);
	t->meta_size = ntc.metadata_raw;
	priv->meta_failed = 0;
	*grew = true;
	*pending = (uint64_t)sb.st_size > ntc.metadata_raw;
	goto out;
retry:
	if ((flags & TV_OPEN_FOLLOW) && (uint64_t)sb.st_size !=
	    priv->meta_failed) {
		priv->meta_failed = (uint64_t)sb.st_size;
		tv_error_clear(err);
		*pending = true;
		st = TV_OK;
	} else if (err) {
		priv->meta_failed = (uint64_t)sb.st_size;
		priv->meta_err = *err;
	}
out:
	free(ntc.metadata);
	return st;
}

/*
 * The driver's extend (format.h): what the metadata gained, new data
 * files (each the next file of a rotated stream, or new streams), then
 * what every stream's files gained.
 */
static enum tv_status
ctf_extend(struct tv_trace *t, unsigned flags, bool *grew,
    struct tv_error *err)
{
	struct ctf_trace_priv *priv = t->priv;
	uint32_t before = t->nstreams, i;
	struct tv_error first, e;
	struct file_info *fis;
	bool meta_pending;
	enum tv_status st;
	size_t nf, j;

	*grew = false;
	tv_error_clear(&first);
	priv->tc.following = (flags & TV_OPEN_FOLLOW) != 0;
	/* the classes before the data that may use them */
	tv_error_clear(&e);
	if (metadata_extend(t, flags, &meta_pending, grew, &e) != TV_OK)
		keep_error(&first, &e);
	st = probe_files(t, &priv->tc, t->path, flags, &fis, &nf, &first,
	    err);
	if (st != TV_OK)
		return st;
	if (meta_pending)
		t->pending_files++;
	for (j = 0; j < nf; j++)
		for (i = 0; i < t->nstreams && !fis[j].used; i++) {
			if (!file_continues(t->streams[i], &fis[j]))
				continue;
			fis[j].used = true;
			tv_error_clear(&e);
			if (tv_stream_add_file(t->streams[i], fis[j].path,
			    NULL, &e) != TV_OK)
				keep_error(&first, &e);
		}
	for (i = 0; i < t->nstreams; i++) {
		bool g = false;

		tv_error_clear(&e);
		if (ctf_stream_extend(t->streams[i], flags, &g, &e) != TV_OK)
			keep_error(&first, &e);
		*grew |= g;
	}
	if (flags & TV_OPEN_FOLLOW)
		read_beacons(t);
	group_files(t, &priv->tc, fis, nf, flags, &first);
	files_free(fis, nf);
	*grew |= t->nstreams > before;
	st = first.status;
	if (st != TV_OK && err)
		*err = first;
	return st;
}

/* Open the one trace in @dir (@rel: its path relative to the input). */
static enum tv_status
open_trace(const char *dir, const char *rel, unsigned flags,
    struct tv_trace **out, struct tv_error *err)
{
	struct ctf_trace_priv *priv;
	struct tv_trace *t;
	enum tv_status st;
	char *abs;

	*out = NULL;
	abs = realpath(dir, NULL);
	t = tv_trace_create(&tv_ctf_format, abs ? abs : dir);
	free(abs);
	priv = tv_xcalloc(1, sizeof(*priv));
	t->priv = priv;
	st = ctf_metadata_read(t->path, flags, &priv->tc, err);
	if (st != TV_OK)
		goto fail;
	priv->tc.following = (flags & TV_OPEN_FOLLOW) != 0;
	tv_xasprintf(&t->meta_path, "%s/metadata", t->path);
	t->meta_size = priv->tc.metadata_raw;
	st = build_metadata(t, &priv->tc, err);
	if (st != TV_OK)
		goto fail;
	if (!t->version)
		t->version = "CTF 1.8";
	prepare_classes(t, &priv->tc);
	priv->bt_name = bt_trace_name(t, rel);
	priv->bt_prefix = bt_event_prefix(t);
	{
		const struct tv_env_entry *tn = tv_trace_env_get(t,
		    "trace_name");

		if (tn && tn->str && tn->str[0]) {
			free(t->name);
			t->name = tv_xstrdup(tn->str);
		}
	}
	st = open_streams(t, &priv->tc, t->path, flags, err);
	*out = t;
	return st;
fail:
	tv_trace_destroy(t);
	return st;
}

/* Open every trace under @path. */
static enum tv_status
ctf_open(const char *path, unsigned flags, struct tv_trace ***out,
    uint32_t *nout, struct tv_error *err)
{
	struct found_list fl = { NULL, 0, 0 };
	struct tv_error first, e;
	struct tv_trace **traces;
	size_t i;

	*out = NULL;
	*nout = 0;
	tv_error_clear(&first);
	walk(path, "", 0, &fl, NULL);
	if (fl.count == 0) {
		found_free(&fl);
		return tv_error_at(err, TV_FORMAT, path, TV_NO_OFFSET,
		    _("no CTF trace (directory with a metadata file) found"));
	}
	traces = tv_xcalloc(fl.count, sizeof(*traces));
	for (i = 0; i < fl.count; i++) {
		struct tv_trace *t = NULL;

		tv_error_clear(&e);
		if (open_trace(fl.items[i].dir, fl.items[i].rel, flags, &t,
		    &e) !=
		    TV_OK)
			keep_error(&first, &e);
		if (t)
			traces[(*nout)++] = t;
	}
	found_free(&fl);
	*out = traces;
	if (first.status != TV_OK && err)
		*err = first;
	return first.status;
}

/* Is directory @dir (a real path) that of a trace of @set? */
static bool
trace_known(const struct tv_trace_set *set, const char *dir)
{
	uint32_t i;

	for (i = 0; i < set->ntraces; i++)
		if (set->traces[i]->ops == &tv_ctf_format &&
		    strcmp(set->traces[i]->path, dir) == 0)
			return true;
	return false;
}

/*
 * The driver's discover (format.h): the walk of ctf_open again, opening
 * the trace directories @set does not hold.  While following, one that
 * does not open yet (LTTng writes the metadata after making the
 * directory) is pending: looked at again next time, since its events
 * may come before those of the traces already read.
 */
static enum tv_status
ctf_discover(const char *path, unsigned flags, const struct tv_trace_set *set,
    struct tv_discovery *out, struct tv_error *err)
{
	struct found_list fl = { NULL, 0, 0 }, others = { NULL, 0, 0 };
	struct tv_error first, e;
	size_t i;

	tv_error_clear(&first);
	walk(path, "", 0, &fl, &others);
	out->traces = tv_xcalloc(fl.count + 1, sizeof(*out->traces));
	for (i = 0; i < fl.count; i++) {
		struct tv_trace *t = NULL;
		char *abs = realpath(fl.items[i].dir, NULL);
		bool known = trace_known(set, abs ? abs : fl.items[i].dir);

		free(abs);
		if (known)
			continue;
		tv_error_clear(&e);
		if (open_trace(fl.items[i].dir, fl.items[i].rel, flags, &t,
		    &e) != TV_OK) {
			if (t == NULL && (flags & TV_OPEN_FOLLOW)) {
				out->pending++;
				continue;
			}
			keep_error(&first, &e);
		}
		if (t)
			out->traces[out->ntraces++] = t;
	}
	out->dirs = tv_xcalloc(others.count + 1, sizeof(*out->dirs));
	for (i = 0; i < others.count; i++) {
		out->dirs[out->ndirs++] = others.items[i].dir;
		others.items[i].dir = NULL;
	}
	found_free(&fl);
	found_free(&others);
	if (first.status != TV_OK && err)
		*err = first;
	return first.status;
}

/* Free the driver data of a trace and of its streams. */
static void
ctf_close(struct tv_trace *t)
{
	struct ctf_trace_priv *priv = t->priv;
	uint32_t i;

	for (i = 0; i < t->nstreams; i++) {
		struct ctf_stream_priv *sp = t->streams[i]->priv;

		if (sp)
			ctf_print_caches_free(sp->pcache);
		if (sp)
			ctf_print_caches_free(sp->dcache);
		free(sp);
		t->streams[i]->priv = NULL;
	}
	if (priv) {
		free(priv->tc.metadata);
		free(priv->bt_name);
		free(priv->bt_prefix);
		free(priv);
	}
	t->priv = NULL;
}

const struct tv_format_ops tv_ctf_format = {
	.name		= "ctf",
	.description	= N_("Common Trace Format 1.8 and 2 (LTTng, barectf, ...)"),
	.probe		= ctf_probe,
	.open		= ctf_open,
	.close		= ctf_close,
	.extend		= ctf_extend,
	.discover	= ctf_discover,
	.decode_packet	= ctf_decode_packet,
	.walk_reads_fields = true,
	.decode_fields	= ctf_decode_fields,
	.visit_payload	= ctf_visit_payload,
	.flat_plan	= ctf_flat_plan,
	.flat_read	= ctf_flat_read,
	.print_record	= ctf_print_record,
	.state_rules	= ctf_state_tables,
};
