/*
 * Shared by the CTF 2 metadata reader of the CTF driver only:
 *
 *   ctf2-json.c    RS framing of the JSON text sequence, json-c parsing,
 *                  typed member access, errors naming fragment + JSON path
 *   ctf2-types.c   field classes (JSON) -> tv_field_class, field locations
 *   ctf2-model.c   fragments -> trace (clocks, env, classes) + trace class
 *
 * The result is the same model the TSDL pass builds, so the decoder,
 * printer, index and everything above the driver need nothing new.
 */
#ifndef TVIEW_CTF2_H
#define TVIEW_CTF2_H

#include <json-c/json.h>

#include "tview/trace.h"
#include "ctf-priv.h"

#define CTF2_MAX_FRAGMENTS	(1u << 20)
#define CTF2_MAX_JSON_DEPTH	512	/* json-c's own nesting bound */
#define CTF2_MAX_PATH		256	/* JSON path components kept */
#define CTF2_MAX_FC_DEPTH	64	/* field class nesting */
#define CTF2_MAX_NODES		(1024u * 1024)
#define CTF2_MAX_MEMBERS	65536
#define CTF2_MAX_LENGTH		(UINT64_C(1) << 32)	/* static lengths */
#define CTF2_MAX_SLOTS		(1 << 20)
#define CTF2_MAX_SCLASSES	4096
/*
 * json-c takes about twenty bytes per byte of JSON text: the parse of one
 * fragment, and the aliases' JSON (kept), are bounded instead of the
 * whole metadata.
 */
#define CTF2_MAX_FRAGMENT_BYTES	(8u << 20)
#define CTF2_MAX_ALIASES	16384

/* One JSON path component: an object key or an array index. */
struct ctf2_jp {
	const char	*key;		/* NULL: index */
	uint64_t	 index;
};

/* The state of one CTF 2 metadata read. */
struct ctf2_ctx {
	const char		*path;		/* metadata file, for errors */
	struct tv_trace		*trace;
	struct ctf_trace_class	*tc;
	struct tv_arena		*a;		/* trace->arena */
	struct tv_error		*err;
	/* The fragment being read, for errors. */
	uint32_t		 frag;		/* 1-based */
	uint64_t		 frag_off;	/* byte offset in the file */
	const char		*frag_type;
	const char		*frag_name;
	struct ctf2_jp		 jp[CTF2_MAX_PATH];
	uint32_t		 njp;		/* may exceed CTF2_MAX_PATH */
	/* Building field classes. */
	uint64_t		 nodes;
	uint32_t		 fc_depth;
	int			 scope;		/* enum tv_scope being built */
	struct tv_field_class	*roots[TV_SCOPE_COUNT];	/* partial: the
						   members built so far */
	struct tv_field_class	*outer[CTF2_MAX_FC_DEPTH + 2];	/* the
						   enclosing structs */
	uint32_t		 nouter;
	const struct tv_clock	*def_clock;	/* of the data stream class */
	/* Field class aliases: name -> field class JSON (a json-c object
	   is a hash table: lookups stay O(1) however many). */
	json_object		*aliases;	/* owned */
};

/* ---- ctf2-json.c ---- */

/** ctf2_fail() - @st with "fragment N (type "name"): /json/path: msg". */
enum tv_status	 ctf2_fail(struct ctf2_ctx *cx, enum tv_status st,
		    const char *fmt, ...) TV_PRINTFLIKE(3, 4);
/** ctf2_push_key() / ctf2_push_index() / ctf2_pop() - the JSON path. */
void		 ctf2_push_key(struct ctf2_ctx *cx, const char *key);
void		 ctf2_push_index(struct ctf2_ctx *cx, uint64_t i);
void		 ctf2_pop(struct ctf2_ctx *cx);

/**
 * ctf2_next() - parse the fragment of the JSON text sequence @text at
 * *@pos (every fragment starts with RS, 0x1E, and is one JSON object)
 * into *@out (the caller puts it); advance *@pos and cx->frag, set
 * cx->frag_off.  TV_END after the last one.  One fragment at a time, so
 * memory follows the largest fragment, not the whole metadata.
 */
enum tv_status	 ctf2_next(struct ctf2_ctx *cx, const char *text,
		    size_t len, size_t *pos, json_object **out);

/*
 * Typed members of object @o (the JSON path is that of @o): each returns
 * TV_OK and fills *out, or fails naming the member.  The _opt forms leave
 * *out alone when the member is absent.
 */
enum tv_status	 ctf2_get_obj(struct ctf2_ctx *cx, json_object *o,
		    const char *key, bool need, json_object **out);
enum tv_status	 ctf2_get_arr(struct ctf2_ctx *cx, json_object *o,
		    const char *key, bool need, json_object **out);
enum tv_status	 ctf2_get_str(struct ctf2_ctx *cx, json_object *o,
		    const char *key, bool need, const char **out);
enum tv_status	 ctf2_get_uint(struct ctf2_ctx *cx, json_object *o,
		    const char *key, bool need, uint64_t *out);
enum tv_status	 ctf2_get_int(struct ctf2_ctx *cx, json_object *o,
		    const char *key, bool need, int64_t *out);
enum tv_status	 ctf2_get_bool(struct ctf2_ctx *cx, json_object *o,
		    const char *key, bool need, bool *out);
/** ctf2_json_uint() - @v as an unsigned integer, or fail. */
enum tv_status	 ctf2_json_uint(struct ctf2_ctx *cx, json_object *v,
		    uint64_t *out);
/** ctf2_json_int() - @v as a signed integer, or fail. */
enum tv_status	 ctf2_json_int(struct ctf2_ctx *cx, json_object *v,
		    int64_t *out);
/** ctf2_get_uuid() - a 16-byte UUID (array of 16 integers 0..255). */
enum tv_status	 ctf2_get_uuid(struct ctf2_ctx *cx, json_object *o,
		    const char *key, uint8_t *uuid, bool *has);

/* ---- ctf2-model.c ---- */
/**
 * ctf2_extensions_check() - fail on any extension of @o (a fragment or a
 * field class): none can have been declared in the preamble.
 */
enum tv_status	 ctf2_extensions_check(struct ctf2_ctx *cx, json_object *o);

/* ---- ctf2-types.c ---- */

/** ctf2_fc_check() - build field class @o.<@key> outside any scope. */
enum tv_status	 ctf2_fc_check(struct ctf2_ctx *cx, json_object *o,
		    const char *key);
/** ctf2_scope_build() - the field class of scope @scope from @o.<@key>. */
enum tv_status	 ctf2_scope_build(struct ctf2_ctx *cx, json_object *o,
		    const char *key, int scope, struct tv_field_class **out);

#endif /* TVIEW_CTF2_H */
