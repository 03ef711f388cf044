#!/bin/sh
# Fields pane hex dump: x shows the selected event's raw bytes (offset,
# hex, ASCII) under the tree, the bytes of the field under the cursor in
# reverse video (NO_COLOR); j/k move the field cursor and the lit bytes
# follow; x again hides the dump.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 2 --events 300 --seed 4

# lit_hex: the hex bytes drawn in reverse video on the dump rows.
lit_hex() {
	tmux -L "$sock" capture-pane -p -e -t 0 2>/dev/null |
	    grep -E ' [0-9a-f]{8}  ' |
	    grep -oE "$(printf '\033')\\[7m[0-9a-f]{2}" |
	    sed 's/.*m//' | tr '\n' ' '
}

ui_start -x 100 -y 40 NO_COLOR=1 "$tmp/trace"
ok "started" ui_wait "Event"
ui_keys j j Enter
ok "fields pane open" ui_wait "Fields (Tab"
ui_keys x
ok "x shows the raw bytes" ui_wait "Raw bytes 0x"
ok "dump rows: offset, hex, ASCII" ui_poll sh -c \
    "tmux -L '$sock' capture-pane -p -t 0 | grep -qE '^ ?[0-9a-f]{8}  ([0-9a-f]{2} | {3})+ *[ -~]+\$'"
# has_lit: some dump byte is lit.
has_lit() {
	test -n "$(lit_hex)"
}
ok "the field under the cursor is lit" ui_poll has_lit
first=$(lit_hex)
# move down until the lit bytes change (the next field)
i=0
while [ $i -lt 6 ]; do
	ui_keys j
	i=$((i + 1))
	# poll until the lit bytes change, a short while per key
	_t=0
	while [ $_t -lt 10 ]; do
		now=$(lit_hex)
		[ -n "$now" ] && [ "$now" != "$first" ] && break 2
		sleep 0.05
		_t=$((_t + 1))
	done
done
ok "j moves the field cursor and the lit bytes follow ($first -> $now)" \
    test -n "$now" -a "$now" != "$first"
# no_colour: NO_COLOR leaves only attributes (no SGR colour 30-49).
no_colour() {
	! tmux -L "$sock" capture-pane -p -e -t 0 |
	    grep -qE "$(printf '\033')\\[([0-9;]*;)?(3[0-7]|4[0-7])(;[0-9;]*)?m"
}
ok "NO_COLOR: attributes, no colours" no_colour
ui_keys x
ok "x again hides the dump" ui_wait_gone "Raw bytes 0x"
ok "quits with 0" ui_quit
done_tests
