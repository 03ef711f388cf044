#!/bin/sh
# --stats and --latency against the simulator's ground truth: on a
# gen-ctf trace, between the first instant every CPU's task is known and
# the last instant every CPU still has events, the CPU time of every
# task, the idle time of every CPU, and the count, min, mean, p50, p99
# and max of wake-up, system call (also per call), IRQ and softirq
# latencies are exactly what tests/stats-truth.awk computes from the
# truth file; the event counts add up; misuse is a usage error.

TV_TEST_NAME=stats-truth
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
test -x "$GEN_CTF" || { echo "skip: no $GEN_CTF"; exit 77; }
awkdir=$top_srcdir/tests

"$GEN_CTF" --quiet --cpus 4 --events 60000 --seed 5 --truth "$tmp/truth" \
    "$tmp/t" || exit 99

# T0: every CPU has switched once; T1: the earliest last event of a CPU.
t0=$(awk '$1 == "X" && !($3 in f) { f[$3] = $2 }
    END { for (c in f) if (m == "" || f[c] > m) m = f[c]; print m }' \
    "$tmp/truth")
t1=$(awk '$1 == "E" { l[$3] = $2 }
    END { for (c in l) if (m == "" || l[c] < m) m = l[c]; print m }' \
    "$tmp/truth")
# seconds with nine decimals, the TIME form --begin/--end take
sec() { echo "$1" | sed 's/\(.........\)$/.\1/'; }
range="--begin $(sec "$t0") --end $(sec "$t1")"

awk -v t0="$t0" -v t1="$t1" -f "$awkdir/stats-truth.awk" "$tmp/truth" \
    >"$tmp/facts"
# shellcheck disable=SC2086
"$TVIEW" --stats $range "$tmp/t" >"$tmp/stats" 2>"$tmp/err"
ok "--stats exits 0" test $? -eq 0
ok "--stats says nothing on stderr" test ! -s "$tmp/err"

# seconds.nanoseconds -> nanoseconds
ns='function ns(s) { sub(/\./, "", s); return s + 0 }'

# Thread rows: TID first, RUNNING the seventh column from the end (names
# may hold spaces).  The idle threads (TID 0) are compared per CPU below.
awk "$ns"' NF >= 12 && $1 ~ /^[0-9]+$/ && $1 != 0 && $(NF - 6) ~ /\./ {
    printf "run %s %.0f\n", $1, ns($(NF - 6)) }' "$tmp/stats" |
    sort >"$tmp/run.got"
grep '^run ' "$tmp/facts" | sort >"$tmp/run.want"
ok "CPU time of every task equals the truth" \
    cmp -s "$tmp/run.want" "$tmp/run.got"
test -s "$tmp/run.want" || ok "the truth has tasks" false

# CPU rows: 11 columns after the header "CPU EVENTS BUSY IDLE UNKNOWN".
awk "$ns"' /^ *CPU +EVENTS/ { on = 1; next } on && NF == 11 {
    printf "idle %s %.0f\n", $1, ns($4) } on && NF != 11 { on = 0 }' \
    "$tmp/stats" | sort >"$tmp/idle.got"
grep '^idle ' "$tmp/facts" | sort >"$tmp/idle.want"
ok "idle time of every CPU equals the truth" \
    cmp -s "$tmp/idle.want" "$tmp/idle.got"
span=$(( t1 - t0 ))
awk "$ns"' /^ *CPU +EVENTS/ { on = 1; next } on && NF == 11 {
    if (ns($3) + ns($4) + ns($5) != '"$span"' || ns($5) != 0) bad = 1 }
    on && NF != 11 { on = 0 } END { exit bad }' "$tmp/stats"
ok "busy + idle = the range on every CPU, nothing unknown" test $? -eq 0

# Event counts: the total, the classes and the CPUs add up to the truth.
want=$(awk -v a="$t0" -v b="$t1" '$1 == "E" {
    s = substr($2, length($2) - 14) + 0
    if (s >= substr(a, length(a) - 14) + 0 &&
        s <= substr(b, length(b) - 14) + 0) n++ } END { print n }' \
    "$tmp/truth")
got=$(awk '$1 == "events" { print $2 }' "$tmp/stats")
ok "event total equals the truth's ($want)" test "$got" = "$want"
got=$(awk '/^ *EVENTS +CLASS/ { on = 1; next } on && NF == 2 { n += $1 }
    on && NF != 2 { on = 0 } END { print n }' "$tmp/stats")
ok "class counts add up to the total" test "$got" = "$want"

# Latencies: every series, exact to the nanosecond.
# shellcheck disable=SC2086
"$TVIEW" --latency all $range "$tmp/t" >"$tmp/lat" 2>"$tmp/err"
ok "--latency all exits 0" test $? -eq 0
grep '^sample ' "$tmp/facts" | sed 's/ sys:/ /' | sort -k2,2 -k3,3n |
    awk -f "$awkdir/stats-summary.awk" | sort >"$tmp/lat.want"
awk 'NF == 7 && $2 ~ /^[0-9]+$/ { $1 = $1; print }' "$tmp/lat" | sort >"$tmp/lat.got"
ok "wakeup, syscall, irq, softirq and per-call latencies equal the truth" \
    cmp -s "$tmp/lat.want" "$tmp/lat.got"
ok "four kinds and five system calls" test "$(wc -l <"$tmp/lat.got")" -eq 9
# the longest wake-up listed first is the max of the series
max=$(awk '$1 == "wakeup" { print $7 }' "$tmp/lat.got")
first=$(awk '/^LONGEST/ { getline; print $2; exit }' "$tmp/lat")
ok "the longest instance comes first ($max)" test "$first" = "$max"

# One kind alone prints one table.
"$TVIEW" --latency syscall "$tmp/t" >"$tmp/one" 2>&1
ok "--latency syscall prints only system calls" \
    sh -c "! grep -q '^wakeup' '$tmp/one' && grep -q '^syscall ' '$tmp/one'"

# Whole trace: the total equals the --dump line count.
"$TVIEW" --stats "$tmp/t" >"$tmp/all" 2>&1
ok "whole-trace total equals --dump's lines" test \
    "$(awk '$1 == "events" { print $2 }' "$tmp/all")" = \
    "$("$TVIEW" --dump "$tmp/t" | wc -l)"

"$TVIEW" --latency nosuch "$tmp/t" >/dev/null 2>"$tmp/err"
ok "an unknown latency kind is a usage error" test $? -eq 2
ok "which names the kinds" grep -q 'wakeup, syscall' "$tmp/err"
tv_test_done
