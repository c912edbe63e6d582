# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The boot gate: native arm64 KVM in QEMU with the KVM selftests.
# They run on the real kernel tree in the cache.

# The runtime gate as a user runs it: the tip of the stack against the
# base, in QEMU, with native KVM in the guest.
test_gate_boot_arm64() {
	gate_config
	local dir
	expect_exit 0 out "$SERIES" boot arm64
	cat out
	assert_contains out "arm64: runtime gate passed"
	assert_contains out "output of get-reg-list-vregs: identical"
	for t in get-reg-list kvm_create_max_vcpus set_memory_region_test psci_test hypercalls; do
		grep -Eq "^$t +base PASS +this PASS +same" out || fail "$t does not pass as at the base"
	done
	dir=$SERIES_CACHE/boot/arm64/$(tgit rev-parse --short=12 "$SERIES_BRANCH")
	assert_contains "$dir/console.log" "CPU: All CPU(s) started at EL2"
	assert_contains "$dir/console.log" "VHE mode initialized successfully"
	[ "$(grep -c . "$dir/out/get-reg-list-vregs")" -gt 100 ] || fail "get-reg-list printed no register list"
}
TESTS+=(test_gate_boot_arm64)
