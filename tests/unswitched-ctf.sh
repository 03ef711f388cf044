# shellcheck shell=sh
# Sourced by the tests of records whose thread the trace never switched
# to (latency-owner.sh, ui/match-unswitched.sh): unswitched_ctf DIR
# writes there a small CTF trace (one CPU) in which:
#  - 1 us: swapper switches to thread 100, which enters read at 2 us;
#  - 3 us: thread 200 enters write, with no switch to it; leaves at 8 us;
#  - 9 us: thread 100 leaves read (7 us), again with no switch;
#  - 10 us: 100 enters write, leaves at 10.5 us;
#  - 11 us: 100 wakes 300; 12 us: 100 sleeps, 300 switched in (1 us);
#  - 13 us: a record of 200 (timer_tick), with no switch; 14 us: 200
#    switches to 300 again.
# Real recordings are like this: each CPU's first records come before
# any switch, and the trace-cmd recordings made on the test machines
# lack every record of some threads except the switch to them, so the
# thread after them shows up unswitched.

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

unswitched_ctf() {
	mkdir -p "$1"
	cat >"$1/metadata" <<-'META'
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
	} >"$1/stream_0"
}
