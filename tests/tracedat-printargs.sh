#!/bin/sh
# What a trace.dat record may make libtraceevent read and pad when it is
# printed (issue 17): td-gen writes files whose msg event prints with
# lengths and widths taken from the record (__print_hex, __print_array,
# "%*phD", "%*d") or written in the format.  Where the record's value
# fits (lengths of the record's own dynamic array, small widths) every
# record prints and the exit status is 0; where it does not, the other
# events are still printed, the msg records are not, and the error is
# one line naming the file and an offset, exit status 1, within seconds
# (these read past the record or printed gigabytes before).  The
# records that print are compared with trace-cmd report when installed.

TV_TEST_NAME=tracedat-printargs
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
gen=$top_builddir/td-gen

# run NAME FMT: write NAME.dat with FMT as the msg print fmt, dump it
run() {
	"$gen" --events 60 --msg-fmt "$2" "$tmp/$1.dat" || exit 99
	timeout 60 "$TVIEW" --dump "$tmp/$1.dat" >"$tmp/$1.out" \
	    2>"$tmp/$1.err"
	echo $? >"$tmp/$1.rc"
}
# good NAME FMT: all 60 records, 9 of them msg, exit 0, nothing said
good() {
	run "$@"
	ok "$1: exit 0, quiet" test "$(cat "$tmp/$1.rc")" -eq 0 \
	    -a ! -s "$tmp/$1.err"
	ok "$1: 60 records, 9 msg" test "$(grep -c '^ .*\] ' \
	    "$tmp/$1.out")" -eq 60 -a "$(grep -c ' msg: ' "$tmp/$1.out")" \
	    -eq 9
	# the same text as trace-cmd report, when it is installed
	if command -v trace-cmd >/dev/null 2>&1; then
		sh "$top_srcdir/tests/tc-report" \
		    "$tmp/$1.dat" 2>/dev/null | grep ' msg: ' \
		    >"$tmp/$1.want"
		grep ' msg: ' "$tmp/$1.out" >"$tmp/$1.got"
		ok "$1: msg lines as trace-cmd report prints them" \
		    cmp -s "$tmp/$1.want" "$tmp/$1.got"
	fi
}
# bad NAME FMT [load]: a one-line error naming file and offset, exit 1;
# the other records printed unless the format is refused at load
bad() {
	run "$1" "$2"
	ok "$1: exit 1" test "$(cat "$tmp/$1.rc")" -eq 1
	ok "$1: one line naming the file and an offset" \
	    test "$(grep -c . "$tmp/$1.err")" -eq 1
	ok "$1: $(cat "$tmp/$1.err")" \
	    grep -q "^tview: $tmp/$1.dat: offset 0x[0-9a-f]*: " "$tmp/$1.err"
	if test -z "${3:-}"; then
		ok "$1: the other records printed" test "$(grep -c \
		    'sched_switch:' "$tmp/$1.out")" -gt 0 -a "$(grep -c \
		    ' msg: ' "$tmp/$1.out")" -eq 0
	fi
}

good plain '"val=%d msg=%s", REC->val, __get_str(msg)'
good hex '"h=%s", __print_hex(__get_dynamic_array(msg), __get_dynamic_array_len(msg))'
good array '"a=%s", __print_array(__get_dynamic_array(msg), __get_dynamic_array_len(msg) / 4, 4)'
good hexdump '"[%*phD]", __get_dynamic_array_len(msg), __get_dynamic_array(msg)'
good width '"val=%*d", REC->val & 15, REC->val'
# a divisor sizeof a kernel table (binder's ARRAY_SIZE): accepted, as report
good sizeof-div '"cmd=%d %s", REC->val, (REC->val < (sizeof(tbl) / sizeof((tbl)[0]))) ? "in" : "out"'
bad hex-rec '"h=%s", __print_hex(__get_dynamic_array(msg), REC->val)'
bad array-rec '"a=%s", __print_array(__get_dynamic_array(msg), REC->val, 4)'
bad hexdump-rec '"[%*phD]", REC->val, __get_dynamic_array(msg)'
bad width-rec '"val=%*d", REC->val, REC->val'
bad width-lit '"val=%1000000000d", REC->val' load
tv_test_done
