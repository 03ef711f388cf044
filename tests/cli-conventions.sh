#!/bin/sh
# Command-line conventions: getopt errors say "tview:", not the binary's
# path; --version gives the licence and where bugs go; --processes
# --format=tsv prints the same rows as the table, tab-separated with a
# header, and agrees with gen-ctf's ground truth; --format is checked.
# (Exit status 3 when the browser cannot start: tests/ui/open.sh.)

TV_TEST_NAME=cli-conventions
. "$(dirname "$0")/lib.sh"

test -x "$TVIEW" || { echo "no tview binary at $TVIEW"; exit 99; }
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME

run() {
	"$TVIEW" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
}
rc_is() { test "$rc" -eq "$1"; }
has() { grep -q -e "$1" "$2"; }

# getopt's messages, called through the full path.
case $TVIEW in /*) ;; *) TVIEW=$(pwd)/$TVIEW ;; esac
run --no-such-option
ok "unknown option: exit 2" rc_is 2
ok "unknown option: 'tview: ' prefix" has "^tview: unrecognized option" \
    "$tmp/err"
ok "unknown option: the binary's path is not shown" \
    test "$(grep -c -F "$TVIEW" "$tmp/err")" -eq 0
run -Z
ok "invalid short option: 'tview: ' prefix" has "^tview: invalid option" \
    "$tmp/err"
run --begin
ok "missing argument: 'tview: ' prefix" has "^tview: option" "$tmp/err"

run --version
ok "--version: exit 0" rc_is 0
ok "--version: name and version first" has '^tview [0-9][0-9.]*$' "$tmp/out"
ok "--version: licence line" has '^License [A-Za-z0-9.+-]*: <https://' \
    "$tmp/out"
ok "--version: bug-report line" has '^Report bugs' "$tmp/out"
ok "--help documents exit status 3" sh -c \
    '"$0" --help | grep -q "3 if the browser cannot start"' "$TVIEW"
ok "--help documents --format" sh -c \
    '"$0" --help | grep -q -e "--format=FORMAT"' "$TVIEW"

# --format misuse.
run --processes --format=xml "$tmp"
ok "--format=xml: exit 2" rc_is 2
ok "--format=xml: says so" has "unknown format 'xml'" "$tmp/err"
run --dump --format=tsv "$tmp"
ok "--format without --processes: exit 2" rc_is 2

# --processes --format=tsv against the table and the ground truth.
"$GEN_CTF" --quiet --cpus 3 --events 20000 --seed 21 --truth "$tmp/truth" \
    "$tmp/t" >"$tmp/gen.log" 2>&1 || { cat "$tmp/gen.log"; exit 99; }
run --processes --format=tsv "$tmp/t"
ok "tsv: exit 0" rc_is 0
cp "$tmp/out" "$tmp/tsv"
ok "tsv: the header" test "$(head -n 1 "$tmp/tsv")" = \
    "$(printf 'HOST\tPID\tTID\tPPID\tNAME\tSTATE\tCPU\tSINCE\tMODE')"
ok "tsv: every row has 9 fields" \
    test "$(awk -F '\t' 'NF != 9' "$tmp/tsv" | wc -l)" -eq 0
run --processes "$tmp/t"
cp "$tmp/out" "$tmp/table"
ok "tsv: as many rows as the table" \
    test "$(wc -l <"$tmp/tsv")" -eq "$(wc -l <"$tmp/table")"
# The TSV laid out as the table's columns gives the table itself (one
# host: no HOST column there).
awk -F '\t' '{ printf "%7s %7s %7s %-15s %-9s %3s %-18s %s\n",
    $2, $3, $4, $5, $6, $7, $8, $9 }' "$tmp/tsv" >"$tmp/tsv.table"
ok "tsv: the same rows as the table, field by field" \
    cmp -s "$tmp/table" "$tmp/tsv.table"
awk '$1 == "T" && $2 != 0 { print $3, $2, $4, substr($0, index($0, $6)) }' \
    "$tmp/truth" | sort >"$tmp/want"
awk -F '\t' 'NR > 1 { print $2, $3, $4, $5 }' "$tmp/tsv" | sort \
    >"$tmp/got"
ok "tsv: every live task of the truth with pid, tid, ppid, name" \
    test "$(comm -23 "$tmp/want" "$tmp/got" | wc -l)" -eq 0
tv_test_done
