/*
 * The state cache file: the background pass's checkpoints and event count
 * under $XDG_CACHE_HOME/tview (default ~/.cache/tview), one file per
 * trace set, named by a hash of its files and keyed inside by every
 * file's path, size and mtime.  A file whose key differs is stale; one
 * whose checksum, bounds or values are wrong is corrupt; either way the
 * caller walks the trace again and rewrites it.  $TVIEW_CACHE=off
 * disables it.
 *
 * Layout (native byte order, the file never leaves the machine):
 *   "TVSTATE1" u32 version u32 sizeof(thread) u32 sizeof(cpu) u32 keylen
 *   key, u64 nevents; per stream u64 npackets and each packet's event
 *   count, per trace u64 nclasses and each class's count (restored into
 *   the model on load, so the list knows "event N of M" at once); a u64
 *   FNV-1a checksum of this head, so that --info reads the counts without
 *   the rest (tv_state_cache_counts()); then u64 nckpts and per checkpoint
 *   u32 stream u64 packet u64 index i64 ts u64 ordinal u32 nwords
 *   u64 words[nwords] (the owner filter) i64 time
 *   u64 nthreads u64 ncpus threads[] cpus[]; and a u64 FNV-1a checksum of
 *   everything before it.
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

#include "tview/dir.h"
#include "tview/i18n.h"
#include "tview/mapfile.h"
#include "tview/util.h"
#include "state-priv.h"

#define CACHE_MAGIC	"TVSTATE1"
#define CACHE_VERSION	9	/* 9: owner names; 8: owner filters;
				   7: counts first;
				   6: exit names */
/* Caps: a cache bigger than this is not ours to read. */
#define CACHE_MAX_BYTES		((size_t)1 << 31)
#define CACHE_MAX_KEY		((size_t)1 << 24)
/* What the state files of every trace may take together, by default. */
#define CACHE_DIR_MAX		((uint64_t)256 << 20)

/* FNV-1a over @n bytes, continuing from @h. */
static uint64_t
cache_fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

#define FNV_INIT	0xcbf29ce484222325ULL

/* The key text: every stream file with size and mtime, in set order. */
static void
cache_key(const struct tv_trace_set *set, struct tv_strbuf *key)
{
	const struct tv_stream *s;
	struct stat sb;
	char *real;
	uint32_t i, j;

	tv_strbuf_adds(key, "tview state cache\n");
	for (i = 0; i < set->nstreams; i++) {
		s = set->streams[i];
		for (j = 0; j < s->nfiles; j++) {
			real = realpath(s->files[j].path, NULL);
			tv_strbuf_adds(key, real != NULL ? real :
			    s->files[j].path);
			free(real);
			if (stat(s->files[j].path, &sb) == 0)
				tv_strbuf_addf(key, "\t%lld\t%lld.%09ld\n",
				    (long long)sb.st_size,
				    (long long)sb.st_mtim.tv_sec,
				    (long)sb.st_mtim.tv_nsec);
			else
				tv_strbuf_adds(key, "\t?\n");
		}
		tv_strbuf_addf(key, "stream %u packets %llu\n", i,
		    (unsigned long long)s->npackets);
	}
}

/* See state-priv.h. */
char *
tv_state_cache_path(const struct tv_trace_set *set)
{
	const char *env = getenv("TVIEW_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	struct tv_strbuf key;
	char *path = NULL;
	uint64_t h;

	if (env != NULL && (strcmp(env, "off") == 0 || strcmp(env, "0") == 0))
		return NULL;
	if (set->nstreams == 0)
		return NULL;
	tv_strbuf_init(&key);
	cache_key(set, &key);
	h = cache_fnv(FNV_INIT, key.buf, key.len);
	tv_strbuf_fini(&key);
	if (xdg != NULL && xdg[0] == '/')
		tv_xasprintf(&path, "%s/tview/state-%016llx", xdg,
		    (unsigned long long)h);
	else if (home != NULL && home[0] == '/')
		tv_xasprintf(&path, "%s/.cache/tview/state-%016llx", home,
		    (unsigned long long)h);
	return path;
}

/* A bounded reader over the loaded file. */
struct cache_rd {
	const uint8_t	*p;
	size_t		 len;
	size_t		 off;
	bool		 bad;
};

/* Copy @n bytes out, or mark the reader bad when they are not there. */
static void
cache_get(struct cache_rd *r, void *out, size_t n)
{
	if (r->bad || n > r->len - r->off) {
		r->bad = true;
		memset(out, 0, n);
		return;
	}
	memcpy(out, r->p + r->off, n);
	r->off += n;
}

/* Whether a snapshot read from disk holds only sane values. */
static bool
cache_snap_ok(struct tv_state_snap *snap)
{
	struct tv_thread *t;
	size_t i;

	for (i = 0; i < snap->nthreads; i++) {
		t = &snap->threads[i];
		if (t->state >= TV_TS_COUNT || t->nmodes > TV_MODE_STACK_MAX)
			return false;
		t->name[TV_THREAD_NAME_MAX - 1] = '\0';
	}
	for (i = 0; i < snap->ncpus; i++)
		if (snap->cpus[i].cpu < 0)
			return false;
	return true;
}

/*
 * Read the per-packet and per-class counts and store them in the model
 * (atomically: the pass may run while the UI reads them); false if the
 * layout does not match @set.
 */
static bool
cache_load_counts(struct cache_rd *r, const struct tv_trace_set *set)
{
	const struct tv_trace *tr;
	struct tv_stream *st;
	uint64_t n, v, i;
	uint32_t k;

	for (k = 0; k < set->nstreams; k++) {
		st = set->streams[k];
		cache_get(r, &n, sizeof(n));
		if (r->bad || n != st->npackets ||
		    n > (r->len - r->off) / sizeof(v))
			return false;
		for (i = 0; i < n; i++) {
			cache_get(r, &v, sizeof(v));
			__atomic_store_n(&st->packets[i].event_count, v,
			    __ATOMIC_RELAXED);
		}
	}
	for (k = 0; k < set->ntraces; k++) {
		tr = set->traces[k];
		cache_get(r, &n, sizeof(n));
		if (r->bad || n != tr->nclasses ||
		    n > (r->len - r->off) / sizeof(v))
			return false;
		for (i = 0; i < n; i++) {
			cache_get(r, &v, sizeof(v));
			__atomic_store_n(&tr->classes[i]->count, v,
			    __ATOMIC_RELAXED);
		}
	}
	return !r->bad;
}

/* Free checkpoints read so far. */
static void
cache_free(struct tv_state_ckpt *ck, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		tv_state_snap_free(ck[i].snap);
		free(ck[i].who.words);
	}
	free(ck);
}

/* See state-priv.h. */
enum tv_status
tv_state_cache_load(const char *path, const struct tv_trace_set *set,
    struct tv_state_ckpt **ckpts, size_t *nckpts, uint64_t *nevents,
    struct tv_state_names *names, struct tv_error *err)
{
	struct tv_state_ckpt *ck = NULL;
	struct cache_rd r = { NULL, 0, 0, false };
	struct tv_strbuf key;
	uint32_t hdr[4];
	uint64_t n, i, nt, nc, sum;
	uint32_t nw;
	char magic[8];
	char *buf = NULL;
	size_t len = 0;
	enum tv_status st;
	struct tv_state_ckpt *c;

	*ckpts = NULL;
	*nckpts = 0;
	if (access(path, R_OK) != 0)
		return TV_NOT_FOUND;
	st = tv_read_file(path, CACHE_MAX_BYTES, &buf, &len, err);
	if (st != TV_OK)
		return st;
	r.p = (const uint8_t *)buf;
	r.len = len;
	if (len < sizeof(magic) + sizeof(sum))
		goto corrupt;
	memcpy(&sum, buf + len - sizeof(sum), sizeof(sum));
	if (cache_fnv(FNV_INIT, buf, len - sizeof(sum)) != sum)
		goto corrupt;
	r.len = len - sizeof(sum);
	cache_get(&r, magic, sizeof(magic));
	cache_get(&r, hdr, sizeof(hdr));
	if (r.bad || memcmp(magic, CACHE_MAGIC, 8) != 0 ||
	    hdr[0] != CACHE_VERSION || hdr[1] != sizeof(struct tv_thread) ||
	    hdr[2] != sizeof(struct tv_state_cpu) || hdr[3] > CACHE_MAX_KEY ||
	    hdr[3] > r.len - r.off)
		goto corrupt;
	tv_strbuf_init(&key);
	cache_key(set, &key);
	if (key.len != hdr[3] || memcmp(key.buf, r.p + r.off, key.len) != 0) {
		tv_strbuf_fini(&key);
		free(buf);
		return TV_NOT_FOUND;		/* stale */
	}
	tv_strbuf_fini(&key);
	r.off += hdr[3];
	cache_get(&r, nevents, sizeof(*nevents));
	if (!cache_load_counts(&r, set))
		goto corrupt;
	cache_get(&r, &sum, sizeof(sum));	/* the head's checksum */
	cache_get(&r, &n, sizeof(n));
	/* each checkpoint takes at least 64 bytes: bound n by the file */
	if (r.bad || n > (r.len - r.off) / 64)
		goto corrupt;
	ck = tv_xcalloc(TV_MAX(n, (uint64_t)1), sizeof(*ck));
	for (i = 0; i < n; i++) {
		c = &ck[i];
		cache_get(&r, &c->stream, sizeof(c->stream));
		cache_get(&r, &c->packet, sizeof(c->packet));
		cache_get(&r, &c->index, sizeof(c->index));
		cache_get(&r, &c->ts, sizeof(c->ts));
		cache_get(&r, &c->ordinal, sizeof(c->ordinal));
		cache_get(&r, &nw, sizeof(nw));
		if (r.bad || nw > (r.len - r.off) / sizeof(uint64_t) ||
		    (nw & (nw - 1)) != 0)
			goto corrupt_ck;
		c->who.nwords = nw;
		c->who.words = nw ? tv_xcalloc(nw, sizeof(uint64_t)) : NULL;
		cache_get(&r, c->who.words, nw * sizeof(uint64_t));
		cache_get(&r, &sum, sizeof(sum));	/* snapshot time */
		cache_get(&r, &nt, sizeof(nt));
		cache_get(&r, &nc, sizeof(nc));
		if (r.bad || c->stream >= set->nstreams ||
		    c->packet >= set->streams[c->stream]->npackets ||
		    nt > (r.len - r.off) / sizeof(struct tv_thread) ||
		    nc > (r.len - r.off) / sizeof(struct tv_state_cpu) ||
		    (i > 0 && c->ts < ck[i - 1].ts))
			goto corrupt_ck;
		c->snap = tv_state_snap_new(nt, nc);
		c->snap->time = (int64_t)sum;
		cache_get(&r, c->snap->threads, nt * sizeof(struct tv_thread));
		cache_get(&r, c->snap->cpus, nc * sizeof(struct tv_state_cpu));
		if (r.bad || !cache_snap_ok(c->snap))
			goto corrupt_ck;
	}
	/* the owners' names: a count, then each as a length and bytes */
	cache_get(&r, &nt, sizeof(nt));
	if (r.bad || nt > (r.len - r.off) / sizeof(uint32_t))
		goto corrupt_ck;
	for (i = 0; i < nt; i++) {
		cache_get(&r, &nw, sizeof(nw));
		if (r.bad || nw == 0 || nw > TV_THREAD_NAME_MAX ||
		    nw > r.len - r.off)
			goto corrupt_ck;
		tv_state_names_add(names, (const char *)r.p + r.off, nw);
		r.off += nw;
	}
	if (r.off != r.len)
		goto corrupt_ck;
	free(buf);
	*ckpts = ck;
	*nckpts = n;
	return TV_OK;

corrupt_ck:
	cache_free(ck, n);	/* calloc'd: what was not read is NULL */
corrupt:
	free(buf);
	return tv_error_at(err, TV_CORRUPT, path, r.off,
	    _("corrupt state cache file"));
}

/* The bytes of the counts section for @set: fixed by its index. */
static uint64_t
cache_counts_bytes(const struct tv_trace_set *set)
{
	uint64_t n = 0;
	uint32_t k;

	for (k = 0; k < set->nstreams; k++)
		n += 8 + 8 * set->streams[k]->npackets;
	for (k = 0; k < set->ntraces; k++)
		n += 8 + 8 * (uint64_t)set->traces[k]->nclasses;
	return n;
}

/* See state-priv.h. */
bool
tv_state_cache_counts(const struct tv_trace_set *set)
{
	struct cache_rd r = { NULL, 0, 0, false };
	struct tv_strbuf key;
	uint32_t hdr[4];
	uint64_t head, sum;
	uint8_t *buf = NULL;
	char magic[8];
	char *path = tv_state_cache_path(set);
	bool ok = false;
	ssize_t got;
	size_t len;
	int fd;

	if (path == NULL)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return false;
	tv_strbuf_init(&key);
	cache_key(set, &key);
	/* Only the head is read: its length follows from @set's index. */
	len = sizeof(magic) + sizeof(hdr) + key.len + sizeof(uint64_t) +
	    cache_counts_bytes(set) + sizeof(head);
	if (len > CACHE_MAX_BYTES)
		goto out;
	buf = tv_xmalloc(len);
	got = pread(fd, buf, len, 0);
	if (got < 0 || (size_t)got != len)
		goto out;
	r.p = buf;
	r.len = len - sizeof(head);
	memcpy(&head, buf + r.len, sizeof(head));
	if (cache_fnv(FNV_INIT, buf, r.len) != head)
		goto out;
	cache_get(&r, magic, sizeof(magic));
	cache_get(&r, hdr, sizeof(hdr));
	if (r.bad || memcmp(magic, CACHE_MAGIC, 8) != 0 ||
	    hdr[0] != CACHE_VERSION || hdr[3] != key.len ||
	    memcmp(key.buf, r.p + r.off, key.len) != 0)
		goto out;
	r.off += key.len;
	cache_get(&r, &sum, sizeof(sum));	/* nevents */
	ok = cache_load_counts(&r, set) && r.off == r.len;
out:
	free(buf);
	tv_strbuf_fini(&key);
	close(fd);
	return ok;
}

/* Write @n bytes to @fp, accumulating the checksum. */
static void
cache_put(FILE *fp, uint64_t *sum, const void *p, size_t n)
{
	*sum = cache_fnv(*sum, p, n);
	fwrite(p, 1, n, fp);
}

/*
 * Keep the cache directory under its size cap ($TVIEW_CACHE_MAX bytes, K,
 * M or G suffix; CACHE_DIR_MAX by default): the least recently written
 * state files go first, the one just written (@path) stays.
 */
static void
cache_prune(const char *path)
{
	const char *env = getenv("TVIEW_CACHE_MAX");
	uint64_t max = CACHE_DIR_MAX;
	const char *slash = strrchr(path, '/');
	char *dir, *end;

	if (env != NULL && env[0] != '\0') {
		unsigned long long v = strtoull(env, &end, 10);

		if (*end == 'K' || *end == 'k')
			v <<= 10, end++;
		else if (*end == 'M' || *end == 'm')
			v <<= 20, end++;
		else if (*end == 'G' || *end == 'g')
			v <<= 30, end++;
		if (*end == '\0' && end != env)
			max = v;
	}
	if (slash == NULL)
		return;
	dir = tv_xstrndup(path, (size_t)(slash - path));
	(void)tv_dir_prune(dir, "state-", max, slash + 1);
	free(dir);
}

/* See state-priv.h. */
enum tv_status
tv_state_cache_save(const char *path, const struct tv_trace_set *set,
    const struct tv_state_ckpt *ckpts, size_t nckpts, uint64_t nevents,
    const struct tv_state_names *names, struct tv_error *err)
{
	const struct tv_state_snap *sn;
	const struct tv_stream *st;
	const struct tv_trace *tr;
	struct tv_strbuf key;
	uint32_t hdr[4], k;
	uint64_t sum = FNV_INIT, v, j;
	const char *slash;
	char *tmp = NULL;
	size_t i;
	FILE *fp;
	int bad;

	/* mkdir -p of the directory part of @path */
	slash = strrchr(path, '/');
	if (slash != NULL && slash != path) {
		char *dir = tv_xstrndup(path, (size_t)(slash - path));

		(void)tv_dir_make(dir, 0700);
		free(dir);
	}
	tv_xasprintf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	fp = fopen(tmp, "wb");
	if (fp == NULL) {
		tv_error_set(err, TV_IO, NULL, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return TV_IO;
	}
	tv_strbuf_init(&key);
	cache_key(set, &key);
	hdr[0] = CACHE_VERSION;
	hdr[1] = sizeof(struct tv_thread);
	hdr[2] = sizeof(struct tv_state_cpu);
	hdr[3] = (uint32_t)key.len;
	cache_put(fp, &sum, CACHE_MAGIC, 8);
	cache_put(fp, &sum, hdr, sizeof(hdr));
	cache_put(fp, &sum, key.buf, key.len);
	tv_strbuf_fini(&key);
	cache_put(fp, &sum, &nevents, sizeof(nevents));
	for (k = 0; k < set->nstreams; k++) {
		st = set->streams[k];
		v = st->npackets;
		cache_put(fp, &sum, &v, sizeof(v));
		for (j = 0; j < st->npackets; j++) {
			v = __atomic_load_n(&st->packets[j].event_count,
			    __ATOMIC_RELAXED);
			cache_put(fp, &sum, &v, sizeof(v));
		}
	}
	for (k = 0; k < set->ntraces; k++) {
		tr = set->traces[k];
		v = tr->nclasses;
		cache_put(fp, &sum, &v, sizeof(v));
		for (j = 0; j < tr->nclasses; j++) {
			v = __atomic_load_n(&tr->classes[j]->count,
			    __ATOMIC_RELAXED);
			cache_put(fp, &sum, &v, sizeof(v));
		}
	}
	v = sum;
	cache_put(fp, &sum, &v, sizeof(v));
	v = nckpts;
	cache_put(fp, &sum, &v, sizeof(v));
	for (i = 0; i < nckpts; i++) {
		sn = ckpts[i].snap;
		cache_put(fp, &sum, &ckpts[i].stream, sizeof(ckpts[i].stream));
		cache_put(fp, &sum, &ckpts[i].packet, sizeof(ckpts[i].packet));
		cache_put(fp, &sum, &ckpts[i].index, sizeof(ckpts[i].index));
		cache_put(fp, &sum, &ckpts[i].ts, sizeof(ckpts[i].ts));
		cache_put(fp, &sum, &ckpts[i].ordinal,
		    sizeof(ckpts[i].ordinal));
		cache_put(fp, &sum, &ckpts[i].who.nwords,
		    sizeof(ckpts[i].who.nwords));
		cache_put(fp, &sum, ckpts[i].who.words,
		    ckpts[i].who.nwords * sizeof(uint64_t));
		cache_put(fp, &sum, &sn->time, sizeof(sn->time));
		v = sn->nthreads;
		cache_put(fp, &sum, &v, sizeof(v));
		v = sn->ncpus;
		cache_put(fp, &sum, &v, sizeof(v));
		cache_put(fp, &sum, sn->threads,
		    sn->nthreads * sizeof(*sn->threads));
		cache_put(fp, &sum, sn->cpus, sn->ncpus * sizeof(*sn->cpus));
	}
	v = names->n;
	cache_put(fp, &sum, &v, sizeof(v));
	for (i = 0; i < names->n; i++) {
		k = (uint32_t)strlen(names->v[i]);
		cache_put(fp, &sum, &k, sizeof(k));
		cache_put(fp, &sum, names->v[i], k);
	}
	fwrite(&sum, 1, sizeof(sum), fp);
	bad = ferror(fp);
	if (fclose(fp) != 0 || bad || rename(tmp, path) != 0) {
		tv_error_set(err, TV_IO, NULL, "%s: %s", tmp, strerror(errno));
		unlink(tmp);
		free(tmp);
		return TV_IO;
	}
	free(tmp);
	cache_prune(path);
	return TV_OK;
}
