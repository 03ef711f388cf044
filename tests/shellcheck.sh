#!/bin/sh
# The shell scripts (tests, their preludes, build.sh, .ci/run, bench)
# are clean for shellcheck at warning level, with the settings of
# .shellcheckrc (the preludes are followed through their "# shellcheck
# source=" lines).  Skips when shellcheck is not installed.

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
command -v shellcheck >/dev/null 2>&1 || { echo "skip: no shellcheck"; exit 77; }
cd "$top_srcdir" || exit 99
test -f .shellcheckrc || { echo "skip: no .shellcheckrc (not a source tree)"; exit 77; }
# shellcheck disable=SC2046 # the list of scripts, split on purpose
if shellcheck -S warning tests/*.sh tests/ui/*.sh tests/run tests/tc-report build.sh \
    .ci/run $(ls bench/*.sh 2>/dev/null); then
	echo "shellcheck: clean"
	exit 0
fi
echo "FAIL: shellcheck found problems (see above)"
exit 1
