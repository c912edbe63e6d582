# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of the bisect runner: the check-unit contract, the result
# cache and its records, interrupts, reproducers, arches in parallel.
# Each test runs in its own empty directory ($TEST_WORK) in a subshell.

# "bisect --to" takes a patch number or a patch file, as the reproducers
# of the check units name it ({patch}: the patch's path in the results).
test_bisect_to_patch() {
	local lib=$SERIES_ROOT/scripts/lib
	to() {
		bash -c ". '$lib/common.sh'; . '$SERIES_ROOT/scripts/cmd/bisect.sh'; SERIES_FILE=series; PATCHES=(0001-a.patch 0002-b.patch); step_number \"\$1\"" _ "$1"
	}
	expect_exit 0 out to 2
	assert_eq "$(cat out)" 2 "--to 2"
	expect_exit 0 out to /r/results/0002/0002-b.patch
	assert_eq "$(cat out)" 2 "--to a patch path"
	expect_exit 0 out to 0001-a.patch
	assert_eq "$(cat out)" 1 "--to a patch name"
	expect_exit 2 out to 0003-c.patch
	assert_contains out "--to 0003-c.patch: no such patch in series"
}
TESTS+=(test_bisect_to_patch)

# A configuration file that one check unit alone reads (CHECK_CONFIGS) is
# part of that unit's verdicts, not of every unit's.
test_verdict_own_configs() {
	(
		. "$SERIES_ROOT/scripts/lib/common.sh"
		. "$SERIES_ROOT/scripts/lib/build.sh"
		. "$SERIES_ROOT/scripts/lib/runner.sh"
		mkdir -p cfg/arch chk/a chk/b
		printf 'X=1\n' >cfg/shared.conf
		printf 'Y=1\n' >cfg/own.conf
		printf 'CHECK_SCOPE=patch\nCHECK_ORDER=1\nCHECK_CONFIGS=own.conf\n' >chk/a/manifest
		printf 'CHECK_SCOPE=patch\nCHECK_ORDER=2\n' >chk/b/manifest
		SERIES_CONFIGS=$PWD/cfg SERIES_CHECKS=$PWD/chk
		keys() {
			VERDICT_UNIT_HASH=() VERDICT_SALT=$(verdict_salt) VERDICT_STEP=HEAD VERDICT_STEP_HASH=x
			printf '%s %s %s\n' "$VERDICT_SALT" "$(verdict_key s390 a)" "$(verdict_key s390 b)"
		}
		read -r salt1 a1 b1 < <(keys)
		printf 'Y=2\n' >cfg/own.conf
		read -r salt2 a2 b2 < <(keys)
		assert_eq "$salt2" "$salt1" "the salt after a unit's own configuration changed"
		assert_eq "$b2" "$b1" "another unit's key after a unit's own configuration changed"
		[ "$a2" != "$a1" ] || fail "the owning unit's key did not change with its configuration"
		printf 'X=2\n' >cfg/shared.conf
		read -r salt3 a3 b3 < <(keys)
		[ "$salt3" != "$salt2" ] && [ "$a3" != "$a2" ] && [ "$b3" != "$b2" ] ||
			fail "a shared configuration change did not change every key"
		rm chk/a/manifest
		printf 'CHECK_SCOPE=patch\nCHECK_ORDER=1\nCHECK_CONFIGS=missing.conf\n' >chk/a/manifest
		expect_exit 1 out bash -c ". '$SERIES_ROOT/scripts/lib/common.sh'; . '$SERIES_ROOT/scripts/lib/units.sh'; SERIES_CHECKS='$PWD/chk' SERIES_CONFIGS='$PWD/cfg'; check_load a"
		assert_contains out "check a: CHECK_CONFIGS names configs/missing.conf, which does not exist"
	)
}
TESTS+=(test_verdict_own_configs)

# A unit that reads the series as mailed (CHECK_INPUTS=series) has the
# series file, its patches and the cover letter in its key; other units
# do not.  Any other input is refused.
test_verdict_series_inputs() {
	local REAL_ROOT=$SERIES_ROOT
	(
		. "$SERIES_ROOT/scripts/lib/common.sh"
		. "$SERIES_ROOT/scripts/lib/build.sh"
		. "$SERIES_ROOT/scripts/lib/runner.sh"
		mkdir -p cfg/arch chk/a chk/b s/patches
		printf 'CHECK_SCOPE=patch\nCHECK_ORDER=1\nCHECK_INPUTS=series\n' >chk/a/manifest
		printf 'CHECK_SCOPE=patch\nCHECK_ORDER=2\n' >chk/b/manifest
		printf '0001-a.patch\n' >s/series
		echo one >s/patches/0001-a.patch
		echo cover >s/patches/0000-cover-letter.patch
		SERIES_CONFIGS=$PWD/cfg SERIES_CHECKS=$PWD/chk
		SERIES_FILE=$PWD/s/series SERIES_PATCHES=$PWD/s/patches
		. "$SERIES_ROOT/scripts/lib/tree.sh"
		PATCHES=(0001-a.patch)
		VERDICT_SALT=$(verdict_salt)
		keys() {
			VERDICT_UNIT_HASH=() VERDICT_STEP=HEAD VERDICT_STEP_HASH=x
			printf '%s %s\n' "$(verdict_key '' a)" "$(verdict_key '' b)"
		}
		read -r a1 b1 < <(keys)
		echo 'other cover' >s/patches/0000-cover-letter.patch
		read -r a2 b2 < <(keys)
		[ "$a2" != "$a1" ] || fail "the key of a unit reading the series did not change with the cover letter"
		assert_eq "$b2" "$b1" "another unit's key after the cover letter changed"
		echo two >s/patches/0001-a.patch
		read -r a3 b3 < <(keys)
		[ "$a3" != "$a2" ] || fail "the key did not change with a patch's message"
		printf '# a comment\n0001-a.patch\n' >s/series
		read -r a4 b4 < <(keys)
		[ "$a4" != "$a3" ] || fail "the key did not change with the series file"
		assert_eq "$b4" "$b1" "another unit's key after the series changed"
		# A file of the repository: its content is in the key.
		printf 'CHECK_SCOPE=patch\nCHECK_ORDER=1\nCHECK_INPUTS=scripts/lib/t-input.txt\n' >chk/a/manifest
		SERIES_ROOT=$PWD/root
		mkdir -p root/scripts/lib && echo one >root/scripts/lib/t-input.txt
		read -r a5 b5 < <(keys)
		echo two >root/scripts/lib/t-input.txt
		read -r a6 b6 < <(keys)
		[ "$a6" != "$a5" ] || fail "the key did not change with an input file of the repository"
		assert_eq "$b6" "$b5" "another unit's key after an input file changed"
		for bad in tree ../x /etc/passwd scripts/lib/missing; do
			printf 'CHECK_SCOPE=patch\nCHECK_ORDER=1\nCHECK_INPUTS=%s\n' "$bad" >chk/a/manifest
			expect_exit 1 out bash -c '. "$1/scripts/lib/common.sh"; . "$1/scripts/lib/units.sh"; SERIES_ROOT=$2 SERIES_CHECKS=$3 SERIES_CONFIGS=$4; check_load a' \
				- "$REAL_ROOT" "$PWD/root" "$PWD/chk" "$PWD/cfg"
			assert_contains out "check a: CHECK_INPUTS names '$bad', which is neither 'series' nor a file of the repository"
		done
	)
}
TESTS+=(test_verdict_series_inputs)

# runner_preamble: the start of a driver script that calls the bisect
# runner's functions on the check units in ./checks, the git tree ./tree
# and the result tree ./results; its $1 is the repository.
runner_preamble() {
	cat <<'EOF'
set -euo pipefail
. "$1/scripts/lib/common.sh"
. "$1/scripts/lib/build.sh"
. "$1/scripts/lib/runner.sh"
SERIES_CHECKS=$PWD/checks SERIES_RESULTS=$PWD/results SERIES_TREE=$PWD/tree NSTEPS=1
SERIES_VERDICTS=$PWD/verdicts SERIES_BUILD=$PWD/build
STEP_PARENT='' STEP_PATCH='' STEP_CHANGES='' STEP_SUBJECT=t STEP_BASE=''
VERDICT_SALT=$(verdict_salt)
EOF
}

test_check_units() {
	local d name
	for d in "$SERIES_ROOT"/scripts/checks/*/; do
		name=$(basename "$d")
		[ -x "$d/run" ] || fail "check $name has no executable run"
		expect_exit 0 out bash -c '. "$1/scripts/lib/common.sh"; conf_load "$2" CHECK_' _ "$SERIES_ROOT" "$d/manifest"
		for k in CHECK_DESCRIPTION CHECK_SCOPE CHECK_PER_ARCH CHECK_ORDER CHECK_REPRO; do
			grep -q "^$k=" "$d/manifest" || fail "check $name: manifest has no $k"
		done
	done
	# The runner maps exit codes to verdicts and enforces the summary.
	mkdir -p checks/fake results
	printf 'CHECK_DESCRIPTION=t\nCHECK_SCOPE=patch\nCHECK_PER_ARCH=0\nCHECK_ORDER=1\nCHECK_TOOLS=no-such-tool-xyz:no-such-package\nCHECK_REPRO=x\n' >checks/fake/manifest
	printf '#!/bin/sh\necho s >"$SERIES_CHECK_RESULT_DIR/summary"\nexit 0\n' >checks/fake/run
	chmod +x checks/fake/run
	git init -q tree && git -C tree commit -q --allow-empty -m base
	{ runner_preamble; cat <<'EOF'; } >drive.sh
SERIES_NO_INSTALL=1
check_load fake
run_check 1 "" fake
echo "status=$LAST_STATUS"
EOF
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	assert_contains out "status=skip"
	assert_contains results/0001/all/fake/summary "SKIP: missing tool: no-such-tool-xyz (Debian package no-such-package)"
	sed -i 's/^CHECK_TOOLS=.*/CHECK_TOOLS=sh:dash/' checks/fake/manifest
	for rc in 0:pass 250:warn 4:skip 1:fail 3:fail; do
		sed -i "s/^exit .*/exit ${rc%%:*}/" checks/fake/run
		expect_exit 0 out bash drive.sh "$SERIES_ROOT"
		assert_contains out "status=${rc#*:}"
	done
	printf '#!/bin/sh\nexit 0\n' >checks/fake/run
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	assert_contains out "status=fail"
	assert_contains results/0001/all/fake/summary "check wrote no summary"

	# The result cache: a verdict is reused while its tree, its patch, the
	# check and the tooling are the same; a failure is never reused.
	export RUNS=$PWD/runs
	printf '#!/bin/sh\necho run >>"$RUNS"\necho s >"$SERIES_CHECK_RESULT_DIR/summary"\nexit 0\n' >checks/fake/run
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	assert_contains out "pass (cached)"
	assert_eq "$(wc -l <runs)" 1 "runs of an unchanged check"
	[ -e results/0001/all/fake/cached ] || fail "a reused verdict is not marked cached"
	git -C tree commit -q --allow-empty -m next
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	assert_eq "$(wc -l <runs)" 1 "runs after a commit that keeps the tree"
	echo x >tree/f && git -C tree add f && git -C tree commit -q -m change
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	assert_eq "$(wc -l <runs)" 2 "runs after the tree changed"
	expect_exit 0 out env SERIES_NO_CACHE=1 bash drive.sh "$SERIES_ROOT"
	assert_eq "$(wc -l <runs)" 3 "runs with SERIES_NO_CACHE=1"
	echo '# changed' >>checks/fake/manifest
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	assert_eq "$(wc -l <runs)" 4 "runs after the check changed"
	sed -i 's/^exit 0$/exit 1/' checks/fake/run
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	assert_contains out "status=fail"
	assert_eq "$(wc -l <runs)" 6 "runs of a failing check"
}
TESTS+=(test_check_units)

# fake_unit: a check unit "fake" in checks/ (run: stdin of this function),
# a one-commit tree, and drive.sh, which runs the unit through the runner.
fake_unit() {
	mkdir -p checks/fake results
	printf 'CHECK_DESCRIPTION=t\nCHECK_SCOPE=patch\nCHECK_PER_ARCH=0\nCHECK_ORDER=1\nCHECK_TOOLS=sh:dash\nCHECK_REPRO=x\n' >checks/fake/manifest
	cat >checks/fake/run
	chmod +x checks/fake/run
	[ -d tree ] || { git init -q tree && git -C tree commit -q --allow-empty -m base; }
	{
		runner_preamble
		printf '%s\n' 'check_load fake' 'run_check 1 "" fake' 'echo "status=$LAST_STATUS"'
	} >drive.sh
}

# A kept verdict is a record the runner checks before it trusts it; a
# unit's skip for a missing tool is never kept.
test_verdict_records() {
	export RUNS=$PWD/runs
	printf '#!/bin/sh\necho run >>"$RUNS"\necho s >"$SERIES_CHECK_RESULT_DIR/summary"\nexit 0\n' | fake_unit
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	local v n=1 bad
	v=$(find verdicts -mindepth 2 -maxdepth 2 -type d)
	[ -n "$v" ] && [ -s "$v/status" ] || fail "no verdict kept"
	for bad in 'rc:garbage' 'rc:' 'status:' 'status:fail' 'status:passed' 'summary:' 'rc:4'; do
		expect_exit 0 out bash drive.sh "$SERIES_ROOT"
		assert_contains out "pass (cached)"
		printf '%s' "${bad#*:}" >"$v/${bad%%:*}"
		expect_exit 0 out bash drive.sh "$SERIES_ROOT"
		n=$((n + 1))
		assert_contains out "is not valid"
		assert_contains out "status=pass"
		assert_eq "$(wc -l <runs)" "$n" "runs after a kept verdict with ${bad%%:*} '${bad#*:}'"
	done
	rm "$v/duration"
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	assert_contains out "is not valid (no duration)"
	# No exit status at all: recomputed, not an abort of the walk.
	rm "$v/rc"
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	assert_contains out "is not valid (exit status 'missing' with status pass)"
	assert_contains out "status=pass"
	# A record kept under another key (copied or renamed): not this one's.
	echo 0123456789012345678901234567890123456789 >"$v/key"
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	assert_contains out "is not valid (not kept under its key)"
	assert_contains out "status=pass"
	# skipping_twice SUMMARY: a unit that skips with SUMMARY, run twice.
	skipping_twice() {
		printf '#!/bin/sh\necho run >>"$RUNS"\necho "%s" >"$SERIES_CHECK_RESULT_DIR/summary"\nexit 4\n' "$1" | fake_unit
		: >runs
		expect_exit 0 out bash drive.sh "$SERIES_ROOT"
		expect_exit 0 out bash drive.sh "$SERIES_ROOT"
		assert_contains out "status=skip"
	}
	# A unit that skips because its tool is missing: never kept.
	skipping_twice "SKIP: qemu-system-x missing (Debian package qemu-system-y)"
	assert_eq "$(wc -l <runs)" 2 "runs of a unit that skips for a missing tool"
	# Other skips are verdicts, kept and reused.
	skipping_twice "SKIP: no header at this step"
	assert_contains out "skip (cached)"
	assert_eq "$(wc -l <runs)" 1 "runs of a unit that skips for its step"
}
TESTS+=(test_verdict_records)

# The reproducer of a failure judges the same stack: a series file or a
# branch other than the defaults is named, quoted for the shell.
test_repro_command() {
	printf '#!/bin/sh\nexit 0\n' | fake_unit
	sed -i 's/^CHECK_REPRO=.*/CHECK_REPRO=scripts\/series bisect --check fake --to {patch}/' checks/fake/manifest
	{
		runner_preamble
		printf '%s\n' '. "$1/scripts/cmd/bisect.sh"' \
			'SERIES_BRANCH=sae-series SERIES_FILE=$SERIES_ROOT/series' \
			'repro_command fake "" c1 /r/0002-b.patch sae-series' \
			'SERIES_FILE="/w/my series"' \
			'repro_command fake "" c1 /r/0002-b.patch "odd \$(name)"'
	} >repro.sh
	expect_exit 0 out bash repro.sh "$SERIES_ROOT"
	assert_eq "$(sed -n 1p out)" "scripts/series walk --check fake --to /r/0002-b.patch" "default stack"
	assert_eq "$(sed -n 2p out)" 'SERIES_FILE=/w/my\ series scripts/series walk --branch odd\ \$\(name\) --check fake --to /r/0002-b.patch' "another stack"
}
TESTS+=(test_repro_command)

# An interrupt is not a verdict: the running check's processes are
# stopped, nothing is kept, the walk exits 130 and says so.
test_interrupt() {
	local tag=series-interrupt-$$ sig pid rc sigs=(TERM INT)
	# A check whose child outlives a plain kill of the check's shell.
	printf '#!/bin/sh\nsh -c "sleep 300; : %s" &\nwait\necho s >"$SERIES_CHECK_RESULT_DIR/summary"\nexit 1\n' "$tag" | fake_unit
	# Started with SIGINT ignored, no shell below can trap it: SIGTERM
	# alone is tested, and the test is a SKIP, not a pass.
	! sig_ignored INT || sigs=(TERM)
	for sig in "${sigs[@]}"; do
		rm -rf results verdicts
		# With job control, as from a terminal: a background job of a
		# script would start with SIGINT ignored.
		set -m
		bash drive.sh "$SERIES_ROOT" >out 2>&1 &
		pid=$!
		set +m
		for _ in $(seq 50); do pgrep -f "$tag" >/dev/null && break; sleep 0.1; done
		pgrep -f "$tag" >/dev/null || fail "the check did not start"
		kill -"$sig" "$pid"
		rc=0
		wait "$pid" || rc=$?
		assert_eq "$rc" 130 "exit status after SIG$sig"
		assert_contains out "interrupted: the walk stopped"
		assert_not_contains out "status=fail"
		[ -z "$(find . -path './verdicts/*' -name status)" ] || fail "a verdict was kept after SIG$sig"
		assert_eq "$(cat results/0001/all/fake/status)" interrupted "the result after SIG$sig"
		sleep 0.2
		if pgrep -f "$tag" >/dev/null; then
			pkill -f "$tag"
			fail "the check's child outlived SIG$sig"
		fi
	done
	[ ${#sigs[@]} = 2 ] || skip "SIGINT is ignored where this test runs: only SIGTERM tested"
}
TESTS+=(test_interrupt)

# Per-arch checks of a step run up to SERIES_PARALLEL at once, sharing
# SERIES_JOBS, and are judged in arch order afterwards.
test_parallel_arches() {
	mkdir -p checks/slow running
	printf 'CHECK_DESCRIPTION=t\nCHECK_SCOPE=patch\nCHECK_PER_ARCH=1\nCHECK_ORDER=1\nCHECK_TOOLS=sh:dash\nCHECK_REPRO=x\n' >checks/slow/manifest
	cat >checks/slow/run <<'EOF'
#!/bin/sh
touch "$RUNNING/$SERIES_CHECK_ARCH"
echo "$(ls "$RUNNING" | wc -l) $SERIES_JOBS" >>"$RUNNING.log"
sleep 1
rm "$RUNNING/$SERIES_CHECK_ARCH"
echo "done $SERIES_CHECK_ARCH" >"$SERIES_CHECK_RESULT_DIR/summary"
[ "$SERIES_CHECK_ARCH" != s390 ] || exit 1
EOF
	chmod +x checks/slow/run
	git init -q tree && git -C tree commit -q --allow-empty -m base
	{ runner_preamble; cat <<'EOF'; } >drive.sh
SERIES_NO_CACHE=1 SERIES_JOBS=4
export RUNNING=$PWD/running
after() { echo "after $2 $LAST_STATUS"; }
check_load slow
run_per_arch 1 slow after arm64 s390 x86_64 riscv64
EOF
	expect_exit 0 out env SERIES_PARALLEL=2 bash drive.sh "$SERIES_ROOT"
	cat out running.log
	# Judged in arch order, with the verdict each arch got.
	assert_eq "$(grep '^after' out | tr '\n' ' ')" "after arm64 pass after s390 fail after x86_64 pass after riscv64 pass " "verdicts"
	assert_eq "$(sort -n running.log | tail -n 1)" "2 2" "most checks at once, and the make jobs of each"
	assert_eq "$(wc -l <running.log)" 4 "checks run"
	rm running.log
	expect_exit 0 out env SERIES_PARALLEL=1 bash drive.sh "$SERIES_ROOT"
	assert_eq "$(sort -u running.log)" "1 4" "one at a time, with every make job"
	expect_exit 2 out env SERIES_PARALLEL=x bash drive.sh "$SERIES_ROOT"
	assert_contains out "SERIES_PARALLEL must be a number, not 'x'"
}
TESTS+=(test_parallel_arches)

# An arch without a Debian cross compiler (ARCH_TOOLCHAIN_PACKAGE=none)
# is "not built: no toolchain" (a skip, never kept, never a pass) unless
# a compiler is on PATH after all.
test_arch_without_toolchain() {
	mkdir -p checks/build bin
	printf 'CHECK_DESCRIPTION=t\nCHECK_SCOPE=patch\nCHECK_PER_ARCH=1\nCHECK_ORDER=1\nCHECK_TOOLS=sh:dash\nCHECK_REPRO=x\n' >checks/build/manifest
	printf '#!/bin/sh\necho "built $SERIES_CHECK_ARCH" >"$SERIES_CHECK_RESULT_DIR/summary"\n' >checks/build/run
	chmod +x checks/build/run
	cp -r "$SERIES_ROOT/configs" cfg
	printf 'ARCH_KBUILD=loongarch\nARCH_SRCARCH=loongarch\nARCH_CROSS_COMPILE=loongarch64-series-test-\nARCH_TOOLCHAIN_PACKAGE=none\nARCH_BASE_CONFIG=tinyconfig\nARCH_FRAGMENTS=common.config\n' >cfg/arch/loongarch64.conf
	git init -q tree && git -C tree commit -q --allow-empty -m base
	{ runner_preamble; cat <<'EOF'; } >drive.sh
SERIES_CONFIGS=$PWD/cfg
after() { echo "after $2 $LAST_STATUS: $(cat "$SERIES_RESULTS/0001/$2/build/summary")"; }
check_load build
run_per_arch 1 build after arm64 loongarch64
echo "kept: $(find "$SERIES_VERDICTS" -mindepth 2 -maxdepth 2 | wc -l)"
EOF
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	assert_contains out "after arm64 pass: built arm64"
	assert_contains out "after loongarch64 skip: not built: no toolchain (Debian has no loongarch64-series-test-gcc)"
	assert_contains out "kept: 1"
	# A compiler on PATH after all: the check runs.
	printf '#!/bin/sh\nexit 0\n' >bin/loongarch64-series-test-gcc && chmod +x bin/loongarch64-series-test-gcc
	expect_exit 0 out env PATH="$PWD/bin:$PATH" bash drive.sh "$SERIES_ROOT"
	assert_contains out "after loongarch64 pass: built loongarch64"
}
TESTS+=(test_arch_without_toolchain)

test_cache_command() {
	mkdir -p state/verdicts/ab/abcd state/x86_64/k/warnings
	echo pass >state/verdicts/ab/abcd/status
	echo w >state/x86_64/k/warnings/t
	expect_exit 0 out env SERIES_STATE="$PWD/state" "$SERIES" cache stats
	assert_contains out "verdicts: 1 in $PWD/state/verdicts"
	expect_exit 0 out env SERIES_STATE="$PWD/state" "$SERIES" cache clear
	[ ! -e state ] || fail "cache clear left $(find state | head -n 3)"
	expect_exit 0 out env SERIES_STATE="$PWD/state" "$SERIES" cache stats
	assert_contains out "verdicts: 0"
	expect_exit 2 out env SERIES_STATE="$PWD/state" "$SERIES" cache drop
	assert_contains out "cache: unknown action 'drop' (clear or stats)"
	expect_exit 2 out "$SERIES" cache
}
TESTS+=(test_cache_command)

# CHECK_STEPS=listed:FILE: the unit runs at the patches whose subjects
# configs/FILE lists (a file of its CHECK_CONFIGS); a subject that no
# patch of the branch has stops the walk, naming it.
test_listed_steps() {
	mkdir -p cfg chk/m
	printf '# moves\n\nb: move h\n' >cfg/moves.conf
	printf 'CHECK_SCOPE=patch\nCHECK_ORDER=1\nCHECK_STEPS=listed:moves.conf\nCHECK_CONFIGS=moves.conf\n' >chk/m/manifest
	git init -q tree
	git -C tree commit -q --allow-empty -m base
	git -C tree commit -q --allow-empty -m 'a: change'
	git -C tree commit -q --allow-empty -m 'b: move h'
	cat >drive.sh <<'EOF'
set -euo pipefail
. "$1/scripts/lib/common.sh"
. "$1/scripts/cmd/bisect.sh"
SERIES_CHECKS=$PWD/chk SERIES_CONFIGS=$PWD/cfg SERIES_TREE=$PWD/tree BISECT_BRANCH=b CHECKS=(m)
mapfile -t BISECT_COMMITS < <(git -C tree rev-list --reverse HEAD~2..HEAD)
check_load m
for s in 'a: change' 'b: move h' 'b: move'; do
	if check_runs_at 1 "$s"; then echo "runs at '$s'"; else echo "not at '$s'"; fi
done
bisect_listed_steps
echo listed ok
EOF
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	assert_contains out "not at 'a: change'"
	assert_contains out "runs at 'b: move h'"
	assert_contains out "not at 'b: move'"
	assert_contains out "listed ok"
	echo 'c: gone' >>cfg/moves.conf
	expect_exit 1 out bash drive.sh "$SERIES_ROOT"
	assert_contains out "configs/moves.conf (check m) names 'c: gone', which is no patch of branch b"
	printf 'CHECK_SCOPE=patch\nCHECK_ORDER=1\nCHECK_STEPS=listed:moves.conf\n' >chk/m/manifest
	expect_exit 1 out bash drive.sh "$SERIES_ROOT"
	assert_contains out "check m: CHECK_STEPS=listed:moves.conf: configs/moves.conf must be one of its CHECK_CONFIGS"
}
TESTS+=(test_listed_steps)
