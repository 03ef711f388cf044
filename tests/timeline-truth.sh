#!/bin/sh
# --timeline against the simulator's ground truth: in windows of a
# gen-ctf trace cut into columns, the cells where each task shows as
# running (R S T s I) and where each CPU shows a task's work (R S T) are
# exactly those tests/timeline-truth.awk derives from the truth file; a
# window of more records than the replay limit is sampled and says so.

TV_TEST_NAME=timeline-truth
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
test -x "$GEN_CTF" || { echo "skip: no $GEN_CTF"; exit 77; }
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME

"$GEN_CTF" --quiet --cpus 4 --events 60000 --seed 9 --truth "$tmp/truth" \
    "$tmp/t" || exit 99
t0=$(awk '$1 == "X" && !($3 in f) { f[$3] = $2 }
    END { for (c in f) if (m == "" || f[c] > m) m = f[c]; print m }' \
    "$tmp/truth")
t1=$(awk '$1 == "E" { l[$3] = $2 }
    END { for (c in l) if (m == "" || l[c] < m) m = l[c]; print m }' \
    "$tmp/truth")
sec() { echo "$1" | sed 's/\(.........\)$/.\1/'; }

# The letters of --timeline output as "run COL TID" / "busy COL CPU".
cells() {
	awk 'NR > 1 { split($0, p, "|"); split(p[3], f, " ")
	    for (i = 1; i <= length(p[2]); i++) {
		ch = substr(p[2], i, 1)
		if (f[1] == "cpu") { if (ch ~ /[RST]/) print "busy", i - 1, f[2] }
		else if (ch ~ /[RSTsI]/) print "run", i - 1, f[1] } }' "$1" |
	    sort
}

# window NAME T0 T1 COLUMNS: compare one window with the truth.
window() {
	awk -v t0="$2" -v t1="$3" -v cols="$4" \
	    -f "$top_srcdir/tests/timeline-truth.awk" "$tmp/truth" |
	    sort >"$tmp/$1.want"
	"$TVIEW" --timeline="$4" --begin "$(sec "$2")" --end "$(sec "$3")" \
	    "$tmp/t" >"$tmp/$1.out" 2>"$tmp/$1.err"
	ok "$1: exits 0" test $? -eq 0
	ok "$1: exact, $4 columns" \
	    grep -q "columns $4 exact" "$tmp/$1.out"
	cells "$tmp/$1.out" >"$tmp/$1.got"
	ok "$1: running cells equal the truth ($(wc -l <"$tmp/$1.want"))" \
	    cmp -s "$tmp/$1.want" "$tmp/$1.got"
	test -s "$tmp/$1.want" || ok "$1: the truth has cells" false
}

window whole "$t0" "$t1" 120
# a zoomed window of 2 ms a third of the way in, at 200 columns
mid=$(echo "$t0 $t1" | awk '{ a = substr($1, 5) + 0; b = substr($2, 5)
    printf "%s%015.0f\n", substr($1, 1, 4), a + int((b - a) / 3) }')
end=$(echo "$mid" | awk '{ printf "%s%015.0f\n", substr($1, 1, 4),
    substr($1, 5) + 2000000 }')
window zoom "$mid" "$end" 200
# 4 CPU rows first, then threads
ok "four CPU rows first" test "$(sed -n '2,5p' "$tmp/zoom.out" |
    grep -c ' cpu [0-3]$')" -eq 4

# A window past the replay limit is drawn from checkpoints.
"$GEN_CTF" --quiet --cpus 2 --events 450000 --seed 2 "$tmp/big" || exit 99
"$TVIEW" --timeline=60 "$tmp/big" >"$tmp/big.out" 2>&1
ok "a 450,000-event window is sampled" \
    grep -q 'columns 60 sampled' "$tmp/big.out"
ok "sampled rows have 60 cells" awk 'NR > 1 {
    split($0, p, "|"); if (length(p[2]) != 60) bad = 1 } END { exit bad }' \
    "$tmp/big.out"

"$TVIEW" --timeline=0 "$tmp/t" >/dev/null 2>"$tmp/err"
ok "--timeline=0 is a usage error" test $? -eq 2
tv_test_done
