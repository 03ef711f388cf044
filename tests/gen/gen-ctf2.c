/*
 * gen-ctf2: writes a small CTF 2 trace of known content: JSON metadata
 * using every field class of the specification (fixed and variable-length
 * integers, bit arrays, booleans, enumerations, floats, strings of every
 * kind and encoding, BLOBs with a media type, arrays, structures,
 * optionals, variants, bit maps with flags, field locations absolute and
 * relative, a field class alias, attributes (and the release candidates'
 * user attributes), clock origins of both forms),
 * one data stream in either byte order; on stdout, what `tview --dump`
 * must print.  With --error NAME, the metadata has that one mistake
 * instead and stdout says what tview's one-line error must contain.
 *
 *   gen-ctf2 [--big-endian] [--error NAME | --list-errors] OUTDIR
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define RS	"\x1e"

static int be;			/* big-endian data and metadata */

/* ---- the data stream: a bit writer in either byte order ---- */

static uint8_t	 buf[4096];
static uint64_t	 pos;		/* bits */

static void
align(unsigned a)
{
	pos = (pos + a - 1) / a * a;
}

/* @n bits of @v at the current position, in the trace's byte order. */
static void
bits(unsigned n, uint64_t v)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t p = pos + i;
		unsigned bit = be ? (unsigned)(v >> (n - 1 - i)) & 1 :
		    (unsigned)(v >> i) & 1;

		if (be)
			buf[p / 8] |= (uint8_t)(bit << (7 - p % 8));
		else
			buf[p / 8] |= (uint8_t)(bit << (p % 8));
	}
	pos += n;
}

/* An integer of @n bits, aligned as fl() says. */
static void
uint_(unsigned n, uint64_t v)
{
	align(n % 8 ? 1 : 8);
	bits(n, v);
}

static void
bytes(const void *p, size_t n)
{
	align(8);
	memcpy(buf + pos / 8, p, n);
	pos += 8 * n;
}

/* LEB128, signed or not. */
static void
leb(int sgn, int64_t sv, uint64_t uv)
{
	uint8_t b;
	int more = 1;

	align(8);
	while (more) {
		if (sgn) {
			b = (uint8_t)(sv & 0x7f);
			sv >>= 7;
			more = !((sv == 0 && !(b & 0x40)) ||
			    (sv == -1 && (b & 0x40)));
		} else {
			b = (uint8_t)(uv & 0x7f);
			uv >>= 7;
			more = uv != 0;
		}
		buf[pos / 8] = (uint8_t)(b | (more ? 0x80 : 0));
		pos += 8;
	}
}

/* UTF-16 (2) or UTF-32 (4) code units of ASCII text @s, in byte order. */
static void
units(const char *s, size_t n, unsigned w)
{
	size_t i;

	for (i = 0; i < n; i++)
		uint_(8 * w, (uint8_t)s[i]);
}

/* ---- metadata ---- */

static const char *uuid =
    "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]";

/* A fixed-length class of @len bits, byte-aligned if whole bytes. */
static char *
fl(const char *type, unsigned len, const char *extra)
{
	static char s[32][512];
	static int k;
	char *o = s[k++ % 32];

	snprintf(o, 512, "{\"type\":\"%s\",\"length\":%u,\"byte-order\":"
	    "\"%s\",\"alignment\":%u%s%s}", type, len,
	    be ? "big-endian" : "little-endian", len % 8 ? 1 : 8,
	    extra ? "," : "", extra ? extra : "");
	return o;
}

/* The mistakes: name, what the metadata says instead, expected message. */
struct mistake {
	const char	*name;
	const char	*expect;
};

static const struct mistake mistakes[] = {
	{ "bad-json", "fragment 3: /: JSON: " },
	{ "no-rs", "must start with a record separator" },
	{ "empty-fragment", "fragment 2: /: empty fragment" },
	{ "trailing-text", "fragment 2: /: JSON: unexpected character" },
	{ "not-object", "fragment 2: /: a fragment must be a JSON object" },
	{ "no-preamble", "fragment 1 (trace-class): /: the first fragment "
	    "must be the preamble" },
	{ "version", "fragment 1 (preamble): /version: unsupported CTF "
	    "version 3" },
	{ "extension", "fragment 1 (preamble): /extensions/x.org,2024: "
	    "unsupported extension" },
	{ "unknown-fragment", "unknown fragment type \"stream-class\"" },
	{ "unknown-type", "fragment 7 (event-record-class \"ints\"): "
	    "/payload-field-class/member-classes/2/field-class: unknown type "
	    "\"fixed-length-floatt\"" },
	{ "missing-length", "/payload-field-class/member-classes/0/"
	    "field-class: missing mandatory property \"length\"" },
	{ "bad-byte-order", "/byte-order: unknown byte order \"middle\"" },
	{ "bad-alignment", "/alignment: alignment 3 is not a power of two" },
	{ "huge-int", "/length: fixed-length fields of more than 64 bits are "
	    "not supported" },
	{ "huge-array", "/length: length 1099511627776 is too large" },
	{ "negative-length", "/length: must not be negative" },
	{ "bad-role", "unknown role \"packet-magic\"" },
	{ "signed-role", "/payload-field-class/member-classes/1/field-class/"
	    "roles: only unsigned integers and BLOBs have roles" },
	{ "role-scope", "role \"packet-magic-number\" is not allowed in this "
	    "scope" },
	{ "location-missing", "/length-field-location: field location: no "
	    "field \"nope\" before this one" },
	{ "location-later", "/length-field-location: field location: no "
	    "field \"after\" before this one" },
	{ "location-scope", "/selector-field-location: field location "
	    "origin \"event-record-payload\" is a later scope" },
	{ "location-not-int", "/length-field-location: field location does "
	    "not name an integer or boolean" },
	{ "location-signed", "/length-field-location: a length field must be "
	    "an unsigned integer" },
	{ "alias-cycle", "fragment 6 (field-class-alias \"a\"): /field-class: "
	    "unknown field class alias \"a\"" },
	{ "alias-unknown", "unknown field class alias \"nosuch\"" },
	{ "duplicate-member", "duplicate member name \"x\"" },
	{ "overlap", "/payload-field-class/member-classes/8/field-class/"
	    "member-classes/0/field-class: the selector ranges of options 0 "
	    "and 1 overlap" },
	{ "bad-range", "range lower bound is above its upper bound" },
	{ "no-clock", "no clock class \"nosuch\" before this fragment" },
	{ "no-stream-class", "no data stream class has id 9 before this "
	    "fragment" },
	{ "deep", "field classes nested more than 64 deep" },
	{ "json-depth", "fragment 10: /: JSON: nesting too deep" },
	{ "dup-event-id", "fragment 8 (event-record-class \"again\"): /id: "
	    "event record class id 0 is used twice" },
	{ "rs-inside", "fragment 4: /: JSON: unexpected end of the fragment" },
	{ "bad-origin", "fragment 3 (clock-class \"clk\"): /origin: unknown "
	    "clock origin \"big-bang\"" },
	{ "origin-no-uid", "fragment 4 (clock-class \"board\"): /origin: "
	    "missing mandatory property \"uid\"" },
	{ "origin-type", "fragment 4 (clock-class \"board\"): /origin: a "
	    "clock origin must be \"unix-epoch\" or an object" },
	{ "bitmap-no-flags", "/payload-field-class/member-classes/8/"
	    "field-class: missing mandatory property \"flags\"" },
	{ "bitmap-no-flag", "/member-classes/8/field-class/flags: a bit map "
	    "needs at least one flag" },
	{ "bitmap-index", "/member-classes/8/field-class/flags/C: bit index "
	    "8 is not below the length 8" },
	{ "bitmap-length", "/length-field-location: a length field must be "
	    "an unsigned integer" },
	{ "bad-encoding", "/member-classes/5/field-class/encoding: unknown "
	    "encoding \"utf-8le\"" },
	{ "media-type", "/member-classes/0/field-class/media-type: must be a "
	    "string, not a number" },
	{ "attributes", "fragment 2 (trace-class): /attributes: must be an "
	    "object" },
	{ "huge-string", "/member-classes/1/field-class/length: length "
	    "4294967296 is too large" },
	/* Mistakes in a fragment after the others (tail[] below). */
	{ "dup-clock", "fragment 10 (clock-class \"clk\"): /: clock class "
	    "\"clk\" is defined twice" },
	{ "dup-stream-class", "fragment 10 (data-stream-class): /: two data "
	    "stream classes have id 0" },
	{ "two-preambles", "fragment 10 (preamble): /: only the first "
	    "fragment is a preamble" },
	{ "two-trace-classes", "fragment 10 (trace-class): /: more than one "
	    "trace class" },
	{ "empty-path", "fragment 10 (event-record-class): /payload-field-"
	    "class/member-classes/0/field-class/length-field-location: a "
	    "field location path must not be empty" },
	{ "out-of-scope", "/member-classes/0/field-class/"
	    "length-field-location: field location goes out of its scope" },
	{ "undeclared-extension", "fragment 10 (data-stream-class): "
	    "/extensions/x.org,2024: extension \"x.org,2024\" \"y\" is not "
	    "declared in the preamble" },
	{ "fc-extension", "fragment 10 (event-record-class): "
	    "/payload-field-class/member-classes/0/field-class/extensions/"
	    "x.org,2024: extension \"x.org,2024\" \"z\" is not declared "
	    "in the preamble" },
	{ "scope-not-struct", "fragment 10 (event-record-class): "
	    "/payload-field-class: a scope field class must be a structure" },
	{ "newline", "fragment 10 (event-record-class \"a?b\"): "
	    "/payload-field-class/member-classes/0/field-class: unknown type "
	    "\"x?y\"" },
};

/* The fragments of the tail mistakes, by name. */
static const struct {
	const char	*name;
	const char	*json;
} tail[] = {
	{ "dup-clock", "{\"type\":\"clock-class\",\"id\":\"clk\","
	    "\"frequency\":1}" },
	{ "dup-stream-class", "{\"type\":\"data-stream-class\"}" },
	{ "two-preambles", "{\"type\":\"preamble\",\"version\":2}" },
	{ "two-trace-classes", "{\"type\":\"trace-class\"}" },
	{ "empty-path", "{\"type\":\"event-record-class\",\"id\":9,"
	    "\"payload-field-class\":{\"type\":\"structure\","
	    "\"member-classes\":[{\"name\":\"d\",\"field-class\":{\"type\":"
	    "\"dynamic-length-blob\",\"length-field-location\":{\"path\":[]}"
	    "}}]}}" },
	{ "out-of-scope", "{\"type\":\"event-record-class\",\"id\":9,"
	    "\"payload-field-class\":{\"type\":\"structure\","
	    "\"member-classes\":[{\"name\":\"d\",\"field-class\":{\"type\":"
	    "\"dynamic-length-blob\",\"length-field-location\":{\"path\":"
	    "[null,\"n\"]}}}]}}" },
	{ "undeclared-extension", "{\"type\":\"data-stream-class\",\"id\":4,"
	    "\"extensions\":{\"x.org,2024\":{\"y\":1}}}" },
	/* a field class's extension: none can be declared either */
	{ "fc-extension", "{\"type\":\"event-record-class\",\"id\":9,"
	    "\"payload-field-class\":{\"type\":\"structure\","
	    "\"member-classes\":[{\"name\":\"d\",\"field-class\":{\"type\":"
	    "\"null-terminated-string\",\"extensions\":{\"x.org,2024\":"
	    "{\"z\":1}}}}]}}" },
	{ "scope-not-struct", "{\"type\":\"event-record-class\",\"id\":9,"
	    "\"payload-field-class\":\"u16\"}" },
	/* JSON strings may hold a newline: the error stays one line. */
	{ "newline", "{\"type\":\"event-record-class\",\"id\":9,"
	    "\"name\":\"a\\nb\",\"payload-field-class\":{\"type\":"
	    "\"structure\",\"member-classes\":[{\"name\":\"d\","
	    "\"field-class\":{\"type\":\"x\\ny\"}}]}}" },
};

static FILE *mf;
static const char *err_name;

/* Is the mistake @n the one asked for? */
static int
is(const char *n)
{
	return err_name && strcmp(err_name, n) == 0;
}

static void
frag(const char *fmt, ...)
{
	va_list ap;

	fputs(RS, mf);
	va_start(ap, fmt);
	vfprintf(mf, fmt, ap);
	va_end(ap);
	fputc('\n', mf);
}

static void
write_metadata(void)
{
	const char *bo = be ? "big-endian" : "little-endian";
	const char *u16 = be ? "utf-16be" : "utf-16le";
	const char *u32 = be ? "utf-32be" : "utf-32le";
	char lenfc[512];
	int i;

	if (is("no-rs"))
		fputs("{\"type\":\"preamble\",\"version\":2}\n", mf);
	else if (is("no-preamble"))
		frag("{\"type\":\"trace-class\"}");
	else if (is("version"))
		frag("{\"type\":\"preamble\",\"version\":3}");
	else if (is("extension"))
		frag("{\"type\":\"preamble\",\"version\":2,\"extensions\":"
		    "{\"x.org,2024\":{\"compression\":{}}}}");
	else
		frag("{\"type\":\"preamble\",\"version\":2,\"uuid\":%s,"
		    "\"attributes\":{\"gen.org,2024\":{\"by\":"
		    "\"gen-ctf2\"}}}", uuid);
	if (is("empty-fragment"))
		frag("  ");
	if (is("not-object"))
		frag("[1, 2]");
	if (is("trailing-text"))
		frag("{\"type\":\"trace-class\"} 12");
	frag("{\"type\":\"trace-class\",\"uid\":\"gen-ctf2-trace\",%s"
	    "\"environment\":{\"hostname\":\"gen\",\"tracer_name\":"
	    "\"gen-ctf2\",\"answer\":42},"
	    "\"packet-header-field-class\":{\"type\":\"structure\","
	    "\"member-classes\":["
	    "{\"name\":\"magic\",\"field-class\":%s},"
	    "{\"name\":\"uuid\",\"field-class\":{\"type\":"
	    "\"static-length-blob\",\"length\":16,\"roles\":"
	    "[\"metadata-stream-uuid\"]}},"
	    "{\"name\":\"stream_id\",\"field-class\":%s}]}}",
	    is("attributes") ? "\"attributes\":[1]," : "",
	    fl("fixed-length-unsigned-integer", 32,
	    is("bad-role") ? "\"roles\":[\"packet-magic\"]" :
	    "\"roles\":[\"packet-magic-number\"]"),
	    fl("fixed-length-unsigned-integer", 8,
	    "\"roles\":[\"data-stream-class-id\"]"));
	if (is("bad-json"))
		frag("{\"type\":\"clock-class\",\"id\":\"clk\",,}");
	if (is("unknown-fragment"))
		frag("{\"type\":\"stream-class\"}");
	frag("{\"type\":\"clock-class\",\"id\":\"clk\",\"name\":\"clk\","
	    "\"frequency\":1000000000,\"origin\":\"%s\","
	    "\"offset-from-origin\":{\"seconds\":1700000000,\"cycles\":0},"
	    "\"description\":\"gen-ctf2 clock\"}",
	    is("bad-origin") ? "big-bang" : "unix-epoch");
	/* A clock of a custom origin, which no stream uses. */
	if (is("rs-inside"))
		frag("{\"type\":\"clock-class\"," RS "\"id\":\"board\"}");
	else
		frag("{\"type\":\"clock-class\",\"id\":\"board\","
		    "\"frequency\":32768,\"origin\":%s,"
		    "\"attributes\":{\"gen.org,2024\":{\"bus\":5}}}",
		    is("origin-type") ? "[\"gen.org,2024\"]" :
		    is("origin-no-uid") ? "{\"name\":\"board-power-on\"}" :
		    "{\"namespace\":\"gen.org,2024\",\"name\":"
		    "\"board-power-on\",\"uid\":\"b-1\"}");
	frag("{\"type\":\"data-stream-class\",\"default-clock-class-id\":"
	    "\"%s\","
	    "\"packet-context-field-class\":{\"type\":\"structure\","
	    "\"member-classes\":["
	    "{\"name\":\"packet_size\",\"field-class\":%s},"
	    "{\"name\":\"content_size\",\"field-class\":%s},"
	    "{\"name\":\"timestamp_begin\",\"field-class\":%s},"
	    "{\"name\":\"timestamp_end\",\"field-class\":%s},"
	    "{\"name\":\"events_discarded\",\"field-class\":%s},"
	    "{\"name\":\"seq\",\"field-class\":%s}]},"
	    "\"event-record-header-field-class\":{\"type\":\"structure\","
	    "\"member-classes\":["
	    "{\"name\":\"id\",\"field-class\":%s},"
	    "{\"name\":\"timestamp\",\"field-class\":%s}]}}",
	    is("no-clock") ? "nosuch" : "clk",
	    fl("fixed-length-unsigned-integer", 32,
	    "\"roles\":[\"packet-total-length\"]"),
	    fl("fixed-length-unsigned-integer", 32,
	    "\"roles\":[\"packet-content-length\"]"),
	    fl("fixed-length-unsigned-integer", 64,
	    "\"roles\":[\"default-clock-timestamp\"]"),
	    fl("fixed-length-unsigned-integer", 64,
	    "\"roles\":[\"packet-end-default-clock-timestamp\"]"),
	    fl("fixed-length-unsigned-integer", 32,
	    "\"roles\":[\"discarded-event-record-counter-snapshot\"]"),
	    fl("fixed-length-unsigned-integer", 32,
	    is("role-scope") ? "\"roles\":[\"packet-magic-number\"]" :
	    "\"roles\":[\"packet-sequence-number\"]"),
	    fl("fixed-length-unsigned-integer", 8,
	    "\"roles\":[\"event-record-class-id\"]"),
	    fl("fixed-length-unsigned-integer", 64,
	    "\"roles\":[\"default-clock-timestamp\"]"));
	if (is("alias-cycle"))
		frag("{\"type\":\"field-class-alias\",\"name\":\"a\","
		    "\"field-class\":\"a\"}");
	else
		frag("{\"type\":\"field-class-alias\",\"name\":\"u16\","
		    "\"field-class\":%s}",
		    fl("fixed-length-unsigned-integer", 16, NULL));
	if (is("no-stream-class"))
		frag("{\"type\":\"event-record-class\",\"id\":5,"
		    "\"data-stream-class-id\":9}");
	/* Event 0: integers, bit fields, floats. */
	frag("{\"type\":\"event-record-class\",\"id\":0,\"name\":\"ints\","
	    "\"user-attributes\":{\"lttng.org,2009\":{\"log-level\":4}},"
	    "\"payload-field-class\":{\"type\":\"structure\","
	    "\"member-classes\":["
	    "{\"name\":\"u8\",\"field-class\":%s},"
	    "{\"name\":\"s16\",\"field-class\":%s},"
	    "{\"name\":\"x32\",\"field-class\":%s},"
	    "{\"name\":\"s64\",\"field-class\":%s},"
	    "{\"name\":\"b3\",\"field-class\":%s},"
	    "{\"name\":\"b13\",\"field-class\":%s},"
	    "{\"name\":\"flag\",\"field-class\":%s},"
	    "{\"name\":\"bits\",\"field-class\":%s},"
	    "{\"name\":\"flags\",\"field-class\":%s},"
	    "{\"name\":\"vu\",\"field-class\":{\"type\":"
	    "\"variable-length-unsigned-integer\"}},"
	    "{\"name\":\"vs\",\"field-class\":{\"type\":"
	    "\"variable-length-signed-integer\"}},"
	    "{\"name\":\"color\",\"field-class\":%s},"
	    "{\"name\":\"f32\",\"field-class\":%s},"
	    "{\"name\":\"f64\",\"field-class\":%s},"
	    "{\"name\":\"aliased\",\"field-class\":\"%s\"}]}}",
	    is("missing-length") ?
	    "{\"type\":\"fixed-length-unsigned-integer\",\"byte-order\":"
	    "\"little-endian\"}" :
	    is("bad-byte-order") ?
	    "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
	    "\"byte-order\":\"middle\"}" :
	    is("bad-alignment") ?
	    "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
	    "\"byte-order\":\"little-endian\",\"alignment\":3}" :
	    is("huge-int") ?
	    "{\"type\":\"fixed-length-unsigned-integer\",\"length\":65,"
	    "\"byte-order\":\"little-endian\"}" :
	    fl("fixed-length-unsigned-integer", 8, NULL),
	    fl("fixed-length-signed-integer", 16, is("signed-role") ?
	    "\"roles\":[\"event-record-class-id\"]" : NULL),
	    is("unknown-type") ? fl("fixed-length-floatt", 32, NULL) :
	    fl("fixed-length-unsigned-integer", 32,
	    "\"preferred-display-base\":16"),
	    fl("fixed-length-signed-integer", 64, NULL),
	    fl("fixed-length-unsigned-integer", 3, NULL),
	    fl("fixed-length-signed-integer", 13, NULL),
	    fl("fixed-length-boolean", 8, NULL),
	    fl("fixed-length-bit-array", 8, NULL),
	    fl("fixed-length-bit-map", 8, is("bitmap-no-flags") ? NULL :
	    is("bitmap-no-flag") ? "\"flags\":{}" : is("bitmap-index") ?
	    "\"flags\":{\"A\":[[0,0]],\"C\":[[7,8]]}" :
	    "\"flags\":{\"A\":[[0,0]],\"B\":[[1,2]],\"C\":[[7,7]],"
	    "\"D\":[[3,6]]}"),
	    fl("fixed-length-unsigned-integer", 8, is("bad-range") ?
	    "\"mappings\":{\"RED\":[[0,0]],\"GREEN\":[[5,1]]}" :
	    "\"mappings\":{\"RED\":[[0,0]],\"GREEN\":[[1,1]],"
	    "\"BLUE\":[[2,9],[20,29]]}"),
	    fl("fixed-length-floating-point-number", 32, NULL),
	    fl("fixed-length-floating-point-number", 64, NULL),
	    is("alias-unknown") ? "nosuch" : "u16");
	if (is("dup-event-id"))
		frag("{\"type\":\"event-record-class\",\"id\":0,"
		    "\"name\":\"again\"}");
	/* Event 1: strings. */
	snprintf(lenfc, sizeof(lenfc), "%s",
	    fl(is("location-signed") ? "fixed-length-signed-integer" :
	    is("bitmap-length") ? "fixed-length-bit-map" :
	    "fixed-length-unsigned-integer", 8, is("bitmap-length") ?
	    "\"flags\":{\"A\":[[0,0]]}" : NULL));
	frag("{\"type\":\"event-record-class\",\"id\":1,\"name\":\"strings\","
	    "\"payload-field-class\":{\"type\":\"structure\","
	    "\"member-classes\":["
	    "{\"name\":\"nt\",\"field-class\":{\"type\":"
	    "\"null-terminated-string\"}},"
	    "{\"name\":\"st\",\"field-class\":{\"type\":"
	    "\"static-length-string\",\"length\":%s}},"
	    "{\"name\":\"len\",\"field-class\":%s},"
	    "{\"name\":\"dt\",\"field-class\":{\"type\":"
	    "\"dynamic-length-string\",\"length-field-location\":"
	    "{\"path\":[\"%s\"]}}},"
	    "{\"name\":\"after\",\"field-class\":%s},"
	    "{\"name\":\"w16\",\"field-class\":{\"type\":"
	    "\"null-terminated-string\",\"encoding\":\"%s%s\"}},"
	    "{\"name\":\"w32\",\"field-class\":{\"type\":"
	    "\"static-length-string\",\"length\":16,\"encoding\":\"%s\"}}"
	    "]}}",
	    is("huge-string") ? "4294967296" : "8",
	    lenfc, is("location-missing") ? "nope" :
	    is("location-later") ? "after" :
	    is("location-not-int") ? "nt" : "len",
	    fl("fixed-length-unsigned-integer", 8, NULL),
	    is("bad-encoding") ? "utf-8" : u16,
	    is("bad-encoding") ? "le" : "", u32);
	/* Event 2: BLOBs, arrays, structures, optionals, variants. */
	frag("{\"type\":\"event-record-class\",\"id\":2,\"name\":\"compound\","
	    "\"specific-context-field-class\":{\"type\":\"structure\","
	    "\"member-classes\":[{\"name\":\"sel\",\"field-class\":%s}]},"
	    "\"payload-field-class\":{\"type\":\"structure\","
	    "\"member-classes\":["
	    "{\"name\":\"blob\",\"field-class\":{\"type\":"
	    "\"static-length-blob\",\"length\":%s,\"media-type\":%s}},"
	    "{\"name\":\"n\",\"field-class\":%s},"
	    "{\"name\":\"dblob\",\"field-class\":{\"type\":"
	    "\"dynamic-length-blob\",\"length-field-location\":"
	    "{\"origin\":\"event-record-payload\",\"path\":[\"n\"]}}},"
	    "{\"name\":\"arr\",\"field-class\":{\"type\":"
	    "\"static-length-array\",\"length\":3,\"element-field-class\":"
	    "\"u16\"}},"
	    "{\"name\":\"pts\",\"field-class\":{\"type\":"
	    "\"dynamic-length-array\",\"length-field-location\":"
	    "{\"origin\":\"event-record-payload\",\"path\":[\"n\"]},"
	    "\"element-field-class\":{\"type\":\"structure\","
	    "\"member-classes\":[{\"name\":\"x\",\"field-class\":%s},"
	    "{\"name\":\"%s\",\"field-class\":%s}]}}},"
	    "{\"name\":\"has\",\"field-class\":%s},"
	    "{\"name\":\"opt\",\"field-class\":{\"type\":\"optional\","
	    "\"selector-field-location\":{\"path\":[\"has\"]},"
	    "\"field-class\":\"u16\"}},"
	    "{\"name\":\"none\",\"field-class\":{\"type\":\"optional\","
	    "\"selector-field-location\":{\"origin\":"
	    "\"event-record-specific-context\",\"path\":[\"sel\"]},"
	    "\"selector-field-ranges\":[[5,9]],\"field-class\":\"u16\"}},"
	    "{\"name\":\"inner\",\"field-class\":{\"type\":\"structure\","
	    "\"minimum-alignment\":32,\"member-classes\":["
	    "{\"name\":\"var\",\"field-class\":{\"type\":\"variant\","
	    "\"selector-field-location\":%s,"
	    "\"options\":["
	    "{\"name\":\"small\",\"selector-field-ranges\":[[0,1]],"
	    "\"field-class\":%s},"
	    "{\"name\":\"text\",\"selector-field-ranges\":[[%s],[4,4]],"
	    "\"field-class\":{\"type\":\"null-terminated-string\"}}]}}]}}"
	    "]}}",
	    fl("fixed-length-unsigned-integer", 8, NULL),
	    is("huge-array") ? "1099511627776" :
	    is("negative-length") ? "-4" : "4",
	    is("media-type") ? "5" : "\"image/png\"",
	    fl("fixed-length-unsigned-integer", 8, NULL),
	    fl("fixed-length-unsigned-integer", 8, NULL),
	    is("duplicate-member") ? "x" : "y",
	    fl("fixed-length-signed-integer", 8, NULL),
	    fl("fixed-length-boolean", 8, NULL),
	    is("location-scope") ?
	    "{\"origin\":\"event-record-payload\",\"path\":[\"n\"]}" :
	    "[\"event-record-specific-context\",\"sel\"]",
	    fl("fixed-length-unsigned-integer", 8, NULL),
	    is("overlap") ? "1,2" : "2,2");
	(void)bo;
	for (i = 0; i < (int)(sizeof(tail) / sizeof(*tail)); i++)
		if (is(tail[i].name))
			frag("%s", tail[i].json);
	if (is("location-scope")) {
		/* Put the same location in a context scope. */
		frag("{\"type\":\"event-record-class\",\"id\":3,\"name\":\"x\","
		    "\"specific-context-field-class\":{\"type\":\"structure\","
		    "\"member-classes\":[{\"name\":\"v\",\"field-class\":"
		    "{\"type\":\"variant\",\"selector-field-location\":"
		    "{\"origin\":\"event-record-payload\",\"path\":[\"n\"]},"
		    "\"options\":[{\"selector-field-ranges\":[[0,0]],"
		    "\"field-class\":\"u16\"}]}}]}}");
	}
	if (is("json-depth")) {
		/* Hostile nesting stops in the JSON parser, bounded. */
		fputs(RS "{\"type\":\"event-record-class\",\"x\":", mf);
		for (i = 0; i < 100000; i++)
			fputc('[', mf);
		for (i = 0; i < 100000; i++)
			fputc(']', mf);
		fputs("}\n", mf);
	}
	if (is("deep")) {
		fputs(RS "{\"type\":\"event-record-class\",\"id\":7,"
		    "\"payload-field-class\":", mf);
		for (i = 0; i < 70; i++)
			fputs("{\"type\":\"structure\",\"member-classes\":"
			    "[{\"name\":\"d\",\"field-class\":", mf);
		fputs("\"u16\"", mf);
		for (i = 0; i < 70; i++)
			fputs("}]}", mf);
		fputs("}\n", mf);
	}
}

/* ---- the stream: one packet, three events; the expected dump ---- */

static FILE *ef;

static void
write_stream(FILE *sf)
{
	static const uint8_t u[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
	    13, 14, 15, 16 };
	uint64_t size_pos, ts = 1000;
	const uint64_t packet_bits = 4096 * 8;
	uint64_t content;
	float f = 1.5f;
	double d = -2.25;
	uint32_t fb;
	uint64_t db;

	memset(buf, 0, sizeof(buf));
	pos = 0;
	uint_(32, 0xC1FC1FC1);
	bytes(u, 16);
	uint_(8, 0);
	uint_(32, packet_bits);
	size_pos = pos;
	uint_(32, 0);			/* content size, patched below */
	uint_(64, ts);
	uint_(64, 5000);
	uint_(32, 0);
	uint_(32, 0);
	/* ints */
	uint_(8, 0);
	uint_(64, ts + 1);
	uint_(8, 200);
	uint_(16, (uint16_t)-1234);
	uint_(32, 0xDEADBEEF);
	uint_(64, (uint64_t)INT64_MIN);
	bits(3, 5);
	bits(13, (uint64_t)-100 & 0x1fff);
	uint_(8, 1);
	uint_(8, 0xA5);
	uint_(8, 0x83);			/* flags A (bit 0), B (1), C (7) */
	leb(0, 0, 624485);
	leb(1, -123456, 0);
	uint_(8, 25);
	memcpy(&fb, &f, 4);
	uint_(32, fb);
	memcpy(&db, &d, 8);
	uint_(64, db);
	uint_(16, 65535);
	fputs("[22:13:20.000001001] gen ints: { u8 = 200, s16 = -1234, "
	    "x32 = 0xDEADBEEF, s64 = -9223372036854775808, b3 = 5, "
	    "b13 = -100, flag = 1, bits = 0xA5, "
	    "flags = ( \"A\", \"B\", \"C\" : container = 0x83 ), "
	    "vu = 624485, vs = -123456, "
	    "color = ( \"BLUE\" : container = 25 ), f32 = 1.5, "
	    "f64 = -2.25, aliased = 65535 }\n", ef);
	/* strings */
	uint_(8, 1);
	uint_(64, ts + 2);
	bytes("h\xc3\xa9llo", 7);
	bytes("abc\0junk", 8);
	uint_(8, 5);
	bytes("dyn\0x", 5);
	uint_(8, 7);
	units("wide", 5, 2);
	units("utf32\0\0\0", 4, 4);
	fputs("[22:13:20.000001002] gen strings: { nt = \"h\xc3\xa9llo\", "
	    "st = \"abc\", len = 5, dt = \"dyn\", after = 7, "
	    "w16 = \"wide\", w32 = \"utf3\" }\n", ef);
	/* compound, twice: option "small" then "text" */
	uint_(8, 2);
	uint_(64, ts + 3);
	uint_(8, 1);			/* sel */
	align(32);			/* the payload aligns as "inner" */
	bytes("\x01\x02\xfe\xff", 4);
	uint_(8, 2);			/* n */
	bytes("\xab\xcd", 2);
	uint_(16, 1);
	uint_(16, 2);
	uint_(16, 3);
	uint_(8, 10);
	uint_(8, (uint8_t)-10);
	uint_(8, 20);
	uint_(8, (uint8_t)-20);
	uint_(8, 1);			/* has */
	uint_(16, 777);			/* opt */
	/* none: sel = 1 is not in [5, 9] */
	align(32);
	uint_(8, 99);			/* var: small */
	fputs("[22:13:20.000001003] gen compound: { sel = 1 }, "
	    "{ blob = [ [0] = 0x1, [1] = 0x2, [2] = 0xFE, [3] = 0xFF ], "
	    "n = 2, dblob = [ [0] = 0xAB, [1] = 0xCD ], "
	    "arr = [ [0] = 1, [1] = 2, [2] = 3 ], "
	    "pts = [ [0] = { x = 10, y = -10 }, [1] = { x = 20, y = -20 } ], "
	    "has = 1, opt = { 777 }, none = { { } }, "
	    "inner = { var = { 99 } } }\n", ef);
	uint_(8, 2);
	uint_(64, ts + 4);
	uint_(8, 4);			/* sel */
	align(32);
	bytes("\0\0\0\0", 4);
	uint_(8, 0);			/* n */
	uint_(16, 4);
	uint_(16, 5);
	uint_(16, 6);
	uint_(8, 0);			/* has: no opt */
	/* none: sel 4 is not in [5, 9] either */
	align(32);
	bytes("var\0", 4);
	fputs("[22:13:20.000001004] gen compound: { sel = 4 }, "
	    "{ blob = [ [0] = 0x0, [1] = 0x0, [2] = 0x0, [3] = 0x0 ], "
	    "n = 0, dblob = [ ], arr = [ [0] = 4, [1] = 5, [2] = 6 ], "
	    "pts = [ ], has = 0, opt = { { } }, none = { { } }, "
	    "inner = { var = { \"var\" } } }\n", ef);
	content = pos;
	pos = size_pos;
	memset(buf + pos / 8, 0, 4);
	uint_(32, content);
	fwrite(buf, 1, sizeof(buf), sf);
}

static int
usage(void)
{
	fputs("usage: gen-ctf2 [--big-endian] [--error NAME | --list-errors] "
	    "OUTDIR\n", stderr);
	return 2;
}

int
main(int argc, char **argv)
{
	const char *dir = NULL;
	char path[4096];
	FILE *sf;
	size_t i;
	int a;

	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--big-endian") == 0) {
			be = 1;
		} else if (strcmp(argv[a], "--error") == 0 && a + 1 < argc) {
			err_name = argv[++a];
		} else if (strcmp(argv[a], "--list-errors") == 0) {
			for (i = 0; i < sizeof(mistakes) / sizeof(*mistakes);
			    i++)
				puts(mistakes[i].name);
			return 0;
		} else if (argv[a][0] == '-' || dir) {
			return usage();
		} else {
			dir = argv[a];
		}
	}
	if (!dir)
		return usage();
	if (err_name) {
		for (i = 0; i < sizeof(mistakes) / sizeof(*mistakes); i++)
			if (strcmp(mistakes[i].name, err_name) == 0)
				break;
		if (i == sizeof(mistakes) / sizeof(*mistakes)) {
			fprintf(stderr, "gen-ctf2: no mistake \"%s\"\n",
			    err_name);
			return 2;
		}
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		perror(dir);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/metadata", dir);
	mf = fopen(path, "wb");
	snprintf(path, sizeof(path), "%s/stream", dir);
	sf = fopen(path, "wb");
	ef = err_name ? fopen("/dev/null", "wb") : stdout;
	if (!mf || !sf || !ef) {
		perror(dir);
		return 1;
	}
	write_metadata();
	write_stream(sf);
	if (err_name) {
		/* The error replaces the dump. */
		fclose(ef);
		ef = stdout;
		for (i = 0; strcmp(mistakes[i].name, err_name) != 0; i++)
			continue;
		fprintf(ef, "%s\n", mistakes[i].expect);
	}
	if (fclose(mf) || fclose(sf) || fclose(ef)) {
		perror(dir);
		return 1;
	}
	return 0;
}
