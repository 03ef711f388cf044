#!/bin/sh
# Which trace the command line opens, as trace-cmd and git users expect:
# no argument opens ./trace.dat or the trace in the current directory; a
# directory holding a trace.dat opens it; a directory holding traces
# deeper and a file of a trace (CTF metadata, LTT tracefile) get an error
# saying what to type instead, and what it says works; with stdout not a
# terminal, the browser's place is taken by --dump, as git and tig do.

TV_TEST_NAME=open
. "$(dirname "$0")/lib.sh"
: "${TVIEW_SHARED:=$top_srcdir/../shared}"
: "${GEN_LTT:=$top_builddir/gen-ltt}"

test -x "$TVIEW" || { echo "no tview binary at $TVIEW"; exit 99; }

# run_in DIR ARGS...: run tview in DIR, keep stdout, stderr and status.
run_in() {
	_d=$1; shift
	(cd "$_d" && exec "$TVIEW" "$@") >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
}
rc_is() { test "$rc" -eq "$1"; }
has() { grep -q -e "$1" "$2"; }
same_as() { cmp -s "$tmp/out" "$1"; }

# suggested: the command the last error suggests, without "tview ".
suggested() {
	sed -n 's/.*: tview \(.*\)$/\1/p' "$tmp/err" | head -n 1
}

"$GEN_CTF" --quiet --cpus 2 --events 1500 --seed 3 "$tmp/ctf" \
    >"$tmp/gen.log" 2>&1 || { cat "$tmp/gen.log"; exit 99; }
"$TVIEW" --dump "$tmp/ctf" >"$tmp/ctf.dump" 2>&1

# No argument, inside a CTF trace: that trace, printed (stdout is a file).
run_in "$tmp/ctf"
ok "no argument in a CTF trace: exit 0" rc_is 0
ok "no argument in a CTF trace: its --dump" same_as "$tmp/ctf.dump"

# Into a pipe and into a file: --dump, with --begin honoured.
"$TVIEW" "$tmp/ctf" | cat >"$tmp/out"
ok "tview TRACE | cat prints --dump" same_as "$tmp/ctf.dump"
"$TVIEW" --dump --begin 50% "$tmp/ctf" >"$tmp/half"
"$TVIEW" --begin 50% "$tmp/ctf" | cat >"$tmp/out"
ok "tview --begin 50% TRACE | cat prints --dump --begin 50%" \
    same_as "$tmp/half"

# No argument and no trace here: a usage error (2) that says so.
mkdir "$tmp/empty"
run_in "$tmp/empty"
ok "no argument, no trace: exit 2" rc_is 2
ok "no argument, no trace: says so" has 'no trace given' "$tmp/err"

# A directory holding traces deeper (LTT, which only opens at its own
# directory), and a path with a space: the error names one, quoted, and
# typing it works.
if test -x "$GEN_LTT"; then
	mkdir -p "$tmp/runs/day 1"
	"$GEN_LTT" --format new --events 500 --expect "$tmp/exp" \
	    "$tmp/runs/day 1/ltt" >/dev/null 2>&1
	"$TVIEW" --dump "$tmp/runs/day 1/ltt" >"$tmp/ltt.dump" 2>&1
	run_in "$tmp" runs
	ok "a directory of traces deeper: exit 1" rc_is 1
	ok "a directory of traces deeper: tview: prefix, one line" \
	    test "$(grep -c '^tview: runs: ' "$tmp/err")" -eq 1 -a \
	    "$(wc -l <"$tmp/err")" -eq 1
	ok "a directory of traces deeper: says what to type" \
	    has "holds one below: tview 'runs/day 1/ltt'\$" "$tmp/err"
	cmd=$(suggested)
	(cd "$tmp" && eval "\"\$TVIEW\" $cmd") >"$tmp/out" 2>&1
	ok "typing what it says opens the trace" same_as "$tmp/ltt.dump"
	run_in "$tmp/runs"
	ok "no argument above traces: exit 2" rc_is 2
	ok "no argument above traces: says what to type" \
	    has "no trace given.*: tview 'day 1/ltt'\$" "$tmp/err"
	f=$(ls "$tmp/runs/day 1/ltt/cpu" | head -n 1)
	run_in "$tmp" "runs/day 1/ltt/cpu/$f"
	ok "a tracefile given: exit 1" rc_is 1
	ok "a tracefile given: open its directory" \
	    has "part of a trace; open its directory: tview 'runs/day 1/ltt'\$" \
	    "$tmp/err"
else
	echo "skip: no gen-ltt"
fi

# A CTF metadata file given: open its directory.
run_in "$tmp" ctf/metadata
ok "metadata given: exit 1" rc_is 1
ok "metadata given: open its directory" \
    has "metadata file of a CTF trace; open its directory: tview ctf\$" \
    "$tmp/err"
cmd=$(suggested)
run_in "$tmp" "$cmd"
ok "typing what it says opens the trace" same_as "$tmp/ctf.dump"

# trace.dat: no argument opens ./trace.dat, DIR opens DIR/trace.dat.
dat=$TVIEW_SHARED/traces/ftrace/lisa-sched_load/trace.dat
if test -n "$TVIEW_SHARED" && test -f "$dat"; then
	"$TVIEW" --dump "$dat" >"$tmp/dat.dump" 2>&1
	mkdir "$tmp/rec"
	ln -s "$dat" "$tmp/rec/trace.dat"
	run_in "$tmp/rec"
	ok "no argument opens ./trace.dat" same_as "$tmp/dat.dump"
	run_in "$tmp" rec
	ok "tview DIR opens DIR/trace.dat" same_as "$tmp/dat.dump"
	run_in "$tmp" rec/
	ok "tview DIR/ opens DIR/trace.dat" same_as "$tmp/dat.dump"
	run_in "$tmp" --info rec
	ok "tview --info DIR reads DIR/trace.dat" \
	    has '^  Format: tracedat' "$tmp/out"
else
	echo "skip: no shared trace.dat"
fi
tv_test_done
