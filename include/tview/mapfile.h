/*
 * A read-only memory mapping of a whole file.  The kernel pages it in on
 * demand, so mapping a 10 GB trace costs nothing until bytes are read.
 * Readers must bound every access by ->size.
 */
#ifndef TVIEW_MAPFILE_H
#define TVIEW_MAPFILE_H

#include "tview/tview.h"
#include "tview/error.h"

#include <setjmp.h>
#include <sys/types.h>

struct tv_mapfile {
	char		*path;	/* owned */
	const uint8_t	*data;	/* mapping, NULL for an empty file */
	uint64_t	 size;
	dev_t		 dev;	/* of the file mapped, to tell a file */
	ino_t		 ino;	/* replaced since from one truncated */
};

/** tv_mapfile_open() - map @path read-only; TV_IO with errno on failure. */
enum tv_status	 tv_mapfile_open(struct tv_mapfile *mf, const char *path,
		    struct tv_error *err);
void		 tv_mapfile_close(struct tv_mapfile *mf);
/**
 * tv_mapfile_grow() - the file grew since it was mapped (a trace still
 * being written): map it again whole, *@grew true when it is longer.
 * The mapping may move: no reader may hold a pointer into it, nor read
 * it on another thread, during the call.  A file that shrank or was
 * replaced is left as it was (TV_IO naming it, as tv_mapfile_fault).
 */
enum tv_status	 tv_mapfile_grow(struct tv_mapfile *mf, bool *grew,
		    struct tv_error *err);
/** tv_mapfile_advise() - hint sequential (true) or random access. */
void		 tv_mapfile_advise(struct tv_mapfile *mf, bool sequential);

/*
 * Guarding reads of mappings.  A file truncated while mapped makes every
 * read past its new end raise SIGBUS.  Code that reads mappings runs
 * between tv_map_guard_enter() and tv_map_guard_leave(), with a
 * sigsetjmp() on the guard's jump buffer right after entering:
 *
 *	struct tv_map_guard g;
 *
 *	tv_map_guard_enter(&g);
 *	if (sigsetjmp(g.jb, 0) != 0) {
 *		tv_map_guard_leave(&g);
 *		return ...tv_mapfile_fault(mf, g.addr, err)...;
 *	}
 *	...read the mapping...
 *	tv_map_guard_leave(&g);
 *
 * or, the same in one statement, TV_MAP_GUARDED(g, st, call, on_fault).
 * A fault inside comes back from sigsetjmp() with g.addr the address that
 * faulted.  Guards nest and are per thread.  A SIGBUS outside any guard
 * goes to the handler installed before (or kills as by default).
 */
struct tv_map_guard {
	sigjmp_buf		 jb;
	struct tv_map_guard	*prev;
	const void *volatile	 addr;	/* set by the fault */
};

/** tv_map_guard_init() - install the SIGBUS handler (once; idempotent). */
void		 tv_map_guard_init(void);
void		 tv_map_guard_enter(struct tv_map_guard *g);
void		 tv_map_guard_leave(struct tv_map_guard *g);
/*
 * st = call under guard @g (a struct tv_map_guard the caller declares);
 * after a fault, st = on_fault, which may read g.addr.
 */
#define TV_MAP_GUARDED(g, st, call, on_fault) do {			\
	tv_map_guard_enter(&(g));					\
	if (sigsetjmp((g).jb, 0) != 0) {				\
		tv_map_guard_leave(&(g));				\
		(st) = (on_fault);					\
	} else {							\
		(st) = (call);						\
		tv_map_guard_leave(&(g));				\
	}								\
} while (0)

/** tv_mapfile_contains() - whether @addr lies in @mf's mapping. */
bool		 tv_mapfile_contains(const struct tv_mapfile *mf,
		    const void *addr);
/**
 * tv_mapfile_changed() - re-stat @mf's file: true when it is shorter than
 * mapped, replaced or deleted (its tail then reads as zeros or faults).
 */
bool		 tv_mapfile_changed(const struct tv_mapfile *mf);
/**
 * tv_mapfile_fault() - the error for a fault at @addr in @mf: re-stat
 * the file and say whether it was truncated (and how much is left),
 * replaced or deleted.  Returns TV_IO.
 */
enum tv_status	 tv_mapfile_fault(const struct tv_mapfile *mf,
		    const void *addr, struct tv_error *err);
/**
 * tv_mapfile_populate() - map the pages of [@off, @off + @len) (the
 * file's part of it) at once, before they are read: one call for a
 * packet instead of a page fault every few pages (each fault costs
 * more than the mapping; a header count of a 1 GiB trace spent a tenth
 * of its time in them).  Nothing happens where the kernel cannot.
 */
void		 tv_mapfile_populate(const struct tv_mapfile *mf, uint64_t off,
		    uint64_t len);
/**
 * tv_mapfile_release() - the pages wholly inside [@off, @off + @len) are
 * not needed soon: the kernel drops them from the mapping (they are read
 * again from the file if touched), so a sequential pass keeps its
 * resident size near its heap.
 */
void		 tv_mapfile_release(const struct tv_mapfile *mf, uint64_t off,
		    uint64_t len);

/*
 * Most bytes a release batch gathers of one mapping before it gives them
 * back, and how far past its stretch a range may start and still join
 * it; and how many mappings it gathers at once (a pass in time order
 * takes packets of every stream in turns, each stream a file).
 */
#define TV_MAP_RELEASE_BATCH	(4u << 20)
#define TV_MAP_RELEASE_WAYS	8
/**
 * struct tv_map_release - ranges of mappings that a pass is done with,
 * gathered into a stretch per mapping and released (tv_mapfile_release)
 * once it spans TV_MAP_RELEASE_BATCH bytes, when a range far from it
 * comes, when a mapping beyond TV_MAP_RELEASE_WAYS needs its place, or
 * at tv_map_release_flush().  Every madvise() ends in a TLB flush on
 * each core the process runs on; released a packet at a time, those
 * flushes were a sixth of a scan's time on two cores.  A stretch may
 * cover ranges another worker still reads: they are read again from the
 * file, as any released page is.  It keeps a pointer to each mapping:
 * flush it before a mapping moves or is closed (a trace set grows or
 * closes).  TV_MAP_RELEASE_INIT: empty.  One per thread.
 */
struct tv_map_release {
	struct tv_map_stretch {
		const struct tv_mapfile	*mf;	/* NULL: an empty way */
		uint64_t		 off;
		uint64_t		 end;
	}			 way[TV_MAP_RELEASE_WAYS];
	unsigned		 next;	/* the way the next new mapping
					   takes when none is empty */
};
#define TV_MAP_RELEASE_INIT	{ { { NULL, 0, 0 } }, 0 }
/** tv_map_release_add() - [@off, @off + @len) of @mf into @r. */
void		 tv_map_release_add(struct tv_map_release *r,
		    const struct tv_mapfile *mf, uint64_t off, uint64_t len);
/** tv_map_release_flush() - release what @r holds; @r is then empty. */
void		 tv_map_release_flush(struct tv_map_release *r);

/** tv_read_file() - read a small text file fully (metadata, XML); capped. */
enum tv_status	 tv_read_file(const char *path, size_t max, char **out,
		    size_t *len, struct tv_error *err);

#endif /* TVIEW_MAPFILE_H */
