#!/bin/sh
# tview --dump --follow on a real LTTng-UST session whose metadata grows
# while it is followed (issue 15, point 2): the test's own session
# daemon (tests/lttng-lib.sh) records `ls` under lttng-ust's libc
# wrapper; tview starts following once the session holds its events,
# then python3 runs under the pthread wrapper: a tracepoint provider
# registered later, whose event classes LTTng appends to the metadata.
# What is checked:
#  - the metadata did grow while tview followed (its size before and
#    after), and the new classes' events are in the trace;
#  - tview is still following before the session is destroyed, and
#    ends by itself after, exit 0, nothing on stderr;
#  - what it printed equals `babeltrace2 --clock-gmt --no-delta` of the
#    finished trace and `tview --dump` of it, byte for byte: the
#    pthread events decoded with the classes read while following.
# Then trace directories that appear later (point 2): a per-PID buffers
# session followed from its directory while `sleep` runs traced, `cat`
# run after tview started makes a second trace directory; tview ends by itself, exit 0, and
# what it printed holds cat's events and equals babeltrace2.  Then an
# application that exited before a second one runs: the second one's
# events are printed while the session still runs.
# Skips without LTTng, lttng-ust's wrappers, python3, taskset or
# babeltrace2.

TV_TEST_NAME=follow-grow
# shellcheck source=lib.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
command -v babeltrace2 >/dev/null 2>&1 ||
    { echo "skip: babeltrace2 is not installed"; exit 77; }
for c in python3 taskset nproc; do
	command -v "$c" >/dev/null 2>&1 ||
	    { echo "skip: $c is not installed"; exit 77; }
done
pthread_wrapper=liblttng-ust-pthread-wrapper.so.1
ldconfig -p 2>/dev/null | grep -qF "$pthread_wrapper" ||
    { echo "skip: no $pthread_wrapper (liblttng-ust1)"; exit 77; }
# shellcheck source=lttng-lib.sh
. "$top_srcdir/tests/lttng-lib.sh"
trap 'lttng_cleanup; rm -rf "$tmp"' EXIT
lttng_start || exit $?

s=grow$$
lttng_ust_session "$s" "$tmp/trace" 'lttng_ust_libc:*,lttng_ust_pthread:*' ||
    { echo "FAIL: lttng setup"; exit 1; }
lttng_traced ls / >/dev/null
wait_for 20 lttng_stream_dir "$tmp/trace" >/dev/null ||
    { echo "FAIL: no packet written"; exit 1; }
dir=$(lttng_stream_dir "$tmp/trace")
before=$(wc -c <"$dir/metadata")

: >"$tmp/out"
"$TVIEW" --dump --follow "$dir" >"$tmp/out" 2>"$tmp/err" &
pid=$!
have_lines() { test -s "$tmp/out"; }
wait_for 20 have_lines
ok "following: the first events printed" kill -0 "$pid"

# a provider registered after tview started: metadata appended to
lttng_pthread_app
# tview prints what every stream has settled: events on each CPU move
# them all on
cpus=$(nproc)
has_pthread() {
	_c=0
	while test "$_c" -lt "$cpus"; do
		lttng_traced taskset -c "$_c" ls / >/dev/null 2>&1
		_c=$((_c + 1))
	done
	grep -q "lttng_ust_pthread:" "$tmp/out"
}
wait_for 20 has_pthread
after=$(wc -c <"$dir/metadata")
ok "the metadata grew while followed ($before -> $after bytes)" \
    test "$after" -gt "$before"
ok "the new classes' events printed while following" has_pthread
ok "still following before the session is destroyed" kill -0 "$pid"
as_tracer lttng stop >/dev/null
as_tracer lttng destroy >/dev/null
wait_exit "$pid"
sed 's/^/# /' "$tmp/err" | head -3
ok "ends by itself once the session is destroyed, exit 0" test "$rc" -eq 0
ok "nothing on stderr" test ! -s "$tmp/err"
babeltrace2 --clock-gmt --no-delta "$dir" >"$tmp/bt2" 2>/dev/null
"$TVIEW" --dump "$dir" >"$tmp/full" 2>&1
n=$(grep -c "lttng_ust_pthread:" "$tmp/bt2")
ok "the finished trace holds $n events of the new classes" test "$n" -gt 0
ok "--follow equals babeltrace2 ($(wc -l <"$tmp/bt2") lines)" \
    cmp -s "$tmp/out" "$tmp/bt2"
cmp -s "$tmp/out" "$tmp/bt2" ||
    diff "$tmp/out" "$tmp/bt2" | head -5 | sed 's/^/# /'
ok "--follow equals --dump of the finished trace" cmp -s "$tmp/out" \
    "$tmp/full"

# Per-PID buffers: each application its own trace directory, made when
# it registers.  tview follows the session's directory; the second
# application's directory appears while it does.
s=pid$$
lttng_ust_session "$s" "$tmp/pid" 'lttng_ust_libc:*' --buffers-pid ||
    { echo "FAIL: lttng setup"; exit 1; }
pid_dirs() { find "$tmp/pid" -name metadata | wc -l; }
has_dir() { test "$(pid_dirs)" -ge 1 && test -n "$(find "$tmp/pid" \
    -type f -name 'ch0_*' ! -name '*.idx' -size +0)"; }
# an application that stays: tview follows while a file is written
as_tracer_bg env LD_PRELOAD="$lttng_wrapper" sleep 60
app=$bgpid
wait_for 20 has_dir || { echo "FAIL: no packet written"; exit 1; }
: >"$tmp/pout"
"$TVIEW" --dump --follow "$tmp/pid" >"$tmp/pout" 2>"$tmp/perr" &
pid=$!
have_plines() { test -s "$tmp/pout"; }
wait_for 20 have_plines
lttng_traced cat /dev/null
two_dirs() { test "$(pid_dirs)" -ge 2; }
wait_for 20 two_dirs
ok "per-PID: a second trace directory appeared while followed" \
    test "$(pid_dirs)" -eq 2
ok "per-PID: still following" kill -0 "$pid"
kill "$app"
wait "$app" 2>/dev/null
as_tracer lttng stop >/dev/null
as_tracer lttng destroy >/dev/null
wait_exit "$pid"
sed 's/^/# /' "$tmp/perr" | head -3
ok "per-PID: ends by itself, exit 0, nothing on stderr" \
    test "$rc" -eq 0 -a ! -s "$tmp/perr"
babeltrace2 --clock-gmt --no-delta "$tmp/pid" >"$tmp/pbt2" 2>/dev/null
ok "per-PID: the second application's events printed" \
    grep -q ":cat:" "$tmp/pout"
ok "per-PID: --follow equals babeltrace2 ($(wc -l <"$tmp/pbt2") lines)" \
    cmp -s "$tmp/pout" "$tmp/pbt2"
cmp -s "$tmp/pout" "$tmp/pbt2" ||
    diff "$tmp/pout" "$tmp/pbt2" | head -5 | sed 's/^/# /'

# Per-PID, an application that exited: LTTng closes its files but the
# session lives (its daemons hold the output directories).  tview must
# neither stop following nor let the finished trace hold back the events
# of an application started later: they are printed while the session
# still runs.
s=pidx$$
lttng_ust_session "$s" "$tmp/pidx" 'lttng_ust_libc:*' --buffers-pid ||
    { echo "FAIL: lttng setup"; exit 1; }
lttng_traced ls / >/dev/null
has_ls() { test -n "$(find "$tmp/pidx" -type f -name 'ch0_*' ! -name \
    '*.idx' -size +0)"; }
wait_for 20 has_ls || { echo "FAIL: no packet written"; exit 1; }
# ls has exited: the consumer closes its files once it unregisters
sleep 1
: >"$tmp/xout"
"$TVIEW" --dump --follow "$tmp/pidx" >"$tmp/xout" 2>"$tmp/xerr" &
pid=$!
have_xlines() { test -s "$tmp/xout"; }
wait_for 20 have_xlines
# a tview that took the closed files for the end is gone well before
sleep 1
ok "per-PID, exited: still following the live session" kill -0 "$pid"
lttng_traced cat /dev/null
has_cat() { grep -q ":cat:" "$tmp/xout"; }
ok "per-PID, exited: a later application's events printed while the \
session runs" wait_for 20 has_cat
ok "per-PID, exited: still following" kill -0 "$pid"
as_tracer lttng stop >/dev/null
as_tracer lttng destroy >/dev/null
wait_exit "$pid"
ok "per-PID, exited: ends once the session is destroyed, exit 0" \
    test "$rc" -eq 0 -a ! -s "$tmp/xerr"
babeltrace2 --clock-gmt --no-delta "$tmp/pidx" >"$tmp/xbt2" 2>/dev/null
ok "per-PID, exited: --follow equals babeltrace2 ($(wc -l <"$tmp/xbt2") \
lines)" cmp -s "$tmp/xout" "$tmp/xbt2"
tv_test_done
