/*
 * The metadata pass over the shared trace corpus ($TVIEW_SHARED/traces):
 * every CTF 1.8 and CTF 2 trace under ctf/ must build, every
 * ctf-fail/cts-metadata-* vector must fail with a one-line error.  Other ctf-fail vectors are reported
 * only (most are stream errors, the decoder's business).  Skips when the
 * corpus is absent.
 */
#include "tview/trace.h"
#include "../../src/formats/ctf/ctf-priv.h"
#include "../tap.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Read and build the metadata of @dir; the status, *err filled. */
static enum tv_status
load(const char *dir, struct tv_error *err, uint32_t *nclasses)
{
	struct tv_trace tr;
	struct ctf_trace_class tc;
	char path[1024];
	char *text;
	size_t len;
	enum tv_status st;

	memset(&tr, 0, sizeof(tr));
	memset(&tc, 0, sizeof(tc));
	tv_error_clear(err);
	st = ctf_metadata_read(dir, 0, &tc, err);
	if (st != TV_OK)
		return st;
	text = tc.metadata;
	len = tc.metadata_len;
	tv_arena_init(&tr.arena);
	tr.names = tv_intern_create();
	snprintf(path, sizeof(path), "%s/metadata", dir);
	if (ctf_metadata_is_json(text, len))
		st = ctf_ctf2_build(text, len, path, &tr, &tc, err);
	else
		st = ctf_tsdl_build(text, len, path, &tr, &tc, err);
	*nclasses = tr.nclasses;
	free(text);
	tv_arena_fini(&tr.arena);
	tv_intern_destroy(tr.names);
	return st;
}

static bool
has_metadata(const char *dir)
{
	char path[1024];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Directories holding a metadata file at or under @dir (depth <= 4). */
static void
find_traces(const char *dir, int depth, char ***out, size_t *n, size_t *cap)
{
	struct dirent *de;
	DIR *d;
	char sub[1024];
	struct stat sb;

	if (has_metadata(dir)) {
		if (*n >= *cap) {
			*cap = *cap ? *cap * 2 : 64;
			*out = realloc(*out, *cap * sizeof(**out));
		}
		(*out)[(*n)++] = strdup(dir);
		return;
	}
	if (depth >= 4 || !(d = opendir(dir)))
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || strcmp(de->d_name, "index") == 0)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (stat(sub, &sb) == 0 && S_ISDIR(sb.st_mode))
			find_traces(sub, depth + 1, out, n, cap);
	}
	closedir(d);
}

/* The trace directories directly under @dir, sorted. */
static size_t
list(const char *dir, char ***out)
{
	size_t n = 0, cap = 0;
	struct dirent *de;
	char sub[1024];
	DIR *d;

	*out = NULL;
	if (!(d = opendir(dir)))
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		find_traces(sub, 0, out, &n, &cap);
	}
	closedir(d);
	if (n)
		qsort(*out, n, sizeof(**out), cmp_str);
	return n;
}

static void
test_pass(const char *root)
{
	char dir[1024], buf[1200], **traces;
	struct tv_error err;
	uint32_t ncl = 0;
	size_t n, i;
	enum tv_status st;

	snprintf(dir, sizeof(dir), "%s/traces/ctf", root);
	n = list(dir, &traces);
	ok(n > 100, "found %zu traces under ctf/", n);
	for (i = 0; i < n; i++) {
		const char *name = traces[i] + strlen(dir) + 1;

		st = load(traces[i], &err, &ncl);
		ok(st == TV_OK, "%s: builds, %u event classes%s%s",
		    name, ncl, st ? ": " : "",
		    st ? tv_error_format(&err, buf, sizeof(buf)) : "");
		free(traces[i]);
	}
	free(traces);
}

static void
test_fail(const char *root)
{
	char dir[1024], buf[1200], **traces;
	struct tv_error err;
	uint32_t ncl = 0;
	size_t n, i, nmeta = 0;
	enum tv_status st;

	snprintf(dir, sizeof(dir), "%s/traces/ctf-fail", root);
	n = list(dir, &traces);
	for (i = 0; i < n; i++) {
		const char *name = traces[i] + strlen(dir) + 1;

		st = load(traces[i], &err, &ncl);
		tv_error_format(&err, buf, sizeof(buf));
		if (strncmp(name, "cts-metadata-", 13) == 0) {
			nmeta++;
			ok(st != TV_OK && !strchr(buf, '\n') &&
			    strstr(buf, "metadata") != NULL,
			    "%s: rejected: %s", name, buf);
		} else {
			diag("%s: %s", name, st == TV_OK ?
			    "metadata accepted (stream error expected)" :
			    buf);
		}
		free(traces[i]);
	}
	free(traces);
	ok(nmeta > 50, "%zu cts-metadata vectors", nmeta);
}

int
main(void)
{
	const char *root = getenv("TVIEW_SHARED");
	struct stat sb;
	char dir[1024];

	if (root) {
		snprintf(dir, sizeof(dir), "%s/traces/ctf", root);
		if (stat(dir, &sb) != 0)
			root = NULL;
	}
	if (!root) {
		printf("1..0 # SKIP no shared corpus ($TVIEW_SHARED)\n");
		return 0;
	}
	tv_plan(0);
	test_pass(root);
	test_fail(root);
	return tv_done();
}
