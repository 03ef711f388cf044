#!/bin/sh
# make bench: tview against babeltrace2 on big traces, in one run.
#
#  1. a ~1 GB 4-CPU generated trace (gen-ctf --size 1G, LTTng layout with
#     index files), and, when ../shared/tools exists and we are root, a
#     real LTTng-UST trace recorded by record-ust-trace.sh (20M events);
#  2. for each: tview --info time (median of 5, target < 50 ms), seek
#     latency over 1,000 random times (bench/seek-bench: median, p99),
#     --dump --begin <90%> vs babeltrace2 --begin, full --dump vs
#     babeltrace2 text, a full count pass (bench/count-bench, plain and
#     with every field decoded, on every core and on one thread) vs
#     babeltrace2's counter sink, and the
#     peak RSS of each (/usr/bin/time);
#     `tview --stats` (a full walk through the process state) against
#     the same counter, and the time to draw the control-flow and CPU
#     views for 10 ms, 1 s and whole-trace windows during and after the
#     background pass (bench/timeline-bench; ratio to the 100 ms budget);
#     and a followed trace growing from 90% to 100% of every stream: the
#     state pass, the filter's match pass and the statistics going on in
#     place against each from the start (bench/follow-bench);
#  3. a table with the absolute figures and babeltrace2/tview ratios, on
#     stdout and in $dir/RESULTS.txt.  tview's dump and count rows are
#     the median of three runs (measure3); babeltrace2's whole dump and
#     its counter too, taken turn about with tview's (turnabout), its
#     windows of the dump one run.
#
# Environment: TVIEW (the binary), BUILDDIR (where gen-ctf and bench/*
# are), TVIEW_BENCH_DIR (where the traces go; kept between runs, so a
# second run does not regenerate; default a temporary directory, removed),
# TVIEW_SHARED (default $srcdir/../shared), BENCH_SIZE (default 1G),
# BENCH_REAL=0 to skip the real trace.

srcdir=$(cd "$(dirname "$0")/.." && pwd)
: "${BUILDDIR:=$srcdir}"
: "${TVIEW:=$BUILDDIR/tview}"
: "${TVIEW_SHARED:=$srcdir/../shared}"
: "${BENCH_SIZE:=1G}"
: "${BENCH_REAL:=1}"
export TZ=UTC LC_ALL=C.UTF-8
unset LANGUAGE
# every pass timed from the trace, never from a state cache an earlier
# session left (tview --count took its counts from one: 0.03 s)
export TVIEW_CACHE=off

gen=$BUILDDIR/gen-ctf
seek=$BUILDDIR/bench/seek-bench
count=$BUILDDIR/bench/count-bench
for p in "$TVIEW" "$gen" "$seek" "$count"; do
	test -x "$p" || { echo "bench: missing $p (make bench builds it)" >&2; exit 1; }
done
if ! command -v babeltrace2 >/dev/null 2>&1; then
	echo "bench: babeltrace2 is not installed: no reference to compare" >&2
	exit 1
fi
timebin=/usr/bin/time
if ! test -x "$timebin"; then
	echo "bench: /usr/bin/time missing (apt-get install time): no RSS" >&2
	timebin=
fi

if test -n "$TVIEW_BENCH_DIR"; then
	dir=$TVIEW_BENCH_DIR
	mkdir -p "$dir" || exit 1
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/tview-bench.XXXXXX") || exit 1
	trap 'rm -rf "$dir"' EXIT
	trap 'exit 130' INT TERM
fi
work=$dir/work
mkdir -p "$work"
results=$dir/RESULTS.txt
: >"$results"

# say TEXT: print to stdout and the results file.
say() {
	printf '%s\n' "$*" | tee -a "$results"
}

# measure CMD...: run with stdout to $out (/dev/null); sets ms (wall time), rss
# (max RSS in KiB, from /usr/bin/time: includes the pages of mmap'ed trace
# files) and anon (peak anonymous memory in KiB, i.e. heap and stacks,
# sampled every 50 ms from /proc; "-" when $poll is 0, for short runs).
measure() {
	t0=$(date +%s%N)
	if test -n "$timebin"; then
		"$timebin" -f '%e %M' -o "$work/rss" "$@" >"$out" \
		    2>"$work/err" &
	else
		"$@" >"$out" 2>"$work/err" &
	fi
	pid=$!
	anon=-
	if test "$poll" = 1; then
		# The sampler must not load the machine: the measured
		# program may use every core, babeltrace2 uses one.  So
		# the program's pid is looked up once, and its status read
		# by the shell itself: one fork (sleep) every 50 ms, not
		# six (pgrep, awk and their subshells).
		anon=0
		p=$pid
		if test -n "$timebin"; then
			p=
			while test -z "$p" && kill -0 "$pid" 2>/dev/null; do
				p=$(pgrep -P "$pid" | head -n 1)
				test -n "$p" || sleep 0.01
			done
		fi
		while kill -0 "$pid" 2>/dev/null; do
			if test -n "$p" && test -r "/proc/$p/status"; then
				while read -r k v rest; do
					test "$k" = RssAnon: || continue
					test "$v" -gt "$anon" && anon=$v
					break
				done 2>/dev/null <"/proc/$p/status"
			fi
			sleep 0.05
		done
	fi
	wait "$pid"
	rc=$?
	t1=$(date +%s%N)
	ms=$(( (t1 - t0) / 1000000 ))
	rss=-
	if test -n "$timebin"; then
		rss=$(tail -n 1 "$work/rss" | cut -d' ' -f2)
		test "$poll" = 1 && ms=$(tail -n 1 "$work/rss" |
		    awk '{ printf "%d", $1 * 1000 }')
	fi
	if test "$rc" -ne 0; then
		echo "bench: exit $rc: $*" >&2
		head -n 3 "$work/err" >&2
	fi
}
poll=1
out=/dev/null

# median of the numbers on stdin
median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# larger A B: the larger of two sizes, either "-" (unknown)
larger() {
	if test "$1" = - || { test "$2" != - && test "$2" -gt "$1"; }; then
		echo "$2"
	else
		echo "$1"
	fi
}

# measure3 CMD...: measure three times; ms is the median, rss and anon
# the largest.  For tview's rows of the issue's table: they last
# seconds, and one slow spell of the shared machine can double one run
# (seen: 6.4 s and 3.9 s for the same count a quarter of an hour
# apart).  babeltrace2's runs last minutes and are measured once.
measure3() {
	_mss='' _rss=- _anon=-
	for _i in 1 2 3; do
		measure "$@"
		_mss="$_mss $ms"
		_rss=$(larger "$_rss" "$rss") _anon=$(larger "$_anon" "$anon")
	done
	# shellcheck disable=SC2086 # three numbers, split on purpose
	ms=$(printf '%s\n' $_mss | median)
	rss=$_rss anon=$_anon
}

# turnabout BT2_OPTIONS CMD...: babeltrace2 with BT2_OPTIONS (words split
# on purpose) on $path, stdout to $bt_out, and CMD, stdout to $out,
# taken turn about three times each; bt_ms and ms are the medians,
# bt_rss, bt_anon, rss and anon the largest, bt_runs and tv_runs every
# time.  For the ratios of the issue's table whose babeltrace2 side is
# long: the host's speed moved by four fifths within an hour (run 21),
# and one babeltrace2 run, timed in a fast or a slow spell, set a
# trace's ratios.
turnabout() {
	_opts=$1 _tvout=$out
	shift
	bt_runs='' tv_runs='' _rss=- _anon=- _btrss=- _btanon=-
	for _i in 1 2 3; do
		out=$bt_out
		# shellcheck disable=SC2086 # options, split on purpose
		measure babeltrace2 $_opts "$path"
		bt_runs="$bt_runs $ms"
		_btrss=$(larger "$_btrss" "$rss")
		_btanon=$(larger "$_btanon" "$anon")
		out=$_tvout
		measure "$@"
		tv_runs="$tv_runs $ms"
		_rss=$(larger "$_rss" "$rss") _anon=$(larger "$_anon" "$anon")
	done
	# shellcheck disable=SC2086 # three numbers, split on purpose
	bt_ms=$(printf '%s\n' $bt_runs | median)
	# shellcheck disable=SC2086
	ms=$(printf '%s\n' $tv_runs | median)
	rss=$_rss anon=$_anon bt_rss=$_btrss bt_anon=$_btanon
}
bt_out=/dev/null

# ratio A B: A / B with two decimals ("-" if B is 0)
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
}

# secs MS: milliseconds as seconds with two decimals
secs() {
	awk -v m="$1" 'BEGIN { printf "%.2f s", m / 1000 }'
}

# mib KIB: KiB as MiB, "-" when unknown
mib() {
	awk -v k="$1" 'BEGIN { if (k ~ /^[0-9]+$/) printf "%d MiB", k / 1024; else print "-" }'
}

# row NAME TVIEW_MS TVIEW_RSS TVIEW_ANON BT2_MS BT2_RSS BT2_ANON
row() {
	printf '%-24s %9s %9s %9s %9s %9s %9s %7sx\n' "$1" "$(secs "$2")" \
	    "$(mib "$3")" "$(mib "$4")" "$(secs "$5")" "$(mib "$6")" \
	    "$(mib "$7")" "$(ratio "$5" "$2")" | tee -a "$results"
}

# bench_trace NAME PATH: every measurement on one trace.
bench_trace() {
	name=$1 path=$2
	size=$(du -sb "$path" | cut -f1)
	say ""
	say "== $name: $path ($(awk -v s="$size" 'BEGIN { printf "%.2f GiB", s / 1073741824 }'))"

	# Warm the page cache so both readers see the same (hot) files,
	# cached as reading them from disk caches them: each file's pages
	# are dropped first (dd iflag=nocache count=0) and then read.  How
	# the pages came in matters on this guest: its writer (gen-ctf,
	# LTTng's consumer) left them in 4 KiB pages, and a page fault is
	# a trap to the hypervisor; read back, the kernel caches them in
	# 2 MiB pages (FileHugePages), mapped a few faults a packet.  A
	# header count of the 1 GiB generated trace took 1.18 s on one
	# thread over the first, 0.64-0.71 s over the second (run 22);
	# babeltrace2's counter 18-27 s over either.  Before run 22 the
	# state was whatever the trace's history had left.
	find "$path" -type f -exec sh -c 'for f; do
		dd if="$f" iflag=nocache count=0 status=none
		cat "$f"; done' sh {} + >/dev/null 2>&1

	poll=0
	for _ in 1 2 3 4 5; do
		measure "$TVIEW" --info "$path"
		echo "$ms"
	done >"$work/info"
	poll=1
	info_ms=$(median <"$work/info")
	info_rss=$rss
	say "tview --info: median $info_ms ms of 5 (target < 50 ms), max RSS $(mib "$info_rss")"

	"$seek" "$path" 1000 >"$work/seek" 2>"$work/seek.err"
	say "seek (1000 random times): $(sed -n 's/^seeks [0-9]* //p' "$work/seek") (open $(sed -n 's/^open_ms //p' "$work/seek") ms)"
	test -s "$work/seek.err" && head -n 3 "$work/seek.err"
	if test -x "$BUILDDIR/bench/follow-bench"; then
		rm -rf "$work/follow"
		say "followed trace, 90% then the rest (bench/follow-bench):"
		"$BUILDDIR/bench/follow-bench" "$path" "$work/follow" 2>&1 |
		    sed 's/^/    /' | tee -a "$results"
		rm -rf "$work/follow"
	fi
	test -x "$BUILDDIR/bench/state-bench" && say "state at T (200 random times, background pass first; target p99 <= 50 ms): $("$BUILDDIR/bench/state-bench" "$path" 200 2>&1 | tr '\n' ' ')"
	# shellcheck disable=SC2046 # two numbers, split on purpose
	set -- $(sed -n 's/^span //p' "$work/seek")
	b90=$(awk -v b="$1" -v e="$2" 'BEGIN {
		t = b + (e - b) * 0.9; s = int(t / 1e9);
		printf "%d.%09d", s, t - s * 1e9 }')

	say ""
	printf '%-24s %9s %9s %9s %9s %9s %9s %8s\n' "operation" "tview" \
	    "max RSS" "heap" "bt2" "max RSS" "heap" "bt2/tv" |
	    tee -a "$results"

	measure3 "$TVIEW" --dump --begin "$b90" "$path"
	tv_ms=$ms tv_rss=$rss tv_anon=$anon
	measure babeltrace2 --clock-gmt --no-delta --begin="$b90" "$path"
	row "dump --begin 90%" "$tv_ms" "$tv_rss" "$tv_anon" "$ms" "$rss" "$anon"

	# a 1 ms window at 90%: what a seek saves (both read its lines only)
	e90=$(awk -v t="$b90" 'BEGIN { split(t, a, "."); ns = a[2] + 1000000;
		s = a[1] + int(ns / 1e9); printf "%d.%09d", s, ns % 1e9 }')
	measure3 "$TVIEW" --dump --begin "$b90" --end "$e90" "$path"
	tv_ms=$ms tv_rss=$rss tv_anon=$anon
	measure babeltrace2 --clock-gmt --no-delta --begin="$b90" \
	    --end="$e90" "$path"
	row "dump of 1 ms at 90%" "$tv_ms" "$tv_rss" "$tv_anon" "$ms" "$rss" "$anon"

	turnabout "--clock-gmt --no-delta" "$TVIEW" --dump "$path"
	row "dump, whole trace" "$ms" "$rss" "$anon" "$bt_ms" "$bt_rss" "$bt_anon"
	say "    babeltrace2:$bt_runs ms; tview:$tv_runs ms"

	# babeltrace2's counter and the header count taken turn about
	bt_out=$work/counter out=$work/count
	turnabout "-c sink.utils.counter" "$count" "$path"
	bt_out=/dev/null out=/dev/null
	row "count (headers)" "$ms" "$rss" "$anon" "$bt_ms" "$bt_rss" "$bt_anon"
	say "    babeltrace2's counter:$bt_runs ms; count-bench:$tv_runs ms"
	sed 's/^/    count-bench: /' "$work/count" | tee -a "$results"
	# what a user types to count: packets counted on every core in no
	# particular order (a count needs no timeline), summed
	out=$work/tvcount
	measure3 "$TVIEW" --count "$path"
	out=/dev/null
	row "tview --count" "$ms" "$rss" "$anon" "$bt_ms" "$bt_rss" "$bt_anon"
	sed 's/^/    tview --count: /' "$work/tvcount" | tee -a "$results"
	measure3 "$count" --decode "$path"
	row "count (all fields)" "$ms" "$rss" "$anon" "$bt_ms" "$bt_rss" "$bt_anon"
	# the same two on one thread (tv_merge_next), as before the walk
	# went parallel: what one core does, and what the others add
	measure "$count" --sequential "$path"
	row "count (headers, 1 thr)" "$ms" "$rss" "$anon" "$bt_ms" "$bt_rss" "$bt_anon"
	measure "$count" --sequential --decode "$path"
	row "count (fields, 1 thr)" "$ms" "$rss" "$anon" "$bt_ms" "$bt_rss" "$bt_anon"
	# --stats walks every record through the process state (events per
	# class, CPU and thread, CPU time per mode): against the counter too
	measure "$TVIEW" --stats "$path"
	row "stats vs counter" "$ms" "$rss" "$anon" "$bt_ms" "$bt_rss" "$bt_anon"
	# the counter prints running totals; the last block is the final one
	tail -n 12 "$work/counter" |
	    grep -E 'Event messages|Discarded' | sed 's/^ */    babeltrace2: /' |
	    tee -a "$results"

	# The browser's whole-trace scans as typed (bench/browser-scan.sh):
	# a regex search that matches nothing and :pid of an absent PID; no
	# peer has a browser to compare with, so these are times only.
	if command -v tmux >/dev/null 2>&1; then
		TVIEW=$TVIEW "$srcdir/bench/browser-scan.sh" "$path" \
		    >"$work/scan" 2>&1
		say ""
		sed 's/^browser-scan: /browser: /; s/ \([0-9][0-9]*\)$/ \1 ms/' \
		    "$work/scan" | tee -a "$results"
	fi
	# Drawing the control-flow and CPU views (bench/timeline-bench: the
	# timeline and density strip the pane builds, 200 columns), while
	# the background pass runs and after it; "strip" is the density
	# strip's part of the median; no peer draws these, so the ratio is
	# against the 100 ms budget (> 1: within it).
	tlb=$BUILDDIR/bench/timeline-bench
	test -x "$tlb" || return 0
	"$tlb" "$path" 20 200 >"$work/tl" 2>"$work/tl.err"
	test -s "$work/tl.err" && head -n 3 "$work/tl.err"
	say ""
	printf '%-24s %9s %9s %9s %9s %9s %8s\n' "draw C/CPU views" "n" \
	    "median" "p99" "max" "strip" "100ms/p99" | tee -a "$results"
	awk '($1 == "during" || $1 == "after") && $4 == 0 {
		printf "%-24s %9s\n", $1 " the pass, " $2, 0 }
	    ($1 == "during" || $1 == "after") && $4 > 0 {
		printf "%-24s %9s %9s %9s %9s %9s %7sx\n", $1 " the pass, " $2,
		    $4, $6 " ms", $8 " ms", $10 " ms", $14 " ms",
		    ($8 > 0 ? sprintf("%.1f", 100 / $8) : "-")
		if ($12 > 0) printf "    (%s of %s sampled from checkpoints)\n",
		    $12, $4 }
	    $1 == "pass_ms" { print "    background pass " $2 " ms with " \
		"draws alongside, " $7 " events" }' "$work/tl" |
	    tee -a "$results"
}

say "tview benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -srm)"
say "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)"
say "$(babeltrace2 --version | head -n 1); $("$TVIEW" --version | head -n 1)"

# 1. The generated trace.
gdir=$dir/gen-$BENCH_SIZE
if ! test -f "$gdir/.done"; then
	rm -rf "$gdir"
	"$gen" --cpus 4 --size "$BENCH_SIZE" --seed 1 --index "$gdir" \
	    2>"$work/gen.err" || { cat "$work/gen.err" >&2; exit 1; }
	cat "$work/gen.err" | tee -a "$results"
	touch "$gdir/.done"
fi
bench_trace "generated $BENCH_SIZE" "$gdir"

# 2. A real LTTng-UST trace, when the recorder is there and we are root.
rec=$TVIEW_SHARED/tools/record-ust-trace.sh
if test "$BENCH_REAL" = 0; then
	say ""
	say "real trace: skipped (BENCH_REAL=0)"
elif ! test -x "$rec"; then
	say ""
	say "real trace: skipped ($rec not found)"
elif test "$(id -u)" -ne 0; then
	say ""
	say "real trace: skipped (record-ust-trace.sh needs root)"
else
	rdir=$dir/ust-20M
	if ! test -f "$dir/ust-20M.done"; then
		rm -rf "$rdir"
		if "$rec" --threads 2 "$rdir" 20000000 >"$work/rec.log" 2>&1; then
			touch "$dir/ust-20M.done"
		else
			say ""
			say "real trace: recording failed, see below"
			tail -n 5 "$work/rec.log" | tee -a "$results"
		fi
	fi
	# the directory that holds the metadata (LTTng nests it)
	meta=$(find "$rdir" -name metadata -type f 2>/dev/null | head -n 1)
	test -f "$dir/ust-20M.done" && test -n "$meta" &&
	    bench_trace "real LTTng-UST, 20M events" "$(dirname "$meta")"
fi

say ""
say "bt2/tv: babeltrace2 time / tview time (higher is better for tview);
tview's dump and count times are the median of 3 runs; babeltrace2's
whole dump's and counter's too, taken turn about with tview's."
say "max RSS counts the mmap'ed trace pages tview touched; heap is the peak"
say "anonymous memory (RssAnon, sampled every 50 ms)."
test -n "$TVIEW_BENCH_DIR" && echo "results in $results"
exit 0
