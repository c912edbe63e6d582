# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Faults that the gates of the SAE part must find: the two KVM modules
# built in together, the module load and the KUnit suites.  (The SAE
# instructions and __sae64a's code are the check units sae-opcodes and
# sae64a-code.)
# They run on the real kernel tree in the cache.

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
