# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Fault injection in the shared headers: the foreign layout, a header
# that is not self-contained, a declaration made twice.
# They run on the real kernel tree in the cache.

test_fault_foreign_layout() {
	gate_config
	local res=$TEST_OUT/fault-foreign n file=include/uapi/arch/arm64/linux/kvm.h
	# With a plain unsigned __int128 instead of the 16-byte aligned
	# __u128, the foreign user_fpsimd_state is only 8-byte aligned on s390
	# and moves kvm_regs.fp_regs.
	n=$(last_patch_touching "$file")
	fault_bisect fault-foreign "$n" "$file" \
		$'\t__u128\t\tvregs[32];\n' \
		$'\tunsigned __int128\tvregs[32];\n' \
		--check abi-arm64 --check abi-arm64-foreign
	grep -q "^first bad: patch $n .* on all: abi-arm64-foreign: s390 sees a different arm64 ABI: struct kvm_regs: native 'struct user_fpsimd_state fp_regs; /\* 336 528 \*/', foreign 'struct user_fpsimd_state fp_regs; /\* 328 528 \*/'" out ||
		fail "the foreign layout change is not attributed to patch $n"
	assert_eq "$(cat "$res/$(printf %04d "$n")/all/abi-arm64/status")" pass "the native ABI at patch $n"
	assert_contains "$res/$(printf %04d "$n")/all/abi-arm64-foreign/log" "KVM_GET_REGS: native 2204151425, foreign 2203627137"
}
TESTS+=(test_fault_foreign_layout)

test_fault_header_not_self_contained() {
	gate_config
	local res=$TEST_OUT/fault-header n file=include/arch/arm64/asm/esr.h
	# A shared header that reaches for an arm64-only header compiles on
	# arm64 but not on s390.
	n=$(last_patch_touching "$file")
	# The check compiles with the flags of the arches' last builds.
	fault_bisect fault-header "$n" "$file" \
		$'#include <arch/arm64/asm/brk-imm.h>\n' \
		$'#include <arch/arm64/asm/brk-imm.h>\n#include <asm/memory.h>\n' \
		--check headers
	grep -q "^first bad: patch $n .* on all: headers: not self-contained: s390: arch/arm64/asm/esr.h" out ||
		fail "the header fault is not attributed to patch $n on s390"
	assert_contains "$res/$(printf %04d "$n")/all/headers/log" "asm/memory.h: No such file or directory"
	grep -q '^ok arch/arm64/asm/esr.h' "$res/$(printf %04d "$n")/all/headers/arm64.log" ||
		fail "esr.h with the fault should still compile on arm64"
}
TESTS+=(test_fault_header_not_self_contained)

test_fault_declared_twice() {
	gate_config
	local res=$TEST_OUT/fault-declared n file=arch/arm64/include/asm/kvm_host.h
	need_in_stack include/kvm/arm64/guest.h
	# The last patch that touches arm64's <asm/kvm_host.h> (after those
	# that move declarations out of it) leaves one of them there: it
	# compiles, and is declared twice.
	n=$(last_patch_touching "$file")
	fault_bisect fault-declared "$n" "$file" \
		$'int kvm_arm_copy_sys_reg_indices(struct kvm_vcpu *vcpu, u64 __user *uindices);\n' \
		$'int kvm_arm_copy_sys_reg_indices(struct kvm_vcpu *vcpu, u64 __user *uindices);\nint kvm_arm_get_reg(struct kvm_vcpu *vcpu, const struct kvm_one_reg *reg);\n' \
		--check declared-once
	grep -Eq "^first bad: patch $n .* on all: declared-once: declared twice: kvm_arm_get_reg at \S*arch/arm64/include/asm/kvm_host.h:[0-9]+ and include/kvm/arm64/guest.h:[0-9]+" out ||
		fail "the second declaration is not attributed to patch $n"
	assert_eq "$(cat "$res/$(printf %04d $((n - 1)))/all/declared-once/status")" pass "patch $((n - 1))"
}
TESTS+=(test_fault_declared_twice)
