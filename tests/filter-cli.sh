#!/bin/sh
# --dump --filter and --count on CTF (gen-ctf, and a real LTTng kernel
# trace from ../shared when present) and LTT 0.x: each filter prints
# exactly the --dump lines an awk program picks on the same fields;
# tid/pid/comm pick the lines --dump --with-pid attributes to that
# thread; time bounds agree with --begin/--end; --count counts what
# --dump --filter prints; errors name the column.

TV_TEST_NAME=filter-cli
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
test -x "$GEN_CTF" || { echo "SKIP: no $GEN_CTF"; exit 77; }
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME
"$GEN_CTF" --quiet --cpus 4 --events 20000 --seed 11 "$tmp/t" || exit 99

# same TRACE FILTER AWK [HEADER]: --dump --filter equals --dump | awk;
# HEADER: how many lines the format prints before the events (LTT: 2).
# LTT's last lines, after the events, are left out.
same() {
	"$TVIEW" --dump --filter "$2" "$1" >"$tmp/raw" 2>"$tmp/err"
	rc=$?
	sed '/^End trace set$/,$d' "$tmp/raw" >"$tmp/got"
	"$TVIEW" --dump "$1" 2>/dev/null | awk "$3" >"$tmp/want"
	ok "'$2' = awk '$3' ($(wc -l <"$tmp/want") lines)" sh -c \
	    "test $rc -eq 0 && ! test -s '$tmp/err' && test -s '$tmp/want' &&
	    cmp -s '$tmp/want' '$tmp/got'"
	"$TVIEW" --count --filter "$2" "$1" >"$tmp/n" 2>/dev/null
	ok "--count '$2'" test "$(cat "$tmp/n")" -eq \
	    "$(($(wc -l <"$tmp/want") - ${4:-0}))"
}

# owner TRACE COLUMN VALUE FILTER [HEADER]: --filter equals the
# --with-pid lines whose COLUMN (1 pid, 2 tid, 3 name) is VALUE, without
# the prefix.
owner() {
	"$TVIEW" --dump --filter "$4" "$1" 2>"$tmp/err" |
	    tail -n +$((${5:-0} + 1)) | sed '/^End trace set$/,$d' >"$tmp/got"
	rc=$(test -s "$tmp/err" && echo 1 || echo 0)
	"$TVIEW" --dump --with-pid "$1" 2>/dev/null |
	    awk -F '\t' -v c="$2" -v v="$3" '$c == v' | cut -f 4- >"$tmp/want"
	ok "'$4' = --with-pid column $2 == $3 ($(wc -l <"$tmp/want") lines)" \
	    sh -c "test $rc -eq 0 && test -s '$tmp/want' &&
	    cmp -s '$tmp/want' '$tmp/got'"
}

t=$tmp/t
same "$t" 'sched_switch: prev_tid == 0' \
    'index($0, " sched_switch: ") && index($0, "prev_tid = 0,")'
same "$t" 'CPU == 2' 'index($0, "{ cpu_id = 2 }")'
# a field of the packet context, decoded only for the filters asking
same "$t" 'cpu_id == 2' 'index($0, "{ cpu_id = 2 }")'
same "$t" '$cpu == 2 && !(cpu == 3)' \
    'index($0, "{ cpu_id = 2 }") && !index($0, ", cpu = 3, ")'
same "$t" 'CPU >= 1 && cpu < 0x3' \
    'index($0, "{ cpu_id = 1 }") || index($0, "{ cpu_id = 2 }")'
same "$t" 'lttng_statedump_*' 'index($0, " lttng_statedump_")'
same "$t" 'sched_switch: next_comm ~ "k*" && !(next_tid < 10)' \
    'index($0, " sched_switch: ") && match($0, /next_comm = "[^"]*"/) &&
    substr($0, RSTART + 13, 1) == "k" && match($0, /next_tid = [0-9]+/) &&
    substr($0, RSTART + 11, RLENGTH - 11) + 0 >= 10'
same "$t" 'sched_wakeup, sched_waking: comm =~ "^rcu_" || target_cpu == 3' \
    '(index($0, " sched_wakeup: ") || index($0, " sched_waking: ")) &&
    (index($0, "comm = \"rcu_") || index($0, "target_cpu = 3 "))'
same "$t" 'lttng_statedump_process_state: type == "KERNEL_THREAD"' \
    'index($0, "type = ( \"KERNEL_THREAD\"")'

# tid, pid, comm from the process state, on events that carry none
tid=$("$TVIEW" --dump --with-pid "$t" | awk -F '\t' '$2 != "-" && $2 != 0 { n[$2]++ } END { for (k in n) if (n[k] > m) { m = n[k]; b = k } print b }')
pid=$("$TVIEW" --dump --with-pid "$t" | awk -F '\t' -v t="$tid" '$2 == t { print $1; exit }')
comm=$("$TVIEW" --dump --with-pid "$t" | awk -F '\t' -v t="$tid" '$2 == t { print $3; exit }')
owner "$t" 2 "$tid" "\$tid == $tid"
owner "$t" 1 "$pid" "\$pid == $pid"
owner "$t" 3 "$comm" "\$comm == \"$comm\""

# time bounds: the same events as --begin/--end
"$TVIEW" --dump --begin 40% --end 60% "$t" >"$tmp/want"
"$TVIEW" --dump --filter 'time >= 40% && time <= "60%"' "$t" >"$tmp/got"
ok "time bounds = --begin/--end ($(wc -l <"$tmp/want") lines)" \
    cmp -s "$tmp/want" "$tmp/got"

# errors name the column; a field no selected class has is an error
"$TVIEW" --dump --filter 'sched_switch: prev_tdi == 0' "$t" >"$tmp/got" \
    2>"$tmp/err"
ok "unknown field: exit 2" test $? -eq 2
ok "unknown field: column and suggestion" grep -qx \
    "tview: filter:1:15: unknown field 'prev_tdi' (did you mean prev_tid?)" \
    "$tmp/err"
"$TVIEW" --dump --filter 'nosuch_event: x == 1' "$t" 2>"$tmp/err" >/dev/null
ok "unknown event: named" grep -qx \
    "tview: filter:1:1: no event matches 'nosuch_event'" "$tmp/err"
"$TVIEW" --dump --filter 'cpu == 1 &&' "$t" 2>"$tmp/err" >/dev/null
ok "syntax error: column" grep -qx \
    "tview: filter:1:12: unexpected end of the filter" "$tmp/err"
"$TVIEW" --info --filter 'cpu == 1' "$t" >/dev/null 2>&1
ok "--filter without --dump/--count: usage error" test $? -eq 2

# LTT 0.x and a real LTTng kernel trace, when ../shared is here
shared=${TVIEW_SHARED:-}
l=$shared/traces/ltt0/trace-15316events_nolost_newformat
if [ -n "$shared" ] && [ -d "$l" ]; then
	same "$l" 'fs.pollfd: fd > 133' \
	    'NR <= 2 || index($0, "fs.pollfd: ") == 1 && match($0, /{ fd = [0-9]+ }/) &&
	    substr($0, RSTART + 7, RLENGTH - 9) + 0 > 133' 2
	same "$l" 'fs/pollfd, kernel.*: cpu == 0 && fd != 131' \
	    'NR <= 2 || index($0, "fs.pollfd: ") == 1 &&
	    !index($0, "{ fd = 131 }")' 2
	tid=$("$TVIEW" --dump --with-pid "$l" | awk -F '\t' '$2 != "-" && $2 != 0 { n[$2]++ } END { for (k in n) if (n[k] > m) { m = n[k]; b = k } print b }')
	owner "$l" 2 "$tid" "\$tid == $tid" 2
	comm=$("$TVIEW" --dump --with-pid "$l" | awk -F '\t' -v t="$tid" '$2 == t { print $3; exit }')
	owner "$l" 3 "$comm" "COMM == \"$comm\"" 2
else
	echo "note: LTT and LTTng kernel checks skipped (no ../shared)"
fi
k=$shared/traces/ctf/tc-many-threads
if [ -n "$shared" ] && [ -d "$k" ]; then
	same "$k" 'sched_waking: target_cpu == 5 && prio < 20' \
	    'index($0, " sched_waking: ") && index($0, "target_cpu = 5 }") &&
	    match($0, /prio = -?[0-9]+/) &&
	    substr($0, RSTART + 7, RLENGTH - 7) + 0 < 20'
	same "$k" 'sched_switch: prev_comm == "lttng-consumerd"' \
	    'index($0, " sched_switch: ") &&
	    index($0, "prev_comm = \"lttng-consumerd\"")'
fi
tv_test_done
