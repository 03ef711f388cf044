#!/bin/sh
# The tview command line: --help, --version, usage errors, --info and
# --dump (with --begin/--end) on a generated trace, bad paths, corrupt and
# truncated input, translations, and the TERM=dumb refusal of the UI.
# Run by `make check` (which sets TVIEW, top_builddir, TVIEW_SHARED).

TV_TEST_NAME=cli
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
: "${TVIEW_SHARED:=$top_srcdir/../shared}"

# run ARGS...: run tview, keep stdout, stderr and the exit status.
run() {
	"$TVIEW" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
}

has() { grep -q -e "$1" "$2"; }
rc_is() { test "$rc" -eq "$1"; }
no_crash() { test "$rc" -lt 128; }

test -x "$TVIEW" || { echo "no tview binary at $TVIEW"; exit 99; }

# --help and --version.
run --help
ok "--help exits 0" rc_is 0
for opt in --dump --info --begin --end --time-format --help --version; do
	ok "--help documents $opt" has "$opt" "$tmp/out"
done
ok "--help points at tview(1) for keys" has 'tview(1)' "$tmp/out"
run --version
ok "--version exits 0" rc_is 0
ok "--version prints the version" has '^tview [0-9]' "$tmp/out"

# Usage errors: exit 2 and a hint.  (Without a trace argument tview
# opens the current directory's trace: none in an empty one.)
mkdir "$tmp/empty"
(cd "$tmp/empty" && run && exit "$rc")
rc=$?
ok "no trace: exit 2" rc_is 2
ok "no trace: message" has 'no trace given' "$tmp/err"
run --no-such-option x
ok "bad option: exit 2" rc_is 2
ok "bad option: hint" has '--help' "$tmp/err"
run --time-format=bogus x
ok "bad --time-format: exit 2" rc_is 2

# Bad paths: exit 1, one line prefixed "tview: " naming the path.
run --info "$tmp/does-not-exist"
ok "missing path: exit 1" rc_is 1
ok "missing path: tview: prefix" has '^tview: ' "$tmp/err"
ok "missing path: names the path" has 'does-not-exist' "$tmp/err"
run --dump "$tmp/empty"
ok "empty directory: exit 1" rc_is 1
ok "empty directory: tview: prefix" has '^tview: ' "$tmp/err"
printf 'not a trace\n' >"$tmp/junk.txt"
run --info "$tmp/junk.txt"
ok "junk file: exit 1" rc_is 1

# French messages through $TEXTDOMAINDIR (the catalogue built in po/).
gmo=$top_builddir/po/fr.gmo
test -f "$gmo" || gmo=$top_srcdir/po/fr.gmo
if test -f "$gmo"; then
	mkdir -p "$tmp/locale/fr/LC_MESSAGES"
	cp "$gmo" "$tmp/locale/fr/LC_MESSAGES/tview.mo"
	TEXTDOMAINDIR=$tmp/locale LANGUAGE=fr "$TVIEW" --help \
	    >"$tmp/out" 2>&1
	ok "--help in French" has 'Utilisation' "$tmp/out"
else
	echo "skip: no po/fr.gmo (built without NLS?)"
fi

# A trace: generated if the generator is built, else a shared one.
trace=
gen=$top_builddir/gen-ctf
if test -x "$gen"; then
	if "$gen" --cpus 2 --events 3000 --seed 7 "$tmp/trace" \
	    >"$tmp/gen.log" 2>&1; then
		trace=$tmp/trace
	else
		echo "gen-ctf failed:"; cat "$tmp/gen.log"
		fails=$((fails + 1))
	fi
elif test -d "$TVIEW_SHARED/traces/ctf/bt-lttng-tracefile-rotation"; then
	trace=$TVIEW_SHARED/traces/ctf/bt-lttng-tracefile-rotation
fi
if test -z "$trace"; then
	echo "skip: no trace generator built and no shared traces"
	test "$fails" -eq 0 || exit 1
	exit 0
fi

# --info.
run --info "$trace"
ok "--info exits 0" rc_is 0
ok "--info: format" has 'Format: ctf' "$tmp/out"
ok "--info: streams" has 'Streams (' "$tmp/out"
ok "--info: clocks" has 'Clocks (' "$tmp/out"
ok "--info: event classes" has 'Event classes (' "$tmp/out"
ok "--info: time span" has '^Time span: ' "$tmp/out"
ok "--info: stream files" has '      file: ' "$tmp/out"
run --info --time-format=seconds "$trace"
ok "--info --time-format=seconds" has '^Time span: [0-9]*\.[0-9]' "$tmp/out"

# --dump: one line per event, in order, and the count babeltrace2 gives.
run --dump "$trace"
ok "--dump exits 0" rc_is 0
cp "$tmp/out" "$tmp/full"
n=$(wc -l <"$tmp/full")
ok "--dump prints events" test "$n" -gt 10
ok "--dump lines start with a timestamp" has '^\[[0-9][0-9]:' "$tmp/full"
if command -v babeltrace2 >/dev/null 2>&1; then
	bn=$(babeltrace2 "$trace" 2>/dev/null | wc -l)
	ok "--dump line count $n = babeltrace2's $bn" test "$n" -eq "$bn"
fi

# --begin/--end: exactly the lines of the full dump in [begin, end].
test "$n" -ge 4 || { echo "$checks checks, $((fails + 1)) failed"; exit 1; }
tb=$(sed -n "$((n / 4))p" "$tmp/full" | sed 's/^\[\([^]]*\)\].*/\1/')
te=$(sed -n "$((n / 2))p" "$tmp/full" | sed 's/^\[\([^]]*\)\].*/\1/')
awk -v b="[$tb]" -v e="[$te]" \
    '{ t = substr($0, 1, length(b)) } t >= b && t <= e' \
    "$tmp/full" >"$tmp/expect"
run --dump --begin "$tb" --end "$te" "$trace"
ok "--dump --begin --end exits 0" rc_is 0
ok "--dump --begin $tb --end $te = the slice of the full dump" \
    cmp -s "$tmp/out" "$tmp/expect"
run --dump --begin 50% "$trace"
ok "--dump --begin 50% exits 0" rc_is 0
ok "--dump --begin 50% prints the second half" \
    test "$(wc -l <"$tmp/out")" -gt 0 -a "$(wc -l <"$tmp/out")" -lt "$n"
run --dump --begin 'not a time' "$trace"
ok "--dump --begin junk: exit 2" rc_is 2
ok "--dump --begin junk: tview: prefix" has '^tview: ' "$tmp/err"

# Truncated stream file: the readable part, then exit 1 with an error.
if test -n "$gen" && test "$trace" = "$tmp/trace"; then
	cp -r "$trace" "$tmp/trunc"
	for f in "$tmp/trunc"/*; do
		case ${f##*/} in *metadata*|*index*) ;; *) break ;; esac
	done
	f=${f##*/}
	size=$(wc -c <"$tmp/trunc/$f")
	head -c $((size / 2 + 37)) "$tmp/trace/$f" >"$tmp/trunc/$f"
	run --dump "$tmp/trunc"
	ok "truncated: no crash" no_crash
	ok "truncated: exit 1" rc_is 1
	ok "truncated: tview: prefix" has '^tview: ' "$tmp/err"
	ok "truncated: readable events printed" test -s "$tmp/out"
fi

# Corrupt traces from the shared corpus: never a crash or a hang; when
# rejected, one clear line.  (Whether each one is rejected is checked by
# the CTF driver's own tests.)
if test -d "$TVIEW_SHARED/traces/ctf-fail"; then
	for d in "$TVIEW_SHARED"/traces/ctf-fail/*; do
		test -d "$d" || continue
		timeout 60 "$TVIEW" --dump "$d" >/dev/null 2>"$tmp/err" \
		    </dev/null
		rc=$?
		ok "$(basename "$d"): exit 0 or 1 (got $rc)" \
		    test "$rc" -le 1
		if test "$rc" -eq 1; then
			ok "$(basename "$d"): tview: prefix" \
			    has '^tview: ' "$tmp/err"
		fi
	done
fi

# The other formats through the same command line, when the shared samples
# are there: --info names the format, --dump prints events.
for spec in tracedat:ftrace/lisa-sched_load/trace.dat \
    ltt:ltt0/trace-1021events-nolost-1cpu; do
	fmt=${spec%%:*}
	p=$TVIEW_SHARED/traces/${spec#*:}
	test -e "$p" || continue
	run --info "$p"
	ok "--info on $fmt: exit 0" rc_is 0
	ok "--info on $fmt: format" has "Format: $fmt" "$tmp/out"
	run --dump "$p"
	ok "--dump on $fmt: exit 0" rc_is 0
	ok "--dump on $fmt: events" test "$(wc -l <"$tmp/out")" -gt 10
done

# A trace.dat and a CTF trace in one timeline: every event of both, each
# printed by its own driver, in time order (the trace.dat clock counts
# from boot, so its events all come first).
dat=$TVIEW_SHARED/traces/ftrace/lisa-sched_load/trace.dat
if test -e "$dat"; then
	"$TVIEW" --dump "$dat" >"$tmp/dat.txt" 2>/dev/null
	"$TVIEW" --dump "$trace" >"$tmp/ctf.txt" 2>/dev/null
	run --dump "$dat" "$trace"
	ok "trace.dat + CTF: exit 0" rc_is 0
	ok "trace.dat + CTF: every line of both, trace.dat first" \
	    sh -c 'cat "$1/dat.txt" "$1/ctf.txt" | cmp -s - "$1/out"' _ "$tmp"
	run --info "$dat" "$trace"
	ok "trace.dat + CTF: --info names both formats" \
	    sh -c 'grep -q "Format: tracedat" "$1" && grep -q "Format: ctf" "$1"' \
	    _ "$tmp/out"
fi

# Output into a file or a pipe: the browser is not wanted, --dump is (as
# git and tig do), whatever TERM says.  (The refusal of a dumb terminal,
# exit 3, is tests/ui/open.sh's.)
TERM=dumb "$TVIEW" "$trace" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
ok "stdout not a terminal: exit 0" rc_is 0
ok "stdout not a terminal: --dump's output" cmp -s "$tmp/out" "$tmp/full"

tv_test_done
