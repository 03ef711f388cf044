#!/bin/sh
# --latency syscall against trace-cmd report --profile on every shared
# trace.dat sample.  The profile pairs raw_syscalls:sys_enter with the
# next sys_exit of the same task (common_pid) and the same system call
# number; tview ends a system call at its thread's next exit whatever
# its number (doc/tview.1, "Differences from trace-cmd report
# --profile").  For each sample both pairings are made from report's
# own lines (tests/profile-lib.sh): the profile's figures must be the
# one, tview's the other, and they differ only by the calls whose exit
# carries another number.  A sample without raw_syscalls events must
# give no system call on either side (none of the shared samples has
# any today; tests/profile-recorded.sh compares a fresh recording).
# Skips without ../shared or trace-cmd.

TV_TEST_NAME=profile-syscall
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
. "$top_srcdir/tests/profile-lib.sh"
dir=${TVIEW_SHARED:+$TVIEW_SHARED/traces/ftrace}
[ -n "$dir" ] && [ -d "$dir" ] ||
	{ echo "SKIP: no shared traces (../shared is not beside the tree)"; exit 77; }
command -v trace-cmd >/dev/null 2>&1 ||
	{ echo "SKIP: trace-cmd is not installed"; exit 77; }

n=0
for d in "$dir"/*/; do
	f=$(ls "${d%/}"/*.dat 2>/dev/null | head -1)
	[ -n "$f" ] || continue
	name=${d%/}; name=${name##*/}
	if ! report --profile -i "$f" >"$tmp/profile" ||
	    ! test -s "$tmp/profile"; then
		echo "# $name: trace-cmd report cannot read it (zlib?)"
		continue
	fi
	n=$((n + 1))
	# shellcheck disable=SC2046 # two numbers, split on purpose
	set -- $(profile_rows sys_enter <"$tmp/profile")
	if [ "$1" != 0 ]; then
		syscall_check "$name" "$f"
		continue
	fi
	# the profile times none: the sample has no raw_syscalls events
	# (or no pair of them), tview must time none either
	# shellcheck disable=SC2046
	set -- $(tview_latency syscall "$f")
	ok "$name: the profile times no system call, nor does tview (${1:-none})" \
	    test "${1:-x}" = 0
done
ok "trace-cmd read samples ($n)" test "$n" -gt 0
tv_test_done
