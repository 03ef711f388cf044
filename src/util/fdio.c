/*
 * Whole writes on file descriptors.  See fdio.h.
 */
#include "tview/tview.h"

#include <errno.h>
#include <unistd.h>

#include "tview/fdio.h"

/* See fdio.h. */
bool
tv_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return false;
		}
		p += n;
		len -= (size_t)n;
	}
	return true;
}
