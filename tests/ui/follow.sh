#!/bin/sh
# F and --follow: the browser follows a CTF trace while it is written.
# gen-ctf's trace (3 CPUs, 4 KiB packets) is copied into a new directory
# in three steps of whole packets while `tview --follow` shows it.
#  - it starts at the last event (as less +F);
#  - packets appended: within 2 s the new last event is selected, on
#    screen;
#  - after g (the first event) and the rest appended: the count in the
#    status bar reaches the whole trace's, the selection stays on the
#    first event, and G then selects the trace's last event;
#  - F stops following (message);
#  - F on a trace.dat: a message says it cannot be followed, tview
#    goes on; q exits with 0.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
gen_trace "$tmp/src" --cpus 3 --events 20000 --packet-size 4096
: "${TD_GEN:=$top_builddir/td-gen}"
P=4096
live=$tmp/live

# copy FROM TO: packets [FROM, TO) of every stream file, appended.
copy() {
	for _i in 0 1 2; do
		tail -c +$(($1 * P + 1)) "$tmp/src/channel0_$_i" |
		    head -c $((($2 - $1) * P)) >>"$live/channel0_$_i"
	done
}

# last_time TRACE / first_time TRACE: the time of its last / first event.
last_time() {
	"$TVIEW" --dump "$1" 2>/dev/null | tail -n 1 | cut -c 2-19
}
first_time() {
	"$TVIEW" --dump "$1" 2>/dev/null | head -n 1 | cut -c 2-19
}

mkdir "$live" || exit 99
cp "$tmp/src/metadata" "$live/" || exit 99
copy 0 10
t1=$(last_time "$live")
first=$(first_time "$live")
total=$("$TVIEW" --count "$tmp/src")
ui_start -x 140 -y 24 --follow "$live"
ok "--follow starts at the last event ($t1)" ui_wait_sel "$t1"
ok "it says it follows" ui_wait "following the trace"

copy 10 20
t2=$(last_time "$live")
ok "appended: the new last event selected within 2 s ($t2)" \
    ui_wait_sel "$t2" 2

ui_keys g
ok "g: the first event" ui_wait_sel "$first"
copy 20 100
ok "the rest appended: the count reaches the whole trace's ($total)" \
    ui_wait "of $total" 5
ok "the selection stayed on the first event" ui_wait_sel "$first" 1
ui_keys G
ok "G: the trace's last event" ui_wait_sel "$(last_time "$tmp/src")"
ui_keys F
ok "F stops following" ui_wait "stopped following"
ok "q exits with 0" ui_quit
ui_stop

if test -x "$TD_GEN"; then
	"$TD_GEN" --events 100 "$tmp/t.dat" || exit 99
	ui_start -x 140 -y 24 "$tmp/t.dat"
	ok "trace.dat: first screen" ui_wait "[tracedat]"
	ui_keys F
	ok "trace.dat: F says it cannot follow" ui_wait "cannot be followed"
	ok "trace.dat: q exits with 0" ui_quit
	ui_stop
fi
done_tests
