#!/bin/sh
# The two set-up commands of the README, for a fresh Debian machine:
#
#   ./build.sh [-y] demo    install what is missing, build, open the demo
#   ./build.sh [-y] check   install what is missing, build, run every test
#   ./build.sh [-y] fuzz    install clang too, build the fuzz targets and
#                           run make fuzz-smoke (FUZZ_SECONDS per target)
#   ./build.sh [-y] deps    install what is missing
#
# Missing Debian packages are installed with apt-get (through sudo when
# not root).  Run from a terminal, it asks first; with -y, under CI
# ($CI set to anything but false) or without a terminal, it does not.  The build is in the source tree, with warnings as errors;
# TVIEW_CONFIGURE_FLAGS adds configure options (e.g. --enable-asan) on the
# first configure.
set -eu

top=$(cd "$(dirname "$0")" && pwd)
cd "$top"

# -y (before or after the command): install without asking.
assume_yes=no
cmd=
for a in "$@"; do
	case $a in
	-y|--yes) assume_yes=yes ;;
	*) cmd=${cmd:-$a} ;;
	esac
done

BUILD_DEPS="autoconf automake autopoint libtool pkg-config gcc make gettext
libncurses-dev libxml2-dev libjson-c-dev zlib1g-dev libpcre2-dev libzstd-dev
libtraceevent-dev libtraceevent1-plugin"
TEST_DEPS="tmux babeltrace2 babeltrace trace-cmd shellcheck"
FUZZ_DEPS="clang"

# Install the Debian packages of $@ that are not installed yet.
install_deps() {
	missing=
	for p in "$@"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		    grep -q 'ok installed'; then
			missing="$missing $p"
		fi
	done
	test -n "$missing" || return 0
	if test "$assume_yes" = no && test -t 0 &&
	    { test -z "${CI:-}" || test "${CI:-}" = false; }; then
		printf 'build.sh: install with apt-get:%s? [Y/n] ' "$missing"
		read -r answer || answer=n
		case $answer in
		''|[Yy]*) ;;
		*)
			echo "build.sh: not installing; install them" \
			    "yourself:" >&2
			echo "  sudo apt-get install$missing" >&2
			exit 1
			;;
		esac
	fi
	echo "build.sh: installing:$missing"
	if test "$(id -u)" -eq 0; then
		sudo=
	elif command -v sudo >/dev/null 2>&1; then
		sudo=sudo
	else
		echo "build.sh: need root or sudo to install:$missing" >&2
		exit 1
	fi
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
	# shellcheck disable=SC2086
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	    --no-install-recommends $missing
}

# Generate the build system and configure, once.
configure_tree() {
	if test ! -x configure || test configure.ac -nt configure ||
	    test Makefile.am -nt configure; then
		autoreconf -fi || return 1
	fi
	if test ! -f Makefile || test ! -f config.status; then
		# shellcheck disable=SC2086
		./configure --enable-werror ${TVIEW_CONFIGURE_FLAGS:-} ||
		    return 1
	fi
}

case "$cmd" in
demo)
	# shellcheck disable=SC2086
	install_deps $BUILD_DEPS
	configure_tree
	make -j"$(nproc 2>/dev/null || echo 2)"
	make demo
	exec ./tview data/demo
	;;
check)
	# shellcheck disable=SC2086
	install_deps $BUILD_DEPS $TEST_DEPS
	if ! configure_tree; then
		echo "build.sh: could not configure the build"
		echo "0 passed, 1 failed, 0 skipped"
		exit 1
	fi
	# tests/run builds everything through make check, and counts a
	# build failure as a failed test.
	exec tests/run
	;;
fuzz)
	# shellcheck disable=SC2086
	install_deps $BUILD_DEPS $TEST_DEPS $FUZZ_DEPS
	TVIEW_CONFIGURE_FLAGS="--enable-fuzzing ${TVIEW_CONFIGURE_FLAGS:-}"
	if ! configure_tree; then
		echo "build.sh: could not configure the fuzzing build"
		echo "0 passed, 1 failed, 0 skipped"
		exit 1
	fi
	exec make -j"$(nproc 2>/dev/null || echo 2)" fuzz-smoke \
	    FUZZ_SECONDS="${FUZZ_SECONDS:-60}" \
	    ${FUZZ_SMOKE_TARGETS:+FUZZ_SMOKE_TARGETS="$FUZZ_SMOKE_TARGETS"}
	;;
deps)
	# shellcheck disable=SC2086
	install_deps $BUILD_DEPS $TEST_DEPS
	;;
*)
	echo "usage: $0 [-y] demo|check|fuzz|deps" >&2
	exit 2
	;;
esac
