# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of the tooling on small fixtures: no kernel build, seconds.
# Each test runs in its own empty directory ($TEST_WORK) in a subshell.

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

test_warning_sets() {
	local W="$SERIES_ROOT/scripts/lib/warnings.py"
	cat >parent.log <<'EOF'
  CC      drivers/vfio/vfio_main.o
/src/linux/drivers/vfio/vfio_main.c: In function 'foo':
/src/linux/drivers/vfio/vfio_main.c:10:5: warning: unused variable 'a' [-Wunused-variable]
   10 |  int a;
../include/linux/x.h:3:1: warning: 'b' defined but not used [-Wunused-function]
WARNING: modpost: vmlinux: section mismatch in reference: f (section: .text) -> g (section: .init.text)
EOF
	cat >child.log <<'EOF'
/src/linux/drivers/vfio/vfio_main.c:12:5: warning: unused variable 'a' [-Wunused-variable]
/src/linux/drivers/vfio/vfio_main.c:12:5: warning: unused variable 'a' [-Wunused-variable]
/src/linux/drivers/vfio/vfio_main.c:40:9: warning: unused variable 'c' [-Wunused-variable]
/build/x86/arch/x86/gen.c:1: warning: generated
/src/linux/arch/x86/kvm/../../../virt/kvm/vfio.c:9:2: warning: unused variable ‘v’ [-Wunused-variable]
ld: warning: creating DT_TEXTREL in a PIE
EOF
	python3 "$W" extract --strip /src/linux/ --strip /build/x86/ <parent.log >parent.set
	python3 "$W" extract --strip /src/linux/ --strip /build/x86/ <child.log >child.set
	assert_eq "$(wc -l <parent.set)" 3 "warnings in the parent log"
	assert_contains parent.set $'drivers/vfio/vfio_main.c\tunused variable \'a\' [-Wunused-variable]'
	assert_contains parent.set $'-\tmodpost: vmlinux: section mismatch'
	# The moved warning is not new, a duplicate counts once, paths are normalised.
	python3 "$W" new parent.set child.set >new.set
	assert_eq "$(wc -l <new.set)" 4 "new warnings"
	assert_contains new.set $'virt/kvm/vfio.c\tunused variable \'v\''
	assert_contains new.set $'drivers/vfio/vfio_main.c\tunused variable \'c\''
	assert_contains new.set $'arch/x86/gen.c\tgenerated'
	assert_contains new.set $'ld\tcreating DT_TEXTREL in a PIE'
	assert_not_contains new.set "unused variable 'a'"
	# Sets, not counts: the same warning twice more is still nothing new.
	cat parent.log parent.log | python3 "$W" extract --strip /src/linux/ >twice.set
	python3 "$W" new parent.set twice.set >none.set
	[ ! -s none.set ] || fail "a repeated warning was reported as new"
	printf 'no tab here\n' >broken.set
	expect_exit 1 out python3 "$W" new parent.set broken.set
	assert_contains out "not a 'file<TAB>message' line"
}
TESTS+=(test_warning_sets)

# decl-once.py on headers built with the host compiler: a declaration or
# macro of a shared header repeated in another header is found, one a
# header repeats itself or the base already had twice is not.
test_decl_once() {
	local D="$SERIES_ROOT/scripts/lib/decl-once.py"
	command -v gcc >/dev/null || { echo "SKIP: no gcc"; return 0; }
	mkdir -p build/init inc/shared/x inc/other
	printf 'savedcmd_init/main.o := gcc -Wall -I %s/inc -c -o init/main.o ../init/main.c\n' "$PWD" \
		>build/init/.main.o.cmd
	cat >inc/shared/x/a.h <<'EOF'
#define SHARED_ONLY 1
#define GUARDED 2
#undef GUARDED
#define GUARDED 2
#define AGAIN_ELSEWHERE 3
#define OLD_TWICE 4
int shared_fn(int);
int shared_alone(int);
EOF
	cat >inc/other/b.h <<'EOF'
#define AGAIN_ELSEWHERE 3
#define OLD_TWICE 4
#define NOT_SHARED 5
int shared_fn(int);
EOF
	cat >inc/other/c.h <<'EOF'
#define NOT_SHARED 5
EOF
	expect_exit 1 out python3 "$D" --build-dir build --shared shared -- shared/x/a.h other/b.h other/c.h
	assert_contains out "FAIL declared twice: shared_fn at inc/other/b.h:4 and shared/x/a.h:7"
	assert_contains out "FAIL defined twice: AGAIN_ELSEWHERE in shared/x/a.h and inc/other/b.h"
	assert_contains out "FAIL defined twice: OLD_TWICE in shared/x/a.h and inc/other/b.h"
	assert_contains out "3 header(s), 3 finding(s)"
	assert_not_contains out "GUARDED"
	assert_not_contains out "NOT_SHARED"
	assert_not_contains out "shared_alone"
	# The reference of a base: every name twice, shared or not.
	expect_exit 0 out python3 "$D" --build-dir build --shared nowhere --names-out names -- other/b.h other/c.h
	assert_eq "$(cat names)" "NOT_SHARED" "names twice at the base"
	printf 'OLD_TWICE\n' >excuse
	expect_exit 1 out python3 "$D" --build-dir build --shared shared --excuse excuse -- shared/x/a.h other/b.h
	assert_contains out "2 finding(s)"
	assert_not_contains out "OLD_TWICE"
	printf 'OLD_TWICE\nAGAIN_ELSEWHERE\nshared_fn\n' >excuse
	expect_exit 0 out python3 "$D" --build-dir build --shared shared --excuse excuse -- shared/x/a.h other/b.h
	# A header that does not compile is a failure, not "no finding".
	echo 'int broken(' >inc/other/d.h
	expect_exit 1 out python3 "$D" --build-dir build --shared shared -- shared/x/a.h other/d.h
	assert_contains out "FAIL the headers do not compile together"
}
TESTS+=(test_decl_once)

# boot-parse.py on console logs: results, tagged output, problems
# (KVM not initialised, panic, timeout, unfinished init), and the
# comparison with a base test by test and line by line.
test_boot_parse() {
	local B="$SERIES_ROOT/scripts/lib/boot-parse.py" ready='kvm \[[0-9]+\]: VHE mode initialized successfully'
	cat >good.log <<'EOF'
[    0.1] CPU: All CPU(s) started at EL2
[    0.2] kvm [1]: VHE mode initialized successfully
series-boot: kvm present
series-boot: begin t1
series-boot: out t1: line one
[    1.0] some kernel line
series-boot: out t1: line two
series-boot: result t1 PASS status=0
series-boot: begin t2
series-boot: result t2 SKIP status=4
series-boot: done
EOF
	expect_exit 0 out python3 "$B" parse --ready "$ready" --out good good.log
	assert_eq "$(cut -f1,2 good/results | tr '\t\n' ' /')" "t1 PASS/t2 SKIP/" "results"
	assert_eq "$(cat good/out/t1)" $'line one\nline two' "output of t1"
	[ ! -s good/problems ] || fail "problems in a good log: $(cat good/problems)"
	# The same log is the same; another status or output line differs.
	expect_exit 0 out python3 "$B" compare --output t1 -- good good
	assert_contains out "output of t1: identical (2 lines)"
	sed 's/result t2 SKIP status=4/result t2 FAIL status=1/; s/line two/line 2/' good.log >other.log
	expect_exit 0 out python3 "$B" parse --ready "$ready" --out other other.log
	expect_exit 1 out python3 "$B" compare --output t1 -- good other
	assert_contains out "t2                           base SKIP     this FAIL     DIFFERS"
	assert_contains out "output of t1 differs at line 2: base 'line two', this 'line 2'"
	# A missing test is a difference too.
	grep -v t2 good.log >fewer.log
	expect_exit 0 out python3 "$B" parse --ready "$ready" --out fewer fewer.log
	expect_exit 1 out python3 "$B" compare -- good fewer
	assert_contains out "base SKIP     this missing"
	# What is wrong with a boot.
	grep -v 'VHE mode' good.log >nokvm.log
	expect_exit 1 out python3 "$B" parse --ready "$ready" --out nokvm nokvm.log
	assert_contains nokvm/problems "KVM did not initialise"
	sed 's/^series-boot: done$/[  2.0] Kernel panic - not syncing: Attempted to kill init!/' good.log >panic.log
	expect_exit 1 out python3 "$B" parse --ready "$ready" --out panic panic.log
	assert_contains panic/problems "kernel: [  2.0] Kernel panic - not syncing: Attempted to kill init!"
	assert_contains panic/problems "the init did not finish"
	sed 's/result t2 SKIP status=4/result t2 TIMEOUT after 60 s/' good.log >timeout.log
	expect_exit 1 out python3 "$B" parse --ready "$ready" --out timeout timeout.log
	assert_contains timeout/problems "t2: timed out (after 60 s)"
	grep -v 'result t1' good.log >noresult.log
	expect_exit 1 out python3 "$B" parse --ready "$ready" --out noresult noresult.log
	assert_contains noresult/problems "t1: no result"
	sed 's/kvm present/kvm absent/' good.log >absent.log
	expect_exit 1 out python3 "$B" parse --ready "$ready" --out absent absent.log
	assert_contains absent/problems "/dev/kvm absent"
	printf 'WARNING: CPU: 0 PID: 1 at arch/arm64/kvm/guest.c:9 x\n' >>good.log
	expect_exit 1 out python3 "$B" parse --ready "$ready" --out warn good.log
	assert_contains warn/problems "kernel: WARNING: CPU: 0 PID: 1 at arch/arm64/kvm/guest.c:9 x"
}
TESTS+=(test_boot_parse)

# The fragment check: exact, then each way it can differ.
test_maintainers_fragment() {
	local C="$SERIES_ROOT/scripts/checks/maintainers-fragment/compare.py"
	printf 'Intro text\nmore text\n\nARM64 PORT\nM:\tA <a@x>\nF:\tarch/arm64/\n\nKVM/arm64\nM:\tB <b@x>\nF:\tarch/arm64/kvm/\nF:\told/path/\n\nOTHER\nF:\tother/\n' >base
	printf 'Intro text\nmore text\n\nARM64 PORT\nM:\tA <a@x>\nF:\tarch/arm64/\nF:\tinclude/arch/arm64/\n\nKVM/arm64\nM:\tB <b@x>\nF:\tarch/arm64/kvm/\nF:\tvirt/kvm/arm64/\n\nOTHER\nF:\tother/\n' >tip
	printf '# the changes\n\nARM64 PORT\nF:\tarch/arm64/\n+F:\tinclude/arch/arm64/\n\nKVM/arm64\nF:\tarch/arm64/kvm/\n-F:\told/path/\n+F:\tvirt/kvm/arm64/\n' >frag
	expect_exit 0 out python3 "$C" base tip frag
	assert_contains out "2 entries changed (2 lines added, 1 removed); 0 difference(s)"
	grep -v 'virt/kvm/arm64' frag >frag.miss
	expect_exit 1 out python3 "$C" base tip frag.miss
	assert_contains out "KVM/arm64: the stack adds 'F:	virt/kvm/arm64/', the fragment does not"
	printf '+F:\tnot/changed/\n' >>frag.extra && cat frag frag.extra >frag2
	expect_exit 1 out python3 "$C" base tip frag2
	assert_contains out "KVM/arm64: the fragment adds 'F:	not/changed/', the stack does not"
	sed 's/^-F:\told\/path\/$/F:\told\/path\//' frag >frag.ctx
	expect_exit 1 out python3 "$C" base tip frag.ctx
	assert_contains out "KVM/arm64: the stack removes 'F:	old/path/', the fragment does not"
	assert_contains out "context line"
	printf '\nOTHER\nF:\tother/\n' >>frag.other && cat frag frag.other >frag3
	expect_exit 1 out python3 "$C" base tip frag3
	assert_contains out "OTHER: in the fragment, but the stack does not change it"
	sed '/^ARM64 PORT$/,/^$/d' frag >frag.noentry
	expect_exit 1 out python3 "$C" base tip frag.noentry
	assert_contains out "ARM64 PORT: changed by the stack (1 added, 0 removed) but not in the fragment"
	printf '+F:\tstray/\n' >frag.bad
	expect_exit 2 out python3 "$C" base tip frag.bad
	assert_contains out "a field line outside an entry"
}
TESTS+=(test_maintainers_fragment)

# module-compare.py: equivalent snapshots, then each kind of difference.
test_module_compare() {
	local C="$SERIES_ROOT/scripts/tests/module-compare.py" d
	for d in a b; do
		mkdir -p "$d/disasm"
		printf 'license=GPL\nname=kvm\nparm=nested:Nested\n' >"$d/modinfo"
		printf 'kvm_get_kvm\tEXPORT_SYMBOL_GPL\t\n' >"$d/exports"
		printf '0 <f>:\n  0:\tlgr\t%%r1,%%r2\n' >"$d/disasm/virt%kvm%kvm_main.o"
	done
	echo arch/s390/kvm/kvm.ko >a/path
	echo arch/s390/kvm/s390/kvm.ko >b/path
	printf '0 <g>:\n  0:\tbr\t%%r14\n' >a/disasm/arch%s390%kvm%priv.o
	cp a/disasm/arch%s390%kvm%priv.o b/disasm/arch%s390%kvm%s390%priv.o
	expect_exit 0 out python3 "$C" a b
	assert_contains out "object priv.o: moved from arch/s390/kvm/priv.o to arch/s390/kvm/s390/priv.o"
	assert_contains out "2 objects; equivalent"
	printf '0 <g>:\n  0:\tbr\t%%r13\n' >b/disasm/arch%s390%kvm%s390%priv.o
	printf 'license=GPL\nname=kvm\n' >b/modinfo
	: >b/exports
	expect_exit 1 out python3 "$C" a b
	assert_contains out "modinfo: only before: parm=nested:Nested"
	assert_contains out "exports: only before: kvm_get_kvm"
	assert_contains out "object priv.o: code differs at line 2: before '0:	br	%r14', after '0:	br	%r13'"
	rm b/disasm/virt%kvm%kvm_main.o
	expect_exit 1 out python3 "$C" a b
	assert_contains out "object kvm_main.o: only before"
}
TESTS+=(test_module_compare)

# checkpatch reports on moved lines are listed, not counted.
test_checkpatch_moved() {
	local M="$SERIES_ROOT/scripts/lib/checkpatch-moved.py"
	cat >p.patch <<'EOF'
--- a/old.h
+++ b/old.h
@@ -1,2 +0,0 @@
-#define A(x)	(x << 1)
-#define B	1
--- /dev/null
+++ b/new.h
@@ -0,0 +1,3 @@
+#define A(x)	(x << 1)
+#define B	1
+#define C(y)	(y << 2)
EOF
	cat >cp.log <<'EOF'
new.h:1: CHECK: Macro argument 'x' may be better as '(x)' to avoid precedence issues
+#define A(x)	(x << 1)

new.h:3: CHECK: Macro argument 'y' may be better as '(y)' to avoid precedence issues
+#define C(y)	(y << 2)

total: 0 errors, 0 warnings, 2 checks, 13 lines checked
EOF
	expect_exit 1 out python3 "$M" p.patch cp.log
	assert_contains out "new: 1, moved: 1"
	assert_contains out "new.h:3: CHECK: Macro argument 'y'"
	assert_not_contains out "new.h:1:"
	# A report that quotes no line (the commit message) always counts.
	printf 'ERROR: Missing Signed-off-by: line(s)\n\ntotal: 1 errors, 0 warnings, 0 checks, 13 lines checked\n' >cp2.log
	expect_exit 1 out python3 "$M" p.patch cp2.log
	assert_contains out "new: 1, moved: 0"
	head -3 cp.log >cp3.log
	expect_exit 0 out python3 "$M" p.patch cp3.log
	assert_contains out "new: 0, moved: 1"
}
TESTS+=(test_checkpatch_moved)

# A result tree as the runner writes it: base, two patches, patch 2 fails.
make_results_fixture() {
	local r=$1 k a c st
	mkdir -p "$r"
	printf 'base=abc\nbranch=b\n' >"$r/meta"
	printf '0\tbase\tabc\tLinux\n1\t0001-a.patch\tc1\tfirst\n2\t0002-b.patch\tc2\tsecond\n' >"$r/steps"
	for k in 0 1 2; do
		for a in x86_64 s390; do
			c=$r/000$k/$a/build
			mkdir -p "$c"
			st=pass
			[ "$k/$a" != 2/s390 ] || st=fail
			echo "$st" >"$c/status"
			echo "summary $k $a" >"$c/summary"
			echo 3 >"$c/duration"
			: >"$c/log"
		done
		[ "$k" = 0 ] && continue
		c=$r/000$k/all/checkpatch
		mkdir -p "$c"
		echo pass >"$c/status"
		echo clean >"$c/summary"
		echo 1 >"$c/duration"
		: >"$c/log"
	done
	printf 'drivers/x.c\tunused variable\n' >"$r/0002/s390/build/new-warnings"
}

test_report() {
	make_results_fixture r
	echo key >r/0001/all/checkpatch/cached
	expect_exit 0 out python3 "$SERIES_ROOT/scripts/lib/report.py" r
	assert_contains out "first bad: patch 2 (0002-b.patch) on s390: build: summary 2 s390"
	assert_contains out "new warning: patch 2 s390: drivers/x.c: unused variable"
	assert_contains out "totals: pass 7, fail 1, skip 0, warn 0"
	# Where the time went: what ran, a cached verdict costing nothing.
	assert_contains out "time: 19 s in 7 checks run, 1 from the cache; by check: build 18 s, checkpatch 1 s"
	assert_contains r/report.html '<td class="time">7</td>'
	assert_contains r/report.html "builds of the patches, s390</td><td class=\"time\">6"
	assert_contains r/summary.txt "all/checkpatch"
	python3 - r/summary.json <<'EOF' || fail "summary.json content"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["first_bad"]["step"] == 2 and s["first_bad"]["arch"] == "s390", s["first_bad"]
assert s["totals"] == {"pass": 7, "fail": 1, "skip": 0, "warn": 0, "interrupted": 0}, s["totals"]
t = s["timings"]
assert (t["computed_s"], t["computed"], t["cached"]) == (19, 7, 1), t
assert t["by_check"] == {"build": 18, "checkpatch": 1}, t
assert t["by_step"] == {"0": 6, "1": 6, "2": 7}, t
assert t["build_base"] == {"s390": 3, "x86_64": 3} and t["build_patches"] == {"s390": 6, "x86_64": 6}, t
assert [st["step"] for st in s["steps"]] == [0, 1, 2]
r = [x for x in s["steps"][2]["results"] if x["arch"] == "s390"][0]
assert r["new_warnings"] == ["drivers/x.c: unused variable"], r
assert r["log"] == "0002/s390/build/log", r["log"]
EOF
	# b4's per-patch check shape, one file per patch, and the lookup of a
	# patch (on stdin, as b4 hands it over) by its subject.
	[ ! -e r/review-check/0000.json ] || fail "the base has a review-check file"
	printf 'From: A <a@example.org>\nSubject: [PATCH v3 2/2]\n second\n\nWhy.\n' >p2
	expect_exit 0 rc2 sh -c 'python3 "$1" r - <p2' _ "$SERIES_ROOT/scripts/mail/review_check.py"
	cmp -s rc2 r/review-check/0002.json || fail "review_check.py does not print 0002.json"
	python3 - rc2 <<'EOF' || fail "review-check JSON content"
import json, sys
c = json.load(open(sys.argv[1]))
assert [x["tool"] for x in c] == ["checkpatch", "build/s390", "build/x86_64"], c
assert all(set(x) == {"tool", "status", "summary", "details"} for x in c), c
b = c[1]
assert b["status"] == "fail" and b["summary"] == "summary 2 s390", b
assert b["details"] == "drivers/x.c: unused variable", b
EOF
	printf 'Subject: [PATCH] third\n\n' >p3
	expect_exit 1 out python3 "$SERIES_ROOT/scripts/mail/review_check.py" r p3
	assert_contains out "review-check: no patch 'third' in r"
	echo bogus >r/0001/x86_64/build/status
	expect_exit 1 out python3 "$SERIES_ROOT/scripts/lib/report.py" r
	assert_contains out "bad status 'bogus'"
}
TESTS+=(test_report)

# check_report_html DIR: report.html of DIR links every cell to a file
# that exists, marks the first bad patch and lists its new warning.
check_report_html() {
	python3 - "$1" <<'EOF' || fail "report.html of $1"
import html.parser, os, sys
d = sys.argv[1]
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.rows, self.cells = [], [], []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a":
            self.links.append(a["href"])
        if tag == "tr":
            self.rows.append(a.get("class", ""))
        if tag == "td" and "cell" in a.get("class", ""):
            self.cells.append(a["class"])
p = P()
p.feed(open(os.path.join(d, "report.html"), encoding="utf-8").read())
assert p.links, "no links"
for href in p.links:
    assert os.path.isfile(os.path.join(d, href)), f"link {href} does not resolve"
assert sum("fail" in c for c in p.cells) == 1, p.cells
assert "firstbad" in p.rows, p.rows
text = open(os.path.join(d, "report.html"), encoding="utf-8").read()
assert "s390: drivers/x.c: unused variable" in text
print(len(p.links), "links resolve")
EOF
}

test_report_merge() {
	local d
	make_results_fixture full
	expect_exit 0 out python3 "$SERIES_ROOT/scripts/lib/report.py" full
	check_report_html full
	assert_contains full/summary.md "First bad: **patch 2** (\`0002-b.patch\`) on s390"
	# Two shards of the same run: "all" and x86_64, and s390.
	for d in a b; do
		cp -r full "$d"
		rm -f "$d"/summary.* "$d/report.html"
	done
	rm -rf a/000?/s390 b/000?/all b/000?/x86_64
	echo 'shard=1/2' >>a/meta
	echo 'shard=2/2' >>b/meta
	expect_exit 0 out python3 "$SERIES_ROOT/scripts/lib/report.py" --merge merged a b
	diff full/summary.txt merged/summary.txt || fail "the merged shards do not give the unsharded verdicts"
	check_report_html merged
	assert_contains merged/meta "shard=merged from 2 result tree(s): 1/2 2/2"
	expect_exit 1 out python3 "$SERIES_ROOT/scripts/lib/report.py" --merge merged2 a full
	assert_contains out "0000/x86_64/build is in both a and full"
	sed -i 's/^base=.*/base=other/' b/meta
	expect_exit 1 out python3 "$SERIES_ROOT/scripts/lib/report.py" --merge merged3 a b
	assert_contains out "b: base 'other' differs from a's 'abc': not shards of one run"
	expect_exit 1 out python3 "$SERIES_ROOT/scripts/lib/report.py" --merge merged a
	assert_contains out "merged exists"
}
TESTS+=(test_report_merge)

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
	expect_exit 2 out env SERIES_CONFIGS="$PWD/cfg" SERIES_NO_INSTALL=1 "$SERIES" boot arm64
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

# The KUnit results judge: a missing suite, a skipped or failed case of a
# parameterised test, and results without tests fail; all passed passes.
test_kunit_results() {
	local r=$SERIES_ROOT/scripts/checks/kunit/results.py
	cat >ok.json <<'JSON'
{"name": "KUnit Test Group", "sub_groups": [{"name": "s", "sub_groups": [{"name": "p", "sub_groups": [], "test_cases": [{"name": "a", "status": "PASS"}, {"name": "b", "status": "PASS"}]}], "test_cases": [{"name": "c", "status": "PASS"}]}], "test_cases": []}
JSON
	expect_exit 0 out python3 "$r" ok.json s
	assert_contains out "ok s: 3 tests passed"
	expect_exit 1 out python3 "$r" ok.json s t
	assert_contains out "FAIL t: the suite did not run (ran: s)"
	sed 's/"b", "status": "PASS"/"b", "status": "SKIP"/' ok.json >skip.json
	expect_exit 1 out python3 "$r" skip.json s
	assert_contains out "FAIL s: 1 of 3 tests did not pass: p.b SKIP"
	printf '{"sub_groups": [{"name": "s", "sub_groups": [], "test_cases": []}]}' >empty.json
	expect_exit 1 out python3 "$r" empty.json s
	assert_contains out "FAIL s: no test ran"
	expect_exit 2 out python3 "$r" ok.json
}
TESTS+=(test_kunit_results)

test_signoff() {
	local r=$SERIES_ROOT/scripts/checks/signoff/signoff.py me='A Sender' mail=a@example.org
	mkpatch() { # FROM TRAILER...: a patch file from FROM with these trailers
		local from=$1
		shift
		printf 'From: %s\nSubject: [PATCH] x: y\n\nWhy.\n\n' "$from"
		printf '%s\n' "$@"
		printf -- '---\n Signed-off-by: Not <a@trailer.example>\n'
	}
	judge() { # RC TEXT FROM TRAILER...: the judge of that patch exits RC, saying TEXT
		local rc=$1 text=$2
		shift 2
		mkpatch "$@" >t.patch
		expect_exit "$rc" out python3 "$r" t.patch "$me" "$mail"
		assert_contains out "$text"
	}
	local sob="Signed-off-by: $me <$mail>"
	judge 0 "author $me <$mail> signs off; 1 trailer(s), the last by the sender" "$me <$mail>" "$sob"
	# An author other than the sender, and a co-developer: both sign off.
	judge 0 "4 trailer(s), the last by the sender" "B Author <b@example.org>" \
		"Co-developed-by: C Dev <c@example.org>" "Signed-off-by: C Dev <c@example.org>" \
		"Signed-off-by: B Author <B@example.org>" "$sob"
	judge 1 "1 finding(s): no Signed-off-by" "$me <$mail>"
	judge 1 "FAIL the author B Author <b@example.org> does not sign off" "B Author <b@example.org>" "$sob"
	judge 1 "FAIL Co-developed-by C Dev <c@example.org> is not followed by their Signed-off-by" \
		"$me <$mail>" "Co-developed-by: C Dev <c@example.org>" "$sob"
	judge 1 "FAIL the last Signed-off-by is B Author <b@example.org>, not the sender $me <$mail>" \
		"$me <$mail>" "$sob" "Signed-off-by: B Author <b@example.org>"
	judge 1 "FAIL $me <$mail> signs off twice" "$me <$mail>" "$sob" "$sob"
	judge 1 "FAIL malformed trailer: Signed-off-by: $me" "$me <$mail>" "Signed-off-by: $me" "$sob"
	expect_exit 2 out python3 "$r" t.patch "$me"
	expect_exit 2 out python3 "$r" no-such.patch "$me" "$mail"
}
TESTS+=(test_signoff)

test_subject() {
	local r=$SERIES_ROOT/scripts/checks/subject/subject.py
	cat >t.conf <<'EOF'
# a comment
KVM: = virt/kvm/ include/linux/kvm*
KVM: s390: = arch/s390/kvm/
s390: = arch/s390/
EOF
	judge() { # RC TEXT SUBJECT CHANGES: the judge of that patch exits RC, saying TEXT
		printf 'From: A <a@example.org>\nSubject: [PATCH v2 3/9] %s\n\nWhy.\n' "$3" >p
		expect_exit "$1" out python3 "$r" t.conf p "$4"
		assert_contains out "$2"
	}
	printf 'M\tarch/s390/kvm/kvm-s390.c\nR100\tvirt/kvm/a.c\tvirt/kvm/b.c\n' >changes
	printf 'M\tinclude/linux/kvm_host.h\n' >changes2
	judge 0 "'KVM: s390:' names 1 of 3 touched file(s)" 'KVM: s390: Do a thing' changes
	judge 0 "'KVM:' names 2 of 3 touched file(s)" 'KVM: Do a thing' changes
	judge 1 "'KVM: s390:' names none of the 1 touched file(s) (first: include/linux/kvm_host.h)" \
		'KVM: s390: Do a thing' changes2
	judge 1 "unknown subject prefix in 'kvm: Do a thing'" 'kvm: Do a thing' changes
	printf 'KVM s390 = arch/s390/kvm/\n' >bad.conf
	expect_exit 2 out python3 "$r" bad.conf p changes
	assert_contains out "bad.conf:1: not 'PREFIX: = AREA...'"
	expect_exit 2 out python3 "$r" t.conf p
}
TESTS+=(test_subject)

test_mbox() {
	local r=$SERIES_ROOT/scripts/mail/mbox.py k
	mkmsg() { # K N SUBJECT BODY: a format-patch file numbered K/N
		printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
		printf 'From: A Long Name Of The Sender\n <sender@example.org>\nDate: Fri, 4 Dec 2026 05:27:03 +0000\n'
		printf 'Subject: [PATCH %02d/%02d] %s\n folded\n\n%s\n' "$1" "$2" "$3" "$4"
	}
	mkmsg 0 2 'x: The cover' $'Why.\n\nbase-commit: 0123' >c.patch
	mkmsg 1 2 'x: One' $'From the start.\n>From quoted\n---\n a | 1 +' >1.patch
	mkmsg 2 2 'y: Two' $'Two.\n---\n b | 1 +' >2.patch
	{
		printf '1.patch\tto\tMaint One <m1@example.org>\n'
		printf '1.patch\tcc\tlist@example.org\n'
		for k in 1 2 3 4 5 6; do printf '2.patch\tcc\tReviewer Number %d <r%d@example.org>\n' "$k" "$k"; done
		printf '2.patch\tto\tJ\xc3\xb6rg M <j@example.org>\n'
	} >rcpt
	expect_exit 0 m1 python3 "$r" --version 2 --recipients rcpt --domain example.org c.patch 1.patch 2.patch
	assert_eq "$(grep -c '^From git@z ' m1)" 3 "messages"
	assert_eq "$(grep '^Subject: ' m1 | tr '\n' '|')" \
		'Subject: [PATCH v2 0/2] x: The cover folded|Subject: [PATCH v2 1/2] x: One folded|Subject: [PATCH v2 2/2] y: Two folded|' "subjects"
	assert_eq "$(grep -c '^From: A Long Name Of The Sender <sender@example.org>$' m1)" 3 "unfolded From"
	local id0
	id0=$(sed -n 's/^Message-Id: //p' m1 | head -n 1)
	[[ $id0 == "<sae-series-v2-0-"*"@example.org>" ]] || fail "cover Message-Id $id0"
	assert_eq "$(grep -c "^In-Reply-To: $id0\$" m1)" 2 "replies to the cover letter"
	assert_eq "$(grep -c "^References: $id0\$" m1)" 2 "references to the cover letter"
	assert_contains m1 ">From the start."
	assert_contains m1 ">>From quoted"
	assert_contains m1 "To: Maint One <m1@example.org>, =?utf-8?q?J=C3=B6rg_M?= <j@example.org>"
	# The cover letter: every To, and every Cc that is no To, folded.
	awk 'length($0) > 78 { bad = 1 } END { exit bad }' m1 || fail "a line over 78 columns"
	python3 - m1 <<'EOF' || fail "the mbox does not parse as expected"
import mailbox, sys
msgs = list(mailbox.mbox(sys.argv[1]))
assert len(msgs) == 3
cc = [a.strip() for a in str(msgs[0]["Cc"]).replace("\n", "").split(",")]
assert cc == ["list@example.org"] + [f"Reviewer Number {k} <r{k}@example.org>" for k in range(1, 7)], cc
assert msgs[1]["Cc"] == "list@example.org", msgs[1]["Cc"]
assert msgs[2]["To"].startswith("=?utf-8?q?J"), msgs[2]["To"]
assert msgs[1]["In-Reply-To"] == msgs[0]["Message-Id"]
EOF
	# The same series gives the same mbox; version 1 is plain [PATCH k/N].
	expect_exit 0 m2 python3 "$r" --version 2 --recipients rcpt --domain example.org c.patch 1.patch 2.patch
	cmp -s m1 m2 || fail "two runs on the same series differ"
	expect_exit 0 m3 python3 "$r" --version 1 --recipients rcpt --domain example.org c.patch 1.patch 2.patch
	assert_contains m3 "Subject: [PATCH 1/2] x: One"
	# Bad input: numbering, recipients, version.
	expect_exit 1 out python3 "$r" --version 1 --recipients rcpt --domain example.org c.patch 2.patch 1.patch
	assert_contains out "mbox: 2.patch: subject numbers it 02/02, its place in the series is 1/2"
	printf '1.patch\tbcc\tx@example.org\n' >bad
	expect_exit 1 out python3 "$r" --version 1 --recipients bad --domain example.org c.patch 1.patch 2.patch
	assert_contains out "bad:1: want 'PATCH<TAB>to|cc<TAB>ADDRESS'"
	expect_exit 2 out python3 "$r" --version 0 --recipients rcpt --domain example.org c.patch 1.patch
}
TESTS+=(test_mbox)

test_checkpatch_allowlist() {
	local r=$SERIES_ROOT/scripts/checks/checkpatch/allow.py
	printf '# reasons\n0002-*.patch\tLONG_LINE\ta table that reads better wide\n*\tFILE_PATH_CHANGES\tthe maintainers check\n' >allow
	{
		printf 'a.c:3: WARNING:LONG_LINE: line length of 120 exceeds 100 columns\n+\tx\n\n'
		printf 'a.c:9: ERROR:FILE_PATH_CHANGES: made-up error of an accepted type\n\n'
		printf 'MAINTAINERS:1: WARNING:FILE_PATH_CHANGES: added, moved or deleted file(s)\n\n'
		printf 'new: 3, moved: 0\n'
	} >reports
	expect_exit 1 out python3 "$r" allow patches/0001-x.patch reports
	assert_contains out "counted: 2, accepted: 1"
	assert_contains out "accepted (FILE_PATH_CHANGES): the maintainers check"
	expect_exit 1 out python3 "$r" allow patches/0002-y.patch reports
	assert_contains out "counted: 1, accepted: 2"
	assert_contains out "a.c:9: ERROR:FILE_PATH_CHANGES"
	printf 'x\tLONG_LINE\n' >bad
	expect_exit 2 out python3 "$r" bad patches/0001-x.patch reports
	assert_contains out "bad:1: want 'PATCH TYPE REASON...'"
	# The allowlist of the repository: every line has a reason.
	expect_exit 0 out python3 "$r" "$SERIES_ROOT/configs/checkpatch-allowlist.conf" x.patch /dev/null
}
TESTS+=(test_checkpatch_allowlist)

test_coccinelle_select() {
	local r=$SERIES_ROOT/scripts/checks/coccinelle/select.py
	printf 'a.cocci\tkfree || vfree\nb.cocci\t\nc.cocci\tkmalloc\nd.cocci\t(x && y)\ne.cocci\tkfree_sensitive\n' >q
	printf 'void f(void *p)\n{\n\tkfree(p); /* kfree_sensitivex */\n}\n' >one.c
	printf '#define N 1\n' >two.h
	expect_exit 0 out python3 "$r" q one.c two.h
	assert_eq "$(tr '\n' ' ' <out)" 'a.cocci b.cocci d.cocci ' "semantic patches selected"
	expect_exit 0 out python3 "$r" q two.h
	assert_eq "$(tr '\n' ' ' <out)" 'b.cocci d.cocci ' "semantic patches for a file without their tokens"
	expect_exit 2 out python3 "$r" q
}
TESTS+=(test_coccinelle_select)

# The sparse unit's helper on a two-commit git tree and a build directory
# made by hand, with a stand-in for sparse: what it runs at the parent
# (paths into the parent's extract, a moved source's own directory, the
# two-word -I), the set comparison, and its three ways of stopping.
test_sparse_units() {
	local r=$SERIES_ROOT/scripts/checks/sparse/sparse.py t=$PWD/tree b=$PWD/build
	mkdir -p tree/old tree/include tree/virt build/new
	printf 'int f(void)\n{\n\treturn 0;\n}\n' >tree/old/x.c
	printf '#define N 1\n' >tree/include/n.h
	printf '#define V 1\n' >tree/virt/v.h
	printf 'int f(void)\n{\n\treturn V;\n}\n' >tree/virt/y.c
	tgit_t() { git -C tree -c user.name=t -c user.email=t@example.org "$@"; }
	tgit_t init -q && tgit_t add . && tgit_t commit -qm base
	tgit_t mv old new
	printf 'int g(void)\n{\n\treturn 1;\n}\n' >>tree/new/x.c
	printf '#define M 2\n' >>tree/include/n.h
	printf '#define W 2\n' >>tree/virt/v.h
	tgit_t commit -qam step
	tgit_t diff --name-status -M HEAD~1 HEAD >changes
	assert_contains changes $'\told/x.c\tnew/x.c'
	{
		printf 'savedcmd_new/x.o := ccache gcc -Wp,-MMD,new/.x.o.d -nostdinc -I%s/include -I %s/virt' "$t" "$t"
		printf ' -include %s/include/n.h -I%s/new -Inew -DKBUILD_BASENAME='"'"'"x"'"'"' -c -o new/x.o %s/new/x.c\n\n' "$t" "$t" "$t"
		printf 'source_new/x.o := %s/new/x.c\n\ndeps_new/x.o := \\\n  %s/new/x.c \\\n  %s/include/n.h \\\n\n' "$t" "$t" "$t"
	} >build/new/.x.o.cmd
	# An object a Makefile reaches by "../", as arch/*/kvm do virt/kvm.
	mkdir -p build/virt
	{
		printf 'savedcmd_arch/k/../../virt/y.o := ccache gcc -nostdinc -I%s/include -I%s/arch/k -Iarch/k' "$t" "$t"
		printf ' -c -o arch/k/../../virt/y.o %s/arch/k/../../virt/y.c\n\n' "$t"
		printf 'source_arch/k/../../virt/y.o := %s/arch/k/../../virt/y.c\n\n' "$t"
		printf 'deps_arch/k/../../virt/y.o := \\\n  %s/arch/k/../../virt/y.c \\\n  %s/arch/k/../../virt/v.h \\\n\n' "$t" "$t"
	} >build/virt/.y.o.cmd
	# What the step's build links: vmlinux.a (a thin archive) and the
	# modules of modules.order.  An object left by another step is not,
	# though its dependencies name a touched header and it sorts first.
	: >build/new/x.o
	(cd build && ar cDPrST vmlinux.a new/x.o)
	mkdir -p build/arch/k build/a
	echo arch/k/m.o >build/modules.order
	echo arch/k/../../virt/y.o >build/arch/k/m.mod
	{
		printf 'savedcmd_a/z.o := gcc -c -o a/z.o %s/a/z.c\n\nsource_a/z.o := %s/a/z.c\n\n' "$t" "$t"
		printf 'deps_a/z.o := \\\n  %s/a/z.c \\\n  %s/include/n.h \\\n\n' "$t" "$t"
	} >build/a/.z.o.cmd
	# The stand-in: one warning per source and one in a header it does
	# not touch, one more for the step's g();
	# FAKE_PARENT says how it ends on the parent's source.
	cat >fake-sparse <<-'SH'
	#!/bin/sh
	for src; do :; done
	case $src in
	*parent-tree*)
		case ${FAKE_PARENT:-} in
		noopen) echo "$src:1:10: error: unable to open 'asm/x.h'"; exit 1 ;;
		die) echo "sparse: out of memory"; exit 1 ;;
		esac ;;
	esac
	[ "${FAKE_MARCH:-}" != 1 ] || { echo "sparse: error: invalid argument to '-march': '_zicsr'"; exit 1; }
	echo "$src:1:5: warning: symbol 'f' was not declared. Should it be static?"
	echo "${src%/*/*}/include/other.h:3:1: warning: noise in a header"
	grep -q 'g(void)' "$src" && echo "$src:6:5: warning: symbol 'g' was not declared. Should it be static?"
	exit 0
	SH
	chmod +x fake-sparse
	run_sp() { python3 "$r" --tree "$t" --build "$b" --parent HEAD~1 --srcarch x86 --checkflags='-D__linux__ -m64' \
		--changes changes --out "$1" --jobs 2 --sparse "$PWD/fake-sparse"; }
	expect_exit 1 out run_sp o1
	assert_eq "$(head -n 1 out)" "1 new sparse warning(s): x.c: warning: symbol 'g' was not declared. Should it be static?" "summary"
	assert_contains out "include/n.h: through new/x.o (1 object(s) include it)"
	assert_contains out "virt/v.h: through virt/y.o (1 object(s) include it)"
	assert_eq "$(cat o1/objects)" $'new/x.o\tnew/x.c\told/x.c\nvirt/y.o\tvirt/y.c\tvirt/y.c' "objects"
	assert_contains o1/step/virt%y.o "-I$t/arch/k -Iarch/k $t/virt/y.c"
	local p=$PWD/o1/parent-tree
	# The parent's command: sources and include directories in the
	# parent's extract, the two-word -I too, the own directory the old
	# one, no dependency file.
	assert_contains o1/parent/new%x.o "-I$p/include -I $p/virt -include $p/include/n.h -I$p/old -Iold "
	assert_contains o1/parent/new%x.o " $p/old/x.c"
	assert_not_contains o1/parent/new%x.o "-Wp,-MMD"
	assert_contains o1/step/new%x.o "-D__linux__ -m64 -Wp,-MMD,new/.x.o.d -nostdinc -I$t/include -I $t/virt "
	assert_eq "$(cat o1/parent-warnings)" "other.h: warning: noise in a header
x.c: warning: symbol 'f' was not declared. Should it be static?
y.c: warning: symbol 'f' was not declared. Should it be static?" "parent set"
	[ -f "$p/old/x.c" ] && [ -f "$p/virt/v.h" ] || fail "the parent's extract lacks old/x.c or virt/v.h"
	# A parent that cannot open a header: the object is checked as new.
	expect_exit 1 out env FAKE_PARENT=noopen python3 "$r" --tree "$t" --build "$b" --parent HEAD~1 --srcarch x86 \
		--checkflags=-m64 --changes changes --out o2 --sparse "$PWD/fake-sparse"
	assert_eq "$(head -n 1 out)" "2 new sparse warning(s): x.c: warning: symbol 'f' was not declared. Should it be static?" "summary"
	assert_contains out "new/x.o: its parent source does not compile for this arch (/"
	# Without a parent, only what it reports in touched files counts.
	assert_contains out "new/x.o: not counted, in files the patch does not touch: other.h: warning: noise in a header"
	# Any other failing status fails; sparse refusing an argument skips.
	expect_exit 1 out env FAKE_PARENT=die python3 "$r" --tree "$t" --build "$b" --parent HEAD~1 --srcarch x86 \
		--checkflags=-m64 --changes changes --out o3 --sparse "$PWD/fake-sparse"
	assert_eq "$(head -n 1 out)" "sparse stopped with status 1 on the parent's new/x.o: sparse: out of memory" "summary"
	expect_exit 4 out env FAKE_MARCH=1 python3 "$r" --tree "$t" --build "$b" --parent HEAD~1 --srcarch x86 \
		--checkflags=-m64 --changes changes --out o4 --sparse "$PWD/fake-sparse"
	assert_contains out "sparse cannot check this arch with kbuild's arguments: sparse: error: invalid argument to '-march'"
	# Nothing compiled here: a pass that says so.
	printf 'M\tdocs/x.txt\n' >changes2
	expect_exit 0 out python3 "$r" --tree "$t" --build "$b" --parent HEAD~1 --srcarch x86 \
		--checkflags=-m64 --changes changes2 --out o5 --sparse "$PWD/fake-sparse"
	assert_eq "$(head -n 1 out)" "nothing touched is compiled on this arch" "summary"
	# A build directory whose build did not link: an error, not a pass.
	mkdir -p nolink
	expect_exit 1 out python3 "$r" --tree "$t" --build "$PWD/nolink" --parent HEAD~1 --srcarch x86 \
		--checkflags=-m64 --changes changes --out o7 --sparse "$PWD/fake-sparse"
	assert_contains out "cannot list the objects of this step: no vmlinux.a in $PWD/nolink"
	# CHECKFLAGS as the unit reads them from make: a define quoted for
	# its space (as mips quotes its compiler's) stays one argument.
	printf '%s\n' "CHECKFLAGS := -D__linux__ -D'__U8__'='unsigned char' -m64" >flags.mk
	local flags
	flags=$(make -s --no-print-directory -f flags.mk \
		--eval="$(<"$SERIES_ROOT/scripts/checks/sparse/checkflags.mk")" series-checkflags | tail -n 1)
	expect_exit 1 out python3 "$r" --tree "$t" --build "$b" --parent HEAD~1 --srcarch x86 \
		--checkflags="$flags" --changes changes --out o6 --sparse "$PWD/fake-sparse"
	assert_contains o6/step/new%x.o "fake-sparse -D__linux__ '-D__U8__=unsigned char' -m64 -Wp,-MMD"
}
TESTS+=(test_sparse_units)

test_versions() {
	local r=$SERIES_ROOT/scripts/mail/versions.py
	mkp() { # DIR N TOTAL SUBJECT MESSAGE LINE: a patch adding LINE to file f$N
		printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nFrom: A <a@example.org>\n'
		printf 'Subject: [PATCH %d/%d] %s\n\n%s\n---\n f%d | 1 +\n\n' "$2" "$3" "$4" "$5" "$2"
		printf 'diff --git a/f%d b/f%d\n--- a/f%d\n+++ b/f%d\n@@ -1 +1,2 @@\n x\n+%s\n' "$2" "$2" "$2" "$2" "$6"
	}
	mkdir -p old/patches new/patches
	mkp old 1 3 'x: One' 'Why one.' one >old/patches/1.patch
	mkp old 2 3 'x: Two' 'Why two.' two >old/patches/2.patch
	mkp old 3 3 'x: Three' 'Why three.' three >old/patches/3.patch
	printf '1.patch\n2.patch\n3.patch\n' >old/series
	mkp new 1 3 'x: One' 'Why one.' one >new/patches/1.patch
	mkp new 2 3 'x: Two' 'Why two, said better.' two >new/patches/2.patch
	mkp new 3 3 'x: Four' 'Why four.' four >new/patches/4.patch
	printf '# comment\n1.patch\n2.patch\n4.patch\n' >new/series
	expect_exit 0 out python3 "$r" diff old new
	assert_eq "$(tr '\t' ' ' <out | tr '\n' '|')" 'same 1 x: One|changed 2 x: Two|new 3 x: Four|dropped 3 x: Three|' "diff"
	# The code of patch 2 changes too: still one 'changed'.
	mkp new 2 3 'x: Two' 'Why two.' 'two, fixed' >new/patches/2.patch
	expect_exit 0 out python3 "$r" diff old new
	assert_contains out $'changed\t2\tx: Two'
	printf 'Subject: [PATCH 0/3] x\n\nIntro.\n\nChanges in v2:\n- patch 2: clearer\n- x: Four is new\n\nA (3):\n  x: One\n' >cover
	expect_exit 1 out python3 "$r" changelog cover 2 old new
	assert_contains out $'MISSING\tdropped\t3\tx: Three'
	assert_contains out "changelog: 1 changed patch(es) not named in 'Changes in v2:'"
	printf 'Subject: x\n\nChanges in v2:\n- patch 2: clearer\n- x: Four is new\n- dropped x:\n  Three (merged)\nChanges in v1:\n' >cover
	expect_exit 0 out python3 "$r" changelog cover 2 old new
	assert_contains out "changelog: every changed patch is named in 'Changes in v2:'"
	expect_exit 1 out python3 "$r" changelog cover 3 old new
	assert_contains out "has no 'Changes in v3:' section"
	expect_exit 2 out python3 "$r" changelog cover two old new
	# The commands: usage, and a version that is not recorded.
	expect_exit 2 out env SERIES_CACHE="$PWD/c" "$SERIES" range-diff 1
	expect_exit 1 out env SERIES_CACHE="$PWD/c" "$SERIES" range-diff v7
	assert_contains out "configs/versions.conf records no v7 (no VERSION_7=COMMIT line)"
}
TESTS+=(test_versions)

# range-diff of a version on another base: each version is applied to its
# own base (configs/base.conf of the version's commit), which joins the
# tree; no commit of this repository is needed, the versions are made
# here in a repository of their own.
test_range_diff_bases() {
	local b r=$PWD/r c1 base_a base_b
	for b in a b; do
		mkdir -p "t$b/linux-source-6.12/include"
		printf 'obj-y += x.o\n' >"t$b/linux-source-6.12/Makefile"
		echo "/* base $b */" >"t$b/linux-source-6.12/include/$b.h"
		printf '*.o\n\n#\n# Debian packaging: ignore everything at the top level, since it isn'"'"'t\n# included in our repository\n#\n/*\n!/debian/\n' \
			>"t$b/linux-source-6.12/.gitignore"
		tar -C "t$b" -cJf "$b.tar.xz" linux-source-6.12
	done
	mkdir -p "$r"
	cp -r "$SERIES_ROOT/scripts" "$SERIES_ROOT/configs" "$r/"
	: >"$r/configs/versions.conf"
	mkbase() { # LETTER: configs/base.conf for the fixture base LETTER
		sed -e "s|^BASE_TARBALL=.*|BASE_TARBALL=$PWD/$1.tar.xz|" \
			-e "s|^BASE_SHA256=.*|BASE_SHA256=$(sha256sum "$1.tar.xz" | cut -d' ' -f1)|" \
			-e "s|^BASE_TAG=.*|BASE_TAG=v-$1|" -e "s|^BASE_VERSION=.*|BASE_VERSION=0.$1|" \
			-e 's|^BASE_COMMIT=.*|BASE_COMMIT=|' "$SERIES_ROOT/configs/base.conf" >"$r/configs/base.conf"
	}
	local env=(env SERIES_CACHE="$PWD/c" SERIES_NO_INSTALL=1)
	local t=$PWD/c/linux
	commit() { GIT_AUTHOR_DATE=2026-01-01T00:00:00Z git -C "$t" -c user.name=T -c user.email=t@t.invalid commit -q -a -s "$@"; }
	# v1: two patches on base a.
	mkbase a
	expect_exit 0 out "${env[@]}" "$r/scripts/series" base
	base_a=$(git -C "$t" rev-parse v-a)
	git -C "$t" checkout -q -b work v-a
	echo 'obj-y += y.o' >>"$t/Makefile"
	commit -m 'kbuild: Add y' -m 'Because.'
	echo 'obj-y += z.o' >>"$t/Makefile"
	commit -m 'kbuild: Add z' -m 'Because.'
	git -C "$t" config branch.work.description $'Cover subject\n\nCover body.'
	expect_exit 0 out "${env[@]}" "$r/scripts/series" export --branch work -o "$r"
	git -C "$r" init -q
	git -C "$r" add -A
	git -C "$r" -c user.name=T -c user.email=t@t.invalid commit -q -m v1
	c1=$(git -C "$r" rev-parse HEAD)
	echo "VERSION_1=$c1" >"$r/configs/versions.conf"
	# v2: the same on base b, the second patch's message changed, the
	# cover letter naming it.
	mkbase b
	expect_exit 0 out "${env[@]}" "$r/scripts/series" base
	base_b=$(git -C "$t" rev-parse v-b)
	git -C "$t" checkout -q -b work2 work
	git -C "$t" -c user.name=T -c user.email=t@t.invalid rebase -q --onto v-b v-a work2
	commit --amend -m 'kbuild: Add z' -m 'Because z.'
	git -C "$t" config branch.work2.description $'Cover subject\n\nCover body.\n\nChanges in v2:\n- rebased onto 0.b\n- kbuild: Add z: a better message'
	expect_exit 0 out "${env[@]}" "$r/scripts/series" export --branch work2 -o "$r"
	git -C "$t" checkout -q v-b
	expect_exit 0 out "${env[@]}" "$r/scripts/series" range-diff v1
	cat out
	assert_contains out "v1 is based on Linux 0.a from Debian"
	assert_contains out "the stack on Linux 0.b from Debian"
	assert_eq "$(grep -cE '^ *1: +[0-9a-f]+ = +1: +[0-9a-f]+ kbuild: Add y' out)" 1 "the same patch"
	assert_eq "$(grep -cE '^ *2: +[0-9a-f]+ ! +2: +[0-9a-f]+ kbuild: Add z' out)" 1 "the changed patch"
	assert_contains out "since v1: 1 changed, 0 new, 0 dropped, 1 same"
	assert_eq "$(git -C "$t" merge-base series-v1 sae-series)" "" "the versions share a base"
	assert_eq "$(git -C "$t" rev-list --max-parents=0 series-v1)" "$base_a" "v1's base"
	assert_eq "$(git -C "$t" rev-list --max-parents=0 sae-series)" "$base_b" "the stack's base"
}
TESTS+=(test_range_diff_bases)

# Two series commands never work in one cache directory at once.
test_cache_lock() {
	mkdir -p c
	# A live holder: its pid and start time in the record.
	sleep 30 &
	local holder=$! start
	start=$(cut -d' ' -f22 "/proc/$holder/stat")
	printf 'pid %s start %s: series bisect, since 00:00:00\n' "$holder" "$start" >c/.series.owner
	expect_exit 1 out env SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	assert_contains out "another series command is using $PWD/c (pid $holder: series bisect, since 00:00:00); wait for it to finish"
	# Commands that leave the tree and the builds alone do not wait.
	expect_exit 0 out env SERIES_CACHE="$PWD/c" "$SERIES" list
	# The same pid with another start time is another process: the
	# holder is gone, and its lock is taken over with a message.
	printf 'pid %s start 1: series bisect, since 00:00:00\n' "$holder" >c/.series.owner
	expect_exit 0 out env SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	assert_contains out "taking over the lock of $PWD/c: pid $holder (series bisect, since 00:00:00) is gone"
	kill "$holder"
	wait "$holder" 2>/dev/null || true
	# A command that ends drops its record; the next one says nothing.
	[ ! -e c/.series.owner ] || fail "the lock record outlived its command: $(cat c/.series.owner)"
	expect_exit 0 out env SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	assert_not_contains out "taking over"
	# The lock is the command's, not its children's: a child left running
	# (git gc --auto after base did) holds no descriptor of the lock file.
	# Here 'cache stats' runs a du that leaves a process behind.
	local tag=series-lock-$$ f
	mkdir -p fakebin
	printf '#!/bin/sh\nsh -c "sleep 30; : %s" >/dev/null 2>&1 &\necho 0\n' "$tag" >fakebin/du
	chmod +x fakebin/du
	expect_exit 0 out env PATH="$PWD/fakebin:$PATH" SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	pgrep -f "$tag" >/dev/null || fail "the fake du left nothing running"
	for f in /proc/[0-9]*/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" != "$PWD/c/.series.lock" ] || fail "$f: a process still has the lock file open"
	done
	expect_exit 0 out env SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	assert_not_contains out "another series command"
	pkill -f "$tag" || true
	# An unknown command takes no lock.
	expect_exit 2 out env SERIES_CACHE="$PWD/d" "$SERIES" frobnicate
	[ ! -e d ] || fail "an unknown command made the cache directory"
}
TESTS+=(test_cache_lock)

# A signal to a series command stops the command at once, children
# included, and drops the lock; SIGKILL, which no trap sees, leaves the
# lock with the process that runs the command while it runs.
test_command_signals() {
	local tag=series-sig-$$ pid rc t0
	mkdir -p c fakebin
	printf '#!/bin/sh\nsh -c "sleep 300; : %s"\necho 0\n' "$tag" >fakebin/du
	chmod +x fakebin/du
	for sig in TERM INT HUP; do
		set -m
		env PATH="$PWD/fakebin:$PATH" SERIES_CACHE="$PWD/c" "$SERIES" cache stats >out 2>&1 &
		pid=$!
		set +m
		for _ in $(seq 50); do pgrep -f "$tag" >/dev/null && break; sleep 0.1; done
		pgrep -f "$tag" >/dev/null || fail "the command did not start"
		t0=$(date +%s)
		kill -"$sig" "$pid"
		rc=0
		wait "$pid" || rc=$?
		[ $(($(date +%s) - t0)) -le 5 ] || fail "SIG$sig took more than 5 s to stop the command"
		[ "$rc" -gt 128 ] || fail "exit status $rc after SIG$sig"
		sleep 0.2
		if pgrep -f "$tag" >/dev/null; then
			pkill -f "$tag"
			fail "a child of the command outlived SIG$sig"
		fi
		[ ! -e c/.series.owner ] || fail "the lock record outlived SIG$sig: $(cat c/.series.owner)"
	done
	# SIGKILL: the record names the process that runs the command.
	set -m
	env PATH="$PWD/fakebin:$PATH" SERIES_CACHE="$PWD/c" "$SERIES" cache stats >out 2>&1 &
	pid=$!
	set +m
	for _ in $(seq 50); do pgrep -f "$tag" >/dev/null && break; sleep 0.1; done
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	expect_exit 1 out env SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	assert_contains out "another series command is using $PWD/c"
	local holder
	holder=$(sed -n 's/^pid \([0-9]*\) .*/\1/p' c/.series.owner)
	[ -n "$holder" ] && [ "$holder" != "$pid" ] || fail "the record names the killed process: $(cat c/.series.owner)"
	kill -TERM -- "-$holder"
	for _ in $(seq 50); do kill -0 "$holder" 2>/dev/null || break; sleep 0.1; done
	pkill -f "$tag" || true
	expect_exit 0 out env SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	assert_contains out "is gone"
}
TESTS+=(test_command_signals)

# "bisect --to" takes a patch number or a patch file, as the reproducers
# of the check units name it ({patch}: the patch's path in the results).
test_bisect_to_patch() {
	local lib=$SERIES_ROOT/scripts/lib
	to() {
		bash -c ". '$lib/common.sh'; . '$lib/bisect.sh'; SERIES_FILE=series; PATCHES=(0001-a.patch 0002-b.patch); step_number \"\$1\"" _ "$1"
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
		. "$SERIES_ROOT/scripts/lib/bisect.sh"
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
		expect_exit 1 out bash -c ". '$SERIES_ROOT/scripts/lib/common.sh'; . '$SERIES_ROOT/scripts/lib/bisect.sh'; SERIES_CHECKS='$PWD/chk' SERIES_CONFIGS='$PWD/cfg'; check_load a"
		assert_contains out "check a: CHECK_CONFIGS names configs/missing.conf, which does not exist"
	)
}
TESTS+=(test_verdict_own_configs)

test_config_verify() {
	(
		. "$SERIES_ROOT/scripts/lib/common.sh"
		. "$SERIES_ROOT/scripts/lib/build.sh"
		mkdir -p cfg/kconfig b
		printf 'CONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_D="x"\n' >cfg/kconfig/f.config
		SERIES_CONFIGS=$PWD/cfg ARCH_FRAGMENTS=f.config ARCH_NAME=t ARCH_BUILD_DIR=$PWD/b
		printf 'CONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_D="x"\n' >b/.config
		config_verify 2>err || fail "a complete .config was rejected: $(cat err)"
		printf 'CONFIG_A=y\nCONFIG_B=y\nCONFIG_C=y\n' >b/.config
		! config_verify 2>err || fail "a .config with dropped options was accepted"
		assert_contains err "t: CONFIG_B=m requested by configs/kconfig/f.config, but .config has CONFIG_B=y"
		assert_contains err "CONFIG_C=n requested"
		assert_contains err "CONFIG_D=\"x\" requested by configs/kconfig/f.config, but .config has CONFIG_D=n"
		assert_not_contains err "CONFIG_A="
	)
}
TESTS+=(test_config_verify)

# An option of a series fragment is verified where the step has it.
test_config_verify_series() {
	(
		. "$SERIES_ROOT/scripts/lib/common.sh"
		. "$SERIES_ROOT/scripts/lib/build.sh"
		mkdir -p cfg/kconfig b
		printf 'CONFIG_A=y\n' >cfg/kconfig/f.config
		printf 'CONFIG_NEW=m\n' >cfg/kconfig/s.config
		SERIES_CONFIGS=$PWD/cfg ARCH_FRAGMENTS=f.config ARCH_SERIES_FRAGMENTS=s.config
		ARCH_NAME=t ARCH_BUILD_DIR=$PWD/b
		printf 'CONFIG_A=y\n' >b/.config
		config_verify 2>err || fail "a step without the series' option was rejected: $(cat err)"
		printf 'CONFIG_A=y\nCONFIG_NEW=m\n' >b/.config
		config_verify 2>err || fail "a step with the series' option was rejected: $(cat err)"
		printf 'CONFIG_A=y\n# CONFIG_NEW is not set\n' >b/.config
		! config_verify 2>err || fail "a step that lost the series' option was accepted"
		assert_contains err "t: CONFIG_NEW=m requested by configs/kconfig/s.config, but .config has CONFIG_NEW=n"
		printf '# CONFIG_A is not set\n' >b/.config
		! config_verify 2>err || fail "a missing option of a plain fragment was accepted"
		assert_contains err "CONFIG_A=y requested by configs/kconfig/f.config"
	)
}
TESTS+=(test_config_verify_series)

# A tiny stand-in for the Debian tarball, with the packaging block.
make_tarball_fixture() {
	mkdir -p t/linux-source-6.12/include
	printf 'obj-y += x.o\n' >t/linux-source-6.12/Makefile
	printf '#\n# Normal rules\n#\n*.o\n\n#\n# Debian packaging: ignore everything at the top level, since it isn'"'"'t\n# included in our repository\n#\n/*\n!/debian/\n' >t/linux-source-6.12/.gitignore
	echo '/* x */' >t/linux-source-6.12/include/x.h
	tar -C t -cJf fake.tar.xz linux-source-6.12
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
	assert_eq "$(git -C c1/linux log -1 --format='%an <%ae> %ad %cn %cd' --date=iso-strict)" \
		"Debian linux-source importer <linux-source@debian.invalid> 2025-11-28T00:00:00+00:00 Debian linux-source importer 2025-11-28T00:00:00+00:00"
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
	echo '/* y */' >t/linux-source-6.12/include/y.h
	tar -C t -cJf other.tar.xz linux-source-6.12
	expect_exit 0 out env SERIES_CACHE="$PWD/c1" SERIES_CONFIGS="$PWD/cfg2" SERIES_TARBALL="$PWD/other.tar.xz" \
		SERIES_ALLOW_TARBALL=1 "$SERIES" base
	assert_eq "$(git -C c1/linux rev-parse HEAD)" "$first" "HEAD after a second base joined"
	git -C c1/linux cat-file -e v0-other:include/y.h || fail "the second base is not in the tree"
	! git -C c1/linux cat-file -e v6.12.118-debian:include/y.h 2>/dev/null || fail "the first base changed"
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
	assert_contains out "could not download linux-source-6.12=6.12.118-1~deb12u1 from bookworm-security"
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
		'. "$1/scripts/lib/tree.sh"' '. "$1/scripts/lib/bisect.sh"' 'series_read' \
		'mapfile -t commits < <(tgit rev-list --reverse "$2..sae-series")' \
		'branch_is_series sae-series "${commits[@]}"' 'echo same' >drive.sh
	expect_exit 0 out env SERIES_CACHE="$PWD/c" SERIES_FILE="$PWD/s3/series" bash drive.sh "$SERIES_ROOT" "$base"
	assert_contains out same
	assert_contains s3/patches/0001-kbuild-Add-y.patch "Subject: [PATCH] [RFC] kbuild: Add y"
}
TESTS+=(test_apply_export_fixture)

# runner_preamble: the start of a driver script that calls the bisect
# runner's functions on the check units in ./checks, the git tree ./tree
# and the result tree ./results; its $1 is the repository.
runner_preamble() {
	cat <<'EOF'
set -euo pipefail
. "$1/scripts/lib/common.sh"
. "$1/scripts/lib/build.sh"
. "$1/scripts/lib/bisect.sh"
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
	# A unit that skips because its tool is missing: never kept.
	printf '#!/bin/sh\necho run >>"$RUNS"\necho "SKIP: qemu-system-x missing (Debian package qemu-system-y)" >"$SERIES_CHECK_RESULT_DIR/summary"\nexit 4\n' | fake_unit
	: >runs
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	assert_contains out "status=skip"
	assert_eq "$(wc -l <runs)" 2 "runs of a unit that skips for a missing tool"
	# Other skips are verdicts, kept and reused.
	printf '#!/bin/sh\necho run >>"$RUNS"\necho "SKIP: no header at this step" >"$SERIES_CHECK_RESULT_DIR/summary"\nexit 4\n' | fake_unit
	: >runs
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
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
		printf '%s\n' 'SERIES_BRANCH=sae-series SERIES_FILE=$SERIES_ROOT/series' \
			'repro_command fake "" c1 /r/0002-b.patch sae-series' \
			'SERIES_FILE="/w/my series"' \
			'repro_command fake "" c1 /r/0002-b.patch "odd \$(name)"'
	} >repro.sh
	expect_exit 0 out bash repro.sh "$SERIES_ROOT"
	assert_eq "$(sed -n 1p out)" "scripts/series bisect --check fake --to /r/0002-b.patch" "default stack"
	assert_eq "$(sed -n 2p out)" 'SERIES_FILE=/w/my\ series scripts/series bisect --branch odd\ \$\(name\) --check fake --to /r/0002-b.patch' "another stack"
}
TESTS+=(test_repro_command)

# An interrupt is not a verdict: the running check's processes are
# stopped, nothing is kept, the walk exits 130 and says so.
test_interrupt() {
	local tag=series-interrupt-$$ sig pid rc
	# A check whose child outlives a plain kill of the check's shell.
	printf '#!/bin/sh\nsh -c "sleep 300; : %s" &\nwait\necho s >"$SERIES_CHECK_RESULT_DIR/summary"\nexit 1\n' "$tag" | fake_unit
	for sig in TERM INT; do
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

test_affected_arches() {
	cat >drive.sh <<'EOF2'
set -euo pipefail
. "$1/scripts/lib/common.sh"
. "$1/scripts/lib/build.sh"
. "$1/scripts/lib/bisect.sh"
SELECTED_ARCHES=()
affected_rules_load
t() { printf '%s\n' "${@:2}" >paths; echo "$1: [$(affected_arches paths | tr '\n' ' ')]"; }
t generic drivers/vfio/vfio_main.c
t other-arches arch/riscv/kvm/main.c arch/mips/Kconfig
t s390-only arch/s390/kvm/kvm-s390.c arch/s390/kvm/gmap.h
t arm64-shared include/kvm/arm64/kvm_arm.h MAINTAINERS
t docs Documentation/virt/kvm/api.rst MAINTAINERS tools/include/uapi/linux/kvm.h
t arm64-and-generic arch/arm64/kvm/arm.c include/linux/kvm_host.h
SELECTED_ARCHES=(riscv64)
t selected drivers/vfio/vfio_main.c
SELECTED_ARCHES=()
SERIES_ARCHES="powerpc x86_64"
t override Documentation/x.rst
EOF2
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	cat out
	assert_contains out "generic: [arm64 s390 x86_64 ]"
	assert_contains out "other-arches: [mips riscv64 ]"
	assert_contains out "s390-only: [s390 ]"
	assert_contains out "arm64-shared: [arm64 s390 ]"
	assert_contains out "docs: []"
	assert_contains out "arm64-and-generic: [arm64 s390 x86_64 ]"
	assert_contains out "selected: []"
	assert_contains out "override: [powerpc x86_64 ]"
	# The rules are data; a bad one is named with its file and line.
	cp -r "$SERIES_CONFIGS" cfg
	printf 'arch/sparc/*  sparc64\n' >>cfg/affected.conf
	expect_exit 1 out env SERIES_CONFIGS="$PWD/cfg" bash drive.sh "$SERIES_ROOT"
	assert_contains out "cfg/affected.conf:$(wc -l <cfg/affected.conf): unknown arch 'sparc64'"
	cp "$SERIES_CONFIGS/affected.conf" cfg/affected.conf
	printf 'lonely/path\n' >>cfg/affected.conf
	expect_exit 1 out env SERIES_CONFIGS="$PWD/cfg" bash drive.sh "$SERIES_ROOT"
	assert_contains out "cfg/affected.conf:$(wc -l <cfg/affected.conf): 'lonely/path' names no arch"
}
TESTS+=(test_affected_arches)

# The CI pipelines of ci/: valid YAML by yamllint, and a matrix that
# the tool can run: one bisect job per shard K/N with N the number of
# jobs, a merge job after them, and only subcommands the tool has.
test_ci_pipelines() {
	local py=''
	if ! command -v yamllint >/dev/null 2>&1; then
		{ [ "$(id -u)" -eq 0 ] && [ "${SERIES_NO_INSTALL:-0}" != 1 ] && apt_install yamllint; } ||
			skip "yamllint not installed (Debian package yamllint)"
	fi
	yamllint -f parsable -d '{extends: default, rules: {line-length: {max: 120}, document-start: disable, truthy: {check-keys: false}}}' \
		"$SERIES_ROOT"/ci/*.yml ||
		fail "yamllint reports problems in ci/"
	# yamllint's own Python has the YAML parser (Debian python3-yaml).
	for py in /usr/bin/python3 python3; do
		"$py" -c 'import yaml' 2>/dev/null && break
		py=''
	done
	[ -n "$py" ] || skip "no Python with the yaml module (Debian package python3-yaml)"
	"$SERIES" help >help.txt
	"$py" - "$SERIES_ROOT/ci" help.txt <<'EOF' || fail "the CI pipelines"
import os, re, sys, yaml
ci, helptext = sys.argv[1], open(sys.argv[2]).read()
commands = set(re.findall(r"^  ([a-z]+)\b", helptext, re.M))
def scripts(job):
    steps = job.get("steps", [])
    lines = [s["run"] for s in steps if "run" in s] + job.get("script", [])
    return "\n".join(lines)
def check_commands(name, text):
    for cmd in re.findall(r"scripts/series (\w+)", text):
        assert cmd in commands, f"{name}: 'scripts/series {cmd}' is not a subcommand"

gh = yaml.safe_load(open(os.path.join(ci, "github-actions.yml")))
jobs = gh["jobs"]
n = int(gh["env"]["SERIES_SHARDS"])
assert jobs["bisect"]["strategy"]["matrix"]["shard"] == list(range(1, n + 1)), "github: shards"
assert '--shard "${{ matrix.shard }}/$SERIES_SHARDS"' in scripts(jobs["bisect"]), "github: --shard"
assert jobs["merge"]["needs"] == "bisect", "github: merge needs bisect"
assert "report --merge" in scripts(jobs["merge"]), "github: merge"
uploads = [s for s in jobs["bisect"]["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
assert uploads and uploads[0]["with"]["name"] == "results-${{ matrix.shard }}", "github: artifacts"
for name, job in jobs.items():
    check_commands(f"github {name}", scripts(job))

gl = yaml.safe_load(open(os.path.join(ci, "gitlab-ci.yml")))
stages = gl["stages"]
for name, job in gl.items():
    if name in ("stages", "default", "variables"):
        continue
    assert job["stage"] in stages, f"gitlab {name}: unknown stage"
    check_commands(f"gitlab {name}", scripts(job))
b = gl["bisect"]
assert isinstance(b["parallel"], int) and b["parallel"] >= 2, "gitlab: parallel"
assert '--shard "$CI_NODE_INDEX/$CI_NODE_TOTAL"' in scripts(b), "gitlab: --shard"
assert "bisect" in gl["merge"]["needs"] and "report --merge" in scripts(gl["merge"]), "gitlab: merge"
assert stages.index(gl["merge"]["stage"]) > stages.index(b["stage"]), "gitlab: merge runs after bisect"
print(f"github: {n} shards + merge; gitlab: {b['parallel']} shards + merge")
EOF
}
TESTS+=(test_ci_pipelines)

test_shellcheck() {
	if ! command -v shellcheck >/dev/null 2>&1; then
		[ "$(id -u)" -eq 0 ] && apt_install shellcheck || skip "shellcheck not installed (Debian package shellcheck)"
	fi
	cd "$SERIES_ROOT" || exit
	shellcheck -x -S warning scripts/series scripts/lib/*.sh scripts/mail/*.sh scripts/checks/*/run \
		scripts/tests/run scripts/tests/*.sh .ci/run || fail "shellcheck reports warnings"
}
TESTS+=(test_shellcheck)

test_need_tools() {
	expect_exit 2 out env SERIES_NO_INSTALL=1 bash -c \
		'. "$1/scripts/lib/common.sh"; need_tools sh:dash /no/such/header.h:libfoo-dev no-such-cmd-xyz:bar' _ "$SERIES_ROOT"
	assert_contains out "missing tool(s): /no/such/header.h no-such-cmd-xyz"
	assert_contains out "apt-get install libfoo-dev bar"
	expect_exit 0 out env SERIES_NO_INSTALL=1 bash -c \
		'. "$1/scripts/lib/common.sh"; need_tools sh:dash /bin/sh:dash' _ "$SERIES_ROOT"
}
TESTS+=(test_need_tools)
