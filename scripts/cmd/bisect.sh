# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# scripts/series walk: every patch of the applied stack, in order, on
# every architecture it affects, judged by the check units under
# scripts/checks/ against its parent step.

# shellcheck source=scripts/lib/runner.sh
. "$SERIES_ROOT/scripts/lib/runner.sh"

# repro_command CHECK ARCH COMMIT PATCH BRANCH: the manifest's CHECK_REPRO
# with its {arch}, {commit}, {patch} and {tree} placeholders filled in (the
# paths quoted for the shell); a
# 'scripts/series walk' (or its alias bisect) of a branch or series file
# other than the defaults names them (quoted for the shell), so that it
# judges the same stack.
repro_command() {
	local r pre='' patch tree
	check_load "$1"
	r=${CHECK_REPRO:-"(no reproducer for check $1)"}
	# Quoted replacements: bash 5.2 reads & in an unquoted one as the
	# matched text (patsub_replacement).
	patch=$(printf '%q' "$4") tree=$(printf '%q' "$SERIES_TREE")
	r=${r//\{arch\}/"$2"}
	r=${r//\{commit\}/"$3"}
	r=${r//\{patch\}/"$patch"}
	r=${r//\{tree\}/"$tree"}
	[[ $r != 'scripts/series bisect'* ]] || r="scripts/series walk${r#scripts/series bisect}"
	if [[ $r == 'scripts/series walk'* ]]; then
		[ "$SERIES_FILE" = "$SERIES_ROOT/series" ] || pre="SERIES_FILE=$(printf '%q' "$SERIES_FILE") "
		[ "$5" = "$SERIES_BRANCH" ] || r="scripts/series walk --branch $(printf '%q' "$5")${r#scripts/series walk}"
	fi
	printf '%s%s\n' "$pre" "$r"
}

# step_number ARG: the patch that "--to ARG" names, by number or by its
# file (a path to it names it by its base name, as the reproducers of the
# check units do with {patch}).
step_number() {
	local k
	if [[ $1 =~ ^[1-9][0-9]*$ ]]; then
		echo "$1"
		return
	fi
	for k in "${!PATCHES[@]}"; do
		if [ "${PATCHES[k]}" = "${1##*/}" ]; then
			echo $((k + 1))
			return
		fi
	done
	die_usage "--to $1: no such patch in $SERIES_FILE"
}

# branch_is_series BRANCH COMMIT...: fail unless the commits are the stack
# of SERIES_FILE, patch by patch: the subject 'git am' takes from the
# patch file (git mailinfo), and the same diff: the same patch-id, or, for
# a patch file written otherwise (another context, another diff
# algorithm), the same tree when the patch is applied to the commit's
# parent in an index of its own.  So bisect judges what check, which
# applies SERIES_FILE first, would judge.
branch_is_series() {
	local branch=$1 k c f want have idx tree
	shift
	for k in "${!PATCHES[@]}"; do
		c=${*:k+1:1} f=$SERIES_PATCHES/${PATCHES[k]}
		want=$(git mailinfo /dev/null /dev/null <"$f" | sed -n 's/^Subject: //p')
		have=$(tgit log -1 --format=%s "$c")
		[ "$want" = "$have" ] ||
			die "branch $branch is not the stack of $SERIES_FILE: commit $((k + 1)) is '$have', patch $((k + 1)) ${PATCHES[k]} '$want'; run '$SERIES_PROG apply' with this SERIES_FILE"
		want=$(git patch-id --stable <"$f" | cut -d' ' -f1)
		have=$(tgit format-patch -1 --stdout "${PATCH_DIFF_OPTS[@]}" "$c" | git patch-id --stable | cut -d' ' -f1)
		[ "$want" != "$have" ] || continue
		idx=$(mktemp)
		tree=$(GIT_INDEX_FILE=$idx tgit read-tree "$c~1" &&
			GIT_INDEX_FILE=$idx tgit apply --cached <"$f" 2>/dev/null &&
			GIT_INDEX_FILE=$idx tgit write-tree) || tree=''
		rm -f -- "$idx"
		[ "$tree" = "$(tgit rev-parse "$c^{tree}")" ] ||
			die "branch $branch is not the stack of $SERIES_FILE: commit $((k + 1)) ($(tgit rev-parse --short "$c")) has another diff than patch ${PATCHES[k]}; run '$SERIES_PROG apply' with this SERIES_FILE"
	done
}

# bisect_restore: at exit, remove cmd_bisect's list of changed paths and
# check out again what it found checked out.
BISECT_CHANGES='' BISECT_ORIG=''
bisect_restore() {
	[ -z "$BISECT_CHANGES" ] || rm -f -- "$BISECT_CHANGES"
	[ -z "$BISECT_ORIG" ] || tgit checkout -q -f "$BISECT_ORIG" 2>/dev/null || true
}

# The walk's state, set by cmd_bisect and read by the functions below
# (globals, never a caller's locals): the branch judged, its commits in
# order, the last step to judge, the arches any step needs, and the
# reproducer of the first failure ("" while none).
BISECT_BRANCH='' BISECT_COMMITS=() BISECT_TO='' BISECT_NEEDED=() BISECT_FIRST_BAD=''

# bisect_args ARG...: parse the options of bisect into BISECT_BRANCH,
# BISECT_TO (a number or a patch file, resolved later), BISECT_KEEP_GOING,
# BISECT_SHARD, BISECT_CHECKS_SELECTED and SELECTED_ARCHES.
bisect_args() {
	BISECT_BRANCH=$SERIES_BRANCH BISECT_TO='' BISECT_KEEP_GOING=0 BISECT_SHARD=''
	BISECT_CHECKS_SELECTED=() SELECTED_ARCHES=() SHARD_UNITS=()
	while [ $# -gt 0 ]; do
		case $1 in
		--arch) [ $# -ge 2 ] || die_usage "--arch needs an arch"; arch_load "$2"; SELECTED_ARCHES+=("$2"); shift 2 ;;
		--check) [ $# -ge 2 ] || die_usage "--check needs a check name"; BISECT_CHECKS_SELECTED+=("$2"); shift 2 ;;
		--to)
			[[ ${2:-} =~ ^[1-9][0-9]*$ || ${2:-} == *.patch ]] ||
				die_usage "--to needs a patch number or a patch file name, not '${2:-}'"
			BISECT_TO=$2; shift 2 ;;
		--keep-going) BISECT_KEEP_GOING=1; shift ;;
		--branch) [ $# -ge 2 ] || die_usage "--branch needs a name"; BISECT_BRANCH=$2; shift 2 ;;
		--shard)
			[[ ${2:-} =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] ||
				die_usage "--shard needs K/N with 1 <= K <= N, not '${2:-}'"
			BISECT_SHARD=$2; shift 2 ;;
		*) die_usage "bisect: unknown argument '$1'" ;;
		esac
	done
}

# bisect_stack: the check units (CHECKS) and the stack to judge: the
# branch must be the stack of SERIES_FILE; sets BISECT_BASE,
# BISECT_COMMITS, NSTEPS and BISECT_TO.
bisect_stack() {
	local c
	need_base_tools
	series_read
	checks_discover
	# Here, not in the subshells of affected_arches, which would each
	# read them again.
	affected_rules_load
	if [ ${#BISECT_CHECKS_SELECTED[@]} -gt 0 ]; then
		for c in "${BISECT_CHECKS_SELECTED[@]}"; do
			[[ " ${CHECKS[*]} " == *" $c "* ]] || die_usage "--check: no check '$c' (have: ${CHECKS[*]})"
		done
		CHECKS=("${BISECT_CHECKS_SELECTED[@]}")
	fi
	tree_require_clean
	BISECT_BASE=$(series_base_rev)
	tgit rev-parse -q --verify "refs/heads/$BISECT_BRANCH" >/dev/null ||
		die "no branch $BISECT_BRANCH in $SERIES_TREE; run '$SERIES_PROG apply' first"
	mapfile -t BISECT_COMMITS < <(tgit rev-list --reverse "$BISECT_BASE..$BISECT_BRANCH")
	[ ${#BISECT_COMMITS[@]} -eq ${#PATCHES[@]} ] ||
		die "branch $BISECT_BRANCH has ${#BISECT_COMMITS[@]} commits on the base, the series ${#PATCHES[@]} patches; run '$SERIES_PROG apply'"
	branch_is_series "$BISECT_BRANCH" "${BISECT_COMMITS[@]}"
	bisect_listed_steps
	NSTEPS=${#PATCHES[@]}
	[ -z "$BISECT_TO" ] || BISECT_TO=$(step_number "$BISECT_TO")
	[ -z "$BISECT_TO" ] || [ "$BISECT_TO" -le "$NSTEPS" ] || die_usage "--to $BISECT_TO: the series has $NSTEPS patches"
	[ -n "$BISECT_TO" ] || BISECT_TO=$NSTEPS
}

# bisect_listed_steps: every subject that a unit's CHECK_STEPS=listed:FILE
# names is a patch of the stack: a patch renamed would else drop out of
# the unit without a word.
bisect_listed_steps() {
	local c s subjects
	subjects=$(for c in "${BISECT_COMMITS[@]}"; do tgit log -1 --format=%s "$c"; done)
	for c in "${CHECKS[@]}"; do
		check_load "$c"
		[[ $CHECK_STEPS == listed:* ]] || continue
		while IFS= read -r s; do
			grep -qxF -e "$s" <<<"$subjects" ||
				die "configs/${CHECK_STEPS#listed:} (check $c) names '$s', which is no patch of branch $BISECT_BRANCH"
		done < <(check_listed_subjects)
	done
}

# bisect_arches: BISECT_NEEDED, every arch some step up to BISECT_TO
# affects, and, with --shard K/N, SHARD_UNITS and the arches of shard K.
bisect_arches() {
	local k a
	BISECT_NEEDED=()
	[ -z "${SERIES_ARCHES:-}" ] || arch_list_default >/dev/null
	for k in $(seq 1 "$BISECT_TO"); do
		step_paths "${BISECT_COMMITS[k - 1]}" >"$BISECT_CHANGES"
		for a in $(affected_arches "$BISECT_CHANGES"); do
			[[ " ${BISECT_NEEDED[*]} " == *" $a "* ]] || BISECT_NEEDED+=("$a")
		done
	done
	# --shard K/N: the matrix is split into units, "all" (the checks that
	# are not per arch) and one per arch, dealt round-robin in a stable
	# order; this run takes the units of shard K.
	if [ -n "$BISECT_SHARD" ]; then
		local units=(all "${BISECT_NEEDED[@]}") i
		for i in "${!units[@]}"; do
			[ $((i % ${BISECT_SHARD#*/} + 1)) -ne "${BISECT_SHARD%/*}" ] || SHARD_UNITS+=("${units[i]}")
		done
		[ ${#SHARD_UNITS[@]} -gt 0 ] ||
			warn "shard $BISECT_SHARD: the matrix has only ${#units[@]} unit(s) (${units[*]}); nothing to do"
		BISECT_NEEDED=()
		for a in "${SHARD_UNITS[@]}"; do
			[ "$a" = all ] || BISECT_NEEDED+=("$a")
		done
	fi
}

# bisect_meta: the toolchains of the needed arches (a missing cross
# compiler is a set-up error, exit 2 naming its package, not a verdict),
# the verdict salt, and a new result tree with its meta and steps files.
bisect_meta() {
	local a runmeta=''
	for a in "${BISECT_NEEDED[@]}"; do
		arch_load "$a"
		if arch_no_toolchain "$a"; then
			runmeta+="toolchain.$a=none"$'\n'
			continue
		fi
		arch_need_toolchain
		runmeta+="toolchain.$a=$("${ARCH_CROSS_COMPILE}gcc" --version | head -n 1)"$'\n'
		runmeta+="config.$a=$(arch_config_key)"$'\n'
	done
	VERDICT_SALT=$(verdict_salt)

	rm -rf "$SERIES_RESULTS"
	mkdir -p "$SERIES_RESULTS"
	{
		echo "base=$BISECT_BASE"
		echo "branch=$BISECT_BRANCH"
		echo "tree=$SERIES_TREE"
		echo "arches=${BISECT_NEEDED[*]}"
		echo "checks=${CHECKS[*]}"
		echo "shard=${BISECT_SHARD:-1/1}"
		echo "units=${SHARD_UNITS[*]:-all ${BISECT_NEEDED[*]}}"
		echo "verdict-salt=$VERDICT_SALT"
		printf '%s' "$runmeta"
		echo "started=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	} >"$SERIES_RESULTS/meta"
	printf '0\tbase\t%s\t%s\n' "$BISECT_BASE" "$(tgit log -1 --format=%s "$BISECT_BASE")" >"$SERIES_RESULTS/steps"
}

# bisect_base: step 0, the reference every first patch is judged
# against; it must pass.
bisect_base() {
	local check
	STEP_BASE=$(tgit rev-parse "$BISECT_BASE")
	STEP_COMMIT=$STEP_BASE
	STEP_PARENT='' STEP_PATCH='' STEP_CHANGES='' STEP_SUBJECT="base $(tgit log -1 --format=%h "$BISECT_BASE")"
	STEP_ARCHES=(${BISECT_NEEDED[@]+"${BISECT_NEEDED[@]}"})
	for check in "${CHECKS[@]}"; do
		check_load "$check"
		[ "$CHECK_AT_BASE" = 1 ] || continue
		if [ "$CHECK_PER_ARCH" = 1 ]; then
			[ ${#BISECT_NEEDED[@]} -eq 0 ] || run_per_arch 0 "$check" base_must_pass "${BISECT_NEEDED[@]}"
		elif in_shard all; then
			run_check 0 "" "$check"
			base_must_pass 0 "" "$check"
		fi
	done
}

# bisect_step K: judge patch K with every check unit on its arches.
bisect_step() {
	local k=$1 commit=${BISECT_COMMITS[$1 - 1]} check arches a mine
	STEP_PARENT=$(tgit rev-parse "$commit~1")
	STEP_SUBJECT=$(tgit log -1 --format=%s "$commit")
	STEP_CHANGES=$SERIES_RESULTS/$(printf '%04d' "$k")/changes
	mkdir -p "${STEP_CHANGES%/*}"
	# The checks judge the commit under test, also after a rebase that
	# was not exported yet; say so when patches/ differs from it.
	STEP_PATCH=$SERIES_RESULTS/$(printf '%04d' "$k")/${PATCHES[k - 1]}
	tgit format-patch -q --stdout "${PATCH_DIFF_OPTS[@]}" -1 "$commit" >"$STEP_PATCH"
	[ "$(patch_id <"$STEP_PATCH")" = "$(patch_id <"$SERIES_PATCHES/${PATCHES[k - 1]}")" ] ||
		warn "patch $k: branch $BISECT_BRANCH differs from patches/${PATCHES[k - 1]}; judging the branch (run '$SERIES_PROG export')"
	tgit diff --name-status -M "$STEP_PARENT" "$commit" >"$STEP_CHANGES"
	printf '%d\t%s\t%s\t%s\n' "$k" "${PATCHES[k - 1]}" "$commit" "$STEP_SUBJECT" >>"$SERIES_RESULTS/steps"
	STEP_COMMIT=$commit
	step_paths "$commit" >"$BISECT_CHANGES"
	mapfile -t arches < <(affected_arches "$BISECT_CHANGES")
	# For a unit that is not per arch but needs the builds of the arches
	# the step affects (CHECK_BUILD_ARCHES=affected): all of them, whatever
	# --arch selects, as its verdict does not depend on the selection.
	mapfile -t STEP_ARCHES < <(SELECTED_ARCHES=() && affected_arches "$BISECT_CHANGES")
	for check in "${CHECKS[@]}"; do
		check_load "$check"
		# A series check runs at the last step judged only, a unit
		# with listed steps at those only.
		check_runs_at "$k" "$STEP_SUBJECT" || continue
		if [ "$CHECK_PER_ARCH" = 1 ]; then
			mine=()
			for a in "${arches[@]}"; do
				in_shard "$a" && mine+=("$a")
			done
			[ ${#mine[@]} -eq 0 ] || run_per_arch "$k" "$check" note_failure "${mine[@]}"
		elif in_shard all; then
			run_check "$k" "" "$check"
			note_failure "$k" "" "$check"
		fi
	done
}

# bisect_finish T0: close the result tree, write the reports, list every
# skip (a skip is never a pass); fail if a patch failed.
bisect_finish() {
	local st
	echo "finished=$(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$SERIES_RESULTS/meta"
	echo "duration=$(($(now) - $1))" >>"$SERIES_RESULTS/meta"
	python3 "$SERIES_ROOT/scripts/lib/report.py" "$SERIES_RESULTS" >&2
	while IFS= read -r st; do
		printf 'SKIPPED: %s: %s\n' "$(dirname "${st#"$SERIES_RESULTS"/}")" \
			"$(head -n 1 "${st%/status}/summary")" >&2
	done < <(grep -lx skip "$SERIES_RESULTS"/[0-9]*/*/*/status)
	if [ ${#BISECT_NEEDED[@]} -eq 0 ] && [ -z "$BISECT_SHARD" ]; then
		warn "no arch of the selection is affected by patches 1-$BISECT_TO: nothing was built"
	fi
	if [ -n "$BISECT_FIRST_BAD" ]; then
		printf '%s\n' "$BISECT_FIRST_BAD" >&2
		return 1
	fi
	return 0
}

# cmd_bisect: see usage.
cmd_bisect() {
	local k t0
	bisect_args "$@"
	bisect_stack
	BISECT_CHANGES=$(mktemp)
	BISECT_ORIG=$(tgit symbolic-ref -q --short HEAD || tgit rev-parse HEAD)
	at_exit bisect_restore
	bisect_arches
	bisect_meta
	BISECT_FIRST_BAD=''
	t0=$(now)
	bisect_base
	for k in $(seq 1 "$BISECT_TO"); do
		bisect_step "$k"
		[ -z "$BISECT_FIRST_BAD" ] || [ "$BISECT_KEEP_GOING" = 1 ] || break
	done
	bisect_finish "$t0"
}

# in_shard UNIT: is UNIT (an arch, or "all") part of this run's shard?
in_shard() {
	[ ${#SHARD_UNITS[@]} -eq 0 ] || [[ " ${SHARD_UNITS[*]} " == *" $1 "* ]]
}

# base_must_pass STEP ARCH CHECK: a reference (STEP 0) that fails is a
# set-up error.
base_must_pass() {
	local r=$SERIES_RESULTS/0000/${2:-all}/$3
	[ "$LAST_STATUS" != fail ] ||
		die "the base does not pass '$3'${2:+ on $2}: $(head -n 1 "$r/summary"); log: $r/log"
}

# note_failure STEP ARCH CHECK: remember how to reproduce the first failure
# (the report names it: "first bad: patch K (FILE) on ARCH: CHECK: ...").
note_failure() {
	[ "$LAST_STATUS" = fail ] || return 0
	[ -z "$BISECT_FIRST_BAD" ] || return 0
	local k=$1 a=$2 check=$3
	BISECT_FIRST_BAD="reproduce patch $k with: $(repro_command "$check" "$a" "${BISECT_COMMITS[k - 1]}" "$STEP_PATCH" "$BISECT_BRANCH")"
}
