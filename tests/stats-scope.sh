#!/bin/sh
# --stats over a scope: with --filter it counts only what --dump --filter
# prints (the total, every class, every CPU's and every thread's events,
# the threads as --dump --with-pid gives them), with --begin and
# --end only what --dump --begin --end prints, and both at once; the
# CPU times do not change with the filter; --filter with --latency is a
# usage error.  The oracle is --dump's output counted by awk.

TV_TEST_NAME=stats-scope
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
test -x "$GEN_CTF" || { echo "skip: no $GEN_CTF"; exit 77; }

"$GEN_CTF" --quiet --cpus 4 --events 30000 --seed 7 "$tmp/t" || exit 99
"$TVIEW" --dump "$tmp/t" >"$tmp/all" 2>/dev/null
test "$(wc -l <"$tmp/all")" -eq 30000 || { echo "FAIL: fixture"; exit 1; }

# counts FILE: "total N", "class NAME N" and "cpu C N" lines of a dump
counts() {
	awk '{ n = $3; sub(/:$/, "", n); cls[n]++; t++
	    if (match($0, /cpu_id = [0-9]+/)) {
		c = substr($0, RSTART + 9, RLENGTH - 9); cpu[c]++ } }
	    END { printf "total %d\n", t
	    for (k in cls) printf "class %s %d\n", k, cls[k]
	    for (k in cpu) printf "cpu %s %d\n", k, cpu[k] }' "$1" | sort
}
# got FILE: the same lines from --stats output (CPUs with no event
# left out, as a dump cannot show them)
got() {
	awk '$1 == "events" { printf "total %d\n", $2 }
	    /^ *EVENTS +CLASS/ { on = 1; next }
	    on == 1 && NF == 2 { printf "class %s %d\n", $2, $1; next }
	    on == 1 { on = 0 }
	    /^ *CPU +EVENTS/ { on = 2; next }
	    on == 2 && NF == 11 { if ($2 > 0) printf "cpu %s %d\n", $1, $2
		next }
	    on == 2 { on = 0 }' "$1" | sort
}
# scope NAME ARGS...: --stats ARGS counts what --dump ARGS prints
scope() {
	name=$1
	shift
	"$TVIEW" --dump "$@" "$tmp/t" >"$tmp/d" 2>/dev/null
	"$TVIEW" --stats "$@" "$tmp/t" >"$tmp/s" 2>"$tmp/err"
	ok "$name: --stats exits 0, nothing on stderr" \
	    test $? -eq 0 -a ! -s "$tmp/err"
	counts "$tmp/d" >"$tmp/want"
	got "$tmp/s" >"$tmp/have"
	ok "$name: total, classes and CPUs equal --dump's ($(grep total \
	    "$tmp/want"))" cmp -s "$tmp/want" "$tmp/have"
	test "$(wc -l <"$tmp/d")" -gt 0 || ok "$name: the fixture matches" false
	# per thread (TID 0 has a row per CPU: left out): --dump --with-pid
	"$TVIEW" --dump --with-pid "$@" "$tmp/t" 2>/dev/null |
	    awk -F '\t' '$2 != "-" && $2 != 0 { n[$2]++ }
	    END { for (k in n) print k, n[k] }' | sort >"$tmp/want"
	awk '/^ *TID +PID/ { on = 1; next }
	    on && $1 != 0 && $(NF - 7) > 0 { print $1, $(NF - 7) }' \
	    "$tmp/s" | sort >"$tmp/have"
	ok "$name: every thread's events equal --dump --with-pid's" \
	    cmp -s "$tmp/want" "$tmp/have"
}

scope "filter by name" --filter 'sched_*'
scope "filter on the state (cpu, tid)" --filter '$cpu == 1 && $tid != 0'
scope "filter on a field" --filter 'sched_switch: prev_tid == 0'

# a range: the times of dump lines 5000 and 21000, as printed
t1=$(sed -n '5000s/^\[\([^]]*\)\].*/\1/p' "$tmp/all")
t2=$(sed -n '21000s/^\[\([^]]*\)\].*/\1/p' "$tmp/all")
scope "range" --begin "$t1" --end "$t2"
scope "range and filter" --begin "$t1" --end "$t2" --filter 'syscall_*'

# the filter changes counts only: the CPU rows' times stay
"$TVIEW" --stats "$tmp/t" | awk '/^ *CPU +EVENTS/ { on = 1; next }
    on && NF == 11 { $2 = ""; print } on && NF != 11 { on = 0 }' \
    >"$tmp/times.all"
"$TVIEW" --stats --filter 'sched_*' "$tmp/t" |
    awk '/^ *CPU +EVENTS/ { on = 1; next }
    on && NF == 11 { $2 = ""; print } on && NF != 11 { on = 0 }' \
    >"$tmp/times.f"
ok "CPU times are those of the whole range" \
    cmp -s "$tmp/times.all" "$tmp/times.f"
test -s "$tmp/times.all" || ok "CPU rows found" false
"$TVIEW" --stats --filter 'sched_*' "$tmp/t" | grep -qx 'filter sched_\*'
ok "the output names the filter" test $? -eq 0

"$TVIEW" --latency all --filter 'sched_*' "$tmp/t" >/dev/null 2>"$tmp/err"
ok "--filter with --latency is a usage error" test $? -eq 2
"$TVIEW" --stats --filter 'sched_switch: nosuch == 1' "$tmp/t" \
    >/dev/null 2>"$tmp/err"
ok "a bad filter is a usage error" test $? -eq 2
ok "naming its column" grep -q 'filter:1:' "$tmp/err"
tv_test_done
