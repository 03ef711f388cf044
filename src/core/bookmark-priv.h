/*
 * Shared by bookmark.c, bookmark-xml.c and bookmark-store.c only: the
 * inside of a bookmark set.  The set keeps the document as last read or
 * saved (@base), the log of changes made since (@ops), and the current
 * document (@doc, always @base with @ops replayed) from which @items are
 * listed.  Saving replays @ops on the file as it is on disk by then.
 */
#ifndef TVIEW_BOOKMARK_PRIV_H
#define TVIEW_BOOKMARK_PRIV_H

#include "tview/bookmark.h"

enum tv_bm_op_kind {
	TV_BM_OP_ADD,
	TV_BM_OP_EDIT,
	TV_BM_OP_DELETE,
};

/* One logged change; @sig names its <location> by its serialized form. */
struct tv_bm_op {
	enum tv_bm_op_kind	 kind;
	char			*sig;		/* EDIT, DELETE: owned */
	struct tv_bookmark_spec	 spec;		/* ADD; EDIT: name, text */
	char			*name;		/* owned copies for spec */
	char			*text;
};

/* One listed bookmark and the element it shows. */
struct tv_bm_item {
	struct tv_bookmark	 bm;
	void			*node;		/* xmlNodePtr in ->doc */
	char			*name;		/* owned: bm.name */
	char			*text;		/* owned: bm.text */
	uint32_t		 order;		/* document order */
};

struct tv_bookmarks {
	void			*base;		/* xmlDocPtr */
	void			*doc;		/* xmlDocPtr */
	struct tv_bm_op		*ops;
	size_t			 nops, ops_cap;
	struct tv_bm_item	*items;
	size_t			 count, cap;
	const struct tv_clock	*clk;
	/* bookmark-store.c */
	char			*trace_path;	/* as opened: names the fallback */
	char			*path;		/* where saves go */
	char			*bytes;		/* the file as last read/written */
	size_t			 nbytes;
	bool			 exists;	/* @bytes came from a file */
	bool			 fallback;	/* @path is under XDG_DATA_HOME */
};

/* bookmark-xml.c: the libxml2 side. */
void		*tv_bm_doc_new(void);
void		*tv_bm_doc_copy(void *doc);
void		 tv_bm_doc_free(void *doc);
enum tv_status	 tv_bm_doc_read(const char *path, const char *buf,
		    size_t len, void **out, struct tv_error *err);
/** tv_bm_doc_items() - list the <location>s of ->doc into ->items. */
enum tv_status	 tv_bm_doc_items(struct tv_bookmarks *bms, const char *path,
		    struct tv_error *err);
/** tv_bm_op_apply() - replay @op on @doc; false if its target is gone. */
bool		 tv_bm_op_apply(void *doc, const struct tv_bm_op *op);
/** tv_bm_doc_dump() - @doc as XML text (malloc'ed, @len bytes). */
void		 tv_bm_doc_dump(void *doc, char **out, size_t *len);
/** tv_bm_node_sig() - the serialized form of element @node (malloc'ed). */
char		*tv_bm_node_sig(void *doc, void *node);

/* bookmark.c */
/** tv_bm_rebuild() - ->doc = ->base + ->ops; relist ->items. */
void		 tv_bm_rebuild(struct tv_bookmarks *bms);
void		 tv_bm_ops_clear(struct tv_bookmarks *bms);

#endif /* TVIEW_BOOKMARK_PRIV_H */
