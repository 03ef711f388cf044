#!/bin/sh
# Regression test of the LTT inputs the in-tree fuzz target found (see
# FUZZING; tests/data/fuzz/ltt, each a packed tree as fuzz/pack.sh
# writes it): unpacked, `tview --dump` of each must end within seconds
# with exit 0, or exit 1 and an error, never a signal, and never a
# sanitizer report (the suite runs this test under ASan+UBSan too).
#
# Usage: tests/ltt-crashes.sh   (env: TVIEW)
tview=${TVIEW:-./tview}
intree=$(cd "$(dirname "$0")" && pwd)/data/fuzz/ltt
command -v python3 >/dev/null 2>&1 || { echo "skip: no python3"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/tview-lttcrash.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
export TZ=UTC LC_ALL=C
pass=0 failed=0

for f in "$intree"/*.fz; do
	[ -f "$f" ] || continue
	name=${f##*/}
	rm -rf "$work/t"
	mkdir "$work/t"
	# the files of the packed tree: a mark, the path, a newline, bytes
	python3 -c '
import os, sys
data = open(sys.argv[1], "rb").read()
for part in data.split(b"\xff\x00FZ:")[1:]:
    nl = part.find(b"\n")
    name = part[:nl].decode("latin-1")
    if nl < 1 or name.startswith("/") or ".." in name.split("/"):
        continue
    path = os.path.join(sys.argv[2], name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(part[nl + 1:])
' "$f" "$work/t" || { echo "FAIL: $name: cannot unpack"; failed=$((failed + 1)); continue; }
	timeout 60 "$tview" --dump "$work/t" >"$work/out" 2>"$work/err"
	rc=$?
	if [ "$rc" -eq 124 ] || [ "$rc" -gt 128 ]; then
		echo "FAIL: $name: hang or signal (exit $rc)"
		failed=$((failed + 1))
	elif grep -q 'runtime error\|Sanitizer' "$work/err"; then
		echo "FAIL: $name: sanitizer report:"; head -3 "$work/err"
		failed=$((failed + 1))
	elif [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
		echo "FAIL: $name: exit $rc"; head -3 "$work/err"
		failed=$((failed + 1))
	else
		echo "PASS: $name: exit $rc"
		pass=$((pass + 1))
	fi
done
echo "# $pass passed, $failed failed"
[ "$((pass + failed))" -gt 0 ] || { echo "FAIL: no reproducer found in $intree"; exit 1; }
[ "$failed" -eq 0 ]
