# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The library of the tests, as git's t/test-lib.sh: assertions, the
# prerequisites of a test (a missing tool is a SKIP that names its
# Debian package, never a pass) and fixtures.  scripts/tests/run sources
# it before the test files.

# Assertions used by the test files; each fails the test with a message.
fail() { printf 'FAIL: %s\n' "$*"; exit 1; }
assert_eq() { [ "$1" = "$2" ] || fail "${3:-values differ}: expected '$2', got '$1'"; }
assert_contains() { grep -qF -- "$2" "$1" || { sed 's/^/  | /' "$1" | tail -n 30; fail "${3:-output} does not contain '$2'"; }; }
assert_not_contains() { ! grep -qF -- "$2" "$1" || fail "${3:-output} contains '$2'"; }
# expect_exit CODE OUTFILE CMD...: run CMD, output to OUTFILE, check status.
expect_exit() {
	local want=$1 outf=$2 rc=0
	shift 2
	"$@" >"$outf" 2>&1 </dev/null || rc=$?
	if [ "$rc" != "$want" ]; then
		sed 's/^/  | /' "$outf" | tail -n 30
		fail "'$*' exited $rc, expected $want"
	fi
}
skip() { printf 'SKIP: %s\n' "$*"; exit "$EX_SKIP"; }
# need_tool TOOL PACKAGE: the test needs the command TOOL, which the
# Debian package PACKAGE has.  As root (without SERIES_NO_INSTALL=1) it
# is installed; otherwise, or if that fails, the test is a SKIP that
# names the package, never a pass.
need_tool() {
	command -v "$1" >/dev/null 2>&1 && return 0
	if [ "$(id -u)" -eq 0 ] && [ "${SERIES_NO_INSTALL:-0}" != 1 ]; then
		apt_install "$2" || true
		command -v "$1" >/dev/null 2>&1 && return 0
	fi
	skip "$1 not installed (Debian package $2)"
}
# sig_ignored SIG: this process started with SIG ignored (inherited: a
# background job of a shell without job control ignores INT and QUIT,
# nohup HUP), so no shell below it can trap SIG.
sig_ignored() {
	local mask n
	mask=$(awk '/^SigIgn:/ { print $2 }' /proc/self/status)
	n=$(kill -l "$1")
	(( (16#$mask >> (n - 1)) & 1 ))
}

# A series directory with N trivial patch files named like export makes.
make_series_fixture() {
	local dir=$1 n=$2 k
	mkdir -p "$dir/patches"
	: >"$dir/series"
	for k in $(seq 1 "$n"); do
		printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nSubject: [PATCH %d/%d] test: Patch number\n %d\n\n---\n' \
			"$k" "$n" "$k" >"$dir/patches/000$k-test-patch-$k.patch"
		echo "000$k-test-patch-$k.patch" >>"$dir/series"
	done
}
