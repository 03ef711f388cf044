#!/bin/sh
# Discoverability (issue 14, point 5): an "F1 help" hint on the status
# bar until the help is opened; t then Enter with nothing typed cancels;
# the time prompt shows its forms; a failed search leaves neither its
# message (next key) nor its pattern on the status bar; the fields pane
# gives the event's byte offset in its file (checked against the file's
# bytes with od).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 500 --seed 5
"$TVIEW" --dump "$tmp/trace" >"$tmp/dump" 2>/dev/null
first=$(dump_time "$(dump_line 1 "$tmp/dump")")

ui_start -x 100 -y 80 "$tmp/trace"
ok "started" ui_wait_sel "$first"
ok "the status bar says F1 help" ui_wait "F1 help"
ui_keys t
ok "the time prompt shows the accepted forms" \
    ui_wait "time (HH:MM:SS[.N], +1.5ms, -200us, 50%, #N):"
ui_keys Enter
ok "Enter with nothing typed cancels quietly" ui_wait_gone "time ("
ok "no error" sh -c "! tmux -L $sock capture-pane -p | grep -q 'invalid\|not a time'"
ok "the selection did not move" ui_wait_sel "$first"
ui_type "/"; ui_type "zzznotthere"; ui_keys Enter
ok "a failed search says so" ui_wait "pattern not found: zzznotthere"
ui_keys C-l
ok "its message goes with the next key" ui_wait_gone "pattern not found"
ok "and its pattern is not left on the status bar" ui_wait_gone "/zzznotthere"
ui_type "/"; ui_type "sched"; ui_keys Enter
ok "a search that finds stays on the status bar" ui_wait "/sched"

ui_keys g Enter z x
ok "fields and hex dump" ui_wait "Raw bytes 0x"
hdr=$(ui_screen | grep -m1 'stream .*, packet .*, record .*, offset 0x')
ok "the header has an offset" test -n "$hdr"
ok "a byte offset, no bit count ($hdr)" sh -c "! echo '$hdr' | grep -q ' bit '"
stream=$(echo "$hdr" | sed 's/.*stream \([^,]*\),.*/\1/')
pk=$(echo "$hdr" | sed 's/.*packet \([0-9]*\),.*/\1/')
off=$(echo "$hdr" | sed 's/.*offset 0x\([0-9a-f]*\).*/\1/')
lo=$(ui_screen | sed -n 's/.*Raw bytes 0x\([0-9a-f]*\)-.*/\1/p' | head -n 1)
ok "first event: packet 0 ($pk)" test "$pk" = 0
ok "packet 0 starts the file: offset = the dump's start ($off, $lo)" \
    test "$((0x$off))" -eq "$((0x$lo))"
# the dump row holding byte $lo shows the file's bytes at $off
row=$(printf '%08x' $((0x$lo / 16 * 16)))
col=$((0x$lo % 16))
shown=$(ui_screen | grep -m1 "^ *$row  " | sed "s/^ *$row  //" |
    cut -c$((col * 3 + 1))-$((col * 3 + 11)) | tr -d ' ')
file=$(od -An -tx1 -j "$((0x$off))" -N 4 "$stream" | tr -d ' \n')
ok "the file has the event's bytes at that offset ($shown = $file)" \
    test -n "$file" -a "$shown" = "$file"
ui_keys z Escape F1
ok "F1 opens the help" ui_wait "tview help"
ui_keys q
ok "help closed" ui_wait_gone "tview help"
ok "the hint is gone" ui_wait_gone "F1 help"
ok "quits with 0" ui_quit
done_tests
