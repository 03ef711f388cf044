#!/bin/sh
# The browser on the other formats, from ../shared (skips without it): a
# zlib-compressed trace.dat (v7) and an LTT 0.x trace open, show their
# format, the fields pane and its hex dump (trace.dat pages decompressed),
# and G reaches "event M of M", M counted in --dump.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

td=$TVIEW_SHARED/traces/ftrace/derived-lisa-sched_load-v7-zlib/trace.dat
ltt=$TVIEW_SHARED/traces/ltt0/trace-1021events-nolost-1cpu
test -f "$td" -o -d "$ltt" ||
    { echo "skip: no shared traces (set TVIEW_SHARED or put ../shared beside the tree)"; exit 77; }

# one_format PATH FORMAT COUNT-REGEX: the checks on one trace.
one_format() {
	m=$("$TVIEW" --dump "$1" 2>/dev/null | grep -cE "$3")
	ui_start -x 120 -y 40 "$1"
	ok "$2: first screen" ui_wait "[$2]"
	ui_keys j Enter
	ok "$2: fields pane" ui_wait "Fields (Tab"
	ui_keys x
	ok "$2: hex dump" ui_wait "Raw bytes 0x"
	ok "$2: dump rows" ui_poll sh -c \
	    "tmux -L '$sock' capture-pane -p -t 0 | grep -qE '^ [0-9a-f]{8}  [0-9a-f]{2} '"
	ui_keys Escape G
	ok "$2: G is event $m of $m" ui_wait "event $m of $m" 60
	# c until the raw clock: three from a time of day, two from the
	# seconds trace.dat starts in
	_c=0
	while [ $_c -lt 4 ] && ! ui_wait "time: raw clock" 2 >/dev/null; do
		ui_keys c
		_c=$((_c + 1))
	done
	ok "$2: raw clock" ui_wait "time: raw clock"
	ok "$2: quits with 0" ui_quit
	ui_stop
}

if test -f "$td"; then
	one_format "$td" tracedat '\[[0-9]{3}\] +[0-9]+\.[0-9]+:'
else
	echo "skip: no $td"
fi
if test -d "$ltt"; then
	one_format "$ltt" ltt ': [0-9]+\.[0-9]{9} \('
else
	echo "skip: no $ltt"
fi
done_tests
