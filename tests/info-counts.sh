#!/bin/sh
# --info counts the events of each class, and lists no class the trace
# does not describe (trace.dat's catch-all "unknown", id 2^64-1, unless
# records of an unknown type exist).  --info=counts counts whatever the
# size; plain --info only small traces or from the state cache (that path
# is tests/ui/info-cache.sh).  Oracles: babeltrace2's text output
# counted per event name (generated trace, and shared CTF traces), the
# trace-cmd report outputs in $TVIEW_SHARED/traces/oracles/ftrace counted
# per event name, and the LTTV textDump oracles of the LTT 0.x samples.

TV_TEST_NAME=info-counts
. "$(dirname "$0")/lib.sh"
: "${TVIEW_SHARED:=$top_srcdir/../shared}"

test -x "$TVIEW" || { echo "no tview binary at $TVIEW"; exit 99; }

# No state cache of the user's: the counts come from the pass.
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME

# info_counts TRACE [HOW]: "NAME COUNT" for every class with events, by
# name, from --info=counts (HOW "cheap": plain --info).
info_counts() {
	_opt=--info=counts
	test "$2" = cheap && _opt=--info
	"$TVIEW" "$_opt" "$1" 2>"$tmp/info.err" |
	    sed -n 's/^    [0-9-][0-9]* \(.*\) (.*): \([0-9][0-9]*\)$/\1 \2/p' |
	    awk '$2 > 0 { c[$1] += $2 } END { for (k in c) print k, c[k] }' |
	    sort
}

# bt2_counts TRACE: the same from babeltrace2's text output (the first
# word ending in ':' after the timestamp and hostname is the name).
bt2_counts() {
	babeltrace2 --no-delta "$1" 2>/dev/null | awk '{
	    for (i = 1; i <= NF; i++) {
		if (i == 1 && $i ~ /^\[/) continue
		if ($i ~ /:$/) { c[substr($i, 1, length($i) - 1)]++; break }
	    } } END { for (k in c) print k, c[k] }' | sort
}

# same DESC EXPECTED ACTUAL: compare two count lists.
same() {
	if cmp -s "$2" "$3"; then
		return 0
	fi
	diff "$2" "$3" | head -n 10
	return 1
}

# Generated CTF: the per-class counts add up to --dump's line count, and
# equal babeltrace2's.
"$GEN_CTF" --quiet --cpus 3 --events 4000 --seed 9 "$tmp/gen" \
    >"$tmp/gen.log" 2>&1 || { cat "$tmp/gen.log"; exit 99; }
info_counts "$tmp/gen" >"$tmp/tv"
ok "gen: --info lists counts" test -s "$tmp/tv"
"$TVIEW" --info "$tmp/gen" >"$tmp/info"
ok "gen: --info exits 0" test $? -eq 0
total=$("$TVIEW" --dump "$tmp/gen" | wc -l)
ok "gen: Events: equals the --dump line count ($total)" \
    grep -q "^Events: $total\$" "$tmp/info"
ok "gen: the class counts add up to $total" \
    test "$(awk '{ n += $2 } END { print n }' "$tmp/tv")" -eq "$total"
ok "gen: --count equals it" test "$("$TVIEW" --count "$tmp/gen")" -eq "$total"
info_counts "$tmp/gen" cheap >"$tmp/tv-cheap"
ok "gen: a small trace is counted by plain --info too" same gen \
    "$tmp/tv" "$tmp/tv-cheap"
if command -v babeltrace2 >/dev/null 2>&1; then
	bt2_counts "$tmp/gen" >"$tmp/bt"
	ok "gen: per-class counts equal babeltrace2's" same gen "$tmp/bt" \
	    "$tmp/tv"
else
	echo "skip: no babeltrace2"
fi

# A damaged trace: --count (each packet on its own, on every core) counts
# what --dump prints, names the first damage and exits 1, as the walk in
# timeline order (--begin) does.
"$GEN_CTF" --quiet --cpus 3 --events 20000 --seed 9 --packet-size 8192 \
    "$tmp/bad" >"$tmp/gen.log" 2>&1 || { cat "$tmp/gen.log"; exit 99; }
truncate -s 30000 "$tmp/bad/channel0_1"
printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' |
    dd of="$tmp/bad/channel0_2" bs=1 seek=20000 conv=notrunc 2>/dev/null
n=$("$TVIEW" --count "$tmp/bad" 2>"$tmp/bad.err")
rc=$?
ok "damaged: --count exits 1" test "$rc" -eq 1
ok "damaged: --count equals the --dump line count" \
    test "$n" -eq "$("$TVIEW" --dump "$tmp/bad" 2>/dev/null | wc -l)"
ok "damaged: --count equals the timeline walk's" \
    test "$n" -eq "$("$TVIEW" --count --begin 0% "$tmp/bad" 2>/dev/null)"
ok "damaged: the error names the file and offset" \
    grep -q 'channel0_2: offset 0x' "$tmp/bad.err"

if test -z "$TVIEW_SHARED" || ! test -d "$TVIEW_SHARED/traces"; then
	echo "skip: no shared traces"
	tv_test_done
	exit
fi
st=$TVIEW_SHARED/traces

# trace.dat: against every stored trace-cmd report, and no bogus class.
for f in "$st"/ftrace/*/*.dat; do
	n=$(basename "$(dirname "$f")")
	rep=$st/oracles/ftrace/$n.trace-cmd-report.txt.gz
	test -f "$rep" || continue
	gzip -dc "$rep" |
	    sed -n 's/^.*\[[0-9]*\] *[0-9]*\.[0-9]*: *\([^: ]*\):.*/\1/p' |
	    sort | uniq -c | awk '{ print $2, $1 }' | sort >"$tmp/rep"
	info_counts "$f" >"$tmp/tv"
	ok "$n: per-class counts equal trace-cmd report's" same "$n" \
	    "$tmp/rep" "$tmp/tv"
	ok "$n: --count equals report's lines" test "$("$TVIEW" --count \
	    "$f" 2>/dev/null)" -eq "$(awk '{ n += $2 } END { print n + 0 }' \
	    "$tmp/rep")"
	"$TVIEW" --info=counts "$f" >"$tmp/info" 2>&1
	ok "$n: no 18446744073709551615 unknown class" \
	    test "$(grep -c 18446744073709551615 "$tmp/info")" -eq 0
done

# CTF: against babeltrace2 where it reads the whole trace.
if command -v babeltrace2 >/dev/null 2>&1; then
	for n in tc-many-threads bt-lttng-tracefile-rotation \
	    bt-multi-domains bt-session-rotation; do
		d=$st/ctf/$n
		test -d "$d" || continue
		bt2_counts "$d" >"$tmp/bt"
		info_counts "$d" >"$tmp/tv"
		ok "$n: per-class counts equal babeltrace2's" same "$n" \
		    "$tmp/bt" "$tmp/tv"
		ok "$n: --count equals babeltrace2's events" test \
		    "$("$TVIEW" --count "$d" 2>/dev/null)" -eq \
		    "$(awk '{ n += $2 } END { print n + 0 }' "$tmp/bt")"
	done
fi

# LTT 0.x: against the LTTV textDump oracles.
for n in trace-2.6 trace-15316events_nolost_newformat; do
	d=$st/ltt0/$n
	o=$st/oracles/ltt0/$n.lttv-textdump.txt.gz
	test -d "$d" && test -f "$o" || continue
	gzip -dc "$o" |
	    sed -n 's/^\([a-z_0-9]*\.[a-z_0-9]*\): [0-9]*\.[0-9]* (.*/\1/p' |
	    sort | uniq -c | awk '{ print $2, $1 }' | sort >"$tmp/lttv"
	info_counts "$d" >"$tmp/tv"
	ok "$n: per-class counts equal LTTV textDump's" same "$n" \
	    "$tmp/lttv" "$tmp/tv"
	ok "$n: --count equals LTTV's events" test "$("$TVIEW" --count \
	    "$d" 2>/dev/null)" -eq "$(awk '{ n += $2 } END { print n + 0 }' \
	    "$tmp/lttv")"
done
tv_test_done
