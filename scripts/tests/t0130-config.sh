# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of the configuration data: Kconfig fragments verified, the
# arches a patch affects.
# Each test runs in its own empty directory ($TEST_WORK) in a subshell.

test_config_verify() {
	(
		. "$SERIES_ROOT/scripts/lib/common.sh"
		. "$SERIES_ROOT/scripts/lib/build.sh"
		mkdir -p cfg/kconfig b
		printf 'CONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_D="x"\n' >cfg/kconfig/f.config
		SERIES_CONFIGS=$PWD/cfg ARCH_FRAGMENTS=f.config ARCH_NAME=t ARCH_BUILD_DIR=$PWD/b
		printf 'CONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_D="x"\n' >b/.config
		config_verify 2>err || fail "a complete .config was rejected: $(cat err)"
		printf 'CONFIG_A=y\nCONFIG_B=y\nCONFIG_C=y\n' >b/.config
		! config_verify 2>err || fail "a .config with dropped options was accepted"
		assert_contains err "t: CONFIG_B=m requested by configs/kconfig/f.config, but .config has CONFIG_B=y"
		assert_contains err "CONFIG_C=n requested"
		assert_contains err "CONFIG_D=\"x\" requested by configs/kconfig/f.config, but .config has CONFIG_D=n"
		assert_not_contains err "CONFIG_A="
	)
}
TESTS+=(test_config_verify)

# An option of a series fragment is verified where the step has it.
test_config_verify_series() {
	(
		. "$SERIES_ROOT/scripts/lib/common.sh"
		. "$SERIES_ROOT/scripts/lib/build.sh"
		mkdir -p cfg/kconfig b
		printf 'CONFIG_A=y\n' >cfg/kconfig/f.config
		printf 'CONFIG_NEW=m\n' >cfg/kconfig/s.config
		SERIES_CONFIGS=$PWD/cfg ARCH_FRAGMENTS=f.config ARCH_SERIES_FRAGMENTS=s.config
		ARCH_NAME=t ARCH_BUILD_DIR=$PWD/b
		printf 'CONFIG_A=y\n' >b/.config
		config_verify 2>err || fail "a step without the series' option was rejected: $(cat err)"
		printf 'CONFIG_A=y\nCONFIG_NEW=m\n' >b/.config
		config_verify 2>err || fail "a step with the series' option was rejected: $(cat err)"
		printf 'CONFIG_A=y\n# CONFIG_NEW is not set\n' >b/.config
		! config_verify 2>err || fail "a step that lost the series' option was accepted"
		assert_contains err "t: CONFIG_NEW=m requested by configs/kconfig/s.config, but .config has CONFIG_NEW=n"
		printf '# CONFIG_A is not set\n' >b/.config
		! config_verify 2>err || fail "a missing option of a plain fragment was accepted"
		assert_contains err "CONFIG_A=y requested by configs/kconfig/f.config"
	)
}
TESTS+=(test_config_verify_series)

test_affected_arches() {
	cat >drive.sh <<'EOF2'
set -euo pipefail
. "$1/scripts/lib/common.sh"
. "$1/scripts/lib/build.sh"
. "$1/scripts/lib/arches.sh"
SELECTED_ARCHES=()
affected_rules_load
t() { printf '%s\n' "${@:2}" >paths; echo "$1: [$(affected_arches paths | tr '\n' ' ')]"; }
t generic drivers/vfio/vfio_main.c
t other-arches arch/riscv/kvm/main.c arch/mips/Kconfig
t s390-only arch/s390/kvm/kvm-s390.c arch/s390/kvm/gmap.h
t arm64-shared include/kvm/arm64/kvm_arm.h MAINTAINERS
t docs Documentation/virt/kvm/api.rst MAINTAINERS tools/include/uapi/linux/kvm.h
t arm64-and-generic arch/arm64/kvm/arm.c include/linux/kvm_host.h
SELECTED_ARCHES=(riscv64)
t selected drivers/vfio/vfio_main.c
SELECTED_ARCHES=()
SERIES_ARCHES="powerpc x86_64"
t override Documentation/x.rst
EOF2
	expect_exit 0 out bash drive.sh "$SERIES_ROOT"
	cat out
	assert_contains out "generic: [arm64 s390 x86_64 ]"
	assert_contains out "other-arches: [mips riscv64 ]"
	assert_contains out "s390-only: [s390 ]"
	assert_contains out "arm64-shared: [arm64 s390 ]"
	assert_contains out "docs: []"
	assert_contains out "arm64-and-generic: [arm64 s390 x86_64 ]"
	assert_contains out "selected: []"
	assert_contains out "override: [powerpc x86_64 ]"
	# The rules are data; a bad one is named with its file and line.
	cp -r "$SERIES_CONFIGS" cfg
	printf 'arch/sparc/*  sparc64\n' >>cfg/affected.conf
	expect_exit 1 out env SERIES_CONFIGS="$PWD/cfg" bash drive.sh "$SERIES_ROOT"
	assert_contains out "cfg/affected.conf:$(wc -l <cfg/affected.conf): unknown arch 'sparc64'"
	cp "$SERIES_CONFIGS/affected.conf" cfg/affected.conf
	printf 'lonely/path\n' >>cfg/affected.conf
	expect_exit 1 out env SERIES_CONFIGS="$PWD/cfg" bash drive.sh "$SERIES_ROOT"
	assert_contains out "cfg/affected.conf:$(wc -l <cfg/affected.conf): 'lonely/path' names no arch"
}
TESTS+=(test_affected_arches)
