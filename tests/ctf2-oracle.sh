#!/bin/sh
# CTF 2 against oracles in the shared trace folder.  No babeltrace2 at hand
# reads CTF 2, but the tc-CTF2-7.0-* traces are CTF 2 renditions of the
# CTF 1.8 bt-* traces of the same name with the same data streams, so
# `tview --dump` of each must print what it prints for its 1.8 twin
# (itself checked against babeltrace2 by ctf-oracle.sh).  tc-CTF2-vl-ints
# holds one event of variable-length integers whose values Trace Compass
# checks; they are spelled out below.  Skips when shared is absent.
#
# Usage: tests/ctf2-oracle.sh   (env: TVIEW, TVIEW_SHARED)

TV_TEST_NAME=ctf2-oracle
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
shared=${TVIEW_SHARED:-$top_srcdir/../shared}
ctf=$shared/traces/ctf

if ! test -d "$ctf/tc-CTF2-vl-ints"; then
	echo "ctf2-oracle: SKIP: no shared traces at $shared"
	exit 77
fi

# dump DIR OUT: --dump with the trace directory blanked (the discarded
# events warning names the stream file), then the exit status.
dump() {
	timeout 120 "$TVIEW" --dump "$1" >"$2" 2>&1
	echo "rc=$?" >>"$2"
	sed "s#$(cd "$1" && pwd -P)/##g" "$2" >"$2.n" && mv "$2.n" "$2"
}

twins=0
for d in "$ctf"/tc-CTF2-7.0-*; do
	name=${d##*/tc-CTF2-7.0-}
	test -d "$ctf/bt-$name" || continue
	twins=$((twins + 1))
	dump "$d" "$tmp/2"
	dump "$ctf/bt-$name" "$tmp/1"
	if test "$name" = debug-info; then
		# Its stream differs from bt-debug-info's by one byte: the
		# '-' of "libhello-so" is '_' in the CTF 2 one.
		ok "debug-info: that one byte is the only difference" \
		    test "$(cmp -l "$d/channel0_0" \
		    "$ctf/bt-debug-info/channel0_0" | tr -s ' ')" = " 191 137 55"
		sed 's/libhello_so/libhello-so/' "$tmp/2" >"$tmp/2.n"
		mv "$tmp/2.n" "$tmp/2"
	fi
	ok "$name: CTF 2 dump equals the CTF 1.8 twin's ($(wc -l <"$tmp/1") lines)" \
	    cmp -s "$tmp/1" "$tmp/2"
	ok "$name: exit 0" grep -qx 'rc=0' "$tmp/2"
done
ok "nine CTF 2 traces have a CTF 1.8 twin" test "$twins" -eq 9

dump "$ctf/tc-CTF2-vl-ints" "$tmp/vl"
cat >"$tmp/vl.exp" <<'END'
test: { vu1a = 0, vu1b = 77, vu2 = 177, vu3 = 43123, vu4 = 21829382, vu5 = 5121829382, vu6 = 95121829382, vu7 = 13895121829382, vu8 = 913895121855555, vu9 = 333333333333333333, vu10 = 18446744073709551615, vi1a = 0, vi1b = -1, vi1c = 23, vi2 = -156, vi3 = 8556, vi4 = -100101001, vi5 = 8288491823, vi6 = -171717171717, vi7 = 123456787654321, vi8 = -1121231234123450, vi9 = 99999999999999999, vi10a = 9223372036853775807, vi10b = 9223372036854775807, vi10c = -9223372036854775808 }
rc=0
END
ok "vl-ints: one event with Trace Compass's values" \
    cmp -s "$tmp/vl.exp" "$tmp/vl"

"$TVIEW" --info "$ctf/tc-CTF2-7.0-trace-with-index" >"$tmp/info" 2>&1
ok "--info: says CTF 2" grep -q 'CTF 2' "$tmp/info"
tv_test_done
