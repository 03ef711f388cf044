/*
 * The in-memory trace tree of the fuzz targets, and the walk of an opened
 * trace set.
 *
 * Why a tree of symbolic links to memfds: the CTF and LTT drivers open a
 * directory (they list it, stat its entries, map its files), trace.dat and
 * the XML readers take a path.  Giving them an in-memory open without a
 * second code path in every driver means giving them paths whose bytes
 * are in memory.  So each target makes, once per process, a directory
 * (in $TMPDIR or on tmpfs, see tree_parent) whose entries are symbolic
 * links to /proc/self/fd/N, N a memfd (memfd_create: an anonymous file
 * in RAM).  Per input only the memfds are rewritten (ftruncate +
 * pwrite, no disk) and the links of the files the input does not hold
 * are removed, so what the driver sees is exactly the input: a run is
 * reproducible from the input alone.  The drivers run unchanged: stat
 * follows the links to regular files, mmap maps the memfd, realpath of
 * a link into /proc/self/fd fails and the drivers keep the path they
 * were given.  A temporary directory written
 * per input would cost file creation and page-cache writes on every
 * execution; a mapping hook in src/util would be global mutable state
 * there and would miss the drivers' own stat calls.
 */
#define _GNU_SOURCE
#include "fz.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tview/tview.h"
#include "tview/format.h"
#include "tview/merge.h"
#include "tview/trace.h"
#include "tview/util.h"

/* Records walked per direction: enough for every seed, bounded for time. */
#define FZ_MAX_RECORDS	20000u
#define FZ_MAX_FILES	32u

struct fz_entry {
	char	*rel;		/* path in the tree, e.g. "index/a.idx" */
	char	*path;		/* full path of the link */
	char	*dir;		/* full path of its directory, or NULL */
	int	 fd;		/* the memfd */
	bool	 linked;
	bool	 present;	/* in the current input */
};

struct fz_tree {
	char		*root;
	struct fz_entry	 e[FZ_MAX_FILES];
	size_t		 n;
};

static struct fz_tree *cleanup_tree;

/* Give up: the harness itself cannot work. */
static void
die(const char *what)
{
	fprintf(stderr, "fuzz harness: %s: %s\n", what, strerror(errno));
	abort();
}

/* Remove the tree at exit, so runs leave nothing behind. */
static void
tree_cleanup(void)
{
	struct fz_tree *t = cleanup_tree;
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		if (t->e[i].linked)
			unlink(t->e[i].path);
	for (i = 0; i < t->n; i++)
		if (t->e[i].dir)
			rmdir(t->e[i].dir);
	rmdir(t->root);
}

/*
 * Where the tree goes: $TMPDIR when set, else /dev/shm (tmpfs) when
 * writable, else /tmp.  The links come and go with the files an input
 * holds; on a disk file system (ext4 /tmp here) each symlink is a new
 * journalled inode, 5% of fuzz-ltt's time in perf.
 */
static const char *
tree_parent(void)
{
	const char *tmp = getenv("TMPDIR");

	if (tmp && *tmp)
		return tmp;
	if (access("/dev/shm", W_OK | X_OK) == 0)
		return "/dev/shm";
	return "/tmp";
}

struct fz_tree *
fz_tree_new(const char *const *names)
{
	struct fz_tree *t;
	size_t i;

	t = calloc(1, sizeof(*t));
	if (!t)
		die("calloc");
	if (asprintf(&t->root, "%s/tview-fuzz-XXXXXX", tree_parent()) < 0 ||
	    !mkdtemp(t->root))
		die("mkdtemp");
	for (i = 0; names[i] && i < FZ_MAX_FILES; i++) {
		struct fz_entry *e = &t->e[i];
		const char *slash = strchr(names[i], '/');

		e->rel = strdup(names[i]);
		if (!e->rel || asprintf(&e->path, "%s/%s", t->root,
		    names[i]) < 0)
			die("strdup");
		if (slash && asprintf(&e->dir, "%s/%.*s", t->root,
		    (int)(slash - names[i]), names[i]) < 0)
			die("asprintf");
		e->fd = memfd_create("tview-fuzz", MFD_CLOEXEC);
		if (e->fd < 0)
			die("memfd_create");
	}
	t->n = i;
	cleanup_tree = t;
	atexit(tree_cleanup);
	return t;
}

const char *
fz_tree_path(const struct fz_tree *t, size_t i)
{
	return t->e[i].path;
}

/* Make entry @e hold @n bytes of @p. */
static void
entry_set(struct fz_entry *e, const uint8_t *p, size_t n)
{
	size_t off = 0;

	if (ftruncate(e->fd, 0) < 0)
		die("ftruncate");
	while (off < n) {
		ssize_t r = pwrite(e->fd, p + off, n - off, (off_t)off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			die("pwrite");
		}
		off += (size_t)r;
	}
	e->present = true;
}

/* Entry named @name (@len bytes), or NULL. */
static struct fz_entry *
entry_find(struct fz_tree *t, const uint8_t *name, size_t len)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strlen(t->e[i].rel) == len &&
		    memcmp(t->e[i].rel, name, len) == 0)
			return &t->e[i];
	return NULL;
}

/* Is directory @dir needed by a present entry? */
static bool
dir_needed(const struct fz_tree *t, const char *dir)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->e[i].present && t->e[i].dir &&
		    strcmp(t->e[i].dir, dir) == 0)
			return true;
	return false;
}

const char *
fz_tree_fill(struct fz_tree *t, const uint8_t *data, size_t size)
{
	const uint8_t *mark, *end = data + size;
	char target[64];
	size_t i;

	for (i = 0; i < t->n; i++)
		t->e[i].present = false;
	mark = memmem(data, size, FZ_MARK, FZ_MARK_LEN);
	if (!mark || mark > data)
		entry_set(&t->e[0], data, (size_t)((mark ? mark : end) - data));
	while (mark) {
		const uint8_t *name = mark + FZ_MARK_LEN, *nl, *body, *next;
		struct fz_entry *e;

		nl = memchr(name, '\n', (size_t)(end - name));
		if (!nl)
			break;
		body = nl + 1;
		next = memmem(body, (size_t)(end - body), FZ_MARK,
		    FZ_MARK_LEN);
		e = entry_find(t, name, (size_t)(nl - name));
		if (e)
			entry_set(e, body, (size_t)((next ? next : end) - body));
		mark = next;
	}
	/* Links first removed, then directories, then what is needed. */
	for (i = 0; i < t->n; i++) {
		struct fz_entry *e = &t->e[i];

		if (e->linked && !e->present) {
			if (unlink(e->path) < 0)
				die("unlink");
			e->linked = false;
		}
	}
	for (i = 0; i < t->n; i++) {
		struct fz_entry *e = &t->e[i];
		struct stat st;
		bool exists = e->dir && stat(e->dir, &st) == 0;

		if (!e->dir)
			continue;
		if (dir_needed(t, e->dir) && !exists &&
		    mkdir(e->dir, 0700) < 0)
			die("mkdir");
		if (!dir_needed(t, e->dir) && exists && rmdir(e->dir) < 0)
			die("rmdir");
	}
	for (i = 0; i < t->n; i++) {
		struct fz_entry *e = &t->e[i];

		if (!e->present || e->linked)
			continue;
		snprintf(target, sizeof(target), "/proc/self/fd/%d", e->fd);
		if (symlink(target, e->path) < 0)
			die("symlink");
		e->linked = true;
	}
	return t->root;
}

char *
fz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		die("malloc");
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Decode and print one record, as the fields pane and --dump do. */
static void
use_record(const struct tv_event *ev, struct tv_arena *a,
    struct tv_strbuf *sb)
{
	const struct tv_format_ops *ops = ev->stream->trace->ops;
	struct tv_event_fields f;
	struct tv_error err;

	tv_error_clear(&err);
	tv_arena_reset(a);
	if (ev->rec.kind == TV_REC_EVENT)
		(void)tv_event_decode(ev, a, &f, &err);
	tv_arena_reset(a);
	tv_strbuf_reset(sb);
	tv_error_clear(&err);
	(void)ops->print_record(ev, a, sb, &err);
}

/* Walk @m with @step until the end or FZ_MAX_RECORDS; returns the count. */
static uint32_t
walk(struct tv_merge *m, enum tv_status (*step)(struct tv_merge *,
    struct tv_event *), struct tv_arena *a, struct tv_strbuf *sb,
    uint32_t max)
{
	struct tv_event ev;
	uint32_t n = 0;

	while (n < max && step(m, &ev) == TV_OK) {
		use_record(&ev, a, sb);
		n++;
	}
	return n;
}

void
fz_walk_paths(const char *const *paths, size_t npaths)
{
	struct tv_trace_set *set = NULL;
	struct tv_merge *m;
	struct tv_strbuf sb;
	struct tv_arena a;
	struct tv_error err;
	uint32_t i;

	tv_error_clear(&err);
	(void)tv_trace_set_open(&set, paths, npaths, tv_format_registry(),
	    &err);
	if (!set)
		return;
	tv_strbuf_init(&sb);
	tv_arena_init(&a);
	for (i = 0; i < set->ntraces; i++) {
		const struct tv_trace *t = set->traces[i];

		tv_strbuf_reset(&sb);
		tv_error_clear(&err);
		if (t->ops->print_header)
			(void)t->ops->print_header(t, &sb, &err);
	}
	m = tv_merge_create(set);
	tv_merge_seek_begin(m);
	(void)walk(m, tv_merge_next, &a, &sb, FZ_MAX_RECORDS);
	tv_merge_seek_end(m);
	(void)walk(m, tv_merge_prev, &a, &sb, FZ_MAX_RECORDS);
	if (set->ts_begin < set->ts_end) {
		/* unsigned: the span of a hostile trace may not fit */
		tv_merge_seek_time(m, set->ts_begin + (int64_t)(((uint64_t)
		    set->ts_end - (uint64_t)set->ts_begin) / 2));
		(void)walk(m, tv_merge_next, &a, &sb, 4);
		(void)walk(m, tv_merge_prev, &a, &sb, 8);
	}
	tv_merge_destroy(m);
	tv_arena_fini(&a);
	tv_strbuf_fini(&sb);
	tv_trace_set_close(set);
}

void
fz_walk_tree(struct fz_tree **tree, const char *const *names,
    const uint8_t *data, size_t size)
{
	const char *dir;

	if (!*tree)
		*tree = fz_tree_new(names);
	dir = fz_tree_fill(*tree, data, size);
	fz_walk_paths(&dir, 1);
}
