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
# In the state, beside each tree's warning set (warnings_file), its key
# map (keys_file, keymap.py): the compile key of every object.

# step_build_ref BASE [REV]: the nearest warning set of REV (default
# HEAD) or of an ancestor of it down to BASE, as "COMMIT TREE FILE";
# nothing if there is none.  The build check finds its parent's set with
# it, step_build the set a build starts from.
step_build_ref() {
	local c t f
	for c in $(tgit rev-list "${2:-HEAD}" --not "$1") "$(tgit rev-parse "$1")"; do
		t=$(tgit rev-parse "$c^{tree}") || return 1
		f=$(warnings_file "$t")
		if [ -f "$f" ]; then
			printf '%s %s %s\n' "$c" "$t" "$f"
			return 0
		fi
	done
}

# step_build_forget: the configuration of the loaded arch's build
# directory was made again outside step_build (the config command): what
# the directory holds is no longer known.
step_build_forget() {
	rm -f "$ARCH_BUILD_DIR/.series-built-tree"
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

# step_build_keys_complete TREE-ID: is the key map of the tree kept, and
# does it account for every object (keymap.py)?
step_build_keys_complete() {
	[ "$(head -n 1 "$(keys_file "$1")" 2>/dev/null)" = '# complete' ]
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
# (warnings_file) exists; else 1, with STEP_BUILD_WHY set.  Every build
# also keeps the tree's key map (keys_file): the directory's tree's map
# updated with the keys this build's compiles logged.  With
# STEP_BUILD_KEYS=1 the map must account for every object: a directory
# whose tree has no complete map is built completely.
#
# - Already there (the marker names the tree, no build pending, the set
#   kept): nothing to do (OUT/status says so).
# - No warning set of the tree or an ancestor, or a directory whose
#   content is unknown (no marker): a complete build from an empty
#   directory, whose warnings are the tree's set.
# - Otherwise an incremental build from the marker's tree: the series'
#   Kconfig fragments merged again if a Kconfig file changed, the final
#   links forced if a file was added, removed or renamed or a Makefile
#   changed, and every object built with a path that changed since the
#   marker's tree or since the tree of the starting set built again.  The
#   tree's set is the starting set plus what the build emitted: every
#   object that can differ from the starting set's tree was compiled.
# - A build that failed or was stopped leaves .series-building: what it
#   wrote is removed before the next build, which makes it again and
#   emits its warnings, and merges the fragments again.
step_build() {
	local out=$1 base=$2 tree wset ref reftree built changes n cmd b pending from complete='' paths=() pats=()
	# Callers test the status (if !, ||), which turns set -e off here:
	# every step that can fail is checked.
	STEP_BUILD_WHY='could not read the tree or write the logs'
	mkdir -p "$out" || return 1
	tree=$(tgit rev-parse 'HEAD^{tree}') || return 1
	wset=$(warnings_file "$tree") || return 1
	if step_build_holds && { [ "${STEP_BUILD_KEYS:-}" != 1 ] || step_build_keys_complete "$tree"; }; then
		echo "already built at this tree" >"$out/status"
		STEP_BUILD_WHY=''
		return 0
	fi
	built=$(cat "$ARCH_BUILD_DIR/.series-built-tree" 2>/dev/null || true)
	ref=$(step_build_ref "$base") || return 1
	reftree=$(printf '%s' "$ref" | cut -d' ' -f2)
	ref=$(printf '%s' "$ref" | cut -d' ' -f3-)
	# A directory at this very tree whose set is gone (the state was
	# cleared) would emit nothing: what it holds is unknown too.
	if [ -z "$ref" ] || [ -z "$built" ] || ! tgit cat-file -e "$built^{tree}" 2>/dev/null ||
		{ [ "$built" = "$tree" ] && [ ! -f "$wset" ]; } ||
		{ [ "${STEP_BUILD_KEYS:-}" = 1 ] && ! step_build_keys_complete "$built"; }; then
		if [ -n "$ref" ] && [ -n "$built" ] && [ "${STEP_BUILD_KEYS:-}" = 1 ] &&
			! step_build_keys_complete "$built"; then
			echo "complete build: no complete key map of the directory's tree" >"$out/status"
		elif [ -n "$ref" ]; then
			echo "complete build: what the directory held is unknown" >"$out/status"
		else
			echo "complete build: no warning set of the tree or an ancestor" >"$out/status"
		fi
		rm -rf "$ARCH_BUILD_DIR" || return 1
		built='' ref='' complete=1
	elif [ -e "$ARCH_BUILD_DIR/.series-building" ]; then
		# Everything written since that build began (the marker is
		# dated two seconds back, for coarse timestamps): objects,
		# host programs, generated files; make makes them again.
		n=$(find "$ARCH_BUILD_DIR" -newer "$ARCH_BUILD_DIR/.series-building" -type f \
			! -name '.series-*' ! -name .config -print -delete | wc -l) || return 1
		echo "incremental build; $n file(s) of a build that did not finish removed" >"$out/status"
	else
		echo "incremental build" >"$out/status"
	fi
	# Pending from here: a configuration step or build that fails or is
	# stopped leaves the marker, and the next build starts from it.
	if [ -e "$ARCH_BUILD_DIR/.series-building" ]; then
		pending=1
	else
		pending=''
		mkdir -p "$ARCH_BUILD_DIR" || return 1
		echo "$tree" >"$ARCH_BUILD_DIR/.series-building" || return 1
		touch -d "@$(($(date +%s) - 2))" "$ARCH_BUILD_DIR/.series-building" || return 1
	fi
	if ! arch_config >"$out/config.log" 2>&1; then
		STEP_BUILD_WHY="configuration failed (see config.log)"
		return 1
	fi
	if [ -n "$built" ]; then
		changes=$out/changes-since-build
		tgit diff --name-status -M "$built" "$tree" >"$changes" || return 1
		# The fragments again after a Kconfig change, or after a build
		# that did not finish (its olddefconfig may have run for
		# another tree).
		if { [ -n "$pending" ] || step_build_touches "$changes" '(^|/)Kconfig[^/]*$'; } &&
			! arch_reconfig >>"$out/config.log" 2>&1; then
			STEP_BUILD_WHY="Kconfig fragment option lost: $(grep -m1 'requested by' "$out/config.log")"
			return 1
		fi
		if awk '/^[ADR]/ { f = 1 } END { exit !f }' "$changes" ||
			step_build_touches "$changes" '(^|/)(Makefile|Kbuild)[^/]*$'; then
			rm -f "$ARCH_BUILD_DIR/vmlinux" || return 1
		fi
		# Every object built with a path that differs between the tree
		# and the directory's, or the tree whose set this one starts
		# from, is built again: make does not always rebuild an object
		# whose recorded dependency vanished (a moved header), and an
		# object that differs from the starting set's tree but not
		# from the directory's would not emit its warnings.
		mapfile -t paths < <({ cut -f2- "$changes"
			[ "$reftree" = "$built" ] || tgit diff --name-status -M "$reftree" "$tree" | cut -f2-
		} | tr '\t' '\n' | sort -u)
		if [ ${#paths[@]} -gt 0 ]; then
			for b in "${paths[@]}"; do pats+=(-e "$SERIES_TREE/$b"); done
			n=0
			while IFS= read -r cmd; do
				b=${cmd##*/} b=${b#.} b=${b%.cmd}
				rm -f "${cmd%/*}/$b" || return 1
				n=$((n + 1))
			done < <(grep -rlF --include='.*.cmd' "${pats[@]}" "$ARCH_BUILD_DIR" || true)
			echo "$n object(s) built with a changed path will be rebuilt" >"$out/rebuilt"
		fi
	fi
	# Every compile's key, for the tree's key map; what the launcher
	# writes after the stamp without a key is unknown there.
	: >"$out/mcache.log" || return 1
	: >"$out/keymap.stamp" || return 1
	if ! MCACHE_LOG=$out/mcache.log kbuild "$out/build.log"; then
		STEP_BUILD_WHY="build failed: $(grep -m1 -E ': (fatal )?error: |\*\*\* ' "$out/build.log" || echo 'see build.log')"
		return 1
	fi
	if ! warnings_extract "$out/build.log" >"$out/warnings"; then
		STEP_BUILD_WHY="the warnings of the build log could not be read"
		return 1
	fi
	STEP_BUILD_WHY='could not keep the warning set or the marker'
	mkdir -p "${wset%/*}" || return 1
	sort -u ${ref:+"$ref"} "$out/warnings" >"$wset.tmp" || return 1
	mv "$wset.tmp" "$wset" || return 1
	from=''
	[ -z "$built" ] || [ ! -f "$(keys_file "$built")" ] || from=$(keys_file "$built")
	STEP_BUILD_WHY='could not keep the key map (see keymap.log)'
	mkdir -p "$(dirname "$(keys_file "$tree")")" || return 1
	python3 "$SERIES_ROOT/scripts/lib/keymap.py" update --build-dir "$ARCH_BUILD_DIR" \
		--since "$out/keymap.stamp" --log "$out/mcache.log" \
		${complete:+--complete} ${from:+--from "$from"} --out "$(keys_file "$tree").tmp" \
		>"$out/keymap.log" 2>&1 || return 1
	mv "$(keys_file "$tree").tmp" "$(keys_file "$tree")" || return 1
	STEP_BUILD_WHY='could not keep the warning set or the marker'
	echo "$tree" >"$ARCH_BUILD_DIR/.series-built-tree" || return 1
	rm -f "$ARCH_BUILD_DIR/.series-building" || return 1
	STEP_BUILD_WHY=''
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
	local out=$1 tree prepared kconfig ARCH_BUILD_DIR
	# As in step_build: set -e is off here, every step is checked.
	STEP_BUILD_WHY='could not read the tree or write the logs'
	ARCH_BUILD_DIR=$(step_prepare_dir)
	mkdir -p "$out" || return 1
	if step_prepare_holds; then
		echo "already prepared at this tree" >"$out/status"
		STEP_BUILD_WHY=''
		return 0
	fi
	tree=$(tgit rev-parse 'HEAD^{tree}') || return 1
	prepared=$(cat "$ARCH_BUILD_DIR/.series-prepared-tree" 2>/dev/null || true)
	rm -f "$ARCH_BUILD_DIR/.series-prepared-tree" || return 1
	if ! arch_config >"$out/config.log" 2>&1; then
		STEP_BUILD_WHY="configuration failed (see config.log)"
		return 1
	fi
	kconfig=all
	if [ -n "$prepared" ] && tgit cat-file -e "$prepared^{tree}" 2>/dev/null; then
		kconfig=$(tgit diff --name-only "$prepared" "$tree" -- '*Kconfig*') || return 1
	fi
	if [ -n "$kconfig" ] && ! arch_reconfig >>"$out/config.log" 2>&1; then
		STEP_BUILD_WHY="Kconfig fragment option lost: $(grep -m1 'requested by' "$out/config.log")"
		return 1
	fi
	rm -f "$ARCH_BUILD_DIR/init/main.o" || return 1
	if ! kmake -s init/main.o >"$out/prepare.log" 2>&1; then
		STEP_BUILD_WHY="make init/main.o failed: $(grep -m1 -E ': (fatal )?error: |\*\*\* ' "$out/prepare.log" || echo 'see prepare.log')"
		return 1
	fi
	echo "$tree" >"$ARCH_BUILD_DIR/.series-prepared-tree" || return 1
	echo "prepared" >"$out/status"
	STEP_BUILD_WHY=''
}
