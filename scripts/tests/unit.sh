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
	need_tool gcc gcc
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

# kconfig-selects.py: what one Kconfig entry selects beyond another.
test_kconfig_selects() {
	local C="$SERIES_ROOT/scripts/tests/kconfig-selects.py"
	printf '%s\n' 'config KVM' '	tristate "KVM"' '	select KVM_COMMON' '	select HAVE_KVM_IRQCHIP' '' \
		'config KVM_ARM64' '	tristate "arm64"' '	select HAVE_KVM_IRQCHIP' '	select KVM_COMMON' '	help' \
		'	  select NOTHING: help text, not a selection.' '' 'config LAST' '	bool' >K
	expect_exit 0 out python3 "$C" K KVM_ARM64 KVM
	[ ! -s out ] || fail "output for a subset: $(cat out)"
	printf '%s\n' '	select HAVE_KVM_READONLY_MEM' >>K
	sed -i 's/^config LAST$/config KVM_X/' K
	printf '%s\n' '' 'config KVM_Y' '	select KVM_COMMON' '	select HAVE_KVM_READONLY_MEM' '	select HAVE_KVM_MSI' >>K
	expect_exit 1 out python3 "$C" K KVM_Y KVM
	assert_eq "$(paste -sd' ' out)" "HAVE_KVM_MSI HAVE_KVM_READONLY_MEM" "extra selections"
	expect_exit 2 out python3 "$C" K KVM_Z KVM
	assert_contains out "no 'config KVM_Z' entry"
}
TESTS+=(test_kconfig_selects)

# kvm-coexist's crossrefs: the symbols one object, archive or module
# leaves undefined and another defines.
test_coexist_crossrefs() {
	local C="$SERIES_ROOT/scripts/checks/kvm-coexist/crossrefs"
	need_tool gcc gcc
	need_tool nm binutils
	need_tool ar binutils
	printf '%s\n' 'int own(void) { return 1; }' 'int shared(void) { return 2; }' \
		'static int local(void) { return 3; }' 'int (*keep)(void) = local;' >owner.c
	printf '%s\n' 'int shared(void);' 'int local(void);' 'int ext(void);' \
		'int user(void) { return shared() + local() + ext(); }' >user.c
	printf '%s\n' 'int ext(void);' 'int clean(void) { return ext(); }' >clean.c
	gcc -c owner.c user.c clean.c
	rm -f owner.a && ar rcsT owner.a owner.o
	expect_exit 1 out "$C" nm user.o owner.o
	assert_eq "$(cat out)" shared "symbols of owner.o used by user.o"
	expect_exit 1 out "$C" nm user.o owner.a
	assert_eq "$(cat out)" shared "symbols of a thin archive used"
	expect_exit 0 out "$C" nm clean.o owner.a
	[ ! -s out ] || fail "output for no shared symbol: $(cat out)"
	expect_exit 0 out "$C" nm owner.o user.o
	expect_exit 2 out "$C" nm user.o missing.o
	assert_contains out "nm failed"
	expect_exit 2 out "$C" nm user.o
	assert_contains out "usage: crossrefs"
}
TESTS+=(test_coexist_crossrefs)

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
	# The counted report comes first, for the unit's summary.
	[ "$(grep -m1 -E '(ERROR|WARNING|CHECK):' out)" = "a.c:9: ERROR:FILE_PATH_CHANGES: made-up error of an accepted type" ] ||
		fail "the counted report is not the first one"
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

# The kernel-doc unit on a two-commit git tree with stand-ins for
# scripts/kernel-doc: Python's and Perl's message forms give the same
# verdict, a warning printed twice is one, and a kernel-doc that cannot
# run (a traceback, an exit status) fails instead of passing.
test_kernel_doc_unit() {
	local r=$SERIES_ROOT/scripts/checks/kernel-doc/run
	mkdir -p tree/scripts res
	printf 'int f(int a);\n' >tree/x.c
	tgit_t() { git -C tree -c user.name=t -c user.email=t@example.org "$@"; }
	# kd LANG BODY: scripts/kernel-doc, a LANG script that runs BODY (sh).
	kd() {
		printf '#!/usr/bin/env %s\n' "$1" >tree/scripts/kernel-doc
		printf '%s\n' "$2" >tree/kd.sh
	}
	run_kd() {
		(cd tree && SERIES_CHECK_RESULT_DIR=$PWD/../res SERIES_CHECK_CHANGES=$PWD/../changes \
			SERIES_CHECK_PARENT=HEAD~1 PATH=$PWD/../bin:$PATH bash "$r")
	}
	# The interpreters run the stand-in's body, whatever its language.
	mkdir -p bin
	printf '#!/bin/sh\nshift; exec sh "$(dirname "$0")/../tree/kd.sh" "$@"\n' >bin/python3
	cp bin/python3 bin/perl
	chmod +x bin/python3 bin/perl
	tgit_t init -q && tgit_t add x.c && tgit_t commit -qm base
	printf 'int f(int b);\n' >tree/x.c
	tgit_t commit -qam step
	printf 'M\tx.c\n' >changes
	# At the step (x.c says b), one warning, printed twice.
	kd python3 'grep -q "int b" "$2" || exit 0; for i in 1 2; do echo "Warning: $2:1 function parameter '"'"'b'"'"' not described in '"'"'f'"'"'" >&2; done'
	expect_exit 1 out run_kd
	assert_eq "$(cat res/summary)" "1 new warning(s): x.c: warning: function parameter 'b' not described in 'f'" "python form"
	kd perl 'grep -q "int b" "$2" || exit 0; echo "$2:1: warning: Function parameter or struct member '"'"'b'"'"' not described in '"'"'f'"'"'" >&2'
	expect_exit 1 out run_kd
	assert_contains res/summary "1 new warning(s): x.c: warning: Function parameter or struct member 'b'"
	kd python3 'exit 0'
	expect_exit 0 out run_kd
	assert_contains res/summary "no new warning on 1 touched C file(s)"
	kd python3 'echo "Traceback (most recent call last):" >&2'
	expect_exit 1 out run_kd
	assert_eq "$(cat res/summary)" "kernel-doc printed a line this check does not understand: Traceback (most recent call last):" "traceback"
	kd python3 'exit 3'
	expect_exit 1 out run_kd
	assert_eq "$(cat res/summary)" "kernel-doc exited with status 3 on x.c" "exit status"
	kd bash 'exit 0'
	expect_exit 1 out run_kd
	assert_contains res/summary "scripts/kernel-doc: no known interpreter in its first line"
}
TESTS+=(test_kernel_doc_unit)

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

test_affected_arches() {
	cat >drive.sh <<'EOF2'
set -euo pipefail
. "$1/scripts/lib/common.sh"
. "$1/scripts/lib/build.sh"
. "$1/scripts/lib/arches.sh"
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
	need_tool yamllint yamllint
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
	need_tool shellcheck shellcheck
	cd "$SERIES_ROOT" || exit
	shellcheck -x -S warning scripts/series scripts/lib/*.sh scripts/cmd/*.sh scripts/mail/*.sh scripts/checks/*/run \
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

