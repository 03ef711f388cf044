/*
 * Whole writes on file descriptors: the loop over short writes and EINTR
 * that every writer of a file (the bookmark store, the live mirror) needs.
 */
#ifndef TVIEW_FDIO_H
#define TVIEW_FDIO_H

#include "tview/tview.h"

/**
 * tv_write_all() - write the @len bytes of @buf to @fd, over short writes
 * and EINTR; false with errno set on failure (EIO for a write of 0).
 */
bool	tv_write_all(int fd, const void *buf, size_t len);

#endif /* TVIEW_FDIO_H */
