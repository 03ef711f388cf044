#!/bin/sh
# The browser follows an LTTng-UST session whose metadata grows (issue
# 15, point 2): the test's own session daemon (tests/lttng-lib.sh)
# records `ls` under lttng-ust's libc wrapper, `tview --follow` shows
# the session, then python3 runs under the pthread wrapper, a provider
# registered later whose event classes LTTng appends to the metadata.
#  - --follow shows the libc events;
#  - once a pthread event is in the trace files (tview --dump of them
#    says so), the browser shows one within 1 s; the delay from python3
#    starting to the screen showing it is printed ("# latency");
#  - all that through a filter typed before python3 ran, which keeps
#    every event (cpu_id >= 0): compiled again for the new classes, it
#    keeps theirs too (N of N); off, the status bar counts N;
#  - q exits with 0.
# Skips without LTTng, lttng-ust's wrappers or python3.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 ||
	{ echo "skip: python3 is not installed"; exit 77; }
pthread_wrapper=liblttng-ust-pthread-wrapper.so.1
ldconfig -p 2>/dev/null | grep -qF "$pthread_wrapper" ||
	{ echo "skip: no $pthread_wrapper (liblttng-ust1)"; exit 77; }
# shellcheck source=../lttng-lib.sh
. "$top_srcdir/tests/lttng-lib.sh"
# shellcheck disable=SC2154 # _s is the loop variable inside the trap
trap 'for _s in $socks; do tmux -L "$_s" kill-server >/dev/null 2>&1; done
lttng_cleanup; rm -rf "$tmp"' EXIT
lttng_start || exit $?
s=tvgrow$$
lttng_ust_session "$s" "$tmp/trace" 'lttng_ust_libc:*,lttng_ust_pthread:*' ||
    { echo "FAIL: lttng setup"; exit 1; }
lttng_traced ls / >/dev/null
wait_for 20 lttng_stream_dir "$tmp/trace" >/dev/null ||
    { echo "FAIL: no packet written"; exit 1; }
dir=$(lttng_stream_dir "$tmp/trace")
ui_start -x 160 -y 24 --follow "$dir"
ok "--follow shows the libc events" ui_wait "lttng_ust_libc:"
# a filter compiled before the classes whose events it will keep exist
ui_type ':filter cpu_id >= 0'; ui_keys Enter
n=$("$TVIEW" --count "$dir" 2>/dev/null)
ok "a filter keeping every event: $n of $n" ui_wait ": $n of $n events"

now_ms() { date +%s%3N; }
t0=$(now_ms)
lttng_pthread_app
written() {
	"$TVIEW" --dump "$dir" 2>/dev/null | grep -q "lttng_ust_pthread:"
}
wait_for 20 written
ok "a pthread event of the new classes on screen within 1 s of being in \
the files" ui_wait "lttng_ust_pthrea" 1
echo "# latency: $(($(now_ms) - t0)) ms from python3 starting"
# LTTng flushes its buffers on a timer: the count once it stops growing
# (counted too early, a loaded machine saw 7963 while the files grew to
# 8097)
settled() {
	m=$("$TVIEW" --count "$dir" 2>/dev/null)
	test -n "$m" && test "$m" = "${n:-}" && return 0
	n=$m
	sleep 1
	return 1
}
n=
wait_for 20 settled
ok "the filter keeps the new classes' events too: $n of $n" \
    ui_wait ": $n of $n events" 3
ui_type ":filter"; ui_keys Enter
ok "filter off: the status bar counts the $n events" ui_wait "of $n " 3
ok "quits with 0" ui_quit
done_tests
