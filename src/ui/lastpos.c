/*
 * Position memory between runs, as less and vim remember where a file was
 * left: the cursor time of each trace (set) when the browser quit, one
 * "TIME<Tab>PATH[<Tab>PATH...]" line per trace in
 * $XDG_STATE_HOME/tview/positions, newest last, the oldest dropped past
 * a cap.  TVIEW_STATE=off turns it off (the tests do).
 */
#include "ui-priv.h"
#include "tview/dir.h"
#include "tview/mapfile.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define POSITIONS_FILE	"positions"
#define POSITIONS_MAX	200		/* traces remembered */
#define POSITIONS_BYTES	(1u << 20)	/* a larger file is not ours */

/* The file, or NULL when memory is off or there is nowhere to keep it. */
static char *
positions_path(void)
{
	const char *env = getenv("TVIEW_STATE");

	if (env && (strcmp(env, "off") == 0 || strcmp(env, "0") == 0))
		return NULL;
	return tv_dir_state(POSITIONS_FILE);
}

/* The key of @set: its absolute paths joined by tabs; NULL if a path
 * cannot be written on one line. */
static char *
set_key(const struct tv_trace_set *set)
{
	struct tv_strbuf sb;
	char abs[PATH_MAX];
	uint32_t i;

	if (set->ntraces == 0)
		return NULL;
	tv_strbuf_init(&sb);
	for (i = 0; i < set->ntraces; i++) {
		const char *p = set->traces[i]->path;

		if (!p || !realpath(p, abs) || strpbrk(abs, "\t\n")) {
			tv_strbuf_fini(&sb);
			return NULL;
		}
		if (i)
			tv_strbuf_addc(&sb, '\t');
		tv_strbuf_adds(&sb, abs);
	}
	return sb.buf;		/* the buffer is the caller's now */
}

/* The key of line @line (after the time and its tab), or NULL. */
static const char *
line_key(const char *line)
{
	const char *tab = strchr(line, '\t');

	return tab ? tab + 1 : NULL;
}

/* The file's lines, split in place in *@buf; NULL lines if none. */
static char **
read_lines(const char *path, char **buf, size_t *n)
{
	char **lines = NULL, *s, *nl;
	size_t len, cap = 0;
	struct tv_error err;

	*n = 0;
	*buf = NULL;
	if (tv_read_file(path, POSITIONS_BYTES, buf, &len, &err) != TV_OK)
		return NULL;
	for (s = *buf; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			break;		/* a torn last line is dropped */
		*nl = '\0';
		if (line_key(s)) {
			TV_VEC_GROW(lines, *n, cap);
			lines[(*n)++] = s;
		}
	}
	return lines;
}

/* See ui-priv.h. */
bool
tv_ui_lastpos_get(const struct tv_trace_set *set, int64_t *ts)
{
	char *path = positions_path(), *key, *buf, **lines, *end;
	size_t n, i;
	bool found = false;

	key = path ? set_key(set) : NULL;
	if (!key) {
		free(path);
		return false;
	}
	lines = read_lines(path, &buf, &n);
	for (i = n; i-- > 0 && !found;) {
		if (strcmp(line_key(lines[i]), key) != 0)
			continue;
		*ts = strtoll(lines[i], &end, 10);
		found = *end == '\t';
	}
	free(lines);
	free(buf);
	free(key);
	free(path);
	return found;
}

/* See ui-priv.h. */
void
tv_ui_lastpos_put(const struct tv_trace_set *set, int64_t ts)
{
	char *path = positions_path(), *key, *buf, **lines, *tmp;
	size_t n, i, keep;
	FILE *fp;
	bool bad;

	key = path ? set_key(set) : NULL;
	if (!key) {
		free(path);
		return;
	}
	lines = read_lines(path, &buf, &n);
	tv_xasprintf(&tmp, "%s.tmp%ld", path, (long)getpid());
	fp = fopen(tmp, "w");
	if (fp) {
		/* the others, newest last, then this one */
		for (i = 0, keep = 0; i < n; i++)
			if (strcmp(line_key(lines[i]), key) != 0)
				keep++;
		for (i = 0; i < n; i++) {
			if (strcmp(line_key(lines[i]), key) == 0)
				continue;
			/* room for this one: POSITIONS_MAX lines in all */
			if (keep-- >= POSITIONS_MAX - 1)
				continue;
			fprintf(fp, "%s\n", lines[i]);
		}
		fprintf(fp, "%" PRId64 "\t%s\n", ts, key);
		bad = ferror(fp) != 0;
		if (fclose(fp) != 0 || bad || rename(tmp, path) != 0)
			(void)remove(tmp);
	}
	free(tmp);
	free(lines);
	free(buf);
	free(key);
	free(path);
}
