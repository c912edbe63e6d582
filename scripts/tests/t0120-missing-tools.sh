# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of missing tools: a cross compiler, QEMU, a tool of a unit
# or of a test is a SKIP or a set-up error that names its package, never
# a pass.
# Each test runs in its own empty directory ($TEST_WORK) in a subshell.

test_missing_cross_compiler() {
	cp -r "$SERIES_ROOT/configs" cfg
	sed -i 's/^ARCH_CROSS_COMPILE=.*/ARCH_CROSS_COMPILE=nonexistent-linux-gnu-/;s/^ARCH_TOOLCHAIN_PACKAGE=.*/ARCH_TOOLCHAIN_PACKAGE=gcc-nonexistent-linux-gnu/' cfg/arch/s390.conf
	expect_exit 2 out env SERIES_CONFIGS="$PWD/cfg" SERIES_NO_INSTALL=1 "$SERIES" config s390
	assert_contains out "missing tool(s): nonexistent-linux-gnu-gcc"
	assert_contains out "apt-get install gcc-nonexistent-linux-gnu"
}
TESTS+=(test_missing_cross_compiler)

# Without QEMU and no way to install it, 'series boot' prints the apt-get
# line and exits 2, and the boot check is a skip naming the package.
test_missing_qemu() {
	cp -r "$SERIES_ROOT/configs" cfg
	sed -i 's/^BOOT_QEMU=.*/BOOT_QEMU=qemu-system-nonexistent/;s/^BOOT_QEMU_PACKAGE=.*/BOOT_QEMU_PACKAGE=qemu-system-nonexistent-pkg/' cfg/boot/arm64.conf
	git init -q tree && git -C tree commit -q --allow-empty -m base
	# A REV that is no commit is said before any tool is looked for.
	expect_exit 2 out env SERIES_CONFIGS="$PWD/cfg" SERIES_TREE="$PWD/tree" SERIES_CACHE="$PWD/c" \
		SERIES_NO_INSTALL=1 "$SERIES" boot arm64 no-such-rev
	assert_contains out "boot: 'no-such-rev' is not a commit in $PWD/tree"
	assert_not_contains out "missing tool"
	expect_exit 2 out env SERIES_CONFIGS="$PWD/cfg" SERIES_TREE="$PWD/tree" SERIES_CACHE="$PWD/c" \
		SERIES_NO_INSTALL=1 "$SERIES" boot arm64 HEAD
	assert_contains out "missing tool(s): qemu-system-nonexistent"
	assert_contains out "apt-get install qemu-system-nonexistent-pkg"
	mkdir res
	expect_exit 4 out env SERIES_ROOT="$SERIES_ROOT" SERIES_CONFIGS="$PWD/cfg" SERIES_NO_INSTALL=1 SERIES_CHECK_RESULT_DIR="$PWD/res" \
		SERIES_CHECK_STEP=0 "$SERIES_ROOT/scripts/checks/boot/run"
	assert_eq "$(cat res/summary)" "SKIP: qemu-system-nonexistent missing (Debian package qemu-system-nonexistent-pkg)" "boot check summary"
}
TESTS+=(test_missing_qemu)

# missing_qemu_skip UNIT CONF PREFIX: with the QEMU of configs/CONF
# (keys PREFIXQEMU, PREFIXQEMU_PACKAGE) missing and no install allowed,
# the check unit UNIT skips, naming the package.
missing_qemu_skip() {
	local unit=$1 conf=$2 p=$3
	cp -r "$SERIES_ROOT/configs" cfg
	sed -i "s/^${p}QEMU=.*/${p}QEMU=qemu-system-nonexistent/;s/^${p}QEMU_PACKAGE=.*/${p}QEMU_PACKAGE=qemu-system-nonexistent-pkg/" "cfg/$conf"
	mkdir res
	expect_exit 4 out env SERIES_ROOT="$SERIES_ROOT" SERIES_CONFIGS="$PWD/cfg" SERIES_NO_INSTALL=1 SERIES_CHECK_RESULT_DIR="$PWD/res" \
		SERIES_CHECK_STEP=1 "$SERIES_ROOT/scripts/checks/$unit/run"
	assert_eq "$(cat res/summary)" "SKIP: qemu-system-nonexistent missing (Debian package qemu-system-nonexistent-pkg)" "$unit check summary"
}

test_missing_qemu_module_load() {
	missing_qemu_skip module-load module-load.conf MODLOAD_
}
TESTS+=(test_missing_qemu_module_load)

test_missing_qemu_kunit() {
	missing_qemu_skip kunit kunit.conf KUNIT_
}
TESTS+=(test_missing_qemu_kunit)

test_need_tools() {
	expect_exit 2 out env SERIES_NO_INSTALL=1 bash -c \
		'. "$1/scripts/lib/common.sh"; need_tools sh:dash /no/such/header.h:libfoo-dev no-such-cmd-xyz:bar' _ "$SERIES_ROOT"
	assert_contains out "missing tool(s): /no/such/header.h no-such-cmd-xyz"
	assert_contains out "apt-get install libfoo-dev bar"
	expect_exit 0 out env SERIES_NO_INSTALL=1 bash -c \
		'. "$1/scripts/lib/common.sh"; need_tools sh:dash /bin/sh:dash' _ "$SERIES_ROOT"
}
TESTS+=(test_need_tools)

# A test whose tool is missing is a SKIP that names the package, never a
# pass: need_tool of the test runner, without installing.
test_need_tool_skips() {
	local rc=0
	(SERIES_NO_INSTALL=1 need_tool no-such-tool-xyz no-such-package; echo reached) >out 2>&1 || rc=$?
	assert_eq "$rc" "$EX_SKIP" "need_tool of a missing tool"
	assert_contains out "SKIP: no-such-tool-xyz not installed (Debian package no-such-package)"
	assert_not_contains out reached
	(need_tool sh dash; echo reached) >out 2>&1 || fail "need_tool of a present tool"
	assert_contains out reached
}
TESTS+=(test_need_tool_skips)
