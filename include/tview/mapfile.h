/*
 * A read-only memory mapping of a whole file.  The kernel pages it in on
 * demand, so mapping a 10 GB trace costs nothing until bytes are read.
 * Readers must bound every access by ->size.
 */
#ifndef TVIEW_MAPFILE_H
#define TVIEW_MAPFILE_H

#include "tview/tview.h"
#include "tview/error.h"

struct tv_mapfile {
	char		*path;	/* owned */
	const uint8_t	*data;	/* mapping, NULL for an empty file */
	uint64_t	 size;
};

/** tv_mapfile_open() - map @path read-only; TV_IO with errno on failure. */
enum tv_status	 tv_mapfile_open(struct tv_mapfile *mf, const char *path,
		    struct tv_error *err);
void		 tv_mapfile_close(struct tv_mapfile *mf);
/** tv_mapfile_advise() - hint sequential (true) or random access. */
void		 tv_mapfile_advise(struct tv_mapfile *mf, bool sequential);

/** tv_read_file() - read a small text file fully (metadata, XML); capped. */
enum tv_status	 tv_read_file(const char *path, size_t max, char **out,
		    size_t *len, struct tv_error *err);

#endif /* TVIEW_MAPFILE_H */
