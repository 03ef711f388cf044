#!/bin/sh
# The bookmark batch modes on a generated trace: --bookmarks prints a
# hand-written info/bookmarks.xml (unquoted attributes, an interval, a
# CPU), --dump --bookmarked prints exactly the --dump lines at the
# instant and inside the interval, and a malformed file is an error that
# names its line.
TV_TEST_NAME=bmcli
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
test -x "$GEN_CTF" || { echo "skip: no gen-ctf"; exit 77; }
command -v babeltrace2 >/dev/null 2>&1 || { echo "skip: no babeltrace2"; exit 77; }

"$GEN_CTF" --quiet --cpus 2 --events 2000 --seed 21 "$tmp/t" >/dev/null ||
    exit 99
TZ=UTC "$TVIEW" --dump "$tmp/t" >"$tmp/dump" || exit 1
babeltrace2 --clock-seconds --no-delta "$tmp/t" 2>/dev/null |
    sed 's/^\[\([0-9.]*\)\].*/\1/' >"$tmp/secs"
wall() { sed -n "${1}p" "$tmp/dump" | sed 's/^\[\([^]]*\)\].*/\1/'; }
s100=$(sed -n 100p "$tmp/secs"); s200=$(sed -n 200p "$tmp/secs")
s300=$(sed -n 300p "$tmp/secs")
w100=$(wall 100); w200=$(wall 200); w300=$(wall 300)
mkdir "$tmp/t/info"
cat >"$tmp/t/info/bookmarks.xml" <<XML
<bookmarks>
<location name=spike time=$s100>here it starts</location>
<location name="window" start_time="$s200" end_time="$s300"><note>kept</note></location>
</bookmarks>
XML
TZ=UTC "$TVIEW" --bookmarks "$tmp/t" >"$tmp/bm"
ok "--bookmarks: two lines" test "$(wc -l <"$tmp/bm")" -eq 2
ok "--bookmarks: the instant" grep -qxF "$w100	-	-	-	spike	here it starts" "$tmp/bm"
ok "--bookmarks: the interval" grep -qxF "$w200	$w300	-	-	window	" "$tmp/bm"

awk -v a="$w100" -v b="$w200" -v c="$w300" '{
	t = substr($1, 2, length(a))
	if (t == a || (t >= b && t <= c)) print }' "$tmp/dump" >"$tmp/want"
TZ=UTC "$TVIEW" --dump --bookmarked "$tmp/t" >"$tmp/got"
ok "--dump --bookmarked: $(wc -l <"$tmp/want") lines as --dump filtered" \
    cmp -s "$tmp/want" "$tmp/got"

printf '<bookmarks>\n<location time="1">\n</bookmarks>\n' \
    >"$tmp/t/info/bookmarks.xml"
"$TVIEW" --bookmarks "$tmp/t" >/dev/null 2>"$tmp/err"
ok "malformed: exit 1" test $? -eq 1
ok "malformed: path:line:col" grep -q "info/bookmarks.xml:3:[0-9]*: " "$tmp/err"
tv_test_done
