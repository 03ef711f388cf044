#!/bin/sh
# Plain-text searches (src/ui/literal.c): the workers rule most rows out
# from the letters their held texts lack, without rendering them, and
# find the text in the rows they do render, the UI thread only looking
# at task columns, and at none when no name the pass met holds the
# text.  Each pattern below is searched forwards from the first event
# and backwards from the last (where a row's task column is often the
# only place that holds a command's name) in two browsers: one that scans on its UI thread, the regex on every
# whole row (the oracle), and one whose search goes to the workers from
# its first row with TVIEW_UI_SEARCH_CHECK, which compares every
# worker's verdict with the regex on the whole row (a difference is
# written to stderr).  Both must select the same row.  The patterns hit
# an event name, a field name, an enumeration label, a string, a task
# column alone, the time, nothing; some are plain text, some not, some
# with capitals (case-sensitive); then on a real LTTng-UST trace when
# ../shared has it.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

gen_trace "$tmp/trace" --cpus 4 --events 20000 --seed 3
set -- zq9xnomatch wakeup prev_prio WAIT _THREAD rcu_preempt \
    rcu_preempt-15 worker/3:1 irqd/1 'worker/0:1"' 46\.03 nothing-here \
    'wa[i]t' Wait 'ppid = 2,' 'tid = 15,' nvme0q2 ccQd3 gcc acpi cc1 linux \
    'zq9x.*nomatch' 'wak[e]up' 'irq.*d/1' 'rcu_pre+mpt' 'w.*q.*d/2' \
    'journal.*fd' 'j.*ret = '

# search_one N KEY PATTERN: move with KEY (g or G), search with PATTERN
# (/... or ?...); the selected row once it has answered (a command that
# does not exist, zzmarkN, typed after it, says so).
search_one() {
	ui_keys "$2"
	ui_type "$3"; ui_keys Enter
	ui_type ":zzmark$1"; ui_keys Enter
	ui_wait "unknown command: zzmark$1" 60 >/dev/null ||
	    echo "no answer to $3" >&2
	ui_sel
}

# search_all MODE: each pattern forwards from the first event and
# backwards from the last; "PATTERN<TAB>row<TAB>row" lines into $tmp/MODE.
search_all() {
	_mode=$1
	shift
	: >"$tmp/$_mode"
	_i=0
	for _p in "$@"; do
		_i=$((_i + 2))
		_fwd=$(search_one "$_i" g "/$_p")
		_bwd=$(search_one "$((_i + 1))" G "?$_p")
		printf '%s\t%s\t%s\n' "$_p" "$_fwd" "$_bwd" >>"$tmp/$_mode"
	done
}

# not_in TEXT FILE: FILE does not hold TEXT.
not_in() { ! grep -qF -- "$1" "$2"; }

# compare_on TRACE LABEL PATTERN...: the two browsers on TRACE.
compare_on() {
	_tr=$1 _lb=$2
	shift 2
	ui_start -x 200 TVIEW_UI_SEARCH_NEAR=100000000 "$_tr"
	ok "$_lb: one-thread browser started" ui_wait "Event"
	ok "$_lb: its pass ended" ui_wait_gone "indexing"
	search_all one "$@"
	ui_stop
	ui_start -x 200 TVIEW_UI_SEARCH_NEAR=0 TVIEW_UI_SEARCH_CHECK=1 "$_tr"
	ok "$_lb: workers' browser started" ui_wait "Event"
	ok "$_lb: its pass ended" ui_wait_gone "indexing"
	search_all workers "$@"
	# (not just an empty stderr: the browser stopped before may still
	# be saying it was hung up on)
	ok "$_lb: no worker's verdict differs from the regex" \
	    not_in "search check" "$tmp/stderr"
	grep "search check" "$tmp/stderr" | sed 's/^/  /'
	ui_stop
	for _p in "$@"; do
		_a=$(grep -F -m1 "$_p	" "$tmp/one")
		_b=$(grep -F -m1 "$_p	" "$tmp/workers")
		ok "$_lb: /$_p and ?$_p: the same rows either way" \
		    test "$_a" = "$_b"
		[ "$_a" = "$_b" ] ||
		    printf '  one:     %s\n  workers: %s\n' "$_a" "$_b"
	done
}

compare_on "$tmp/trace" generated "$@"
# the patterns that should match did, somewhere past the first row
n=$(cut -f2,3 "$tmp/one" | tr '\t' '\n' | sort -u | wc -l)
ok "the searches went to $n different rows (several)" test "$n" -ge 16

# LTTng-UST rows name their task in contexts (vtid, vpid, procname),
# which the workers read past unbuilt when no task can hold the text
ros=$TVIEW_SHARED/traces/ctf/tc-ros2
if [ -d "$ros" ]; then
	compare_on "$ros" ros2 zq9xnomatch _one_to_one rcl_service_init \
	    atomically 427934 0x55F5 'rcl_.*init' 'zq9x.*nomatch'
else
	echo "skip: the LTTng-UST part needs ../shared/traces"
fi
done_tests
