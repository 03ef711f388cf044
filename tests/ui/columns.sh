#!/bin/sh
# Columns (issue 14, points 2 and 3): the config's "columns = ..." sets
# the event list's columns, their order and widths, and names a bad
# column with its line; at 80 columns the process pane beside the
# fields pane keeps its thread columns (least priority first to go,
# names cut in their middle); the help lists the config's key bindings
# on their action's line, and not a key the config took for another.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 500 --seed 5
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
t1=$(dump_time "$(dump_line 1 "$tmp/dump")")
mkdir -p "$tmp/cfg/tview"
cat >"$tmp/cfg/tview/config" <<'CFG'
# the event first, a wide CPU column, no task
columns = event:14, time, cpu:6, fields
key.w = last
key.b = first
CFG
header() { ui_screen | head -n 1; }

ui_start -x 100 -y 90 "XDG_CONFIG_HOME=$tmp/cfg" "$tmp/trace"
ok "started" ui_wait "Fields"
ok "the header in the config's order: $(header)" sh -c \
    "printf '%s\n' '$(header)' | grep -q '^ Event  *Time  *CPU  *Fields'"
ok "no Task column" sh -c "! printf '%s\n' '$(header)' | grep -q Task"
ok "event:14: the name cut to 14 columns, then the time" \
    ui_wait_sel "lttng_s…_start  $t1"
ok "cpu:6: the CPU column is 6 wide" sh -c \
    "printf '%s\n' '$(header)' | grep -q 'CPU     Fields'"
ui_keys F1
ok "F1 opens the help" ui_wait "tview help"
ok "the help says the config's bindings come first" \
    ui_wait "Keys (the config file's bindings first)"
last_line=$(ui_screen | grep "last event$")
ok "w (config) is listed for the last event: $last_line" sh -c \
    "printf '%s\n' '$last_line' | grep -q '^ *w, G, End  *last event$'"
first_line=$(ui_screen | grep "first event$")
ok "b (config) for the first event: $first_line" sh -c \
    "printf '%s\n' '$first_line' | grep -q '^ *b, g, Home  *first event$'"
up_line=$(ui_screen | grep -E "^ *PgUp")
ok "b no longer listed for page up: $up_line" sh -c \
    "! printf '%s\n' '$up_line' | grep -q 'PgUp, b'"
ui_keys q
ok "q closes the help" ui_wait_gone "tview help"
ui_keys w
ok "w goes to the last event" ui_wait "event 500 of 500"
ok "quits with 0" ui_quit

# a bad column is named with its line; the default columns stay
printf 'time-style = utc\ncolumns = time, pid, event\n' \
    >"$tmp/cfg/tview/config"
ui_start "XDG_CONFIG_HOME=$tmp/cfg" "$tmp/trace"
ok "an unknown column: the line named" \
    ui_wait "$tmp/cfg/tview/config:2: unknown column"
ok "the default columns" ui_wait "CPU  Task"
ok "quits with 0" ui_quit
printf 'columns = time, fields, cpu\n' >"$tmp/cfg/tview/config"
ui_start "XDG_CONFIG_HOME=$tmp/cfg" "$tmp/trace"
ok "fields not last: said" \
    ui_wait "config:1: the fields column comes last"
ok "quits with 0" ui_quit

# 80x24, the fields pane and the process pane side by side: each 40
# wide; the process pane keeps PID, TID, NAME and STATE
ui_start -x 80 -y 24 "$tmp/trace"
ok "80 columns: started" ui_wait "Event"
ui_keys G
ok "at the last event" ui_wait "event 500 of 500"
ui_keys Enter
ok "the fields pane" ui_wait "Fields (Tab"
ui_keys P
ok "the process pane beside it" ui_wait "Processes:"
ok "its header keeps the thread columns" ui_wait "PID     TID NAME"
ok "... and STATE" ui_wait "STATE"
ok "a thread: TID, name and state in 40 columns" \
    ui_wait "      1       1 systemd       blocked"
ok "a long name whole when it fits (12 columns)" ui_wait "kworker/0:1H"
ok "the fields pane still beside it" ui_wait "prev_comm"
ok "quits with 0" ui_quit
done_tests
