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

# A move that sneaks in a change: one system register encoding changed
# in the patch that splits the encodings out of <asm/sysreg.h> still
# builds, but an object's preprocessed text differs from the parent's,
# and pure-move fails that patch naming the object and the line.
test_fault_move_changes_a_token() {
	gate_config
	local res=$TEST_OUT/fault-move n file=include/arch/arm64/asm/sysreg-encodings.h
	need_in_stack "$file"
	n=$(last_patch_touching "$file")
	grep -qxF "$(tgit log -1 --format=%s "$(tgit rev-list --reverse "$BASE_COMMIT..$SERIES_BRANCH" | sed -n "${n}p")")" \
		"$SERIES_ROOT/configs/moves.conf" || skip "patch $n is not listed in configs/moves.conf"
	fault_bisect fault-move "$n" "$file" \
		$'#define SYS_DC_CISW\t\t\tsys_insn(1, 0, 7, 14, 2)\n' \
		$'#define SYS_DC_CISW\t\t\tsys_insn(1, 0, 7, 14, 3)\n' \
		--check pure-move
	grep -Eq "^first bad: patch $n .* on all: pure-move: FAIL arm64: arch/arm64/kvm/[a-z_-]+\.o: text line [0-9]+: parent \".*\", step \".*\"" out ||
		fail "the changed encoding is not attributed to patch $n by pure-move"
	assert_contains "$res/$(printf %04d "$n")/all/pure-move/log" "differs "
}
TESTS+=(test_fault_move_changes_a_token)
