# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The bisect-check runner: every patch of the applied stack, in order, on
# every architecture it affects, judged by the check units under
# scripts/checks/ against its parent step.

SERIES_CHECKS=${SERIES_CHECKS:-$SERIES_ROOT/scripts/checks}
# shellcheck source=scripts/lib/arches.sh
. "$SERIES_ROOT/scripts/lib/arches.sh"

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
	CHECK_TOOLS='' CHECK_ORDER='' CHECK_REPRO='' CHECK_STEPS=every CHECK_CONFIGS=''
	conf_load "$SERIES_CHECKS/$1/manifest" CHECK_
	[ "$CHECK_SCOPE" = patch ] || die "check $1: CHECK_SCOPE must be 'patch', not '$CHECK_SCOPE'"
	local f
	for f in $CHECK_CONFIGS; do
		[ -f "$SERIES_CONFIGS/$f" ] || die "check $1: CHECK_CONFIGS names configs/$f, which does not exist"
	done
	case $CHECK_STEPS in every | last) ;; *) die "check $1: CHECK_STEPS must be 'every' or 'last', not '$CHECK_STEPS'" ;; esac
}

# check_tools_missing: print "cmd (Debian package pkg)" for each tool of
# the loaded check that is missing and could not be installed.  A tool is
# a command, or a file if it starts with / (have).
check_tools_missing() {
	local spec cmd pkg
	for spec in $CHECK_TOOLS; do
		cmd=${spec%%:*} pkg=${spec#*:}
		have "$cmd" && continue
		if [ "$(id -u)" -eq 0 ] && [ "${SERIES_NO_INSTALL:-0}" != 1 ]; then
			apt_install "$pkg" >/dev/null 2>&1 || true
			have "$cmd" && continue
		fi
		printf '%s (Debian package %s)\n' "$cmd" "$pkg"
	done
}

# patch_id: the stable patch id of a patch on stdin.
patch_id() {
	tgit patch-id --stable | cut -d' ' -f1
}

# step_paths COMMIT: every path a commit touches, old and new names.
step_paths() {
	tgit diff --name-status -M "$1~1" "$1" | cut -f2- | tr '\t' '\n'
}

# The result cache.  A verdict depends on the step's source tree, its
# parent's tree, the patch (message included), the arch, the files of the
# check unit, and VERDICT_SALT: the libraries, the configuration data and
# the compilers.  Verdicts that ran and did not fail are kept in
# $SERIES_STATE/verdicts, with the rest of the state (warning sets, ABI
# dumps) they build on, and reused unless SERIES_NO_CACHE=1; 'scripts/series
# cache clear' drops them.  A failure is always re-checked, and so is a
# skip for a missing tool.

# verdicts_root: the directory of the result cache.
verdicts_root() {
	printf '%s\n' "${SERIES_VERDICTS:-$SERIES_STATE/verdicts}"
}

# verdict_dir KEY: where the verdict of KEY is kept.
verdict_dir() {
	printf '%s/%s/%s\n' "$(verdicts_root)" "${1:0:2}" "$1"
}

# check_own_configs: the configuration files that one check unit alone
# reads (its manifest's CHECK_CONFIGS), one per line as ./PATH under
# configs/.
check_own_configs() {
	local m f
	for m in "$SERIES_CHECKS"/*/manifest; do
		[ -e "$m" ] || continue
		for f in $(conf_get "$m" CHECK_CONFIGS); do printf './%s\n' "$f"; done
	done
}

# verdict_salt: print the hash of what every verdict depends on besides the
# trees, the patch and the check unit itself: the libraries the units use,
# the configuration data and the tools.  The runner, the reports and the
# benchmark are not part of it, nor the configuration files that one unit
# alone reads (CHECK_CONFIGS): they are part of that unit's hash.  Nor is
# versions.conf, which only the mail commands read, nor base-next.conf,
# which only its gate reads.
verdict_salt() {
	local a cc d
	{
		echo verdict-v1
		for d in "$SERIES_ROOT/scripts/lib" "$SERIES_CONFIGS"; do
			(cd "$d" && find . -type f ! -name '*.pyc' ! -name bisect.sh ! -name bench.sh \
				! -name report.py -print0 | LC_ALL=C sort -z |
				{ if [ "$d" = "$SERIES_CONFIGS" ]; then
					grep -z -v -x -F -f <(check_own_configs; echo ./versions.conf; echo ./base-next.conf)
				else
					cat
				fi; } | xargs -0 -r sha256sum --)
		done
		gcc --version | head -n 1
		for a in $(arch_list_all); do
			cc=$(conf_get "$SERIES_CONFIGS/arch/$a.conf" ARCH_CROSS_COMPILE)gcc
			! command -v "$cc" >/dev/null 2>&1 || "$cc" --version | head -n 1
		done
		! command -v pahole >/dev/null 2>&1 || pahole --version
		python3 --version
	} | sha256sum | cut -c1-32
}

# verdict_memo CHECK: compute the hashes verdict_key needs for CHECK and
# the step STEP_COMMIT (HEAD if unset; STEP_PARENT and STEP_PATCH describe
# it), once: the unit's files, and the tree, the parent's tree and the
# patch.  Call it in the shell that runs the steps: a verdict_key in a
# command substitution cannot keep what it computes.
declare -A VERDICT_UNIT_HASH=()
verdict_memo() {
	local check=$1 f
	if [ -z "${VERDICT_UNIT_HASH[$check]:-}" ]; then
		VERDICT_UNIT_HASH[$check]=$({
			# Not Python's byte code: a unit's helper imported once
			# would change the unit's verdict key.
			(cd "$SERIES_CHECKS/$check" && find . -type f ! -name '*.pyc' -print0 |
				LC_ALL=C sort -z | xargs -0 -r sha256sum --)
			for f in $(conf_get "$SERIES_CHECKS/$check/manifest" CHECK_CONFIGS); do
				(cd "$SERIES_CONFIGS" && sha256sum -- "$f")
			done
		} | sha256sum | cut -c1-40)
	fi
	if [ "${VERDICT_STEP:-}" != "${STEP_COMMIT:-HEAD}" ]; then
		VERDICT_STEP=${STEP_COMMIT:-HEAD}
		VERDICT_STEP_HASH=$({
			tgit rev-parse "$VERDICT_STEP^{tree}"
			if [ -n "$STEP_PARENT" ]; then
				tgit rev-parse "$STEP_PARENT^{tree}"
				sha256sum <"$STEP_PATCH"
			fi
		} | sha256sum | cut -c1-40)
	fi
}

# verdict_key ARCH CHECK: the result-cache key of a check of the step: the
# salt, the check unit's files, the arch, and the step's hash.
verdict_key() {
	verdict_memo "$2"
	printf '%s\n' "$VERDICT_SALT" "$2" "${VERDICT_UNIT_HASH[$2]}" "${1:-all}" \
		"$VERDICT_STEP_HASH" | sha256sum | cut -c1-40
}

# verdict_invalid DIR: why the kept verdict DIR is not a record the runner
# wrote (empty if it is one): a status it keeps (pass, warn, or a skip
# that is not for a missing tool), the exit status that gives it, a
# summary and a duration.
verdict_invalid() {
	local st rc want
	st=$(cat "$1/status" 2>/dev/null || echo missing)
	rc=$(cat "$1/rc" 2>/dev/null || echo missing)
	case $st in
	pass) want=$EX_PASS ;;
	warn) want=$EX_WARN ;;
	skip) want=$EX_SKIP ;;
	*) echo "status '$st'"; return ;;
	esac
	[ "$rc" = "$want" ] || { echo "exit status '$rc' with status $st"; return; }
	[ -s "$1/summary" ] || { echo "no summary"; return; }
	[[ $(cat "$1/duration" 2>/dev/null) =~ ^[0-9]+$ ]] || { echo "no duration"; return; }
	! skip_for_missing_tool "$st" "$1/summary" || echo "a skip for a missing tool"
}

# skip_for_missing_tool STATUS SUMMARY: whether a verdict is a skip because
# a tool is missing, which is never kept: the runner's own ("SKIP: missing
# tool: ...") or a unit's, which says "SKIP: TOOL missing (Debian package
# PACKAGE)" (scripts/checks/README.md).
skip_for_missing_tool() {
	[ "$1" = skip ] && grep -qE '^SKIP: (missing tool: |.* missing \(Debian package )' "$2"
}

# verdict_reuse KEY DIR: copy a kept verdict into the result directory DIR,
# if it is a valid record; one that is not is dropped, said, and its check
# runs again.
verdict_reuse() {
	local v why
	v=$(verdict_dir "$1")
	[ "${SERIES_NO_CACHE:-0}" != 1 ] && [ -e "$v" ] || return 1
	why=$(verdict_invalid "$v")
	if [ -n "$why" ]; then
		warn "kept verdict $1 is not valid ($why): dropped, the check runs again"
		rm -rf -- "$v"
		return 1
	fi
	cp -pr "$v"/. "$2"/ && echo "$1" >"$2/cached"
}

# An interrupt (SIGINT, SIGTERM, SIGHUP) is not a verdict: the check that runs is
# stopped (its process group: make, the compiler, QEMU), no verdict is
# kept for it, and the walk ends with status 130.
BISECT_INTERRUPTED='' CHECK_PID=''
bisect_interrupt() {
	local j
	BISECT_INTERRUPTED=1
	[ -z "$CHECK_PID" ] || kill -TERM -- "-$CHECK_PID" 2>/dev/null || true
	for j in $(jobs -p); do kill -TERM "$j" 2>/dev/null || true; done
}

# bisect_stop_if_interrupted: end the walk if an interrupt came.
bisect_stop_if_interrupted() {
	[ -n "$BISECT_INTERRUPTED" ] || return 0
	info "interrupted: the walk stopped; no verdict was kept for the check that was running"
	exit 130
}

# verdict_keep KEY DIR: keep the verdict of DIR under KEY.
verdict_keep() {
	local v
	v=$(verdict_dir "$1")
	rm -rf "$v.tmp"
	mkdir -p "$v.tmp"
	cp -pr "$2"/. "$v.tmp"/
	rm -rf "$v"
	mv "$v.tmp" "$v"
}

# step_checkout: check the step STEP_COMMIT out, if it is not.  Only for
# a check that runs: a step judged from the cache alone leaves the tree
# (and its mtimes) alone.
step_checkout() {
	if [ -n "${STEP_COMMIT:-}" ] && [ "$(tgit rev-parse HEAD)" != "$STEP_COMMIT" ]; then
		tgit checkout -q --detach "$STEP_COMMIT"
	fi
}

# parallel_arches: how many arches build at once: SERIES_PARALLEL, by
# default a quarter of the cores (at least 1).  One kernel build keeps 2
# cores busy on its own, so 2 cores build one arch at a time with -j2, and
# 8 cores two at a time with -j4 each.
parallel_arches() {
	local p=${SERIES_PARALLEL:-$(($(nproc) / 4))}
	[[ $p =~ ^[0-9]+$ ]] || die_usage "SERIES_PARALLEL must be a number, not '$p'"
	[ "$p" -ge 1 ] || p=1
	echo "$p"
}

# run_per_arch STEP CHECK AFTER ARCH...: run a per-arch check on every
# ARCH, up to parallel_arches at once, each with its share of SERIES_JOBS
# (never more make jobs than SERIES_JOBS in all); then call AFTER STEP ARCH
# CHECK for every ARCH in order, with LAST_STATUS set.
run_per_arch() {
	local step=$1 check=$2 after=$3 par a running=0 jobs st
	shift 3
	par=$(parallel_arches)
	if [ "$par" -le 1 ] || [ $# -le 1 ]; then
		for a in "$@"; do
			run_check "$step" "$a" "$check"
			"$after" "$step" "$a" "$check"
		done
		return 0
	fi
	[ "$par" -le $# ] || par=$#
	jobs=$((SERIES_JOBS / par))
	[ "$jobs" -ge 1 ] || jobs=1
	bisect_stop_if_interrupted
	trap bisect_interrupt INT TERM HUP
	step_checkout
	for a in "$@"; do
		if [ "$running" -ge "$par" ]; then
			wait -n || true
			running=$((running - 1))
		fi
		(SERIES_JOBS=$jobs run_check "$step" "$a" "$check") &
		running=$((running + 1))
	done
	while [ -n "$(jobs -p)" ]; do wait || true; done
	bisect_stop_if_interrupted
	for a in "$@"; do
		st=$SERIES_RESULTS/$(printf '%04d' "$step")/$a/$check/status
		LAST_STATUS=$(cat "$st" 2>/dev/null || echo fail)
		"$after" "$step" "$a" "$check"
	done
}

# run_check STEP ARCH CHECK: run one check unit, or reuse its kept verdict;
# sets LAST_STATUS.
run_check() {
	local step=$1 arch=$2 check=$3 dir rc t0 status summary missing key cached='' notbuilt=''
	dir=$SERIES_RESULTS/$(printf '%04d' "$step")/${arch:-all}/$check
	rm -rf "$dir"
	mkdir -p "$dir"
	t0=$(now)
	verdict_memo "$check"
	key=$(verdict_key "$arch" "$check")
	missing=''
	if [ -n "$arch" ] && arch_no_toolchain "$arch"; then
		notbuilt=1 missing="${arch} toolchain"
		rc=$EX_SKIP
		echo "not built: no toolchain (Debian has no $(conf_get "$SERIES_CONFIGS/arch/$arch.conf" ARCH_CROSS_COMPILE)gcc)" >"$dir/summary"
		: >"$dir/log"
	elif verdict_reuse "$key" "$dir"; then
		cached=1
		rc=$(cat "$dir/rc")
	else
		missing=$(check_tools_missing)
	fi
	if [ -n "$cached" ] || [ -n "$notbuilt" ]; then
		:
	elif [ -n "$missing" ]; then
		rc=$EX_SKIP
		echo "SKIP: missing tool: $(echo "$missing" | paste -sd, -)" >"$dir/summary"
		: >"$dir/log"
	else
		bisect_stop_if_interrupted
		trap bisect_interrupt INT TERM HUP
		step_checkout
		set +e
		# In a session of its own, so that an interrupt stops the
		# check's whole process group and nothing else.
		(
			cd "$SERIES_TREE"
			export SERIES_ROOT SERIES_CONFIGS SERIES_CACHE SERIES_TREE SERIES_BUILD \
				SERIES_STATE SERIES_JOBS CCACHE_DIR CCACHE_MAXSIZE MCACHE_DIR
			# The compiler launcher that kbuild's .cmd files name, for
			# units that replay a compile command (kbuildcmd.py).
			export PATH="$SERIES_ROOT/scripts/lib:$PATH"
			export SERIES_CHECK_NAME=$check SERIES_CHECK_STEP=$step \
				SERIES_CHECK_ARCH=$arch SERIES_CHECK_RESULT_DIR=$dir \
				SERIES_CHECK_BUILD_DIR=${arch:+$SERIES_BUILD/$arch} \
				SERIES_CHECK_PARENT=$STEP_PARENT SERIES_CHECK_PATCH=$STEP_PATCH \
				SERIES_CHECK_BASE=$STEP_BASE \
				SERIES_CHECK_CHANGES=$STEP_CHANGES
			exec setsid "$SERIES_CHECKS/$check/run"
		) >"$dir/output" 2>&1 </dev/null &
		CHECK_PID=$!
		wait "$CHECK_PID"
		rc=$?
		# wait returns early when a trapped signal comes: wait again
		# for the check that bisect_interrupt stopped.
		while kill -0 "$CHECK_PID" 2>/dev/null; do
			wait "$CHECK_PID"
			rc=$?
		done
		CHECK_PID=''
		set -e
		if [ -n "$BISECT_INTERRUPTED" ]; then
			echo "interrupted" >"$dir/summary"
			echo interrupted >"$dir/status"
			printf '[%d/%d] %-7s %-11s %s … interrupted\n' "$step" "$NSTEPS" "${arch:-all}" \
				"$check" "$(short_subject "$STEP_SUBJECT")" >&2
			bisect_stop_if_interrupted
		fi
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
	summary=$(head -n 1 "$dir/summary")
	LAST_STATUS=$status
	if [ -n "$cached" ]; then
		printf '[%d/%d] %-7s %-11s %s … %s (cached)%s\n' "$step" "$NSTEPS" "${arch:-all}" \
			"$check" "$(short_subject "$STEP_SUBJECT")" "$status" \
			"$([ "$status" = pass ] || printf ': %s' "$summary")" >&2
		return 0
	fi
	echo "$rc" >"$dir/rc"
	echo "$(($(now) - t0))" >"$dir/duration"
	[ "$status" = fail ] || [ -n "$missing" ] || skip_for_missing_tool "$status" "$dir/summary" ||
		verdict_keep "$key" "$dir"
	printf '[%d/%d] %-7s %-11s %s … %s (%s s)%s\n' "$step" "$NSTEPS" "${arch:-all}" \
		"$check" "$(short_subject "$STEP_SUBJECT")" "$status" "$(cat "$dir/duration")" \
		"$([ "$status" = pass ] || printf ': %s' "$summary")" >&2
}

short_subject() {
	local s=$1
	[ ${#s} -le 50 ] || s="${s:0:49}…"
	printf '%s' "$s"
}

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

# cmd_check: the main job.
cmd_check() {
	[ $# -eq 0 ] || die_usage "check takes no arguments"
	need_base_tools
	cmd_base
	cmd_apply
	cmd_bisect
}

# cmd_cache clear|stats: the result cache and the state it builds on.
cmd_cache() {
	local dir
	[ $# -eq 1 ] || die_usage "usage: cache clear|stats"
	dir=$(verdicts_root)
	case $1 in
	clear)
		# The verdicts, and the warning sets and ABI dumps they were
		# judged with: after this, every check runs again.
		rm -rf "$dir" "$SERIES_STATE"
		info "cleared the result cache ($dir) and the state ($SERIES_STATE)"
		;;
	stats)
		printf 'verdicts: %s in %s (%s)\n' \
			"$(find "$dir" -mindepth 2 -maxdepth 2 -type d ! -name '*.tmp' 2>/dev/null | wc -l)" \
			"$dir" "$(du -sh "$dir" 2>/dev/null | cut -f1 || echo 0)"
		printf 'state: %s (%s)\n' "$SERIES_STATE" "$(du -sh "$SERIES_STATE" 2>/dev/null | cut -f1 || echo 0)"
		;;
	*) die_usage "cache: unknown action '$1' (clear or stats)" ;;
	esac
}

# cmd_report [--merge DIR...]: write the reports (summary.txt, summary.md,
# summary.json, report.html) of the result tree SERIES_RESULTS; with
# --merge, first merge the result trees DIR... (the shards of one run)
# into it.  Fails if a patch failed.
cmd_report() {
	local d
	if [ $# -gt 0 ]; then
		[ "$1" = --merge ] || die_usage "report: unknown argument '$1'"
		shift
		[ $# -ge 1 ] || die_usage "report --merge needs the result directories of the shards"
		for d in "$@"; do
			[ -f "$d/meta" ] || die "report --merge: $d is not a result tree (no $d/meta)"
			[ "$(realpath -m -- "$d")" != "$SERIES_RESULTS" ] ||
				die "report --merge: $d is the output (SERIES_RESULTS); set SERIES_RESULTS to another directory"
		done
		rm -rf "$SERIES_RESULTS"
		python3 "$SERIES_ROOT/scripts/lib/report.py" --merge "$SERIES_RESULTS" "$@"
	else
		[ -f "$SERIES_RESULTS/meta" ] || die "no result tree in $SERIES_RESULTS; run '$SERIES_PROG bisect' first"
		python3 "$SERIES_ROOT/scripts/lib/report.py" "$SERIES_RESULTS"
	fi
	info "report: $SERIES_RESULTS/report.html (Markdown: $SERIES_RESULTS/summary.md)"
	grep -qx 'first bad: none' "$SERIES_RESULTS/summary.txt"
}
