#!/bin/sh
# The long part of a search runs on every core (src/ui/search-walk.c):
# workers render the rows, the UI thread puts in the task column where
# the event's own fields do not name the whole owner, asks the filters
# and runs the pattern.  Here every search goes to the workers from its
# first row (TVIEW_UI_SEARCH_NEAR=0) and every row they make is checked
# against the row the one-thread search renders (TVIEW_UI_SEARCH_CHECK:
# a difference stops the search with "search check:" on the screen).
# The searches of search.sh, lost.sh, cancel.sh and filter-bg.sh (inside
# a filter) must give the same answers; then, on real traces when
# ../shared has them: LTTng-UST rows whose owner the workers name
# (vtid, vpid, procname), a kernel+UST session, a search that finds
# nothing over 99,338 rows, and a match only the task column holds, found
# forwards and, through several backward windows, backwards.  (Kept to
# small traces: under ASan the check renders every row twice, on every
# core, beside the other tests.)
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

TVIEW_UI_SEARCH_NEAR=0 TVIEW_UI_SEARCH_CHECK=1
export TVIEW_UI_SEARCH_NEAR TVIEW_UI_SEARCH_CHECK
here=$(dirname "$0")
for t in search lost cancel filter-bg; do
	sh "$here/$t.sh" >"$tmp/$t.out" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "ok - $t.sh with the workers from the first row"
	elif [ "$rc" -eq 77 ]; then
		echo "skip: $t.sh: $(tail -n 1 "$tmp/$t.out")"
	else
		sed 's/^/  /' "$tmp/$t.out"
		echo "not ok - $t.sh with the workers from the first row"
		fails=$((fails + 1))
	fi
	grep -q "search check" "$tmp/$t.out" && fails=$((fails + 1))
done

no_check() { ! ui_screen | grep -q "search check"; }
shared_dir=$TVIEW_SHARED/traces
if [ ! -d "$shared_dir/ctf" ]; then
	echo "skip: the real-trace part needs ../shared/traces"
	done_tests
	exit
fi
ros=$shared_dir/ctf/tc-ros2
# tc-ros2: UST rows whose owner the workers name; bt-multi-domains:
# kernel rows and UST rows without vpid, whose owner the UI thread names
for tr in "$ros" "$shared_dir/ctf/bt-multi-domains"; do
	[ -d "$tr" ] || { echo "skip: no $tr"; continue; }
	ui_start -x 160 "$tr"
	ok "$(basename "$tr"): started" ui_wait "Event"
	ui_type "/zzq-not-in-any-row"; ui_keys Enter
	ok "$(basename "$tr"): nothing found" ui_wait "pattern not found" 120
	ok "$(basename "$tr"): every row as the one-thread search has it" \
	    no_check
	ui_stop
done
[ -d "$ros" ] || { done_tests; exit; }
# a match only the task column ("procname-vtid") holds
"$TVIEW" --dump "$ros" >"$tmp/ros" 2>/dev/null
first=$(grep -m1 'vtid = 427932, vpid = 427932' "$tmp/ros")
last=$(grep 'vtid = 427932, vpid = 427932' "$tmp/ros" | tail -n 1)
test -n "$first" && test "$first" != "$last" ||
    { echo "FAIL: fixture"; exit 1; }
ui_start -x 160 "$ros"
ok "ros2: started" ui_wait "Event"
ui_type "/sync_one_to_one-427932"; ui_keys Enter
ok "the task's first event, found by the workers" \
    ui_wait_sel "$(dump_time "$first")" 60
ui_keys G
ui_wait_sel "$(dump_time "$(tail -n 1 "$tmp/ros")")" >/dev/null
ui_type "?sync_one_to_one-427932"; ui_keys Enter
ok "its last event, backwards" ui_wait_sel "$(dump_time "$last")" 60
ok "rows checked" no_check
ok "quits with 0" ui_quit
done_tests
