#!/bin/sh
# --latency syscall on a trace that lacks context switches: a system call
# belongs to the thread whose records enter and leave it, even when the
# record that enters it (or leaves it) is the first that shows that thread
# on its CPU.  The trace, CTF written here: thread 100 is switched in and
# enters read; thread 200's records follow with no switch to it (it
# enters and leaves write, 5 us); 100's exit from read comes next, again
# with no switch (7 us); then 100 calls write normally (0.5 us).  Real
# recordings are like this: each CPU's first records come before any
# switch, and trace-cmd recordings made on the test machines lack every
# record of some threads except the switch to them, so the thread after
# them shows up unswitched.
# Then a wake-up: 100 wakes 300 and switches to it (1 us); records of 200
# follow, again with no switch, and 200 switches to 300: 300 came back to
# its CPU, but its wake-up was timed already and is not timed again.

TV_TEST_NAME=latency-owner
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

t=$tmp/trace
mkdir "$t"
cat >"$t/metadata" <<'META'
/* CTF 1.8 */
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 32; align = 8; signed = true; } := int32_t;
trace { major = 1; minor = 8; byte_order = le;
	packet.header := struct { uint32_t magic; uint32_t stream_id; }; };
env { domain = "kernel"; tracer_name = "lttng-modules"; };
clock { name = "monotonic"; freq = 1000000000; offset = 0; };
typealias integer { size = 64; align = 8; signed = false;
	map = clock.monotonic.value; } := uint64_clock_monotonic_t;
stream { id = 0;
	packet.context := struct { uint32_t cpu_id; };
	event.header := struct { uint32_t id;
	    uint64_clock_monotonic_t timestamp; };
	event.context := struct { int32_t tid; }; };
event { name = "sched_switch"; id = 0; stream_id = 0; fields := struct {
	int32_t prev_tid; int32_t prev_state; int32_t next_tid; }; };
event { name = "syscall_entry_read"; id = 1; stream_id = 0;
	fields := struct { int32_t fd; }; };
event { name = "syscall_exit_read"; id = 2; stream_id = 0;
	fields := struct { int32_t ret; }; };
event { name = "syscall_entry_write"; id = 3; stream_id = 0;
	fields := struct { int32_t fd; }; };
event { name = "syscall_exit_write"; id = 4; stream_id = 0;
	fields := struct { int32_t ret; }; };
event { name = "sched_wakeup"; id = 5; stream_id = 0;
	fields := struct { int32_t tid; }; };
event { name = "timer_tick"; id = 6; stream_id = 0;
	fields := struct { int32_t n; }; };
META

# le32 N: N as 4 little-endian bytes; le64 N: 8.
le32() {
	# shellcheck disable=SC2059 # the format is the bytes themselves
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) \
	    $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"
}
le64() { le32 $(($1 & 4294967295)); le32 $(($1 >> 32)); }
# ev ID TS TID FIELD...: one event (header, tid context, 32-bit fields).
ev() {
	le32 "$1"; le64 "$2"; le32 "$3"; shift 3
	for _f; do le32 "$_f"; done
}
{
	le32 3254525889; le32 0; le32 0		# magic, stream 0, CPU 0
	ev 0 1000 0 0 0 100		# swapper -> 100
	ev 1 2000 100 3			# 100 enters read
	ev 3 3000 200 1			# 200 enters write, unswitched
	ev 4 8000 200 0			# 200 leaves write
	ev 2 9000 100 0			# 100 leaves read, unswitched
	ev 3 10000 100 1		# 100 enters write
	ev 4 10500 100 0		# and leaves it
	ev 5 11000 100 300		# 100 wakes 300
	ev 0 12000 100 100 1 300	# 100 sleeps, 300 in: 1 us
	ev 6 13000 200 1		# 200 runs, unswitched
	ev 0 14000 200 200 1 300	# 200 -> 300 again
} >"$t/stream_0"

"$TVIEW" --latency syscall "$t" >"$tmp/out" 2>"$tmp/err"
ok "tview --latency syscall exits 0" test $? -eq 0
ok "nothing on stderr" test ! -s "$tmp/err"
# row NAME: "COUNT MIN MAX" of a series
row() { awk -v n="$1" '$1 == n { print $2, $3, $7; exit }' "$tmp/out"; }
ok "three system calls, 0.5 to 7 us ($(row syscall))" \
    test "$(row syscall)" = "3 0.500 7.000"
ok "read: 100's, 7 us, its exit after no switch ($(row read))" \
    test "$(row read)" = "1 7.000 7.000"
ok "write: 200's 5 us (entered after no switch) and 0.5 us ($(row write))" \
    test "$(row write)" = "2 0.500 5.000"
ok "the longest are 100's read and 200's write" \
    test "$(awk '$1 ~ /^00:/ { printf "%s %s;", $2, $3 }' "$tmp/out")" = \
    "7.000 100;5.000 200;0.500 100;"
cat "$tmp/out"

"$TVIEW" --latency wakeup "$t" >"$tmp/out" 2>"$tmp/err"
ok "one wake-up of 1 us, timed once ($(row wakeup))" \
    test "$(row wakeup)" = "1 1.000 1.000"
tv_test_done
