#!/bin/sh
# Real LTTng traces from ../shared (skipped when it is absent): the first
# and last events match --dump, a search and a PID jump run on real data,
# and the fields pane decodes a real event.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

dir=$TVIEW_SHARED/traces/ctf
test -d "$dir" || { echo "skip: no $dir"; exit 77; }

for name in tc-many-threads tc-ros2; do
	trace=$dir/$name
	test -d "$trace" || { echo "skip - $name absent"; continue; }
	"$TVIEW" --dump "$trace" >"$tmp/dump" 2>/dev/null
	test -s "$tmp/dump" || { echo "FAIL - $name: no --dump"; fails=$((fails + 1)); continue; }
	first=$(dump_line 1 "$tmp/dump")
	last=$(tail -n 1 "$tmp/dump")
	ui_start "$trace"
	ok "$name: first row is dump line 1" ui_wait_sel "$(dump_time "$first")"
	ok "$name: its name" ui_wait_sel "$(dump_name "$first")"
	ui_keys G
	ok "$name: G is the last dump line" ui_wait_sel "$(dump_time "$last")" 60
	ui_keys g
	l=$(grep -n -m1 -F " $(dump_name "$last"): " "$tmp/dump" | cut -d: -f1)
	ui_type "/$(dump_name "$last")"; ui_keys Enter
	if [ "${l:-0}" -gt 1 ]; then
		ok "$name: / finds line $l" \
		    ui_wait_sel "$(dump_time "$(dump_line "$l" "$tmp/dump")")" 60
	fi
	ui_keys Enter z
	ok "$name: fields pane decodes" ui_wait "payload"
	ui_keys Escape
	ok "$name: fields closed" ui_wait "CPU  Task"
	ui_keys "]"
	ok "$name: ] answers" ui_wait_gone "looking for the PID" 60
	ok "$name: quits with 0" ui_quit
	ui_stop
done

# A string with a newline in it stays on its row, escaped.
trace=$dir/tc-bug446190
if [ -d "$trace" ]; then
	ui_start -x 200 -y 30 "$trace"
	ok "bug446190: started" ui_wait "Event"
	ui_type "/block device"; ui_keys Enter
	ok "bug446190: the newline is shown escaped" ui_wait_sel 'supported by kernel\n"' 60
	ok "bug446190: quits with 0" ui_quit
fi
done_tests
