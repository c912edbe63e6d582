# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The library of the real gates (sourced after test-lib.sh): the
# configuration, exit traps, and the stacks with a fault injected that
# the fault gates judge.

# Values of the configuration, for the assertions below.
gate_config() {
	series_load_config
	# shellcheck source=../lib/tree.sh
	. "$SERIES_ROOT/scripts/lib/tree.sh"
	# shellcheck source=../lib/build.sh
	. "$SERIES_ROOT/scripts/lib/build.sh"
}

# gate_build_root NAME: the build directories of the fault gate NAME
# ($SERIES_CACHE/build-gates/NAME), kept between runs: the gate's faulty
# step stays built there, and its next run finds it so instead of
# building the walk's directories back and forth between the tip and
# the fault.  Made the first time as a copy of the walk's own
# (SERIES_BUILD, near the tip), so that the first run builds no more
# than it would have in those.
gate_build_root() {
	local d=$SERIES_CACHE/build-gates/$1
	if [ ! -d "$d" ]; then
		mkdir -p "${d%/*}"
		rm -rf -- "$d.tmp"
		cp -a -- "$SERIES_BUILD" "$d.tmp"
		mv -- "$d.tmp" "$d"
	fi
	printf '%s\n' "$d"
}

# Exit traps of the gates: functions that read what the test set, never
# text with a value spliced in (a branch name or path is data).  A test
# runs in a subshell of its own, so these globals are the test's.
CLEANUP_WORKTREE='' CLEANUP_BRANCHES=()
# cleanup_worktree: remove the worktree CLEANUP_WORKTREE of the tree.
cleanup_worktree() {
	git -C "$SERIES_TREE" worktree remove --force -- "$CLEANUP_WORKTREE"
}

# cleanup_branches: check the series branch out again and delete the
# branches CLEANUP_BRANCHES that the test made.
cleanup_branches() {
	git -C "$SERIES_TREE" checkout -q -f "$SERIES_BRANCH" --
	[ ${#CLEANUP_BRANCHES[@]} -eq 0 ] ||
		git -C "$SERIES_TREE" branch -q -D -- "${CLEANUP_BRANCHES[@]}" 2>/dev/null || true
}

# arches_without_toolchain: the arches whose checks are "not built" here.
arches_without_toolchain() {
	local a
	for a in $(arch_list_all); do
		if arch_no_toolchain "$a"; then echo "$a"; fi
	done
}

# assert_base CONF: the tree has the base of the loaded BASE_* values
# (from configs/CONF) as the commit it pins, under its tag and subject,
# without Debian's .gitignore block.
assert_base() {
	assert_eq "$(git -C "$SERIES_TREE" rev-parse "refs/tags/$BASE_TAG^{commit}")" "$BASE_COMMIT" \
		"base commit (configs/$1 BASE_COMMIT)"
	assert_eq "$(git -C "$SERIES_TREE" log -1 --format=%s "$BASE_COMMIT")" \
		"Linux $BASE_VERSION from Debian $BASE_DEB_PACKAGE $BASE_DEB_VERSION" "base subject"
	! git -C "$SERIES_TREE" show "$BASE_COMMIT:.gitignore" | grep -q 'Debian packaging' ||
		fail "the base keeps Debian's top-level .gitignore block"
}

# verdicts DIR: print "step arch check status summary" of a result tree.
verdicts() {
	python3 - "$1/summary.json" <<'EOF'
import json, sys
for st in json.load(open(sys.argv[1]))["steps"]:
    for r in st["results"]:
        print(st["step"], r["arch"], r["check"], r["status"], r["summary"])
EOF
}

# fault_stack NAME K FILE OLD NEW: a copy of the stack (series file and
# patches in ./NAME) where patch K also replaces the text OLD by NEW in
# FILE, a file no later patch touches.  Made with git plumbing from the
# applied branch as branch NAME and exported by 'series export'.
fault_stack() {
	local name=$1 k=$2 file=$3 old=$4 new=$5 commits blob
	mapfile -t commits < <(tgit rev-list --reverse "$BASE_COMMIT..$SERIES_BRANCH")
	git -C "$SERIES_TREE" show "${commits[k - 1]}:$file" >"$TEST_WORK/orig.txt"
	replace_once "$TEST_WORK/orig.txt" "$old" "$new" >"$TEST_WORK/faulty.txt"
	blob=$(git -C "$SERIES_TREE" hash-object -w --path="$file" "$TEST_WORK/faulty.txt")
	fault_recommit "$name" "$k" "$file" "$blob"
}

# fault_stack_message NAME K OLD NEW: the stack with OLD replaced by NEW in
# the commit message of patch K, as branch NAME and its export.
fault_stack_message() {
	fault_recommit "$1" "$2" "" "" "$3" "$4"
}

# replace_once FILE OLD NEW: FILE's text with its one OLD replaced by NEW.
replace_once() {
	python3 - "$@" <<'PY'
import sys
text, old, new = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
sys.stdout.write(text.replace(old, new))
PY
}

# fault_recommit NAME K FILE BLOB [OLD NEW]: the stack recommitted from
# patch K on, FILE set to BLOB in every step from K (unless FILE is
# empty) and OLD replaced by NEW in the message of patch K; the branch
# NAME and its export in $TEST_WORK/NAME.
fault_recommit() {
	local name=$1 k=$2 file=$3 blob=$4 old=${5-} new=${6-} commits j c parent tree
	mapfile -t commits < <(tgit rev-list --reverse "$BASE_COMMIT..$SERIES_BRANCH")
	parent=${commits[k - 1]}~1
	parent=$(git -C "$SERIES_TREE" rev-parse "$parent")
	for j in $(seq "$k" "${#commits[@]}"); do
		c=${commits[j - 1]}
		tree=$(git -C "$SERIES_TREE" rev-parse "$c^{tree}")
		if [ -n "$file" ]; then
			[ "$j" = "$k" ] || git -C "$SERIES_TREE" diff --quiet "$c~1" "$c" -- "$file" ||
				fail "patch $j touches $file: cannot carry the fault forward"
			tree=$(GIT_INDEX_FILE=$TEST_WORK/index git -C "$SERIES_TREE" read-tree "$tree" &&
				GIT_INDEX_FILE=$TEST_WORK/index git -C "$SERIES_TREE" update-index --cacheinfo "100644,$blob,$file" &&
				GIT_INDEX_FILE=$TEST_WORK/index git -C "$SERIES_TREE" write-tree)
		fi
		git -C "$SERIES_TREE" log -1 --format=%B "$c" >"$TEST_WORK/msg.txt"
		if [ "$j" = "$k" ] && [ -n "$old" ]; then
			replace_once "$TEST_WORK/msg.txt" "$old" "$new" >"$TEST_WORK/msg.new"
			mv "$TEST_WORK/msg.new" "$TEST_WORK/msg.txt"
		fi
		parent=$(GIT_AUTHOR_NAME=$(git -C "$SERIES_TREE" log -1 --format=%an "$c") \
			GIT_AUTHOR_EMAIL=$(git -C "$SERIES_TREE" log -1 --format=%ae "$c") \
			GIT_AUTHOR_DATE=$(git -C "$SERIES_TREE" log -1 --format=%aI "$c") \
			GIT_COMMITTER_DATE=$(git -C "$SERIES_TREE" log -1 --format=%cI "$c") \
			git -C "$SERIES_TREE" commit-tree "$tree" -p "$parent" <"$TEST_WORK/msg.txt")
	done
	tgit branch -f "$name-src" "$parent"
	tgit config "branch.$name-src.description" "$(tgit config "branch.$SERIES_BRANCH.description")"
	expect_exit 0 export.out "$SERIES" export --branch "$name-src" -o "$TEST_WORK/$name"
	# The bisect runs on these commits: they have the trees, messages and
	# dates that applying the exported copy would give (the apply and
	# export round trip is gate_apply_git_am's and gate_export_roundtrip's).
	tgit branch -f "$name" "$name-src"
	CLEANUP_BRANCHES=("$name-src" "$name")
	trap cleanup_branches EXIT
}

# fault_message_at NAME K OLD NEW CHECK SUMMARY: with OLD replaced by NEW
# in its message, patch K must be the first bad patch, failing CHECK with
# SUMMARY (a basic regular expression); patch K-1 passes CHECK.
fault_message_at() {
	local name=$1 k=$2 old=$3 new=$4 check=$5 summary=$6 res=$TEST_OUT/$1
	gate_config
	fault_stack_message "$name" "$k" "$old" "$new"
	expect_exit 1 out env SERIES_FILE="$TEST_WORK/$name/series" SERIES_RESULTS="$res" \
		SERIES_BUILD="$(gate_build_root "$name")" "$SERIES" walk --branch "$name" --check "$check"
	cat out
	grep -q "^first bad: patch $k ($(printf %04d "$k")-.* on all: $check: $summary" out ||
		fail "the fault is not reported by $check at patch $k"
	assert_eq "$(cat "$res/$(printf %04d $((k - 1)))/all/$check/status")" pass "$check at patch $((k - 1))"
}

# fault_bisect NAME K FILE OLD NEW BISECT-ARG...: fault_stack, and bisect
# the faulty copy (branch NAME) with BISECT-ARG..., which must
# fail; its output is in ./out, its results in $TEST_OUT/NAME.
fault_bisect() {
	local name=$1 k=$2 file=$3 old=$4 new=$5
	shift 5
	fault_stack "$name" "$k" "$file" "$old" "$new"
	expect_exit 1 out env SERIES_FILE="$TEST_WORK/$name/series" SERIES_RESULTS="$TEST_OUT/$name" \
		SERIES_BUILD="$(gate_build_root "$name")" "$SERIES" walk --branch "$name" "$@"
	cat out
}

# last_patch_touching FILE: the number of the last patch that changes FILE.
last_patch_touching() {
	local commits j k=0
	mapfile -t commits < <(tgit rev-list --reverse "$BASE_COMMIT..$SERIES_BRANCH")
	for j in $(seq 1 "${#commits[@]}"); do
		git -C "$SERIES_TREE" diff --quiet "${commits[j - 1]}~1" "${commits[j - 1]}" -- "$1" || k=$j
	done
	[ "$k" -gt 0 ] || fail "no patch touches $1"
	echo "$k"
}

# need_in_stack FILE: skip the test unless a patch of the stack changes
# FILE.  Version 2 is ported from version 1 bottom-up; a gate of a patch
# that is not ported yet (the cover letter lists them) has nothing to test.
need_in_stack() {
	[ -n "$(tgit log --format=%H -1 "$BASE_COMMIT..$SERIES_BRANCH" -- "$1")" ] ||
		skip "no patch of the stack changes $1 yet (still to port from version 1)"
}

# The SAE control block (configs/layout.conf): a field moved by 8 bytes
# breaks a static_assert of the header; a comment that names another
# offset than the field's is stale.  Both are caught by the layout unit
# and attributed to the patch that last touches the header.
# fault_layout NAME OLD NEW SUMMARY LOG: inject the fault, bisect with the
# layout unit; the first bad patch's summary matches SUMMARY (a regex) and
# its log contains LOG.
fault_layout() {
	local name=$1 old=$2 new=$3 summary=$4 log=$5 n file=arch/s390/include/asm/sae.h
	gate_config
	need_in_stack "$file"
	n=$(last_patch_touching "$file")
	fault_bisect "$name" "$n" "$file" "$old" "$new" --check layout
	grep -q "^first bad: patch $n .* on all: layout: .*$summary" out ||
		fail "the fault is not attributed to patch $n"
	assert_contains "$TEST_OUT/$name/$(printf %04d "$n")/all/layout/log" "$log"
}

# need_symbol_in_stack FILE SYMBOL: skip unless a patch of the stack
# adds or removes SYMBOL in FILE.
need_symbol_in_stack() {
	[ -n "$(tgit log --format=%H -1 -S"$2" "$BASE_COMMIT..$SERIES_BRANCH" -- "$1")" ] ||
		skip "no patch of the stack adds $2 to $1 yet (still to port from version 1)"
}

# fault_at_tip NAME FILE OLD NEW CHECK SUMMARY: inject the fault into the
# last patch that touches FILE and bisect with the build and CHECK, a
# gate that runs at the tip (CHECK_STEPS=last): the tip is the first bad
# patch, on CHECK, with a summary that matches SUMMARY (a regex).
fault_at_tip() {
	local name=$1 file=$2 old=$3 new=$4 check=$5 summary=$6 n last
	gate_config
	need_in_stack "$file"
	n=$(last_patch_touching "$file")
	last=$(tgit rev-list --count "$BASE_COMMIT..$SERIES_BRANCH")
	fault_bisect "$name" "$n" "$file" "$old" "$new" --check build --check "$check"
	grep -q "^first bad: patch $last .* on all: $check: $summary" out ||
		fail "the fault is not reported by $check at patch $last"
}
