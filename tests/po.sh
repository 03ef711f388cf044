#!/bin/sh
# The French catalogue is complete: every message marked with _(), N_() or
# P_() in the files of po/POTFILES.in has a non-fuzzy translation in
# po/fr.po that msgfmt --check accepts, and every source file that marks
# messages is listed in po/POTFILES.in.

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
for t in msgfmt msgcmp xgettext; do
	command -v $t >/dev/null 2>&1 || { echo "skip: no $t"; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tview-po.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
po=$top_srcdir/po/fr.po
fail=0

# 1. Every file that marks messages is in POTFILES.in.
cd "$top_srcdir" || exit 99
for f in $(grep -rlE '\b(_|N_|P_)\("' src include 2>/dev/null | sort); do
	case $f in include/tview/i18n.h) continue ;; esac
	if ! grep -qxF "$f" po/POTFILES.in; then
		echo "FAIL: $f marks messages but is not in po/POTFILES.in"
		fail=1
	fi
done

# 2. msgfmt accepts fr.po, with nothing untranslated or fuzzy.
if ! msgfmt --check --statistics -o "$tmp/fr.mo" "$po" 2>"$tmp/stat"; then
	cat "$tmp/stat"
	echo "FAIL: msgfmt --check rejects po/fr.po"
	fail=1
fi
cat "$tmp/stat"
if grep -qE 'untranslated|fuzzy' "$tmp/stat"; then
	echo "FAIL: po/fr.po has untranslated or fuzzy messages"
	fail=1
fi

# 3. Every message of the sources today is translated in fr.po.
grep -v '^#' po/POTFILES.in | grep . >"$tmp/files"
xgettext --keyword=_ --keyword=N_ --keyword=P_:1,2 --from-code=UTF-8 \
    --add-comments=L10N -f "$tmp/files" -o "$tmp/tview.pot" || exit 99
if ! msgcmp "$po" "$tmp/tview.pot" 2>"$tmp/cmp"; then
	cat "$tmp/cmp"
	echo "FAIL: po/fr.po lacks messages of the sources" \
	    "(make -C po update-po, then translate)"
	fail=1
fi

test "$fail" -eq 0 && echo "po/fr.po is complete"
exit "$fail"
