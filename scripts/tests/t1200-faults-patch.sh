# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Fault injection in a patch: each check unit that judges a patch blames
# the patch with the fault, and no other.
# They run on the real kernel tree in the cache.

test_fault_missing_signoff() {
	gate_config
	fault_message_at fault-signoff 2 "Signed-off-by: $SERIES_IDENT_NAME <$SERIES_IDENT_EMAIL>" "" \
		signoff '1 finding(s): no Signed-off-by'
}
TESTS+=(test_fault_missing_signoff)

# Patch 3 under a prefix whose areas it does not touch.
test_fault_wrong_subject() {
	gate_config
	local c subj wrong=s390:
	c=$(tgit rev-list --reverse "$BASE_COMMIT..$SERIES_BRANCH" | sed -n 3p)
	subj=$(tgit log -1 --format=%s "$c")
	! tgit diff --name-only "$c~1" "$c" | grep -q 's390' || fail "patch 3 touches s390 files: pick another patch"
	fault_message_at fault-subject 3 "$subj" "$wrong ${subj#*: }" \
		subject "'$wrong' names none of the [0-9]* touched file(s)"
}
TESTS+=(test_fault_wrong_subject)

test_fault_kernel_doc() {
	gate_config
	local f=arch/s390/kvm/gmap/gmap.c k res=$TEST_OUT/fault-kernel-doc
	# A misspelt parameter in the last patch, in a file it does not touch
	# otherwise (s390's gmap, which no patch changes).
	k=$(series_read && echo "${#PATCHES[@]}")
	fault_stack fault-kernel-doc "$k" "$f" \
		$' * gmap_dispose() - Remove and free a guest address space and its children.\n * @gmap:' \
		$' * gmap_dispose() - Remove and free a guest address space and its children.\n * @gamp:'
	expect_exit 1 out env SERIES_FILE="$TEST_WORK/fault-kernel-doc/series" SERIES_RESULTS="$res" \
		SERIES_BUILD="$(gate_build_root fault-kernel-doc)" "$SERIES" walk --branch fault-kernel-doc --check kernel-doc
	cat out
	grep -q "^first bad: patch $k ($(printf %04d "$k")-.* on all: kernel-doc: 2 new warning(s): $f: warning: " out ||
		fail "the kernel-doc error is not reported by kernel-doc at patch $k"
	assert_contains "$res/$(printf %04d "$k")/all/kernel-doc/new-warnings" \
		"Excess function parameter 'gamp' description in 'gmap_dispose'"
	assert_contains "$res/$(printf %04d "$k")/all/kernel-doc/new-warnings" \
		"function parameter 'gmap' not described in 'gmap_dispose'"
	assert_eq "$(cat "$res/$(printf %04d $((k - 1)))/all/kernel-doc/status")" pass "kernel-doc at patch $((k - 1))"
}
TESTS+=(test_fault_kernel_doc)

# An SPDX identifier that LICENSES/ does not have, in a file a patch
# creates: checkpatch finds it only if scripts/spdxcheck.py can run
# (Python's ply and git), which the checkpatch unit makes sure of; without
# them checkpatch used to take spdxcheck's traceback for a valid license.
test_fault_spdx_license() {
	gate_config
	local f=drivers/vfio/vfio_kvm_test.c n res=$TEST_OUT/fault-spdx
	need_in_stack "$f"
	n=$(last_patch_touching "$f")
	fault_bisect fault-spdx "$n" "$f" \
		'// SPDX-License-Identifier: GPL-2.0-only' '// SPDX-License-Identifier: GPL-2.0-bogus' \
		--check checkpatch
	grep -q "^first bad: patch $n .* on all: checkpatch: .*SPDX_LICENSE_TAG: 'SPDX-License-Identifier: GPL-2.0-bogus' is not supported" out ||
		fail "the unknown license is not attributed to patch $n"
	assert_not_contains "$res/$(printf %04d "$n")/all/checkpatch/log" "Traceback"
}
TESTS+=(test_fault_spdx_license)

test_fault_coccinelle() {
	gate_config
	local n
	n=$(series_read && echo "${#PATCHES[@]}")
	# A NULL test before kfree(): scripts/coccinelle/free/ifnullfree.cocci.
	fault_bisect fault-coccinelle "$n" virt/kvm/vfio.c $'\tkfree(kv);\n' $'\tif (kv)\n\t\tkfree(kv);\n' \
		--check coccinelle
	grep -q "^first bad: patch $n .* on all: coccinelle: 1 new coccinelle report(s): vfio.c: WARNING: NULL check before some freeing functions is not needed." out ||
		fail "the coccinelle report is not attributed to patch $n"
	assert_eq "$(cat "$TEST_OUT/fault-coccinelle/$(printf %04d $((n - 1)))/all/coccinelle/status")" pass "coccinelle at patch $((n - 1))"
}
TESTS+=(test_fault_coccinelle)

# A function made global without a declaration in the last patch:
# sparse's "Should it be static?", attributed to that patch.
test_fault_sparse() {
	gate_config
	local n res=$TEST_OUT/fault-sparse
	n=$(series_read && echo "${#PATCHES[@]}")
	fault_bisect fault-sparse "$n" virt/kvm/vfio.c 'static bool kvm_vfio_file_is_valid(' 'bool kvm_vfio_file_is_valid(' \
		--check sparse
	grep -q "^first bad: patch $n .* on [a-z0-9_]*: sparse: 1 new sparse warning(s): vfio.c: warning: symbol 'kvm_vfio_file_is_valid' was not declared. Should it be static?" out ||
		fail "the sparse warning is not attributed to patch $n"
	# The last patch before it that sparse judged (a patch that builds
	# no arch, such as one of MAINTAINERS, is not judged) was clean on
	# every arch.
	local s k judged=0
	for ((k = n - 1; k > 0 && judged == 0; k--)); do
		for s in "$res/$(printf %04d "$k")"/*/sparse/status; do
			[ -e "$s" ] || continue
			assert_eq "$(cat "$s")" pass "sparse at patch $k ($s)"
			judged=$((judged + 1))
		done
	done
	[ "$judged" -gt 0 ] || fail "sparse judged no patch before patch $n"
}
TESTS+=(test_fault_sparse)

test_fault_syntax_error() {
	gate_config
	# s390-only code that no later patch touches (dat.c is built for KVM).
	fault_stack fault-syntax 2 arch/s390/kvm/gmap/dat.c \
		$'int kvm_s390_mmu_cache_topup(struct kvm_s390_mmu_cache *mc)\n{\n' \
		$'int kvm_s390_mmu_cache_topup(struct kvm_s390_mmu_cache *mc)\n{\n\tint series_fault = 0\n'
	local res=$TEST_OUT/fault-syntax
	# Not on arm64: going back from the tip across the UAPI header moves
	# of patches 1-6 has broken the arm64 incremental build here (a
	# .vdso-wrap.o.d naming a generated copy of sve_context.h that step
	# 1 does not have); that is for the build unit, not for this test.
	expect_exit 1 out env SERIES_FILE="$TEST_WORK/fault-syntax/series" SERIES_RESULTS="$res" \
		SERIES_BUILD="$(gate_build_root fault-syntax)" "$SERIES" walk --branch fault-syntax --arch s390 --arch x86_64
	cat out
	assert_contains out "first bad: patch 2 (0002-"
	grep -q '^first bad: patch 2 .* on s390: build: build failed: .*dat.c.*error' out ||
		fail "the syntax error is not attributed to patch 2 on s390"
	assert_contains out "reproduce patch 2 with: scripts/series build s390 "
	assert_eq "$(cat "$res/0002/x86_64/build/status")" pass "x86_64 at patch 2 (does not build s390's dat.c)"
	assert_eq "$(cat "$res/0001/s390/build/status")" pass "s390 at patch 1"
	[ ! -e "$res/0003" ] || fail "the bisect went on past the first bad patch"
}
TESTS+=(test_fault_syntax_error)

test_fault_new_warning() {
	gate_config
	local res=$TEST_OUT/fault-warning n
	n=$(series_read && echo "${#PATCHES[@]}")
	fault_stack fault-warning "$n" virt/kvm/vfio.c \
		$'static void kvm_vfio_file_set_kvm(struct file *file, struct kvm *kvm)\n{\n' \
		$'static void kvm_vfio_file_set_kvm(struct file *file, struct kvm *kvm)\n{\n\tint series_fault_unused;\n'
	# The build alone: the units that run at the tip (kvm-coexist, kunit,
	# boot, module-load) would rebuild for the changed vfio.c and add
	# minutes without looking at warnings.
	expect_exit 1 out env SERIES_FILE="$TEST_WORK/fault-warning/series" SERIES_RESULTS="$res" \
		SERIES_BUILD="$(gate_build_root fault-warning)" "$SERIES" walk --branch fault-warning --arch x86_64 --check build
	cat out
	# Against the parent, or the nearest ancestor that built x86_64 when
	# the patches before it are arm64-only (configs/affected.conf).
	grep -Eq "^first bad: patch $n .* on x86_64: build: 1 new warning\(s\) against the (parent|ancestor [0-9a-f]+): virt/kvm/vfio.c unused variable 'series_fault_unused'" out ||
		fail "the new warning is not attributed to patch $n on x86_64"
	assert_contains "$res/$(printf %04d "$n")/x86_64/build/new-warnings" "series_fault_unused"
}
TESTS+=(test_fault_new_warning)

test_fault_patch_does_not_apply() {
	gate_config
	series_read
	local head_before branch_before p
	mkdir -p broken/patches
	# Without patch 1, the context of patch 2 is not in the tree.
	for p in "${PATCHES[@]:1}"; do
		cp "$SERIES_PATCHES/$p" broken/patches/
		echo "$p" >>broken/series
	done
	head_before=$(git -C "$SERIES_TREE" rev-parse HEAD)
	branch_before=$(git -C "$SERIES_TREE" symbolic-ref -q HEAD || echo detached)
	expect_exit 1 out env SERIES_FILE="$PWD/broken/series" "$SERIES" apply --branch fault-noapply
	grep -Eq "patch 1 \(${PATCHES[1]}\) does not apply: [^ ]+" out ||
		fail "the failed apply does not name patch 1 and a file"
	assert_eq "$(git -C "$SERIES_TREE" rev-parse HEAD)" "$head_before" "HEAD after a failed apply"
	assert_eq "$(git -C "$SERIES_TREE" symbolic-ref -q HEAD || echo detached)" "$branch_before" "branch after a failed apply"
	[ -z "$(git -C "$SERIES_TREE" status --porcelain)" ] || fail "the tree is dirty after a failed apply"
	! git -C "$SERIES_TREE" rev-parse -q --verify refs/heads/fault-noapply >/dev/null ||
		fail "a failed apply left the branch fault-noapply behind"
	[ ! -d "$(git -C "$SERIES_TREE" rev-parse --absolute-git-dir)/rebase-apply" ] ||
		fail "a failed apply left a git am session behind"
}
TESTS+=(test_fault_patch_does_not_apply)
