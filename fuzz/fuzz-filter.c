/*
 * Fuzz target: the filter language (tv_filter_compile: lexer, parser,
 * compiler with its event sampling; tv_filter_verdict, tv_filter_match,
 * tv_filter_follow).  The input is the filter text.  It is compiled
 * against a small CTF trace that gen-ctf's writer makes once per process
 * and that the process keeps open from memory (an fz_tree), then
 * evaluated on every event of that trace, with the owners the state
 * layer gives them so that tid, pid and comm have values.
 */
#include "fz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tview/tview.h"
#include "tview/filter.h"
#include "tview/format.h"
#include "tview/merge.h"
#include "tview/owner.h"
#include "tview/state.h"
#include "tview/trace.h"
#include "tview/util.h"
#include "../tests/gen/gen-ctf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Events of the trace: a few of each kind gen-ctf simulates. */
#define FF_EVENTS	120u

static const char *const names[] = {
	"metadata", "channel0_0", "channel0_1", NULL
};

/* The trace, opened once; the events and their owners, walked once. */
struct ff_trace {
	struct fz_tree		*tree;
	struct tv_trace_set	*set;
	struct tv_time_ctx	 tctx;
	struct tv_event		 ev[FF_EVENTS * 2];
	struct tv_event_owner	 owner[FF_EVENTS * 2];
	size_t			 nev;
};

static struct ff_trace *ff;

/* Give up: the harness itself cannot work. */
static void
die(const char *what)
{
	fprintf(stderr, "fuzz-filter: %s\n", what);
	abort();
}

/* Append file @path of the generated trace to @sb as a packed entry. */
static void
pack_file(struct tv_strbuf *sb, const char *dir, const char *name)
{
	char path[4096], buf[65536];
	size_t n;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "rb");
	if (!fp)
		die(path);
	tv_strbuf_add(sb, FZ_MARK, FZ_MARK_LEN);
	tv_strbuf_add(sb, name, strlen(name));
	tv_strbuf_add(sb, "\n", 1);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		tv_strbuf_add(sb, buf, n);
	fclose(fp);
	unlink(path);
}

/* gen-ctf's three parts, as gen-ctf.c ties them, into directory @dir. */
static void
generate(const char *dir)
{
	static const uint8_t uuid[16] = { 0x74, 0x76, 0x66, 0x7a, 0x66, 0x69,
	    0x6c, 0x74, 0x65, 0x72, 0x40, 0x00, 0x80, 0x00, 0x00, 0x01 };
	struct tv_gen_writer *w = NULL;
	struct tv_gen_opts o;
	struct tv_error err;
	enum tv_status st;

	memset(&o, 0, sizeof(o));
	o.out = dir;
	o.cpus = 2;
	o.events = FF_EVENTS;
	o.packet_size = 4096;
	o.seed = 17;
	o.quiet = true;
	tv_error_clear(&err);
	st = tv_gen_trace(&o, uuid, &w, &err);
	tv_gen_writer_destroy(w);
	if (st != TV_OK)
		die("cannot generate the trace");
}

/* Make the trace, hold it in memory, open it, walk it once. */
static struct ff_trace *
ff_setup(void)
{
	const char *tmp = getenv("TMPDIR");
	struct ff_trace *t = calloc(1, sizeof(*t));
	struct tv_state *state;
	struct tv_strbuf sb;
	struct tv_error err;
	struct tv_merge *m;
	char dir[4096];
	const char *root;
	size_t i;

	if (!t)
		die("calloc");
	snprintf(dir, sizeof(dir), "%s/tview-fuzz-filter-XXXXXX",
	    tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		die("mkdtemp");
	generate(dir);
	tv_strbuf_init(&sb);
	for (i = 0; names[i]; i++)
		pack_file(&sb, dir, names[i]);
	if (rmdir(dir) < 0)
		die("the generated trace has more files than expected");
	t->tree = fz_tree_new(names);
	root = fz_tree_fill(t->tree, (const uint8_t *)sb.buf, sb.len);
	tv_strbuf_fini(&sb);
	tv_error_clear(&err);
	if (tv_trace_set_open(&t->set, &root, 1, tv_format_registry(),
	    &err) != TV_OK || !t->set)
		die("cannot open the generated trace");
	t->tctx.begin = t->set->ts_begin;
	t->tctx.end = t->set->ts_end;
	t->tctx.cursor = t->set->ts_begin;
	state = tv_state_create(t->set);
	m = tv_merge_create(t->set);
	tv_merge_seek_begin(m);
	while (t->nev < TV_ARRAY_SIZE(t->ev) &&
	    tv_merge_next(m, &t->ev[t->nev]) == TV_OK) {
		(void)tv_state_apply(state, &t->ev[t->nev],
		    &t->owner[t->nev], NULL);
		t->nev++;
	}
	tv_merge_destroy(m);
	tv_state_destroy(state);
	if (t->nev == 0)
		die("the generated trace has no event");
	return t;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tv_filter_follow *fw;
	struct tv_filter *f = NULL;
	struct tv_arena arena;
	struct tv_error err;
	char *text;
	bool state;
	size_t i;

	if (!ff)
		ff = ff_setup();
	text = fz_text(data, size);
	tv_error_clear(&err);
	if (tv_filter_compile(text, ff->set, &ff->tctx, &f, &err) != TV_OK) {
		free(text);
		return 0;
	}
	free(text);
	state = tv_filter_needs_state(f);
	fw = tv_filter_follow_create(ff->set);
	tv_arena_init(&arena);
	for (i = 0; i < ff->nev; i++) {
		const struct tv_event *ev = &ff->ev[i];
		bool hit = false;

		if (tv_filter_verdict(f, ev) != TV_FILTER_NEVER) {
			tv_arena_reset(&arena);
			hit = tv_filter_match(f, ev,
			    state ? &ff->owner[i] : NULL, &arena);
		}
		(void)tv_filter_follow(fw, ev, hit);
	}
	(void)tv_filter_text(f);
	tv_arena_fini(&arena);
	tv_filter_follow_destroy(fw);
	tv_filter_destroy(f);
	return 0;
}
