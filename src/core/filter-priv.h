/*
 * Inside the filter compiler: tokens (filter-lex.c), the parse tree
 * (filter-parse.c), the per-class programs (filter-compile.c) and their
 * evaluation (filter-eval.c).  One node type serves the parse tree and the
 * resolved programs: resolution copies a part's tree once per event class,
 * replacing names by what they denote in that class and folding constants.
 */
#ifndef TVIEW_FILTER_PRIV_H
#define TVIEW_FILTER_PRIV_H

#include "tview/filter.h"
#include "tview/util.h"

/* Where the errors of a filter point: "filter:1:COL: ...". */
#define FILTER_ERR_PATH		"filter"
/* Hard caps against hostile input: nesting depth and text length. */
#define FILTER_MAX_DEPTH	200
#define FILTER_MAX_TEXT		(64u << 10)

enum ftok {
	FT_END, FT_IDENT, FT_NUMBER, FT_STRING, FT_CHAR,
	FT_LPAREN, FT_RPAREN, FT_COMMA, FT_COLON,
	/* comparisons */
	FT_EQ, FT_NE, FT_LT, FT_LE, FT_GT, FT_GE, FT_REGEX, FT_NREGEX,
	FT_GLOB,
	/* logic */
	FT_AND, FT_OR, FT_NOT,
	/* arithmetic */
	FT_BAND, FT_BOR, FT_XOR, FT_PLUS, FT_MINUS, FT_MUL, FT_DIV, FT_MOD,
	FT_SHL, FT_SHR,
};

struct ftoken {
	enum ftok	 kind;
	const char	*start;		/* in the filter text */
	size_t		 len;
	uint32_t	 col;		/* 1-based */
};

/** filter_lex() - the token at text + *pos; advances *pos past it. */
enum tv_status	 filter_lex(const char *text, size_t *pos,
		    struct ftoken *out, struct tv_error *err);
/** filter_error() - set @err to "filter:1:COL: message". */
enum tv_status	 filter_error(struct tv_error *err, enum tv_status st,
		    uint32_t col, const char *fmt, ...) TV_PRINTFLIKE(4, 5);

enum fkind {
	/* values */
	FN_NUM,		/* literal number: num, neg; text kept for times */
	FN_STR,		/* "string" or 'string' */
	FN_NAME,	/* field or built-in name, before resolution */
	FN_FIELD,	/* resolved: a field of the class, by name */
	FN_CPU, FN_TID, FN_PID, FN_COMM, FN_TRACE, FN_TIME,
	FN_ARITH,	/* op: FT_PLUS ... FT_SHR */
	FN_NEG,		/* unary minus of a non-literal */
	/* conditions */
	FN_CMP,		/* op: FT_EQ ... FT_GLOB */
	FN_NOT, FN_AND, FN_OR,
	FN_TRUE, FN_FALSE,
};

struct fnode {
	uint8_t		 kind;		/* enum fkind */
	uint8_t		 op;		/* enum ftok */
	bool		 neg;		/* FN_NUM: negative (signed compare);
					   FN_COMM: spelt COMM (trace-cmd) */
	bool		 num_ok;	/* FN_NUM: text is a whole number */
	bool		 found;		/* FN_NAME: some class resolved it */
	uint8_t		 scope;		/* FN_FIELD: where it was found */
	uint32_t	 col;
	struct fnode	*l, *r;
	const char	*text;		/* NUL-terminated (arena) */
	uint64_t	 num;		/* FN_NUM; FN_TIME literal ns */
	void		*re;		/* FN_CMP =~ !~: pcre2_code_8 */
};

/* One "EVENTS: expression" part of a filter. */
struct fpart {
	char		**sels;		/* event selectors; none: every event */
	uint32_t	*sel_cols;
	uint32_t	 nsels;
	struct fnode	*expr;		/* NULL: TRUE */
	uint32_t	 col;
};

/* The program of one event class. */
struct fprog {
	uint8_t		 verdict;	/* enum tv_filter_verdict */
	bool		 needs_fields;
	bool		 needs_state;
	unsigned	 scopes;	/* to decode: TV_SCOPE_BIT()s */
	struct fnode	*root;		/* MAYBE only */
};

struct tv_filter {
	char			*text;		/* owned */
	const struct tv_trace_set *set;		/* borrowed */
	struct tv_time_ctx	 tctx;
	struct tv_arena		 arena;		/* nodes, parts, programs */
	struct fpart		*parts;		/* arena */
	uint32_t		 nparts;
	struct fprog		**progs;	/* per trace, per class */
	uint32_t		*nprogs;	/* per trace: classes compiled */
	uint32_t		 nprog_traces;	/* traces compiled */
	bool			 needs_state;
	void			**regexes;	/* owned pcre2 codes */
	size_t			 nregexes, regexes_cap;
};

/** filter_parse() - fill f->parts from f->text. */
enum tv_status	 filter_parse(struct tv_filter *f, struct tv_error *err);
/** filter_resolve() - build f->progs; unknown names are errors here. */
enum tv_status	 filter_resolve(struct tv_filter *f, struct tv_error *err);
/** filter_free_regexes() - release every pcre2 code compiled. */
void		 filter_free_regexes(struct tv_filter *f);
/** filter_eval() - evaluate a resolved condition (filter-eval.c). */
bool		 filter_eval(const struct fnode *n, const struct tv_event *ev,
		    const struct tv_event_fields *fields,
		    const struct tv_event_owner *owner);

#endif /* TVIEW_FILTER_PRIV_H */
