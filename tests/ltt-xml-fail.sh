#!/bin/sh
# Mutated facility-era and new-format traces (written by gen-ltt in a
# temporary directory) must be refused cleanly: exit status != 0, one
# line on stderr naming the file and the offset (file:line for XML), no
# crash, no hang, bounded memory.  Bad magic, lying lost/block sizes,
# lying event sizes, truncated blocks, unknown facility and event ids,
# facility_load of an undefined facility, a bad last-event offset,
# malformed eventdefs and system.xml; then random byte flips.
# Run by `make check` (which sets top_builddir and TVIEW).

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${TVIEW:=$top_builddir/tview}"
export TZ=UTC LC_ALL=C.UTF-8
unset LANGUAGE

gen=$top_builddir/gen-ltt
test -x "$gen" || { echo "no gen-ltt at $gen"; exit 99; }
if ! nm "$TVIEW" 2>/dev/null | grep -q __asan_init; then
	limit="ulimit -v 1048576;"
else
	limit=""
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tview-lttxfail.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT INT TERM
fails=0 pass=0

"$gen" --format fac --events 300 --block 1024 --expect "$work/fac.exp" "$work/fac" &&
    "$gen" --format new --events 300 --block 1024 --expect "$work/new.exp" "$work/new" ||
    { echo "gen-ltt failed"; exit 99; }

# fresh NAME KIND: a copy of the generated KIND trace as $work/NAME.
fresh() {
	rm -rf "${work:?}/$1"
	cp -r "$work/$2" "$work/$1"
}

# poke FILE OFFSET OCTAL-BYTES: overwrite bytes in place.
poke() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# expect NAME PATTERN: tview refuses $work/NAME with one line matching
# PATTERN (grep -E).
expect() {
	sh -c "$limit exec timeout 20 \"$TVIEW\" --dump \"$work/$1\"" \
	    >"$work/out" 2>"$work/err"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "FAIL - $1: accepted"
		fails=$((fails + 1))
	elif [ "$rc" -ge 124 ]; then
		echo "FAIL - $1: exit $rc (crash or hang)"
		cat "$work/err"
		fails=$((fails + 1))
	elif [ "$(wc -l <"$work/err")" -ne 1 ] ||
	    ! grep -Eq "$2" "$work/err"; then
		echo "FAIL - $1: want one line matching /$2/, got:"
		head -5 "$work/err"
		fails=$((fails + 1))
	else
		echo "ok - $1: $(cat "$work/err")"
		pass=$((pass + 1))
	fi
}

# Facility era: 1024-byte blocks, events from 0x62, 64-bit headers.
fresh f-magic fac
poke "$work/f-magic/cpu_0" 40 '\001\002\003\004'
expect f-magic 'cpu_0: offset 0x28: .*magic'

fresh f-ctlmagic fac
poke "$work/f-ctlmagic/control/facilities_0" 40 '\001\002\003\004'
expect f-ctlmagic 'facilities_0: offset 0x28: .*magic'

fresh f-lost fac
poke "$work/f-lost/cpu_1" 32 '\360\377\377\377'
expect f-lost 'cpu_1: offset 0x20: .*lost_size'

fresh f-bufsize fac
poke "$work/f-bufsize/cpu_0" $((1024 + 36)) '\000\020\000\001'
expect f-bufsize 'cpu_0: offset 0x424: .*block size'

fresh f-firstsize fac
poke "$work/f-firstsize/cpu_0" 36 '\377\377\377\177'
expect f-firstsize 'cpu_0: offset 0x24: .*block size'

fresh f-trunc fac
head -c 1500 "$work/fac/cpu_1" >"$work/f-trunc/cpu_1"
expect f-trunc 'cpu_1: offset 0x400: truncated block'

fresh f-short fac
head -c 60 "$work/fac/cpu_1" >"$work/f-short/cpu_1"
expect f-short 'cpu_1: offset 0x0: .*too short'

fresh f-facid fac
poke "$work/f-facid/cpu_0" $((0x62 + 8)) '\167'
expect f-facid 'cpu_0: offset 0x62: unknown facility id 119'

fresh f-evsize fac
poke "$work/f-evsize/cpu_0" $((0x62 + 10)) '\376\377'
expect f-evsize 'cpu_0: offset 0x62: .*runs past the block'

fresh f-undef fac
sed -i 's/name="gen"/name="gex"/' "$work/f-undef/eventdefs/gen.xml" \
    "$work/f-undef/eventdefs/gen_v2.xml"
expect f-undef 'facilities_0: offset 0x[0-9a-f]+: facility gen is not defined'

fresh f-xml fac
printf '<facility name="x">\n<event name="e">\n  <field name="a"><uint>\n</facility>\n' \
    >"$work/f-xml/eventdefs/bad.xml"
expect f-xml 'bad\.xml:[0-9]+:[0-9]+: '

fresh f-xmldef fac
printf '<facility name="x">\n<event name="e">\n<field name="a"><int size="3"/></field>\n</event></facility>\n' \
    >"$work/f-xmldef/eventdefs/bad.xml"
expect f-xmldef 'bad\.xml:3: invalid integer size'

fresh f-dtd fac
printf '<!DOCTYPE f [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<facility name="x">&x;</facility>\n' \
    >"$work/f-dtd/eventdefs/bad.xml"
expect f-dtd 'bad\.xml:1: document type'

# New format: 1024-byte blocks, first event after block_start at 0x1a.
fresh n-start new
poke "$work/n-start/cpu/0" 0 '\011\000'
expect n-start 'cpu/0: offset 0x0: .*block_start'

fresh n-last new
poke "$work/n-last/cpu/2" 1020 '\377\377\000\000'
expect n-last 'cpu/2: offset 0x3fc: .*last-event offset'

fresh n-trunc new
head -c 1500 "$work/new/cpu/0" >"$work/n-trunc/cpu/0"
expect n-trunc 'cpu/0: offset 0x400: truncated block'

fresh n-id new
poke "$work/n-id/cpu/0" 26 '\377\177'
expect n-id 'cpu/0: offset 0x1a: unknown event type id 32767'

fresh n-blocksize new
sed -i 's/ltt_block_size="1024"/ltt_block_size="12"/' \
    "$work/n-blocksize/info/system.xml"
expect n-blocksize 'system\.xml:1: .*ltt_block_size'

fresh n-sysxml new
printf '<system node_name="a"\n cpu=2\n<oops>\n' \
    >"$work/n-sysxml/info/system.xml"
expect n-sysxml 'system\.xml:[0-9]+:[0-9]+: '

fresh n-xml new
printf '<facility name=b>\n<event name=e><struct><field name=a>\n<sequence lengthsize=9><uint size=1/></sequence></field></struct></event></facility>\n' \
    >"$work/n-xml/eventdefs/zz.xml"
expect n-xml 'zz\.xml:3: invalid integer size'

fresh n-loop new
printf '<facility name=b>\n<type name=t><typeref name=t/></type>\n<event name=e><typeref name=t/></event></facility>\n' \
    >"$work/n-loop/eventdefs/zz.xml"
expect n-loop 'zz\.xml:2: types nested too deeply'

# Random byte flips (a fixed seed): refused or read, never a crash or a
# hang.  Each mutant changes 8 bytes of one tracefile.
flips=0
for kind in fac new; do
	for f in $(cd "$work/$kind" && find cpu* control -type f | sort); do
		size=$(wc -c <"$work/$kind/$f")
		[ "$size" -gt 0 ] || continue
		for seed in 1 2 3 4 5 6; do
			fresh flip $kind
			awk -v s="$seed$size" -v n="$size" 'BEGIN {
				srand(s); for (i = 0; i < 8; i++)
					printf "%d %d\n", int(rand() * n),
					    int(rand() * 256) }' |
			while read -r off byte; do
				poke "$work/flip/$f" "$off" \
				    "$(printf '\\%03o' "$byte")"
			done
			sh -c "$limit exec timeout 20 \"$TVIEW\" --dump \
			    \"$work/flip\"" >/dev/null 2>"$work/err"
			rc=$?
			flips=$((flips + 1))
			if [ "$rc" -ge 124 ]; then
				echo "FAIL - flip $kind/$f seed $seed: exit $rc"
				head -3 "$work/err"
				fails=$((fails + 1))
			fi
		done
	done
done
echo "ok - $flips byte-flipped traces: no crash, no hang"
pass=$((pass + 1))

echo "$pass passed, $fails failed"
[ "$fails" -eq 0 ]
