#!/bin/sh
# tview --dump --follow on a CTF trace whose metadata grows while it is
# followed, as an LTTng session's does when an application registers a
# new tracepoint provider.  gen-ctf's trace (2 CPUs, 4 KiB packets) is
# written into a new directory: first its first packets, with metadata
# declaring only the event classes those packets use; once tview prints
# them, the other event blocks are appended to the metadata, then the
# rest of the data (whose events use the new classes: sched_process_exit
# among them, a rule of the state pass).  What is checked:
#  - some classes really are late (the test is not empty);
#  - tview still runs half way, and ends by itself, exit 0, nothing on
#    stderr, once the writer closes its files;
#  - what it printed equals `tview --dump` of the finished copy and of
#    the original, byte for byte: the late classes' events decoded;
#  - metadata rewritten instead of appended to, and an appended event
#    block reusing an id: an error naming the metadata file (and the
#    line:col of the block), exit 1.
# Run under the ASan build too: the classes are added to tables sized
# when the trace was opened.

TV_TEST_NAME=follow-meta
# shellcheck source=lib.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
test -x "$GEN_CTF" || { echo "skip: no $GEN_CTF"; exit 77; }

PKT=4096
FIRST=3		# packets per stream written before the metadata grows
CHUNK=3000

"$GEN_CTF" --quiet --cpus 2 --events 20000 --packet-size "$PKT" \
    "$tmp/src" >/dev/null || exit 99
"$TVIEW" --dump "$tmp/src" >"$tmp/full" || exit 99
total=$(wc -l <"$tmp/full")

# the classes the first packets use
mkdir "$tmp/pre" || exit 99
cp "$tmp/src/metadata" "$tmp/pre/" || exit 99
for f in channel0_0 channel0_1; do
	head -c $((FIRST * PKT)) "$tmp/src/$f" >"$tmp/pre/$f" || exit 99
done
"$TVIEW" --dump "$tmp/pre" | awk '{ sub(/:$/, "", $3); print $3 }' |
    sort -u >"$tmp/early" || exit 99
awk '{ sub(/:$/, "", $3); print $3 }' "$tmp/full" | sort -u >"$tmp/all"
late=$(comm -13 "$tmp/early" "$tmp/all" | tr '\n' ' ')
ok "some classes are used only later: $late" test -n "$late"

# split the metadata: the early event blocks, then the others appended
awk -v early="$tmp/early" -v head="$tmp/meta1" -v tail="$tmp/meta2" '
BEGIN { while ((getline n < early) > 0) keep[n] = 1 }
/^event \{/ { inev = 1; blk = ""; name = "" }
inev {
	blk = blk $0 "\n"
	if (match($0, /name = "[^"]*"/))
		name = substr($0, RSTART + 8, RLENGTH - 9)
	if ($0 ~ /^};/) {
		printf "%s", blk > (name in keep ? head : tail)
		inev = 0
	}
	next
}
{ print > head }
' "$tmp/src/metadata" || exit 99
ok "the metadata splits in two" test -s "$tmp/meta1" -a -s "$tmp/meta2"

live=$tmp/live
mkdir "$live" || exit 99
cp "$tmp/meta1" "$live/metadata" || exit 99
cp "$tmp/pre/channel0_0" "$tmp/pre/channel0_1" "$live/" || exit 99
exec 3>>"$live/channel0_0" 4>>"$live/channel0_1" 5>>"$live/metadata"
: >"$tmp/out"
"$TVIEW" --dump --follow "$live" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_lines "$tmp/out" 1 "$pid"
n=$(wc -l <"$tmp/out")
ok "before the metadata grows: following, $n lines printed" \
    kill -0 "$pid"
# the metadata grows first, alone: one look of tview sees it so
cat "$tmp/meta2" >&5
sleep 0.3
off=$((FIRST * PKT))
end=$(wc -c <"$tmp/src/channel0_1")
while test "$off" -lt "$end"; do
	piece "$tmp/src/channel0_0" "$off" "$CHUNK" >&3
	piece "$tmp/src/channel0_1" "$off" "$CHUNK" >&4
	off=$((off + CHUNK))
	sleep 0.01
done
ok "half way: still following" kill -0 "$pid"
exec 3>&- 4>&- 5>&-
wait_exit "$pid"
follow_checks "$tmp/out" "$tmp/err" "$live" "$tmp/full" \
    "the whole dump ($total lines)"
for c in $late; do
	want=$(grep -c " $c: " "$tmp/full")
	got=$(grep -c " $c: " "$tmp/out")
	ok "$c: $got events printed, as many as in the dump" \
	    test "$got" -eq "$want" -a "$want" -gt 0
done

# follow LIVE TEXT: follow LIVE (metadata meta1), write TEXT to its
# metadata (appended when TEXT starts with +, else replacing it) and
# the rest of the data; the status in $rc, stderr in $tmp/err.
follow() {
	rm -rf "$1"
	mkdir "$1" || exit 99
	cp "$tmp/meta1" "$1/metadata" || exit 99
	cp "$tmp/pre/channel0_0" "$tmp/pre/channel0_1" "$1/" || exit 99
	exec 3>>"$1/channel0_0"
	: >"$tmp/fout"
	"$TVIEW" --dump --follow "$1" >"$tmp/fout" 2>"$tmp/err" &
	pid=$!
	# tview has read the first metadata (slow under ASan)
	wait_lines "$tmp/fout" 1 "$pid"
	case $2 in
	+*) printf '%s\n' "${2#+}" >>"$1/metadata" ;;
	*) printf '%s\n' "$2" >"$1/metadata" ;;
	esac
	exec 3>&-
	wait_exit "$pid"
	sed 's/^/# /' "$tmp/err"
}

# rewritten: the same text and more, one byte changed near its start
sed '1,/name = /s/name = "/name = "X/' "$tmp/meta1" >"$tmp/meta-x"
cat "$tmp/meta2" >>"$tmp/meta-x"
follow "$tmp/rw" "$(cat "$tmp/meta-x")"
ok "rewritten metadata: exit 1" test "$rc" -eq 1
ok "rewritten metadata: the error names the file and says why" \
    grep -q "rw/metadata.*may only grow" "$tmp/err"

# an event block appended with the id of one read before
follow "$tmp/dup" "+event { name = \"again\"; id = 0; stream_id = 0; };"
ok "an id used again: exit 1" test "$rc" -eq 1
ok "an id used again: the error names the file, line and column" \
    grep -q "dup/metadata:[0-9]*:[0-9]*:.*used twice" "$tmp/err"
tv_test_done
