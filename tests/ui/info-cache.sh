#!/bin/sh
# --info on a trace too big to count at once (over 16 MiB of packets):
# the classes without counts and "not counted" until the browser has read
# the trace once; then the counts from the state cache, equal to those of
# the header pass (--info=counts with no cache); a changed trace file
# makes the cache stale and the counts go again.
. "$(dirname "$0")/lib.sh"

XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME
gen_trace "$tmp/big" --cpus 2 --size 20M --seed 3

"$TVIEW" --info "$tmp/big" >"$tmp/before" 2>&1
ok "not yet read: --info exits 0" test $? -eq 0
ok "not yet read: Events: not counted" grep -q '^Events: not counted' \
    "$tmp/before"
ok "not yet read: the classes are listed without counts" \
    test "$(grep -c '^    [0-9][0-9]* .*(stream class [0-9]*)$' \
    "$tmp/before")" -gt 0
ok "not yet read: no class count" \
    test "$(grep -c '^    [0-9][0-9]* .*: [0-9][0-9]*$' "$tmp/before")" -eq 0

TVIEW_CACHE=off "$TVIEW" --info=counts "$tmp/big" >"$tmp/counted" 2>&1
ok "--info=counts counts it" grep -q '^Events: [0-9][0-9]*$' "$tmp/counted"
ok "--info=counts writes no cache" test ! -d "$tmp/cache/tview"

# The browser's background pass saves the state cache when it is done.
ui_start "XDG_CACHE_HOME=$tmp/cache" "$tmp/big"
ok "started" ui_wait "Event"
cached() { ls "$tmp/cache/tview"/state-* >/dev/null 2>&1; }
ok "the browser saved the state cache" ui_poll cached
ok "quit" ui_quit

"$TVIEW" --info "$tmp/big" >"$tmp/after" 2>&1
ok "read once: --info prints what --info=counts printed" \
    cmp "$tmp/counted" "$tmp/after"

touch -d '2001-01-01' "$tmp/big/channel0_0"
"$TVIEW" --info "$tmp/big" >"$tmp/stale" 2>&1
ok "stale cache: not counted again" grep -q '^Events: not counted' \
    "$tmp/stale"
done_tests
