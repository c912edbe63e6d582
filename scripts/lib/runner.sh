# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The runner: one check unit on one step (and arch), from the result
# cache or run in a session of its own, per-arch units in parallel, and
# interrupts, which are never a verdict.

# shellcheck source=scripts/lib/arches.sh
. "$SERIES_ROOT/scripts/lib/arches.sh"
# shellcheck source=scripts/lib/units.sh
. "$SERIES_ROOT/scripts/lib/units.sh"
# shellcheck source=scripts/lib/verdicts.sh
. "$SERIES_ROOT/scripts/lib/verdicts.sh"

# patch_id: the stable patch id of a patch on stdin.
patch_id() {
	tgit patch-id --stable | cut -d' ' -f1
}

# step_paths COMMIT: every path a commit touches, old and new names.
step_paths() {
	tgit diff --name-status -M "$1~1" "$1" | cut -f2- | tr '\t' '\n'
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

# run_session DIR OUTPUT STEP ARCH CHECK COMMAND...: run COMMAND for
# CHECK, whose result directory is DIR, in the kernel tree, in a session of its own (an interrupt stops its
# whole process group and nothing else), with the unit's environment
# (scripts/checks/README.md) and output to OUTPUT; sets rc.  An interrupt
# ends the walk here: no verdict is kept.
run_session() {
	local dir=$1 output=$2 step=$3 arch=$4 check=$5
	shift 5
	mkdir -p "${output%/*}"
	set +e
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
			SERIES_CHECK_CHANGES=$STEP_CHANGES \
			SERIES_FILE SERIES_PATCHES
		exec setsid "$@"
	) >"$output" 2>&1 </dev/null &
	CHECK_PID=$!
	wait "$CHECK_PID"
	rc=$?
	# wait returns early when a trapped signal comes: wait again for the
	# command that bisect_interrupt stopped.
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
}

# run_check STEP ARCH CHECK: run one check unit, or reuse its kept verdict;
# sets LAST_STATUS.
run_check() {
	local step=$1 arch=$2 check=$3 dir rc t0 status summary missing key cached='' notbuilt='' needs needs_t0
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
		if [ -n "$CHECK_NEEDS" ]; then
			# The build (or prepare) directories the unit needs,
			# brought to the step by the runner
			# (scripts/lib/stepbuild.sh): a unit never builds them
			# itself, nor relies on another unit.
			mapfile -t needs < <(check_build_arches "$arch")
			needs_t0=$(now)
			run_session "$dir" "$dir/needs-build/output" "$step" "$arch" "$check" \
				"$SERIES_ROOT/scripts/lib/needs-build" "$dir/needs-build" "$STEP_BASE" "$CHECK_NEEDS" \
				${needs[@]+"${needs[@]}"}
			echo "$(($(now) - needs_t0))" >"$dir/needs-build/duration"
			case $rc in
			0) rc='' ;;
			"$EX_SKIP") cp "$dir/needs-build/summary" "$dir/summary" ;;
			*) cp "$dir/needs-build/summary" "$dir/summary" 2>/dev/null ||
				echo "the build this check needs failed (see needs-build/output)" >"$dir/summary"
				rc=1 ;;
			esac
		else
			rc=''
		fi
		[ -n "$rc" ] || run_session "$dir" "$dir/output" "$step" "$arch" "$check" "$SERIES_CHECKS/$check/run"
		[ ! -s "$dir/needs-build/summary" ] ||
			echo "the runner built: $(cat "$dir/needs-build/summary")" >"$dir/needs"
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
