/*
 * Unit tests of the CTF bit decoder: integers of every size at every bit
 * offset in both byte orders against a naive bit-by-bit reader, sign
 * extension, strings, alignment, sequences with hostile lengths, variants
 * and the O(1) skip of fixed-size structs; the flat event-header
 * decoder, the header skip and a struct decoded a member at a time.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/util.h"
#include "../src/formats/ctf/ctf-decode.h"

static int failures;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		failures++;						\
		printf("# FAIL %s:%d: ", __FILE__, __LINE__);		\
		printf(__VA_ARGS__);					\
		putchar('\n');						\
	}								\
} while (0)

/* The reference: one bit at a time, CTF bit numbering. */
static uint64_t
naive(const uint8_t *b, uint64_t pos, uint32_t size, bool be)
{
	uint64_t v = 0;
	uint32_t k;

	for (k = 0; k < size; k++) {
		uint64_t p = pos + k;
		unsigned bit;

		if (be) {
			bit = (b[p / 8] >> (7 - p % 8)) & 1;
			v = (v << 1) | bit;
		} else {
			bit = (b[p / 8] >> (p % 8)) & 1;
			v |= (uint64_t)bit << k;
		}
	}
	return v;
}

/* A zeroed class of @kind in @a. */
static struct tv_field_class *
fc_new(struct tv_arena *a, enum tv_fc_kind kind)
{
	struct tv_field_class *fc = tv_arena_zalloc(a, sizeof(*fc));

	fc->kind = kind;
	fc->align = 1;
	fc->save_slot = -1;
	return fc;
}

/* An integer class. */
static struct tv_field_class *
int_new(struct tv_arena *a, uint32_t size, bool sgn, enum tv_byte_order bo,
    uint32_t align)
{
	struct tv_field_class *fc = fc_new(a, TV_FC_INT);

	fc->integer.size = size;
	fc->integer.is_signed = sgn;
	fc->integer.byte_order = bo;
	fc->integer.base = 10;
	fc->align = align;
	return fc;
}

/* Every size and offset, both orders, in the middle and at the very end. */
static void
test_ints(struct tv_arena *a)
{
	uint8_t buf[32];
	uint32_t size, off, i, bo;
	uint64_t slots[1];

	srand(1);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rand();
	for (bo = 0; bo < 2; bo++) {
		for (size = 1; size <= 64; size++) {
			struct tv_field_class *fc = int_new(a, size, false,
			    bo ? TV_BO_BE : TV_BO_LE, 1);

			for (off = 0; off < 8; off++) {
				uint64_t pos[2] = { 8 + off,
				    sizeof(buf) * 8 - size - off };
				int k;

				for (k = 0; k < 2; k++) {
					struct ctf_dec d;
					struct tv_value v;
					enum tv_status st;

					ctf_dec_init(&d, buf, sizeof(buf), 0,
					    "mem", slots, 1, NULL);
					d.pos = pos[k];
					memset(&v, 0, sizeof(v));
					st = ctf_dec_field(&d, fc, &v);
					CHECK(st == TV_OK, "status %d", st);
					CHECK(v.u == naive(buf, pos[k], size, bo),
					    "%s size %u pos %llu: %llx != %llx",
					    bo ? "be" : "le", size,
					    (unsigned long long)pos[k],
					    (unsigned long long)v.u,
					    (unsigned long long)naive(buf,
					    pos[k], size, bo));
					CHECK(d.pos == pos[k] + size, "pos");
				}
			}
		}
	}
}

/* Known values: the CTF spec's bit order and sign extension. */
static void
test_known(struct tv_arena *a)
{
	static const uint8_t b[] = { 0xab, 0xcd, 0xff };
	struct tv_field_class *le4 = int_new(a, 4, false, TV_BO_LE, 1);
	struct tv_field_class *be4 = int_new(a, 4, false, TV_BO_BE, 1);
	struct tv_field_class *le12 = int_new(a, 12, false, TV_BO_LE, 1);
	struct tv_field_class *be12 = int_new(a, 12, false, TV_BO_BE, 1);
	struct tv_field_class *s4 = int_new(a, 4, true, TV_BO_LE, 1);
	struct tv_value v;
	struct ctf_dec d;

	ctf_dec_init(&d, b, sizeof(b), 0, "mem", NULL, 0, NULL);
	ctf_dec_field(&d, le4, &v);
	CHECK(v.u == 0xb, "le4 %llx", (unsigned long long)v.u);
	ctf_dec_field(&d, le12, &v);
	CHECK(v.u == 0xcda, "le12 %llx", (unsigned long long)v.u);
	ctf_dec_init(&d, b, sizeof(b), 0, "mem", NULL, 0, NULL);
	ctf_dec_field(&d, be4, &v);
	CHECK(v.u == 0xa, "be4 %llx", (unsigned long long)v.u);
	ctf_dec_field(&d, be12, &v);
	CHECK(v.u == 0xbcd, "be12 %llx", (unsigned long long)v.u);
	ctf_dec_field(&d, s4, &v);
	CHECK(v.s == -1, "s4 %lld", (long long)v.s);
	/* 4 bits left: a 12-bit read must fail, not read past the end. */
	CHECK(ctf_dec_field(&d, le12, &v) == TV_CORRUPT, "past end");
}

/* Strings, struct alignment, sequences, variants, fixed skips. */
static void
test_compound(struct tv_arena *a)
{
	uint8_t b[64];
	struct tv_field_class *u8 = int_new(a, 8, false, TV_BO_LE, 8);
	struct tv_field_class *u32 = int_new(a, 32, false, TV_BO_LE, 32);
	struct tv_field_class *len = int_new(a, 8, false, TV_BO_LE, 8);
	struct tv_field_class *str = fc_new(a, TV_FC_STRING);
	struct tv_field_class *seq = fc_new(a, TV_FC_SEQUENCE);
	struct tv_field_class *st = fc_new(a, TV_FC_STRUCT);
	struct tv_field_class *fixed = fc_new(a, TV_FC_STRUCT);
	struct tv_field_class *tag = fc_new(a, TV_FC_ENUM);
	struct tv_field_class *var = fc_new(a, TV_FC_VARIANT);
	struct tv_field_member *m = tv_arena_zalloc(a, sizeof(*m) * 5);
	struct tv_field_member *fm = tv_arena_zalloc(a, sizeof(*fm) * 2);
	struct tv_field_member *opts = tv_arena_zalloc(a, sizeof(*opts) * 2);
	struct tv_enum_mapping *maps = tv_arena_zalloc(a, sizeof(*maps) * 2);
	struct tv_enum_range *r = tv_arena_zalloc(a, sizeof(*r) * 2);
	uint64_t slots[2];
	struct tv_value v;
	struct ctf_dec d;
	enum tv_status s;

	str->align = 8;
	len->save_slot = 0;
	seq->array.elem = u8;
	seq->array.length_slot = 0;
	tag->enumeration.integer = u8->integer;
	tag->align = 8;
	tag->save_slot = 1;
	r[0].lo = 0;
	r[0].hi = 0;
	r[1].lo = 1;
	r[1].hi = 9;
	maps[0].label = "small";
	maps[0].ranges = &r[0];
	maps[0].nranges = 1;
	maps[1].label = "big";
	maps[1].ranges = &r[1];
	maps[1].nranges = 1;
	tag->enumeration.maps = maps;
	tag->enumeration.nmaps = 2;
	opts[0].name = "_small";
	opts[0].fc = u8;
	opts[1].name = "big";
	opts[1].fc = u32;
	var->variant.options = opts;
	var->variant.noptions = 2;
	var->variant.tag_slot = 1;
	var->variant.tag_fc = tag;
	m[0].name = "s";
	m[0].fc = str;
	m[1].name = "len";
	m[1].fc = len;
	m[2].name = "seq";
	m[2].fc = seq;
	m[3].name = "tag";
	m[3].fc = tag;
	m[4].name = "v";
	m[4].fc = var;
	st->structure.members = m;
	st->structure.nmembers = 5;
	fm[0].name = "a";
	fm[0].fc = u8;
	fm[1].name = "b";
	fm[1].fc = u32;
	fixed->structure.members = fm;
	fixed->structure.nmembers = 2;
	ctf_fc_prepare(st, a);
	ctf_fc_prepare(fixed, a);
	CHECK(fixed->skip_fixed && fixed->skip_bits == 64 &&
	    fixed->align == 32, "fixed struct %d %llu %u", fixed->skip_fixed,
	    (unsigned long long)fixed->skip_bits, fixed->align);
	CHECK(!st->skip_fixed, "variable struct is not fixed");
	CHECK(var->variant.opt_of_map[0] == 0 &&
	    var->variant.opt_of_map[1] == 1, "variant map");

	memset(b, 0, sizeof(b));
	memcpy(b, "hi", 3);		/* s */
	b[3] = 2;			/* len */
	b[4] = 'x';			/* seq */
	b[5] = 'y';
	b[6] = 5;			/* tag: big */
	b[8] = 0x78;			/* v.big at 8 (aligned) */
	b[9] = 0x56;
	b[10] = 0x34;
	b[11] = 0x12;
	ctf_dec_init(&d, b, 12, 0, "mem", slots, 2, NULL);
	d.arena = a;
	memset(&v, 0, sizeof(v));
	s = ctf_dec_field(&d, st, &v);
	CHECK(s == TV_OK, "struct status %d", s);
	CHECK(v.kids.count == 5, "members");
	CHECK(v.kids.items[0].str.len == 2 &&
	    memcmp(v.kids.items[0].str.ptr, "hi", 2) == 0, "string");
	CHECK(v.kids.items[2].kids.count == 2 &&
	    v.kids.items[2].kids.items[1].u == 'y', "sequence");
	CHECK(v.kids.items[4].kids.count == 1 &&
	    v.kids.items[4].kids.items[0].u == 0x12345678, "variant %llx",
	    (unsigned long long)v.kids.items[4].kids.items[0].u);
	CHECK(d.pos == 96, "end pos %llu", (unsigned long long)d.pos);

	/* Skip mode gives the same end position. */
	ctf_dec_init(&d, b, 12, 0, "mem", slots, 2, NULL);
	CHECK(ctf_dec_field(&d, st, NULL) == TV_OK && d.pos == 96, "skip");

	/* Hostile sequence length: an error, no allocation. */
	b[3] = 200;
	ctf_dec_init(&d, b, 12, 0, "mem", slots, 2, NULL);
	d.arena = a;
	CHECK(ctf_dec_field(&d, st, &v) == TV_CORRUPT, "hostile length");

	/* Unknown tag value: an error. */
	b[3] = 2;
	b[6] = 77;
	ctf_dec_init(&d, b, 12, 0, "mem", slots, 2, NULL);
	CHECK(ctf_dec_field(&d, st, NULL) == TV_CORRUPT, "unknown tag");

	/* Unterminated string. */
	memset(b, 'a', sizeof(b));
	ctf_dec_init(&d, b, 8, 0, "mem", slots, 2, NULL);
	CHECK(ctf_dec_field(&d, str, NULL) == TV_CORRUPT, "unterminated");
}

/*
 * The flat header decoder agrees with the general one, on LTTng's compact
 * header (@idbits 5, a 27-bit timestamp) or its large one (16, 32), and
 * takes the one-load path for them.
 */
static void
test_hprog(struct tv_arena *a, uint32_t idbits)
{
	struct tv_field_class *id = fc_new(a, TV_FC_ENUM);
	struct tv_field_class *ts27 = int_new(a, idbits == 5 ? 27 : 32, false,
	    TV_BO_LE, idbits == 5 ? 1 : 8);
	struct tv_field_class *xid = int_new(a, 32, false, TV_BO_LE, 8);
	struct tv_field_class *ts64 = int_new(a, 64, false, TV_BO_LE, 8);
	struct tv_field_class *compact = fc_new(a, TV_FC_STRUCT);
	struct tv_field_class *ext = fc_new(a, TV_FC_STRUCT);
	struct tv_field_class *var = fc_new(a, TV_FC_VARIANT);
	struct tv_field_class *hdr = fc_new(a, TV_FC_STRUCT);
	struct tv_field_member *cm = tv_arena_zalloc(a, sizeof(*cm));
	struct tv_field_member *em = tv_arena_zalloc(a, sizeof(*em) * 2);
	struct tv_field_member *opts = tv_arena_zalloc(a, sizeof(*opts) * 2);
	struct tv_field_member *hm = tv_arena_zalloc(a, sizeof(*hm) * 2);
	struct tv_enum_mapping *maps = tv_arena_zalloc(a, sizeof(*maps) * 2);
	struct tv_enum_range *r = tv_arena_zalloc(a, sizeof(*r) * 2);
	struct ctf_hprog *hp;
	uint8_t buf[4096];
	uint64_t slots[1], pos1, pos2, clk1, clk2, id1, id2;
	struct ctf_dec d1, d2;
	unsigned i;
	int k, bad = 0;

	id->enumeration.integer = ts27->integer;
	id->enumeration.integer.size = idbits;
	id->align = idbits == 5 ? 1 : 8;
	id->save_slot = 0;
	id->role = TV_ROLE_EVENT_ID;
	r[0].lo = 0;
	r[0].hi = (UINT64_C(1) << idbits) - 2;
	r[1].lo = r[0].hi + 1;
	r[1].hi = r[0].hi + 1;
	maps[0].label = "compact";
	maps[0].ranges = &r[0];
	maps[0].nranges = 1;
	maps[1].label = "extended";
	maps[1].ranges = &r[1];
	maps[1].nranges = 1;
	id->enumeration.maps = maps;
	id->enumeration.nmaps = 2;
	ts27->role = TV_ROLE_TIMESTAMP;
	ts64->role = TV_ROLE_TIMESTAMP;
	xid->role = TV_ROLE_EVENT_ID;
	cm[0].name = "timestamp";
	cm[0].fc = ts27;
	compact->structure.members = cm;
	compact->structure.nmembers = 1;
	em[0].name = "id";
	em[0].fc = xid;
	em[1].name = "timestamp";
	em[1].fc = ts64;
	ext->structure.members = em;
	ext->structure.nmembers = 2;
	opts[0].name = "compact";
	opts[0].fc = compact;
	opts[1].name = "extended";
	opts[1].fc = ext;
	var->variant.options = opts;
	var->variant.noptions = 2;
	var->variant.tag_slot = 0;
	var->variant.tag_fc = id;
	hm[0].name = "id";
	hm[0].fc = id;
	hm[1].name = "v";
	hm[1].fc = var;
	hdr->structure.members = hm;
	hdr->structure.nmembers = 2;
	hdr->align = 32;
	ctf_fc_prepare(hdr, a);
	hp = ctf_hprog_build(hdr, a);
	CHECK(hp != NULL, "no flat decoder for the %u-bit id header", idbits);
	if (!hp)
		return;
	CHECK(hp->word, "no one-load path for the %u-bit id header", idbits);
	srand(7);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rand();
	ctf_dec_init(&d1, buf, sizeof(buf), 0, "mem", slots, 1, NULL);
	ctf_dec_init(&d2, buf, sizeof(buf), 0, "mem", slots, 1, NULL);
	for (k = 0; k < 200; k++) {
		enum tv_status s1 = ctf_dec_field(&d1, hdr, NULL);
		enum tv_status s2 = ctf_hprog_run(&d2, hp);

		pos1 = d1.pos;
		pos2 = d2.pos;
		clk1 = d1.clock;
		clk2 = d2.clock;
		id1 = d1.roles[TV_ROLE_EVENT_ID];
		id2 = d2.roles[TV_ROLE_EVENT_ID];
		if (s1 != s2 || pos1 != pos2 || clk1 != clk2 || id1 != id2)
			bad++;
		if (s1 != TV_OK)
			break;
	}
	CHECK(bad == 0 && k > 20,
	    "flat and general decoders disagree (%d, %d headers, %u-bit id)",
	    bad, k, idbits);
}

/* A struct of the @n classes @fcs, members named m0, m1, ... */
static struct tv_field_class *
struct_of(struct tv_arena *a, struct tv_field_class **fcs, uint32_t n)
{
	static const char *const names[] = { "m0", "m1", "m2", "m3" };
	struct tv_field_class *st = fc_new(a, TV_FC_STRUCT);
	struct tv_field_member *m = tv_arena_zalloc(a, sizeof(*m) * n);
	uint32_t i;

	for (i = 0; i < n; i++) {
		m[i].name = names[i];
		m[i].fc = fcs[i];
	}
	st->structure.members = m;
	st->structure.nmembers = n;
	return st;
}

/*
 * When may a decode step over an event header the packet walk read:
 * never when a later scope reads a save slot the header fills, or moves
 * the clock (the walk's clock would be the event's end, not its header's).
 */
static void
test_head_skip(struct tv_arena *a)
{
	struct tv_field_class *id = int_new(a, 16, false, TV_BO_LE, 8);
	struct tv_field_class *ts = int_new(a, 32, false, TV_BO_LE, 8);
	struct tv_field_class *own = int_new(a, 8, false, TV_BO_LE, 8);
	struct tv_field_class *plain = int_new(a, 32, true, TV_BO_LE, 8);
	struct tv_field_class *clk = int_new(a, 64, false, TV_BO_LE, 8);
	struct tv_field_class *by_id = fc_new(a, TV_FC_SEQUENCE);
	struct tv_field_class *by_own = fc_new(a, TV_FC_SEQUENCE);
	struct tv_field_class *var = fc_new(a, TV_FC_VARIANT);
	struct tv_field_class *dyn = fc_new(a, TV_FC_STRING);
	struct tv_field_class *f[3], *hdr, *pay, *deep;
	const struct tv_field_class *rest[3];
	static const struct tv_clock clock;

	id->save_slot = 0;
	id->role = TV_ROLE_EVENT_ID;
	ts->role = TV_ROLE_TIMESTAMP;
	own->save_slot = 1;
	clk->integer.map_clock = &clock;
	by_id->array.elem = plain;
	by_id->array.length_slot = 0;
	by_own->array.elem = plain;
	by_own->array.length_slot = 1;
	var->variant.tag_slot = 0;
	f[0] = id;
	f[1] = ts;
	hdr = struct_of(a, f, 2);

	/* plain integers, a sequence of their own length: skippable */
	f[0] = plain;
	f[1] = own;
	f[2] = by_own;
	rest[0] = NULL;
	rest[1] = NULL;
	rest[2] = struct_of(a, f, 3);
	CHECK(ctf_head_skippable(hdr, rest, 3),
	    "a payload of its own fields keeps the header decoded");
	/* a sequence whose length is the header's id, one level down */
	f[0] = plain;
	f[1] = by_id;
	deep = struct_of(a, f, 2);
	f[0] = deep;
	pay = struct_of(a, f, 1);
	rest[2] = pay;
	CHECK(!ctf_head_skippable(hdr, rest, 3),
	    "a sequence sized by the header's id lets the header be skipped");
	CHECK(ctf_fc_reads_slot(pay, 0) && !ctf_fc_reads_slot(pay, 1),
	    "slot readers of a nested sequence misfound");
	/* a variant tagged by the header's id, in the stream's context */
	rest[0] = var;
	rest[2] = NULL;
	CHECK(!ctf_head_skippable(hdr, rest, 3),
	    "a variant tagged by the header's id lets the header be skipped");
	/* a CTF 2 dynamic-length string sized by the header's id */
	dyn->string.len_kind = TV_STR_DYNAMIC;
	dyn->string.length_slot = 0;
	f[0] = dyn;
	rest[0] = struct_of(a, f, 1);
	CHECK(!ctf_head_skippable(hdr, rest, 3),
	    "a string sized by the header's id lets the header be skipped");
	/* a field mapped to the clock moves it after the header */
	f[0] = clk;
	rest[0] = NULL;
	rest[1] = struct_of(a, f, 1);
	CHECK(!ctf_head_skippable(hdr, rest, 3),
	    "a clock-mapped context field lets the header be skipped");
}

/* What test_members() saw: the members handed over, as "name=kind". */
struct seen_members {
	char	 text[128];
	size_t	 len;
};

static void
note_member(void *ctx, const struct tv_value *v, const uint8_t *bytes)
{
	struct seen_members *sm = ctx;
	int n;

	n = snprintf(sm->text + sm->len, sizeof(sm->text) - sm->len,
	    "%s%s=%s", sm->len ? " " : "", v->name ? v->name : "?",
	    bytes != NULL ? "bytes" : v->fc == NULL ? "?" :
	    v->fc->kind == TV_FC_STRING ? "string" : "tree");
	if (n > 0 && (size_t)n < sizeof(sm->text) - sm->len)
		sm->len += (size_t)n;
}

/*
 * A struct's members one at a time (ctf_dec_struct_each with
 * CTF_EACH_LIMITS, the search's
 * payload walk): the strings, text arrays (as bytes) and compound
 * members, never the numbers; the same end, the same value and step
 * charges and the same errors as the whole tree's decode.
 */
static void
test_members(struct tv_arena *a)
{
	uint8_t b[16];
	struct tv_field_class *u8 = int_new(a, 8, false, TV_BO_LE, 8);
	struct tv_field_class *ch = int_new(a, 8, false, TV_BO_LE, 8);
	struct tv_field_class *len = int_new(a, 8, false, TV_BO_LE, 8);
	struct tv_field_class *str = fc_new(a, TV_FC_STRING);
	struct tv_field_class *text = fc_new(a, TV_FC_SEQUENCE);
	struct tv_field_class *nums = fc_new(a, TV_FC_ARRAY);
	struct tv_field_class *f[4], *st, *outer;
	struct seen_members sm;
	uint64_t slots[1], values, steps, pos;
	struct tv_value v;
	struct ctf_dec d;
	enum tv_status s;

	ch->integer.encoding = TV_ENC_UTF8;
	len->save_slot = 0;
	text->array.elem = ch;
	text->array.length_slot = 0;
	nums->array.elem = u8;
	nums->array.length = 2;
	f[0] = str;
	f[1] = len;
	f[2] = text;
	f[3] = nums;
	st = struct_of(a, f, 4);	/* m0 string, m1 len, m2 text, m3 */
	f[0] = u8;
	f[1] = st;
	outer = struct_of(a, f, 2);	/* m0 number, m1 the struct */
	ctf_fc_prepare(outer, a);

	memset(b, 0, sizeof(b));
	memcpy(b, "hi", 3);		/* m0 */
	b[3] = 3;			/* m1: the text's length */
	memcpy(b + 4, "abc", 3);	/* m2 */
	b[7] = 1;			/* m3 */
	b[8] = 2;
	ctf_dec_init(&d, b, 9, 0, "mem", slots, 1, NULL);
	d.arena = a;
	memset(&v, 0, sizeof(v));
	s = ctf_dec_field(&d, st, &v);
	values = d.values;
	steps = d.steps;
	pos = d.pos;
	CHECK(s == TV_OK && pos == 72, "tree %d at %llu", s,
	    (unsigned long long)pos);
	memset(&sm, 0, sizeof(sm));
	ctf_dec_init(&d, b, 9, 0, "mem", slots, 1, NULL);
	d.arena = a;
	s = ctf_dec_struct_each(&d, st, CTF_EACH_LIMITS, note_member,
	    &sm);
	CHECK(s == TV_OK && strcmp(sm.text, "m0=string m2=bytes m3=tree") ==
	    0, "members %d [%s]", s, sm.text);
	CHECK(d.pos == pos && d.values == values && d.steps == steps,
	    "end %llu/%llu, values %llu/%llu, steps %llu/%llu",
	    (unsigned long long)d.pos, (unsigned long long)pos,
	    (unsigned long long)d.values, (unsigned long long)values,
	    (unsigned long long)d.steps, (unsigned long long)steps);
	/* one level up: the number read past, the struct as a tree */
	memset(&sm, 0, sizeof(sm));
	memmove(b + 1, b, 9);
	ctf_dec_init(&d, b, 10, 0, "mem", slots, 1, NULL);
	d.arena = a;
	s = ctf_dec_struct_each(&d, outer, CTF_EACH_LIMITS,
	    note_member, &sm);
	CHECK(s == TV_OK && strcmp(sm.text, "m1=tree") == 0 && d.pos == 80,
	    "outer %d [%s]", s, sm.text);
	/* a text too long for the event: the tree's error, members before */
	b[4] = 200;
	ctf_dec_init(&d, b, 10, 0, "mem", slots, 1, NULL);
	d.arena = a;
	s = ctf_dec_field(&d, outer, &v);
	memset(&sm, 0, sizeof(sm));
	ctf_dec_init(&d, b, 10, 0, "mem", slots, 1, NULL);
	d.arena = a;
	CHECK(s == TV_CORRUPT && ctf_dec_struct_each(&d, outer,
	    CTF_EACH_LIMITS, note_member, &sm) == s && sm.len == 0, "hostile length %d [%s]",
	    s, sm.text);
}

int
main(void)
{
	struct tv_arena a;

	int before;

	/* TAP, like the other unit programs. */
	printf("1..6\n");
	tv_arena_init(&a);
	before = failures;
	test_ints(&a);
	printf("%sok 1 - integers: every size, offset and byte order\n",
	    failures > before ? "not " : "");
	before = failures;
	test_known(&a);
	printf("%sok 2 - known bit orders, sign extension, bounds\n",
	    failures > before ? "not " : "");
	before = failures;
	test_compound(&a);
	printf("%sok 3 - strings, structs, sequences, variants, skips\n",
	    failures > before ? "not " : "");
	before = failures;
	test_hprog(&a, 5);
	test_hprog(&a, 16);
	printf("%sok 4 - flat event-header decoder = general decoder\n",
	    failures > before ? "not " : "");
	before = failures;
	test_head_skip(&a);
	printf("%sok 5 - an event header is stepped over only when nothing "
	    "after it reads it\n", failures > before ? "not " : "");
	before = failures;
	test_members(&a);
	printf("%sok 6 - a struct's members one at a time: the tree's "
	    "charges and errors, numbers read past\n",
	    failures > before ? "not " : "");
	tv_arena_fini(&a);
	return failures ? 1 : 0;
}
