/*
 * Read-only file mappings for trace data, and whole-file reads with a cap
 * for small text files such as metadata.
 */
#include "tview/mapfile.h"
#include "tview/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Map @path whole; an empty file gives data NULL and size 0. */
enum tv_status
tv_mapfile_open(struct tv_mapfile *mf, const char *path, struct tv_error *err)
{
	struct stat st;
	void *p;
	int fd;

	mf->path = NULL;
	mf->data = NULL;
	mf->size = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tv_error_at(err, TV_IO, path, TV_NO_OFFSET, "%s",
		    strerror(errno));
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return tv_error_at(err, TV_IO, path, TV_NO_OFFSET, "%s",
		    strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return tv_error_at(err, TV_IO, path, TV_NO_OFFSET,
		    _("not a regular file"));
	}
	if (st.st_size > 0) {
		if ((uint64_t)st.st_size > SIZE_MAX) {
			close(fd);
			errno = EFBIG;
			return tv_error_at(err, TV_IO, path, TV_NO_OFFSET,
			    _("file too large to map"));
		}
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
		    fd, 0);
		if (p == MAP_FAILED) {
			int e = errno;

			close(fd);
			errno = e;
			return tv_error_at(err, TV_IO, path, TV_NO_OFFSET,
			    _("cannot map file: %s"), strerror(e));
		}
		mf->data = p;
		mf->size = (uint64_t)st.st_size;
		tv_map_guard_init();
	}
	mf->dev = st.st_dev;
	mf->ino = st.st_ino;
	close(fd);
	mf->path = tv_xstrdup(path);
	return TV_OK;
}

/* Unmap and forget; safe on a zeroed or already closed mapping. */
void
tv_mapfile_close(struct tv_mapfile *mf)
{
	if (mf->data)
		munmap((void *)mf->data, (size_t)mf->size);
	free(mf->path);
	mf->path = NULL;
	mf->data = NULL;
	mf->size = 0;
}

/* Map @mf's file again when it grew; see mapfile.h. */
enum tv_status
tv_mapfile_grow(struct tv_mapfile *mf, bool *grew, struct tv_error *err)
{
	struct stat st;
	void *p;
	int fd;

	*grew = false;
	if (mf->path == NULL)
		return TV_OK;
	fd = open(mf->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_dev != mf->dev ||
	    st.st_ino != mf->ino || (uint64_t)st.st_size < mf->size) {
		if (fd >= 0)
			close(fd);
		return tv_mapfile_fault(mf, NULL, err);
	}
	if ((uint64_t)st.st_size == mf->size) {
		close(fd);
		return TV_OK;
	}
	if ((uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return tv_error_at(err, TV_IO, mf->path, TV_NO_OFFSET,
		    _("file too large to map"));
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		int e = errno;

		close(fd);
		return tv_error_at(err, TV_IO, mf->path, TV_NO_OFFSET,
		    _("cannot map file: %s"), strerror(e));
	}
	close(fd);
	if (mf->data)
		munmap((void *)mf->data, (size_t)mf->size);
	mf->data = p;
	mf->size = (uint64_t)st.st_size;
	tv_map_guard_init();
	*grew = true;
	return TV_OK;
}

/* Tell the kernel how we will read, for read-ahead. */
void
tv_mapfile_advise(struct tv_mapfile *mf, bool sequential)
{
	if (!mf->data)
		return;
	(void)madvise((void *)mf->data, (size_t)mf->size,
	    sequential ? MADV_SEQUENTIAL : MADV_RANDOM);
}

/*
 * The pages of @mf's mapping that [@off, @off + @len) covers: wholly
 * (@whole) or in part, in [*@b, *@e); false when there are none.
 */
static bool
page_range(const struct tv_mapfile *mf, uint64_t off, uint64_t len,
    bool whole, uint64_t *b, uint64_t *e)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t page = pg > 0 ? (uint64_t)pg : 4096;

	if (!mf->data || off >= mf->size)
		return false;
	*e = len > mf->size - off ? mf->size : off + len;
	*b = whole ? (off + page - 1) / page * page : off / page * page;
	*e = whole ? *e / page * page : (*e + page - 1) / page * page;
	return *e > *b;
}

/* See mapfile.h. */
void
tv_mapfile_populate(const struct tv_mapfile *mf, uint64_t off, uint64_t len)
{
#ifdef MADV_POPULATE_READ
	uint64_t b, e;

	/* a page the file no longer reaches (cut while open) makes the
	   call fail, with no signal: a fault there says what happened */
	if (page_range(mf, off, len, false, &b, &e))
		(void)madvise((void *)(mf->data + b), (size_t)(e - b),
		    MADV_POPULATE_READ);
#else
	(void)mf;
	(void)off;
	(void)len;
#endif
}

/* See mapfile.h. */
void
tv_mapfile_release(const struct tv_mapfile *mf, uint64_t off, uint64_t len)
{
	uint64_t b, e;

	if (page_range(mf, off, len, true, &b, &e))
		(void)madvise((void *)(mf->data + b), (size_t)(e - b),
		    MADV_DONTNEED);
}

/* Release what stretch @w holds; it is then empty. */
static void
stretch_flush(struct tv_map_stretch *w)
{
	if (w->mf != NULL && w->end > w->off)
		tv_mapfile_release(w->mf, w->off, w->end - w->off);
	w->mf = NULL;
	w->off = w->end = 0;
}

/* See mapfile.h. */
void
tv_map_release_flush(struct tv_map_release *r)
{
	unsigned i;

	for (i = 0; i < TV_MAP_RELEASE_WAYS; i++)
		stretch_flush(&r->way[i]);
}

/* See mapfile.h. */
void
tv_map_release_add(struct tv_map_release *r, const struct tv_mapfile *mf,
    uint64_t off, uint64_t len)
{
	uint64_t end = len > UINT64_MAX - off ? UINT64_MAX : off + len;
	struct tv_map_stretch *w = NULL;
	unsigned i;

	for (i = 0; i < TV_MAP_RELEASE_WAYS && w == NULL; i++)
		if (r->way[i].mf == mf)
			w = &r->way[i];
	for (i = 0; i < TV_MAP_RELEASE_WAYS && w == NULL; i++)
		if (r->way[i].mf == NULL)
			w = &r->way[i];
	if (w == NULL) {
		w = &r->way[r->next];
		r->next = (r->next + 1) % TV_MAP_RELEASE_WAYS;
	}
	/* a range at or a little past the stretch joins it (another
	   worker may have the packets between) */
	if (w->mf != mf || end < w->off ||
	    off > w->end + TV_MAP_RELEASE_BATCH)
		stretch_flush(w);
	if (w->mf == NULL) {
		w->mf = mf;
		w->off = off;
		w->end = end;
	} else {
		w->off = TV_MIN(w->off, off);
		w->end = TV_MAX(w->end, end);
	}
	if (w->end - w->off >= TV_MAP_RELEASE_BATCH)
		stretch_flush(w);
}

/* Read all of @path (at most @max bytes) into a NUL-terminated buffer. */
enum tv_status
tv_read_file(const char *path, size_t max, char **out, size_t *len,
    struct tv_error *err)
{
	struct stat st;
	size_t cap, n = 0;
	char *buf;
	int fd;

	*out = NULL;
	if (len)
		*len = 0;
	if (max > SIZE_MAX / 2)
		max = SIZE_MAX / 2;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tv_error_at(err, TV_IO, path, TV_NO_OFFSET, "%s",
		    strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		errno = EISDIR;
		return tv_error_at(err, TV_IO, path, TV_NO_OFFSET, "%s",
		    strerror(EISDIR));
	}
	cap = 4096;
	if (fstat(fd, &st) == 0 && st.st_size > 0 &&
	    (uint64_t)st.st_size < max)
		cap = (size_t)st.st_size + 1;
	if (cap > max && max < SIZE_MAX)
		cap = max + 1;
	buf = tv_xmalloc(cap);
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			if (n >= max)
				break;
			cap = cap > max / 2 ? max + 1 : cap * 2;
			buf = tv_xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - 1 - n);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(buf);
			close(fd);
			errno = e;
			return tv_error_at(err, TV_IO, path, n, "%s",
			    strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n >= max) {
		char probe;
		ssize_t r = read(fd, &probe, 1);

		if (r > 0) {
			free(buf);
			close(fd);
			return tv_error_at(err, TV_UNSUPPORTED, path,
			    TV_NO_OFFSET,
			    _("file larger than the limit of %zu bytes"), max);
		}
	}
	close(fd);
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return TV_OK;
}
