#!/bin/sh
# A truncated LTT tracefile loses only what follows the cut: every other
# tracefile is read whole, the cut one up to its last whole sub-buffer
# (block), the error names the file and an offset, and the exit status is
# 1.  Each tracefile below is cut at several block boundaries and in the
# middle of those blocks, and `tview --dump` is compared with the dump of
# the whole trace:
#  - the lines of the other tracefiles are the same, in the same order;
#  - the cut tracefile's lines are the first K of its lines, K the same
#    for a cut at a block's start and in its middle, never decreasing
#    with the cut, 0 for a cut in the first block.
# Traces: the LTT 0.x samples of $TVIEW_SHARED (formats 2.3, 2.5, 2.6)
# and the 2004 sample, when present, and gen-ltt's facility-era and
# new-format traces.  CTF is checked the same way (gen-ctf).

TV_TEST_NAME=ltt-trunc
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
: "${GEN_LTT:=$top_builddir/gen-ltt}"

# u32le FILE OFFSET: the little-endian 32-bit value at OFFSET.
u32le() {
	od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '
}

# sb_starts FILE: start offsets of the sub-buffers of a 2.x tracefile.
sb_starts() {
	_size=$(wc -c <"$1"); _off=0
	while [ "$_off" -lt "$_size" ]; do
		echo "$_off"
		_sb=$(u32le "$1" $((_off + 56)))
		[ "${_sb:-0}" -gt 0 ] || break
		_off=$((_off + _sb))
	done
}

# fixed_starts FILE SIZE: start offsets of blocks of SIZE bytes.
fixed_starts() {
	_size=$(wc -c <"$1"); _off=0
	while [ "$_off" -lt "$_size" ]; do
		echo "$_off"; _off=$((_off + $2))
	done
}

# pick LIST: at most 4 entries of LIST: first, second, middle, last.
pick() {
	printf '%s\n' "$@" | awk '{ a[NR] = $0 } END {
	    n = NR; split("1 2 " int((n + 1) / 2) " " n, w, " ")
	    for (i = 1; i <= 4; i++) if (w[i] >= 1 && w[i] <= n && !s[w[i]]++)
		print w[i] - 1 }'
}

# records: the dump lines of $1 without LTTV's process columns (they come
# from the process state, which the cut file feeds too) nor the last line.
records() {
	sed -e '/^End trace set$/d' \
	    -e 's/^\([^ ]*: [0-9.]* ([^)]*)\), [^{]*/\1 /' "$1"
}

# check NAME TRACE FILE LABEL STARTS...: cut TRACE/FILE (whose dump lines,
# and only those, hold LABEL) at each picked block start and mid-block.
check() {
	_name=$1 _trace=$2 _file=$3 _label=$4; shift 4
	_n=$#
	"$TVIEW" --dump "$_trace" >"$tmp/full" 2>"$tmp/full.err" ||
		{ ok "$_name: the whole trace dumps" false; return; }
	records "$tmp/full" | grep -F "$_label" >"$tmp/full.f"
	records "$tmp/full" | grep -vF "$_label" >"$tmp/full.o"
	ok "$_name: $_file has events" test -s "$tmp/full.f"
	_prevk=0
	for _j in $(pick "$@"); do
		_start=$(eval echo "\${$((_j + 1))}")
		if [ "$_j" -lt $((_n - 1)) ]; then
			_next=$(eval echo "\${$((_j + 2))}")
		else
			_next=$(wc -c <"$_trace/$_file")
		fi
		_k=
		for _cut in "$_start" $(( (_start + _next) / 2 )); do
			rm -rf "$tmp/cut"
			cp -R "$_trace" "$tmp/cut" && chmod -R u+w "$tmp/cut"
			head -c "$_cut" "$_trace/$_file" >"$tmp/cut/$_file"
			"$TVIEW" --dump "$tmp/cut" >"$tmp/out" 2>"$tmp/err"
			_rc=$?
			_what="$_name: cut at $_cut (block $_j)"
			if [ "$_cut" -eq 0 ] && [ "$_rc" -eq 1 ]; then
				# an empty tracefile: a format may refuse it
				ok "$_what: one error line naming $_file" \
				    sh -c "test \$(grep -c . '$tmp/err') -eq 1 &&
				    grep -qF '/$_file: offset 0x' '$tmp/err'"
			elif [ "$_cut" -eq "$_start" ]; then
				# whole blocks: a shorter tracefile, no damage
				ok "$_what: exit 0 (got $_rc)" test "$_rc" -eq 0
				ok "$_what: no error" test ! -s "$tmp/err"
			else
				ok "$_what: exit 1 (got $_rc)" test "$_rc" -eq 1
				ok "$_what: one error line naming $_file and an offset" \
				    sh -c "test \$(grep -c . '$tmp/err') -eq 1 &&
				    grep -qF '/$_file: offset 0x' '$tmp/err'"
			fi
			records "$tmp/out" | grep -vF "$_label" >"$tmp/out.o"
			records "$tmp/out" | grep -F "$_label" >"$tmp/out.f"
			ok "$_what: the other tracefiles are whole" \
			    cmp -s "$tmp/out.o" "$tmp/full.o"
			_got=$(grep -c . "$tmp/out.f")
			head -n "$_got" "$tmp/full.f" >"$tmp/pre"
			ok "$_what: $_file's events are a prefix of its own" \
			    cmp -s "$tmp/out.f" "$tmp/pre"
			if [ -z "$_k" ]; then
				_k=$_got
			else
				ok "$_what: as many as at the block start ($_k)" \
				    test "$_got" -eq "$_k"
			fi
		done
		if [ "$_j" -eq 0 ]; then
			ok "$_name: nothing of $_file before its first block" \
			    test "$_k" -eq 0
		fi
		ok "$_name: block $_j: no fewer events than before" \
		    test "$_k" -ge "$_prevk"
		_prevk=$_k
	done
	ok "$_name: fewer than all at the last block" \
	    test "$_prevk" -lt "$(grep -c . "$tmp/full.f")"
}

shared=${TVIEW_SHARED:+$TVIEW_SHARED/traces}
if [ -n "$shared" ] && [ -d "$shared/ltt0" ]; then
	for spec in trace-1021events-nolost-1cpu:kernel_0 \
	    trace-15316events_nolost_newformat:kernel_0 \
	    trace-2.6:kernel_1 trace-2.6:fs_0; do
		t=${spec%%:*} f=${spec#*:}
		# shellcheck disable=SC2046
		check "$t" "$shared/ltt0/$t" "$f" "($f)" $(sb_starts "$shared/ltt0/$t/$f")
	done
	smp=$shared/lttnew/smp_example
	if [ -d "$smp" ]; then
		bs=$(sed -n 's/.*ltt_block_size="\([0-9]*\)".*/\1/p' \
		    "$smp/info/system.xml")
		# shellcheck disable=SC2046
		check smp_example "$smp" cpu/1 "(cpu/1)" $(fixed_starts "$smp/cpu/1" "$bs")
	fi
else
	echo "# no shared traces: only generated ones"
fi

if [ -x "$GEN_LTT" ]; then
	"$GEN_LTT" --format fac --cpus 2 --events 3000 --seed 7 \
	    --expect "$tmp/fac.exp" "$tmp/fac" >/dev/null
	bs=$(u32le "$tmp/fac/cpu_1" 36)
	# shellcheck disable=SC2046
	check gen-fac "$tmp/fac" cpu_1 "(cpu_1)" $(fixed_starts "$tmp/fac/cpu_1" "$bs")
	"$GEN_LTT" --format new --cpus 2 --events 3000 --seed 7 --block 4096 \
	    --expect "$tmp/new.exp" "$tmp/new" >/dev/null
	# shellcheck disable=SC2046
	check gen-new "$tmp/new" cpu/2 "(cpu/2)" $(fixed_starts "$tmp/new/cpu/2" 4096)
else
	echo "# no gen-ltt"
fi

# CTF: packets of 4,096 bytes; a stream's lines carry its cpu_id.
if [ -x "$GEN_CTF" ]; then
	"$GEN_CTF" --quiet --cpus 2 --events 4000 --seed 7 --packet-size 4096 \
	    "$tmp/ctf" >/dev/null
	# shellcheck disable=SC2046
	check gen-ctf "$tmp/ctf" channel0_1 "{ cpu_id = 1 }" \
	    $(fixed_starts "$tmp/ctf/channel0_1" 4096)
else
	echo "# no gen-ctf"
fi

tv_test_done
