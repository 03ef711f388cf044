/*
 * Synthetic LTTng 0.x (format 2.6) traces written to a temporary
 * directory and read back through the driver: the paths the real traces
 * of ../shared never take.  Both byte orders, a 64-bit machine with
 * 8-byte alignment, every event header form (compact, 16-bit id, explicit
 * size, size escaped to 32 bits, full 64-bit TSC), a 27-bit TSC wrap, a
 * sub-buffer with lost events and corrupt sub-buffers before it, and
 * markers defined after use.
 *
 * `test-ltt-synth --write DIR [be]` only writes the trace into the
 * existing DIR: the seed corpus of the LTT fuzz target (fuzz/seeds.sh).
 */
#include "tview/tview.h"
#include "tview/trace.h"
#include "tview/format.h"
#include "../tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SB_SIZE		4096u
#define ALIGN		8u

/* A sub-buffer being written. */
struct wbuf {
	uint8_t	 b[SB_SIZE];
	size_t	 len;
	bool	 be;
};

/* Store @v on @n bytes at @w->b[@off] in the buffer's byte order. */
static void
store(struct wbuf *w, size_t off, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		w->b[off + (size_t)i] = (uint8_t)(v >> (8 * (w->be ?
		    n - 1 - i : i)));
}

/* Append @v on @n bytes. */
static void
put(struct wbuf *w, uint64_t v, int n)
{
	store(w, w->len, v, n);
	w->len += (size_t)n;
}

/* Pad to a multiple of min(@size, ALIGN). */
static void
pad(struct wbuf *w, size_t size)
{
	size_t a = size < ALIGN ? size : ALIGN;

	while (w->len % a)
		w->b[w->len++] = 0;
}

/* Append a NUL-terminated string. */
static void
put_str(struct wbuf *w, const char *s)
{
	memcpy(w->b + w->len, s, strlen(s) + 1);
	w->len += strlen(s) + 1;
}

/* Start a sub-buffer: the 2.6 header, sizes filled by finish(). */
static void
begin(struct wbuf *w, bool be, uint64_t c0, uint64_t c1, uint32_t lost)
{
	memset(w, 0, sizeof(*w));
	w->be = be;
	put(w, c0, 8);
	put(w, c1, 8);
	put(w, 0x00D6B7ED, 4);
	w->b[w->len++] = 2;
	w->b[w->len++] = 6;
	w->b[w->len++] = 8;		/* arch_size */
	w->b[w->len++] = ALIGN;		/* alignment */
	put(w, 1234, 8);
	put(w, 0, 8);
	put(w, 1000000000, 8);		/* start_freq: 1 GHz */
	put(w, 1, 4);			/* freq_scale */
	put(w, 0, 4);			/* data_size */
	put(w, SB_SIZE, 4);
	put(w, lost, 4);
	put(w, lost ? 2 : 0, 4);	/* subbuf_corrupt */
}

/* Event header: form 0 compact, 29 full TSC, 30 id+size, 31 id. */
static void
head(struct wbuf *w, int form, uint16_t id, uint32_t size, uint64_t tsc)
{
	uint32_t mask = (1u << 27) - 1;

	pad(w, 4);
	put(w, ((uint32_t)(form ? form : id) << 27) | (tsc & mask), 4);
	if (form)
		put(w, id, 2);
	if (form == 29 || form == 30) {
		put(w, size >= 0xFFFF ? 0xFFFF : size, 2);
		if (size >= 0xFFFF)
			put(w, size, 4);
	}
	if (form == 29) {
		pad(w, 8);
		put(w, tsc, 8);
	}
}

/* A metadata core_marker_id event. */
static void
marker_id(struct wbuf *w, uint64_t tsc, const char *ch, const char *name,
    uint16_t id)
{
	head(w, 29, 0, (uint32_t)(strlen(ch) + strlen(name) + 2 +
	    ((strlen(ch) + strlen(name)) % 2) + 7), tsc);
	pad(w, 2);
	put_str(w, ch);
	put_str(w, name);
	pad(w, 2);
	put(w, id, 2);
	w->b[w->len++] = 4;
	w->b[w->len++] = 8;
	w->b[w->len++] = 8;
	w->b[w->len++] = 8;
	w->b[w->len++] = ALIGN;
}

/* A metadata core_marker_format event. */
static void
marker_format(struct wbuf *w, uint64_t tsc, const char *ch,
    const char *name, const char *fmt)
{
	head(w, 29, 1, (uint32_t)(strlen(ch) + strlen(name) + strlen(fmt) +
	    3), tsc);
	pad(w, 2);
	put_str(w, ch);
	put_str(w, name);
	put_str(w, fmt);
}

/* Payload of ev_a: "a %d b #1u%u c %s d %llu", 16 bytes. */
static void
ev_a(struct wbuf *w, int32_t a, uint8_t b, const char *c, uint64_t d)
{
	pad(w, 8);
	put(w, (uint32_t)a, 4);
	w->b[w->len++] = b;
	put_str(w, c);
	pad(w, 8);
	put(w, d, 8);
}

/* Close the sub-buffer: data_size, then write it at the end of @path. */
static bool
finish(struct wbuf *w, const char *path, bool append)
{
	FILE *fp = fopen(path, append ? "ab" : "wb");
	bool ok;

	store(w, 0x34, w->len, 4);
	if (!fp)
		return false;
	ok = fwrite(w->b, 1, SB_SIZE, fp) == SB_SIZE;
	return fclose(fp) == 0 && ok;
}

/* Write the trace in @dir. */
static bool
write_trace(const char *dir, bool be)
{
	struct wbuf w;
	char path[512];
	bool ok;

	snprintf(path, sizeof(path), "%s/metadata_0", dir);
	begin(&w, be, 0, 50, 0);
	marker_id(&w, 10, "kernel", "ev_a", 0);
	marker_id(&w, 11, "kernel", "ev_big", 40);
	marker_format(&w, 12, "kernel", "ev_a", "a %d b #1u%u c %s d %llu");
	ok = finish(&w, path, false);
	/* defined after use: still decoded, as LTTV reads all metadata */
	begin(&w, be, 60, 70, 0);
	marker_format(&w, 65, "kernel", "ev_big", "x %p");
	ok = ok && finish(&w, path, true);

	snprintf(path, sizeof(path), "%s/kernel_0", dir);
	begin(&w, be, 1000, (1u << 27) + 200, 0);
	head(&w, 0, 0, 0, 1005);
	ev_a(&w, -7, 200, "hi", UINT64_C(0x1122334455667788));
	head(&w, 0, 0, 0, (1u << 27) + 3);		/* wraps */
	ev_a(&w, 1, 2, "", 3);
	head(&w, 31, 40, 0, (1u << 27) + 10);
	pad(&w, 8);
	put(&w, UINT64_C(0xdeadbeefcafef00d), 8);
	head(&w, 30, 40, 8, (1u << 27) + 20);
	pad(&w, 8);
	put(&w, 42, 8);
	ok = ok && finish(&w, path, false);
	begin(&w, be, UINT64_C(1) << 31, (UINT64_C(1) << 31) + 10, 3);
	head(&w, 29, 0, 0xFFFF, (UINT64_C(1) << 31) + 1);
	store(&w, w.len - 12, 16, 4);	/* the escaped 32-bit size */
	ev_a(&w, 9, 9, "x", 9);
	return ok && finish(&w, path, true);
}

/* Open @dir and check every record. */
static void
check_trace(const char *dir, const char *label)
{
	const char *paths[1] = { dir };
	struct tv_trace_set *set = NULL;
	struct tv_stream *k = NULL;
	struct tv_arena a;
	struct tv_error err;
	uint64_t want_ts[] = { 1005, (1u << 27) + 3, (1u << 27) + 10,
	    (1u << 27) + 20, 0, 0, (UINT64_C(1) << 31) + 1 };
	uint32_t i, r = 0;
	uint64_t p;

	tv_error_clear(&err);
	if (!ok(tv_trace_set_open(&set, paths, 1,
	    tv_format_registry(), &err) == TV_OK,
	    "%s: opens", label)) {
		diag("%s", err.msg);
		return;
	}
	is_str(set->traces[0]->ops->name, "ltt", "%s: the LTT driver",
	    label);
	for (i = 0; i < set->nstreams; i++)
		if (strcmp(set->streams[i]->name, "kernel_0") == 0)
			k = set->streams[i];
	if (!ok(k != NULL, "%s: kernel_0 stream", label))
		goto out;
	is_int(k->npackets, 2, "%s: two sub-buffers", label);
	tv_arena_init(&a);
	for (p = 0; p < k->npackets; p++) {
		struct tv_packet_events pe;
		uint64_t j;

		memset(&pe, 0, sizeof(pe));
		is_int(k->trace->ops->decode_packet(k, p, &pe), TV_OK,
		    "%s: packet %llu decodes", label, (unsigned long long)p);
		if (pe.status != TV_OK)
			diag("%s", pe.err.msg);
		for (j = 0; j < pe.count && r < TV_ARRAY_SIZE(want_ts);
		    j++, r++) {
			struct tv_event ev = { k, p, j, pe.recs[j] };
			struct tv_event_fields f;
			const struct tv_value *v;

			if (r == 4) {
				is_int(pe.recs[j].kind, TV_REC_DISCARDED,
				    "%s: lost-events record", label);
				is_int(pe.recs[j].count, 3, "%s: 3 lost",
				    label);
				continue;
			}
			if (r == 5) {
				is_int(pe.recs[j].kind, TV_REC_LOST_PACKETS,
				    "%s: corrupt sub-buffers record", label);
				is_int(pe.recs[j].count, 2, "%s: 2 corrupt",
				    label);
				continue;
			}
			is_int(pe.recs[j].ts, (int64_t)want_ts[r],
			    "%s: record %u time", label, r);
			tv_arena_reset(&a);
			if (tv_event_decode(&ev, &a, &f, &err) != TV_OK ||
			    !(v = f.scope[TV_SCOPE_EVENT_PAYLOAD])) {
				ok(false, "%s: record %u fields", label, r);
				continue;
			}
			if (r == 0) {
				is_int(v->kids.count, 4, "%s: 4 fields",
				    label);
				is_int(v->kids.items[0].s, -7, "%s: a",
				    label);
				is_int(v->kids.items[1].u, 200, "%s: b",
				    label);
				ok(v->kids.items[2].str.len == 2 &&
				    memcmp(v->kids.items[2].str.ptr, "hi",
				    2) == 0, "%s: c", label);
				ok(v->kids.items[3].u ==
				    UINT64_C(0x1122334455667788), "%s: d",
				    label);
			} else if (r == 2) {
				ok(v->kids.items[0].u ==
				    UINT64_C(0xdeadbeefcafef00d),
				    "%s: 64-bit pointer", label);
			} else if (r == 3) {
				is_int(v->kids.items[0].u, 42,
				    "%s: sized event", label);
			} else if (r == 6) {
				is_int(v->kids.items[0].s, 9,
				    "%s: after a 32-bit size", label);
			}
		}
		tv_packet_events_fini(&pe);
	}
	is_int(r, TV_ARRAY_SIZE(want_ts), "%s: every record seen", label);
	tv_arena_fini(&a);
out:
	tv_trace_set_close(set);
}

/* Write, read back and remove a trace of each byte order. */
int
main(int argc, char **argv)
{
	int be;

	if (argc >= 3 && strcmp(argv[1], "--write") == 0)
		return write_trace(argv[2], argc > 3 &&
		    strcmp(argv[3], "be") == 0) ? 0 : 1;

	for (be = 0; be < 2; be++) {
		char dir[] = "/tmp/tview-ltt-synth.XXXXXX";
		char path[600];
		const char *label = be ? "big endian" : "little endian";

		if (!mkdtemp(dir)) {
			ok(false, "temporary directory");
			continue;
		}
		if (ok(write_trace(dir, be != 0), "%s: written", label))
			check_trace(dir, label);
		snprintf(path, sizeof(path), "%s/metadata_0", dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/kernel_0", dir);
		unlink(path);
		rmdir(dir);
	}
	return tv_done();
}
