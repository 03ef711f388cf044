/*
 * Where a trace's bookmarks live and how they are saved.
 *
 *   directory trace  DIR/info/bookmarks.xml (the LTT layout)
 *   file trace       FILE.bookmarks.xml next to it
 *   not writable     $XDG_DATA_HOME/tview/ (default ~/.local/share/tview/),
 *                    named after the trace's absolute path
 *
 * A save that fails because the trace's file system is full or read-only
 * (ENOSPC, EDQUOT, EROFS, EACCES, EPERM) is made again there; from then
 * on that copy is where the trace's bookmarks live: an open reads it
 * whenever it exists, even when the trace's directory is writable again.
 *
 * A save takes an exclusive lock on the file's directory, re-reads the
 * file, and when another tview changed it meanwhile replays this set's
 * change log on that version, so neither loses bookmarks.  It then keeps
 * FILE.bak (once: the file as it was before tview first rewrote it, when
 * it is not already in the form tview writes),
 * writes a temporary file in the same directory, fsyncs it, renames it
 * over the file and fsyncs the directory: a crash leaves the old or the
 * new file, never a truncated one.  TVIEW_TEST_SLOW_SAVE=MS (tests only)
 * sleeps between the write and the rename.
 */
#include "tview/tview.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tview/bookmark.h"
#include "tview/dir.h"
#include "tview/error.h"
#include "tview/fdio.h"
#include "tview/i18n.h"
#include "tview/mapfile.h"
#include "tview/util.h"
#include "bookmark-priv.h"

#define BM_NAME_MAX	200	/* bytes of an escaped path used as a name */

/* A TV_IO error about @path from errno @e. */
static enum tv_status
io_error(struct tv_error *err, const char *path, int e, const char *what)
{
	enum tv_status st = tv_error_at(err, TV_IO, path, TV_NO_OFFSET,
	    "%s: %s", what, strerror(e));

	if (err)
		err->sys_errno = e;
	return st;
}

/* The directory part of @path (malloc'ed). */
static char *
dir_of(const char *path)
{
	const char *s = strrchr(path, '/');

	if (!s)
		return tv_xstrdup(".");
	if (s == path)
		return tv_xstrdup("/");
	return tv_xstrndup(path, (size_t)(s - path));
}

/* Can files be created in @dir (or, if missing, in its parent)? */
static bool
dir_writable(const char *dir)
{
	struct stat st;
	char *parent;
	bool ok;

	if (stat(dir, &st) == 0)
		return S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0;
	parent = dir_of(dir);
	ok = access(parent, W_OK | X_OK) == 0;
	free(parent);
	return ok;
}

/* $XDG_DATA_HOME/tview/ESCAPED-ABSOLUTE-PATH.bookmarks.xml (malloc'ed). */
static char *
fallback_path(const char *trace_path)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	char abs[PATH_MAX], *out;
	struct tv_strbuf sb;
	const char *p;
	uint32_t h = 2166136261u;

	if (!realpath(trace_path, abs))
		snprintf(abs, sizeof(abs), "%s", trace_path);
	tv_strbuf_init(&sb);
	for (p = abs; *p; p++) {
		unsigned char c = (unsigned char)*p;

		h = (h ^ c) * 16777619u;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '-' ||
		    c == '_')
			tv_strbuf_addc(&sb, (char)c);
		else
			tv_strbuf_addf(&sb, "%%%02X", c);
	}
	if (sb.len > BM_NAME_MAX) {
		/* keep the end (the trace's name) and make it unique */
		char *tail = tv_xstrdup(sb.buf + sb.len - BM_NAME_MAX + 9);

		tv_strbuf_reset(&sb);
		tv_strbuf_addf(&sb, "%08x-%s", h, tail);
		free(tail);
	}
	if (xdg && xdg[0] == '/')
		tv_xasprintf(&out, "%s/tview/%s.bookmarks.xml", xdg, sb.buf);
	else
		tv_xasprintf(&out, "%s/.local/share/tview/%s.bookmarks.xml",
		    home && home[0] ? home : ".", sb.buf);
	tv_strbuf_fini(&sb);
	return out;
}

/*
 * Read @path into *@buf; *@exists false (TV_OK) when there is no file.
 */
static enum tv_status
read_existing(const char *path, char **buf, size_t *len, bool *exists,
    struct tv_error *err)
{
	*buf = NULL;
	*len = 0;
	*exists = false;
	if (access(path, F_OK) != 0 && errno == ENOENT)
		return TV_OK;
	*exists = true;
	return tv_read_file(path, TV_BM_MAX_FILE + 1, buf, len, err);
}

/* See tview/bookmark.h. */
enum tv_status
tv_bookmarks_open(struct tv_bookmarks **out, const char *trace_path,
    struct tv_error *err)
{
	struct tv_bookmarks *bms = NULL;
	char *primary, *pdir, *fb, *buf = NULL, *from;
	struct stat st;
	enum tv_status st2;
	bool exists = false, fallback;
	size_t len = 0;

	*out = NULL;
	if (stat(trace_path, &st) == 0 && S_ISDIR(st.st_mode))
		tv_xasprintf(&primary, "%s/info/bookmarks.xml", trace_path);
	else
		tv_xasprintf(&primary, "%s.bookmarks.xml", trace_path);
	pdir = dir_of(primary);
	fb = fallback_path(trace_path);
	fallback = !dir_writable(pdir) ||
	    (access(primary, F_OK) == 0 && access(primary, R_OK) != 0) ||
	    access(fb, F_OK) == 0;
	free(pdir);
	/* Read our own copy if there is one, else the trace's. */
	from = fallback && access(fb, F_OK) == 0 ? fb : primary;
	st2 = read_existing(from, &buf, &len, &exists, err);
	if (st2 == TV_OK && len > TV_BM_MAX_FILE)
		st2 = tv_error_at(err, TV_UNSUPPORTED, from, TV_NO_OFFSET,
		    _("bookmark file too large"));
	if (st2 == TV_OK && exists)
		st2 = tv_bookmarks_parse(&bms, from, buf ? buf : "", len, err);
	else if (st2 == TV_OK)
		bms = tv_bookmarks_create();
	if (st2 != TV_OK) {
		free(buf);
		free(primary);
		free(fb);
		return st2;
	}
	bms->fallback = fallback;
	bms->trace_path = tv_xstrdup(trace_path);
	if (fallback) {
		bms->path = fb;
		free(primary);
	} else {
		bms->path = primary;
		free(fb);
	}
	if (from == bms->path) {
		bms->bytes = buf;
		bms->nbytes = len;
		bms->exists = exists;
	} else {
		free(buf);
	}
	*out = bms;
	return TV_OK;
}

/* See tview/bookmark.h. */
const char *
tv_bookmarks_path(const struct tv_bookmarks *bms)
{
	return bms && bms->path ? bms->path : "";
}

/* See tview/bookmark.h. */
bool
tv_bookmarks_fallback(const struct tv_bookmarks *bms)
{
	return bms && bms->fallback;
}

/*
 * Write @buf to @path atomically: temp file in @dirfd's directory @dir,
 * fsync, rename, fsync the directory.
 */
static enum tv_status
write_atomic(const char *dir, int dirfd, const char *path, const char *buf,
    size_t len, struct tv_error *err)
{
	const char *base = strrchr(path, '/');
	char *tmp;
	int fd, e;

	tv_xasprintf(&tmp, "%s/.%s.XXXXXX", dir, base ? base + 1 : path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		free(tmp);
		return io_error(err, path, e, _("cannot create a temporary "
		    "file"));
	}
	(void)fchmod(fd, 0644);
	if (!tv_write_all(fd, buf, len) || fsync(fd) != 0) {
		e = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		return io_error(err, path, e, _("cannot write"));
	}
	if (close(fd) != 0) {
		e = errno;
		unlink(tmp);
		free(tmp);
		return io_error(err, path, e, _("cannot write"));
	}
	/* tests: TVIEW_TEST_SLOW_SAVE=MS holds between write and rename */
	tv_test_hold("TVIEW_TEST_SLOW_SAVE");
	if (rename(tmp, path) != 0) {
		e = errno;
		unlink(tmp);
		free(tmp);
		return io_error(err, path, e, _("cannot replace"));
	}
	free(tmp);
	(void)fsync(dirfd);
	return TV_OK;
}

/*
 * Remove temporary files a killed save left behind.  Only under the
 * directory lock, which every save holds while its own exists.
 */
static void
remove_stale(int dirfd, const char *path)
{
	const char *base = strrchr(path, '/');
	struct dirent *de;
	char *prefix;
	size_t n;
	DIR *d;
	int fd = dup(dirfd);

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	rewinddir(d);
	tv_xasprintf(&prefix, ".%s.", base ? base + 1 : path);
	n = strlen(prefix);
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, prefix, n) == 0 &&
		    strlen(de->d_name) == n + 6)
			(void)unlinkat(dirfd, de->d_name, 0);
	free(prefix);
	closedir(d);
}

/* Save to bms->path: see tv_bookmarks_save(). */
static enum tv_status
save_at(struct tv_bookmarks *bms, struct tv_error *err)
{
	char *dir, *disk = NULL, *out = NULL, *bak;
	bool exists = false;
	enum tv_status st;
	size_t dlen = 0, olen = 0;
	int dirfd;

	dir = dir_of(bms->path);
	if (!tv_dir_make(dir, 0755)) {
		st = io_error(err, dir, errno, _("cannot create the "
		    "directory"));
		free(dir);
		return st;
	}
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 || flock(dirfd, LOCK_EX) != 0) {
		st = io_error(err, dir, errno, _("cannot lock"));
		if (dirfd >= 0)
			close(dirfd);
		free(dir);
		return st;
	}
	remove_stale(dirfd, bms->path);
	st = read_existing(bms->path, &disk, &dlen, &exists, err);
	if (st == TV_OK && (exists != bms->exists || dlen != bms->nbytes ||
	    (dlen && memcmp(disk, bms->bytes, dlen) != 0))) {
		/* Someone else saved meanwhile: their file is the base. */
		void *doc = NULL;

		if (exists)
			st = tv_bm_doc_read(bms->path, disk ? disk : "", dlen,
			    &doc, err);
		else
			doc = tv_bm_doc_new();
		if (st == TV_OK) {
			tv_bm_doc_free(bms->base);
			bms->base = doc;
			tv_bm_rebuild(bms);
		}
	}
	if (st == TV_OK && exists) {
		/*
		 * A file that reads back to the same bytes is one tview (or
		 * libxml2) wrote: a rewrite loses nothing of its form.
		 */
		char *same;
		size_t slen;

		tv_bm_doc_dump(bms->base, &same, &slen);
		tv_xasprintf(&bak, "%s.bak", bms->path);
		if ((slen != dlen || memcmp(same, disk, dlen) != 0) &&
		    access(bak, F_OK) != 0)
			st = write_atomic(dir, dirfd, bak, disk, dlen, err);
		free(bak);
		free(same);
	}
	if (st == TV_OK) {
		tv_bookmarks_serialize(bms, &out, &olen);
		st = write_atomic(dir, dirfd, bms->path, out, olen, err);
	}
	if (st == TV_OK) {
		free(bms->bytes);
		bms->bytes = out;
		bms->nbytes = olen;
		bms->exists = true;
		out = NULL;
		tv_bm_doc_free(bms->base);
		bms->base = tv_bm_doc_copy(bms->doc);
		tv_bm_ops_clear(bms);
		tv_bm_rebuild(bms);
	}
	flock(dirfd, LOCK_UN);
	close(dirfd);
	free(out);
	free(disk);
	free(dir);
	return st;
}

/* Would the fallback directory help after a failure with errno @e? */
static bool
full_or_read_only(int e)
{
	return e == ENOSPC || e == EDQUOT || e == EROFS || e == EACCES ||
	    e == EPERM;
}

/* See tview/bookmark.h. */
enum tv_status
tv_bookmarks_save(struct tv_bookmarks *bms, struct tv_error *err)
{
	struct tv_error e;
	enum tv_status st;

	if (!tv_bookmarks_dirty(bms))
		return TV_OK;
	tv_error_clear(&e);
	st = save_at(bms, &e);
	if (st == TV_IO && !bms->fallback && bms->trace_path &&
	    full_or_read_only(e.sys_errno)) {
		/*
		 * The base stays the trace's file as read: the new copy
		 * holds its bookmarks and this set's changes.
		 */
		free(bms->path);
		bms->path = fallback_path(bms->trace_path);
		bms->fallback = true;
		free(bms->bytes);
		bms->bytes = NULL;
		bms->nbytes = 0;
		bms->exists = false;
		tv_error_clear(&e);
		st = save_at(bms, &e);
	}
	if (err)
		*err = e;
	return st;
}
