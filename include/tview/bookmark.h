/*
 * Bookmarks: user annotations on instants and intervals of a trace, kept
 * in the LTT layout (info/bookmarks.xml):
 *
 *   <bookmarks>
 *     <location name="spike" cpu="2" start_time="1.5" end_time="1.6">text
 *     </location>
 *   </bookmarks>
 *
 * with "time", "start_time"/"end_time" in seconds (up to nine decimals) or
 * "cycle", "start_cycle"/"end_cycle" (unsigned 64-bit).  The XML document
 * itself is the model: edits change it in place, so elements and
 * attributes tview does not know survive a save.  Every change is also
 * logged, so a save can re-read the file, replay the log on what another
 * tview wrote meanwhile and lose nobody's bookmarks.
 *
 *   bookmark.c        the set: sorted list, lookups, edit log, undo
 *   bookmark-xml.c    libxml2 read/write of one document
 *   bookmark-store.c  where the file lives; atomic, merging save
 */
#ifndef TVIEW_BOOKMARK_H
#define TVIEW_BOOKMARK_H

#include "tview/tview.h"
#include "tview/error.h"
#include "tview/time.h"

#define TV_BM_MAX_FILE		(16u << 20)	/* bytes of bookmarks.xml */
#define TV_BM_MAX_COUNT		100000u		/* locations in one file */
/* bytes of one name or text: 100 such bookmarks still fit in a file */
#define TV_BM_MAX_TEXT		(64u << 10)
#define TV_BM_NO_CPU		(-1)

/* One bookmark, as the set lists it (a view of one <location>). */
struct tv_bookmark {
	const char	*name;		/* "" when none; owned by the set */
	const char	*text;		/* annotation, "" when none */
	int32_t		 cpu;		/* TV_BM_NO_CPU when none */
	bool		 interval;	/* start_* / end_* */
	bool		 by_cycle;	/* cycle attributes, not time */
	int64_t		 start;		/* ns from origin; TV_TIME_NONE while
					   cycles are not resolved */
	int64_t		 end;		/* == start for an instant */
	uint64_t	 start_cycle;	/* by_cycle */
	uint64_t	 end_cycle;
	uint32_t	 line;		/* in the file read, 0 if new */
};

/* What a new bookmark is: the input of tv_bookmarks_add(). */
struct tv_bookmark_spec {
	const char	*name;		/* NULL or "": none */
	const char	*text;
	int32_t		 cpu;		/* TV_BM_NO_CPU: none */
	bool		 interval;
	int64_t		 start;		/* ns from origin */
	int64_t		 end;
};

struct tv_bookmarks;

/* ---- bookmark.c ---- */

/** tv_bookmarks_create() - an empty set (a new <bookmarks/> document). */
struct tv_bookmarks	*tv_bookmarks_create(void);
void			 tv_bookmarks_destroy(struct tv_bookmarks *bms);

/** tv_bookmarks_count() - how many bookmarks; get() lists them by time. */
size_t			 tv_bookmarks_count(const struct tv_bookmarks *bms);
const struct tv_bookmark *tv_bookmarks_get(const struct tv_bookmarks *bms,
			    size_t i);

/**
 * tv_bookmarks_set_clock() - resolve cycle bookmarks to ns with @clk (NULL:
 * they stay TV_TIME_NONE and sort last).
 */
void			 tv_bookmarks_set_clock(struct tv_bookmarks *bms,
			    const struct tv_clock *clk);

/**
 * tv_bookmark_text_check() - TV_OK if @s may be a bookmark's name or
 * text: valid UTF-8 of characters XML allows (no control character but
 * tab, newline and carriage return), at most TV_BM_MAX_TEXT bytes.
 * Anything else would make the saved file unreadable; the error says
 * where.
 */
enum tv_status		 tv_bookmark_text_check(const char *s,
			    struct tv_error *err);
/**
 * tv_bookmarks_add() - a new bookmark; its index in *@index.  Refused
 * (nothing changes) when its name or text fails tv_bookmark_text_check()
 * or the set already holds TV_BM_MAX_COUNT.
 */
enum tv_status		 tv_bookmarks_add(struct tv_bookmarks *bms,
			    const struct tv_bookmark_spec *spec,
			    size_t *index, struct tv_error *err);
/**
 * tv_bookmarks_edit() - new name and text of bookmark @i; refused like
 * tv_bookmarks_add().
 */
enum tv_status		 tv_bookmarks_edit(struct tv_bookmarks *bms,
			    size_t i, const char *name, const char *text,
			    struct tv_error *err);
/** tv_bookmarks_delete() - remove bookmark @i (undoable until saved). */
void			 tv_bookmarks_delete(struct tv_bookmarks *bms,
			    size_t i);
/** tv_bookmarks_undo() - bring the last deletion back; false if none. */
bool			 tv_bookmarks_undo(struct tv_bookmarks *bms);
/** tv_bookmarks_dirty() - are there changes not saved yet? */
bool			 tv_bookmarks_dirty(const struct tv_bookmarks *bms);

/**
 * tv_bookmarks_next() - index of the first bookmark starting after @ts
 * (@dir > 0) or the last one starting before it (@dir < 0); -1 if none.
 */
long			 tv_bookmarks_next(const struct tv_bookmarks *bms,
			    int64_t ts, int dir);
/**
 * tv_bookmarks_covering() - index of a bookmark that @ts falls in (an
 * instant at exactly @ts, or an interval holding it), -1 if none.  With
 * @cpu >= 0, a bookmark on another CPU does not count.
 */
long			 tv_bookmarks_covering(const struct tv_bookmarks *bms,
			    int64_t ts, int cpu);
/** tv_bookmarks_find() - index of the bookmark starting at @ts, or -1. */
long			 tv_bookmarks_find(const struct tv_bookmarks *bms,
			    int64_t ts);

/** tv_bookmark_format_time() - "seconds.nnnnnnnnn" of @ns into @buf. */
char			*tv_bookmark_format_time(int64_t ns, char *buf,
			    size_t size);
/** tv_bookmark_parse_time() - seconds with up to nine decimals to ns. */
bool			 tv_bookmark_parse_time(const char *s, int64_t *ns);

/* ---- bookmark-xml.c ---- */

/**
 * tv_bookmarks_parse() - the bookmarks of XML text @buf (@len bytes,
 * named @path in messages).  Unquoted attribute values are accepted.
 * TV_SYNTAX with path:line:col for malformed XML, TV_SEMANTIC with
 * path:line for a <location> tview cannot understand.
 */
enum tv_status		 tv_bookmarks_parse(struct tv_bookmarks **out,
			    const char *path, const char *buf, size_t len,
			    struct tv_error *err);
/**
 * tv_bookmarks_serialize() - the document as XML text (malloc'ed, @len
 * bytes); an unchanged document keeps every element, attribute, comment
 * and text it was read with.
 */
void			 tv_bookmarks_serialize(const struct tv_bookmarks *bms,
			    char **out, size_t *len);

/* ---- bookmark-store.c ---- */

/**
 * tv_bookmarks_open() - the bookmarks of the trace at @trace_path (a
 * directory: DIR/info/bookmarks.xml; a file: FILE.bookmarks.xml; when
 * that place is not writable: $XDG_DATA_HOME/tview/ keyed by the
 * absolute path).  A missing file is an empty set.  A malformed file is
 * an error and will not be overwritten.
 */
enum tv_status		 tv_bookmarks_open(struct tv_bookmarks **out,
			    const char *trace_path, struct tv_error *err);
/**
 * tv_bookmarks_save() - write the changes: under a lock, re-read the
 * file, replay this set's changes on what is there, keep FILE.bak before
 * the first rewrite of a file tview did not write, then write a temporary
 * file in the same directory, fsync, rename and fsync the directory.
 * Nothing to do when nothing changed.
 */
enum tv_status		 tv_bookmarks_save(struct tv_bookmarks *bms,
			    struct tv_error *err);
/** tv_bookmarks_path() - the file saves go to. */
const char		*tv_bookmarks_path(const struct tv_bookmarks *bms);
/** tv_bookmarks_fallback() - true when saved under $XDG_DATA_HOME. */
bool			 tv_bookmarks_fallback(const struct tv_bookmarks *bms);

#endif /* TVIEW_BOOKMARK_H */
