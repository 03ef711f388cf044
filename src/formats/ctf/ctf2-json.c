/*
 * The JSON side of CTF 2 metadata: splitting the JSON text sequence
 * (RFC 7464: each fragment starts with RS, 0x1E) into fragments parsed
 * with json-c, typed access to object members, and the one-line errors of
 * the CTF 2 reader, which name the metadata file, the fragment's offset,
 * the fragment (number, type, name) and the JSON path inside it.
 */
#include "tview/tview.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "ctf2.h"

#define CTF2_RS		0x1e

/* The JSON path of @cx as "/a/b/2" ("/" at the fragment's top). */
static void
path_text(const struct ctf2_ctx *cx, char *buf, size_t size)
{
	size_t n = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < cx->njp && i < CTF2_MAX_PATH && n < size; i++) {
		int w;

		if (cx->jp[i].key)
			w = snprintf(buf + n, size - n, "/%s", cx->jp[i].key);
		else
			w = snprintf(buf + n, size - n, "/%llu",
			    (unsigned long long)cx->jp[i].index);
		if (w < 0)
			break;
		n += (size_t)w;
	}
	if (cx->njp > CTF2_MAX_PATH && n < size)
		snprintf(buf + n, size - n, "/...");
	if (!buf[0])
		snprintf(buf, size, "/");
}

/*
 * Control characters of @s (JSON strings may hold any, "\n" included)
 * become '?': an error stays one line.
 */
static void
one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/* Fail with the fragment and JSON path of @cx in front of the message. */
enum tv_status
ctf2_fail(struct ctf2_ctx *cx, enum tv_status st, const char *fmt, ...)
{
	char msg[512], where[512], jp[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	one_line(msg);
	if (cx->frag == 0)
		return tv_error_at(cx->err, st, cx->path, cx->frag_off, "%s",
		    msg);
	path_text(cx, jp, sizeof(jp));
	if (cx->frag_name)
		snprintf(where, sizeof(where), _("fragment %u (%s \"%s\")"),
		    cx->frag, cx->frag_type ? cx->frag_type : "?",
		    cx->frag_name);
	else if (cx->frag_type)
		snprintf(where, sizeof(where), _("fragment %u (%s)"),
		    cx->frag, cx->frag_type);
	else
		snprintf(where, sizeof(where), _("fragment %u"), cx->frag);
	one_line(where);
	one_line(jp);
	return tv_error_at(cx->err, st, cx->path, cx->frag_off,
	    "%s: %s: %s", where, jp, msg);
}

/* Enter member @key of the current JSON value. */
void
ctf2_push_key(struct ctf2_ctx *cx, const char *key)
{
	if (cx->njp < CTF2_MAX_PATH) {
		cx->jp[cx->njp].key = key;
		cx->jp[cx->njp].index = 0;
	}
	cx->njp++;
}

/* Enter element @i of the current JSON array. */
void
ctf2_push_index(struct ctf2_ctx *cx, uint64_t i)
{
	if (cx->njp < CTF2_MAX_PATH) {
		cx->jp[cx->njp].key = NULL;
		cx->jp[cx->njp].index = i;
	}
	cx->njp++;
}

/* Leave the last component. */
void
ctf2_pop(struct ctf2_ctx *cx)
{
	if (cx->njp)
		cx->njp--;
}

/* Is @c JSON whitespace? */
static bool
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Parse one fragment (the bytes after its RS) into an object. */
static enum tv_status
parse_fragment(struct ctf2_ctx *cx, const char *p, size_t n,
    json_object **out)
{
	struct json_tokener *tok;
	enum json_tokener_error je;
	json_object *o;
	size_t end, i;

	*out = NULL;
	for (i = 0; i < n && is_ws(p[i]); i++)
		continue;
	if (i == n)
		return ctf2_fail(cx, TV_SYNTAX, _("empty fragment"));
	if (n > CTF2_MAX_FRAGMENT_BYTES)
		return ctf2_fail(cx, TV_UNSUPPORTED,
		    _("fragment of %zu bytes is larger than %u MiB"), n,
		    CTF2_MAX_FRAGMENT_BYTES >> 20);
	tok = json_tokener_new_ex(CTF2_MAX_JSON_DEPTH);
	if (!tok)
		return ctf2_fail(cx, TV_NOMEM, _("out of memory"));
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, p, (int)n);
	je = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!o && je == json_tokener_continue) {
		cx->frag_off += n;
		return ctf2_fail(cx, TV_SYNTAX,
		    _("JSON: unexpected end of the fragment"));
	}
	if (!o || je != json_tokener_success) {
		json_object_put(o);
		cx->frag_off += end;
		return ctf2_fail(cx, TV_SYNTAX, _("JSON: %s"),
		    json_tokener_error_desc(je));
	}
	for (i = end; i < n && is_ws(p[i]); i++)
		continue;
	if (i < n) {
		json_object_put(o);
		cx->frag_off += i;
		return ctf2_fail(cx, TV_SYNTAX,
		    _("unexpected text after the fragment's JSON value"));
	}
	if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return ctf2_fail(cx, TV_SEMANTIC,
		    _("a fragment must be a JSON object"));
	}
	*out = o;
	return TV_OK;
}

/* The next fragment of the JSON text sequence (see ctf2.h). */
enum tv_status
ctf2_next(struct ctf2_ctx *cx, const char *text, size_t len, size_t *pos,
    json_object **out)
{
	const char *start, *rs;
	size_t flen, p = *pos;
	enum tv_status st;

	*out = NULL;
	if (p >= len)
		return TV_END;
	if (p == 0 && text[0] != CTF2_RS)
		return tv_error_at(cx->err, TV_SYNTAX, cx->path, 0,
		    _("CTF 2 metadata must start with a record separator "
		    "(0x1E)"));
	if (cx->frag >= CTF2_MAX_FRAGMENTS)
		return tv_error_at(cx->err, TV_UNSUPPORTED, cx->path, p,
		    _("more than %u metadata fragments"), CTF2_MAX_FRAGMENTS);
	start = text + p + 1;
	rs = memchr(start, CTF2_RS, len - p - 1);
	flen = rs ? (size_t)(rs - start) : len - p - 1;
	cx->frag++;
	cx->frag_off = p;
	cx->frag_type = NULL;
	cx->frag_name = NULL;
	cx->njp = 0;
	st = parse_fragment(cx, start, flen, out);
	cx->frag_off = p;
	*pos = p + flen + 1;
	return st;
}

/* JSON type names, for "must be" errors. */
static const char *
type_name(json_type t)
{
	switch (t) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return _("a boolean");
	case json_type_double:
	case json_type_int:
		return _("a number");
	case json_type_object:
		return _("an object");
	case json_type_array:
		return _("an array");
	case json_type_string:
		return _("a string");
	}
	return "?";
}

/* Member @key of @o of JSON type @t: NULL and TV_OK when absent. */
static enum tv_status
get_typed(struct ctf2_ctx *cx, json_object *o, const char *key, bool need,
    json_type t, const char *what, json_object **out)
{
	json_object *v = NULL;
	enum tv_status st = TV_OK;

	*out = NULL;
	if (!json_object_object_get_ex(o, key, &v)) {
		if (need)
			return ctf2_fail(cx, TV_SEMANTIC,
			    _("missing mandatory property \"%s\""), key);
		return TV_OK;
	}
	if (!json_object_is_type(v, t)) {
		ctf2_push_key(cx, key);
		st = ctf2_fail(cx, TV_SEMANTIC, _("must be %s, not %s"), what,
		    type_name(json_object_get_type(v)));
		ctf2_pop(cx);
		return st;
	}
	*out = v;
	return TV_OK;
}

enum tv_status
ctf2_get_obj(struct ctf2_ctx *cx, json_object *o, const char *key,
    bool need, json_object **out)
{
	return get_typed(cx, o, key, need, json_type_object, _("an object"),
	    out);
}

enum tv_status
ctf2_get_arr(struct ctf2_ctx *cx, json_object *o, const char *key,
    bool need, json_object **out)
{
	return get_typed(cx, o, key, need, json_type_array, _("an array"),
	    out);
}

enum tv_status
ctf2_get_str(struct ctf2_ctx *cx, json_object *o, const char *key,
    bool need, const char **out)
{
	json_object *v;
	enum tv_status st;

	st = get_typed(cx, o, key, need, json_type_string, _("a string"), &v);
	if (st == TV_OK && v)
		*out = json_object_get_string(v);
	return st;
}

enum tv_status
ctf2_get_bool(struct ctf2_ctx *cx, json_object *o, const char *key,
    bool need, bool *out)
{
	json_object *v;
	enum tv_status st;

	st = get_typed(cx, o, key, need, json_type_boolean, _("a boolean"),
	    &v);
	if (st == TV_OK && v)
		*out = json_object_get_boolean(v);
	return st;
}

/* @v as an unsigned integer. */
enum tv_status
ctf2_json_uint(struct ctf2_ctx *cx, json_object *v, uint64_t *out)
{
	if (!json_object_is_type(v, json_type_int))
		return ctf2_fail(cx, TV_SEMANTIC, _("must be an integer"));
	if (json_object_get_int64(v) < 0)
		return ctf2_fail(cx, TV_SEMANTIC,
		    _("must not be negative"));
	*out = json_object_get_uint64(v);
	return TV_OK;
}

/* @v as a signed integer. */
enum tv_status
ctf2_json_int(struct ctf2_ctx *cx, json_object *v, int64_t *out)
{
	if (!json_object_is_type(v, json_type_int))
		return ctf2_fail(cx, TV_SEMANTIC, _("must be an integer"));
	*out = json_object_get_int64(v);
	if (*out == INT64_MAX && json_object_get_uint64(v) >
	    (uint64_t)INT64_MAX)
		return ctf2_fail(cx, TV_SEMANTIC,
		    _("integer out of the signed 64-bit range"));
	return TV_OK;
}

/* A member holding an integer: enter it, convert, leave. */
static enum tv_status
get_number(struct ctf2_ctx *cx, json_object *o, const char *key, bool need,
    bool sgn, uint64_t *u, int64_t *s)
{
	json_object *v = NULL;
	enum tv_status st;

	if (!json_object_object_get_ex(o, key, &v)) {
		if (need)
			return ctf2_fail(cx, TV_SEMANTIC,
			    _("missing mandatory property \"%s\""), key);
		return TV_OK;
	}
	ctf2_push_key(cx, key);
	st = sgn ? ctf2_json_int(cx, v, s) : ctf2_json_uint(cx, v, u);
	ctf2_pop(cx);
	return st;
}

enum tv_status
ctf2_get_uint(struct ctf2_ctx *cx, json_object *o, const char *key,
    bool need, uint64_t *out)
{
	return get_number(cx, o, key, need, false, out, NULL);
}

enum tv_status
ctf2_get_int(struct ctf2_ctx *cx, json_object *o, const char *key,
    bool need, int64_t *out)
{
	return get_number(cx, o, key, need, true, NULL, out);
}

/* A UUID: an array of 16 integers 0..255. */
enum tv_status
ctf2_get_uuid(struct ctf2_ctx *cx, json_object *o, const char *key,
    uint8_t *uuid, bool *has)
{
	json_object *v = NULL;
	enum tv_status st = TV_OK;
	size_t i;

	if (!json_object_object_get_ex(o, key, &v))
		return TV_OK;
	ctf2_push_key(cx, key);
	if (!json_object_is_type(v, json_type_array) ||
	    json_object_array_length(v) != 16) {
		st = ctf2_fail(cx, TV_SEMANTIC,
		    _("a UUID must be an array of 16 integers"));
		goto out;
	}
	for (i = 0; i < 16 && st == TV_OK; i++) {
		uint64_t b = 0;

		ctf2_push_index(cx, i);
		st = ctf2_json_uint(cx, json_object_array_get_idx(v, i), &b);
		if (st == TV_OK && b > 255)
			st = ctf2_fail(cx, TV_SEMANTIC,
			    _("a UUID byte must be 0..255"));
		uuid[i] = (uint8_t)b;
		ctf2_pop(cx);
	}
	if (st == TV_OK && has)
		*has = true;
out:
	ctf2_pop(cx);
	return st;
}
