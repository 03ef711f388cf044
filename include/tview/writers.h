/*
 * Whether some process still has a file open for writing, or a directory
 * open: how --follow tells a trace that may still grow (LTTng's consumer
 * daemon keeps its stream and metadata files open until the session is
 * destroyed, or with per-PID buffers until the application exits, and
 * the session's directories while it lives) from one that is done.
 * Linux only: read from /proc.
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

/* A growing list of file ids. */
struct tv_file_ids {
	struct tv_file_id	*ids;		/* owned */
	size_t			 n, cap;
};

/**
 * tv_files_held() - one look at every process but this one: @held[i] set
 * when @ids[i] is open there, for writing if it is a regular file, in
 * any mode if it is a directory (a tracer's daemons keep the directories
 * of a session open while it lives).  Same limits as tv_files_written().
 */
void	 tv_files_held(const struct tv_file_id *ids, size_t n, bool *held);

/* What tv_files_under() lists: regular files, directories, or both. */
#define TV_FILES_REG	0x1u
#define TV_FILES_DIR	0x2u

/**
 * tv_files_under() - append to @l what @what says of directory @path and
 * what lies under it (@path itself when it is a file), @path first;
 * limits as tv_files_written_under().
 */
void	 tv_files_under(const char *path, unsigned what,
	    struct tv_file_ids *l);
/** tv_file_ids_add() - append @path itself to @l; false if it is not there. */
bool	 tv_file_ids_add(struct tv_file_ids *l, const char *path);

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
