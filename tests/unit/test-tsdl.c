/*
 * Unit tests of the CTF metadata pass: packetized metadata unpacking, the
 * TSDL lexer and parser (every construct, error line:col) and the model
 * (scopes, defaults, path resolution to save slots, roles, clocks).
 */
#include "tview/trace.h"
#include "../../src/formats/ctf/ctf-priv.h"
#include "../../src/formats/ctf/tsdl-ast.h"
#include "../tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A trace and its CTF class, built from one TSDL text. */
struct built {
	struct tv_trace		 tr;
	struct ctf_trace_class	 tc;
	struct tv_error		 err;
	enum tv_status		 st;
};

#define HDR	"/* CTF 1.8 */\n" \
	"typealias integer { size = 8; align = 8; signed = false; } "	\
	":= uint8_t;\n"						\
	"typealias integer { size = 16; signed = false; } := uint16_t;\n" \
	"typealias integer { size = 32; align = 32; signed = false; } "	\
	":= uint32_t;\n"						\
	"typealias integer { size = 64; signed = false; } := uint64_t;\n" \
	"typealias integer { size = 32; signed = true; } := int;\n"
#define TRACE_LE "trace { major = 1; minor = 8; byte_order = le; };\n"

static void
build(struct built *b, const char *text)
{
	memset(b, 0, sizeof(*b));
	tv_arena_init(&b->tr.arena);
	b->tr.names = tv_intern_create();
	b->st = ctf_tsdl_build(text, strlen(text), "meta", &b->tr, &b->tc,
	    &b->err);
	if (b->st != TV_OK)
		diag("build: %s", b->err.msg);
}

static void
unbuild(struct built *b)
{
	tv_arena_fini(&b->tr.arena);
	tv_intern_destroy(b->tr.names);
}

/* Member @name of struct class @fc, or NULL. */
static const struct tv_field_class *
mem(const struct tv_field_class *fc, const char *name)
{
	uint32_t i;

	if (!fc || fc->kind != TV_FC_STRUCT)
		return NULL;
	for (i = 0; i < fc->structure.nmembers; i++)
		if (strcmp(fc->structure.members[i].name, name) == 0)
			return fc->structure.members[i].fc;
	return NULL;
}

static const struct tv_field_class *
payload(const struct built *b, uint32_t i)
{
	return i < b->tr.nclasses ? b->tr.classes[i]->payload : NULL;
}

/* Expect failure @st at @line:@col. */
static void
fails(const char *text, enum tv_status st, uint32_t line, uint32_t col,
    const char *what)
{
	struct built b;

	build(&b, text);
	ok(b.st == st && b.err.line == line && b.err.column == col,
	    "%s: status %d at %u:%u (want %d at %u:%u)", what, b.st,
	    b.err.line, b.err.column, st, line, col);
	unbuild(&b);
}

static void
test_lexer(void)
{
	struct tv_arena a;
	struct tsdl_token *t;
	size_t n;
	const char *src = "a_1 0x1F 017 42ul \"x\\n\\x41\\101\\x0231\" 'c'\r\n"
	    ":= -> ... /* c\n */ // x\n{";
	enum tv_status st;

	tv_arena_init(&a);
	st = tsdl_lex(src, strlen(src), "m", &a, &t, &n, NULL);
	ok(st == TV_OK && n == 11, "lex: %zu tokens", n);
	if (st == TV_OK && n == 11) {
		ok(t[0].kind == TSDL_T_IDENT && strcmp(t[0].text, "a_1") == 0,
		    "identifier");
		is_int((int64_t)t[1].ival, 31, "hex literal");
		is_int((int64_t)t[2].ival, 15, "octal literal");
		is_int((int64_t)t[3].ival, 42, "suffixed literal");
		is_str(t[4].text, "x\nAA#1", "string escapes");
		ok(t[5].kind == TSDL_T_CHAR && t[5].ival == 'c', "char");
		ok(t[6].kind == TSDL_T_TYPEASSIGN && t[6].line == 2 &&
		    t[6].col == 1, ":= at 2:1 after CRLF");
		ok(t[7].kind == TSDL_T_ARROW, "->");
		ok(t[8].kind == TSDL_T_ELLIPSIS, "...");
		ok(t[9].kind == TSDL_T_PUNCT && t[9].punct == '{' &&
		    t[9].line == 4 && t[9].col == 1, "{ at 4:1 after comments");
	}
	tv_arena_fini(&a);
	fails(HDR TRACE_LE "env { x = \"abc; };", TV_SYNTAX, 8, 11,
	    "unterminated string");
	fails(HDR TRACE_LE "env { x = 1x; };", TV_SYNTAX, 8, 11,
	    "malformed integer");
	fails(HDR TRACE_LE "env { x = 99999999999999999999; };", TV_SYNTAX,
	    8, 11, "integer overflow");
	fails(HDR TRACE_LE "env { x = 1.5; };", TV_SYNTAX, 8, 11,
	    "floating literal");
	fails(HDR "/* never closed", TV_SYNTAX, 7, 1, "unterminated comment");
}

static void
test_parse_errors(void)
{
	fails(HDR TRACE_LE "stream { id = 0 };", TV_SYNTAX, 8, 17,
	    "missing ';'");
	fails(HDR TRACE_LE "event { fields := struct { uint8_t a b; }; };",
	    TV_SYNTAX, 8, 38, "two names in a declarator");
	fails(HDR TRACE_LE "event { name = \"a\" \"b\"; };", TV_SYNTAX, 8,
	    20, "string concatenation");
	fails(HDR "trace {", TV_SYNTAX, 7, 8, "unterminated block");
	fails("/* CTF 1.9 */\n" TRACE_LE, TV_UNSUPPORTED, 1, 4,
	    "version in the header");
	fails(HDR "trace { major = 2; minor = 0; byte_order = le; };",
	    TV_SEMANTIC, 7, 1, "trace version");
	fails(HDR, TV_SEMANTIC, 1, 1, "no trace block");
}

static void
test_integers(void)
{
	struct built b;
	const struct tv_field_class *f, *p;

	build(&b, HDR "clock { name = mono; freq = 1000; };\n"
	    "trace { major = 1; minor = 8; byte_order = be; };\n"
	    "event { name = e; fields := struct {\n"
	    " uint32_t a;\n"
	    " integer { size = 5; } b;\n"
	    " integer { size = 12; align = 16; byte_order = le; base = hex;"
	    " signed = true; encoding = ASCII; unknown_attr = 3; } c;\n"
	    " integer { size = 64; map = clock.mono.value; base = x; } d;\n"
	    " floating_point { exp_dig = 11; mant_dig = 53; } e;\n"
	    " string s;\n"
	    " string { encoding = ASCII; } s2;\n"
	    " uint8_t pad;\n"
	    " integer { size = 128; } wide;\n"
	    "}; };\n");
	p = payload(&b, 0);
	ok(b.st == TV_OK && p, "integers build");
	if (b.st == TV_OK && p) {
		f = mem(p, "a");
		ok(f && f->align == 32 && f->integer.size == 32 &&
		    f->integer.byte_order == TV_BO_BE && f->integer.base == 10,
		    "explicit align, native byte order = trace (be)");
		f = mem(p, "b");
		ok(f && f->align == 1 && f->integer.size == 5,
		    "size 5: default align 1");
		f = mem(p, "c");
		ok(f && f->align == 16 && f->integer.byte_order == TV_BO_LE &&
		    f->integer.base == 16 && f->integer.is_signed &&
		    f->integer.encoding == TV_ENC_ASCII,
		    "all integer attributes; unknown one ignored");
		f = mem(p, "d");
		ok(f && f->align == 8 && f->integer.map_clock &&
		    strcmp(f->integer.map_clock->name, "mono") == 0 &&
		    f->integer.base == 16, "size 64 align 8, map to clock");
		f = mem(p, "e");
		ok(f && f->kind == TV_FC_FLOAT && f->align == 8 &&
		    f->flt.mant_dig == 53 && f->flt.byte_order == TV_BO_BE,
		    "double");
		f = mem(p, "s");
		ok(f && f->kind == TV_FC_STRING && f->align == 8 &&
		    f->string.encoding == TV_ENC_UTF8, "string align 8");
		f = mem(p, "s2");
		ok(f && f->string.encoding == TV_ENC_ASCII, "string encoding");
		f = mem(p, "wide");
		ok(f && f->kind == TV_FC_ARRAY && f->array.length == 16,
		    "128-bit integer kept as 16 bytes");
		is_int(p->align, 32, "struct align = max member align");
	}
	unbuild(&b);
	fails(HDR TRACE_LE "typealias integer { size = 0; } := z;",
	    TV_SEMANTIC, 8, 11, "size 0");
	fails(HDR TRACE_LE "typealias integer { signed = true; } := z;",
	    TV_SEMANTIC, 8, 11, "size missing");
	fails(HDR TRACE_LE "typealias integer { size = 8; align = 3; } := z;",
	    TV_SEMANTIC, 8, 39, "align not a power of 2");
	fails(HDR TRACE_LE "typealias integer { size = \"8\"; } := z;",
	    TV_SEMANTIC, 8, 28, "size as string");
	fails(HDR TRACE_LE "typealias integer { size = 8; base = 7; } := z;",
	    TV_SEMANTIC, 8, 38, "bad base");
	fails(HDR TRACE_LE "typealias integer { size = 8; map = "
	    "clock.x.value; }"
	    " := z;", TV_SEMANTIC, 8, 37, "unknown clock");
}

static void
test_enums(void)
{
	struct built b;
	const struct tv_field_class *f, *p;

	build(&b, HDR TRACE_LE
	    "enum colour : uint8_t { A, B = 3, C = 5 ... 7, \"quoted label\","
	    " };\n"
	    "event { name = e; fields := struct {\n"
	    " enum colour c;\n"
	    " enum : int { N = -5, M, Z = 10 } s;\n"
	    " enum { X, Y } dflt;\n"
	    "}; };\n");
	p = payload(&b, 0);
	ok(b.st == TV_OK && p, "enums build");
	if (b.st == TV_OK && p) {
		f = mem(p, "c");
		ok(f && f->kind == TV_FC_ENUM && f->enumeration.nmaps == 4 &&
		    f->align == 8, "named enum, 4 labels");
		if (f && f->enumeration.nmaps == 4) {
			ok(f->enumeration.maps[0].ranges[0].lo == 0 &&
			    f->enumeration.maps[1].ranges[0].lo == 3 &&
			    f->enumeration.maps[2].ranges[0].lo == 5 &&
			    f->enumeration.maps[2].ranges[0].hi == 7 &&
			    f->enumeration.maps[3].ranges[0].lo == 8,
			    "values, range, implicit next value");
			is_str(tv_enum_label(f, 6), "C", "label of 6");
			is_str(tv_enum_label(f, 8), "quoted label",
			    "quoted label");
		}
		f = mem(p, "s");
		ok(f && f->enumeration.integer.is_signed &&
		    (int64_t)f->enumeration.maps[0].ranges[0].lo == -5 &&
		    (int64_t)f->enumeration.maps[1].ranges[0].lo == -4,
		    "signed values");
		f = mem(p, "dflt");
		ok(f && f->enumeration.integer.size == 32,
		    "no container: int");
	}
	unbuild(&b);
	fails(HDR TRACE_LE "event { fields := struct { enum : uint8_t { A = "
	    "256 } x; }; };", TV_SEMANTIC, 8, 49, "value out of range");
	fails(HDR TRACE_LE "event { fields := struct { enum : uint8_t { } x; };"
	    " };", TV_SEMANTIC, 8, 28, "empty enum");
	fails(HDR TRACE_LE "typealias string := str;\n"
	    "event { fields := struct { enum : str { A } x; }; };",
	    TV_SEMANTIC, 9, 28, "string container");
}

static void
test_arrays_scopes(void)
{
	struct built b;
	const struct tv_field_class *f, *p, *len;

	build(&b, HDR TRACE_LE
	    "typedef uint8_t byte3[3];\n"
	    "struct pair { uint16_t x; uint16_t y; } align(64);\n"
	    "event { name = e; fields := struct {\n"
	    " uint8_t m[2][3];\n"
	    " byte3 t;\n"
	    " uint32_t len;\n"
	    " uint16_t seq[len];\n"
	    " struct { typealias integer { size = 4; } := uint8_t;\n"
	    "   uint8_t nib; uint16_t inner[len]; } sub;\n"
	    " uint8_t after;\n"
	    " struct pair pr;\n"
	    " uint8_t grid[len][2];\n"
	    "}; };\n");
	p = payload(&b, 0);
	ok(b.st == TV_OK && p, "arrays and scopes build");
	if (b.st == TV_OK && p) {
		f = mem(p, "m");
		ok(f && f->kind == TV_FC_ARRAY && f->array.length == 2 &&
		    f->array.elem->kind == TV_FC_ARRAY &&
		    f->array.elem->array.length == 3 && f->align == 8,
		    "m[2][3] = 2 arrays of 3");
		f = mem(p, "t");
		ok(f && f->kind == TV_FC_ARRAY && f->array.length == 3,
		    "typedef of an array");
		len = mem(p, "len");
		f = mem(p, "seq");
		ok(len && f && f->kind == TV_FC_SEQUENCE &&
		    len->save_slot >= 0 &&
		    f->array.length_slot == len->save_slot && f->align == 8,
		    "sequence length -> save slot");
		f = mem(mem(p, "sub"), "nib");
		ok(f && f->integer.size == 4, "typealias inside a struct");
		f = mem(mem(p, "sub"), "inner");
		ok(f && len && f->array.length_slot == len->save_slot,
		    "relative path found in the enclosing struct");
		f = mem(p, "after");
		ok(f && f->integer.size == 8, "inner typealias does not leak");
		f = mem(p, "pr");
		ok(f && f->align == 64 && f->structure.nmembers == 2,
		    "struct align() and reference");
		f = mem(p, "grid");
		ok(f && f->kind == TV_FC_SEQUENCE &&
		    f->array.elem->kind == TV_FC_ARRAY, "grid[len][2]");
		is_int(b.tc.nslots, 1, "one slot for one length field");
	}
	unbuild(&b);
	fails(HDR TRACE_LE "event { fields := struct { struct { typealias "
	    "uint8_t := in; } a;\n in b; }; };", TV_SEMANTIC, 9, 2,
	    "scoped typealias invisible outside");
	fails(HDR TRACE_LE "event { fields := struct { string l; uint8_t s[l];"
	    " }; };", TV_SEMANTIC, 8, 48, "length not an unsigned integer");
	fails(HDR TRACE_LE "event { fields := struct { uint8_t s[nope]; }; };",
	    TV_SEMANTIC, 8, 38, "unknown length");
	fails(HDR TRACE_LE "event { fields := struct { uint8_t s[-1]; }; };",
	    TV_SEMANTIC, 8, 38, "negative array length");
	fails(HDR TRACE_LE "event { fields := struct { uint8_t a; uint8_t a; };"
	    " };", TV_SEMANTIC, 8, 47, "duplicate field");
	fails(HDR TRACE_LE "event { fields := struct { uint8_t a; nosuch b; };"
	    " };", TV_SEMANTIC, 8, 39, "undefined type");
	fails(HDR TRACE_LE "typedef uint8_t t; typedef uint16_t t;",
	    TV_SEMANTIC, 8, 37, "typedef redefinition");
}

static void
test_variants(void)
{
	struct built b;
	const struct tv_field_class *f, *p, *tag;

	build(&b, HDR TRACE_LE
	    "event { name = e; fields := struct {\n"
	    " enum : uint8_t { A, B, _C, D } tag;\n"
	    " variant <tag> { uint8_t A; string _B; uint32_t _C; } v;\n"
	    " struct { variant <tag> { uint8_t A; uint16_t B; } w; } deep;\n"
	    "}; };\n");
	p = payload(&b, 0);
	ok(b.st == TV_OK && p, "variants build");
	if (b.st == TV_OK && p) {
		tag = mem(p, "tag");
		f = mem(p, "v");
		ok(tag && f && f->kind == TV_FC_VARIANT &&
		    tag->save_slot >= 0 &&
		    f->variant.tag_slot == tag->save_slot &&
		    f->variant.tag_fc == tag && f->align == 1,
		    "variant tag -> save slot and tag class");
		if (f && f->variant.noptions == 3) {
			is_str(f->variant.options[1].name, "B",
			    "option _B matches label B");
			is_str(f->variant.options[2].name, "_C",
			    "option _C matches label _C");
			ok(f->variant.opt_of_map &&
			    f->variant.opt_of_map[1] == 1 &&
			    f->variant.opt_of_map[2] == 2 &&
			    f->variant.opt_of_map[3] == -1,
			    "option of each label");
		}
		f = mem(mem(p, "deep"), "w");
		ok(f && tag && f->variant.tag_slot == tag->save_slot,
		    "tag found going outward");
	}
	unbuild(&b);
	fails(HDR TRACE_LE "event { fields := struct { uint8_t t; variant <t> "
	    "{ uint8_t a; } v; }; };", TV_SEMANTIC, 8, 39,
	    "tag not an enum");
	fails(HDR TRACE_LE "event { fields := struct { variant "
	    "{ uint8_t a; } v;"
	    " }; };", TV_SEMANTIC, 8, 28, "variant without tag");
	fails(HDR TRACE_LE "struct s { enum : uint8_t { x } t; variant <t> "
	    "{ uint8_t y; } v; };", TV_SEMANTIC, 8, 36,
	    "no option matches a label");
}

static void
test_trace_model(void)
{
	struct built b;
	const struct ctf_stream_class *sc;
	const struct tv_field_class *f, *v;

	build(&b, HDR
	    "clock { name = \"monotonic\"; uuid = "
	    "\"2a6422d0-6cee-11e0-8c08-cb07d7b3a564\"; description = \"d\";"
	    " offset_s = -10; offset = 5; precision = 2; absolute = TRUE; };\n"
	    "typealias integer { size = 27; map = clock.monotonic.value; } "
	    ":= ts27;\n"
	    "trace { major = 1; minor = 8; byte_order = le;\n"
	    " uuid = \"2a6422d0-6cee-11e0-8c08-cb07d7b3a564\";\n"
	    " packet.header := struct { uint32_t magic; uint8_t uuid[16];"
	    " uint32_t stream_id; uint64_t stream_instance_id; }; };\n"
	    "env { hostname = \"h\"; tracer_major = 2; neg = -3; };\n"
	    "stream { id = 3;\n"
	    " packet.context := struct { uint64_t timestamp_begin;"
	    " uint64_t timestamp_end; uint64_t content_size;"
	    " uint64_t packet_size; uint64_t events_discarded;"
	    " uint64_t packet_seq_num; uint32_t cpu_id; };\n"
	    " event.header := struct { enum : integer { size = 5; } "
	    "{ compact = 0 ... 30, extended = 31 } id;\n"
	    "  variant <id> { struct { ts27 timestamp; } compact;\n"
	    "   struct { uint32_t id; uint64_t timestamp; } extended; } v; };\n"
	    " event.context := struct { uint8_t n; }; };\n"
	    "stream { id = 4; };\n"
	    "event { name = \"b\"; id = 7; stream_id = 3; loglevel = 13;"
	    " model.emf.uri = \"u\";\n"
	    " context := struct { uint8_t c; };\n"
	    " fields := struct { uint8_t x[stream.event.context.n];"
	    " uint8_t y[trace.packet.header.stream_id]; }; };\n"
	    "event { name = \"a\"; id = 2; stream_id = 3; };\n"
	    "event { name = \"c\"; stream_id = 4; };\n"
	    "callsite { name = \"x\"; func = \"f\"; line = 3; };\n");
	ok(b.st == TV_OK, "full trace builds");
	if (b.st != TV_OK) {
		unbuild(&b);
		return;
	}
	ok(b.tr.nclocks == 1 && b.tr.clocks[0].freq == 1000000000 &&
	    b.tr.clocks[0].offset_s == -10 &&
	    b.tr.clocks[0].offset_cycles == 5 && b.tr.clocks[0].absolute &&
	    b.tr.clocks[0].has_uuid && b.tr.clocks[0].precision == 2,
	    "clock attributes, default freq");
	ok(b.tr.has_uuid && b.tr.uuid[0] == 0x2a && b.tr.uuid[15] == 0x64,
	    "trace uuid");
	ok(b.tr.nenv == 3 && strcmp(b.tr.env[0].str, "h") == 0 &&
	    !b.tr.env[1].str && b.tr.env[1].num == 2 &&
	    b.tr.env[2].num == -3, "env strings and integers");
	ok(mem(b.tc.packet_header, "magic")->role == TV_ROLE_MAGIC &&
	    mem(b.tc.packet_header, "uuid")->role == TV_ROLE_UUID &&
	    mem(b.tc.packet_header, "stream_id")->role == TV_ROLE_STREAM_ID &&
	    mem(b.tc.packet_header, "stream_instance_id")->role ==
	    TV_ROLE_STREAM_INSTANCE_ID, "packet header roles");
	ok(b.tc.nsclasses == 2, "two stream classes");
	sc = b.tc.sclasses[0];
	ok(sc->id == 3 && sc->has_id && sc->nevents == 2 &&
	    sc->events[0]->id == 2 && sc->events[1]->id == 7,
	    "events sorted by id");
	ok(mem(sc->packet_context, "timestamp_begin")->role ==
	    TV_ROLE_PACKET_BEGIN_TS &&
	    mem(sc->packet_context, "timestamp_end")->role ==
	    TV_ROLE_PACKET_END_TS &&
	    mem(sc->packet_context, "content_size")->role ==
	    TV_ROLE_CONTENT_SIZE &&
	    mem(sc->packet_context, "packet_size")->role ==
	    TV_ROLE_PACKET_SIZE &&
	    mem(sc->packet_context, "events_discarded")->role ==
	    TV_ROLE_DISCARDED &&
	    mem(sc->packet_context, "packet_seq_num")->role ==
	    TV_ROLE_SEQ_NUM &&
	    mem(sc->packet_context, "cpu_id")->role == TV_ROLE_CPU_ID,
	    "packet context roles");
	f = mem(sc->event_header, "id");
	v = mem(sc->event_header, "v");
	ok(f && f->role == TV_ROLE_EVENT_ID && f->save_slot >= 0 && v &&
	    v->variant.tag_slot == f->save_slot, "header id: role, tag");
	if (v && v->variant.noptions == 2) {
		f = mem(v->variant.options[0].fc, "timestamp");
		ok(f && f->role == TV_ROLE_TIMESTAMP && f->integer.size == 27,
		    "compact timestamp role");
		f = mem(v->variant.options[1].fc, "id");
		ok(f && f->role == TV_ROLE_EVENT_ID, "extended id role");
	}
	ok(sc->clock == &b.tr.clocks[0], "stream clock from the header map");
	ok(b.tc.sclasses[1]->clock == &b.tr.clocks[0],
	    "only clock used when nothing maps");
	ok(b.tr.nclasses == 3, "three event classes");
	if (b.tr.nclasses == 3) {
		const struct tv_event_class *e = b.tr.classes[0];

		ok(strcmp(e->name, "b") == 0 && e->loglevel == 13 &&
		    e->stream_class_id == 3 && e->index == 0 &&
		    strcmp(e->model_emf_uri, "u") == 0 && e->context &&
		    ((struct ctf_event_class *)e->priv)->sclass == sc,
		    "event attributes");
		ok(mem(e->payload, "x")->array.length_slot ==
		    mem(sc->event_context, "n")->save_slot &&
		    mem(e->payload, "y")->array.length_slot ==
		    mem(b.tc.packet_header, "stream_id")->save_slot,
		    "absolute paths to stream and trace scopes");
		ok(b.tr.classes[2]->id == 0 &&
		    b.tr.classes[2]->stream_class_id == 4,
		    "default id 0");
	}
	unbuild(&b);
	build(&b, HDR TRACE_LE "stream { packet.context := struct { uint64_t "
	    "timestamp_begin; }; event.header := struct { uint32_t timestamp;"
	    " }; };");
	ok(b.st == TV_OK && b.tr.nclocks == 1 &&
	    strcmp(b.tr.clocks[0].name, "default") == 0 &&
	    b.tc.sclasses[0]->clock == &b.tr.clocks[0] &&
	    mem(b.tc.sclasses[0]->event_header, "timestamp")->role ==
	    TV_ROLE_TIMESTAMP, "unmapped timestamps: a 1 GHz default clock");
	unbuild(&b);
	fails(HDR TRACE_LE "stream { id = 0; }; stream { id = 1; };\n"
	    "event { name = a; };", TV_SEMANTIC, 9, 1,
	    "stream_id required with two streams");
	fails(HDR TRACE_LE "event { name = a; id = 1; };\n"
	    "event { name = b; id = 1; };", TV_SEMANTIC, 9, 1,
	    "duplicate event id");
	fails(HDR TRACE_LE "event { name = a; stream_id = 9; };", TV_SEMANTIC,
	    8, 19, "unknown stream id");
	fails(HDR "trace { major = 1; minor = 8; byte_order = le; uuid = "
	    "\"2a6422d0-6cee-11e0-8c08\"; };", TV_SEMANTIC, 7, 55, "bad uuid");
	fails(HDR TRACE_LE "event { name = a; fields := uint8_t; };",
	    TV_SEMANTIC, 8, 29, "fields not a struct");
}

/* Write @len bytes to DIR/metadata. */
static void
put(const char *dir, const void *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "wb");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

/* A metadata packet around @text; @be for big-endian headers. */
static size_t
packet(uint8_t *out, const char *text, bool be, uint32_t pad)
{
	size_t n = strlen(text), i;
	uint32_t vals[4] = { 0x75D11D57, 0, 0, 0 };
	uint8_t *p = out;

	vals[2] = (uint32_t)(37 + n) * 8;
	vals[3] = vals[2] + pad * 8;
	memset(out, 0, 37 + n + pad);
	for (i = 0; i < 4; i++) {
		uint8_t *q = i == 0 ? p : p + 20 + (i - 1) * 4;
		uint32_t v = vals[i];

		if (i == 1)
			continue;	/* checksum stays 0 */
		if (be) {
			q[0] = v >> 24; q[1] = v >> 16; q[2] = v >> 8; q[3] = v;
		} else {
			q[3] = v >> 24; q[2] = v >> 16; q[1] = v >> 8; q[0] = v;
		}
	}
	out[35] = 1;
	out[36] = 8;
	memcpy(out + 37, text, n);
	return 37 + n + pad;
}

/* ctf_metadata_read into a zeroed @tc; *@text is then the caller's. */
static enum tv_status
read_meta(const char *dir, struct ctf_trace_class *tc, char **text,
    size_t *len, struct tv_error *err)
{
	enum tv_status st;

	memset(tc, 0, sizeof(*tc));
	st = ctf_metadata_read(dir, 0, tc, err);
	*text = tc->metadata;
	*len = tc->metadata_len;
	return st;
}

static void
test_metadata_read(void)
{
	char dir[] = "/tmp/test-tsdl-XXXXXX";
	uint8_t buf[4096];
	struct ctf_trace_class tc;
	struct tv_trace tr;
	struct tv_error err;
	char *text;
	size_t len, n;
	enum tv_status st;

	if (!mkdtemp(dir)) {
		ok(false, "mkdtemp");
		return;
	}
	put(dir, TRACE_LE, strlen(TRACE_LE));
	st = read_meta(dir, &tc, &text, &len, &err);
	ok(st == TV_OK && len == strlen(TRACE_LE), "plain text metadata");
	if (st == TV_OK)
		free(text);

	n = packet(buf, "/* CTF 1.8 */ trace { major = 1;", false, 5);
	n += packet(buf + n, " minor = 8; byte_order = le; };", false, 0);
	put(dir, buf, n);
	st = read_meta(dir, &tc, &text, &len, &err);
	ok(st == TV_OK && len == 63 &&
	    strstr(text, "major = 1; minor = 8;") != NULL,
	    "two little-endian packets concatenated");
	if (st == TV_OK)
		free(text);

	n = packet(buf, "trace { major = 1; minor = 8; byte_order = be; };",
	    true, 0);
	put(dir, buf, n);
	st = read_meta(dir, &tc, &text, &len, &err);
	ok(st == TV_OK, "big-endian packet");
	if (st == TV_OK)
		free(text);

	n = packet(buf, "trace { major = 1; minor = 8; byte_order = le; };",
	    true, 0);
	put(dir, buf, n);
	st = read_meta(dir, &tc, &text, &len, &err);
	ok(st == TV_OK && tc.packetized && tc.packet_bo == TV_BO_BE,
	    "big-endian packets noted for the model");
	if (st == TV_OK) {
		/* the model, which parses the text once, refuses it */
		memset(&tr, 0, sizeof(tr));
		tv_arena_init(&tr.arena);
		tr.names = tv_intern_create();
		st = ctf_tsdl_build(text, len, "meta", &tr, &tc, &err);
		ok(st == TV_CORRUPT && strstr(err.msg, "big-endian") != NULL,
		    "packet byte order differs from the trace's: %s",
		    st == TV_OK ? "accepted" : err.msg);
		tv_arena_fini(&tr.arena);
		tv_intern_destroy(tr.names);
		free(text);
	}

	n = packet(buf, "trace { };", false, 0);
	buf[28] = 0xff;	/* packet_size way past the end */
	buf[31] = 0x7f;
	put(dir, buf, n);
	st = read_meta(dir, &tc, &text, &len, &err);
	ok(st == TV_CORRUPT && err.offset == 0, "hostile packet size: %s",
	    err.msg);

	put(dir, buf, 20);
	st = read_meta(dir, &tc, &text, &len, &err);
	ok(st == TV_CORRUPT, "truncated packet header");

	put(dir, "\x1e{\"type\":\"preamble\",\"version\":2}\n", 33);
	st = read_meta(dir, &tc, &text, &len, &err);
	ok(st == TV_OK && len == 33 && text[0] == 0x1e &&
	    ctf_metadata_is_json(text, len),
	    "CTF 2 metadata comes as is, for the CTF 2 reader");
	if (st == TV_OK)
		free(text);

	snprintf((char *)buf, sizeof(buf), "%s/metadata", dir);
	unlink((char *)buf);
	rmdir(dir);
	st = read_meta(dir, &tc, &text, &len, &err);
	ok(st == TV_IO, "missing metadata");
}

/* Smaller constructs: name escaping, implicit stream, leniencies. */
static void
test_misc(void)
{
	struct built b;
	const struct tv_field_class *p, *f;

	build(&b, HDR TRACE_LE
	    "typealias integer { size = 8; } [16] := uuid_t;\n"
	    "struct a { uint8_t x; }\n"
	    "struct b { struct a y; };\n"
	    "event { name = \"n\"; fields := struct { uint8_t _len;"
	    " uint8_t _data[_len]; uuid_t id; struct b s; string _string; };"
	    " };\n");
	p = payload(&b, 0);
	ok(b.st == TV_OK && p, "misc constructs build");
	if (b.st == TV_OK && p) {
		ok(mem(p, "len") && mem(p, "data") && mem(p, "string"),
		    "one leading underscore escapes a field name");
		f = mem(p, "data");
		ok(f && f->kind == TV_FC_SEQUENCE &&
		    f->array.length_slot == mem(p, "len")->save_slot,
		    "escaped length path");
		f = mem(p, "id");
		ok(f && f->kind == TV_FC_ARRAY && f->array.length == 16,
		    "typealias with an abstract array declarator");
		ok(mem(mem(mem(p, "s"), "y"), "x") != NULL,
		    "struct definition without ';' before the next one");
		ok(b.tc.nsclasses == 1 && !b.tc.sclasses[0]->has_id &&
		    b.tc.sclasses[0]->nevents == 1,
		    "events without a stream block get an implicit one");
	}
	unbuild(&b);
	fails(HDR TRACE_LE "clock { name = c; }; clock { name = c; };",
	    TV_SEMANTIC, 8, 22, "duplicate clock");
	fails(HDR TRACE_LE "clock { freq = 0; name = c; };",
	    TV_SEMANTIC, 8, 9, "zero frequency");
	fails(HDR TRACE_LE "event { fields := struct { string trace; }; };",
	    TV_SEMANTIC, 8, 35, "keyword as a field name");
	fails(HDR TRACE_LE "typedef uint8_t int;", TV_SEMANTIC, 8, 17,
	    "typedef of a keyword");
	fails(HDR TRACE_LE "event { fields := struct { enum : uint8_t { A } t;"
	    " variant <typedef> { uint8_t A; } v; }; };", TV_SYNTAX, 8, 52,
	    "keyword as a variant tag");
}

/* Hostile metadata: multiplying typedefs, deep chains, deep nesting. */
static void
test_limits(void)
{
	struct tv_strbuf sb;
	struct built b;
	int i;

	tv_strbuf_init(&sb);
	tv_strbuf_adds(&sb, HDR TRACE_LE "typedef uint8_t t0;\n");
	for (i = 1; i < 60; i++)
		tv_strbuf_addf(&sb, "typedef struct { t%d a; t%d b; } t%d;\n",
		    i - 1, i - 1, i);
	build(&b, sb.buf);
	ok(b.st == TV_SEMANTIC && strstr(b.err.msg, "fields"),
	    "doubling typedefs stop at the node cap");
	unbuild(&b);

	tv_strbuf_reset(&sb);
	tv_strbuf_adds(&sb, HDR TRACE_LE "typedef uint8_t t0;\n");
	for (i = 1; i < 500; i++)
		tv_strbuf_addf(&sb, "typedef t%d t%d[1];\n", i - 1, i);
	build(&b, sb.buf);
	ok(b.st == TV_SEMANTIC && strstr(b.err.msg, "nested"),
	    "typedef chains stop at the depth cap");
	unbuild(&b);

	tv_strbuf_reset(&sb);
	tv_strbuf_adds(&sb, HDR TRACE_LE "event { fields := ");
	for (i = 0; i < 10000; i++)
		tv_strbuf_adds(&sb, "struct { ");
	build(&b, sb.buf);
	ok(b.st == TV_SYNTAX, "deep nesting in the text is refused");
	unbuild(&b);
	tv_strbuf_fini(&sb);
}

int
main(void)
{
	tv_plan(0);
	test_lexer();
	test_parse_errors();
	test_integers();
	test_enums();
	test_arrays_scopes();
	test_variants();
	test_trace_model();
	test_metadata_read();
	test_misc();
	test_limits();
	return tv_done();
}
