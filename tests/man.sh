#!/bin/sh
# The manual page documents every option of --help and every key of the
# UI's keymap table (src/ui/keymap.c), and man(1) renders it cleanly.

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${TVIEW:=$top_builddir/tview}"
man=$top_srcdir/doc/tview.1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tview-man.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

# The page as plain text: roff escapes and fonts stripped.
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$man" >"$tmp/page"

# Every long option that --help shows.
LC_ALL=C "$TVIEW" --help >"$tmp/help" || { echo "tview --help failed"; exit 1; }
for opt in $(grep -oE -- '--[a-z][a-z-]+' "$tmp/help" | sort -u); do
	if ! grep -qF -- "$opt" "$tmp/page"; then
		echo "FAIL: option $opt is not in tview.1"
		fail=1
	fi
done

# Every key name of the keymap table: { KEY, N_("NAME"), REQ }, as a bold
# word of the page (.B/.BR lines), not just somewhere in the text.
keymap=$top_srcdir/src/ui/keymap.c
if test -f "$keymap"; then
	sed -n 's/^[[:space:]]*{.*N_("\([^"]*\)").*TV_UI_REQ_.*/\1/p' \
	    "$keymap" | sort -u >"$tmp/keys"
	grep '^\.B' "$tmp/page" | sed -e 's/^\.B[RIB]* //' -e 's/"[^"]*"/ /g' |
	    tr ' ' '\n' | grep . | sort -u >"$tmp/bold"
	while IFS= read -r k; do
		if ! grep -qxF -- "$k" "$tmp/bold"; then
			echo "FAIL: key $k is not in tview.1"
			fail=1
		fi
	done <"$tmp/keys"
	echo "$(wc -l <"$tmp/keys") keys checked"
fi

# man renders it without warnings.
if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 man --warnings -l "$man" >/dev/null 2>"$tmp/warn"
	if test -s "$tmp/warn"; then
		cat "$tmp/warn"
		echo "FAIL: man warns about tview.1"
		fail=1
	fi
fi
test "$fail" -eq 0 && echo "tview.1 documents every option and key"
exit "$fail"
