# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of the build directories' owner (scripts/lib/stepbuild.sh)
# and of the runner bringing them to a step for the units that need
# them (CHECK_NEEDS=build).
# Each test runs in its own empty directory ($TEST_WORK) in a subshell.

# stepbuild_doubles: the start of a driver script that sources the build
# libraries of the repository $1 for an arch "x" whose directories are
# under ./build, with doubles for what needs a kernel: the configuration
# (arch_config_key, arch_config, and arch_reconfig, which logs the
# directory it ran for to ./reconfigs).
stepbuild_doubles() {
	cat <<'EOF'
set -euo pipefail
. "$1/scripts/lib/common.sh"
. "$1/scripts/lib/build.sh"
SERIES_TREE=$PWD/tree SERIES_STATE=$PWD/state SERIES_BUILD=$PWD/build ARCH_NAME=x ARCH_BUILD_DIR=$PWD/build/x
arch_config_key() { echo k; }
arch_config() { mkdir -p "$ARCH_BUILD_DIR" && echo k >"$ARCH_BUILD_DIR/.series-config-key"; }
arch_reconfig() { echo "reconfig ${ARCH_BUILD_DIR##*/}" >>"$PWD/reconfigs"; }
EOF
}

# stepbuild_fixture: a git tree ./tree with src/a.c (a warning) including
# inc/h.h, and drive.sh, which runs step_build on the checked-out tree
# of ./tree with the doubles of stepbuild_doubles and one of
# kbuild, which "compiles" every src/*.c whose object is missing or
# older than the source into build/x/src/*.o with a .cmd file naming
# its header, prints "warning: W" for a source line "WARN W" and stops
# with an error at a source with the line ERROR.
stepbuild_fixture() {
	git init -q tree
	mkdir -p tree/src tree/inc
	printf '#include "h.h"\nWARN one\n' >tree/src/a.c
	echo '/* h */' >tree/inc/h.h
	git -C tree add -A && git -C tree commit -q -m base
	git -C tree tag base
	{ stepbuild_doubles; cat <<'EOF'; } >drive.sh
kbuild() {
	local s o h
	: >"$1"
	for s in "$SERIES_TREE"/src/*.c; do
		o=$ARCH_BUILD_DIR/src/$(basename "$s" .c).o
		[ ! -f "$o" ] || [ "$s" -nt "$o" ] || continue
		if grep -qx ERROR "$s"; then
			echo "$s:1:1: error: broken" >>"$1"
			return 1
		fi
		mkdir -p "${o%/*}"
		echo obj >"$o"
		h=$(sed -n 's/^#include "\(.*\)"$/\1/p' "$s")
		h=${h:+$(cd "$SERIES_TREE" && find . -name "$h" | sed 's|^\./||' | head -n 1)}
		printf 'savedcmd_src/%s := mcache.py gcc -c -o src/%s src/%s\ndeps := %s\n' \
			"${o##*/}" "${o##*/}" "${s##*/}" "$SERIES_TREE/$h" >"${o%/*}/.$(basename "$o").cmd"
		# mcache's log line: the key of the source and its header's text.
		[ -z "${MCACHE_LOG:-}" ] || [ -n "${NO_KEY:-}" ] ||
			echo "miss $(cat "$s" ${h:+"$SERIES_TREE/$h"} | sha256sum | cut -c1-12) src/${o##*/}" >>"$MCACHE_LOG"
		sed -n "s|^WARN \(.*\)|$s:2:1: warning: \1 [-Wfake]|p" "$s" >>"$1"
		echo "compiled $(basename "$o")" >>"$PWD/compiled"
	done
	# The link: a thin vmlinux.a of the objects that the tree's file
	# "link" lists, if it has one.
	if [ -f "$SERIES_TREE/link" ]; then
		rm -f "$ARCH_BUILD_DIR/vmlinux.a"
		(cd "$ARCH_BUILD_DIR" && ar cDPrST vmlinux.a $(cat "$SERIES_TREE/link"))
	fi
}
[ -z "${BREAK_EXTRACT:-}" ] || warnings_extract() { return 1; }
git -C tree checkout -q --detach "$2"
rm -rf sb
rc=0
step_build "$PWD/sb" base || rc=$?
echo "rc=$rc why=$STEP_BUILD_WHY"
echo "status: $(cat sb/status)"
echo "set: $(cut -f2 "$(warnings_file "$(git -C tree rev-parse 'HEAD^{tree}')")" 2>/dev/null | tr '\n' ' ')"
echo "keys: $(tr '\n' ' ' <"$(keys_file "$(git -C tree rev-parse 'HEAD^{tree}')")" 2>/dev/null)"
EOF
}

# keyof FILE...: the key the fixture's kbuild logs for these texts.
keyof() { cat "$@" | sha256sum | cut -c1-12; }

# step_build: a complete build where no warning set exists, incremental
# builds that add what they emit to the parent's set, nothing to do at a
# tree already built, and, after a build that failed (or was stopped),
# the objects it wrote compiled again so that their warnings are not
# lost; the objects of a header that moved are rebuilt.
test_step_build() {
	stepbuild_fixture
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" base
	assert_contains out "rc=0"
	assert_contains out "status: complete build: no warning set of the tree or an ancestor"
	assert_contains out "set: one [-Wfake] "
	printf 'WARN two\n' >tree/src/b.c
	git -C tree add -A && git -C tree commit -q -m b
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "status: incremental build"
	assert_contains out "set: one [-Wfake] two [-Wfake] "
	assert_eq "$(tail -n 1 compiled)" "compiled b.o" "the incremental build"
	: >compiled
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "status: already built at this tree"
	[ ! -s compiled ] || fail "a tree already built was built again"
	# A build that fails after compiling c.o: its warning is not recorded
	# and the directory says a build is pending.
	printf 'WARN three\n' >tree/src/c.c
	printf 'ERROR\n' >tree/src/d.c
	git -C tree add -A && git -C tree commit -q -m cd
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "rc=1 why=build failed: $PWD/tree/src/d.c:1:1: error: broken"
	[ -e build/x/.series-building ] || fail "a failed build left no .series-building"
	assert_eq "$(cat build/x/.series-built-tree)" "$(git -C tree rev-parse 'HEAD~1^{tree}')" "the marker after a failed build"
	# Fixed: c.o, which the failed build wrote, is compiled again and its
	# warning is in the set.
	sleep 1
	printf 'WARN four\n' >tree/src/d.c
	git -C tree add -A && git -C tree commit -q -m d
	: >compiled
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "file(s) of a build that did not finish removed"
	assert_contains out "set: one [-Wfake] two [-Wfake] three [-Wfake] four [-Wfake] "
	assert_contains compiled "compiled c.o"
	[ ! -e build/x/.series-building ] || fail ".series-building left after a build that succeeded"
	# A header that moves: the object built with it is built again.
	mkdir tree/inc2
	git -C tree mv inc/h.h inc2/h.h
	git -C tree commit -q -m move
	: >compiled
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_eq "$(cat sb/rebuilt)" "1 object(s) built with a changed path will be rebuilt" "objects of the moved header"
	assert_eq "$(cat compiled)" "compiled a.o" "objects built again after the header moved"
	# A directory whose content is unknown (no marker): a complete build.
	rm build/x/.series-built-tree
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "status: complete build: what the directory held is unknown"
	# At this tree, but its warning set is gone (state cleared): a
	# build there would emit nothing, so it is a complete build too.
	rm state/x/k/warnings/"$(git -C tree rev-parse 'HEAD^{tree}')"
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "status: complete build: what the directory held is unknown"
	assert_contains out "set: one [-Wfake] two [-Wfake] three [-Wfake] four [-Wfake] "
	# The stack edited in place (rebase -i), its first patch built again
	# from a directory that holds the old stack: b.c, which the old
	# stack had too, is compiled although make would not, and its
	# warning is in the set.
	git -C tree checkout -q -b v2 base
	printf 'WARN two\n' >tree/src/b.c
	printf 'WARN six\n' >tree/src/g.c
	git -C tree add -A && git -C tree commit -q -m 'b and g'
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" v2
	assert_contains out "status: incremental build"
	assert_contains out "set: one [-Wfake] two [-Wfake] six [-Wfake] "
	git -C tree checkout -q master 2>/dev/null || git -C tree checkout -q main
	# The build log's warnings cannot be read: a failure, no set, no marker.
	echo 'WARN five' >tree/src/e.c && git -C tree add -A && git -C tree commit -q -m e
	BREAK_EXTRACT=1 expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "rc=1 why=the warnings of the build log could not be read"
	assert_eq "$(grep '^set:' out)" "set: " "the warning set of a build whose warnings were lost"
	[ -e build/x/.series-building ] || fail "no build pending after the warnings were lost"
}
TESTS+=(test_step_build)

# The key map of every tree a build brings the directory to: complete
# after a complete build, the old tree's map plus what a build compiled
# after an incremental one, "?" for an object compiled without a key,
# and, with STEP_BUILD_KEYS=1, a complete build where the directory's
# tree has no complete map.
test_step_build_keys() {
	stepbuild_fixture
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" base
	assert_contains out "keys: # complete src/a.o $(keyof tree/src/a.c tree/inc/h.h) "
	printf 'int b;\n' >tree/src/b.c
	git -C tree add -A && git -C tree commit -q -m b
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "status: incremental build"
	assert_contains out "keys: # complete src/a.o $(keyof tree/src/a.c tree/inc/h.h) src/b.o $(keyof tree/src/b.c) "
	# The header changes: a.o is compiled again, with its new key.
	echo '/* h2 */' >tree/inc/h.h
	git -C tree commit -q -am h2
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "keys: # complete src/a.o $(keyof tree/src/a.c tree/inc/h.h) src/b.o $(keyof tree/src/b.c) "
	# Objects that the launcher compiled without logging a key: "?",
	# also one whose key the old map had.
	printf 'int c;\n' >tree/src/c.c
	printf 'int b2;\n' >tree/src/b.c
	git -C tree add -A && git -C tree commit -q -m c
	NO_KEY=1 expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "src/b.o ? src/c.o ? "
	# What the link takes: an object that vmlinux.a no longer has stays
	# in the directory and the map, not linked.
	printf 'src/a.o\nsrc/b.o\n' >tree/link
	git -C tree add -A && git -C tree commit -q -m link
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "src/a.o $(keyof tree/src/a.c tree/inc/h.h) linked src/b.o ? linked src/c.o ? "
	printf 'src/a.o\n' >tree/link
	git -C tree commit -q -am 'link a only'
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "src/a.o $(keyof tree/src/a.c tree/inc/h.h) linked src/b.o ? src/c.o ? "
	# The directory's tree has no map (the state was cleared): the next
	# map is partial; with STEP_BUILD_KEYS=1 the build is complete.
	rm state/x/k/keys/"$(git -C tree rev-parse 'HEAD^{tree}')" tree/link
	printf 'int d;\n' >tree/src/d.c
	git -C tree add -A && git -C tree commit -q -m d
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "keys: # partial src/d.o $(keyof tree/src/d.c) "
	printf 'int e;\n' >tree/src/e.c
	git -C tree add -A && git -C tree commit -q -m e
	STEP_BUILD_KEYS=1 expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "status: complete build: no complete key map of the directory's tree"
	assert_contains out "keys: # complete src/a.o $(keyof tree/src/a.c tree/inc/h.h) src/b.o $(keyof tree/src/b.c) src/c.o $(keyof tree/src/c.c) src/d.o $(keyof tree/src/d.c) src/e.o $(keyof tree/src/e.c) "
	# A linker script with a .cmd is keyed on its content.
	printf 'SECTIONS { }\n' >build/x/x.lds
	echo 'savedcmd_x.lds := mcache.py gcc -E -P -o x.lds x.lds.S' >build/x/.x.lds.cmd
	printf 'int f;\n' >tree/src/f.c
	git -C tree add -A && git -C tree commit -q -m f
	expect_exit 0 out bash drive.sh "$SERIES_ROOT" HEAD
	assert_contains out "src/f.o $(keyof tree/src/f.c) x.lds lds-$(sha256sum <build/x/x.lds | cut -d' ' -f1) "
}
TESTS+=(test_step_build_keys)

# step_prepare: the prepare directory, not the build directory, comes to
# the step: configured (the fragments merged again after a Kconfig
# change), init/main.o compiled afresh each time; nothing to do at a
# tree already prepared.
test_step_prepare() {
	stepbuild_fixture
	{ stepbuild_doubles; cat <<'EOF2'; } >prep.sh
kmake() { mkdir -p "$ARCH_BUILD_DIR/init" && echo "main.o in ${ARCH_BUILD_DIR##*/}" >>"$PWD/made" && : >"$ARCH_BUILD_DIR/init/main.o"; }
git -C tree checkout -q --detach "$2"
rc=0
step_prepare "$PWD/sp" || rc=$?
echo "rc=$rc why=$STEP_BUILD_WHY status: $(cat sp/status) holds: $(step_prepare_holds && echo yes || echo no)"
EOF2
	expect_exit 0 out bash prep.sh "$SERIES_ROOT" base
	assert_contains out "rc=0 why= status: prepared holds: yes"
	assert_eq "$(cat made)" "main.o in x-prepare" "what was made, where"
	assert_eq "$(cat reconfigs)" "reconfig x-prepare" "a first preparation merges the fragments"
	[ ! -e build/x ] || fail "step_prepare touched the build directory"
	expect_exit 0 out bash prep.sh "$SERIES_ROOT" base
	assert_contains out "status: already prepared at this tree"
	assert_eq "$(wc -l <made)" 1 "makes at a tree already prepared"
	echo 'config X' >tree/Kconfig && git -C tree add Kconfig && git -C tree commit -q -m kconfig
	expect_exit 0 out bash prep.sh "$SERIES_ROOT" HEAD
	assert_contains out "status: prepared holds: yes"
	assert_eq "$(wc -l <reconfigs)" 2 "fragments merged again after a Kconfig change"
	echo '/* b */' >tree/inc/b.h && git -C tree add inc && git -C tree commit -q -m b
	expect_exit 0 out bash prep.sh "$SERIES_ROOT" HEAD
	assert_eq "$(wc -l <reconfigs)" 2 "fragments merged again without a Kconfig change"
	assert_eq "$(wc -l <made)" 3 "init/main.o made afresh at each step"
}
TESTS+=(test_step_prepare)

# Only stepbuild.sh writes the markers of a build directory, and no unit
# runs another unit or builds the shared build directory itself: a unit
# that reads it says CHECK_NEEDS=build.
test_build_owner() {
	local f
	grep -rlE '\.series-buil(t-tree|ding)' "$SERIES_ROOT/scripts/lib" "$SERIES_ROOT/scripts/checks" \
		"$SERIES_ROOT/scripts/cmd" >files
	assert_eq "$(sed "s|^$SERIES_ROOT/||" files | sort | tr '\n' ' ')" \
		"scripts/lib/stepbuild.sh " "files that name the build markers"
	if grep -lE 'scripts/checks/[a-z0-9-]+/run' "$SERIES_ROOT"/scripts/checks/*/run >files; then
		fail "units that run another unit: $(tr '\n' ' ' <files)"
	fi
	for f in "$SERIES_ROOT"/scripts/checks/*/run; do
		grep -qE '^\s*(if ! )?kbuild "|kmake[^|]* init/main\.o' "$f" || continue
		grep -qE '^ARCH_BUILD_DIR=|ARCH_BUILD_DIR=\$dir' "$f" ||
			fail "${f#"$SERIES_ROOT"/} builds in the arch's shared build directory"
	done
}
TESTS+=(test_build_owner)

# needs_fixture: a copy of the tooling in ./root whose needs-build is a
# double (it logs its arguments to ./needs.log, prints NEEDS_SUMMARY and
# exits NEEDS_RC), a unit "fake" that logs to ./unit.log, and drive.sh
# that runs it through the runner on arch $2 (empty: not per arch).
needs_fixture() {
	mkdir -p root checks/fake results
	cp -r "$SERIES_ROOT/scripts" "$SERIES_ROOT/configs" root/
	cat >root/scripts/lib/needs-build <<'EOF'
#!/bin/sh
out=$1
shift
echo "$*" >>"$LOGS/needs.log"
mkdir -p "$out" && echo "$NEEDS_SUMMARY" >"$out/summary"
exit "$NEEDS_RC"
EOF
	chmod +x root/scripts/lib/needs-build
	printf '#!/bin/sh\necho ran >>"$LOGS/unit.log"\necho ok >"$SERIES_CHECK_RESULT_DIR/summary"\n' >checks/fake/run
	chmod +x checks/fake/run
	git init -q tree && git -C tree commit -q --allow-empty -m base
	{
		runner_preamble
		printf '%s\n' 'STEP_BASE=B STEP_ARCHES=(arm64 s390)' 'check_load fake' 'run_check 1 "$2" fake' \
			'echo "status=$LAST_STATUS summary=$(cat "$SERIES_RESULTS/0001/${2:-all}/fake/summary")"'
	} >drive.sh
	export LOGS=$PWD NEEDS_RC=0 NEEDS_SUMMARY='built'
}

# The runner brings the build directories a unit needs to the step
# before it runs (CHECK_NEEDS=build): its own arch, or the arches that
# CHECK_BUILD_ARCHES names; a failed build is the unit's failure (the
# unit does not run), a missing cross compiler a skip that is not kept.
test_runner_needs_build() {
	needs_fixture
	manifest() { printf 'CHECK_DESCRIPTION=t\nCHECK_SCOPE=patch\nCHECK_ORDER=1\nCHECK_REPRO=x\n%s' "$1" >checks/fake/manifest; }
	manifest $'CHECK_PER_ARCH=1\nCHECK_NEEDS=build\n'
	expect_exit 0 out bash drive.sh "$PWD/root" s390
	assert_contains out "status=pass summary=ok"
	assert_eq "$(cat needs.log)" "B build s390" "what the runner built for a per-arch unit"
	assert_eq "$(cat unit.log)" ran "unit runs"
	assert_eq "$(cat results/0001/s390/fake/needs)" "the runner built: built" "the needs record"
	for spec in 'affected:arm64 s390' 'coexist.conf:COEXIST_ARCH:s390' 'boot/*.conf:arm64' \
		'headers.conf:HDR_ARCHES affected:arm64 s390'; do
		: >needs.log
		rm -rf verdicts
		manifest "CHECK_PER_ARCH=0"$'\n'"CHECK_NEEDS=build"$'\n'"CHECK_BUILD_ARCHES=${spec%:*}"$'\n'
		expect_exit 0 out bash drive.sh "$PWD/root" ''
		assert_eq "$(cat needs.log)" "B build ${spec##*:}" "arches built for CHECK_BUILD_ARCHES=${spec%:*}"
	done
	# A unit that compiles with kbuild's flags only: the prepare directory.
	: >needs.log
	rm -rf verdicts
	manifest $'CHECK_PER_ARCH=0\nCHECK_NEEDS=prepare\nCHECK_BUILD_ARCHES=headers.conf:HDR_ARCHES\n'
	expect_exit 0 out bash drive.sh "$PWD/root" ''
	assert_eq "$(cat needs.log)" "B prepare arm64 s390" "arches prepared"
	# The build fails: the unit does not run, fails with the reason, and
	# no verdict is kept.
	: >unit.log
	rm -rf verdicts
	NEEDS_RC=1 NEEDS_SUMMARY='the s390 build this check needs failed at this step: x' \
		expect_exit 0 out bash drive.sh "$PWD/root" s390
	assert_contains out "status=fail summary=the s390 build this check needs failed at this step: x"
	[ ! -s unit.log ] || fail "the unit ran although its build failed"
	[ ! -d verdicts ] || [ -z "$(find verdicts -name status)" ] || fail "a verdict was kept for a failed build"
	# A missing cross compiler: a skip naming the package, never kept.
	NEEDS_RC=4 NEEDS_SUMMARY='SKIP: s390x-linux-gnu-gcc missing (Debian package gcc-s390x-linux-gnu)' \
		expect_exit 0 out bash drive.sh "$PWD/root" s390
	assert_contains out "status=skip summary=SKIP: s390x-linux-gnu-gcc missing (Debian package gcc-s390x-linux-gnu)"
	[ ! -d verdicts ] || [ -z "$(find verdicts -name status)" ] || fail "a skip for a missing compiler was kept"
	# Manifests the runner refuses.
	local bodies=('CHECK_NEEDS=bild' 'CHECK_NEEDS=build'
		$'CHECK_NEEDS=build\nCHECK_BUILD_ARCHES=nope.conf:X'
		$'CHECK_NEEDS=build\nCHECK_BUILD_ARCHES=sometimes'
		$'CHECK_NEEDS=build\nCHECK_BUILD_ARCHES=coexist.conf:COEXIST_SYMBOLS')
	local says=("CHECK_NEEDS is 'bild'; the runner knows 'build', 'prepare' and 'keys'" 'CHECK_NEEDS=build needs CHECK_BUILD_ARCHES'
		'CHECK_BUILD_ARCHES names configs/nope.conf, which does not exist'
		"CHECK_BUILD_ARCHES: 'sometimes' is none of affected"
		"CHECK_BUILD_ARCHES gives 'KVM', which has no configs/arch/KVM.conf")
	local i
	for i in "${!bodies[@]}"; do
		manifest "CHECK_PER_ARCH=0"$'\n'"${bodies[i]}"$'\n'
		expect_exit 1 out bash drive.sh "$PWD/root" ''
		assert_contains out "${says[i]}"
	done
}
TESTS+=(test_runner_needs_build)

# needs-build keys: the key maps of the parent's tree and the step's; a
# tree whose map is kept is not built, the parent is checked out for
# one that is not, and the step is checked out again, also when a build
# fails.  A unit that needs keys is not per arch.
test_needs_build_keys() {
	local repo=$SERIES_ROOT
	mkdir -p root/scripts/lib
	cp -r "$SERIES_ROOT/configs" root/
	cp "$SERIES_ROOT/scripts/lib/common.sh" "$SERIES_ROOT/scripts/lib/needs-build" root/scripts/lib/
	cat >root/scripts/lib/build.sh <<'EOF'
arch_load() { ARCH_NAME=$1 ARCH_CROSS_COMPILE='' ARCH_TOOLCHAIN_PACKAGE=gcc ARCH_EXTRA_TOOLS=''; }
arch_no_toolchain() { return 1; }
step_build_keys_complete() { grep -qx "$ARCH_NAME $1" "$LOGS/maps" 2>/dev/null; }
step_build() {
	local at
	at=$(tgit log -1 --format=%s)
	echo "$ARCH_NAME $at keys=${STEP_BUILD_KEYS:-}" >>"$LOGS/built"
	[ "$at" != "${FAIL_AT:-}" ] || { STEP_BUILD_WHY=broken; return 1; }
	mkdir -p "$1" && echo built >"$1/status"
}
EOF
	git init -q tree
	for c in base p1 p2; do echo "$c" >tree/f && git -C tree add f && git -C tree commit -q -m "$c"; done
	git -C tree checkout -q --detach HEAD
	export LOGS=$PWD SERIES_ROOT=$PWD/root SERIES_TREE=$PWD/tree SERIES_CHECK_PARENT
	SERIES_CHECK_PARENT=$(git -C tree rev-parse HEAD~1)
	expect_exit 0 out root/scripts/lib/needs-build "$PWD/nb" B keys arm64 s390
	assert_eq "$(tr '\n' ';' <built)" "arm64 p1 keys=1;s390 p1 keys=1;arm64 p2 keys=1;s390 p2 keys=1;" "builds without maps"
	assert_eq "$(git -C tree log -1 --format=%s)" p2 "the step checked out again"
	assert_contains nb/summary "parent-arm64: built"
	rm built
	echo "arm64 $(git -C tree rev-parse 'HEAD~1^{tree}')" >maps
	echo "s390 $(git -C tree rev-parse 'HEAD~1^{tree}')" >>maps
	echo "arm64 $(git -C tree rev-parse 'HEAD^{tree}')" >>maps
	expect_exit 0 out root/scripts/lib/needs-build "$PWD/nb" B keys arm64 s390
	assert_eq "$(cat built)" "s390 p2 keys=1" "builds with the parent's maps and arm64's at the step"
	assert_contains nb/summary "parent-arm64: key map kept; parent-s390: key map kept; arm64: key map kept; s390: built"
	rm built maps
	FAIL_AT=p1 expect_exit 1 out root/scripts/lib/needs-build "$PWD/nb" B keys arm64 s390
	assert_eq "$(git -C tree log -1 --format=%s)" p2 "the step checked out again after a failed build"
	assert_contains nb/summary "the arm64 keys this check needs failed at the parent: broken"
	mkdir -p checks/fake
	printf 'CHECK_DESCRIPTION=t\nCHECK_SCOPE=patch\nCHECK_ORDER=1\nCHECK_PER_ARCH=1\nCHECK_NEEDS=keys\n' >checks/fake/manifest
	expect_exit 1 out env SERIES_ROOT="$repo" SERIES_CHECKS="$PWD/checks" \
		bash -c '. "$SERIES_ROOT/scripts/lib/common.sh"; . "$SERIES_ROOT/scripts/lib/units.sh"; check_load fake'
	assert_contains out "check fake: CHECK_NEEDS=keys is for a unit that is not per arch (the parent is checked out)"
}
TESTS+=(test_needs_build_keys)

# An interrupt while the runner builds for a unit (its own process group,
# make and the compilers included) is no verdict: the build is stopped,
# the unit does not run, nothing is kept, the walk exits 130.
test_runner_needs_build_interrupt() {
	local tag=series-needs-interrupt-$$ pid rc
	needs_fixture
	printf '#!/bin/sh\nsh -c "sleep 300; : %s" &\nwait\n' "$tag" >root/scripts/lib/needs-build
	printf 'CHECK_DESCRIPTION=t\nCHECK_SCOPE=patch\nCHECK_ORDER=1\nCHECK_REPRO=x\nCHECK_PER_ARCH=1\nCHECK_NEEDS=build\n' \
		>checks/fake/manifest
	set -m
	bash drive.sh "$PWD/root" s390 >out 2>&1 &
	pid=$!
	set +m
	for _ in $(seq 50); do pgrep -f "$tag" >/dev/null && break; sleep 0.1; done
	pgrep -f "$tag" >/dev/null || fail "the runner's build did not start"
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_eq "$rc" 130 "exit status after SIGTERM"
	assert_contains out "interrupted: the walk stopped"
	assert_eq "$(cat results/0001/s390/fake/status)" interrupted "the result"
	[ ! -e unit.log ] || fail "the unit ran after its build was interrupted"
	[ -z "$(find . -path './verdicts/*' -name status)" ] || fail "a verdict was kept"
	sleep 0.2
	if pgrep -f "$tag" >/dev/null; then
		pkill -f "$tag"
		fail "the build's child outlived SIGTERM"
	fi
}
TESTS+=(test_runner_needs_build_interrupt)
