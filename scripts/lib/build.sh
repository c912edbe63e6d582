# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Per-architecture builds: configuration data, Kconfig generation and
# verification, incremental builds with ccache, and warning sets.

SERIES_STATE=${SERIES_STATE:-$SERIES_CACHE/state}

# arch_list_all: every arch with a data file, in a stable order.
arch_list_all() {
	local f
	for f in "$SERIES_CONFIGS"/arch/*.conf; do
		[ -e "$f" ] && basename "$f" .conf
	done
}

# arch_list_default: the arches every patch is built for.
arch_list_default() {
	local a
	if [ -n "${SERIES_ARCHES:-}" ]; then
		for a in $SERIES_ARCHES; do
			[ -f "$SERIES_CONFIGS/arch/$a.conf" ] ||
				die_usage "SERIES_ARCHES: unknown arch '$a' (known: $(arch_list_all | tr '\n' ' '))"
			echo "$a"
		done
		return 0
	fi
	for a in $(arch_list_all); do
		[ "$(conf_get "$SERIES_CONFIGS/arch/$a.conf" ARCH_DEFAULT)" = 1 ] && echo "$a"
	done
	return 0
}

# arch_no_toolchain ARCH: ARCH has no Debian cross compiler
# (ARCH_TOOLCHAIN_PACKAGE=none in configs/arch/ARCH.conf) and none is on
# PATH either: its checks are "not built", never run and never a pass.
arch_no_toolchain() {
	local f=$SERIES_CONFIGS/arch/$1.conf
	[ "$(conf_get "$f" ARCH_TOOLCHAIN_PACKAGE)" = none ] &&
		! have "$(conf_get "$f" ARCH_CROSS_COMPILE)gcc"
}

# arch_load NAME: read configs/arch/NAME.conf into ARCH_* variables.
arch_load() {
	local name=$1
	[ -f "$SERIES_CONFIGS/arch/$name.conf" ] ||
		die_usage "unknown arch '$name' (known: $(arch_list_all | tr '\n' ' '))"
	ARCH_KBUILD='' ARCH_SRCARCH='' ARCH_CROSS_COMPILE='' ARCH_TOOLCHAIN_PACKAGE=''
	ARCH_IMAGE='' ARCH_BASE_CONFIG='' ARCH_FRAGMENTS='' ARCH_DEFAULT=0 ARCH_EXTRA_TOOLS=''
	ARCH_SERIES_FRAGMENTS=''
	conf_load "$SERIES_CONFIGS/arch/$name.conf" ARCH_
	local k
	for k in ARCH_KBUILD ARCH_SRCARCH ARCH_TOOLCHAIN_PACKAGE ARCH_BASE_CONFIG ARCH_FRAGMENTS; do
		[ -n "${!k}" ] || die "configs/arch/$name.conf: $k is empty"
	done
	ARCH_NAME=$name
	ARCH_BUILD_DIR=$SERIES_BUILD/$name
}

# arch_need_toolchain: the compiler of the loaded arch and what else its
# builds need (ARCH_EXTRA_TOOLS, WHAT:PACKAGE pairs), or their packages.
arch_need_toolchain() {
	# shellcheck disable=SC2086 # a list of WHAT:PACKAGE words
	need_tools "${ARCH_CROSS_COMPILE}gcc:$ARCH_TOOLCHAIN_PACKAGE" $ARCH_EXTRA_TOOLS
}

# arch_config_key: identifies what a build's results depend on besides
# the source: the configuration data and the compiler version.
arch_config_key() {
	local f
	{
		cat "$SERIES_CONFIGS/arch/$ARCH_NAME.conf"
		for f in $ARCH_FRAGMENTS $ARCH_SERIES_FRAGMENTS; do cat "$SERIES_CONFIGS/kconfig/$f"; done
		"${ARCH_CROSS_COMPILE}gcc" --version | head -n 1
	} | sha256sum | cut -c1-16
}

# kmake ARGS...: make in the kernel tree for the loaded arch, in the C
# locale (the kernel Makefile unexports LC_ALL, so LANG and LC_CTYPE too),
# the compiler behind the move-aware cache (scripts/lib/mcache.py, found
# on PATH: make splits CC at spaces, and a path may have some).
kmake() {
	env -u LC_ALL PATH="$SERIES_ROOT/scripts/lib:$PATH" LANG=C LC_CTYPE=C LC_MESSAGES=C make -C "$SERIES_TREE" O="$ARCH_BUILD_DIR" ARCH="$ARCH_KBUILD" \
		CROSS_COMPILE="$ARCH_CROSS_COMPILE" \
		CC="mcache.py ccache ${ARCH_CROSS_COMPILE}gcc" HOSTCC="ccache gcc" \
		KBUILD_BUILD_TIMESTAMP="$BASE_DATE" KBUILD_BUILD_VERSION=1 KBUILD_BUILD_USER=series \
		KBUILD_BUILD_HOST=series -j"$SERIES_JOBS" "$@"
}

# config_verify: every option of the fragments has its requested value in
# the build's .config; an option of ARCH_SERIES_FRAGMENTS (one the series
# adds) only where the step's Kconfig has it, i.e. .config names it.
# Prints one line per dropped option; fails if any.
config_verify() {
	local f line opt want have bad=0 cfg=$ARCH_BUILD_DIR/.config
	for f in $ARCH_FRAGMENTS ${ARCH_SERIES_FRAGMENTS:-}; do
		while IFS= read -r line || [ -n "$line" ]; do
			if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
				opt=${BASH_REMATCH[1]} want=${BASH_REMATCH[2]}
			elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
				opt=${BASH_REMATCH[1]} want=n
			else
				continue
			fi
			if [[ " ${ARCH_SERIES_FRAGMENTS:-} " == *" $f "* ]] &&
				! grep -qE "^(# )?${opt}[= ]" "$cfg"; then
				continue
			fi
			have=$(sed -n "s/^$opt=//p" "$cfg")
			[ -n "$have" ] || have=n
			if [ "$have" != "$want" ]; then
				err "$ARCH_NAME: $opt=$want requested by configs/kconfig/$f, but .config has $opt=$have"
				bad=1
			fi
		done <"$SERIES_CONFIGS/kconfig/$f"
	done
	return "$bad"
}

# config_merge FRAGMENT...: merge the fragments (configs/kconfig/ names)
# into the build's .config, then run olddefconfig.
config_merge() {
	local f frags=()
	for f in "$@"; do
		[ -f "$SERIES_CONFIGS/kconfig/$f" ] || { err "configs/arch/$ARCH_NAME.conf: no fragment configs/kconfig/$f"; return 1; }
		frags+=("$SERIES_CONFIGS/kconfig/$f")
	done
	if [ ${#frags[@]} -gt 0 ]; then
		(cd "$ARCH_BUILD_DIR" && ARCH=$ARCH_KBUILD CROSS_COMPILE=$ARCH_CROSS_COMPILE \
			"$SERIES_TREE/scripts/kconfig/merge_config.sh" -m -O "$ARCH_BUILD_DIR" \
			"$ARCH_BUILD_DIR/.config" "${frags[@]}" >/dev/null) ||
			{ err "$ARCH_NAME: merge_config.sh failed"; return 1; }
	fi
	kmake -s olddefconfig >/dev/null || { err "$ARCH_NAME: make olddefconfig failed"; return 1; }
}

# arch_config: make the build directory's .config from the base config and
# the fragments if the configuration data changed, then verify it.
arch_config() {
	local key
	key=$(arch_config_key)
	mkdir -p "$ARCH_BUILD_DIR"
	if [ -f "$ARCH_BUILD_DIR/.series-config-key" ] &&
		[ "$(cat "$ARCH_BUILD_DIR/.series-config-key" 2>/dev/null)" = "$key" ]; then
		return 0
	fi
	rm -f "$ARCH_BUILD_DIR/.series-config-key"
	# Explicit returns: callers use "arch_config || ...", which turns off -e.
	kmake -s "$ARCH_BASE_CONFIG" >/dev/null || { err "$ARCH_NAME: make $ARCH_BASE_CONFIG failed"; return 1; }
	# shellcheck disable=SC2086 # lists of fragment names
	config_merge $ARCH_FRAGMENTS $ARCH_SERIES_FRAGMENTS || return 1
	config_verify || { err "$ARCH_NAME: the Kconfig fragments did not survive olddefconfig (see above)"; return 1; }
	echo "$key" >"$ARCH_BUILD_DIR/.series-config-key"
}

# arch_reconfig: after a Kconfig change in the tree, merge the series'
# fragments again (their options may be new in this step), re-run
# olddefconfig and check the fragments still hold.
arch_reconfig() {
	# shellcheck disable=SC2086 # a list of fragment names
	config_merge $ARCH_SERIES_FRAGMENTS || return 1
	config_verify
}

# warnings_file TREE-ID: where the warning set of a source tree is kept.
warnings_file() {
	printf '%s/%s/%s/warnings/%s\n' "$SERIES_STATE" "$ARCH_NAME" "$(arch_config_key)" "$1"
}

# keys_file TREE-ID: where the key map of a source tree is kept
# (keymap.py): its objects' compile keys.
keys_file() {
	printf '%s/%s/%s/keys/%s\n' "$SERIES_STATE" "$ARCH_NAME" "$(arch_config_key)" "$1"
}

# kbuild LOG: build everything of the loaded arch, output to LOG.
kbuild() {
	kmake all >"$1" 2>&1
}

# warnings_extract LOG: the warning set of a build log, one
# "file<TAB>message" per line, sorted.
warnings_extract() {
	python3 "$SERIES_ROOT/scripts/lib/warnings.py" extract \
		--strip "$SERIES_TREE/" --strip "$ARCH_BUILD_DIR/" <"$1"
}

# cmd_config ARCH: (re)generate and verify the configuration of ARCH.
cmd_config() {
	[ $# -eq 1 ] || die_usage "usage: config ARCH"
	arch_load "$1"
	arch_need_toolchain
	need_base_tools
	[ -d "$SERIES_TREE/.git" ] || die "no kernel tree at $SERIES_TREE; run '$SERIES_PROG base'"
	rm -f "$ARCH_BUILD_DIR/.series-config-key"
	step_build_forget
	arch_config || die "$ARCH_NAME: no valid configuration"
	info "$ARCH_NAME: $ARCH_BUILD_DIR/.config ok ($(arch_config_key))"
}

# build_restore: check out again what the tree had before cmd_build.
BUILD_ORIG=
build_restore() {
	[ -z "$BUILD_ORIG" ] || tgit checkout -q "$BUILD_ORIG"
}

# cmd_build ARCH [REV]: incremental build of REV (default HEAD).
cmd_build() {
	local rev="" t0 log
	[ $# -ge 1 ] && [ $# -le 2 ] || die_usage "usage: build ARCH [REV]"
	arch_load "$1"
	rev=${2:-}
	need_base_tools
	arch_need_toolchain
	tree_require_clean
	if [ -n "$rev" ]; then
		tgit rev-parse -q --verify "$rev^{commit}" >/dev/null || die "build: '$rev' is not a commit in $SERIES_TREE"
		BUILD_ORIG=$(tgit symbolic-ref -q --short HEAD || tgit rev-parse HEAD)
		at_exit build_restore
		tgit checkout -q --detach "$rev"
	fi
	log=$SERIES_CACHE/build-logs/$ARCH_NAME
	rm -rf "$log"
	t0=$(now)
	info "$ARCH_NAME: building $(tgit log -1 --format='%h %s') in $ARCH_BUILD_DIR"
	if ! step_build "$log" "$(series_base_rev)"; then
		grep -E ': (error|fatal error): |\*\*\* ' "$log/build.log" 2>/dev/null | head -n 20 >&2 || true
		die "$ARCH_NAME: $STEP_BUILD_WHY ($(($(now) - t0)) s); logs: $log"
	fi
	info "$ARCH_NAME: $(cat "$log/status") in $(($(now) - t0)) s; logs: $log"
	[ ! -f "$log/warnings" ] || sed 's/^/warning: /' "$log/warnings" >&2
}

# shellcheck source=scripts/lib/stepbuild.sh
. "$SERIES_ROOT/scripts/lib/stepbuild.sh"
