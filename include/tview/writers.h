/*
 * Whether some process still has a file open for writing: how --follow
 * tells a trace that may still grow (LTTng's consumer daemon keeps its
 * stream and metadata files open until the session is destroyed) from
 * one that is done.  Linux only: read from /proc.
 */
#ifndef TVIEW_WRITERS_H
#define TVIEW_WRITERS_H

#include "tview/tview.h"

#include <sys/types.h>

/* A file, as stat() names it. */
struct tv_file_id {
	dev_t	 dev;
	ino_t	 ino;
};

/**
 * tv_files_written() - does a process other than this one hold one of
 * @ids[0..n) open for writing (O_WRONLY or O_RDWR)?  Only the processes
 * whose /proc entries this one may read are seen (the same user, or
 * root); false without /proc.
 */
bool	 tv_files_written(const struct tv_file_id *ids, size_t n);

/**
 * tv_files_written_under() - tv_files_written() for the regular files
 * under directory @path (or @path itself when it is a file), at most
 * TV_WRITERS_MAX_FILES of them, TV_WRITERS_MAX_DEPTH directories deep;
 * symbolic links are not followed.
 */
bool	 tv_files_written_under(const char *path);

#define TV_WRITERS_MAX_FILES	4096
#define TV_WRITERS_MAX_DEPTH	8

#endif /* TVIEW_WRITERS_H */
