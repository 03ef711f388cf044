#!/bin/sh
# The browser survives its files changing: for each format (CTF,
# trace.dat, LTT 0.x, made by the generators), a file of the open trace
# is truncated, emptied and replaced, or emptied and deleted, then the
# browser pages with G, g and PageDown.  Each time: the message line
# names the file and what happened, tview is still running, g shows the
# first event again and q exits with 0.  Then the terminal is given back
# on fatal signals: SIGTERM and SIGSEGV sent to tview end it with the
# signal's status (143, 139), a line on stderr, and the tty back in
# canonical mode with echo (stty, run in the pane after tview).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
gen_formats "$tmp" 60000
for d in ctf ltt; do mv "$tmp/$d" "$tmp/$d.orig"; done
mv "$tmp/td.dat" "$tmp/td.orig"

# not_exited: tview still runs in the pane.
not_exited() {
	! ui_screen | grep -qF "TVIEW-EXIT:"
}

# one_change FMT TRACE FILE ACTION WORDS FIRST: open a fresh copy of
# TRACE (at TRACE.orig), run ACTION on FILE, page, check.
one_change() {
	rm -rf "$2"; cp -R "$2.orig" "$2"
	ui_start -x 120 -y 30 "$2"
	ok "$1 $4: first screen" ui_wait "[$1]"
	eval "$4 '$3'"
	ui_keys G
	ok "$1 $4: the message says what happened" ui_wait "$5"
	ok "$1 $4: the message names the file" ui_wait "$3"
	ui_keys g
	ok "$1 $4: g shows the first event" ui_wait "$6"
	ui_keys PageDown PageDown G g
	ok "$1 $4: still running after paging" not_exited
	ok "$1 $4: quits with 0" ui_quit
	ui_stop
}

truncate_q() { truncate -s "$(($(wc -c <"$1") / 4))" "$1"; }
replace() { : >"$1"; cp "$tmp/ltt.exp" "$1.new"; mv "$1.new" "$1"; }
delete() { : >"$1"; rm "$1"; }

# first_time TRACE: the time of the first event, as the browser shows it.
first_time() {
	"$TVIEW" --dump "$1" 2>/dev/null | head -40 | grep -oE \
	    '[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{9}|[0-9]+\.[0-9]{6,9}' | head -1
}

for fmt in ctf tracedat ltt; do
	case $fmt in
	ctf) t=$tmp/ctf; f=$t/channel0_1 ;;
	tracedat) t=$tmp/td; f=$t ;;
	ltt) t=$tmp/ltt; f=$t/cpu_1 ;;
	esac
	first=$(first_time "$t.orig")
	test -n "$first" || { echo "FAIL - $fmt: no first time"; exit 1; }
	# the browser shows 9 digits after the second
	case $first in *:*) ;; *) first=${first#*.} ;; esac
	one_change $fmt "$t" "$f" truncate_q "was truncated while open" "$first"
	one_change $fmt "$t" "$f" replace "was replaced by another file" "$first"
	one_change $fmt "$t" "$f" delete "was deleted while open" "$first"
done

# fatal SIG STATUS: the terminal comes back when tview dies of SIG.
fatal() {
	UI_AFTER="stty -a | grep -oE -- '(^| )-?(icanon|echo)( |$)' | tr -d ' ' | tr '\n' ' ';"
	ui_start -x 120 -y 30 "$tmp/ctf.orig"
	ok "SIG$1: first screen" ui_wait "[ctf]"
	kill -"$1" "$(ui_pid)"
	ok "SIG$1: exit status $2" ui_wait "TVIEW-EXIT:$2"
	ok "SIG$1: canonical mode and echo back" ui_wait "icanon echo"
	ok "SIG$1: one line on stderr" grep -q \
	    "^tview: terminal restored after a fatal signal: " "$tmp/stderr"
	ui_stop
	UI_AFTER=
}
fatal TERM 143
fatal SEGV 139
fatal HUP 129

done_tests
