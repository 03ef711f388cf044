/*
 * Directory listing shared by the trace drivers: scandir() with the hidden
 * entries dropped and the count capped; and pruning a cache directory by
 * size, oldest files first; mkdir -p and the per-user state directory.
 */
#include "tview/tview.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tview/dir.h"
#include "tview/util.h"

/* See dir.h. */
char **
tv_dir_list(const char *dir, bool sorted, size_t max, size_t *n)
{
	struct dirent **ents = NULL;
	char **names;
	size_t k = 0;
	int i, cnt;

	*n = 0;
	cnt = scandir(dir, &ents, NULL, sorted ? alphasort : NULL);
	if (cnt < 0)
		return NULL;
	names = tv_xcalloc((size_t)cnt + 1, sizeof(*names));
	for (i = 0; i < cnt; i++) {
		if (ents[i]->d_name[0] != '.' && k < max)
			names[k++] = tv_xstrdup(ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	*n = k;
	return names;
}

/* See dir.h. */
void
tv_dir_list_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Most files looked at by one prune: a cache holds far fewer. */
#define PRUNE_MAX_FILES	65536

/* One candidate of a prune. */
struct prune_file {
	char		*path;
	uint64_t	 size;
	int64_t		 mtime_ns;
};

/* Oldest first; the name breaks ties, so the order is total. */
static int
prune_cmp(const void *pa, const void *pb)
{
	const struct prune_file *a = pa, *b = pb;

	if (a->mtime_ns != b->mtime_ns)
		return a->mtime_ns < b->mtime_ns ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* See dir.h. */
size_t
tv_dir_prune(const char *dir, const char *prefix, uint64_t max_bytes,
    const char *keep)
{
	struct prune_file *files;
	size_t n, i, nf = 0, removed = 0;
	uint64_t total = 0;
	char **names;

	names = tv_dir_list(dir, false, PRUNE_MAX_FILES, &n);
	if (names == NULL)
		return 0;
	files = tv_xcalloc(n ? n : 1, sizeof(*files));
	for (i = 0; i < n; i++) {
		struct stat st;
		char *path;

		if (strncmp(names[i], prefix, strlen(prefix)) != 0 ||
		    (keep != NULL && strcmp(names[i], keep) == 0))
			continue;
		tv_xasprintf(&path, "%s/%s", dir, names[i]);
		if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		files[nf].path = path;
		files[nf].size = (uint64_t)st.st_size;
		files[nf].mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 +
		    st.st_mtim.tv_nsec;
		total += files[nf].size;
		nf++;
	}
	tv_dir_list_free(names, n);
	qsort(files, nf, sizeof(*files), prune_cmp);
	for (i = 0; i < nf; i++) {
		if (total > max_bytes && unlink(files[i].path) == 0) {
			total -= files[i].size;
			removed++;
		}
		free(files[i].path);
	}
	free(files);
	return removed;
}

/* See dir.h. */
bool
tv_dir_make(const char *dir, unsigned mode)
{
	char *p = tv_xstrdup(dir), *s;
	struct stat sb;
	bool ok;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		(void)mkdir(p, (mode_t)mode);
		*s = '/';
	}
	ok = (mkdir(p, (mode_t)mode) == 0 || errno == EEXIST) &&
	    stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
	free(p);
	return ok;
}

/* See dir.h. */
char *
tv_dir_state(const char *name)
{
	const char *xdg = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	char *dir = NULL, *path;

	if (xdg != NULL && xdg[0] == '/')
		tv_xasprintf(&dir, "%s/tview", xdg);
	else if (home != NULL && home[0] == '/')
		tv_xasprintf(&dir, "%s/.local/state/tview", home);
	else
		return NULL;
	if (!tv_dir_make(dir, 0700)) {
		free(dir);
		return NULL;
	}
	tv_xasprintf(&path, "%s/%s", dir, name);
	free(dir);
	return path;
}
