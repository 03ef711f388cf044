#!/bin/sh
# A trace.dat whose data is not compressed is read from the file's
# mapping: the index built at open and a whole --dump give its pages back
# as they go, so the file-backed resident size (RssFile and RssShmem, a
# file on tmpfs counting in the latter; sampled every 50 ms) stays far
# under the file's size; before, both kept every page of the file
# mapped.  --dump still prints every record (counted through a FIFO:
# 4 M lines are not kept).

TV_TEST_NAME=tracedat-rss
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
gen=$top_builddir/td-gen
test -r /proc/self/status || { echo "skip: no /proc"; exit 77; }

"$gen" --events 4000000 "$tmp/big.dat" || exit 99
size_kib=$(($(wc -c <"$tmp/big.dat") / 1024))

mkfifo "$tmp/fifo" || exit 99
grep -c '^ ' <"$tmp/fifo" >"$tmp/lines" &
count=$!
# shellcheck disable=SC2016 # the child shell expands them
peak_file sh -c 'exec "$1" --dump "$2" >"$3"' sh "$TVIEW" "$tmp/big.dat" \
    "$tmp/fifo"
ok "--dump exits 0" test $? -eq 0
wait "$count"
ok "--dump prints the 4000000 records" \
    test "$(cat "$tmp/lines")" -eq 4000000
ok "--dump: file pages at most $peak KiB of the file's $size_kib KiB" \
    test "$peak" -lt $((size_kib / 4))
peak_file "$TVIEW" --count "$tmp/big.dat"
ok "--count: 4000000" test "$(cat "$tmp/out")" = 4000000
ok "--count (the open's index): file pages at most $peak KiB" \
    test "$peak" -lt $((size_kib / 4))
tv_test_done
