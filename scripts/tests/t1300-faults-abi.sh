# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Fault injection in the arm64 ABI and in the layout of the SAE blocks.
# They run on the real kernel tree in the cache.

test_fault_abi_change() {
	gate_config
	local res=$TEST_OUT/fault-abi n file=include/uapi/arch/arm64/asm/kvm.h
	# A member of struct kvm_regs shrinks in the last patch that touches
	# the arm64 KVM UAPI header, in the middle of the stack.
	n=$(last_patch_touching "$file")
	fault_bisect fault-abi "$n" "$file" \
		$'struct kvm_regs {\n\tstruct user_pt_regs regs;\t/* sp = sp_el0 */\n\n\t__u64\tsp_el1;' \
		$'struct kvm_regs {\n\tstruct user_pt_regs regs;\t/* sp = sp_el0 */\n\n\t__u32\tsp_el1;' \
		--check abi-arm64
	grep -q "^first bad: patch $n .* on all: abi-arm64: ABI differs from the base: first difference: -.*__u64 *sp_el1;" out ||
		fail "the ABI change is not attributed to patch $n"
	assert_eq "$(cat "$res/$(printf %04d $((n - 1)))/all/abi-arm64/status")" pass "patch $((n - 1)) keeps the ABI"
	assert_contains "$res/$(printf %04d "$n")/all/abi-arm64/abi.diff" "+	__u32                      sp_el1;"
	[ ! -e "$res/$(printf %04d $((n + 1)))" ] || fail "the bisect went on past the first bad patch"
}
TESTS+=(test_fault_abi_change)

test_fault_layout_moved_field() {
	fault_layout fault-layout-moved \
		$'\t__u8\treserved081[7];\t\t/* 0x0081 */\n\t__u64\tscad;\t\t\t/* 0x0088 */\n\t__u8\treserved090[128];' \
		$'\t__u8\treserved081[15];\t/* 0x0081 */\n\t__u64\tscad;\t\t\t/* 0x0088 */\n\t__u8\treserved090[120];' \
		'asm/sae.h does not compile' 'offsetof(struct sae_control_block, scad) == (0x088)'
}
TESTS+=(test_fault_layout_moved_field)

test_fault_layout_stale_comment() {
	fault_layout fault-layout-comment \
		$'\t__u64\tfar;\t\t\t/* 0x0418 */\n\t__u64\tvaddr;' \
		$'\t__u64\tfar;\t\t\t/* 0x0410 */\n\t__u64\tvaddr;' \
		'FAIL sae_icpt_host_access: 1 stale' 'sae_icpt_host_access.far: comment says 0x410, DWARF 0x418'
}
TESTS+=(test_fault_layout_stale_comment)
