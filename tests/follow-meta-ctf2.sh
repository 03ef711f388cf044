#!/bin/sh
# tview --dump --follow on a CTF 2 trace whose metadata grows while it is
# followed (issue 15, point 2): gen-ctf2's trace is written into a new
# directory with metadata holding only the fragments up to its first
# event record class; the stream, whole, holds events of the others too.
# Once tview prints the first class's events, the other fragments are
# appended to the metadata (JSON text sequence: each fragment after a
# record separator), then the writer closes the files.  What is checked:
#  - before the metadata grows tview follows and has printed only the
#    events of the classes it knows (some are late);
#  - it ends by itself, exit 0, nothing on stderr, and printed what a
#    --dump of the finished copy and of the original print, byte for
#    byte: the late classes' events decoded from the same packet;
#  - a fragment appended that declares an event record class id used
#    before: exit 1 and an error naming the metadata file.
# python3 splits the metadata (skips without it).

TV_TEST_NAME=follow-meta-ctf2
# shellcheck source=lib.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
GEN_CTF2=$top_builddir/gen-ctf2
test -x "$GEN_CTF2" || { echo "skip: no $GEN_CTF2"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skip: no python3"; exit 77; }

"$GEN_CTF2" "$tmp/src" >/dev/null || exit 99
"$TVIEW" --dump "$tmp/src" >"$tmp/full" || exit 99
total=$(wc -l <"$tmp/full")

# meta1: the fragments up to the first event record class; meta2: the
# rest; dup: an event record class fragment with the first one's id
python3 - "$tmp/src/metadata" "$tmp/meta1" "$tmp/meta2" "$tmp/dup" <<'PY' || exit 99
import json, sys
frags = open(sys.argv[1], 'rb').read().split(b'\x1e')[1:]
head, tail, first, seen = b'', b'', None, False
for f in frags:
    j = json.loads(f)
    if seen:
        tail += b'\x1e' + f
        continue
    head += b'\x1e' + f
    if j.get('type') == 'event-record-class':
        seen, first = True, j
open(sys.argv[2], 'wb').write(head)
open(sys.argv[3], 'wb').write(tail)
dup = dict(first, name='again')
open(sys.argv[4], 'wb').write(b'\x1e' + json.dumps(dup).encode() + b'\n')
PY
ok "the metadata splits in two" test -s "$tmp/meta1" -a -s "$tmp/meta2"

live=$tmp/live
mkdir "$live" || exit 99
cp "$tmp/meta1" "$live/metadata" || exit 99
cp "$tmp/src/stream" "$live/stream" || exit 99
exec 3>>"$live/stream" 5>>"$live/metadata"
: >"$tmp/out"
"$TVIEW" --dump --follow "$live" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_lines "$tmp/out" 1 "$pid"
sleep 0.3
n=$(wc -l <"$tmp/out")
ok "before the metadata grows: following" kill -0 "$pid"
ok "before the metadata grows: $n of $total events printed (the known \
classes')" test "$n" -ge 1 -a "$n" -lt "$total"
cat "$tmp/meta2" >&5
sleep 0.3
exec 3>&- 5>&-
wait_exit "$pid"
follow_checks "$tmp/out" "$tmp/err" "$live" "$tmp/full" \
    "the whole dump ($total lines)"

# an event record class id declared again (after the whole metadata: the
# stream's events all decode, the error is the metadata's alone)
rm -rf "$tmp/d"
mkdir "$tmp/d" || exit 99
cat "$tmp/meta1" "$tmp/meta2" >"$tmp/d/metadata" &&
    cp "$tmp/src/stream" "$tmp/d/" || exit 99
exec 3>>"$tmp/d/stream"
: >"$tmp/dout"
"$TVIEW" --dump --follow "$tmp/d" >"$tmp/dout" 2>"$tmp/err" &
pid=$!
wait_lines "$tmp/dout" 1 "$pid"
cat "$tmp/dup" >>"$tmp/d/metadata"
exec 3>&-
wait_exit "$pid"
sed 's/^/# /' "$tmp/err"
ok "an id declared again: exit 1" test "$rc" -eq 1
ok "an id declared again: the error names the metadata file and says \
why" grep -q "d/metadata.*used twice" "$tmp/err"
tv_test_done
