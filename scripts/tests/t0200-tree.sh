# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of the base (tarball, fetch errors, several bases) and of
# apply and export on a fixture tree.
# Each test runs in its own empty directory ($TEST_WORK) in a subshell.

# A tiny stand-in for the Debian tarball of configs/base.conf (its top
# directory), with the packaging block; the BASE_* values are loaded.
make_tarball_fixture() {
	conf_load "$SERIES_ROOT/configs/base.conf" BASE_
	mkdir -p "t/$BASE_TOPDIR/include"
	printf 'obj-y += x.o\n' >"t/$BASE_TOPDIR/Makefile"
	printf '#\n# Normal rules\n#\n*.o\n\n#\n# Debian packaging: ignore everything at the top level, since it isn'"'"'t\n# included in our repository\n#\n/*\n!/debian/\n' >"t/$BASE_TOPDIR/.gitignore"
	echo '/* x */' >"t/$BASE_TOPDIR/include/x.h"
	tar -C t -cJf fake.tar.xz "$BASE_TOPDIR"
}

test_base_tarball() {
	make_tarball_fixture
	expect_exit 1 out env SERIES_CACHE="$PWD/c1" SERIES_TARBALL="$PWD/fake.tar.xz" "$SERIES" base
	assert_contains out "fake.tar.xz has sha256"
	assert_contains out "set SERIES_ALLOW_TARBALL=1"
	[ ! -e c1/linux ] || fail "a refused tarball left a tree behind"
	expect_exit 0 out env SERIES_CACHE="$PWD/c1" SERIES_TARBALL="$PWD/fake.tar.xz" SERIES_ALLOW_TARBALL=1 "$SERIES" base
	expect_exit 0 out2 env SERIES_CACHE="$PWD/c2" SERIES_TARBALL="$PWD/fake.tar.xz" SERIES_ALLOW_TARBALL=1 "$SERIES" base
	# Deterministic: the same tarball gives the same commit anywhere.
	assert_eq "$(git -C c1/linux rev-parse HEAD)" "$(git -C c2/linux rev-parse HEAD)" "base commit of two caches"
	local date=${BASE_DATE%+0000}+00:00
	assert_eq "$(git -C c1/linux log -1 --format='%an <%ae> %ad %cn %cd' --date=iso-strict)" \
		"$BASE_IDENT_NAME <$BASE_IDENT_EMAIL> $date $BASE_IDENT_NAME $date"
	# The Debian block is gone: a new file under include/ is not ignored.
	assert_not_contains c1/linux/.gitignore "Debian packaging"
	assert_contains c1/linux/.gitignore "*.o"
	touch c1/linux/include/new.h
	git -C c1/linux status --porcelain | grep -q 'include/new.h' || fail "include/new.h is ignored"
	# A second run verifies instead of rebuilding.
	expect_exit 0 out env SERIES_CACHE="$PWD/c1" SERIES_TARBALL="$PWD/fake.tar.xz" SERIES_ALLOW_TARBALL=1 "$SERIES" base
	assert_contains out "cached in"
	# A user tree needs SERIES_BASE.
	expect_exit 2 out env SERIES_TREE="$PWD/c1/linux" "$SERIES" base
	assert_contains out "also set SERIES_BASE"
	expect_exit 1 out env SERIES_TREE="$PWD/c1/linux" SERIES_BASE=nosuchrev "$SERIES" base
	assert_contains out "SERIES_BASE=nosuchrev is not a commit"
	# A second base joins the tree by its tag; the checked-out branch and
	# the first base stay.
	local first
	first=$(git -C c1/linux rev-parse HEAD)
	cp -r "$SERIES_ROOT/configs" cfg2
	sed -i 's/^BASE_TAG=.*/BASE_TAG=v0-other/; s/^BASE_COMMIT=.*/BASE_COMMIT=/' cfg2/base.conf
	echo '/* y */' >"t/$BASE_TOPDIR/include/y.h"
	tar -C t -cJf other.tar.xz "$BASE_TOPDIR"
	expect_exit 0 out env SERIES_CACHE="$PWD/c1" SERIES_CONFIGS="$PWD/cfg2" SERIES_TARBALL="$PWD/other.tar.xz" \
		SERIES_ALLOW_TARBALL=1 "$SERIES" base
	assert_eq "$(git -C c1/linux rev-parse HEAD)" "$first" "HEAD after a second base joined"
	git -C c1/linux cat-file -e v0-other:include/y.h || fail "the second base is not in the tree"
	! git -C c1/linux cat-file -e "$BASE_TAG:include/y.h" 2>/dev/null || fail "the first base changed"
	[ -z "$(find c1 -maxdepth 1 -name 'base.*')" ] || fail "base left its work directory"
}
TESTS+=(test_base_tarball)

# Fetching the package: a machine without the archive, or no network,
# gets an error that says what to do, and nothing is left behind.
test_base_fetch_errors() {
	cp -r "$SERIES_ROOT/configs" cfg
	sed -i 's|^BASE_TARBALL=.*|BASE_TARBALL=/nonexistent/linux-source-0.tar.xz|' cfg/base.conf
	expect_exit 1 out env SERIES_CACHE="$PWD/c" SERIES_CONFIGS="$PWD/cfg" \
		SERIES_DEB_URI="file://$PWD/no-such-archive" "$SERIES" base
	conf_load cfg/base.conf BASE_
	assert_contains out "could not download $BASE_DEB_PACKAGE=$BASE_DEB_VERSION from $BASE_DEB_SUITE"
	assert_contains out "set SERIES_TARBALL to a copy of linux-source-0.tar.xz"
	[ ! -e c/linux ] || fail "a failed fetch left a tree"
	[ -z "$(find c -maxdepth 1 -name 'base.*')" ] || fail "a failed fetch left its work directory"
	# A machine whose apt sources do not name the archive.
	sed -i 's|^BASE_DEB_ARCHIVE=.*|BASE_DEB_ARCHIVE=no-such-archive|' cfg/base.conf
	expect_exit 1 out env SERIES_CACHE="$PWD/c" SERIES_CONFIGS="$PWD/cfg" "$SERIES" base
	assert_contains out "name no 'no-such-archive' archive"
	assert_contains out "set SERIES_DEB_URI"
	# A package whose checksum is not the pinned one.
	(
		. "$SERIES_ROOT/scripts/lib/common.sh"
		. "$SERIES_ROOT/scripts/lib/base.sh"
		BASE_TARBALL=/usr/src/x.tar.xz
		echo changed >pkg.deb
		sha_check pkg.deb 0000 "pkg 1.0"
	) >out 2>&1 && fail "a changed package was accepted"
	assert_contains out "expected 0000 (pkg 1.0, configs/base.conf): the package changed"
	assert_contains out "point SERIES_TARBALL at a copy of x.tar.xz"
}
TESTS+=(test_base_fetch_errors)

test_apply_export_fixture() {
	make_tarball_fixture
	local env=(env SERIES_CACHE="$PWD/c" SERIES_TARBALL="$PWD/fake.tar.xz" SERIES_ALLOW_TARBALL=1)
	expect_exit 0 out "${env[@]}" "$SERIES" base
	local t=$PWD/c/linux base
	base=$(git -C "$t" rev-parse HEAD)
	# A one-patch stack, written by export from a branch.
	git -C "$t" checkout -q -b work
	echo 'obj-y += y.o' >>"$t/Makefile"
	GIT_AUTHOR_DATE=2026-01-01T00:00:00Z git -C "$t" -c user.name=T -c user.email=t@t.invalid \
		commit -q -a -s -m 'kbuild: Add y' -m 'Because.'
	git -C "$t" config branch.work.description $'Cover subject\n\nCover body.'
	expect_exit 0 out "${env[@]}" "$SERIES" export --branch work -o s
	assert_eq "$(grep -v '^#' s/series)" "0001-kbuild-Add-y.patch" "exported series"
	assert_contains s/patches/0000-cover-letter.patch "Subject: [PATCH 0/1] Cover subject"
	assert_contains s/patches/0000-cover-letter.patch "base-commit: $base"
	git -C "$t" checkout -q base
	# apply, then export again: byte for byte.
	expect_exit 0 out "${env[@]}" SERIES_FILE="$PWD/s/series" "$SERIES" apply
	expect_exit 0 out "${env[@]}" SERIES_FILE="$PWD/s/series" "$SERIES" export -o s2
	diff -r s s2 || fail "export after apply is not byte-identical"
	# Re-applying over a branch with other commits keeps them.
	git -C "$t" -c user.name=T -c user.email=t@t.invalid commit -q --allow-empty -m local
	local mine
	mine=$(git -C "$t" rev-parse HEAD)
	expect_exit 0 out "${env[@]}" SERIES_FILE="$PWD/s/series" "$SERIES" apply
	assert_contains out "kept as refs/series-backup/sae-series"
	assert_eq "$(git -C "$t" rev-parse refs/series-backup/sae-series)" "$mine" "backup ref"
	# A git operation in progress is refused, nothing is touched.
	touch "$t/.git/MERGE_HEAD"
	expect_exit 1 out "${env[@]}" SERIES_FILE="$PWD/s/series" "$SERIES" apply
	assert_contains out "a git operation is in progress"
	rm "$t/.git/MERGE_HEAD"
	# Local changes are refused too.
	echo dirty >>"$t/Makefile"
	expect_exit 1 out "${env[@]}" SERIES_FILE="$PWD/s/series" "$SERIES" apply
	assert_contains out "has uncommitted changes"
	git -C "$t" checkout -q -f sae-series
	# bisect judges the stack of SERIES_FILE, never another branch with
	# as many commits: another diff, or another subject, is refused.
	expect_exit 0 out "${env[@]}" SERIES_FILE="$PWD/s/series" "$SERIES" apply
	git -C "$t" checkout -q -b other sae-series~1
	echo 'obj-y += w.o' >>"$t/Makefile"
	GIT_AUTHOR_DATE=2026-01-01T00:00:00Z git -C "$t" -c user.name=T -c user.email=t@t.invalid \
		commit -q -a -s -m 'kbuild: Add y' -m 'Because.'
	git -C "$t" checkout -q sae-series
	expect_exit 1 out "${env[@]}" SERIES_FILE="$PWD/s/series" SERIES_NO_INSTALL=1 "$SERIES" bisect --branch other
	assert_contains out "branch other is not the stack of $PWD/s/series: commit 1"
	assert_contains out "has another diff than patch 0001-kbuild-Add-y.patch"
	git -C "$t" checkout -q other
	GIT_AUTHOR_DATE=2026-01-01T00:00:00Z git -C "$t" -c user.name=T -c user.email=t@t.invalid \
		commit -q --amend -m 'kbuild: Add w' -m 'Because.'
	git -C "$t" checkout -q sae-series
	expect_exit 1 out "${env[@]}" SERIES_FILE="$PWD/s/series" SERIES_NO_INSTALL=1 "$SERIES" bisect --branch other
	assert_contains out "commit 1 is 'kbuild: Add w', patch 1 0001-kbuild-Add-y.patch 'kbuild: Add y'"
	# A patch file written otherwise (more context, a second bracketed
	# prefix) is still the stack it applies to.
	mkdir -p s3/patches
	git -C "$t" format-patch -q -U5 --subject-prefix='PATCH] [RFC' -o "$PWD/s3/patches" sae-series~1..sae-series
	(cd s3/patches && ls) >s3/series
	printf '%s\n' 'set -euo pipefail' 'SERIES_PROG=t' '. "$1/scripts/lib/common.sh"' 'series_load_config' \
		'. "$1/scripts/lib/tree.sh"' '. "$1/scripts/cmd/bisect.sh"' 'series_read' \
		'mapfile -t commits < <(tgit rev-list --reverse "$2..sae-series")' \
		'branch_is_series sae-series "${commits[@]}"' 'echo same' >drive.sh
	expect_exit 0 out env SERIES_CACHE="$PWD/c" SERIES_FILE="$PWD/s3/series" bash drive.sh "$SERIES_ROOT" "$base"
	assert_contains out same
	assert_contains s3/patches/0001-kbuild-Add-y.patch "Subject: [PATCH] [RFC] kbuild: Add y"
}
TESTS+=(test_apply_export_fixture)

# A branch name git refuses is refused before anything is locked, made
# or applied: no cache directory appears, and the error names the option.
test_bad_branch_name() {
	local c
	for c in apply export bisect; do
		expect_exit 2 out env SERIES_CACHE="$TEST_WORK/cache" "$SERIES" "$c" --branch 'bad..name'
		assert_contains out "--branch bad..name: not a valid branch name"
		[ ! -e "$TEST_WORK/cache" ] || fail "$c made $TEST_WORK/cache before checking its --branch"
	done
	expect_exit 2 out env SERIES_CACHE="$TEST_WORK/cache" "$SERIES" apply --branch
	assert_contains out "--branch needs a branch name"
}
TESTS+=(test_bad_branch_name)

# Names are data: a branch name and a TMPDIR that hold shell code, and a
# cache path with spaces, run nothing when apply fails and restores the
# tree, or when export cleans up its temporary directory.
test_hostile_names() {
	make_tarball_fixture
	local c="$TEST_WORK/a cache" t mark="$TEST_WORK/pwned"
	local env=(env SERIES_CACHE="$c" SERIES_TARBALL="$PWD/fake.tar.xz" SERIES_ALLOW_TARBALL=1)
	local evil="h\$(touch\${IFS}$mark)'\$(touch\${IFS}$mark)'"
	expect_exit 0 out "${env[@]}" "$SERIES" base
	t=$c/linux
	git -C "$t" check-ref-format --branch "$evil" >/dev/null || fail "git refuses the test's branch name"
	git -C "$t" checkout -q -b "$evil"
	echo 'obj-y += y.o' >>"$t/Makefile"
	GIT_AUTHOR_DATE=2026-01-01T00:00:00Z git -C "$t" -c user.name=T -c user.email=t@t.invalid \
		commit -q -a -s -m 'kbuild: Add y' -m 'Because.'
	git -C "$t" config "branch.$evil.description" $'Cover subject\n\nCover body.'
	mkdir -p "$TEST_WORK/tmp '\$(touch\${IFS}$mark)'"
	expect_exit 0 out "${env[@]}" TMPDIR="$TEST_WORK/tmp '\$(touch\${IFS}$mark)'" \
		"$SERIES" export --branch "$evil" -o s
	[ -z "$(ls -A "$TEST_WORK/tmp '\$(touch\${IFS}$mark)'")" ] || fail "export left its temporary directory"
	# A patch that does not apply: apply fails, aborts git am and checks
	# the hostile branch out again.
	sed -i 's/^+obj-y += y.o$/+obj-y += z.o/; s/^ obj-y += x.o$/ obj-y += q.o/' s/patches/0001-kbuild-Add-y.patch
	expect_exit 1 out "${env[@]}" SERIES_FILE="$PWD/s/series" "$SERIES" apply
	assert_contains out "patch 1 (0001-kbuild-Add-y.patch) does not apply"
	assert_eq "$(git -C "$t" symbolic-ref --short HEAD)" "$evil" "branch after a failed apply"
	[ ! -d "$t/.git/rebase-apply" ] || fail "a failed apply left a git am session"
	[ ! -e "$mark" ] || fail "a name was run as shell code"
}
TESTS+=(test_hostile_names)

# export -o writes into an empty directory or an earlier export only, and
# removes only the patches that the earlier export wrote.
# work_fixture: the base of the tarball fixture in the cache ./c, and a
# branch "work" of it with one patch, "kbuild: Add y", and a cover letter
# (its description).
work_fixture() {
	local t=$PWD/c/linux
	make_tarball_fixture
	expect_exit 0 out env SERIES_CACHE="$PWD/c" SERIES_TARBALL="$PWD/fake.tar.xz" SERIES_ALLOW_TARBALL=1 \
		"$SERIES" base
	git -C "$t" checkout -q -b work
	echo 'obj-y += y.o' >>"$t/Makefile"
	GIT_AUTHOR_DATE=2026-01-01T00:00:00Z git -C "$t" -c user.name=T -c user.email=t@t.invalid \
		commit -q -a -s -m 'kbuild: Add y' -m 'Because.'
	git -C "$t" config branch.work.description $'Cover subject\n\nCover body.'
}

test_export_dir() {
	local env=(env SERIES_CACHE="$PWD/c" SERIES_TARBALL="$PWD/fake.tar.xz" SERIES_ALLOW_TARBALL=1) t=$PWD/c/linux
	work_fixture
	mkdir -p foreign/patches
	echo keep >foreign/patches/mine.patch
	expect_exit 2 out "${env[@]}" "$SERIES" export --branch work -o foreign
	assert_contains out "export -o foreign: patches/ is not empty and no series file of an earlier export"
	assert_eq "$(cat foreign/patches/mine.patch)" keep "a foreign patch after a refused export"
	echo mine >foreign/series
	expect_exit 2 out "${env[@]}" "$SERIES" export --branch work -o foreign
	assert_contains out "export -o foreign: its series file was not written by export"
	assert_eq "$(cat foreign/series)" mine "a foreign series file after a refused export"
	# A directory with other files but no series and no patches takes it.
	mkdir -p other/scripts
	expect_exit 0 out "${env[@]}" "$SERIES" export --branch work -o other
	expect_exit 0 out "${env[@]}" "$SERIES" export --branch work -o s
	echo keep >s/patches/mine.patch
	echo stale >s/patches/0001-kbuild-Add-y.patch
	expect_exit 0 out "${env[@]}" "$SERIES" export --branch work -o s
	assert_eq "$(cat s/patches/mine.patch)" keep "a patch that export did not write"
	assert_contains s/patches/0001-kbuild-Add-y.patch "Subject: [PATCH 1/1] kbuild: Add y"
}
TESTS+=(test_export_dir)

# The whole walk of bisect on a fixture stack with a unit of the test's
# own (SERIES_CHECKS): the base and each patch judged in order, the walk
# stopping at the first bad patch with its reproducer, or going on with
# --keep-going; a patch that touches no arch builds nothing.
test_bisect_walk() {
	make_tarball_fixture
	local env=(env SERIES_CACHE="$PWD/c" SERIES_TARBALL="$PWD/fake.tar.xz" SERIES_ALLOW_TARBALL=1
		SERIES_NO_INSTALL=1 SERIES_CHECKS="$PWD/checks")
	expect_exit 0 out "${env[@]}" "$SERIES" base
	local t=$PWD/c/linux k
	git -C "$t" checkout -q -b work
	mkdir -p "$t/Documentation"
	for k in 1 2 3; do
		echo "$k" >"$t/Documentation/step$k.txt"
		git -C "$t" add Documentation
		GIT_AUTHOR_DATE=2026-01-01T00:00:00Z git -C "$t" -c user.name=T -c user.email=t@t.invalid \
			commit -q -s -m "Documentation: Step $k$([ "$k" != 2 ] || echo ', bad')" -m 'Because.'
	done
	git -C "$t" config branch.work.description $'Cover\n\nBody.'
	expect_exit 0 out "${env[@]}" "$SERIES" export --branch work -o s
	git -C "$t" checkout -q base
	mkdir -p checks/fake
	printf '%s\n' 'CHECK_DESCRIPTION=fails a patch whose subject says bad' 'CHECK_SCOPE=patch' \
		'CHECK_ORDER=1' 'CHECK_AT_BASE=1' 'CHECK_REPRO=scripts/series walk --check fake --to {patch}' >checks/fake/manifest
	# shellcheck disable=SC2016 # the unit's own text
	printf '%s\n' '#!/bin/sh' 'echo "$SERIES_CHECK_STEP" >>"$SERIES_CHECK_RESULT_DIR/../../../walked"' \
		'if git log -1 --format=%s | grep -q bad; then echo "bad subject" >"$SERIES_CHECK_RESULT_DIR/summary"; exit 1; fi' \
		'echo ok >"$SERIES_CHECK_RESULT_DIR/summary"' >checks/fake/run
	chmod +x checks/fake/run
	expect_exit 0 out "${env[@]}" SERIES_FILE="$PWD/s/series" "$SERIES" apply
	expect_exit 1 out "${env[@]}" SERIES_FILE="$PWD/s/series" SERIES_RESULTS="$PWD/r1" "$SERIES" bisect
	assert_contains out "first bad: patch 2"
	assert_contains out "reproduce patch 2 with: SERIES_FILE=$PWD/s/series scripts/series walk --check fake --to $PWD/r1/0002/0002-Documentation-Step-2-bad.patch"
	assert_eq "$(paste -sd' ' r1/walked)" "0 1 2" "steps judged"
	assert_eq "$(cat r1/0002/all/fake/status)" fail "patch 2's verdict"
	expect_exit 1 out "${env[@]}" SERIES_FILE="$PWD/s/series" SERIES_RESULTS="$PWD/r2" "$SERIES" bisect --keep-going
	# The base and patch 1 passed: their verdicts are reused.  A failure
	# is judged again, and patch 3, never reached, is judged now.
	assert_eq "$(paste -sd' ' r2/walked)" "2 3" "steps run with --keep-going"
	assert_contains out "first bad: patch 2"
	assert_eq "$(cat r2/0003/all/fake/status)" pass "patch 3's verdict"
}
TESTS+=(test_bisect_walk)

# Names that are shell code, where no earlier test puts them: a cache
# path at a base that fails (its clean-up runs), the same cache and a
# hostile branch through apply and the walk, and TMPDIR at mbox.  Nothing
# runs, the failed base leaves no temporary tree, mbox none in TMPDIR.
test_hostile_cache_walk_mbox() {
	make_tarball_fixture
	local mark="$TEST_WORK/pwned" c t evil tmp
	c="$TEST_WORK/c'\$(touch\${IFS}$mark)'"
	evil="h\$(touch\${IFS}$mark)"
	# A tarball without the base's top-level directory: base fails.
	mkdir -p wrong/other && tar -C wrong -cJf wrong.tar.xz other
	expect_exit 1 out env SERIES_CACHE="$c" SERIES_TARBALL="$PWD/wrong.tar.xz" SERIES_ALLOW_TARBALL=1 "$SERIES" base
	assert_contains out "has no top-level"
	[ -z "$(find "$c" -maxdepth 1 -name 'base.*')" ] || fail "a failed base left $(find "$c" -maxdepth 1 -name 'base.*')"
	local env=(env SERIES_CACHE="$c" SERIES_TARBALL="$PWD/fake.tar.xz" SERIES_ALLOW_TARBALL=1
		SERIES_NO_INSTALL=1 SERIES_CHECKS="$PWD/checks")
	expect_exit 0 out "${env[@]}" "$SERIES" base
	t=$c/linux
	git -C "$t" checkout -q -b work
	mkdir -p "$t/Documentation" && echo 1 >"$t/Documentation/a.txt" && git -C "$t" add Documentation
	GIT_AUTHOR_DATE=2026-01-01T00:00:00Z git -C "$t" -c user.name=T -c user.email=t@t.invalid \
		commit -q -s -m "Documentation: Add a" -m 'Because.'
	git -C "$t" config branch.work.description $'Cover\n\nBody.'
	expect_exit 0 out "${env[@]}" "$SERIES" export --branch work -o s
	git -C "$t" checkout -q base
	mkdir -p checks/fake
	printf '%s\n' 'CHECK_DESCRIPTION=t' 'CHECK_SCOPE=patch' 'CHECK_ORDER=1' \
		'CHECK_REPRO=scripts/series walk --check fake --to {patch}' >checks/fake/manifest
	printf '#!/bin/sh\necho ok >"$SERIES_CHECK_RESULT_DIR/summary"\n' >checks/fake/run
	chmod +x checks/fake/run
	expect_exit 0 out "${env[@]}" SERIES_FILE="$PWD/s/series" "$SERIES" apply --branch "$evil"
	expect_exit 0 out "${env[@]}" SERIES_FILE="$PWD/s/series" SERIES_RESULTS="$PWD/r" "$SERIES" walk --branch "$evil"
	assert_eq "$(cat r/0001/all/fake/status)" pass "the walk of the hostile branch"
	assert_eq "$(git -C "$t" symbolic-ref --short HEAD)" "$evil" "the branch checked out after the walk"
	tmp="$TEST_WORK/tmp'\$(touch\${IFS}$mark)'"
	mkdir -p "$tmp"
	expect_exit 1 out "${env[@]}" SERIES_FILE="$PWD/s/series" TMPDIR="$tmp" "$SERIES" mbox -o m.mbox
	assert_contains out "has no COPYING, which get_maintainer.pl needs"
	[ -z "$(ls -A "$tmp")" ] || fail "mbox left $(ls -A "$tmp") in TMPDIR"
	[ ! -e "$mark" ] || fail "a name was run as shell code"
}
TESTS+=(test_hostile_cache_walk_mbox)

# A series file with CRLF line endings: the error names the carriage
# return and the line, not a garbled patch name.
test_series_crlf() {
	make_series_fixture s 2
	printf '0001-test-patch-1.patch\r\n0002-test-patch-2.patch\r\n' >s/series
	expect_exit 1 out env SERIES_FILE="$PWD/s/series" "$SERIES" list
	assert_contains out "$PWD/s/series:1: the line ends with a carriage return (CRLF line endings)"
}
TESTS+=(test_series_crlf)

# kbuild cannot build in a path with a space or a colon: the commands
# that build refuse it first, naming the variable, and change nothing;
# the others (base, apply, export: test_hostile_names) work with one.
test_build_path_spaces() {
	local cmd
	for cmd in 'build arm64' walk check 'boot arm64' 'config arm64'; do
		# shellcheck disable=SC2086 # a command and its arguments
		expect_exit 2 out env SERIES_CACHE="$PWD/a cache" "$SERIES" $cmd
		assert_contains out "SERIES_TREE is $(printf '%q' "$PWD/a cache/linux"): kbuild cannot build in a path with a space or a colon"
		[ ! -e "$PWD/a cache" ] || fail "'$cmd' made the cache directory before refusing it"
	done
	expect_exit 2 out env SERIES_CACHE="$PWD/c" SERIES_BUILD="$PWD/b:1" "$SERIES" build arm64
	assert_contains out "SERIES_BUILD is $PWD/b:1: kbuild cannot build"
}
TESTS+=(test_build_path_spaces)

# A command killed with its whole process group (SIGKILL: no trap runs)
# leaves its work; the next command, taking the lock over, removes the
# temporary tree of a base and aborts the git am session of an apply
# that the series started, and leaves someone else's alone.
test_killed_leftovers() {
	local env=(env SERIES_CACHE="$PWD/c" SERIES_TARBALL="$PWD/fake.tar.xz" SERIES_ALLOW_TARBALL=1) t=$PWD/c/linux
	work_fixture
	git -C "$t" format-patch -q -1 -o "$PWD/p" HEAD
	git -C "$t" checkout -q base
	# What a killed base and a killed apply leave: a base.XXXXXX tree, a
	# git am session stopped on a conflict, marked as the series', and
	# the lock record of a process that is gone.
	mkdir -p c/base.AbC123/tree
	sed -i 's/^ obj-y += x.o$/ obj-y += q.o/' p/*.patch
	git -C "$t" checkout -q --detach base
	! git -C "$t" -c user.name=T -c user.email=t@t.invalid am -q "$PWD"/p/*.patch >/dev/null 2>&1 || fail "the fixture's patch applied"
	[ -d "$t/.git/rebase-apply" ] || fail "no git am session in the fixture"
	echo base >"$t/.git/series-apply"
	printf 'pid 999999 start 1: series apply, since 00:00:00\n' >c/.series.owner
	expect_exit 0 out "${env[@]}" "$SERIES" base
	assert_contains out "taking over the lock of $PWD/c: pid 999999 (series apply, since 00:00:00) is gone"
	assert_contains out "removed $PWD/c/base.AbC123, the unfinished work of a base that was killed"
	assert_contains out "the git am session of an apply that was killed is aborted; $t is back at base"
	local left
	left=$(ls -d c/base.AbC123 "$t/.git/rebase-apply" "$t/.git/series-apply" 2>/dev/null || true)
	[ -z "$left" ] || fail "leftovers after the lock was taken over: $left"
	assert_eq "$(git -C "$t" symbolic-ref --short HEAD)" base "the branch after the recovery"
	# A git am session that the series did not start stays.
	git -C "$t" checkout -q --detach base
	! git -C "$t" -c user.name=T -c user.email=t@t.invalid am -q "$PWD"/p/*.patch >/dev/null 2>&1 || fail "the fixture's patch applied"
	printf 'pid 999999 start 1: series apply, since 00:00:00\n' >c/.series.owner
	expect_exit 0 out "${env[@]}" "$SERIES" base
	[ -d "$t/.git/rebase-apply" ] || fail "the recovery aborted a git am session that was not the series'"
	git -C "$t" am --abort
}
TESTS+=(test_killed_leftovers)
