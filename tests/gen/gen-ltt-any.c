/*
 * gen-ltt --eventdefs DIR: events of any facility definitions, such as the
 * real LTTng 0.x facility files of $TVIEW_SHARED/traces/ltt-facilities
 * (copied into the trace at test time, never into the repo).  The
 * definitions are read with tview's parser (the only definition of the
 * facility checksum); the values are random, written with the alignment
 * rules of the facility era and printed as LTTV's textDump prints them.
 */
#include "tview/tview.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tview/util.h"
#include "../../src/formats/ltt/ltt-xml.h"
#include "gen-ltt.h"

#define MAX_DEPTH	16

/* A small generator for one payload (so a retry writes the same). */
static uint64_t
vrnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

/* The label LTTV prints for @v of enum class @fc, or NULL. */
static const char *
label_of(const struct tv_field_class *fc, uint64_t v)
{
	uint32_t i;

	for (i = 0; i < fc->enumeration.nmaps; i++)
		if (fc->enumeration.maps[i].ranges[0].lo == v)
			return fc->enumeration.maps[i].label;
	return NULL;
}

/* Write a random integer of class @ic (aligned as @fc) and print it. */
static uint64_t
put_int(struct pw *w, const struct tv_field_class *fc,
    const struct tv_int_class *ic, uint64_t v)
{
	unsigned n = ic->size / 8;
	unsigned i;

	w->pos += pad(w->pos, fc->align / 8, w->al);
	if (w->pos + n > w->end) {
		w->ok = false;
		return 0;
	}
	if (n < 8)
		v &= (UINT64_C(1) << (n * 8)) - 1;
	for (i = 0; i < n; i++)
		w->blk[w->pos + (ic->byte_order == TV_BO_BE ? n - 1 - i : i)] =
		    (uint8_t)(v >> (8 * i));
	w->pos += n;
	return v;
}

static void gen_value(struct pw *w, const struct tv_field_class *fc,
		    uint64_t *s, unsigned depth);

/* Elements of an array or sequence: "{ a, b }". */
static void
gen_elems(struct pw *w, const struct tv_field_class *elem, uint64_t n,
    uint64_t *s, unsigned depth)
{
	struct tv_strbuf *t = &w->g->text;
	uint64_t i;

	tv_strbuf_adds(t, "{ ");
	for (i = 0; i < n && w->ok; i++) {
		if (i)
			tv_strbuf_adds(t, ", ");
		gen_value(w, elem, s, depth + 1);
	}
	tv_strbuf_adds(t, n ? " }" : "}");
}

/* One random value of class @fc, written and printed. */
static void
gen_value(struct pw *w, const struct tv_field_class *fc, uint64_t *s,
    unsigned depth)
{
	static const char *const strs[] = { "", "swapper", "/bin/sh",
	    "eth0", "a longer string with spaces" };
	struct tv_strbuf *t = &w->g->text;
	uint64_t v;
	uint32_t i;

	if (!w->ok || depth > MAX_DEPTH) {
		w->ok = false;
		return;
	}
	switch (fc->kind) {
	case TV_FC_INT:
		v = put_int(w, fc, &fc->integer, vrnd(s) >> (vrnd(s) % 64));
		if (fc->integer.base == 16)
			tv_strbuf_addf(t, "0x%" PRIx64, v);
		else if (fc->integer.is_signed) {
			unsigned n = fc->integer.size;

			if (n < 64 && (v >> (n - 1)) & 1)
				v |= ~UINT64_C(0) << n;
			tv_strbuf_addf(t, "%" PRId64, (int64_t)v);
		} else
			tv_strbuf_addf(t, "%" PRIu64, v);
		break;
	case TV_FC_ENUM: {
		const char *l;

		v = vrnd(s);
		if (fc->enumeration.nmaps && v % 4)
			v = fc->enumeration.maps[v %
			    fc->enumeration.nmaps].ranges[0].lo;
		v = put_int(w, fc, &fc->enumeration.integer, v);
		l = label_of(fc, v);
		if (l)
			tv_strbuf_adds(t, l);
		else
			tv_strbuf_addf(t, "%" PRIu64, v);
		break;
	}
	case TV_FC_FLOAT: {
		struct tv_int_class ic = { .size = fc->flt.mant_dig == 24 ?
		    32 : 64, .byte_order = fc->flt.byte_order };
		double x = (double)((int64_t)(vrnd(s) % 4001) - 2000) / 4.0;
		float f = (float)x;
		uint64_t bits = 0;
		uint32_t b32;

		if (ic.size == 32) {
			memcpy(&b32, &f, sizeof(b32));
			bits = b32;
		} else {
			memcpy(&bits, &x, sizeof(bits));
		}
		put_int(w, fc, &ic, bits);
		tv_strbuf_addf(t, "%g", x);
		break;
	}
	case TV_FC_STRING: {
		const char *str = strs[vrnd(s) % 5];
		size_t n = strlen(str) + 1;

		if (w->pos + n > w->end) {
			w->ok = false;
			break;
		}
		memcpy(w->blk + w->pos, str, n);
		w->pos += n;
		tv_strbuf_addf(t, "\"%s\"", str);
		break;
	}
	case TV_FC_STRUCT:
		w->pos += pad(w->pos, fc->align / 8, w->al);
		tv_strbuf_adds(t, "{ ");
		for (i = 0; i < fc->structure.nmembers && w->ok; i++) {
			if (i)
				tv_strbuf_adds(t, ", ");
			tv_strbuf_addf(t, "%s = ",
			    fc->structure.members[i].name);
			gen_value(w, fc->structure.members[i].fc, s,
			    depth + 1);
		}
		tv_strbuf_adds(t, fc->structure.nmembers ? " }" : "}");
		break;
	case TV_FC_VARIANT:
		w->pos += pad(w->pos, fc->align / 8, w->al);
		if (fc->variant.noptions == 0) {
			w->ok = false;
			break;
		}
		v = vrnd(s) % fc->variant.noptions;
		put_int(w, fc->variant.tag_fc, &fc->variant.tag_fc->integer,
		    v);
		tv_strbuf_addf(t, "{ %s = ", fc->variant.options[v].name);
		gen_value(w, fc->variant.options[v].fc, s, depth + 1);
		tv_strbuf_adds(t, " }");
		break;
	case TV_FC_ARRAY:
		w->pos += pad(w->pos, fc->align / 8, w->al);
		gen_elems(w, fc->array.elem, fc->array.length, s, depth);
		break;
	case TV_FC_SEQUENCE: {
		const struct ltt_xseq_fc *q = (const struct ltt_xseq_fc *)fc;

		w->pos += pad(w->pos, fc->align / 8, w->al);
		v = put_int(w, q->len, &q->len->integer, vrnd(s) % 5);
		gen_elems(w, fc->array.elem, v, s, depth);
		break;
	}
	default:
		w->ok = false;
		break;
	}
}

/* See gen-ltt.h. */
void
gen_any_payload(struct pw *w, const struct tv_field_class *fc,
    uint64_t seed)
{
	uint64_t s = seed | 1;

	tv_strbuf_addc(&w->g->text, ' ');
	gen_value(w, fc, &s, 0);
}

/* See gen-ltt.h. */
int
gen_any_load(struct gen *g, const char *src, const char *dir)
{
	struct dirent **ents = NULL;
	struct tv_error err;
	int i, n, rc = 0;

	g->any_arena = tv_xcalloc(1, sizeof(*g->any_arena));
	tv_arena_init(g->any_arena);
	g->any = tv_xcalloc(1, sizeof(*g->any));
	ltt_xdefs_init(g->any, g->any_arena);
	if (ltt_xdefs_load_dir(g->any, src, &err) != TV_OK) {
		char buf[1200];

		fprintf(stderr, "gen-ltt: %s\n",
		    tv_error_format(&err, buf, sizeof(buf)));
		return -1;
	}
	/* Copy the definitions into the trace, as the tracer did. */
	n = scandir(src, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		size_t len = strlen(ents[i]->d_name);
		char *from, *to, *buf;
		FILE *in, *out;
		size_t k;

		if (len > 4 && strcmp(ents[i]->d_name + len - 4, ".xml") == 0) {
			tv_xasprintf(&from, "%s/%s", src, ents[i]->d_name);
			tv_xasprintf(&to, "%s/eventdefs/%s", dir,
			    ents[i]->d_name);
			in = fopen(from, "rb");
			out = fopen(to, "wb");
			buf = tv_xmalloc(65536);
			while (in && out && (k = fread(buf, 1, 65536, in)) > 0)
				fwrite(buf, 1, k, out);
			if (!in || !out)
				rc = -1;
			if (in)
				fclose(in);
			if (out && fclose(out) != 0)
				rc = -1;
			free(buf);
			free(from);
			free(to);
		}
		free(ents[i]);
	}
	free(ents);
	return rc;
}
