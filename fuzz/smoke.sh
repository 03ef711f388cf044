#!/bin/sh
# smoke.sh TARGET...: run each fuzz target FUZZ_SECONDS (default 60) on its
# seeds; fail if any crashes, leaks, times out (1 s) or allocates over
# 512 MiB.  Prints one line per target: executions, exec/s, coverage.
# FUZZ_ARGS adds libFuzzer options: CI gives "-seed=1 -runs=N", so that
# its run is the same mutations every time (the seeds are generated, not
# random) and a red CI is a real, reproducible finding.
set -u
secs=${FUZZ_SECONDS:-60}
src=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
failed=0 passed=0
for t in "$@"; do
	name=${t##*/fuzz-}
	log=fuzz/work/$name.log
	mkdir -p fuzz/work
	# shellcheck disable=SC2086
	if $SHELL "$src/fuzz/run.sh" "$t" "$secs" ${FUZZ_ARGS:-} >"$log" 2>&1; then
		passed=$((passed + 1))
		res=ok
	else
		failed=$((failed + 1))
		res=FAILED
		tail -n 40 "$log"
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 |
	    sed -n 's/.*\(cov: [0-9]* ft: [0-9]*\).*/\1/p')
	echo "fuzz-smoke: $name: $res, ${execs:-?} executions (at most" \
	    "${secs}s), ${cov:-no coverage line}"
done
echo "$passed passed, $failed failed, 0 skipped"
test "$failed" -eq 0
