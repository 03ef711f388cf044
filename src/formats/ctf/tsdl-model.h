/*
 * Shared between tsdl-types.c (type specifiers -> field classes, scopes),
 * tsdl-resolve.c (path resolution) and tsdl-model.c (trace/stream/event
 * blocks, roles).
 * Private to the TSDL model pass of the CTF driver.
 */
#ifndef TVIEW_TSDL_MODEL_H
#define TVIEW_TSDL_MODEL_H

#include "tview/trace.h"
#include "ctf-priv.h"
#include "tsdl-ast.h"

/*
 * Every field class the model builds is one of these: the public class
 * first, then what only the model needs until paths are resolved.
 */
struct tsdl_fc {
	struct tv_field_class	 fc;
	const char		*path;	/* sequence length / variant tag */
	const char		**raw;	/* variant: option names as written */
	uint32_t		 line, col;
	uint32_t		 depth;	/* nesting levels, 1 for a leaf */
};

#define TSDL_FC(p)	((struct tsdl_fc *)(void *)(p))

enum tsdl_sym_kind {
	TSDL_SYM_ALIAS,		/* typealias and typedef names */
	TSDL_SYM_STRUCT,
	TSDL_SYM_VARIANT,
	TSDL_SYM_ENUM,
};

struct tsdl_sym {
	struct tsdl_sym		*next;
	enum tsdl_sym_kind	 kind;
	const char		*name;
	struct tsdl_fc		*fc;	/* template: copied at each use */
};

/* A block's names; lookups go outward through ->parent. */
struct tsdl_scope {
	struct tsdl_scope	*parent;
	struct tsdl_sym		*syms;
	uint32_t		 nsyms;
	bool			 in_struct;	/* a struct/variant body */
};

struct tsdl_ctx {
	const char		*path;
	struct tv_trace		*trace;
	struct ctf_trace_class	*tc;
	struct tv_arena		*a;		/* trace->arena */
	struct tv_error		*err;
	enum tv_byte_order	 bo;		/* trace native byte order */
	uint64_t		 nodes;		/* classes built: bounded */
};

/* Typedef chains can nest and multiply types beyond what text shows. */
#define TSDL_MAX_FC_DEPTH	128
#define TSDL_MAX_NODES		(1024u * 1024)
/* Names are looked up linearly: keep hostile counts from going square. */
#define TSDL_MAX_SCOPE_SYMS	8192
#define TSDL_MAX_MEMBERS	8192
#define TSDL_MAX_SCLASSES	4096

/** tsdl_semantic() - TV_SEMANTIC "path:line:col: msg". */
enum tv_status	 tsdl_semantic(struct tsdl_ctx *cx, uint32_t line,
		    uint32_t col, const char *fmt, ...) TV_PRINTFLIKE(4, 5);

/** tsdl_type_build() - a fresh class for type specifier @ty. */
enum tv_status	 tsdl_type_build(struct tsdl_ctx *cx, struct tsdl_scope *sc,
		    const struct tsdl_type *ty, struct tsdl_fc **out,
		    struct tv_error *err);

/** tsdl_declare() - a typealias, typedef or bare type definition. */
enum tv_status	 tsdl_declare(struct tsdl_ctx *cx, struct tsdl_scope *sc,
		    const struct tsdl_stmt *s, struct tv_error *err);

/** tsdl_fc_copy() - deep copy, so per-field marks stay per field. */
struct tsdl_fc	*tsdl_fc_copy(struct tsdl_ctx *cx, const struct tsdl_fc *src);

/** tsdl_strip_name() - a field name without its one escaping '_'. */
const char	*tsdl_strip_name(const char *name);

/** tsdl_find_clock() - the trace clock named @name, or NULL. */
struct tv_clock	*tsdl_find_clock(struct tsdl_ctx *cx, const char *name);

/* The six dynamic scopes of a stream or event, for path resolution. */
struct tsdl_scopes {
	struct tv_field_class	*root[TV_SCOPE_COUNT];
};

/**
 * tsdl_struct_member() - the class of the member of struct @fc that path
 * component @comp names (escaped or not), among its first @limit.
 */
struct tv_field_class *tsdl_struct_member(const struct tv_field_class *fc,
		    const char *comp, uint32_t limit);

/**
 * tsdl_resolve_scope() - resolve the sequence lengths and variant tags of
 * dynamic scope @scope (enum tv_scope) of @sc to save slots (tsdl-resolve.c).
 */
enum tv_status	 tsdl_resolve_scope(struct tsdl_ctx *cx,
		    const struct tsdl_scopes *sc, int scope);

/**
 * tsdl_check_struct() - report the errors of a struct definition that no
 * use can fix: a tag or length in the same struct of the wrong type, a
 * variant none of whose options matches a label of its tag.
 */
enum tv_status	 tsdl_check_struct(struct tsdl_ctx *cx,
		    struct tv_field_class *fc);

/** tsdl_trace_byte_order() - the trace block's byte_order, if any. */
bool		 tsdl_trace_byte_order(const struct tsdl_stmt *top,
		    enum tv_byte_order *bo);

#endif /* TVIEW_TSDL_MODEL_H */
