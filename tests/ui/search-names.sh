#!/bin/sh
# A search typed while the background pass runs (held here at its third
# checkpoint by TVIEW_TEST_SLOW_PASS) reads every task name first, on
# every core (tv_state_names_scan), so that text no name holds leaves
# the task column alone as it does after the pass.  Every row the
# workers judge is checked against the one-thread search
# (TVIEW_UI_SEARCH_CHECK), and a match that only a task column holds,
# far past where the pass stands, is found at open as after the pass: a
# name the reading missed would make that row a miss.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 200000 --seed 29
"$TVIEW" --dump --with-pid "$tmp/trace" >"$tmp/dump" 2>/dev/null
# A piece of a task's name (cut at '-', '(' or a digit, which a task
# column holds elsewhere) that no other name holds, searched as plain
# text, a row R past the
# 100,000th whose payload holds it, and the next row holding it at all,
# L, which holds it in its task column only.
found=$(awk -F'\t' '
function piece(s) { sub(/[-()0-9].*/, "", s); return s }
NR == FNR { if ($3 != "-" && !($3 in full)) { full[$3] = 1; fl[++n] = $3 }
	next }
FNR == 1 {
	for (i = 1; i <= n; i++) {
		p = piece(fl[i])
		# no k or s: caseless, those match non-ASCII letters too,
		# and the search then takes the regex path
		if (length(p) < 4 || p ~ /[ksKS]/)
			continue
		u = 1
		for (j = 1; j <= n; j++)
			if (j != i && index(fl[j], p))
				u = 0
		if (u)
			cand[p] = 1
	}
}
{
	for (p in cand) {
		pay = index($4, p) > 0
		if ((p in r) && !pay && piece($3) == p && FNR > 100000) {
			print r[p], FNR, p
			exit
		}
		if (pay)
			r[p] = FNR
		else if (piece($3) == p)
			delete r[p]
	}
}' "$tmp/dump" "$tmp/dump")
set -- $found
test $# -eq 3 || { echo "no task-only match in the generated trace"; exit 99; }
from=$1 task_row=$2 name=$3

ui_start -x 160 TVIEW_UI_SEARCH_NEAR=0 TVIEW_UI_SEARCH_CHECK=1 \
    TVIEW_TEST_SLOW_PASS=8000 TVIEW_CACHE=off "$tmp/trace"
ok "started" ui_wait "Event"
ui_type "/zq9nomatch"; ui_keys Enter
ok "during the pass: nothing found" ui_wait "pattern not found" 60
ok "the pass still runs" ui_wait "indexing" 1
no_check() { ! ui_screen | grep -q "search check"; }
ok "every row as the one-thread search has it" no_check
ok "quits with 0" ui_quit

# Without the check (which renders every row on this thread too, and so
# would find the row whatever the workers said of it)
ui_start -x 160 TVIEW_UI_SEARCH_NEAR=0 TVIEW_TEST_SLOW_PASS=8000 \
    TVIEW_CACHE=off "$tmp/trace"
ok "started again" ui_wait "Event"
ui_type ":goto #$from"; ui_keys Enter
ok "on event $from" ui_wait "event $from of 200000"
ui_type "/$name"; ui_keys Enter
ok "during the pass: '$name' found at event $task_row, in its task column" \
    ui_wait "event $task_row of 200000" 60
ok "the pass had not ended" ui_wait "indexing" 1
ok "the pass ends" ui_wait_gone "indexing" 120
ui_keys Escape
ui_type ":goto #$from"; ui_keys Enter
ok "on event $from again" ui_wait "event $from of 200000"
ui_type "/$name"; ui_keys Enter
ok "after the pass: the same row" ui_wait "event $task_row of 200000" 60
ok "quits with 0 again" ui_quit
done_tests
