# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The runtime gate: boot the kernel of a step in QEMU (TCG) and run the
# KVM selftests of the same tree in it (configs/boot/ARCH.conf), then
# compare the results with the base's.  Used by the check unit "boot" and
# by 'scripts/series boot'.

# boot_arches: every arch with a runtime gate.
boot_arches() {
	local f
	for f in "$SERIES_CONFIGS"/boot/*.conf; do
		[ -e "$f" ] && basename "$f" .conf
	done
	return 0
}

# boot_load ARCH: arch_load ARCH and read configs/boot/ARCH.conf into BOOT_*.
boot_load() {
	local f=$SERIES_CONFIGS/boot/$1.conf k
	[ -f "$f" ] || die_usage "no runtime gate for arch '$1' (have: $(boot_arches | tr '\n' ' '))"
	arch_load "$1"
	BOOT_QEMU='' BOOT_QEMU_PACKAGE='' BOOT_QEMU_ARGS='' BOOT_APPEND='' BOOT_READY=''
	BOOT_TIMEOUT='' BOOT_SELFTESTS_ARCH='' BOOT_TESTS='' BOOT_COMPARE_OUTPUT=''
	conf_load "$f" BOOT_
	for k in BOOT_QEMU BOOT_QEMU_PACKAGE BOOT_QEMU_ARGS BOOT_READY BOOT_TIMEOUT BOOT_SELFTESTS_ARCH BOOT_TESTS; do
		[ -n "${!k}" ] || die "$f: $k is empty"
	done
	[[ $BOOT_TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "$f: BOOT_TIMEOUT must be a number of seconds"
}

# boot_need_tools: QEMU and the cross toolchain of the loaded arch.
boot_need_tools() {
	arch_need_toolchain
	need_tools "$BOOT_QEMU:$BOOT_QEMU_PACKAGE" cpio:cpio
}

# boot_key: what a boot's results depend on besides the source tree: the
# gate's data and init, the kernel configuration and compiler, and QEMU.
boot_key() {
	{
		cat "$SERIES_CONFIGS/boot/$ARCH_NAME.conf" "$SERIES_ROOT/scripts/boot/init.c" \
			"$SERIES_ROOT/scripts/lib/boot-parse.py"
		arch_config_key
		"$BOOT_QEMU" --version | head -n 1
	} | sha256sum | cut -c1-16
}

# boot_ref_dir: where the base's results are kept.
boot_ref_dir() {
	printf '%s/boot/%s-%s-%s\n' "$SERIES_STATE" "$ARCH_NAME" \
		"$(tgit rev-parse "$(series_base_rev)^{tree}")" "$(boot_key)"
}

# boot_ensure_built DIR: the build directory holds the build of the
# checked-out tree: in the boot check, the runner brought it there
# (CHECK_NEEDS=build); the boot command builds it (stepbuild.sh, which
# owns it; logs in DIR/build).
boot_ensure_built() {
	if [ -n "${SERIES_CHECK_NAME:-}" ]; then
		step_build_holds ||
			{ err "$ARCH_NAME: the build directory does not hold this step (CHECK_NEEDS=build)"; return 1; }
	elif ! step_build "$1/build" "$(series_base_rev)"; then
		err "$ARCH_NAME: $STEP_BUILD_WHY; logs: $1/build"
		return 1
	fi
	[ -f "$ARCH_BUILD_DIR/$ARCH_IMAGE" ] || { err "$ARCH_NAME: the build made no $ARCH_IMAGE"; return 1; }
}

# boot_run DIR: boot the build of the checked-out tree and run the tests;
# results in DIR (see boot-parse.py).  Returns 1 if anything but the
# tests' own verdicts went wrong (DIR/problems says what).
boot_run() {
	local dir=$1 work spec name tmo prog args progs=() t0 rc=0
	work=$SERIES_CACHE/boot-work/$ARCH_NAME
	rm -rf "$dir"
	mkdir -p "$dir" "$work"
	t0=$(now)
	boot_ensure_built "$dir" || { echo "build failed" >"$dir/problems"; return 1; }
	# The UAPI headers of this tree, for the selftests.
	rm -rf "$work/hdr"
	if ! kmake -s headers_install INSTALL_HDR_PATH="$work/hdr" >"$dir/headers.log" 2>&1; then
		echo "make headers_install failed (headers.log)" >"$dir/problems"
		return 1
	fi
	: >"$work/list"
	for spec in $BOOT_TESTS; do
		IFS=: read -r name tmo prog args <<<"$spec"
		[ -n "$name" ] && [[ $tmo =~ ^[1-9][0-9]*$ ]] && [ -n "$prog" ] ||
			die "configs/boot/$ARCH_NAME.conf: BOOT_TESTS: bad entry '$spec' (NAME:TIMEOUT:PROGRAM[:ARG...])"
		printf '%s %s /tests/%s %s\n' "$name" "$tmo" "$prog" "${args//:/ }" >>"$work/list"
		[[ " ${progs[*]} " == *" $prog "* ]] || progs+=("$prog")
	done
	# Static selftests, built out of the source tree: abs_objdir keeps the
	# generated sysreg header and TMPOUT the try-run files out of it.
	mkdir -p "$work/st/tools"
	if ! env -u LC_ALL LANG=C make -C "$SERIES_TREE/tools/testing/selftests/kvm" -j"$SERIES_JOBS" \
		ARCH="$BOOT_SELFTESTS_ARCH" CROSS_COMPILE="$ARCH_CROSS_COMPILE" \
		OUTPUT="$work/st" abs_objdir="$work/st" TMPOUT="$work/st/.tmp/" \
		KHDR_INCLUDES="-isystem $work/hdr/include" EXTRA_CFLAGS=-static \
		"${progs[@]/#/$work/st/}" >"$dir/selftests.log" 2>&1; then
		echo "building the KVM selftests failed (selftests.log)" >"$dir/problems"
		return 1
	fi
	if ! "${ARCH_CROSS_COMPILE}gcc" -static -O2 -Wall -o "$work/init" \
		"$SERIES_ROOT/scripts/boot/init.c" >"$dir/init.log" 2>&1; then
		echo "building the init failed (init.log)" >"$dir/problems"
		return 1
	fi
	{
		echo "dir /dev 0755 0 0"
		echo "nod /dev/console 0600 0 0 c 5 1"
		echo "dir /proc 0755 0 0"
		echo "dir /sys 0755 0 0"
		echo "dir /tests 0755 0 0"
		for prog in "${progs[@]}"; do
			[ "${prog%/*}" = "$prog" ] || echo "dir /tests/${prog%/*} 0755 0 0"
		done | sort -u
		for prog in "${progs[@]}"; do
			echo "file /tests/$prog $work/st/$prog 0755 0 0"
		done
		echo "file /tests/list $work/list 0644 0 0"
		echo "file /init $work/init 0755 0 0"
	} >"$work/cpio.list"
	"$ARCH_BUILD_DIR/usr/gen_init_cpio" "$work/cpio.list" >"$work/initramfs.cpio" 2>"$dir/cpio.log" ||
		{ echo "gen_init_cpio failed (cpio.log)" >"$dir/problems"; return 1; }
	# shellcheck disable=SC2086 # BOOT_QEMU_ARGS is a word list
	timeout "$BOOT_TIMEOUT" "$BOOT_QEMU" $BOOT_QEMU_ARGS -nographic -no-reboot \
		-kernel "$ARCH_BUILD_DIR/$ARCH_IMAGE" -initrd "$work/initramfs.cpio" \
		-append "$BOOT_APPEND" </dev/null >"$dir/console.log" 2>&1 || rc=$?
	[ "$rc" -ne 124 ] || echo "series-boot: QEMU killed after $BOOT_TIMEOUT s" >>"$dir/console.log"
	python3 "$SERIES_ROOT/scripts/lib/boot-parse.py" parse --ready "$BOOT_READY" \
		--out "$dir" "$dir/console.log" >"$dir/parse.log" 2>&1 || rc=1
	[ "$rc" -eq 0 ] || [ -s "$dir/problems" ] || echo "QEMU exited with status $rc" >"$dir/problems"
	tgit rev-parse HEAD >"$dir/commit"
	echo "$(($(now) - t0))" >"$dir/duration"
	[ ! -s "$dir/problems" ]
}

# boot_compare BASE-DIR DIR: the results of DIR equal the base's.
boot_compare() {
	# shellcheck disable=SC2086 # a list of test names
	python3 "$SERIES_ROOT/scripts/lib/boot-parse.py" compare --output $BOOT_COMPARE_OUTPUT -- "$1" "$2"
}

# boot_reference: make the base's results if they are not kept yet (the
# tree is checked out at the base).
boot_reference() {
	local ref
	ref=$(boot_ref_dir)
	[ -f "$ref/results" ] && return 0
	if ! boot_run "$ref.tmp"; then
		err "$ARCH_NAME: the base does not pass the runtime gate: $(head -n 1 "$ref.tmp/problems")"
		return 1
	fi
	rm -rf "$ref" && mv "$ref.tmp" "$ref"
}

# boot_restore: at exit, check out again what cmd_boot found checked out.
BOOT_ORIG=
boot_restore() {
	[ -z "$BOOT_ORIG" ] || tgit checkout -q -f "$BOOT_ORIG"
}

# cmd_boot ARCH [REV]: run the runtime gate for REV (default: the tip of
# the applied stack) and compare it with the base.
cmd_boot() {
	local rev dir ref base rc=0
	[ $# -ge 1 ] && [ $# -le 2 ] || die_usage "usage: boot ARCH [REV]"
	boot_load "$1"
	# The arguments and the tree first: nothing is installed for a
	# command that cannot run.
	need_tools git:git
	tree_require_clean
	rev=${2:-$SERIES_BRANCH}
	tgit rev-parse -q --verify "$rev^{commit}" >/dev/null || die_usage "boot: '$rev' is not a commit in $SERIES_TREE"
	need_base_tools
	boot_need_tools
	base=$(series_base_rev)
	BOOT_ORIG=$(tgit symbolic-ref -q --short HEAD || tgit rev-parse HEAD)
	at_exit boot_restore
	ref=$(boot_ref_dir)
	if [ ! -f "$ref/results" ]; then
		info "$ARCH_NAME: making the base's results ($(tgit log -1 --format='%h %s' "$base"))"
		tgit checkout -q --detach "$base"
		boot_reference || exit "$EX_FAIL"
	fi
	tgit checkout -q --detach "$rev"
	dir=$SERIES_CACHE/boot/$ARCH_NAME/$(tgit rev-parse --short=12 HEAD)
	info "$ARCH_NAME: booting $(tgit log -1 --format='%h %s') in QEMU"
	boot_run "$dir" || rc=1
	cat "$dir/parse.log" >&2 2>/dev/null || true
	if [ "$rc" -ne 0 ]; then
		err "$ARCH_NAME: $(head -n 1 "$dir/problems") (console: $dir/console.log)"
		exit "$EX_FAIL"
	fi
	info "--- against the base ($ref)"
	boot_compare "$ref" "$dir" >&2 || rc=1
	[ "$rc" -eq 0 ] || die "$ARCH_NAME: the runtime results differ from the base's (console: $dir/console.log)"
	info "$ARCH_NAME: runtime gate passed in $(cat "$dir/duration") s; results in $dir"
}
