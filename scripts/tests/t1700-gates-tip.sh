# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Fault injection at the tip and the gates that judge it: a core
# register dropped, a touched file no arch compiles.
# They run on the real kernel tree in the cache.

test_fault_core_reg_dropped() {
	gate_config
	local res=$TEST_OUT/fault-corereg n
	need_in_stack virt/kvm/arm64/guest.c
	# ELR_EL1 drops out of the shared core registers in the patch that
	# last touches them: KVM_GET_REG_LIST no longer lists it and ONE_REG
	# refuses it.  It all builds; only the runtime gate, at the tip, sees it.
	n=$(last_patch_touching virt/kvm/arm64/guest.c)
	fault_bisect fault-corereg "$n" virt/kvm/arm64/guest.c \
		$'\tcase KVM_REG_ARM_CORE_REG(sp_el1):\n\tcase KVM_REG_ARM_CORE_REG(elr_el1):\n' \
		$'\tcase KVM_REG_ARM_CORE_REG(sp_el1):\n' \
		--check boot
	local last
	last=$(series_read && echo "${#PATCHES[@]}")
	grep -Eq "^first bad: patch $last .* on all: boot: arm64: get-reg-list +base PASS +this FAIL +DIFFERS" out ||
		fail "the dropped register is not caught at the tip (patch $last)"
	assert_contains "$res/$(printf %04d "$last")/all/boot/log" "output of get-reg-list-vregs differs at line"
	assert_contains "$res/$(printf %04d "$last")/all/boot/log" "elr_el1"
}
TESTS+=(test_fault_core_reg_dropped)

test_fault_touched_not_compiled() {
	gate_config
	local res=$TEST_OUT/fault-uncovered n file=drivers/vfio/platform/vfio_platform.c
	# The last patch with C files of its own also edits a driver that no
	# arch of the matrix builds (VFIO_PLATFORM is off everywhere): it
	# builds, it is just never compiled.
	local commits j
	mapfile -t commits < <(tgit rev-list --reverse "$BASE_COMMIT..$SERIES_BRANCH")
	n=0
	for j in "${!commits[@]}"; do
		tgit diff --name-only "${commits[j]}~1" "${commits[j]}" | grep -q '\.c$' && n=$((j + 1))
	done
	[ "$n" -gt 0 ] || skip "no patch changes a C file"
	fault_bisect fault-uncovered "$n" "$file" \
		$'#include "vfio_platform_private.h"\n' \
		$'#include "vfio_platform_private.h"\n\n/* series fault: touched, never compiled */\n' \
		--check touched-compiled
	grep -q "^first bad: patch $n .* on all: touched-compiled: uncovered: $file (no arch of .*x86_64.* compiles it)" out ||
		fail "the uncovered file is not attributed to patch $n"
	# The patch's own C files are still found compiled.
	grep -Eq '^[^ ]+\.c: compiled on [a-z0-9_]+$' "$res/$(printf %04d "$n")/all/touched-compiled/log" ||
		fail "no C file of patch $n is reported compiled"
}
TESTS+=(test_fault_touched_not_compiled)
