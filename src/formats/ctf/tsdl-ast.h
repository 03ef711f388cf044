/*
 * TSDL (CTF 1.8 metadata) inside the CTF driver: the tokens of the lexer,
 * the parse tree the recursive-descent parser builds in an arena, and the
 * entry points that tsdl-model.c uses to turn the tree into field classes.
 */
#ifndef TVIEW_TSDL_AST_H
#define TVIEW_TSDL_AST_H

#include "tview/tview.h"
#include "tview/error.h"
#include "tview/util.h"

/* Hard caps that keep hostile metadata from exhausting memory or stack. */
#define TSDL_MAX_TOKENS		(16u * 1024 * 1024)
#define TSDL_MAX_DEPTH		64		/* nested types */
#define TSDL_MAX_ARRAY_LEN	(1ull << 32)	/* elements */

enum tsdl_tok_kind {
	TSDL_T_EOF,
	TSDL_T_IDENT,		/* identifiers and keywords */
	TSDL_T_INT,		/* .ival, unsigned magnitude */
	TSDL_T_STRING,		/* .text/.len decoded, may hold NULs */
	TSDL_T_CHAR,		/* .ival */
	TSDL_T_PUNCT,		/* .punct: one of {}[]()<>;,=:.*+-? */
	TSDL_T_TYPEASSIGN,	/* := */
	TSDL_T_ARROW,		/* -> */
	TSDL_T_ELLIPSIS,	/* ... */
};

struct tsdl_token {
	enum tsdl_tok_kind	 kind;
	int			 punct;
	uint32_t		 line;
	uint32_t		 col;
	const char		*text;	/* IDENT, STRING: NUL-terminated */
	size_t			 len;
	uint64_t		 ival;
};

/** tsdl_lex() - split @src into tokens (arena); TV_SYNTAX with line:col. */
enum tv_status	 tsdl_lex(const char *src, size_t len, const char *path,
		    struct tv_arena *a, struct tsdl_token **toks,
		    size_t *ntoks, struct tv_error *err);

/* ---- parse tree ---- */

enum tsdl_val_kind {
	TSDL_V_INT,		/* .ival, .neg */
	TSDL_V_STRING,		/* .str, .len */
	TSDL_V_PATH,		/* .str: "clock.monotonic.value", "le" */
	TSDL_V_TYPE,		/* .type (after :=) */
};

struct tsdl_type;

struct tsdl_value {
	enum tsdl_val_kind	 kind;
	uint64_t		 ival;
	bool			 neg;
	const char		*str;
	size_t			 len;
	struct tsdl_type	*type;
	uint32_t		 line, col;
};

/* One array or sequence dimension of a declarator. */
struct tsdl_dim {
	struct tsdl_dim		*next;
	bool			 is_seq;	/* length is a field path */
	uint64_t		 length;	/* arrays */
	const char		*path;		/* sequences */
	uint32_t		 line, col;
};

struct tsdl_declarator {
	struct tsdl_declarator	*next;
	const char		*name;		/* NULL when abstract */
	struct tsdl_dim		*dims;		/* outermost first */
	uint32_t		 line, col;
};

struct tsdl_enumerator {
	struct tsdl_enumerator	*next;
	const char		*label;
	bool			 has_value;
	bool			 is_range;
	struct tsdl_value	 lo;
	struct tsdl_value	 hi;
	uint32_t		 line, col;
};

enum tsdl_type_kind {
	TSDL_TY_INTEGER,
	TSDL_TY_FLOAT,
	TSDL_TY_STRING,
	TSDL_TY_STRUCT,
	TSDL_TY_VARIANT,
	TSDL_TY_ENUM,
	TSDL_TY_NAMED,		/* a typealias/typedef name: .name */
};

struct tsdl_stmt;

struct tsdl_type {
	enum tsdl_type_kind	 kind;
	const char		*name;		/* struct/variant/enum/named */
	struct tsdl_stmt	*attrs;		/* integer/float/string */
	bool			 has_body;	/* struct/variant/enum */
	struct tsdl_stmt	*body;		/* struct/variant members */
	const char		*tag;		/* variant <tag>, or NULL */
	bool			 has_align;	/* struct ... align(N) */
	struct tsdl_value	 align;
	struct tsdl_type	*container;	/* enum : type, or NULL */
	struct tsdl_enumerator	*enums;
	uint32_t		 line, col;
};

enum tsdl_stmt_kind {
	TSDL_S_ASSIGN,		/* path = value; path := type; */
	TSDL_S_TYPEALIAS,	/* typealias type decl := name; */
	TSDL_S_TYPEDEF,		/* typedef type decl, ...; */
	TSDL_S_DECL,		/* type [decl, ...]; */
	TSDL_S_BLOCK,		/* trace/env/clock/stream/event/callsite */
};

struct tsdl_stmt {
	enum tsdl_stmt_kind	 kind;
	struct tsdl_stmt	*next;
	const char		*path;		/* ASSIGN: left side; BLOCK:
						   the keyword; TYPEALIAS:
						   the new name */
	bool			 typeassign;	/* ASSIGN with := */
	struct tsdl_value	 value;		/* ASSIGN */
	struct tsdl_type	*type;		/* TYPEALIAS/TYPEDEF/DECL */
	struct tsdl_declarator	*decls;		/* TYPEDEF/DECL; TYPEALIAS:
						   abstract, may be NULL */
	struct tsdl_stmt	*body;		/* BLOCK */
	uint32_t		 line, col;
};

/**
 * tsdl_parse() - parse the TSDL text @src into a list of top-level
 * statements allocated in @a.  TV_SYNTAX "path:line:col: message".
 */
enum tv_status	 tsdl_parse(const char *src, size_t len, const char *path,
		    struct tv_arena *a, struct tsdl_stmt **out,
		    struct tv_error *err);

/** tsdl_is_keyword() - true for the reserved words of TSDL. */
bool		 tsdl_is_keyword(const char *s);

#endif /* TVIEW_TSDL_AST_H */
