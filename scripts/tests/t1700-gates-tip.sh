# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Fault injection at the tip and the gates that judge it: a core
# register dropped, a touched file no arch compiles, what KVM_ARM64
# selects.
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

# The common KVM code is built into s390's kvm.ko and into kvm-arm64 with
# the Kconfig options of one kernel: a symbol that kvm-arm64 selected and
# kvm.ko did not would change kvm.ko whenever kvm-arm64 is configured.
# At the tip, KVM_ARM64 selects nothing that KVM does not.  (Should it
# need to, kvm.ko must be shown unchanged with the selection, by a build
# of s390 with and without it.)
test_gate_s390_kvm_arm64_selects() {
	gate_config
	local k=arch/s390/kvm/Kconfig rc=0
	need_in_stack arch/s390/kvm/arm64/Makefile
	git -C "$SERIES_TREE" show "$SERIES_BRANCH:$k" >Kconfig || fail "no $k at the tip"
	python3 "$SERIES_ROOT/scripts/tests/kconfig-selects.py" Kconfig KVM_ARM64 KVM >out 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || { cat out; fail "KVM_ARM64 selects what KVM does not (exit $rc): $(paste -sd' ' out)"; }
	grep -q '^[[:space:]]*select KVM_COMMON$' Kconfig || fail "$k: KVM selects no KVM_COMMON: the parse is wrong"
	echo "KVM_ARM64 selects nothing that KVM does not ($k at the tip)"
}
TESTS+=(test_gate_s390_kvm_arm64_selects)
