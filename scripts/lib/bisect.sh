# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The bisect-check runner: every patch of the applied stack, in order, on
# every architecture it affects, judged by the check units under
# scripts/checks/ against its parent step.

SERIES_CHECKS=${SERIES_CHECKS:-$SERIES_ROOT/scripts/checks}

# checks_discover: fill CHECKS with the check names, by CHECK_ORDER.
checks_discover() {
	local m name order list=""
	CHECKS=()
	for m in "$SERIES_CHECKS"/*/manifest; do
		[ -e "$m" ] || continue
		name=${m%/manifest}
		name=${name##*/}
		[ -x "$SERIES_CHECKS/$name/run" ] || die "check $name has no executable $SERIES_CHECKS/$name/run"
		order=$(conf_get "$m" CHECK_ORDER)
		[[ $order =~ ^[0-9]+$ ]] || die "$m: CHECK_ORDER must be a number"
		list+="$order $name"$'\n'
	done
	[ -n "$list" ] || die "no checks found in $SERIES_CHECKS"
	while read -r order name; do
		CHECKS+=("$name")
	done < <(printf '%s' "$list" | sort -k1,1n -k2,2)
}

# check_load NAME: read a check's manifest into CHECK_* variables.
check_load() {
	CHECK_DESCRIPTION='' CHECK_SCOPE='' CHECK_PER_ARCH=0 CHECK_AT_BASE=0
	CHECK_TOOLS='' CHECK_ORDER='' CHECK_REPRO=''
	conf_load "$SERIES_CHECKS/$1/manifest" CHECK_
	[ "$CHECK_SCOPE" = patch ] || die "check $1: CHECK_SCOPE must be 'patch', not '$CHECK_SCOPE'"
}

# check_tools_missing: print "cmd (Debian package pkg)" for each tool of
# the loaded check that is missing and could not be installed.
check_tools_missing() {
	local spec cmd pkg
	for spec in $CHECK_TOOLS; do
		cmd=${spec%%:*} pkg=${spec#*:}
		command -v "$cmd" >/dev/null 2>&1 && continue
		if [ "$(id -u)" -eq 0 ] && [ "${SERIES_NO_INSTALL:-0}" != 1 ]; then
			apt_install "$pkg" >/dev/null 2>&1 || true
			command -v "$cmd" >/dev/null 2>&1 && continue
		fi
		printf '%s (Debian package %s)\n' "$cmd" "$pkg"
	done
}

# affected_arches FILES: the arches a patch touching FILES is built for:
# the default matrix, plus every other arch whose arch/ directory it
# touches.  Honours the --arch selection (SELECTED_ARCHES).
affected_arches() {
	local files=$1 a srcarch out=()
	for a in $(arch_list_all); do
		if [ -n "${SERIES_ARCHES:-}" ]; then
			[[ " $SERIES_ARCHES " == *" $a "* ]] || continue
		fi
		if [ "$(conf_get "$SERIES_CONFIGS/arch/$a.conf" ARCH_DEFAULT)" != 1 ] &&
			[ -z "${SERIES_ARCHES:-}" ]; then
			srcarch=$(conf_get "$SERIES_CONFIGS/arch/$a.conf" ARCH_SRCARCH)
			grep -q "^arch/$srcarch/" "$files" || continue
		fi
		[ ${#SELECTED_ARCHES[@]} -eq 0 ] || [[ " ${SELECTED_ARCHES[*]} " == *" $a "* ]] || continue
		out+=("$a")
	done
	[ ${#out[@]} -eq 0 ] || printf '%s\n' "${out[@]}"
}

# patch_id: the stable patch id of a patch on stdin.
patch_id() {
	tgit patch-id --stable | cut -d' ' -f1
}

# step_paths COMMIT: every path a commit touches, old and new names.
step_paths() {
	tgit diff --name-status -M "$1~1" "$1" | cut -f2- | tr '\t' '\n'
}

# run_check STEP ARCH CHECK: run one check unit; sets LAST_STATUS.
run_check() {
	local step=$1 arch=$2 check=$3 dir rc t0 status summary missing
	dir=$SERIES_RESULTS/$(printf '%04d' "$step")/${arch:-all}/$check
	rm -rf "$dir"
	mkdir -p "$dir"
	t0=$(now)
	missing=$(check_tools_missing)
	if [ -n "$missing" ]; then
		rc=$EX_SKIP
		echo "SKIP: missing tool: $(echo "$missing" | paste -sd, -)" >"$dir/summary"
		: >"$dir/log"
	else
		set +e
		(
			cd "$SERIES_TREE"
			export SERIES_ROOT SERIES_CONFIGS SERIES_CACHE SERIES_TREE SERIES_BUILD \
				SERIES_STATE SERIES_JOBS CCACHE_DIR CCACHE_MAXSIZE
			export SERIES_CHECK_NAME=$check SERIES_CHECK_STEP=$step \
				SERIES_CHECK_ARCH=$arch SERIES_CHECK_RESULT_DIR=$dir \
				SERIES_CHECK_BUILD_DIR=${arch:+$SERIES_BUILD/$arch} \
				SERIES_CHECK_PARENT=$STEP_PARENT SERIES_CHECK_PATCH=$STEP_PATCH \
				SERIES_CHECK_BASE=$STEP_BASE \
				SERIES_CHECK_CHANGES=$STEP_CHANGES
			exec "$SERIES_CHECKS/$check/run"
		) >"$dir/output" 2>&1 </dev/null
		rc=$?
		set -e
	fi
	case $rc in
	0) status=pass ;;
	"$EX_WARN") status=warn ;;
	"$EX_SKIP") status=skip ;;
	*) status=fail ;;
	esac
	if [ ! -s "$dir/summary" ]; then
		echo "check wrote no summary (exit $rc)" >"$dir/summary"
		status=fail
	fi
	[ -e "$dir/log" ] || : >"$dir/log"
	echo "$status" >"$dir/status"
	echo "$(($(now) - t0))" >"$dir/duration"
	summary=$(head -n 1 "$dir/summary")
	LAST_STATUS=$status
	printf '[%d/%d] %-7s %-11s %s … %s (%s s)%s\n' "$step" "$NSTEPS" "${arch:-all}" \
		"$check" "$(short_subject "$STEP_SUBJECT")" "$status" "$(cat "$dir/duration")" \
		"$([ "$status" = pass ] || printf ': %s' "$summary")" >&2
}

short_subject() {
	local s=$1
	[ ${#s} -le 50 ] || s="${s:0:49}…"
	printf '%s' "$s"
}

# repro_command CHECK ARCH COMMIT PATCH: the manifest's CHECK_REPRO with
# its {arch}, {commit}, {patch} and {tree} placeholders filled in.
repro_command() {
	local r
	check_load "$1"
	r=${CHECK_REPRO:-"(no reproducer for check $1)"}
	r=${r//\{arch\}/$2}
	r=${r//\{commit\}/$3}
	r=${r//\{patch\}/$4}
	r=${r//\{tree\}/$SERIES_TREE}
	printf '%s\n' "$r"
}

# cmd_bisect: see usage.
cmd_bisect() {
	local branch=$SERIES_BRANCH to="" keep_going=0 base k arch check commits=() orig
	local changes arches first_bad="" a t0 needed=() selected_checks=() c
	SELECTED_ARCHES=()
	while [ $# -gt 0 ]; do
		case $1 in
		--arch) [ $# -ge 2 ] || die_usage "--arch needs an arch"; arch_load "$2"; SELECTED_ARCHES+=("$2"); shift 2 ;;
		--check) [ $# -ge 2 ] || die_usage "--check needs a check name"; selected_checks+=("$2"); shift 2 ;;
		--to) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die_usage "--to needs a patch number"; to=$2; shift 2 ;;
		--keep-going) keep_going=1; shift ;;
		--branch) [ $# -ge 2 ] || die_usage "--branch needs a name"; branch=$2; shift 2 ;;
		*) die_usage "bisect: unknown argument '$1'" ;;
		esac
	done
	need_base_tools
	series_read
	checks_discover
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
	NSTEPS=${#PATCHES[@]}
	[ -z "$to" ] || [ "$to" -le "$NSTEPS" ] || die_usage "--to $to: the series has $NSTEPS patches"
	[ -n "$to" ] || to=$NSTEPS

	# Every arch some step needs, toolchains first: a missing cross
	# compiler is a set-up error (exit 2 naming its package), not a verdict.
	changes=$(mktemp)
	orig=$(tgit symbolic-ref -q --short HEAD || tgit rev-parse HEAD)
	# shellcheck disable=SC2064
	trap "rm -f '$changes'; tgit checkout -q -f '$orig' 2>/dev/null || true" EXIT
	[ -z "${SERIES_ARCHES:-}" ] || arch_list_default >/dev/null
	for k in $(seq 1 "$to"); do
		step_paths "${commits[k - 1]}" >"$changes"
		for a in $(affected_arches "$changes"); do
			[[ " ${needed[*]} " == *" $a "* ]] || needed+=("$a")
		done
	done
	for a in "${needed[@]}"; do
		arch_load "$a"
		arch_need_toolchain
	done

	rm -rf "$SERIES_RESULTS"
	mkdir -p "$SERIES_RESULTS"
	{
		echo "base=$base"
		echo "branch=$branch"
		echo "tree=$SERIES_TREE"
		echo "arches=${needed[*]}"
		echo "checks=${CHECKS[*]}"
		echo "started=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	} >"$SERIES_RESULTS/meta"
	printf '0\tbase\t%s\t%s\n' "$base" "$(tgit log -1 --format=%s "$base")" >"$SERIES_RESULTS/steps"
	t0=$(now)

	# Step 0: the reference every first patch is judged against.
	tgit checkout -q --detach "$base"
	STEP_BASE=$(tgit rev-parse "$base")
	STEP_PARENT='' STEP_PATCH='' STEP_CHANGES='' STEP_SUBJECT="base $(tgit log -1 --format=%h "$base")"
	for check in "${CHECKS[@]}"; do
		check_load "$check"
		[ "$CHECK_AT_BASE" = 1 ] || continue
		if [ "$CHECK_PER_ARCH" = 1 ]; then
			for a in "${needed[@]}"; do
				run_check 0 "$a" "$check"
				base_must_pass "$a" "$check"
			done
		else
			run_check 0 "" "$check"
			base_must_pass "" "$check"
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
		tgit checkout -q --detach "${commits[k - 1]}"
		step_paths "${commits[k - 1]}" >"$changes"
		mapfile -t arches < <(affected_arches "$changes")
		for check in "${CHECKS[@]}"; do
			check_load "$check"
			if [ "$CHECK_PER_ARCH" = 1 ]; then
				for a in "${arches[@]}"; do
					run_check "$k" "$a" "$check"
					note_failure "$k" "$a" "$check"
				done
			else
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
	for st in "$SERIES_RESULTS"/[0-9]*/*/*/status; do
		[ "$(cat "$st")" = skip ] || continue
		printf 'SKIPPED: %s: %s\n' "$(dirname "${st#"$SERIES_RESULTS"/}")" \
			"$(head -n 1 "${st%/status}/summary")" >&2
	done
	if [ ${#needed[@]} -eq 0 ]; then
		warn "no arch of the selection is affected by patches 1-$to: nothing was built"
	fi
	if [ -n "$first_bad" ]; then
		printf '%s\n' "$first_bad" >&2
		return 1
	fi
	return 0
}

# base_must_pass ARCH CHECK: a reference that fails is a set-up error.
base_must_pass() {
	local r=$SERIES_RESULTS/0000/${1:-all}/$2
	[ "$LAST_STATUS" != fail ] ||
		die "the base does not pass '$2'${1:+ on $1}: $(head -n 1 "$r/summary"); log: $r/log"
}

# note_failure STEP ARCH CHECK: remember how to reproduce the first failure
# (the report names it: "first bad: patch K (FILE) on ARCH: CHECK: ...").
note_failure() {
	[ "$LAST_STATUS" = fail ] || return 0
	[ -z "$first_bad" ] || return 0
	local k=$1 a=$2 check=$3
	first_bad="reproduce patch $k with: $(repro_command "$check" "$a" "${commits[k - 1]}" "$STEP_PATCH")"
}

# cmd_check: the main job.
cmd_check() {
	[ $# -eq 0 ] || die_usage "check takes no arguments"
	need_base_tools
	cmd_base
	cmd_apply
	cmd_bisect
}
