# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of the check units' helpers on fixtures: warning sets,
# declarations, boot logs, the MAINTAINERS fragment, Kconfig selections,
# symbols across modules, moved code and KUnit results.
# Each test runs in its own empty directory ($TEST_WORK) in a subshell.

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
	local D="$SERIES_ROOT/scripts/checks/declared-once/decl-once.py"
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
	# One patch: what it changes must be in the fragment, whatever the
	# rest of the stack does; a wrong line is blamed on it.
	printf 'Intro text\nmore text\n\nARM64 PORT\nM:\tA <a@x>\nF:\tarch/arm64/\nF:\tinclude/arch/arm64/\n\nKVM/arm64\nM:\tB <b@x>\nF:\tarch/arm64/kvm/\nF:\told/path/\n\nOTHER\nF:\tother/\n' >step1
	expect_exit 0 out python3 "$C" --patch base step1 frag
	assert_contains out "the patch changes 1 entry (1 lines added, 0 removed); 0 not in the fragment"
	expect_exit 0 out python3 "$C" --patch base base frag
	assert_contains out "the patch changes 0 entries"
	sed 's|include/arch/arm64/|include/arch/arm46/|' step1 >step1.typo
	expect_exit 1 out python3 "$C" --patch base step1.typo frag
	assert_contains out "ARM64 PORT: the patch adds 'F:	include/arch/arm46/', the fragment does not"
	sed '/^F:\tother\/$/d' step1 >step1.rm
	expect_exit 1 out python3 "$C" --patch base step1.rm frag
	assert_contains out "OTHER: the patch removes 'F:	other/', the fragment does not"
}
TESTS+=(test_maintainers_fragment)

# kconfig-selects.py: what one Kconfig entry selects beyond another.
test_kconfig_selects() {
	local C="$SERIES_ROOT/scripts/checks/kconfig-selects/kconfig-selects.py"
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

# The kconfig-selects unit on a tree with arch/s390/kvm/Kconfig: a
# selection only KVM_ARM64 makes fails and names it, none passes, a step
# without KVM_ARM64 skips, and a file in which KVM selects no KVM_COMMON
# (the parse would see nothing) fails.
test_kconfig_selects_unit() {
	local U="$SERIES_ROOT/scripts/checks/kconfig-selects/run" k=arch/s390/kvm/Kconfig
	mkdir -p arch/s390/kvm res
	printf '%s\n' 'config KVM' '	tristate "KVM"' '	select KVM_COMMON' '	select HAVE_KVM_MSI' '' >"$k"
	expect_exit 4 out env SERIES_CHECK_RESULT_DIR="$PWD/res" "$U"
	assert_eq "$(cat res/summary)" "SKIP: no config KVM_ARM64 in $k at this step" "summary without KVM_ARM64"
	printf '%s\n' 'config KVM_ARM64' '	tristate "arm64"' '	select KVM_COMMON' '	help' \
		'	  select HAVE_KVM_READONLY_MEM: help text' >>"$k"
	expect_exit 0 out env SERIES_CHECK_RESULT_DIR="$PWD/res" "$U"
	assert_eq "$(cat res/summary)" "KVM_ARM64 selects nothing that KVM does not" "summary of a subset"
	sed -i 's/^\thelp$/\tselect HAVE_KVM_READONLY_MEM\n\thelp/' "$k"
	expect_exit 1 out env SERIES_CHECK_RESULT_DIR="$PWD/res" "$U"
	assert_eq "$(cat res/summary)" "KVM_ARM64 selects what KVM does not: HAVE_KVM_READONLY_MEM" "summary of an extra selection"
	sed -i '/^\tselect KVM_COMMON$/d' "$k"
	expect_exit 1 out env SERIES_CHECK_RESULT_DIR="$PWD/res" "$U"
	assert_contains res/summary "KVM selects no KVM_COMMON"
}
TESTS+=(test_kconfig_selects_unit)

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
	# nm separates the members of an archive with blank lines and
	# "member:" headers, as in a directory's built-in.a.
	rm -f user.a && ar rcsT user.a clean.o user.o
	expect_exit 1 out "$C" nm user.a owner.a
	assert_eq "$(cat out)" shared "symbols of a thin archive used by one"
	expect_exit 0 out "$C" nm owner.o user.o
	expect_exit 2 out "$C" nm user.o missing.o
	assert_contains out "nm failed"
	expect_exit 2 out "$C" nm user.o
	assert_contains out "usage: crossrefs"
}
TESTS+=(test_coexist_crossrefs)

# trace-systems' tracesystems: the trace systems whose events an object,
# archive or module defines, by the name strings <trace/stages/init.h>
# makes (str__VAR__trace_system_name).
test_trace_systems() {
	local T="$SERIES_ROOT/scripts/checks/trace-systems/tracesystems"
	need_tool gcc gcc
	need_tool nm binutils
	need_tool ar binutils
	printf '%s\n' 'static const char str__kvm__trace_system_name[] = "kvm";' \
		'const char *const a[] = { str__kvm__trace_system_name };' \
		'const char str__kvm_s390__trace_system_name[] = "kvm-s390";' >a.c
	printf '%s\n' 'static const char str__kvm__trace_system_name[] = "kvm";' \
		'const char *const b[] = { str__kvm__trace_system_name };' \
		'int str__kvm__trace_system_names;' >b.c
	printf '%s\n' 'int untraced;' >c.c
	gcc -c a.c b.c c.c
	expect_exit 0 out "$T" nm a.o
	assert_eq "$(paste -sd' ' out)" "kvm kvm_s390" "trace systems of a.o"
	# An archive of two members: each system once; a symbol that only
	# starts like a system's name is none.
	rm -f ab.a && ar rcsT ab.a a.o b.o
	expect_exit 0 out "$T" nm ab.a
	assert_eq "$(paste -sd' ' out)" "kvm kvm_s390" "trace systems of a thin archive"
	expect_exit 0 out "$T" nm c.o
	[ ! -s out ] || fail "trace systems of an object without events: $(cat out)"
	expect_exit 2 out "$T" nm missing.o
	assert_contains out "nm failed"
	expect_exit 2 out "$T" nm
	assert_contains out "usage: tracesystems"
}
TESTS+=(test_trace_systems)

# sae-opcodes' dis-defs.py: instructions found in their major opcode's
# range of a disassembler table, short and long names, and what it
# says when one is missing, misplaced or differs.
test_sae_opcodes_table() {
	local D="$SERIES_ROOT/scripts/checks/sae-opcodes/dis-defs.py"
	cat >defs.h <<'EOF2'
#define LONG_INSN_INITIALIZER { \
	[LONG_INSN_STIASRM] = { 's', 't', 'i', 'a', 's', 'r', 'm', }, \
}
#define OPCODE_TABLE_INITIALIZER { \
	[   0] = { .opfrag = 0xa5, .format = INSTR_RR_RR, .name =  { 'x', } }, \
	[   1] = { .opfrag = 0xa5, .format = INSTR_RRE_R0, .name =  { 's', 'a', 'e', } }, \
	[   2] = { .opfrag = 0xa7, .format = INSTR_RRE_R0, .offset = LONG_INSN_STIASRM }, \
}
#define OPCODE_OFFSET_INITIALIZER { \
	{ .opcode = 0xa7, .mask = 0x0f, .byte = 1, .offset = 0, .count = 1 }, \
	{ .opcode = 0xb9, .mask = 0xff, .byte = 1, .offset = 1, .count = 2 }, \
}
EOF2
	expect_exit 0 out python3 "$D" defs.h b9a5:sae:RRE_R0 b9a7:stiasrm:RRE_R0
	assert_eq "$(paste -sd' ' out)" "b9a5 sae RRE_R0 b9a7 stiasrm RRE_R0" "found"
	expect_exit 1 out python3 "$D" defs.h b9a6:lasrm:RRE_R0 a7a7:stiasrm:RRE_R0 b9a5:sae:RRE_RR b2a5:sae:RRE_R0
	assert_contains out "b9a6 lasrm: not in the table of major opcode 0xb9"
	assert_contains out "a7a7 stiasrm: not in the table of major opcode 0xa7"
	assert_contains out "b9a5 sae: the table has sae RRE_R0, not sae RRE_RR"
	assert_contains out "b2a5 sae: no table of major opcode 0xb2"
	echo '/* nothing */' >empty.h
	expect_exit 2 out python3 "$D" empty.h b9a5:sae:RRE_R0
	assert_contains out "no opcode table entries"
	expect_exit 2 out python3 "$D" defs.h b9a:sae:RRE_R0
	assert_contains out "OPCODE is four hex digits"
}
TESTS+=(test_sae_opcodes_table)

# sae64a-code's judge: objdump's disassembly of __sae64a must hold SAE,
# save and restore r6-r14 and a0-a15 and clear each of r0-r5.
test_sae64a_judge() {
	local J="$SERIES_ROOT/scripts/checks/sae64a-code/judge" r
	{
		echo '0000000000000000 <__sae64a>:'
		echo '   0:	eb 6e f0 30 00 24 	stmg	%r6,%r14,48(%r15)'
		echo '   6:	9b 0f f0 80       	stam	%a0,%a15,128(%r15)'
		echo '   a:	b9 a5 00 20       	.long	0xb9a50020'
		echo '   e:	9a 0f f0 80       	lam	%a0,%a15,128(%r15)'
		for r in 0 1 2 3 4 5; do
			printf '  1%d:	b9 82 00 %d%d       	xgr	%%r%d,%%r%d\n' "$r" "$r" "$r" "$r" "$r"
		done
		echo '  30:	eb 6e f0 30 00 04 	lmg	%r6,%r14,48(%r15)'
	} >good
	expect_exit 0 out "$J" good 'b9 a5 00 20'
	[ ! -s out ] || fail "findings in a good __sae64a: $(cat out)"
	# xgr %r3,%r4 clears nothing; no lam; another instruction's bytes.
	sed -e 's/xgr	%r3,%r3/xgr	%r3,%r4/' -e '/lam	/d' good >bad
	expect_exit 1 out "$J" bad 'b9 a5 00 21'
	assert_contains out "no instruction b9 a5 00 21"
	assert_contains out "no lam %a0,%a15,"
	assert_contains out "r0-r5 not all cleared (cleared: %r0 %r1 %r2 %r4 %r5)"
	# xgr %r1,%r10 is not %r1 cleared.
	sed 's/xgr	%r1,%r1/xgr	%r1,%r10/' good >bad2
	expect_exit 1 out "$J" bad2 'b9 a5 00 20'
	assert_contains out "cleared: %r0 %r2 %r3 %r4 %r5"
	expect_exit 2 out "$J" missing 'b9 a5 00 20'
	assert_contains out "usage: judge"
}
TESTS+=(test_sae64a_judge)

# checkpatch reports on moved lines are listed, not counted.
test_checkpatch_moved() {
	local M="$SERIES_ROOT/scripts/checks/checkpatch/checkpatch-moved.py"
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

# pure-move's comparison of two key maps (keymap.py's): the same keys
# pass, an object renamed with its .c file is compared with the old one;
# a changed key fails naming the object and the first line where the
# texts mcache keeps differ; an object one side lacks, or compiled
# without a key, fails.
test_pure_move_keys() {
	local C="$SERIES_ROOT/scripts/checks/pure-move/compare-keys.py" k1 k2 kr
	mkdir texts
	keep() { # KEY TEXT: the text mcache keeps for KEY
		mkdir -p "texts/${1:0:2}"
		printf '%s' "$2" | python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read()))' \
			>"texts/${1:0:2}/${1:2}.i.z"
	}
	k1=aa11 k2=aa22 kr=bb33
	keep "$k1" $'int a;\nint x = 1;\n'
	keep "$k2" $'int a;\nint x = 2;\n'
	printf '# complete\nkernel/a.o %s\narch/x/kvm/m.o %s\n' "$k1" "$kr" >parent.map
	printf 'M\tinclude/h.h\n' >changes
	expect_exit 0 out python3 "$C" --arch x --changes changes --texts texts parent.map parent.map
	assert_contains out "ok x: 2 object(s), 0 renamed"
	# The moved .c file: its object has the old one's key.
	printf '# complete\nkernel/a.o %s\nvirt/kvm/x/m.o %s\n' "$k1" "$kr" >step.map
	printf 'R100\tarch/x/kvm/m.c\tvirt/kvm/x/m.c\n' >changes
	expect_exit 0 out python3 "$C" --arch x --changes changes --texts texts parent.map step.map
	assert_contains out "ok x: 2 object(s), 1 renamed"
	# Without the rename, the object is new at the step and gone at the parent.
	printf 'M\tvirt/kvm/x/m.c\n' >changes
	expect_exit 1 out python3 "$C" --arch x --changes changes --texts texts parent.map step.map
	assert_contains out "FAIL x: virt/kvm/x/m.o: built at the step, not at the parent (2 object(s) differ)"
	assert_contains out "differs arch/x/kvm/m.o: built at the parent, not at the step"
	# One token changed.
	printf '# complete\nkernel/a.o %s\narch/x/kvm/m.o %s\n' "$k2" "$kr" >step.map
	expect_exit 1 out python3 "$C" --arch x --changes changes --texts texts parent.map step.map
	assert_contains out 'FAIL x: kernel/a.o: text line 2: parent "int x = 1;", step "int x = 2;" (1 object(s) differ)'
	rm -r "texts/${k2:0:2}"
	expect_exit 1 out python3 "$C" --arch x --changes changes --texts texts parent.map step.map
	assert_contains out "FAIL x: kernel/a.o: the texts are not kept (texts)"
	# Compiled without a key.
	printf '# complete\nkernel/a.o ?\narch/x/kvm/m.o %s\n' "$kr" >step.map
	expect_exit 1 out python3 "$C" --arch x --changes changes --texts texts parent.map step.map
	assert_contains out "FAIL x: kernel/a.o: compiled without a key at the step"
	# The same keys, but an object no longer linked.
	printf '# complete\nkernel/a.o %s linked\narch/x/kvm/m.o %s linked\n' "$k1" "$kr" >parent.map
	printf '# complete\nkernel/a.o %s linked\narch/x/kvm/m.o %s\n' "$k1" "$kr" >step.map
	expect_exit 1 out python3 "$C" --arch x --changes changes --texts texts parent.map step.map
	assert_contains out "FAIL x: arch/x/kvm/m.o: linked at the parent only (vmlinux.a or a module)"
	echo 'not a map' >bad.map
	expect_exit 1 out python3 "$C" --arch x --changes changes --texts texts parent.map bad.map
	assert_contains out "FAIL x: bad.map: not a key map"
}
TESTS+=(test_pure_move_keys)
