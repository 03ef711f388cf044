/*
 * What every libFuzzer target of fuzz/ shares: the in-memory trace tree
 * that path-taking drivers open, and the walk that drives an opened trace
 * set the way the browser and --dump do.  See FUZZING at the top of the
 * tree for how to add a target.
 */
#ifndef TVIEW_FUZZ_FZ_H
#define TVIEW_FUZZ_FZ_H

#include <stddef.h>
#include <stdint.h>

/*
 * A fuzz input may hold several files: each starts with FZ_MARK, then
 * its path relative to the tree, then '\n', then its bytes up to the next
 * FZ_MARK or the end.  Bytes before the first mark are the tree's first
 * file.  fuzz/pack.sh writes this form from a directory (seed corpora).
 */
#define FZ_MARK		"\xff\x00" "FZ:"
#define FZ_MARK_LEN	5

struct fz_tree;

/**
 * fz_tree_new() - a tree that may hold the files @names (NULL-terminated,
 * relative paths, at most one directory level); names[0] receives the
 * bytes before any mark.  Made once per process; exits on failure.
 */
struct fz_tree	*fz_tree_new(const char *const *names);
/**
 * fz_tree_fill() - make the tree hold exactly the files of @data; returns
 * the tree's root directory.  A file is present even when empty if its
 * mark is; names outside the list are ignored.
 */
const char	*fz_tree_fill(struct fz_tree *t, const uint8_t *data,
		    size_t size);
/** fz_tree_path() - the full path of file @i of the tree. */
const char	*fz_tree_path(const struct fz_tree *t, size_t i);

/**
 * fz_walk_paths() - open @paths as one trace set and use it as the
 * browser and --dump do: headers, every record forwards with its fields
 * decoded and printed, the same backwards, seeks to the middle and ends.
 */
void		 fz_walk_paths(const char *const *paths, size_t npaths);

/**
 * fz_walk_tree() - the whole body of a directory target: make *@tree
 * from @names at the first call, fill it with @data and walk its root
 * directory as one trace (fz_walk_paths).
 */
void		 fz_walk_tree(struct fz_tree **tree, const char *const *names,
		    const uint8_t *data, size_t size);

/*
 * FZ_DIR_TARGET() - the libFuzzer entry point of a directory target
 * whose tree may hold the files @names: fz_walk_tree on every input.
 */
#define FZ_DIR_TARGET(names)						\
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);		\
int									\
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)		\
{									\
	static struct fz_tree *tree;					\
									\
	fz_walk_tree(&tree, (names), data, size);			\
	return 0;							\
}

/** fz_text() - a malloc'd NUL-terminated copy of @data (exits on OOM). */
char		*fz_text(const uint8_t *data, size_t size);

#endif /* TVIEW_FUZZ_FZ_H */
