/*
 * Who writes a file: walk /proc/PID/fd of every process, stat() each
 * descriptor (the link leads to the file: its device and inode), and for
 * one of ours read the access mode from /proc/PID/fdinfo/FD.
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

/* Is @st one of @ids? */
static bool
file_listed(const struct stat *st, const struct tv_file_id *ids, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i].dev == st->st_dev && ids[i].ino == st->st_ino)
			return true;
	return false;
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

/* Does process @pid hold one of @ids open for writing? */
static bool
proc_writes(const char *pid, const struct tv_file_id *ids, size_t n)
{
	char path[320], fdpath[640];
	struct dirent *de;
	bool w = false;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	d = opendir(path);
	if (d == NULL)
		return false;
	while (!w && (de = readdir(d)) != NULL) {
		struct stat st;

		if (!all_digits(de->d_name))
			continue;
		snprintf(fdpath, sizeof(fdpath), "%s/%s", path, de->d_name);
		if (stat(fdpath, &st) == 0 && S_ISREG(st.st_mode) &&
		    file_listed(&st, ids, n))
			w = fd_writes(pid, de->d_name);
	}
	closedir(d);
	return w;
}

/* See writers.h. */
bool
tv_files_written(const struct tv_file_id *ids, size_t n)
{
	char self[32];
	struct dirent *de;
	bool w = false;
	DIR *d;

	if (n == 0)
		return false;
	d = opendir("/proc");
	if (d == NULL)
		return false;
	snprintf(self, sizeof(self), "%ld", (long)getpid());
	while (!w && (de = readdir(d)) != NULL)
		if (all_digits(de->d_name) && strcmp(de->d_name, self) != 0)
			w = proc_writes(de->d_name, ids, n);
	closedir(d);
	return w;
}

/* The files to look for under @path: see tv_files_written_under(). */
struct id_list {
	struct tv_file_id	*ids;
	size_t			 n, cap;
};

/* Add the regular files under @path to @l (@depth: directories left). */
static void
collect(const char *path, int depth, struct id_list *l)
{
	struct dirent *de;
	struct stat st;
	char *sub;
	DIR *d;

	if (l->n >= TV_WRITERS_MAX_FILES || lstat(path, &st) != 0)
		return;
	if (S_ISREG(st.st_mode)) {
		TV_VEC_GROW(l->ids, l->n, l->cap);
		l->ids[l->n].dev = st.st_dev;
		l->ids[l->n++].ino = st.st_ino;
		return;
	}
	if (!S_ISDIR(st.st_mode) || depth <= 0 || (d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL && l->n < TV_WRITERS_MAX_FILES) {
		if (de->d_name[0] == '.')
			continue;
		tv_xasprintf(&sub, "%s/%s", path, de->d_name);
		collect(sub, depth - 1, l);
		free(sub);
	}
	closedir(d);
}

/* See writers.h. */
bool
tv_files_written_under(const char *path)
{
	struct id_list l = { NULL, 0, 0 };
	bool w;

	collect(path, TV_WRITERS_MAX_DEPTH, &l);
	w = tv_files_written(l.ids, l.n);
	free(l.ids);
	return w;
}
