# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# scripts/series bisect: every patch of the applied stack, in order, on
# every architecture it affects, judged by the check units under
# scripts/checks/ against its parent step.

# shellcheck source=scripts/lib/runner.sh
. "$SERIES_ROOT/scripts/lib/runner.sh"

# repro_command CHECK ARCH COMMIT PATCH BRANCH: the manifest's CHECK_REPRO
# with its {arch}, {commit}, {patch} and {tree} placeholders filled in (the
# paths quoted for the shell); a
# 'scripts/series bisect' of a branch or series file other than the
# defaults names them (quoted for the shell), so that it judges the same
# stack.
repro_command() {
	local r pre=''
	check_load "$1"
	r=${CHECK_REPRO:-"(no reproducer for check $1)"}
	r=${r//\{arch\}/$2}
	r=${r//\{commit\}/$3}
	r=${r//\{patch\}/$(printf '%q' "$4")}
	r=${r//\{tree\}/$(printf '%q' "$SERIES_TREE")}
	if [[ $r == 'scripts/series bisect'* ]]; then
		[ "$SERIES_FILE" = "$SERIES_ROOT/series" ] || pre="SERIES_FILE=$(printf '%q' "$SERIES_FILE") "
		[ "$5" = "$SERIES_BRANCH" ] || r="scripts/series bisect --branch $(printf '%q' "$5")${r#scripts/series bisect}"
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

# cmd_bisect: see usage.
cmd_bisect() {
	local branch=$SERIES_BRANCH to="" keep_going=0 base k arch check commits=()
	local changes arches first_bad="" a t0 needed=() selected_checks=() c shard='' mine=()
	SELECTED_ARCHES=() SHARD_UNITS=()
	while [ $# -gt 0 ]; do
		case $1 in
		--arch) [ $# -ge 2 ] || die_usage "--arch needs an arch"; arch_load "$2"; SELECTED_ARCHES+=("$2"); shift 2 ;;
		--check) [ $# -ge 2 ] || die_usage "--check needs a check name"; selected_checks+=("$2"); shift 2 ;;
		--to)
			[[ ${2:-} =~ ^[1-9][0-9]*$ || ${2:-} == *.patch ]] ||
				die_usage "--to needs a patch number or a patch file name, not '${2:-}'"
			to=$2; shift 2 ;;
		--keep-going) keep_going=1; shift ;;
		--branch) [ $# -ge 2 ] || die_usage "--branch needs a name"; branch=$2; shift 2 ;;
		--shard)
			[[ ${2:-} =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] ||
				die_usage "--shard needs K/N with 1 <= K <= N, not '${2:-}'"
			shard=$2; shift 2 ;;
		*) die_usage "bisect: unknown argument '$1'" ;;
		esac
	done
	need_base_tools
	series_read
	checks_discover
	# Here, not in the subshells of affected_arches, which would each
	# read them again.
	affected_rules_load
	if [ ${#selected_checks[@]} -gt 0 ]; then
		for c in "${selected_checks[@]}"; do
			[[ " ${CHECKS[*]} " == *" $c "* ]] || die_usage "--check: no check '$c' (have: ${CHECKS[*]})"
		done
		CHECKS=("${selected_checks[@]}")
	fi
	tree_require_clean
	base=$(series_base_rev)
	tgit rev-parse -q --verify "refs/heads/$branch" >/dev/null ||
		die "no branch $branch in $SERIES_TREE; run '$SERIES_PROG apply' first"
	mapfile -t commits < <(tgit rev-list --reverse "$base..$branch")
	[ ${#commits[@]} -eq ${#PATCHES[@]} ] ||
		die "branch $branch has ${#commits[@]} commits on the base, the series ${#PATCHES[@]} patches; run '$SERIES_PROG apply'"
	branch_is_series "$branch" "${commits[@]}"
	NSTEPS=${#PATCHES[@]}
	[ -z "$to" ] || to=$(step_number "$to")
	[ -z "$to" ] || [ "$to" -le "$NSTEPS" ] || die_usage "--to $to: the series has $NSTEPS patches"
	[ -n "$to" ] || to=$NSTEPS

	# Every arch some step needs, toolchains first: a missing cross
	# compiler is a set-up error (exit 2 naming its package), not a verdict.
	BISECT_CHANGES=$(mktemp)
	changes=$BISECT_CHANGES
	BISECT_ORIG=$(tgit symbolic-ref -q --short HEAD || tgit rev-parse HEAD)
	at_exit bisect_restore
	[ -z "${SERIES_ARCHES:-}" ] || arch_list_default >/dev/null
	for k in $(seq 1 "$to"); do
		step_paths "${commits[k - 1]}" >"$changes"
		for a in $(affected_arches "$changes"); do
			[[ " ${needed[*]} " == *" $a "* ]] || needed+=("$a")
		done
	done
	# --shard K/N: the matrix is split into units, "all" (the checks that
	# are not per arch) and one per arch, dealt round-robin in a stable
	# order; this run takes the units of shard K.
	if [ -n "$shard" ]; then
		local units=(all "${needed[@]}") i
		for i in "${!units[@]}"; do
			[ $((i % ${shard#*/} + 1)) -ne "${shard%/*}" ] || SHARD_UNITS+=("${units[i]}")
		done
		[ ${#SHARD_UNITS[@]} -gt 0 ] ||
			warn "shard $shard: the matrix has only ${#units[@]} unit(s) (${units[*]}); nothing to do"
		needed=()
		for a in "${SHARD_UNITS[@]}"; do
			[ "$a" = all ] || needed+=("$a")
		done
	fi
	local runmeta=''
	for a in "${needed[@]}"; do
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
		echo "base=$base"
		echo "branch=$branch"
		echo "tree=$SERIES_TREE"
		echo "arches=${needed[*]}"
		echo "checks=${CHECKS[*]}"
		echo "shard=${shard:-1/1}"
		echo "units=${SHARD_UNITS[*]:-all ${needed[*]}}"
		echo "verdict-salt=$VERDICT_SALT"
		printf '%s' "$runmeta"
		echo "started=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	} >"$SERIES_RESULTS/meta"
	printf '0\tbase\t%s\t%s\n' "$base" "$(tgit log -1 --format=%s "$base")" >"$SERIES_RESULTS/steps"
	t0=$(now)

	# Step 0: the reference every first patch is judged against.
	STEP_BASE=$(tgit rev-parse "$base")
	STEP_COMMIT=$STEP_BASE
	STEP_PARENT='' STEP_PATCH='' STEP_CHANGES='' STEP_SUBJECT="base $(tgit log -1 --format=%h "$base")"
	for check in "${CHECKS[@]}"; do
		check_load "$check"
		[ "$CHECK_AT_BASE" = 1 ] || continue
		if [ "$CHECK_PER_ARCH" = 1 ]; then
			[ ${#needed[@]} -eq 0 ] || run_per_arch 0 "$check" base_must_pass "${needed[@]}"
		elif in_shard all; then
			run_check 0 "" "$check"
			base_must_pass 0 "" "$check"
		fi
	done

	for k in $(seq 1 "$to"); do
		STEP_PARENT=${commits[k - 1]}~1
		STEP_PARENT=$(tgit rev-parse "$STEP_PARENT")
		STEP_SUBJECT=$(tgit log -1 --format=%s "${commits[k - 1]}")
		STEP_CHANGES=$SERIES_RESULTS/$(printf '%04d' "$k")/changes
		mkdir -p "${STEP_CHANGES%/*}"
		# The checks judge the commit under test, also after a rebase that
		# was not exported yet; say so when patches/ differs from it.
		STEP_PATCH=$SERIES_RESULTS/$(printf '%04d' "$k")/${PATCHES[k - 1]}
		tgit format-patch -q --stdout "${PATCH_DIFF_OPTS[@]}" -1 "${commits[k - 1]}" >"$STEP_PATCH"
		[ "$(patch_id <"$STEP_PATCH")" = "$(patch_id <"$SERIES_PATCHES/${PATCHES[k - 1]}")" ] ||
			warn "patch $k: branch $branch differs from patches/${PATCHES[k - 1]}; judging the branch (run '$SERIES_PROG export')"
		tgit diff --name-status -M "$STEP_PARENT" "${commits[k - 1]}" >"$STEP_CHANGES"
		printf '%d\t%s\t%s\t%s\n' "$k" "${PATCHES[k - 1]}" "${commits[k - 1]}" "$STEP_SUBJECT" >>"$SERIES_RESULTS/steps"
		STEP_COMMIT=${commits[k - 1]}
		step_paths "${commits[k - 1]}" >"$changes"
		mapfile -t arches < <(affected_arches "$changes")
		for check in "${CHECKS[@]}"; do
			check_load "$check"
			# A series check runs at the last step judged only.
			[ "$CHECK_STEPS" = every ] || [ "$k" = "$to" ] || continue
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
		[ -z "$first_bad" ] || [ "$keep_going" = 1 ] || break
	done
	echo "finished=$(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$SERIES_RESULTS/meta"
	echo "duration=$(($(now) - t0))" >>"$SERIES_RESULTS/meta"
	python3 "$SERIES_ROOT/scripts/lib/report.py" "$SERIES_RESULTS" >&2
	# A skip is never a pass: list every one.
	local st
	while IFS= read -r st; do
		printf 'SKIPPED: %s: %s\n' "$(dirname "${st#"$SERIES_RESULTS"/}")" \
			"$(head -n 1 "${st%/status}/summary")" >&2
	done < <(grep -lx skip "$SERIES_RESULTS"/[0-9]*/*/*/status)
	if [ ${#needed[@]} -eq 0 ] && [ -z "$shard" ]; then
		warn "no arch of the selection is affected by patches 1-$to: nothing was built"
	fi
	if [ -n "$first_bad" ]; then
		printf '%s\n' "$first_bad" >&2
		return 1
	fi
	return 0
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
	[ -z "$first_bad" ] || return 0
	local k=$1 a=$2 check=$3
	first_bad="reproduce patch $k with: $(repro_command "$check" "$a" "${commits[k - 1]}" "$STEP_PATCH" "$branch")"
}
