#!/bin/sh
# The manual page documents every option of --help, every key of the
# UI's keymap table (src/ui/keymap.c) and every : command of its command
# table (src/ui/command.c), and man(1) renders it cleanly.

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

# Every : command of the command table: { "NAME", "ALIAS" or NULL,
# TV_UI_ARG_..., as :NAME or :ALIAS at the start of a bold line.
commands=$top_srcdir/src/ui/command.c
if test -f "$commands"; then
	sed -n 's/^[[:space:]]*{ "\([a-z]*\)",[[:space:]]*\(NULL\|"\([a-z]*\)"\),[[:space:]]*TV_UI_ARG_.*/\1 \3/p' \
	    "$commands" >"$tmp/commands"
	test -s "$tmp/commands" || { echo "FAIL: no : command read"; fail=1; }
	grep '^\.B' "$tmp/page" | sed -e 's/^\.B[RIB]* //' -e 's/"//g' |
	    awk '{ print $1 }' | sort -u >"$tmp/boldcmd"
	while read -r name alias; do
		if ! grep -qxF ":$name" "$tmp/boldcmd" &&
		    ! { test -n "$alias" && grep -qxF ":$alias" "$tmp/boldcmd"; }; then
			echo "FAIL: command :$name is not in tview.1"
			fail=1
		fi
	done <"$tmp/commands"
	echo "$(wc -l <"$tmp/commands") commands checked"
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
test "$fail" -eq 0 && echo "tview.1 documents every option, key and command"
exit "$fail"
