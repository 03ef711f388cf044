/*
 * Who writes a file: walk /proc/PID/fd of every process, stat() each
 * descriptor (the link leads to the file: its device and inode), and for
 * one of ours read the access mode from /proc/PID/fdinfo/FD.  A directory
 * of ours held open in any mode counts too: LTTng's session and consumer
 * daemons keep the session's output directories open while it lives,
 * though each application's files are closed when it exits (per-PID
 * buffers).
 */
#include "tview/writers.h"
#include "tview/util.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Is @name all digits (a PID or a descriptor number)? */
static bool
all_digits(const char *name)
{
	if (*name == '\0')
		return false;
	for (; *name; name++)
		if (*name < '0' || *name > '9')
			return false;
	return true;
}

/* The index of @st in @ids, or -1. */
static ssize_t
file_listed(const struct stat *st, const struct tv_file_id *ids, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i].dev == st->st_dev && ids[i].ino == st->st_ino)
			return (ssize_t)i;
	return -1;
}

/* Was descriptor @fd of process @pid opened for writing (its fdinfo)? */
static bool
fd_writes(const char *pid, const char *fd)
{
	char path[320], line[128];
	bool w = false;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%s/fdinfo/%s", pid, fd);
	fp = fopen(path, "re");
	if (fp == NULL)
		return false;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, "flags:", 6) == 0) {
			unsigned long fl = strtoul(line + 6, NULL, 8);

			w = (fl & O_ACCMODE) != O_RDONLY;
			break;
		}
	fclose(fp);
	return w;
}

/*
 * Mark in @held the ones of @ids process @pid holds: a regular file open
 * for writing, a directory open at all.  Returns how many it newly set.
 */
static size_t
proc_holds(const char *pid, const struct tv_file_id *ids, size_t n,
    bool *held)
{
	char path[320], fdpath[640];
	struct dirent *de;
	struct stat st;
	size_t marked = 0;
	ssize_t k;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	d = opendir(path);
	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (!all_digits(de->d_name))
			continue;
		snprintf(fdpath, sizeof(fdpath), "%s/%s", path, de->d_name);
		if (stat(fdpath, &st) != 0 ||
		    (k = file_listed(&st, ids, n)) < 0 || held[k])
			continue;
		if (S_ISDIR(st.st_mode) ||
		    (S_ISREG(st.st_mode) && fd_writes(pid, de->d_name))) {
			held[k] = true;
			marked++;
		}
	}
	closedir(d);
	return marked;
}

/* See writers.h. */
void
tv_files_held(const struct tv_file_id *ids, size_t n, bool *held)
{
	char self[32];
	struct dirent *de;
	size_t left = n;
	DIR *d;

	memset(held, 0, n * sizeof(*held));
	if (n == 0 || (d = opendir("/proc")) == NULL)
		return;
	snprintf(self, sizeof(self), "%ld", (long)getpid());
	while (left > 0 && (de = readdir(d)) != NULL)
		if (all_digits(de->d_name) && strcmp(de->d_name, self) != 0)
			left -= proc_holds(de->d_name, ids, n, held);
	closedir(d);
}

/* See writers.h. */
bool
tv_files_written(const struct tv_file_id *ids, size_t n)
{
	bool *held = tv_xcalloc(n + 1, sizeof(*held)), any = false;
	size_t i;

	tv_files_held(ids, n, held);
	for (i = 0; i < n; i++)
		any |= held[i];
	free(held);
	return any;
}

/* Append the id of @st to @l. */
static void
list_add(struct tv_file_ids *l, const struct stat *st)
{
	TV_VEC_GROW(l->ids, l->n, l->cap);
	l->ids[l->n].dev = st->st_dev;
	l->ids[l->n++].ino = st->st_ino;
}

/* tv_files_under() @depth directories deep. */
static void
collect(const char *path, int depth, unsigned what, struct tv_file_ids *l)
{
	struct dirent *de;
	struct stat st;
	char *sub;
	DIR *d;

	if (l->n >= TV_WRITERS_MAX_FILES || lstat(path, &st) != 0)
		return;
	if (S_ISREG(st.st_mode)) {
		if (what & TV_FILES_REG)
			list_add(l, &st);
		return;
	}
	if (!S_ISDIR(st.st_mode))
		return;
	if (what & TV_FILES_DIR)
		list_add(l, &st);
	if (depth <= 0 || (d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL && l->n < TV_WRITERS_MAX_FILES) {
		if (de->d_name[0] == '.')
			continue;
		tv_xasprintf(&sub, "%s/%s", path, de->d_name);
		collect(sub, depth - 1, what, l);
		free(sub);
	}
	closedir(d);
}

/* See writers.h. */
void
tv_files_under(const char *path, unsigned what, struct tv_file_ids *l)
{
	collect(path, TV_WRITERS_MAX_DEPTH, what, l);
}

/* See writers.h. */
bool
tv_file_ids_add(struct tv_file_ids *l, const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return false;
	list_add(l, &st);
	return true;
}

/* See writers.h. */
bool
tv_files_written_under(const char *path)
{
	struct tv_file_ids l = { NULL, 0, 0 };
	bool w;

	tv_files_under(path, TV_FILES_REG, &l);
	w = tv_files_written(l.ids, l.n);
	free(l.ids);
	return w;
}
