#!/bin/sh
# The background pass's end reaches the screen even when it falls while
# a key is being handled: with the pass held 1.5 s at its third
# checkpoint (TVIEW_TEST_SLOW_PASS) and Escape typed every 10 ms across
# its end, the status line's "indexing" goes once the keys stop, with no
# further key.  (It used to stay until the next key that redraws the
# status: the main loop only woke up for the pass while it saw it
# running, and a key, not a wake-up, ended the turn the pass ended in.)
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 100000 --seed 4
TVIEW_TEST_SLOW_PASS=1500 TVIEW_CACHE=off
export TVIEW_TEST_SLOW_PASS TVIEW_CACHE
ui_start "$tmp/trace"
ok "started, the pass still open" ui_wait "indexing"
i=0
while [ $i -lt 300 ]; do
	ui_keys Escape
	sleep 0.01
	i=$((i + 1))
done
ok "the pass's end shows without a further key" ui_wait_gone "indexing" 3
ui_stop
done_tests
