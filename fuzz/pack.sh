#!/bin/sh
# pack.sh DIR OUT: write the files under DIR as one fuzz input (fz.h): for
# each file, sorted by path, the mark, its path relative to DIR, a
# newline, then its bytes.
set -eu
dir=$1 out=$2
: >"$out"
(cd "$dir" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) |
while IFS= read -r f; do
	printf '\377\000FZ:%s\n' "$f" >>"$out"
	cat "$dir/$f" >>"$out"
done
