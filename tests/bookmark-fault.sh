#!/bin/sh
# A crash during a bookmark save never leaves a truncated file: tview is
# killed with SIGKILL at many moments of saves slowed down between the
# write of the temporary file and the rename (TVIEW_TEST_SLOW_SAVE), and
# info/bookmarks.xml must each time be the old or the new file, whole:
# well-formed XML that tview reads with N or N+1 bookmarks.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=ui/lib.sh
. "$(dirname "$0")/ui/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 2000 --seed 9
xml=$tmp/trace/info/bookmarks.xml
rounds=${FAULT_ROUNDS:-24}
have=0
i=0
while [ "$i" -lt "$rounds" ]; do
	i=$((i + 1))
	rm -f "$tmp/pid"
	starts=$((starts + 1))
	sock=tvfault$$-$starts
	socks="$socks $sock"
	tmux -L "$sock" -f /dev/null new-session -d -x 100 -y 30 \
	    "echo \$\$ >'$tmp/pid'; exec env TVIEW_TEST_SLOW_SAVE=300 '$TVIEW' '$tmp/trace' 2>/dev/null"
	ui_wait "Event" >/dev/null || { echo "FAIL: no start"; exit 1; }
	pid=$(cat "$tmp/pid")
	# a different event each round, so every save adds one
	ui_type ":goto #$((i * 50))"; ui_keys Enter
	ui_keys m; ui_wait "bookmark name:" >/dev/null
	ui_type "b$i"; ui_keys Enter; ui_wait "bookmark text:" >/dev/null
	ui_type "round $i"; ui_keys Enter
	# kill somewhere in the write, the slow window or the rename
	sleep "0.$(( (i * 37) % 10 ))$(( (i * 13) % 10 ))"
	kill -9 "$pid" 2>/dev/null
	ui_stop
	if [ -e "$xml" ]; then
		if command -v xmllint >/dev/null 2>&1; then
			ok "round $i: well-formed" xmllint --noout --nonet "$xml"
		fi
		n=$("$TVIEW" --bookmarks "$tmp/trace" 2>"$tmp/err" | wc -l)
		ok "round $i: $n bookmarks (had $have): old or new" \
		    test "$n" -eq "$have" -o "$n" -eq $((have + 1))
		ok "round $i: tview reads it" test ! -s "$tmp/err"
		have=$n
	fi
done
ok "some saves completed, some were cut" test "$have" -gt 0 -a "$have" -lt "$rounds"
# a last, complete save sweeps the temporary files the kills left
"$TVIEW" --bookmarks "$tmp/trace" >/dev/null 2>&1
starts=$((starts + 1))
sock=tvfault$$-$starts
socks="$socks $sock"
tmux -L "$sock" -f /dev/null new-session -d -x 100 -y 30 \
    "'$TVIEW' '$tmp/trace' 2>/dev/null; echo TVIEW-EXIT:\$?; sleep 600"
ui_wait "Event" >/dev/null
ui_keys m; ui_wait "bookmark name:" >/dev/null
ui_keys Enter; ui_wait "bookmark text:" >/dev/null
ui_keys Enter
ok "last save" ui_wait "bookmarks saved in"
ok "quit" ui_quit
ok "no temporary file left" test -z \
    "$(find "$tmp/trace/info" -maxdepth 1 -name '.bookmarks.xml.*')"
done_tests
