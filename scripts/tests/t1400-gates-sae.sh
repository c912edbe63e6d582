# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The gates of the SAE part: __sae64a's code, the two KVM modules built
# in together, the module load and the KUnit suites (its instructions
# are the check unit sae-opcodes).
# They run on the real kernel tree in the cache.

# The object code of __sae64a at the tip issues SAE on r2 with the access
# registers and the kernel's r6-r14 saved around it and r0-r5 cleared
# after it.
test_gate_sae64a_code() {
	gate_config
	need_symbol_in_stack arch/s390/kernel/entry.S __sae64a
	arch_load s390
	arch_need_toolchain
	local i obj=$ARCH_BUILD_DIR/arch/s390/kernel/entry.o
	# __sae64a is built with kvm-arm64 only, an option of the tip.
	build_fresh_config s390 "$SERIES_BRANCH"
	expect_exit 0 dis "${ARCH_CROSS_COMPILE}objdump" -d --disassemble=__sae64a "$obj"
	cat dis
	# binutils does not know SAE: the instruction shows as its bytes.
	grep -Eq '^ +[0-9a-f]+:\s+b9 a5 00 20\s' dis || fail "no 'sae %r2' (b9a50020) in __sae64a"
	for i in 'stmg\s+%r6,%r14,' 'stam\s+%a0,%a15,' 'lam\s+%a0,%a15,' 'lmg\s+%r6,%r14,' \
		'xgr\s+%r0,%r0' 'xgr\s+%r5,%r5'; do
		grep -Eq "$i" dis || fail "__sae64a lacks $i"
	done
	[ "$(grep -Ec 'xgr\s+%r([0-5]),%r\1' dis)" = 6 ] || fail "__sae64a does not clear r0-r5"
}
TESTS+=(test_gate_sae64a_code)

# Two KVM modules built in (configs/coexist.conf): without the step that
# makes the symbols of kvm-arm64's copy of the common KVM code local, the
# link of vmlinux finds them twice.  The arch's own build (both modules
# as modules) does not see it; the coexistence gate, which runs at the
# tip (CHECK_STEPS=last), does.
test_fault_coexist_builtin() {
	local file=arch/s390/kvm/arm64/Makefile
	fault_at_tip fault-coexist "$file" \
		$'\t\t     $(OBJCOPY) --localize-symbols=$@.syms $< $@' \
		$'\t\t     $(OBJCOPY) $< $@' \
		kvm-coexist 's390: y,y: build failed: .*multiple definition of'
	assert_eq "$(cat "$TEST_OUT/fault-coexist/$(printf %04d "$(last_patch_touching "$file")")/s390/build/status")" pass \
		"the arch's own build passes with the fault"
}
TESTS+=(test_fault_coexist_builtin)

# The module-load gate (configs/module-load.conf): a kvm-arm64 that
# refuses to load with another errno than the one it documents.
test_fault_module_load_errno() {
	fault_at_tip fault-modload arch/s390/kvm/arm64/arm64.c \
		$'\t\tpr_info("SAE is not available\\n");\n\t\treturn -ENODEV;' \
		$'\t\tpr_info("SAE is not available\\n");\n\t\treturn -ENXIO;' \
		module-load 's390: load 1 of /kvm-arm64.ko fails with errno 19 (got 6)'
}
TESTS+=(test_fault_module_load_errno)

# The KUnit gate (configs/kunit.conf): a vCPU save area that does not
# point back to its control block fails the suite's test of the links.
test_fault_kunit_sae_links() {
	fault_at_tip fault-kunit arch/s390/kvm/arm64/arm64.c \
		$'\tcb->save_area = virt_to_phys(sa);\n\tsa->sdo = virt_to_phys(cb);' \
		$'\tcb->save_area = virt_to_phys(sa);' \
		kunit 's390: kvm-arm64: 2 of [0-9]* tests did not pass: sae_alloc_test FAIL, vcpu_reset_test FAIL'
}
TESTS+=(test_fault_kunit_sae_links)
