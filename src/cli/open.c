/*
 * Which paths the command line opens, as trace-cmd and git users expect:
 * no argument means ./trace.dat or the trace in the current directory; a
 * directory holding a trace.dat means that file; and when an argument is
 * not a trace, the error says what to type instead (the trace directory of
 * a metadata file or tracefile, the traces found below a directory).
 */
#include "tview/tview.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tview/dir.h"
#include "tview/error.h"
#include "tview/format.h"
#include "tview/i18n.h"
#include "tview/trace.h"
#include "tview/util.h"
#include "cli.h"

/* The file trace-cmd writes and reads by default. */
#define OPEN_TRACE_DAT		"trace.dat"
/* How deep and how wide the search for traces below a directory goes. */
#define OPEN_FIND_DEPTH		4
#define OPEN_FIND_BUDGET	4096
/* How many directories up a file of a trace is looked for its trace. */
#define OPEN_UP_MAX		2

/* Traces found below a directory: the first one and how many. */
struct open_found {
	char	*first;		/* owned, as the user would type it */
	size_t	 count;
	size_t	 budget;	/* entries still to look at */
};

static bool
open_is_dir(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool
open_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * Is @dir too wide to probe for the trace a file belongs to: the root or
 * the home directory, where the CTF probe would walk half the disk.
 */
static bool
open_too_wide(const char *dir)
{
	const char *home = getenv("HOME");
	char *real = realpath(dir, NULL), *rhome = NULL;
	bool wide;

	if (real == NULL)
		return true;
	if (home != NULL && home[0] != '\0')
		rhome = realpath(home, NULL);
	wide = strcmp(real, "/") == 0 ||
	    (rhome != NULL && strcmp(real, rhome) == 0);
	free(real);
	free(rhome);
	return wide;
}

/*
 * Whether @dir looks like the top of one trace: it holds a CTF "metadata"
 * file, an LTT 0.x metadata channel ("metadata_N") or an LTT "control"
 * directory.  Only such a directory is opened to see whether it holds a
 * file: opening any directory on the way up (a /tmp full of traces) would
 * open every trace below it.
 */
static bool
open_trace_root(const char *dir)
{
	char **names;
	size_t n, i;
	bool root = false;

	names = tv_dir_list(dir, true, OPEN_FIND_BUDGET, &n);
	if (names == NULL)
		return false;
	for (i = 0; i < n && !root; i++)
		root = strcmp(names[i], "metadata") == 0 ||
		    strcmp(names[i], "control") == 0 ||
		    strncmp(names[i], "metadata_", 9) == 0;
	tv_dir_list_free(names, n);
	return root;
}

/* Does some driver read @path?  Probes only: nothing is opened. */
static bool
open_probes(const char *path)
{
	const struct tv_format_ops *const *reg = tv_format_registry();
	struct tv_error e;
	size_t i;

	enum tv_status st;

	for (i = 0; reg[i] != NULL; i++) {
		if (reg[i]->probe == NULL)
			continue;
		tv_error_clear(&e);
		st = reg[i]->probe(path, &e);
		if (st != TV_FORMAT)
			return st == TV_OK;	/* read it, or would fail */
	}
	return false;
}

/* Are @a and @b the same file? */
static bool
open_same(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * Does @dir open as traces one of which @file belongs to: one of its
 * stream files, or the metadata file in its directory?  (Probing is not
 * enough: a directory holding traces anywhere below probes as a CTF
 * session.)
 */
static bool
open_holds(const char *dir, const char *file)
{
	const char *base = strrchr(file, '/');
	const char *one[1] = { dir };
	struct tv_trace_set *set = NULL;
	struct tv_error e;
	bool found = false;
	uint32_t i, j, f;

	base = base != NULL ? base + 1 : file;
	if (!open_trace_root(dir) || !open_probes(dir))
		return false;
	(void)tv_trace_set_open(&set, one, 1, tv_format_registry(), &e);
	for (i = 0; set != NULL && i < set->ntraces && !found; i++) {
		const struct tv_trace *t = set->traces[i];
		char *meta;

		tv_xasprintf(&meta, "%s/metadata", t->path);
		found = strcmp(base, "metadata") == 0 &&
		    open_same(meta, file);
		free(meta);
		for (j = 0; j < t->nstreams && !found; j++)
			for (f = 0; f < t->streams[j]->nfiles && !found; f++)
				found = open_same(t->streams[j]->files[f].path,
				    file);
	}
	tv_trace_set_close(set);
	return found;
}

/* @dir joined with @name, without doubling a slash or writing "./". */
static char *
open_join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *out;

	if (strcmp(dir, ".") == 0)
		return tv_xstrdup(name);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	tv_xasprintf(&out, "%.*s/%s", (int)n, dir, name);
	return out;
}

/* Count the traces below @dir (not @dir itself), breadth by depth. */
static void
open_find(const char *dir, int depth, struct open_found *f)
{
	char **names;
	size_t n, i;

	if (depth > OPEN_FIND_DEPTH || f->budget == 0)
		return;
	names = tv_dir_list(dir, true, f->budget, &n);
	if (names == NULL)
		return;
	f->budget -= n < f->budget ? n : f->budget;
	for (i = 0; i < n; i++) {
		char *sub = open_join(dir, names[i]);

		/* Links are not followed: no cycles. */
		if ((open_is_dir(sub) || open_is_file(sub)) &&
		    open_probes(sub)) {
			if (f->count++ == 0)
				f->first = tv_xstrdup(sub);
		} else if (open_is_dir(sub)) {
			open_find(sub, depth + 1, f);
		}
		free(sub);
	}
	tv_dir_list_free(names, n);
}

/* @path quoted for a POSIX shell when it needs to be. */
static char *
open_quote(const char *path)
{
	struct tv_strbuf sb;
	const char *p;

	if (path[0] != '\0' && strspn(path, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/+-:@,%=") ==
	    strlen(path))
		return tv_xstrdup(path);
	tv_strbuf_init(&sb);
	tv_strbuf_addc(&sb, '\'');
	for (p = path; *p != '\0'; p++) {
		if (*p == '\'')
			tv_strbuf_adds(&sb, "'\\''");
		else
			tv_strbuf_addc(&sb, *p);
	}
	tv_strbuf_addc(&sb, '\'');
	return sb.buf;
}

/* The directory part of @path ("." when there is none). */
static char *
open_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return tv_xstrdup(".");
	if (slash == path)
		return tv_xstrdup("/");
	return tv_xstrndup(path, (size_t)(slash - path));
}

/*
 * @path (an argument no driver reads) explained in @err, with what to type
 * instead when there is something to suggest.  Returns its status.
 */
static enum tv_status
open_explain(const char *path, struct tv_error *err)
{
	struct tv_loc loc = { .path = path, .offset = TV_NO_OFFSET };
	struct open_found f = { NULL, 0, OPEN_FIND_BUDGET };
	enum tv_status st;
	char *dir, *q;

	if (open_is_file(path)) {
		const char *base = strrchr(path, '/');
		int up;

		base = base != NULL ? base + 1 : path;
		/* The trace directory may be a level or two up (cpu/0). */
		dir = open_dirname(path);
		for (up = 0; open_too_wide(dir) || !open_holds(dir, path);
		    up++) {
			if (up == OPEN_UP_MAX || strcmp(dir, ".") == 0 ||
			    open_too_wide(dir)) {
				free(dir);
				return TV_FORMAT;
			}
			q = open_dirname(dir);
			free(dir);
			dir = q;
		}
		q = open_quote(dir);
		if (strcmp(base, "metadata") == 0)
			st = tv_error_set(err, TV_FORMAT, &loc,
			    _("this is the metadata file of a CTF trace; open "
			    "its directory: tview %s"), q);
		else
			st = tv_error_set(err, TV_FORMAT, &loc,
			    _("this file is part of a trace; open its "
			    "directory: tview %s"), q);
		free(q);
		free(dir);
		return st;
	}
	if (!open_is_dir(path))
		return TV_FORMAT;
	open_find(path, 1, &f);
	if (f.count == 0)
		return TV_FORMAT;
	q = open_quote(f.first);
	st = tv_error_set(err, TV_FORMAT, &loc,
	    P_("not a trace, but it holds one below: tview %1$s",
	    "not a trace, but it holds %2$zu traces below, e.g.: tview %1$s",
	    f.count), q, f.count);
	free(q);
	free(f.first);
	return st;
}

/* See cli.h. */
enum tv_status
tv_cli_paths(const char *const *args, size_t nargs, char ***out,
    size_t *nout, struct tv_error *err)
{
	enum tv_status st = TV_OK;
	struct tv_error e;
	size_t i;

	*out = tv_xcalloc(nargs + 1, sizeof(**out));
	*nout = 0;
	if (nargs == 0) {
		struct open_found f = { NULL, 0, OPEN_FIND_BUDGET };
		char *q;

		if (open_is_file(OPEN_TRACE_DAT))
			(*out)[(*nout)++] = tv_xstrdup(OPEN_TRACE_DAT);
		else if (open_probes("."))
			(*out)[(*nout)++] = tv_xstrdup(".");
		if (*nout != 0)
			return TV_OK;
		open_find(".", 1, &f);
		if (f.count == 0)
			return tv_error_set(err, TV_NOT_FOUND, NULL,
			    _("no trace given, and no trace.dat or trace in "
			    "the current directory"));
		q = open_quote(f.first);
		st = tv_error_set(err, TV_NOT_FOUND, NULL,
		    P_("no trace given; the current directory holds one "
		    "below: tview %1$s",
		    "no trace given; the current directory holds %2$zu "
		    "traces below, e.g.: tview %1$s", f.count), q, f.count);
		free(q);
		free(f.first);
		return st;
	}
	for (i = 0; i < nargs; i++) {
		const char *p = args[i];
		char *dat;

		if (open_probes(p)) {
			(*out)[(*nout)++] = tv_xstrdup(p);
			continue;
		}
		dat = open_join(p, OPEN_TRACE_DAT);
		if (open_is_dir(p) && open_is_file(dat)) {
			(*out)[(*nout)++] = dat;
			continue;
		}
		free(dat);
		tv_error_clear(&e);
		if (open_explain(p, &e) == TV_OK || e.status == TV_OK) {
			/* Nothing to suggest: opening says what is wrong. */
			(*out)[(*nout)++] = tv_xstrdup(p);
			continue;
		}
		if (st == TV_OK) {
			st = e.status;
			if (err != NULL)
				*err = e;
		}
	}
	return st;
}
