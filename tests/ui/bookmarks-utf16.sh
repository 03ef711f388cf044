#!/bin/sh
# The fuzzer's bookmark files ($TVIEW_SHARED/fuzz-crashes/bookmarks):
#  - utf16-bookmarks.xml, a valid UTF-16 file: the browser adds a bookmark
#    to it and saves; the file is then UTF-8 text holding both bookmarks
#    (no heap bytes), the UTF-16 original is kept as .bak;
#  - utf16-doctype-bypass.xml: its DOCTYPE is refused (line 2) although a
#    byte scan for "<!DOCTYPE" cannot see it.
# Skips without the shared folder.
. "$(dirname "$0")/lib.sh"

fc=${TVIEW_SHARED:+$TVIEW_SHARED/fuzz-crashes/bookmarks}
[ -n "$fc" ] && [ -f "$fc/utf16-bookmarks.xml" ] ||
	{ echo "skip: no shared fuzz-crashes/bookmarks"; exit 77; }

gen_trace "$tmp/trace" --cpus 1 --events 500 --seed 2
mkdir "$tmp/trace/info"
xml=$tmp/trace/info/bookmarks.xml
cp "$fc/utf16-doctype-bypass.xml" "$xml"
"$TVIEW" --bookmarks "$tmp/trace" >"$tmp/out" 2>"$tmp/err"
rc=$?
ok "the UTF-16 DOCTYPE is refused (exit $rc)" test "$rc" -eq 1
ok "in one line, at line 2" sh -c "test \$(grep -c . '$tmp/err') -eq 1 &&
    grep -q 'bookmarks.xml:2: document type' '$tmp/err'"

cp "$fc/utf16-bookmarks.xml" "$xml"
chmod u+w "$xml"
"$TVIEW" --bookmarks "$tmp/trace" >"$tmp/out" 2>/dev/null
ok "the UTF-16 file reads" grep -q "	a	hello$" "$tmp/out"
ui_start "$tmp/trace"
ok "started" ui_wait "Event"
ui_keys G
ui_keys m; ui_wait "bookmark name:" >/dev/null
ui_type "added"; ui_keys Enter; ui_wait "bookmark text:" >/dev/null
ui_type "in utf-8"; ui_keys Enter
ok "saved" ui_wait "bookmarks saved in $xml"
ok "quit" ui_quit
ok "the file holds no NUL byte" \
    test "$(tr -d '\000' <"$xml" | wc -c)" -eq "$(wc -c <"$xml")"
"$TVIEW" --bookmarks "$tmp/trace" >"$tmp/out" 2>"$tmp/err"
ok "it reads back" test "$?" -eq 0
ok "with the old bookmark" grep -q "	a	hello$" "$tmp/out"
ok "and the new one" grep -q "	added	in utf-8$" "$tmp/out"
ok ".bak is the UTF-16 original" cmp -s "$xml.bak" "$fc/utf16-bookmarks.xml"
done_tests
