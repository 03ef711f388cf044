/*
 * Who still writes a trace set being followed (tv_trace_set_writers):
 * one look at every process (util/writers.c) for the files of each trace
 * and for the directories of the session.  A trace none of whose files
 * is written any more is finished: LTTng closes an application's files
 * when it exits (per-PID buffers) while the session goes on, and such a
 * trace must not hold back the time before which the timeline is
 * settled, or nothing newer would be printed until the session ends.
 * The session lives while a file is written or one of its directories is
 * held open (LTTng's session and consumer daemons hold the output
 * directory and its domain directory until the session is destroyed):
 * new traces may still appear under it.
 */
#include "tview/tview.h"
#include "tview/trace.h"
#include "tview/writers.h"

#include <stdlib.h>
#include <string.h>

/*
 * Directories above a root that a session may hold while the root is
 * one of its traces (an application's directory under ust/pid/ is three
 * below the session's output directory).
 */
#define WRITERS_UP	3

/* The root @path's directories: itself and under it, then a few above. */
static void
add_root(struct tv_file_ids *l, const char *path)
{
	char *real = realpath(path, NULL), *up, *slash;
	int i;

	/* "." or a relative path: the directories above it by name */
	up = tv_xstrdup(real != NULL ? real : path);
	free(real);

	/* the files are the traces': only the directories here */
	tv_files_under(path, TV_FILES_DIR, l);
	for (i = 0; i < WRITERS_UP; i++) {
		while ((slash = strrchr(up, '/')) != NULL && slash[1] == '\0'
		    && slash != up)
			*slash = '\0';
		slash = strrchr(up, '/');
		/* never "/": any process may hold it */
		if (slash == NULL || slash == up)
			break;
		*slash = '\0';
		(void)tv_file_ids_add(l, up);
	}
	free(up);
}

/*
 * Mark every stream of @t finished (it holds back nothing any more), or
 * not (written again: the mark was early, a writer may close and open
 * its files again).
 */
static void
trace_finished(struct tv_trace *t, bool finished)
{
	struct tv_stream *s;
	uint32_t i;

	for (i = 0; i < t->nstreams; i++) {
		s = t->streams[i];
		if (finished) {
			s->quiet = true;
			s->quiet_until = INT64_MAX;
		} else if (s->quiet && s->quiet_until == INT64_MAX) {
			s->quiet = false;
		}
	}
}

/* See trace.h. */
bool
tv_trace_set_writers(struct tv_trace_set *set)
{
	struct tv_file_ids l = { NULL, 0, 0 };
	size_t *first, session, k;
	bool *held, live = false, written;
	uint32_t i;

	/* each trace's files, then the session's directories */
	first = tv_xcalloc(set->ntraces + 1, sizeof(*first));
	for (i = 0; i < set->ntraces; i++) {
		first[i] = l.n;
		tv_files_under(set->traces[i]->path, TV_FILES_REG, &l);
	}
	first[set->ntraces] = session = l.n;
	for (i = 0; i < set->nroots; i++)
		add_root(&l, set->roots[i].path);
	held = tv_xcalloc(l.n + 1, sizeof(*held));
	tv_files_held(l.ids, l.n, held);
	for (i = 0; i < set->ntraces; i++) {
		written = false;
		for (k = first[i]; k < first[i + 1]; k++)
			written |= held[k];
		/* a trace of a file (no directory) is never finished here */
		if (first[i + 1] > first[i])
			trace_finished(set->traces[i], !written);
		live |= written;
	}
	for (k = session; k < l.n; k++)
		live |= held[k];
	free(held);
	free(first);
	free(l.ids);
	return live;
}
