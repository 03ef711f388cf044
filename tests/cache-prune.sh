#!/bin/sh
# The state cache ($XDG_CACHE_HOME/tview) stays under its size cap
# ($TVIEW_CACHE_MAX): writing a trace's state file removes the least
# recently written state files first, keeps the new one, and leaves
# files that are not state files alone.

TV_TEST_NAME=cache-prune
. "$(dirname "$0")/lib.sh"

test -x "$TVIEW" || { echo "no tview binary at $TVIEW"; exit 99; }
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME
unset TVIEW_CACHE
c=$XDG_CACHE_HOME/tview

"$GEN_CTF" --quiet --cpus 2 --events 3000 --seed 2 "$tmp/t" \
    >"$tmp/gen.log" 2>&1 || { cat "$tmp/gen.log"; exit 99; }

# Five older state files of 100 KiB, a day apart, and a stranger.
mkdir -p "$c"
for i in 1 2 3 4 5; do
	head -c 102400 /dev/zero >"$c/state-old$i"
	touch -d "@$((1700000000 + i * 86400))" "$c/state-old$i"
done
head -c 102400 /dev/zero >"$c/notes"
touch -d "@1600000000" "$c/notes"

# A cap of 250 KiB: with the new file kept, the old ones must shrink to
# what fits, the oldest going first.
TVIEW_CACHE_MAX=250K "$TVIEW" --processes "$tmp/t" >/dev/null 2>&1
ok "--processes ran" test $? -eq 0
new=$(cd "$c" && for f in state-*; do
    case $f in state-old*) ;; *) echo "$f" ;; esac; done)
ok "the new state file is written ($new)" test -n "$new" -a -f "$c/$new"
ok "the two newest old files stay" \
    test -f "$c/state-old5" -a -f "$c/state-old4"
ok "the three oldest are gone" \
    test ! -e "$c/state-old1" -a ! -e "$c/state-old2" -a ! -e "$c/state-old3"
ok "a file that is not a state file is left alone" test -f "$c/notes"
total=$(cat "$c"/state-old* | wc -c)
ok "the other state files fit the cap ($total bytes)" test "$total" -le 256000

# The default cap keeps everything small.
TVIEW_CACHE_MAX='' "$TVIEW" --processes "$tmp/t" >/dev/null 2>&1
ok "under the default cap nothing more goes" \
    test -f "$c/state-old5" -a -f "$c/state-old4"
# A cap of 0 keeps only the file just written.
TVIEW_CACHE_MAX=0 "$TVIEW" --processes --at 50% "$tmp/t" >/dev/null 2>&1
"$GEN_CTF" --quiet --cpus 2 --events 3000 --seed 3 "$tmp/t2" >/dev/null 2>&1
TVIEW_CACHE_MAX=0 "$TVIEW" --processes "$tmp/t2" >/dev/null 2>&1
ok "cap 0: only the state file just written" \
    test "$(find "$c" -maxdepth 1 -name 'state-*' | wc -l)" -eq 1
tv_test_done
