#!/bin/sh
# The batch modes of the process state on a gen-ctf trace: --processes
# prints the table the simulator's ground truth (gen-ctf --truth) ends
# with, --at picks the instant, --dump --with-pid adds exactly three
# tab-separated columns that agree with the truth, the cache file is
# written under $XDG_CACHE_HOME and reused, and misuse is a usage error.

: "${top_builddir:=.}"
: "${TVIEW:=$top_builddir/tview}"
gen=$top_builddir/gen-ctf
test -x "$gen" || { echo "skip: no $gen"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tview-state-cli.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME
unset TVIEW_CACHE
fail=0

# check DESC CMD...: run, report.
check() {
	desc=$1
	shift
	if "$@"; then
		echo "ok: $desc"
	else
		echo "FAIL: $desc"
		fail=1
	fi
}

"$gen" --quiet --cpus 4 --events 50000 --seed 11 --truth "$tmp/truth" \
    "$tmp/t" || exit 99

# The final table against the simulator's tasks (pid, tid, ppid, comm).
"$TVIEW" --processes "$tmp/t" >"$tmp/procs" 2>"$tmp/err"
check "--processes exits 0" test $? -eq 0
check "--processes header" grep -q \
    '^ *PID  *TID  *PPID NAME  *STATE  *CPU SINCE  *MODE$' "$tmp/procs"
awk '$1 == "T" && $2 != 0 { print $3, $2, $4, substr($0, index($0, $6)) }' \
    "$tmp/truth" | sort >"$tmp/want"
# name is columns 25-39 (15 wide), after PID TID PPID of 7 each
awk 'NR > 1 && $2 != 0 { n = substr($0, 25, 15); sub(/ +$/, "", n);
    print $1, $2, $3, n }' "$tmp/procs" | sort >"$tmp/got"
# every task the truth lists is there with the same ids and name
missing=0
while read -r pid tid ppid comm; do
	grep -qE "^ *$pid +$tid +$ppid $comm" "$tmp/procs" ||
	    { echo "  missing: $pid $tid $ppid $comm"
	    missing=$((missing + 1)); }
done <"$tmp/want"
check "every live task with its pid, tid, ppid, name ($missing missing)" \
    test "$missing" -eq 0
check "the cache file was written" sh -c "ls '$XDG_CACHE_HOME'/tview/state-* \
    >/dev/null 2>&1"
"$TVIEW" --processes "$tmp/t" >"$tmp/procs2" 2>&1
check "a second run (from the cache) prints the same table" \
    cmp -s "$tmp/procs" "$tmp/procs2"

# --at: before the first event nothing is known; at 50% a table.
"$TVIEW" --processes --at 0% "$tmp/t" >"$tmp/p0" 2>&1
check "--at 0%: only the first instant's threads" \
    test "$(wc -l <"$tmp/p0")" -le 3
"$TVIEW" --processes --at 50% "$tmp/t" >"$tmp/p50" 2>&1
check "--at 50%: a table" test "$(wc -l <"$tmp/p50")" -gt 20
check "--at 50%: one running thread per CPU at most" sh -c \
    "awk 'NR > 1 && \$5 == \"running\" { print \$6 }' '$tmp/p50' |
    sort | uniq -d | grep -q . && exit 1 || exit 0"

# --dump --with-pid: three columns, then the plain --dump line.
TVIEW_CACHE=off "$TVIEW" --dump --with-pid "$tmp/t" >"$tmp/dp" 2>&1
TVIEW_CACHE=off "$TVIEW" --dump "$tmp/t" >"$tmp/d" 2>&1
cut -f 4- "$tmp/dp" >"$tmp/dp4"
check "--with-pid adds columns and changes nothing else" \
    cmp -s "$tmp/dp4" "$tmp/d"
# the TID column against the truth, in --dump order: by (cpu, ts) the
# same events; compare the multiset of (pid, tid) pairs
awk -F '\t' '$2 != "-" { print $1, $2 }' "$tmp/dp" | sort | uniq -c \
    >"$tmp/pairs.got"
awk '$1 == "E" { print $5, $4 }' "$tmp/truth" | sort | uniq -c \
    >"$tmp/pairs.all"
unknown=$(awk -F '\t' '$2 == "-"' "$tmp/dp" | wc -l)
check "at most a few events before the first switches are unknown" \
    test "$unknown" -lt 200
check "(pid, tid) of known events within the truth's" sh -c \
    "awk 'NR == FNR { w[\$2 \" \" \$3] = \$1; next }
    { if (!((\$2 \" \" \$3) in w) || \$1 > w[\$2 \" \" \$3]) bad++ }
    END { exit bad > 0 }' '$tmp/pairs.all' '$tmp/pairs.got'"
TVIEW_CACHE=off "$TVIEW" --dump --with-pid --begin 50% "$tmp/t" \
    >"$tmp/dpb" 2>&1
check "--with-pid --begin: the state is replayed up to the start" \
    sh -c "test \"\$(tail -n 1 '$tmp/dpb')\" = \"\$(tail -n 1 '$tmp/dp')\" &&
    ! head -n 1 '$tmp/dpb' | grep -q '^-'"

# Two hosts (the synchronised traces of tc-synctraces): a HOST column.
c=$TVIEW_SHARED/traces/ctf
if test -n "$TVIEW_SHARED" && test -d "$c/tc-synctraces-scp_src"; then
	"$TVIEW" --processes --at 19:01:30 "$c/tc-synctraces-scp_src" \
	    "$c/tc-synctraces-scp_dest" >"$tmp/hosts" 2>&1
	check "two hosts: a HOST column with both" sh -c \
	    "head -n 1 '$tmp/hosts' | grep -q '^HOST ' &&
	    grep -q '^VM1 ' '$tmp/hosts' && grep -q '^VM3 ' '$tmp/hosts'"
fi

# Misuse.
"$TVIEW" --at 10% "$tmp/t" >/dev/null 2>&1
check "--at without --processes: usage error" test $? -eq 2
"$TVIEW" --with-pid --info "$tmp/t" >/dev/null 2>&1
check "--with-pid without --dump: usage error" test $? -eq 2
"$TVIEW" --processes --at nonsense "$tmp/t" >/dev/null 2>"$tmp/e"
check "--at nonsense: exit 2 with a message" sh -c \
    "test $? -eq 2 && grep -q . '$tmp/e'"
exit $fail
