# shellcheck shell=sh
# Sourced by the shell tests: the pinned environment, a private temporary
# directory removed on exit, and the ok/tv_test_done pair that counts
# checks.  A test in a subdirectory sets top_srcdir before sourcing; make
# check sets top_srcdir, top_builddir, TVIEW and TVIEW_SHARED itself.
# Optional before sourcing: TV_TEST_NAME (names the temporary directory).
# Optional after: TV_ON_FAIL, a command run after each failed check.

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${TVIEW:=$top_builddir/tview}"
: "${GEN_CTF:=$top_builddir/gen-ctf}"
TZ=UTC
LC_ALL=C.UTF-8
export TZ LC_ALL
unset LANGUAGE

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tview-${TV_TEST_NAME:-test}.XXXXXX") ||
    exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
checks=0

# ok DESC CMD...: run a shell condition and report it.
ok() {
	desc=$1; shift
	checks=$((checks + 1))
	if "$@"; then
		echo "ok - $desc"
	else
		echo "FAIL - $desc"
		fails=$((fails + 1))
		if test -n "${TV_ON_FAIL:-}"; then $TV_ON_FAIL; fi
	fi
}

# wait_exit PID: give PID (a child) 10 s to end by itself, then kill it
# ($killed 1 then, else 0); its exit status, in $rc too.
# shellcheck disable=SC2034 # killed is the callers'
wait_exit() {
	_i=0 killed=0
	while kill -0 "$1" 2>/dev/null && test "$_i" -lt 200; do
		sleep 0.05
		_i=$((_i + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill "$1"
		killed=1
		echo "# still running 10 s later: killed"
	fi
	wait "$1"
	rc=$?
	return "$rc"
}

# piece FILE OFF LEN: LEN bytes of FILE from byte OFF.
piece() {
	tail -c +"$(($2 + 1))" "$1" | head -c "$3"
}

# wait_lines FILE N PID: until FILE has N lines or more (10 s at most),
# or PID has exited.
wait_lines() {
	_i=0
	while test "$_i" -lt 200 && kill -0 "$3" 2>/dev/null; do
		test "$(wc -l <"$1")" -ge "$2" && return 0
		sleep 0.05
		_i=$((_i + 1))
	done
	test "$(wc -l <"$1")" -ge "$2"
}

# follow_checks OUT ERR LIVE FULL WHAT: what a follower that ended ($rc)
# must have done: exit 0, nothing on ERR, printed OUT equal to FULL (the
# original's --dump), which the finished copy LIVE dumps too.
follow_checks() {
	test -s "$2" && sed 's/^/# /' "$2"
	ok "ends by itself, exit 0" test "$rc" -eq 0
	ok "nothing on stderr" test ! -s "$2"
	"$TVIEW" --dump "$3" >"$tmp/full-live" 2>&1
	ok "the finished copy dumps as the original" cmp -s "$tmp/full-live" \
	    "$4"
	ok "--follow printed $5, byte for byte" cmp -s "$1" "$4"
	test -s "$1" && ! cmp -s "$1" "$4" &&
	    diff "$1" "$4" | head -5 | sed 's/^/# /'
}

# peak_file CMD...: run CMD (stdout to $tmp/out, stderr to $tmp/err);
# its peak file-backed resident KiB (RssFile and RssShmem, a file on
# tmpfs counting in the latter, sampled every 50 ms) in $peak, the last
# sample in $last, its exit status returned.  Needs /proc.
# shellcheck disable=SC2034 # last is the callers'
peak_file() {
	"$@" >"$tmp/out" 2>"$tmp/err" &
	_pid=$!
	peak=0
	last=0
	while kill -0 "$_pid" 2>/dev/null; do
		_kib=$(awk '/^Rss(File|Shmem):/ { n += $2 } END { print n }' \
		    "/proc/$_pid/status" 2>/dev/null)
		test -n "$_kib" && last=$_kib
		if test -n "$_kib" && test "$_kib" -gt "$peak"; then
			peak=$_kib
		fi
		sleep 0.05
	done
	wait "$_pid"
}

# tv_test_done: the closing count; the exit status of the test.
tv_test_done() {
	echo "$checks checks, $fails failed"
	test "$fails" -eq 0
}

# mutate FILE I CUT_EVERY NBYTES: damage FILE as the mutation tests do:
# when I is a multiple of CUT_EVERY, cut it at a random length, else
# overwrite NBYTES random bytes.  The caller defines next_rand MAX.
mutate() {
	_size=$(wc -c <"$1")
	if test $(($2 % $3)) -eq 0; then
		head -c "$(next_rand "$_size")" "$1" >"$tmp/cut" &&
		    cat "$tmp/cut" >"$1"
		return
	fi
	_k=0
	while test "$_k" -lt "$4"; do
		_k=$((_k + 1))
		_off=$(next_rand "$_size")
		_byte=$(printf '\\%03o' "$(next_rand 256)")
		# shellcheck disable=SC2059  # the format is the byte itself
		printf "$_byte" | dd of="$1" bs=1 seek="$_off" \
		    conv=notrunc 2>/dev/null
	done
}

# gen_formats DIR EVENTS: one trace of each format from the generators:
# DIR/ctf (CTF, about EVENTS * 30 bytes), DIR/ltt (LTT 0.x, gen-ltt's
# expectations in DIR/ltt.exp), DIR/td.dat (trace.dat, EVENTS at most
# 4000000); skips (exit 77) without the generators.
gen_formats() {
	: "${GEN_LTT:=$top_builddir/gen-ltt}" "${TD_GEN:=$top_builddir/td-gen}"
	for _g in "$GEN_CTF" "$GEN_LTT" "$TD_GEN"; do
		test -x "$_g" || { echo "skip: no $_g"; exit 77; }
	done
	"$GEN_CTF" --quiet --cpus 2 --size "$(($2 * 30))" "$1/ctf" \
	    >/dev/null || exit 99
	"$GEN_LTT" --format fac --cpus 2 --events "$2" --expect \
	    "$1/ltt.exp" "$1/ltt" >/dev/null || exit 99
	"$TD_GEN" --events "$2" "$1/td.dat" || exit 99
}
