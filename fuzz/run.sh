#!/bin/sh
# run.sh TARGET SECONDS [libFuzzer options...]: run one fuzz target of the
# build tree (fuzz/fuzz-NAME) for SECONDS on its seeds (fuzz/corpus/NAME,
# read only) and what it found before (fuzz/work/NAME), with the limits of
# issue 17: 512 MiB, 1 s per input.  Crashes go to fuzz/crashes/.  Exit
# status: libFuzzer's (0 when nothing was found).
set -u
t=$1 secs=$2
shift 2
name=${t##*/fuzz-}
src=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
# The dictionary of the input's language, when it has one.
case $name in
tsdl|ctf-meta|ctf) dict=$src/fuzz/tsdl.dict ;;
ltt-xml|ltt2004|bookmark) dict=$src/fuzz/xml.dict ;;
tracedat) dict=$src/fuzz/tracedat.dict ;;
ctf2) dict=$src/fuzz/ctf2.dict ;;
filter) dict=$src/fuzz/filter.dict ;;
*) dict= ;;
esac
test -f "${dict:-/nonexistent}" || dict=
mkdir -p fuzz/work/"$name" fuzz/crashes fuzz/corpus/"$name"
LSAN_OPTIONS="suppressions=$src/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# symbolize=0: symbolizing a report on a loaded machine can outlast the
# 1 s timeout, whose handler then deadlocks symbolizing again and the
# reproducer is never written (seen on fuzz-ltt).  The first line of each
# report keeps its file:line; replaying the reproducer symbolizes it.
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:symbolize=0}
# A smaller quarantine than ASan's 256 MiB: freed memory is reused sooner,
# which halves the page faults per execution; use-after-free within an
# input is still caught.
ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16}
export LSAN_OPTIONS UBSAN_OPTIONS ASAN_OPTIONS
# libFuzzer can deadlock reporting a timeout (its alarm handler prints
# while the input holds an allocator lock): a hard limit keeps CI moving.
exec timeout -k 10 $((secs + 120)) "$t" -max_total_time="$secs" -rss_limit_mb=512 -malloc_limit_mb=512 \
    -timeout=1 -print_final_stats=1 -artifact_prefix=fuzz/crashes/"$name"- \
    ${dict:+-dict="$dict"} "$@" fuzz/work/"$name" fuzz/corpus/"$name"
