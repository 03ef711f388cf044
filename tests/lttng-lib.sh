# shellcheck shell=sh
# Sourced by tests/live.sh and bench/live-latency.sh: a private LTTng
# session daemon and relay daemon for the caller, and user-space events
# without a compiler (lttng-ust's libc wrapper under `ls`).
#  - the daemons run with their own LTTNG_HOME ($tmp/lttng), as `nobody`
#    when the caller is root, so they never meet the machine's own;
#  - the relay listens on three free loopback ports: $C (control),
#    $D (data), $L (live); $url is net://127.0.0.1:$L; $host the name
#    sessions are listed under;
#  - lttng_cleanup kills them (the caller's EXIT trap calls it).
# Expects $tmp (a directory the caller removes).  lttng_start returns 77
# (skip) when something is missing or a daemon does not start.
# The caller sets $tmp and uses $url, $host, $C, $D and $L:
# shellcheck disable=SC2034,SC2154

lttng_wrapper=liblttng-ust-libc-wrapper.so.1
lttng_pids=

# as_tracer CMD...: CMD as the user who owns the daemons.
as_tracer() {
	if test "$(id -u)" = 0; then
		env HOME="$lh" LTTNG_HOME="$lh" setpriv --reuid=nobody \
		    --regid=nogroup --clear-groups "$@"
	else
		env HOME="$lh" LTTNG_HOME="$lh" "$@"
	fi
}

# as_tracer_bg CMD...: as_tracer in the background; its pid in $bgpid
# (env and setpriv exec, so it is CMD's own pid).
as_tracer_bg() {
	if test "$(id -u)" = 0; then
		env HOME="$lh" LTTNG_HOME="$lh" setpriv --reuid=nobody \
		    --regid=nogroup --clear-groups "$@" &
	else
		env HOME="$lh" LTTNG_HOME="$lh" "$@" &
	fi
	bgpid=$!
}

# wait_for SECONDS CMD...: poll every 0.1 s until CMD succeeds.
wait_for() {
	_n=$(($1 * 10)); shift
	while test "$_n" -gt 0; do
		"$@" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}

# lttng_ust_session NAME OUTDIR EVENTS [CHANNEL-OPTION...]: a started
# session writing to OUTDIR, channel ch0 (64 KiB sub-buffers flushed by a
# 100 ms switch timer, and the options), with the UST events EVENTS.
lttng_ust_session() {
	_s=$1 _out=$2 _ev=$3
	shift 3
	as_tracer lttng create "$_s" --output="$_out" >/dev/null &&
	    as_tracer lttng enable-channel -u ch0 "$@" --subbuf-size=64K \
	    --switch-timer=100000 >/dev/null &&
	    as_tracer lttng enable-event -u -c ch0 "$_ev" >/dev/null &&
	    as_tracer lttng start >/dev/null
}

# lttng_stream_dir DIR: the trace directory under DIR whose ch0 stream
# file holds a packet; status 1 while there is none.
lttng_stream_dir() {
	_f=$(find "$1" -type f -name 'ch0_*' ! -name '*.idx' -size +0 \
	    2>/dev/null | head -n 1)
	test -n "$_f" && dirname "$_f"
}

# lttng_pthread_app: a python3 starting and joining 4 threads under
# lttng-ust's pthread wrapper (a provider that registers when it runs).
lttng_pthread_app() {
	as_tracer env LD_PRELOAD=liblttng-ust-pthread-wrapper.so.1 python3 -c '
import threading
def work():
    for i in range(200):
        pass
ts = [threading.Thread(target=work) for i in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
' || echo "# python3 under the wrapper failed"
}

# lttng_traced CMD...: CMD as the tracer, its malloc/free traced.
lttng_traced() {
	as_tracer env LD_PRELOAD="$lttng_wrapper" "$@"
}

# lttng_cleanup: kill what lttng_start and lttng_bg started.
lttng_cleanup() {
	for _p in $lttng_pids; do kill "$_p" 2>/dev/null; done
	for _p in $lttng_pids; do wait "$_p" 2>/dev/null; done
}

# lttng_start: the daemons; status 77 with a message when they cannot be.
lttng_start() {
	for _c in lttng lttng-sessiond lttng-relayd setpriv; do
		command -v "$_c" >/dev/null 2>&1 ||
			{ echo "SKIP: $_c is not installed"; return 77; }
	done
	ldconfig -p 2>/dev/null | grep -qF "$lttng_wrapper" ||
		{ echo "SKIP: no $lttng_wrapper (liblttng-ust1)"; return 77; }
	lh=$tmp/lttng
	mkdir -p "$lh" && chmod 1777 "$tmp" "$lh" || return 99
	as_tracer_bg lttng-sessiond >"$tmp/sessiond.log" 2>&1
	lttng_pids="$lttng_pids $bgpid"
	wait_for 20 as_tracer lttng list >/dev/null 2>&1 ||
		{ echo "SKIP: lttng-sessiond did not start"; return 77; }
	_base=$((20000 + ($$ % 4000) * 3))
	_tries=0
	while :; do
		C=$_base D=$((_base + 1)) L=$((_base + 2))
		as_tracer_bg lttng-relayd -C "tcp://127.0.0.1:$C" \
		    -D "tcp://127.0.0.1:$D" -L "tcp://127.0.0.1:$L" \
		    -o "$lh/out" >"$tmp/relayd.log" 2>&1
		sleep 0.5
		kill -0 "$bgpid" 2>/dev/null && break
		_tries=$((_tries + 1))
		test "$_tries" -lt 10 ||
			{ echo "SKIP: lttng-relayd did not start"; return 77; }
		_base=$((_base + 7))
	done
	lttng_pids="$bgpid $lttng_pids"
	url=net://127.0.0.1:$L
	host=$(hostname)
	return 0
}
