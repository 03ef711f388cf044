#!/bin/sh
# Shell completion: the bash script completes the options --help lists,
# the values of --time-format and --format, TIME forms after --begin, and
# trace paths (directories and *.dat, not other files); the zsh script
# names every option too and parses (when zsh is installed).

TV_TEST_NAME=completion
. "$(dirname "$0")/lib.sh"

bashc=$top_srcdir/completion/bash/tview
zshc=$top_srcdir/completion/zsh/_tview
test -x "$TVIEW" || { echo "no tview binary at $TVIEW"; exit 99; }

LC_ALL=C "$TVIEW" --help >"$tmp/help"
for opt in $(grep -oE -- '--[a-z][a-z-]+' "$tmp/help" | sort -u); do
	ok "bash completes $opt" grep -q -e "$opt\\b" "$bashc"
	ok "zsh completes $opt" grep -q -e "$opt\\b" "$zshc"
done

command -v bash >/dev/null 2>&1 || { echo "skip: no bash"; tv_test_done; exit; }

# complete WORD...: what _tview offers for the last word, sorted, one a
# line (bash splits "--opt=val" into "--opt" "=" "val" itself).
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
	    _tview; printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$bashc" "$@"
}

ok "--time- completes to --time-format=" \
    test "$(complete_words tview --time-)" = "--time-format="
ok "--ti offers --time-format= and --timeline" \
    test "$(complete_words tview --ti | tr '\n' ' ')" = \
    "--time-format= --timeline --timeline= "
ok "--info= offers counts" \
    test "$(complete_words tview --info = '')" = "counts"
ok "--latency= offers the kinds" \
    test "$(complete_words tview --latency = s | tr '\n' ' ')" = \
    "softirq syscall "
ok "--time-format=l completes to local" \
    test "$(complete_words tview --time-format = l)" = "local"
ok "--format= offers table and tsv" \
    test "$(complete_words tview --processes --format = '' | tr '\n' ' ')" = \
    "table tsv "
ok "--begin 5 offers 50%" test "$(complete_words tview --begin 5)" = "50%"
ok "--at=+1 offers the relative forms" \
    test "$(complete_words tview --processes --at = +1 | tr '\n' ' ')" = \
    "+100us +1ms +1s "
mkdir -p "$tmp/traces/ctf" "$tmp/traces/rec"
: >"$tmp/traces/rec.dat"
: >"$tmp/traces/notes.txt"
out=$(cd "$tmp" && complete_words tview traces/ | tr '\n' ' ')
ok "paths: directories and .dat files, not other files ($out)" \
    test "$out" = "traces/ctf traces/rec traces/rec.dat "

if command -v zsh >/dev/null 2>&1; then
	ok "zsh parses the zsh script" zsh -n "$zshc"
else
	echo "skip: no zsh"
fi
tv_test_done
