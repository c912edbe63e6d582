# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The one owner of an arch's build directory ($SERIES_BUILD/ARCH):
# step_build brings it to the checked-out tree, and keeps the markers
# that say what it holds and the warning set of every tree it built.
# Nothing else writes these markers; the build check, the runner (for a
# unit whose manifest says CHECK_NEEDS=build) and the build and boot
# commands all go through step_build.  Sourced by build.sh.
#
# The markers, in the build directory:
#   .series-built-tree  the source tree of the last build that succeeded;
#   .series-building    present while a build runs and after one that
#                       failed or was stopped: what it compiled has not
#                       had its warnings recorded.

# step_build_ref BASE: the warning set a build of the checked-out tree
# starts from: its own, or the nearest ancestor's down to BASE; empty if
# none.
step_build_ref() {
	local c f
	for c in $(tgit rev-list --max-count=200 HEAD --not "$1") "$1"; do
		f=$(warnings_file "$(tgit rev-parse "$c^{tree}")")
		if [ -f "$f" ]; then
			printf '%s\n' "$f"
			return 0
		fi
	done
}

# step_build_holds: does the build directory of the loaded arch hold the
# checked-out tree, built with the current configuration data, with no
# build pending and the tree's warning set kept?
step_build_holds() {
	local tree
	tree=$(tgit rev-parse 'HEAD^{tree}')
	[ "$(cat "$ARCH_BUILD_DIR/.series-built-tree" 2>/dev/null)" = "$tree" ] &&
		[ ! -e "$ARCH_BUILD_DIR/.series-building" ] && [ -f "$(warnings_file "$tree")" ] &&
		[ "$(cat "$ARCH_BUILD_DIR/.series-config-key" 2>/dev/null)" = "$(arch_config_key)" ]
}

# step_build_touches CHANGES ERE: does a line of CHANGES (git diff
# --name-status) name a path, old or new, that matches ERE?
step_build_touches() {
	awk -F'\t' -v re="$2" '{ for (i = 2; i <= NF; i++) if ($i ~ re) f = 1 } END { exit !f }' "$1"
}

# step_build OUT BASE: bring the build directory of the loaded arch to the
# checked-out tree; BASE bounds the search for an ancestor's warning set.
# Logs and the warnings this build emitted go to OUT.  Returns 0 when the
# directory holds the tree built and the tree's warning set
# (warnings_file) exists; else 1, with STEP_BUILD_WHY set.
#
# - Already there (the marker names the tree, no build pending, the set
#   kept): nothing to do (OUT/status says so).
# - No warning set of the tree or an ancestor, or a directory whose
#   content is unknown (no marker): a complete build from an empty
#   directory, whose warnings are the tree's set.
# - Otherwise an incremental build from the marker's tree: the series'
#   Kconfig fragments merged again if a Kconfig file changed, the final
#   links forced if a file was added, removed or renamed or a Makefile
#   changed, and every object built with a header that moved or went removed
#   (make does not always rebuild an object whose recorded dependency
#   vanished).  The tree's set is the starting set plus what the build
#   emitted.
# - A build that failed or was stopped leaves .series-building: the
#   objects it wrote are removed before the next build, which then
#   compiles them again and emits their warnings.
step_build() {
	local out=$1 base=$2 tree wset ref built changes moved g n cmd b pats
	STEP_BUILD_WHY=''
	mkdir -p "$out"
	tree=$(tgit rev-parse 'HEAD^{tree}')
	wset=$(warnings_file "$tree")
	if step_build_holds; then
		echo "already built at this tree" >"$out/status"
		return 0
	fi
	built=$(cat "$ARCH_BUILD_DIR/.series-built-tree" 2>/dev/null || true)
	ref=$(step_build_ref "$base")
	if [ -z "$ref" ] || [ -z "$built" ] || ! tgit cat-file -e "$built^{tree}" 2>/dev/null; then
		if [ -n "$ref" ]; then
			echo "complete build: what the directory held is unknown" >"$out/status"
		else
			echo "complete build: no warning set of the tree or an ancestor" >"$out/status"
		fi
		rm -rf "$ARCH_BUILD_DIR"
		built='' ref=''
	elif [ -e "$ARCH_BUILD_DIR/.series-building" ]; then
		n=$(find "$ARCH_BUILD_DIR" -newer "$ARCH_BUILD_DIR/.series-building" -type f \
			\( -name '*.o' -o -name '*.s' -o -name '*.ko' -o -name vmlinux \) -print -delete | wc -l)
		echo "incremental build; $n file(s) of a build that did not finish removed" >"$out/status"
	else
		echo "incremental build" >"$out/status"
	fi
	if ! arch_config >"$out/config.log" 2>&1; then
		STEP_BUILD_WHY="configuration failed (see config.log)"
		return 1
	fi
	if [ -n "$built" ]; then
		changes=$out/changes-since-build
		tgit diff --name-status -M "$built" "$tree" >"$changes"
		if step_build_touches "$changes" '(^|/)Kconfig[^/]*$' && ! arch_reconfig >>"$out/config.log" 2>&1; then
			STEP_BUILD_WHY="Kconfig fragment option lost: $(grep -m1 'requested by' "$out/config.log")"
			return 1
		fi
		if awk '/^[ADR]/ { f = 1 } END { exit !f }' "$changes" ||
			step_build_touches "$changes" '(^|/)(Makefile|Kbuild)[^/]*$'; then
			rm -f "$ARCH_BUILD_DIR/vmlinux"
		fi
		mapfile -t moved < <(awk -F'\t' '/^[DR]/ && $2 ~ /\.h$/ { print $2 }' "$changes")
		if [ ${#moved[@]} -gt 0 ]; then
			pats=()
			for g in "${moved[@]}"; do pats+=(-e "$SERIES_TREE/$g"); done
			n=0
			while IFS= read -r cmd; do
				b=${cmd##*/} b=${b#.} b=${b%.cmd}
				rm -f "${cmd%/*}/$b"
				n=$((n + 1))
			done < <(grep -rlF --include='.*.cmd' "${pats[@]}" "$ARCH_BUILD_DIR" || true)
			echo "$n object(s) built with ${moved[*]} will be rebuilt" >"$out/moved-headers"
		fi
	fi
	echo "$tree" >"$ARCH_BUILD_DIR/.series-building"
	if ! kbuild "$out/build.log"; then
		STEP_BUILD_WHY="build failed: $(grep -m1 -E ': (fatal )?error: |\*\*\* ' "$out/build.log" || echo 'see build.log')"
		return 1
	fi
	warnings_extract "$out/build.log" >"$out/warnings"
	mkdir -p "${wset%/*}"
	sort -u ${ref:+"$ref"} "$out/warnings" >"$wset.tmp" && mv "$wset.tmp" "$wset"
	echo "$tree" >"$ARCH_BUILD_DIR/.series-built-tree"
	rm -f "$ARCH_BUILD_DIR/.series-building"
}

# step_prepare_dir: the loaded arch's prepare directory: its configuration,
# generated headers and the compile command of init/main.o at a step, for
# units that compile code of their own with kbuild's flags (CHECK_NEEDS=
# prepare).  It is not the build directory: building nothing else there,
# it has no warning set to keep, and a unit that only needs flags does
# not pay for a build of the step.
step_prepare_dir() {
	printf '%s\n' "$SERIES_BUILD/$ARCH_NAME-prepare"
}

# step_prepare_holds: does the prepare directory of the loaded arch hold
# the checked-out tree?
step_prepare_holds() {
	local dir
	dir=$(step_prepare_dir)
	[ "$(cat "$dir/.series-prepared-tree" 2>/dev/null)" = "$(tgit rev-parse 'HEAD^{tree}')" ] &&
		[ "$(cat "$dir/.series-config-key" 2>/dev/null)" = "$(arch_config_key)" ]
}

# step_prepare OUT: bring the prepare directory of the loaded arch to the
# checked-out tree: configuration (the series' fragments merged again if
# a Kconfig file changed since), then init/main.o compiled afresh, which
# makes the generated headers and records the flags.  Returns 0 or 1
# with STEP_BUILD_WHY set; logs in OUT.
step_prepare() {
	local out=$1 tree prepared ARCH_BUILD_DIR
	STEP_BUILD_WHY=''
	ARCH_BUILD_DIR=$(step_prepare_dir)
	mkdir -p "$out"
	if step_prepare_holds; then
		echo "already prepared at this tree" >"$out/status"
		return 0
	fi
	tree=$(tgit rev-parse 'HEAD^{tree}')
	prepared=$(cat "$ARCH_BUILD_DIR/.series-prepared-tree" 2>/dev/null || true)
	rm -f "$ARCH_BUILD_DIR/.series-prepared-tree"
	if ! arch_config >"$out/config.log" 2>&1; then
		STEP_BUILD_WHY="configuration failed (see config.log)"
		return 1
	fi
	if [ -z "$prepared" ] || ! tgit cat-file -e "$prepared^{tree}" 2>/dev/null ||
		[ -n "$(tgit diff --name-only "$prepared" "$tree" -- '*Kconfig*')" ]; then
		if ! arch_reconfig >>"$out/config.log" 2>&1; then
			STEP_BUILD_WHY="Kconfig fragment option lost: $(grep -m1 'requested by' "$out/config.log")"
			return 1
		fi
	fi
	rm -f "$ARCH_BUILD_DIR/init/main.o"
	if ! kmake -s init/main.o >"$out/prepare.log" 2>&1; then
		STEP_BUILD_WHY="make init/main.o failed: $(grep -m1 -E ': (fatal )?error: |\*\*\* ' "$out/prepare.log" || echo 'see prepare.log')"
		return 1
	fi
	echo "$tree" >"$ARCH_BUILD_DIR/.series-prepared-tree"
	echo "prepared" >"$out/status"
}
