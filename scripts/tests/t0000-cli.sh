# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of the command line: usage errors, the series file and the
# KEY=VALUE configuration files.
# Each test runs in its own empty directory ($TEST_WORK) in a subshell.

test_usage_errors() {
	expect_exit 2 out "$SERIES"
	assert_contains out "Usage:"
	expect_exit 2 out "$SERIES" frobnicate
	assert_contains out "unknown command 'frobnicate'"
	expect_exit 0 out "$SERIES" help
	for v in SERIES_CACHE SERIES_TREE SERIES_BASE SERIES_TARBALL SERIES_ALLOW_TARBALL SERIES_DEB_URI MCACHE_DIR \
		SERIES_BUILD SERIES_RESULTS SERIES_FILE SERIES_CONFIGS SERIES_ARCHES \
		SERIES_JOBS SERIES_NO_INSTALL CCACHE_DIR; do
		assert_contains out "$v" "help text"
	done
	expect_exit 2 out "$SERIES" build
	assert_contains out "usage: build ARCH [REV]"
	expect_exit 2 out "$SERIES" build vax
	assert_contains out "unknown arch 'vax'"
	expect_exit 2 out "$SERIES" bisect --to zero
	assert_contains out "--to needs a patch number"
	expect_exit 2 out "$SERIES" apply --bogus
	assert_contains out "unknown argument '--bogus'"
	expect_exit 2 out env SERIES_JOBS=lots "$SERIES" list
	assert_contains out "SERIES_JOBS must be a positive number"
	expect_exit 2 out "$SERIES_ROOT/scripts/tests/run" --bogus
	# A selection that selects nothing is an error, not a pass.
	expect_exit 2 out "$SERIES_ROOT/scripts/tests/run" --quick --only no-such-test
	assert_contains out "no test matches 'no-such-test' among the self-tests (--quick)"
}
TESTS+=(test_usage_errors)

test_series_parsing() {
	make_series_fixture s 3
	expect_exit 0 out env SERIES_FILE="$PWD/s/series" "$SERIES" list
	assert_eq "$(wc -l <out)" 3 "number of listed patches"
	assert_contains out $'2\t0002-test-patch-2.patch\ttest: Patch number 2'
	# Comments, blank lines and -p1 are quilt syntax and accepted.
	printf '# comment\n\n0001-test-patch-1.patch -p1\n0002-test-patch-2.patch # two\n0003-test-patch-3.patch\n' >s/series
	expect_exit 0 out env SERIES_FILE="$PWD/s/series" "$SERIES" list
	assert_eq "$(wc -l <out)" 3 "patches with comments"
	# A missing patch file is named with its line.
	echo 0004-missing.patch >>s/series
	expect_exit 1 out env SERIES_FILE="$PWD/s/series" "$SERIES" list
	assert_contains out "series:6: patch file patches/0004-missing.patch does not exist"
	# A duplicate.
	printf '0001-test-patch-1.patch\n0002-test-patch-2.patch\n0003-test-patch-3.patch\n0001-test-patch-1.patch\n' >s/series
	expect_exit 1 out env SERIES_FILE="$PWD/s/series" "$SERIES" list
	assert_contains out "0001-test-patch-1.patch is listed twice (first on line 1)"
	# A patch file that the series does not list.
	printf '0001-test-patch-1.patch\n0002-test-patch-2.patch\n' >s/series
	expect_exit 1 out env SERIES_FILE="$PWD/s/series" "$SERIES" list
	assert_contains out "patches/0003-test-patch-3.patch is not listed in series"
	# Unsupported quilt options and the cover letter as a patch.
	printf '0001-test-patch-1.patch -p0\n' >s/series
	expect_exit 1 out env SERIES_FILE="$PWD/s/series" "$SERIES" list
	assert_contains out "unsupported option '-p0'"
	touch s/patches/0000-cover-letter.patch
	printf '0000-cover-letter.patch\n' >s/series
	expect_exit 1 out env SERIES_FILE="$PWD/s/series" "$SERIES" list
	assert_contains out "the cover letter is not a patch of the stack"
	# The repository's own series parses.
	expect_exit 0 out "$SERIES" list
	[ -s out ] || fail "the repository's series lists no patch"
}
TESTS+=(test_series_parsing)

test_conf_load() {
	(
		. "$SERIES_ROOT/scripts/lib/common.sh"
		printf 'ARCH_A=1\n# c\nARCH_B=x y $(z)\n' >good.conf
		conf_load good.conf ARCH_
		assert_eq "$ARCH_A" 1
		assert_eq "$ARCH_B" 'x y $(z)' "values are literal"
	)
	printf 'ARCH_A=1\nOTHER=2\n' >bad.conf
	expect_exit 1 out bash -c '. "$1/scripts/lib/common.sh"; conf_load bad.conf ARCH_' _ "$SERIES_ROOT"
	assert_contains out "bad.conf:2: unknown key OTHER"
	printf 'ARCH_A 1\n' >bad2.conf
	expect_exit 1 out bash -c '. "$1/scripts/lib/common.sh"; conf_load bad2.conf ARCH_' _ "$SERIES_ROOT"
	assert_contains out "bad2.conf:1: not a KEY=VALUE line"
	# Every configuration file of the repository loads.
	for f in "$SERIES_ROOT"/configs/arch/*.conf; do
		expect_exit 0 out bash -c '. "$1/scripts/lib/common.sh"; conf_load "$2" ARCH_' _ "$SERIES_ROOT" "$f"
	done
}
TESTS+=(test_conf_load)
