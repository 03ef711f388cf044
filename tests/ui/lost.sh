#!/bin/sh
# What the tracer lost is visible: the status bar totals lost events and
# packets, the list shows a <discarded> row where it happened, and the
# fields pane says how many events that row stands for.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 30000 --packet-size 8192 \
    --discard --seq-gap --seed 4

ui_start -x 120 "$tmp/trace"
ok "started" ui_wait "Event"
ok "status bar: lost events" ui_wait "lost events: "
ok "status bar: lost packets" ui_wait "lost packets: "
ui_type "/<discarded>"; ui_keys Enter
ok "a <discarded> row" ui_wait_sel "<discarded>"
ok "it says how many" ui_wait_sel "the tracer lost"
ok "status bar: lost events in view" ui_wait "in view: "
ui_keys Enter
ok "the fields pane explains it" ui_wait "events here"
ui_keys Escape n
ok "n: the next one" ui_wait_sel "<discarded>"
ok "quits with 0" ui_quit
done_tests
