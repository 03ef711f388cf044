/*
 * Directory listing for the drivers that open trace directories (CTF
 * sessions, LTT tracefile sets): names only, hidden entries left out, a
 * cap on the count so a hostile directory cannot exhaust memory.
 */
#ifndef TVIEW_DIR_H
#define TVIEW_DIR_H

#include "tview/tview.h"

/**
 * tv_dir_list() - names in @dir not starting with '.', sorted by name
 * (@sorted) or in the order the file system returns them (LTTV read LTT
 * tracefiles that way, and equal-time events follow it), at most @max of
 * them; count in *@n.  NULL if @dir cannot be read.
 */
char	**tv_dir_list(const char *dir, bool sorted, size_t max, size_t *n);
/** tv_dir_list_free() - free what tv_dir_list() returned. */
void	  tv_dir_list_free(char **names, size_t n);

/**
 * tv_dir_prune() - remove the regular files of @dir whose names start with
 * @prefix, oldest (by mtime) first, until they take at most @max_bytes
 * together; the file named @keep (a name in @dir, may be NULL) is never
 * removed, nor counted.  Best effort: errors leave files in place.
 * Returns how many files were removed.
 */
size_t	  tv_dir_prune(const char *dir, const char *prefix,
	    uint64_t max_bytes, const char *keep);

/**
 * tv_dir_make() - mkdir -p @dir with @mode for what it creates; true if
 * it exists afterwards.
 */
bool	  tv_dir_make(const char *dir, unsigned mode);

/**
 * tv_dir_state() - the file @name under $XDG_STATE_HOME/tview (default
 * ~/.local/state/tview), directory created; NULL when neither variable
 * gives an absolute path.  Free the result.
 */
char	 *tv_dir_state(const char *name);

#endif /* TVIEW_DIR_H */
