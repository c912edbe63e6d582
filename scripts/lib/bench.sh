# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# scripts/series bench: what the bisect-check of the stack costs, measured
# against a cold build of its tip, in private build, ccache and state
# directories under SERIES_BENCH_DIR (the user's caches are not touched).

# bench_run NAME CMD...: run the tool on the bench's private directories,
# output to NAME.log; prints the seconds it took.  NAME is also the
# result tree.
bench_run() {
	local name=$1 t0 rc=0
	shift
	t0=$(now)
	env SERIES_BUILD="$BENCH_DIR/build" CCACHE_DIR="$BENCH_DIR/ccache" MCACHE_DIR="$BENCH_DIR/mcache" \
		SERIES_STATE="$BENCH_DIR/state" SERIES_RESULTS="$BENCH_DIR/results-$name" \
		SERIES_NO_CACHE=0 "$SERIES_ROOT/scripts/series" "$@" >"$BENCH_DIR/$name.log" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] ||
		die "bench $name: '$SERIES_PROG $*' exited $rc; log: $BENCH_DIR/$name.log"
	[ "$rc" -eq 0 ] || warn "bench $name: '$SERIES_PROG $*' found a failure (timed all the same); log: $BENCH_DIR/$name.log"
	echo $(($(now) - t0))
}

# bench_cold: empty build directories, compile caches and result cache.
bench_cold() {
	rm -rf "$BENCH_DIR/build" "$BENCH_DIR/ccache" "$BENCH_DIR/mcache" "$BENCH_DIR/state"
}

# bench_touch_last BRANCH: a copy of the stack as BRANCH whose last patch
# also adds a comment line to the first C file or header it adds or changes
# (exported by (c) and (d) as the series they bisect).
bench_touch_last() {
	local tip file blob tree commit idx=$BENCH_DIR/index
	tip=$(tgit rev-parse "$SERIES_BRANCH")
	file=$(tgit diff --name-only --diff-filter=AMR -M "$tip~1" "$tip" | grep -m1 -E '\.[ch]$' || true)
	[ -n "$file" ] || die "bench: the last patch changes no C file or header to touch"
	blob=$({ tgit show "$tip:$file"; echo '/* touched by scripts/series bench */'; } |
		tgit hash-object -w --stdin --path="$file")
	tree=$(GIT_INDEX_FILE=$idx tgit read-tree "$tip^{tree}" &&
		GIT_INDEX_FILE=$idx tgit update-index --cacheinfo "100644,$blob,$file" &&
		GIT_INDEX_FILE=$idx tgit write-tree)
	rm -f "$idx"
	commit=$(tgit log -1 --format=%B "$tip" |
		GIT_AUTHOR_NAME=$(tgit log -1 --format=%an "$tip") GIT_AUTHOR_EMAIL=$(tgit log -1 --format=%ae "$tip") \
		GIT_AUTHOR_DATE=$(tgit log -1 --format=%aI "$tip") GIT_COMMITTER_NAME=$(tgit log -1 --format=%cn "$tip") \
		GIT_COMMITTER_EMAIL=$(tgit log -1 --format=%ce "$tip") GIT_COMMITTER_DATE=$(tgit log -1 --format=%cI "$tip") \
		tgit commit-tree "$tree" -p "$tip~1")
	tgit branch -f "$1" "$commit"
	tgit config "branch.$1.description" "$(tgit config "branch.$SERIES_BRANCH.description")"
	info "bench: $1 = the stack with $file touched in its last patch"
}

# bench_cleanup: at exit, delete the branch that bench makes.
bench_cleanup() {
	tgit branch -q -D series-bench-touched 2>/dev/null || true
}

# cmd_bench: see usage.
cmd_bench() {
	[ $# -eq 0 ] || die_usage "bench takes no arguments"
	local a ta=0 tb tc td t cached total arches=() out
	BENCH_DIR=$(realpath -m -- "${SERIES_BENCH_DIR:-$SERIES_CACHE/bench}")
	need_base_tools
	series_read
	tree_require_clean
	tgit rev-parse -q --verify "refs/heads/$SERIES_BRANCH" >/dev/null ||
		die "no branch $SERIES_BRANCH in $SERIES_TREE; run '$SERIES_PROG apply' first"
	mapfile -t arches < <(arch_list_default)
	for a in "${arches[@]}"; do
		arch_load "$a"
		arch_need_toolchain
	done
	mkdir -p "$BENCH_DIR"
	at_exit bench_cleanup

	info "bench (a): cold build of the tip for ${arches[*]}"
	bench_cold
	for a in "${arches[@]}"; do
		t=$(bench_run "a-$a" build "$a" "$SERIES_BRANCH")
		info "  $a: $t s"
		ta=$((ta + t))
	done
	info "bench (b): cold bisect-check of the ${#PATCHES[@]} patches"
	bench_cold
	tb=$(bench_run b bisect --keep-going)
	info "  $tb s"
	info "bench (c): the same after touching only the last patch"
	bench_touch_last series-bench-touched
	(cmd_export --branch series-bench-touched -o "$BENCH_DIR/touched") >/dev/null
	tc=$(export SERIES_FILE=$BENCH_DIR/touched/series; bench_run c bisect --keep-going --branch series-bench-touched)
	info "  $tc s"
	info "bench (d): the same again, nothing changed"
	td=$(export SERIES_FILE=$BENCH_DIR/touched/series; bench_run d bisect --keep-going --branch series-bench-touched)
	cached=$(grep -c '… [a-z]* (cached)' "$BENCH_DIR/d.log" || true)
	total=$(grep -c '^\[[0-9]*/[0-9]*\] ' "$BENCH_DIR/d.log" || true)
	info "  $td s ($cached of $total verdicts from the result cache)"
	out=$BENCH_DIR/bench.txt
	awk -v a="$ta" -v b="$tb" -v c="$tc" -v d="$td" -v n="${#PATCHES[@]}" -v ar="${arches[*]}" \
		-v cached="$cached" -v total="$total" -v jobs="$SERIES_JOBS" 'BEGIN {
		printf "bench: %d patches, arches %s, %s jobs\n", n, ar, jobs
		printf "(a) cold build of the tip:              %6d s\n", a
		printf "(b) cold bisect-check of the stack:     %6d s   b/a = %.2f (goal <= 2.5)\n", b, b / a
		printf "(c) re-run, last patch touched:         %6d s   c/a = %.3f (goal <= 0.25)\n", c, c / a
		printf "(d) re-run, nothing changed:            %6d s   d/a = %.4f (goal <= 0.02); %d of %d verdicts cached\n", d, d / a, cached, total
	}' | tee "$out"
	info "bench: logs and result trees in $BENCH_DIR"
}
