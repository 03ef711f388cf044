#!/bin/sh
# A trace file that changes while `tview --dump` reads it never kills
# tview (SIGBUS, exit 135): each format (CTF, trace.dat, LTT 0.x, made by
# the generators) is dumped into a pipe that stops reading after 64 KiB,
# so tview is blocked half way with most packets still to decode; the
# file is changed then, and the rest read.  What is checked:
#  - truncated in place: exit 1, one line "FILE: offset 0x..: was
#    truncated while open: X left of Y" on stderr, every line printed is
#    a line of the dump of the whole trace, in the same order, fewer of
#    them, and (several files) every line of the other files is there;
#  - emptied then replaced by another file (rename): "was replaced";
#  - emptied then deleted: "was deleted while open";
#  - deleted (unlinked) only, as LTTng's --tracefile-count does, or
#    replaced by a rename: the mapping keeps the old file, the dump is
#    whole, exit 0.

TV_TEST_NAME=file-change
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
gen_formats "$tmp" 100000
"$TD_GEN" --events 5000 "$tmp/small.dat" || exit 99

# subseq PART FULL: every line of PART is a line of FULL, in that order.
subseq() {
	awk 'NR == FNR { a[++n] = $0; next }
	    { while (i < n && a[++i] != $0) ; if (a[i] != $0) exit 1 }
	    END { exit 0 }' "$2" "$1"
}

# fewer PART FULL: PART has fewer lines than FULL, and some.
fewer() {
	_p=$(wc -l <"$1"); _f=$(wc -l <"$2")
	test "$_p" -gt 0 && test "$_p" -lt "$_f"
}

# same_lines PATTERN A B: the lines of A and B matching PATTERN are equal.
same_lines() {
	grep -F -- "$1" "$2" >"$tmp/a.sel"; grep -F -- "$1" "$3" >"$tmp/b.sel"
	test -s "$tmp/a.sel" && cmp -s "$tmp/a.sel" "$tmp/b.sel"
}

# blocked PIDFILE: wait (5 s at most) until every thread of the process
# is asleep: the main one blocked writing to the full pipe, the --dump
# workers waiting for room ahead of it (without /proc: a fixed wait).
blocked() {
	_pid=$(cat "$1")
	test -r "/proc/$_pid/stat" || { sleep 1; return; }
	_n=100
	while [ "$_n" -gt 0 ]; do
		_busy=$(cat "/proc/$_pid"/task/*/stat 2>/dev/null |
		    awk '{ sub(/^.*\) /, ""); if ($1 != "S") n++ }
		    END { print n + 0 }')
		test "$_busy" -eq 0 && return
		sleep 0.05
		_n=$((_n - 1))
	done
}

# change_while_dumping TRACE ACTION [OPTION]: dump TRACE (with OPTION)
# into $tmp/part, running the shell text ACTION once tview is blocked on
# the full pipe; exit status in $rc, stderr in $tmp/err.
change_while_dumping() {
	rm -f "$tmp/part" "$tmp/err" "$tmp/rc" "$tmp/pid"
	{ "$TVIEW" --dump ${3:-} "$1" 2>"$tmp/err" & echo $! >"$tmp/pid"; wait $!
	    echo $? >"$tmp/rc"; } |
	    { head -c 65536 >"$tmp/part"; blocked "$tmp/pid"; eval "$2"
	    cat >>"$tmp/part"; }
	rc=$(cat "$tmp/rc")
	test -s "$tmp/err" && sed 's/^/# /' "$tmp/err"
}

# run_format NAME TRACE FILE OTHER: the cases above; FILE is the file of
# TRACE changed, OTHER a pattern of the lines of the files left alone
# (empty when there is one file).
run_format() {
	_name=$1 _trace=$2 _file=$3 _other=$4
	"$TVIEW" --dump "$_trace" >"$tmp/full.$_name" 2>"$tmp/err" ||
	    { echo "FAIL - $_name: dump of the whole trace"; exit 1; }
	_size=$(wc -c <"$_file")
	cp -R "$_trace" "$tmp/orig" || exit 99

	change_while_dumping "$_trace" "truncate -s $((_size / 4)) '$_file'"
	ok "$_name truncated: exit 1 (got $rc)" test "$rc" = 1
	ok "$_name truncated: the error names the file and what is left" \
	    grep -Eq "^tview: $_file: offset 0x[0-9a-f]+: was truncated while open: [0-9.]+ (KiB|MiB) left of [0-9.]+ (KiB|MiB)$" \
	    "$tmp/err"
	ok "$_name truncated: one error line" test "$(wc -l <"$tmp/err")" = 1
	ok "$_name truncated: lines of the whole dump, in order" \
	    subseq "$tmp/part" "$tmp/full.$_name"
	ok "$_name truncated: fewer lines" fewer "$tmp/part" "$tmp/full.$_name"
	if test -n "$_other"; then
		ok "$_name truncated: the other files are read whole" \
		    same_lines "$_other" "$tmp/part" "$tmp/full.$_name"
	fi

	rm -rf "$_trace"; cp -R "$tmp/orig" "$_trace"
	change_while_dumping "$_trace" ": >'$_file'; cp '$5' '$_file.new'; \
	    mv '$_file.new' '$_file'"
	ok "$_name replaced: exit 1 (got $rc)" test "$rc" = 1
	ok "$_name replaced: the error says so" grep -q \
	    "^tview: $_file: offset 0x[0-9a-f]*: was replaced by another file while open$" \
	    "$tmp/err"
	ok "$_name replaced: lines of the whole dump, in order" \
	    subseq "$tmp/part" "$tmp/full.$_name"

	rm -rf "$_trace"; cp -R "$tmp/orig" "$_trace"
	change_while_dumping "$_trace" ": >'$_file'; rm '$_file'"
	ok "$_name emptied and deleted: exit 1 (got $rc)" test "$rc" = 1
	ok "$_name emptied and deleted: the error says so" grep -q \
	    "^tview: $_file: offset 0x[0-9a-f]*: was deleted while open$" \
	    "$tmp/err"

	rm -rf "$_trace"; cp -R "$tmp/orig" "$_trace"
	change_while_dumping "$_trace" "rm '$_file'"
	ok "$_name deleted: exit 0 (got $rc)" test "$rc" = 0
	ok "$_name deleted: the whole dump" cmp -s "$tmp/part" \
	    "$tmp/full.$_name"

	rm -rf "$_trace"; cp -R "$tmp/orig" "$_trace"
	change_while_dumping "$_trace" "cp '$5' '$_file.new'; \
	    mv '$_file.new' '$_file'"
	ok "$_name replaced by a rename: exit 0 (got $rc)" test "$rc" = 0
	ok "$_name replaced by a rename: the whole dump" cmp -s "$tmp/part" \
	    "$tmp/full.$_name"
	rm -rf "$tmp/orig"
}

# --with-pid: the state walk reads what records tell the state straight
# from the mapping (flat reads, src/formats/ctf/ctf-flat.c) on every
# core; a file cut half way is one error line, never a SIGBUS.
cp -R "$tmp/ctf" "$tmp/ctfp" || exit 99
_size=$(wc -c <"$tmp/ctfp/channel0_1")
change_while_dumping "$tmp/ctfp" \
    "truncate -s $((_size / 4)) '$tmp/ctfp/channel0_1'" --with-pid
ok "ctf --with-pid truncated: exit 1 (got $rc)" test "$rc" = 1
ok "ctf --with-pid truncated: the error names the file" grep -Eq \
    "^tview: $tmp/ctfp/channel0_1: offset 0x[0-9a-f]+: was truncated while open" \
    "$tmp/err"
rm -rf "$tmp/ctfp"

run_format ctf "$tmp/ctf" "$tmp/ctf/channel0_1" "cpu_id = 0" \
    "$tmp/ctf/metadata"
run_format ltt "$tmp/ltt" "$tmp/ltt/cpu_1" "(cpu_0)" "$tmp/ltt.exp"
run_format tracedat "$tmp/td.dat" "$tmp/td.dat" "" "$tmp/small.dat"

tv_test_done
