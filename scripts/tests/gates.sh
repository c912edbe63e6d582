# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The real gates, on the real kernel tree in the cache: the base, applying
# the stack by git am and by quilt, the export round trip, the
# bisect-check of the whole stack, and fault injection on copies of it.

# Values of the configuration, for the assertions below.
gate_config() {
	series_load_config
	# shellcheck source=../lib/tree.sh
	. "$SERIES_ROOT/scripts/lib/tree.sh"
	# shellcheck source=../lib/build.sh
	. "$SERIES_ROOT/scripts/lib/build.sh"
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

test_gate_base() {
	gate_config
	expect_exit 0 out "$SERIES" base
	assert_base base.conf
}
TESTS+=(test_gate_base)

# The base package of configs/base.conf is fetched with a private apt
# configuration every time (the tree above keeps the base once made): the
# package from the private apt configuration, its tarball with the pinned
# checksum, and the system's apt configuration, lists and package cache as
# they were.
test_gate_base_fetch() {
	gate_config
	apt_state() {
		find /etc/apt /var/lib/apt/lists /var/cache/apt/archives -maxdepth 2 -type f \
			! -name lock -printf '%p %s %T@\n' 2>/dev/null | LC_ALL=C sort
	}
	apt_state >apt.before
	(
		. "$SERIES_ROOT/scripts/lib/base.sh"
		base_fetch "$PWD/fetch"
		printf '%s\n' "$BASE_TARBALL_PATH" >tarball.path
	) >fetch.out 2>&1 || { cat fetch.out; fail "the fetch of $BASE_DEB_PACKAGE failed"; }
	cat fetch.out
	assert_eq "$(sha256sum <"$(cat tarball.path)" | cut -d' ' -f1)" "$BASE_SHA256" "the fetched tarball"
	apt_state >apt.after
	diff apt.before apt.after || fail "the fetch changed the system's apt files"
}
TESTS+=(test_gate_base_fetch)

test_gate_configs() {
	gate_config
	local a
	# Every arch of the matrix configures, and keeps every fragment option;
	# the default arches, which build the vfio patches, have VFIO.
	for a in $(arch_list_all); do
		if arch_no_toolchain "$a"; then
			echo "$a: not configured: no toolchain"
			continue
		fi
		expect_exit 0 "config-$a.out" env SERIES_BUILD="$TEST_WORK/build" "$SERIES" config "$a"
		assert_contains "config-$a.out" "$a: $TEST_WORK/build/$a/.config ok"
		grep -q '^CONFIG_KVM=[ym]$' "$TEST_WORK/build/$a/.config" || fail "$a: KVM is not enabled"
		[ "$(conf_get "$SERIES_CONFIGS/arch/$a.conf" ARCH_DEFAULT)" != 1 ] ||
			grep -q '^CONFIG_VFIO=m$' "$TEST_WORK/build/$a/.config" || fail "$a: VFIO is not a module"
	done
}
TESTS+=(test_gate_configs)

test_gate_apply_git_am() {
	gate_config
	expect_exit 0 out "$SERIES" apply
	series_read
	local commits k=0 c p
	mapfile -t commits < <(git -C "$SERIES_TREE" rev-list --reverse "$BASE_COMMIT..$SERIES_BRANCH")
	assert_eq "${#commits[@]}" "${#PATCHES[@]}" "commits on the branch"
	for p in "${PATCHES[@]}"; do
		c=${commits[k]}
		k=$((k + 1))
		assert_eq "$(git -C "$SERIES_TREE" log -1 --format=%s "$c")" "$(patch_subject "$SERIES_PATCHES/$p")" "subject of patch $k"
		assert_eq "$(git -C "$SERIES_TREE" log -1 --format='%an <%ae>' "$c")" \
			"$SERIES_IDENT_NAME <$SERIES_IDENT_EMAIL>" "author of patch $k"
		git -C "$SERIES_TREE" log -1 --format=%B "$c" |
			grep -qxF "Signed-off-by: $SERIES_IDENT_NAME <$SERIES_IDENT_EMAIL>" ||
			fail "patch $k ($p) has no Signed-off-by of the series identity"
		grep -q '^ [0-9]* files\? changed' "$SERIES_PATCHES/$p" || fail "patch $k ($p) has no diffstat"
	done
	# Deterministic: applying again gives the same commits.
	expect_exit 0 out "$SERIES" apply
	assert_eq "$(git -C "$SERIES_TREE" rev-parse "$SERIES_BRANCH")" "${commits[-1]}" "tip after a second apply"
	[ -z "$(git -C "$SERIES_TREE" status --porcelain)" ] || fail "the tree is not clean after apply"
}
TESTS+=(test_gate_apply_git_am)

test_gate_export_roundtrip() {
	gate_config
	expect_exit 0 out "$SERIES" export -o exported
	diff -ru "$SERIES_PATCHES" exported/patches >diff.out ||
		{ head -n 40 diff.out; fail "export after apply differs from patches/"; }
	diff -u "$SERIES_FILE" exported/series || fail "export after apply differs from series"
	# The series file names exactly the exported patches (no cover letter).
	! grep -qx "$COVER_LETTER" exported/series || fail "the series file lists the cover letter"
}
TESTS+=(test_gate_export_roundtrip)

test_gate_apply_quilt() {
	gate_config
	need_tools quilt:quilt
	local wt=$TEST_WORK/quilt-tree tip_tree tree
	git -C "$SERIES_TREE" worktree add -q --detach "$wt" "$BASE_COMMIT"
	CLEANUP_WORKTREE=$wt
	trap cleanup_worktree EXIT
	(cd "$wt" && QUILT_PATCHES=$SERIES_PATCHES QUILT_SERIES=$SERIES_FILE \
		QUILT_PC=$TEST_WORK/pc quilt push -a -q) >out 2>&1 ||
		{ cat out; fail "quilt push -a failed"; }
	assert_contains out "Now at patch"
	tree=$(cd "$wt" && git add -f -A . && git write-tree)
	tip_tree=$(git -C "$SERIES_TREE" rev-parse "$SERIES_BRANCH^{tree}")
	assert_eq "$tree" "$tip_tree" "tree after quilt push -a vs. git am"
}
TESTS+=(test_gate_apply_quilt)

# The mail round trip with the real client: 'series mbox' of the version
# after the last one recorded (its changelog against that one, its RFC
# part) as Debian's b4 reads it.  b4 runs in the kernel tree so that it
# knows the base commit; what it writes for 'git am' must rebuild the
# tree of 'series apply'.
test_gate_b4_am() {
	gate_config
	need_tools b4:b4
	series_read
	local n=${#PATCHES[@]} wt=$TEST_WORK/b4-tree mbx k p v=1 last rfc tag='' vtag=''
	last=$(sed -n 's/^VERSION_\([1-9][0-9]*\)=.*/\1/p' "$SERIES_CONFIGS/versions.conf" | sort -n | tail -n 1)
	if [ -n "$last" ]; then
		git -C "$SERIES_ROOT" cat-file -e "$(conf_get "$SERIES_CONFIGS/versions.conf" "VERSION_$last")^{commit}" 2>/dev/null ||
			skip "this clone of the repository lacks version $last (a shallow clone?)"
		v=$((last + 1))
	fi
	[ "$v" = 1 ] || vtag=" v$v"
	rfc=$(conf_get "$SERIES_CONFIGS/versions.conf" "RFC_$v")
	expect_exit 0 out "$SERIES" mbox --version "$v" -o "$TEST_WORK/series.mbox"
	mkdir -p "$TEST_WORK/b4"
	(cd "$SERIES_TREE" && b4 am -m "$TEST_WORK/series.mbox" -o "$TEST_WORK/b4") >b4.out 2>&1 ||
		{ cat b4.out; fail "b4 am failed"; }
	cat b4.out
	assert_contains b4.out "Total patches: $n"
	assert_contains b4.out "Base: using specified base-commit $BASE_COMMIT"
	! grep -Eiq 'missing|not known|ignoring|warning|error' b4.out || fail "b4 am complained (above)"
	# Every patch once, in series order, those from RFC_N on as RFC.
	k=0
	for p in "${PATCHES[@]}"; do
		k=$((k + 1))
		[ "$(patch_subject "$SERIES_PATCHES/$p")" != "$rfc" ] || tag=' RFC'
		printf '  [PATCH%s%s %d/%d] %s\n' "$tag" "$vtag" "$k" "$n" "$(patch_subject "$SERIES_PATCHES/$p")"
	done >want
	[ -z "$rfc" ] || [ -n "$tag" ] || fail "no patch has the subject of RFC_$v: $rfc"
	grep -E '^  (. )?\[PATCH ' b4.out | sed -E 's/^  (. )?/  /' >got
	diff -u want got || fail "b4 lists other patches, or in another order"
	mbx=$(find "$TEST_WORK/b4" -name '*.mbx')
	[ "$(printf '%s\n' "$mbx" | wc -l)" = 1 ] && [ -f "$mbx" ] || fail "b4 wrote no single .mbx: $mbx"
	git -C "$SERIES_TREE" worktree add -q --detach "$wt" "$BASE_COMMIT"
	CLEANUP_WORKTREE=$wt
	trap cleanup_worktree EXIT
	GIT_COMMITTER_NAME=$SERIES_IDENT_NAME GIT_COMMITTER_EMAIL=$SERIES_IDENT_EMAIL \
		git -C "$wt" -c core.hooksPath=/dev/null am -q "$mbx" >am.out 2>&1 || { cat am.out; fail "git am of b4's mbx failed"; }
	assert_eq "$(git -C "$wt" rev-list --count "$BASE_COMMIT..HEAD")" "$n" "commits after git am of b4's mbx"
	assert_eq "$(git -C "$wt" rev-parse 'HEAD^{tree}')" "$(git -C "$SERIES_TREE" rev-parse "$SERIES_BRANCH^{tree}")" \
		"tree after b4 am + git am vs. series apply"
}
TESTS+=(test_gate_b4_am)

# range-diff and the changelog check on the real series: version 1 as
# configs/versions.conf records it, applied onto its own base, against the
# stack on the current base.  Every patch of either side is counted once,
# and the cover letter's changelog must name each one that is not the same.
test_gate_range_diff() {
	gate_config
	local v1 n_old n_new
	v1=$(conf_get "$SERIES_CONFIGS/versions.conf" VERSION_1)
	[ -n "$v1" ] || skip "configs/versions.conf records no version 1"
	git -C "$SERIES_ROOT" cat-file -e "$v1^{commit}" 2>/dev/null ||
		skip "this clone of the repository lacks commit $v1 (a shallow clone?)"
	n_old=$(git -C "$SERIES_ROOT" show "$v1:series" | grep -cv '^#')
	n_new=$(grep -cv '^#' "$SERIES_FILE")
	# Afterwards the series branch (and its description, the cover
	# letter) is the repository's again.
	restore_series() {
		"$SERIES" apply >/dev/null 2>&1
		git -C "$SERIES_TREE" branch -q -D series-v1 2>/dev/null || true
	}
	trap restore_series EXIT
	expect_exit 0 out "$SERIES" range-diff v1
	cat out
	python3 - out "$n_old" "$n_new" <<'EOF' || fail "the counts of range-diff v1"
import re, sys
text = open(sys.argv[1]).read()
old, new = int(sys.argv[2]), int(sys.argv[3])
m = re.search(r"^since v1: (\d+) changed, (\d+) new, (\d+) dropped, (\d+) same$", text, re.M)
assert m, "no 'since v1' line"
changed, added, dropped, same = map(int, m.groups())
assert changed + added + same == new, (m.group(0), new)
assert changed + dropped + same == old, (m.group(0), old)
assert "changelog: every changed patch is named in 'Changes in v2:'" in text
print("range-diff v1:", m.group(0), "- v1 had", old, "patches, the stack has", new)
EOF
	# A cover letter that forgets one patch is refused, naming it.
	mkdir -p v2
	cp -r "$SERIES_FILE" "$SERIES_PATCHES" v2/
	python3 - v2/patches/0000-cover-letter.patch <<'EOF'
import sys
p = sys.argv[1]
t = open(p).read()
old = '"KVM: arm64: Share the reset of the general registers"'
assert old in t, "the cover letter names no patch to forget"
open(p, "w").write(t.replace(old, ""))
EOF
	expect_exit 1 out env SERIES_FILE="$PWD/v2/series" "$SERIES" range-diff v1
	assert_contains out "MISSING	dropped	23	KVM: arm64: Share the reset of the general registers"
	assert_contains out "1 changed patch(es) not named in 'Changes in v2:'"
	expect_exit 1 out env SERIES_FILE="$PWD/v2/series" "$SERIES" mbox --version 2 -o v2.mbox
	assert_contains out "the cover letter's changelog for v2 is incomplete"
	expect_exit 0 out "$SERIES" mbox --version 2 -o v2.mbox
	assert_eq "$(grep -Ec "^Subject: \[(RFC )?PATCH v2 [0-9]*/$n_new\]" v2.mbox)" "$((n_new + 1))" "v2 subjects"
}
TESTS+=(test_gate_range_diff)

test_gate_bisect_check() {
	gate_config
	local res=$TEST_OUT/bisect
	expect_exit 0 out env SERIES_RESULTS="$res" "$SERIES" bisect
	cat out
	assert_contains out "first bad: none"
	python3 - "$res/summary.json" "$(arch_list_default | tr '\n' ' ')" "$(arches_without_toolchain | tr '\n' ' ')" "$SERIES_ROOT/patches" <<'EOF' || fail "bisect summary"
import json, os, sys
s = json.load(open(sys.argv[1]))
arches = sys.argv[2].split()
notool = set(sys.argv[3].split())
patchdir = sys.argv[4]
touched, unbuilt = {}, set()
assert s["totals"]["fail"] == 0, s["totals"]
foreign, headers = [], []
built = {}
for st in s["steps"][1:]:
    got = {(r["arch"], r["check"]): r["status"] for r in st["results"]}
    summ = {(r["arch"], r["check"]): r["summary"] for r in st["results"]}
    built[st["step"]] = {a for (a, c) in got if c == "build" and a not in notool}
    touched[st["step"]] = st["patch"]
    for (a, c), status in got.items():
        if a in notool:
            # No toolchain: "not built", never a pass.
            assert status == "skip" and summ[(a, c)].startswith("not built: no toolchain"), (st["patch"], a, c, status)
            unbuilt.add((st["step"], a))
            continue
        assert c != "build" or status == "pass", (st["patch"], a, got)
    assert got.get(("all", "checkpatch")) == "pass", (st["patch"], got)
    assert got.get(("all", "abi-arm64")) == "pass", (st["patch"], got)
    # The foreign view is judged from the patch that adds it on.
    assert got.get(("all", "abi-arm64-foreign")) in ("pass", "skip"), (st["patch"], got)
    foreign.append(got.get(("all", "abi-arm64-foreign")))
    assert got.get(("all", "maintainers")) == "pass", (st["patch"], got)
    assert got.get(("all", "headers")) in ("pass", "skip"), (st["patch"], got)
    headers.append(got.get(("all", "headers")))
    assert got.get(("all", "declared-once")) in ("pass", "skip"), (st["patch"], got)
    # The runtime gate runs at the tip only.
    last = st is s["steps"][-1]
    assert got.get(("all", "boot")) == ("pass" if last else None), (st["patch"], got)
    assert got.get(("all", "maintainers-fragment")) == ("pass" if last else None), (st["patch"], got)
    assert got.get(("all", "touched-compiled")) == "pass", (st["patch"], got)
    for r in st["results"]:
        assert not r["new_warnings"], (st["patch"], r)
# configs/affected.conf: patch 1 (include/uapi/Kbuild) is built everywhere,
# the arm64 header moves on arm64 and s390 only.
assert built[1] == set(arches), built[1]
arm_only = [k for k in built if built[k] == {"arm64", "s390"}]
assert arm_only, built
# A patch that touches an arch's directory is built for that arch, and
# reported "not built" where the arch has no toolchain.
arch_dirs = {"riscv64": "arch/riscv/", "powerpc": "arch/powerpc/", "mips": "arch/mips/",
             "loongarch64": "arch/loongarch/"}
for step, patch in touched.items():
    text = open(os.path.join(patchdir, os.path.basename(patch))).read()
    for a, d in arch_dirs.items():
        if "diff --git a/" + d in text:
            assert a in built[step] or (step, a) in unbuilt, (patch, a, built[step])
            assert a not in notool or (step, a) in unbuilt, (patch, a)
# Skipped only before the first patch that has something to check.
for seq in (foreign, headers):
    assert "pass" in seq and seq[seq.index("pass"):] == ["pass"] * (len(seq) - seq.index("pass")), seq
print("every patch builds on the arches it affects (patches", arm_only,
      "not on x86_64)",
      "with no new warning, keeps the arm64 KVM ABI, passes checkpatch and",
      "the MAINTAINERS check; the foreign view matches from patch",
      foreign.index("pass") + 1, "and the shared headers are self-contained from patch",
      headers.index("pass") + 1, "; native KVM runs as at the base at the tip;",
      "not built for lack of a toolchain:", sorted(unbuilt) or "nothing")
EOF
}
TESTS+=(test_gate_bisect_check)

# verdicts DIR: print "step arch check status summary" of a result tree.
verdicts() {
	python3 - "$1/summary.json" <<'EOF'
import json, sys
for st in json.load(open(sys.argv[1]))["steps"]:
    for r in st["results"]:
        print(st["step"], r["arch"], r["check"], r["status"], r["summary"])
EOF
}

test_gate_rerun_zero_builds() {
	gate_config
	local n
	# Unchanged stack, result cache filled (by the first run, if the
	# bisect gate did not run before): the second run builds nothing.
	expect_exit 0 out env SERIES_RESULTS="$TEST_OUT/rerun-1" "$SERIES" bisect
	touch "$TEST_WORK/marker"
	expect_exit 0 out env SERIES_RESULTS="$TEST_OUT/rerun" "$SERIES" bisect
	cat out
	# An arch without a toolchain has no verdict to keep: "not built".
	n=$(grep '^\[[0-9]*/[0-9]*\] ' out | grep -vc ' skip ([0-9]* s): not built: no toolchain' || true)
	[ "$n" -gt 0 ] || fail "the re-run ran no check"
	assert_eq "$(grep -c '^\[[0-9]*/[0-9]*\] .* (cached)' out)" "$n" "verdicts of the re-run taken from the cache"
	find "$SERIES_BUILD" "$SERIES_CACHE/abi" -newer "$TEST_WORK/marker" -type f >touched 2>/dev/null || true
	[ ! -s touched ] || { head touched; fail "the re-run wrote $(wc -l <touched) file(s) in the build directories"; }
	diff <(verdicts "$TEST_OUT/rerun-1") <(verdicts "$TEST_OUT/rerun") || fail "the cached verdicts differ"
	echo "$n verdicts reused, no file of the build directories written"
}
TESTS+=(test_gate_rerun_zero_builds)

test_gate_shard_merge() {
	gate_config
	local k
	expect_exit 0 out env SERIES_RESULTS="$TEST_OUT/unsharded" "$SERIES" bisect
	for k in 1 2 3; do
		expect_exit 0 "shard-$k.out" env SERIES_RESULTS="$TEST_OUT/shard-$k" "$SERIES" bisect --shard "$k/3"
		grep "^units=" "$TEST_OUT/shard-$k/meta"
	done
	rm -rf "$TEST_OUT/merged"
	expect_exit 0 out env SERIES_RESULTS="$TEST_OUT/merged" "$SERIES" report --merge \
		"$TEST_OUT/shard-1" "$TEST_OUT/shard-2" "$TEST_OUT/shard-3"
	assert_contains out "first bad: none"
	diff <(verdicts "$TEST_OUT/unsharded") <(verdicts "$TEST_OUT/merged") ||
		fail "three shards merged do not give the verdicts of the unsharded run"
	echo "3 shards merged: $(verdicts "$TEST_OUT/merged" | wc -l) verdicts, as unsharded"
}
TESTS+=(test_gate_shard_merge)

test_gate_report_html() {
	gate_config
	local r=$TEST_OUT/unsharded shot=$TEST_OUT/report.png
	[ -f "$r/report.html" ] ||
		expect_exit 0 out env SERIES_RESULTS="$r" "$SERIES" bisect
	need_tool chromium chromium
	rm -f "$shot"
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1600,1000 \
		--screenshot="$shot" "file://$r/report.html" >chromium.out 2>&1 ||
		{ cat chromium.out; fail "chromium could not render $r/report.html"; }
	[ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$shot is not a PNG"
	[ "$(stat -c %s "$shot")" -gt 20000 ] || fail "$shot is too small to show the report"
	# The DOM chromium built: the matrix has a row per step, and every
	# link of a cell resolves to a log.
	chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$r/report.html" >dom.html 2>chromium.out ||
		{ cat chromium.out; fail "chromium --dump-dom failed"; }
	python3 - dom.html "$r" <<'EOF' || fail "the rendered report"
import html.parser, json, os, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.rows, self.intable = [], 0, False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "matrix":
            self.intable = True
        if tag == "a" and self.intable:
            self.links.append(a["href"])
        if tag == "tr" and self.intable:
            self.rows += 1
    def handle_endtag(self, tag):
        if tag == "table":
            self.intable = False
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
steps = json.load(open(os.path.join(sys.argv[2], "summary.json")))["steps"]
assert p.rows == len(steps) + 1, (p.rows, len(steps))
cells = sum(len(st["results"]) for st in steps)
assert len(p.links) == cells, (len(p.links), cells)
for href in p.links:
    assert os.path.isfile(os.path.join(sys.argv[2], href)), href
print(f"rendered: {p.rows - 1} steps, {len(p.links)} cells, every link resolves")
EOF
	echo "screenshot: $shot ($(stat -c %s "$shot") bytes)"
}
TESTS+=(test_gate_report_html)

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
		"$SERIES" bisect --branch "$name" --check "$check"
	cat out
	grep -q "^first bad: patch $k ($(printf %04d "$k")-.* on all: $check: $summary" out ||
		fail "the fault is not reported by $check at patch $k"
	assert_eq "$(cat "$res/$(printf %04d $((k - 1)))/all/$check/status")" pass "$check at patch $((k - 1))"
}
test_fault_missing_signoff() {
	gate_config
	fault_message_at fault-signoff 2 "Signed-off-by: $SERIES_IDENT_NAME <$SERIES_IDENT_EMAIL>" "" \
		signoff '1 finding(s): no Signed-off-by'
}
TESTS+=(test_fault_missing_signoff)
# Patch 3 under a prefix whose areas it does not touch.
test_fault_wrong_subject() {
	gate_config
	local c subj wrong=s390:
	c=$(tgit rev-list --reverse "$BASE_COMMIT..$SERIES_BRANCH" | sed -n 3p)
	subj=$(tgit log -1 --format=%s "$c")
	! tgit diff --name-only "$c~1" "$c" | grep -q 's390' || fail "patch 3 touches s390 files: pick another patch"
	fault_message_at fault-subject 3 "$subj" "$wrong ${subj#*: }" \
		subject "'$wrong' names none of the [0-9]* touched file(s)"
}
TESTS+=(test_fault_wrong_subject)
test_fault_kernel_doc() {
	gate_config
	local f=arch/s390/kvm/gmap/gmap.c k res=$TEST_OUT/fault-kernel-doc
	# A misspelt parameter in the last patch, in a file it does not touch
	# otherwise (s390's gmap, which no patch changes).
	k=$(series_read && echo "${#PATCHES[@]}")
	fault_stack fault-kernel-doc "$k" "$f" \
		$' * gmap_dispose() - Remove and free a guest address space and its children.\n * @gmap:' \
		$' * gmap_dispose() - Remove and free a guest address space and its children.\n * @gamp:'
	expect_exit 1 out env SERIES_FILE="$TEST_WORK/fault-kernel-doc/series" SERIES_RESULTS="$res" \
		"$SERIES" bisect --branch fault-kernel-doc --check kernel-doc
	cat out
	grep -q "^first bad: patch $k ($(printf %04d "$k")-.* on all: kernel-doc: 2 new warning(s): $f: warning: " out ||
		fail "the kernel-doc error is not reported by kernel-doc at patch $k"
	assert_contains "$res/$(printf %04d "$k")/all/kernel-doc/new-warnings" \
		"Excess function parameter 'gamp' description in 'gmap_dispose'"
	assert_contains "$res/$(printf %04d "$k")/all/kernel-doc/new-warnings" \
		"function parameter 'gmap' not described in 'gmap_dispose'"
	assert_eq "$(cat "$res/$(printf %04d $((k - 1)))/all/kernel-doc/status")" pass "kernel-doc at patch $((k - 1))"
}
TESTS+=(test_fault_kernel_doc)
# An SPDX identifier that LICENSES/ does not have, in a file a patch
# creates: checkpatch finds it only if scripts/spdxcheck.py can run
# (Python's ply and git), which the checkpatch unit makes sure of; without
# them checkpatch used to take spdxcheck's traceback for a valid license.
test_fault_spdx_license() {
	gate_config
	local f=virt/kvm/arm64/mmu.c n res=$TEST_OUT/fault-spdx
	need_in_stack "$f"
	n=$(last_patch_touching "$f")
	fault_bisect fault-spdx "$n" "$f" \
		'// SPDX-License-Identifier: GPL-2.0-only' '// SPDX-License-Identifier: GPL-2.0-bogus' \
		--check checkpatch
	grep -q "^first bad: patch $n .* on all: checkpatch: .*SPDX_LICENSE_TAG: 'SPDX-License-Identifier: GPL-2.0-bogus' is not supported" out ||
		fail "the unknown license is not attributed to patch $n"
	assert_not_contains "$res/$(printf %04d "$n")/all/checkpatch/log" "Traceback"
}
TESTS+=(test_fault_spdx_license)

test_fault_coccinelle() {
	gate_config
	local n
	n=$(series_read && echo "${#PATCHES[@]}")
	# A NULL test before kfree(): scripts/coccinelle/free/ifnullfree.cocci.
	fault_bisect fault-coccinelle "$n" virt/kvm/vfio.c $'\tkfree(kv);\n' $'\tif (kv)\n\t\tkfree(kv);\n' \
		--check coccinelle
	grep -q "^first bad: patch $n .* on all: coccinelle: 1 new coccinelle report(s): vfio.c: WARNING: NULL check before some freeing functions is not needed." out ||
		fail "the coccinelle report is not attributed to patch $n"
	assert_eq "$(cat "$TEST_OUT/fault-coccinelle/$(printf %04d $((n - 1)))/all/coccinelle/status")" pass "coccinelle at patch $((n - 1))"
}
TESTS+=(test_fault_coccinelle)

# A function made global without a declaration in the last patch:
# sparse's "Should it be static?", attributed to that patch.
test_fault_sparse() {
	gate_config
	local n res=$TEST_OUT/fault-sparse
	n=$(series_read && echo "${#PATCHES[@]}")
	fault_bisect fault-sparse "$n" virt/kvm/vfio.c 'static bool kvm_vfio_file_is_valid(' 'bool kvm_vfio_file_is_valid(' \
		--check sparse
	grep -q "^first bad: patch $n .* on [a-z0-9_]*: sparse: 1 new sparse warning(s): vfio.c: warning: symbol 'kvm_vfio_file_is_valid' was not declared. Should it be static?" out ||
		fail "the sparse warning is not attributed to patch $n"
	# The last patch before it that sparse judged (a patch that builds
	# no arch, such as one of MAINTAINERS, is not judged) was clean on
	# every arch.
	local s k judged=0
	for ((k = n - 1; k > 0 && judged == 0; k--)); do
		for s in "$res/$(printf %04d "$k")"/*/sparse/status; do
			[ -e "$s" ] || continue
			assert_eq "$(cat "$s")" pass "sparse at patch $k ($s)"
			judged=$((judged + 1))
		done
	done
	[ "$judged" -gt 0 ] || fail "sparse judged no patch before patch $n"
}
TESTS+=(test_fault_sparse)
test_fault_syntax_error() {
	gate_config
	# s390-only code that no later patch touches (dat.c is built for KVM).
	fault_stack fault-syntax 2 arch/s390/kvm/gmap/dat.c \
		$'int kvm_s390_mmu_cache_topup(struct kvm_s390_mmu_cache *mc)\n{\n' \
		$'int kvm_s390_mmu_cache_topup(struct kvm_s390_mmu_cache *mc)\n{\n\tint series_fault = 0\n'
	local res=$TEST_OUT/fault-syntax
	# Not on arm64: going back from the tip across the UAPI header moves
	# of patches 1-6 has broken the arm64 incremental build here (a
	# .vdso-wrap.o.d naming a generated copy of sve_context.h that step
	# 1 does not have); that is for the build unit, not for this test.
	expect_exit 1 out env SERIES_FILE="$TEST_WORK/fault-syntax/series" SERIES_RESULTS="$res" \
		"$SERIES" bisect --branch fault-syntax --arch s390 --arch x86_64
	cat out
	assert_contains out "first bad: patch 2 (0002-"
	grep -q '^first bad: patch 2 .* on s390: build: build failed: .*dat.c.*error' out ||
		fail "the syntax error is not attributed to patch 2 on s390"
	assert_contains out "reproduce patch 2 with: scripts/series build s390 "
	assert_eq "$(cat "$res/0002/x86_64/build/status")" pass "x86_64 at patch 2 (does not build s390's dat.c)"
	assert_eq "$(cat "$res/0001/s390/build/status")" pass "s390 at patch 1"
	[ ! -e "$res/0003" ] || fail "the bisect went on past the first bad patch"
}
TESTS+=(test_fault_syntax_error)

test_fault_new_warning() {
	gate_config
	local res=$TEST_OUT/fault-warning n
	n=$(series_read && echo "${#PATCHES[@]}")
	fault_stack fault-warning "$n" virt/kvm/vfio.c \
		$'static void kvm_vfio_file_set_kvm(struct file *file, struct kvm *kvm)\n{\n' \
		$'static void kvm_vfio_file_set_kvm(struct file *file, struct kvm *kvm)\n{\n\tint series_fault_unused;\n'
	# The build alone: the units that run at the tip (kvm-coexist, kunit,
	# boot, module-load) would rebuild for the changed vfio.c and add
	# minutes without looking at warnings.
	expect_exit 1 out env SERIES_FILE="$TEST_WORK/fault-warning/series" SERIES_RESULTS="$res" \
		"$SERIES" bisect --branch fault-warning --arch x86_64 --check build
	cat out
	# Against the parent, or the nearest ancestor that built x86_64 when
	# the patches before it are arm64-only (configs/affected.conf).
	grep -Eq "^first bad: patch $n .* on x86_64: build: 1 new warning\(s\) against the (parent|ancestor [0-9a-f]+): virt/kvm/vfio.c unused variable 'series_fault_unused'" out ||
		fail "the new warning is not attributed to patch $n on x86_64"
	assert_contains "$res/$(printf %04d "$n")/x86_64/build/new-warnings" "series_fault_unused"
}
TESTS+=(test_fault_new_warning)

test_fault_patch_does_not_apply() {
	gate_config
	series_read
	local head_before branch_before p
	mkdir -p broken/patches
	# Without patch 1, the context of patch 2 is not in the tree.
	for p in "${PATCHES[@]:1}"; do
		cp "$SERIES_PATCHES/$p" broken/patches/
		echo "$p" >>broken/series
	done
	head_before=$(git -C "$SERIES_TREE" rev-parse HEAD)
	branch_before=$(git -C "$SERIES_TREE" symbolic-ref -q HEAD || echo detached)
	expect_exit 1 out env SERIES_FILE="$PWD/broken/series" "$SERIES" apply --branch fault-noapply
	grep -Eq "patch 1 \(${PATCHES[1]}\) does not apply: [^ ]+" out ||
		fail "the failed apply does not name patch 1 and a file"
	assert_eq "$(git -C "$SERIES_TREE" rev-parse HEAD)" "$head_before" "HEAD after a failed apply"
	assert_eq "$(git -C "$SERIES_TREE" symbolic-ref -q HEAD || echo detached)" "$branch_before" "branch after a failed apply"
	[ -z "$(git -C "$SERIES_TREE" status --porcelain)" ] || fail "the tree is dirty after a failed apply"
	! git -C "$SERIES_TREE" rev-parse -q --verify refs/heads/fault-noapply >/dev/null ||
		fail "a failed apply left the branch fault-noapply behind"
	[ ! -d "$(git -C "$SERIES_TREE" rev-parse --absolute-git-dir)/rebase-apply" ] ||
		fail "a failed apply left a git am session behind"
}
TESTS+=(test_fault_patch_does_not_apply)

# fault_bisect NAME K FILE OLD NEW BISECT-ARG...: fault_stack, and bisect
# the faulty copy (branch NAME) with BISECT-ARG..., which must
# fail; its output is in ./out, its results in $TEST_OUT/NAME.
fault_bisect() {
	local name=$1 k=$2 file=$3 old=$4 new=$5
	shift 5
	fault_stack "$name" "$k" "$file" "$old" "$new"
	expect_exit 1 out env SERIES_FILE="$TEST_WORK/$name/series" SERIES_RESULTS="$TEST_OUT/$name" \
		"$SERIES" bisect --branch "$name" "$@"
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

test_fault_abi_change() {
	gate_config
	local res=$TEST_OUT/fault-abi n file=include/uapi/arch/arm64/asm/kvm.h
	# A member of struct kvm_regs shrinks in the last patch that touches
	# the arm64 KVM UAPI header, in the middle of the stack.
	n=$(last_patch_touching "$file")
	fault_bisect fault-abi "$n" "$file" \
		$'struct kvm_regs {\n\tstruct user_pt_regs regs;\t/* sp = sp_el0 */\n\n\t__u64\tsp_el1;' \
		$'struct kvm_regs {\n\tstruct user_pt_regs regs;\t/* sp = sp_el0 */\n\n\t__u32\tsp_el1;' \
		--check abi-arm64
	grep -q "^first bad: patch $n .* on all: abi-arm64: ABI differs from the base: first difference: -.*__u64 *sp_el1;" out ||
		fail "the ABI change is not attributed to patch $n"
	assert_eq "$(cat "$res/$(printf %04d $((n - 1)))/all/abi-arm64/status")" pass "patch $((n - 1)) keeps the ABI"
	assert_contains "$res/$(printf %04d "$n")/all/abi-arm64/abi.diff" "+	__u32                      sp_el1;"
	[ ! -e "$res/$(printf %04d $((n + 1)))" ] || fail "the bisect went on past the first bad patch"
}
TESTS+=(test_fault_abi_change)

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

test_fault_layout_moved_field() {
	fault_layout fault-layout-moved \
		$'\t__u8\treserved081[7];\t\t/* 0x0081 */\n\t__u64\tscad;\t\t\t/* 0x0088 */\n\t__u8\treserved090[128];' \
		$'\t__u8\treserved081[15];\t/* 0x0081 */\n\t__u64\tscad;\t\t\t/* 0x0088 */\n\t__u8\treserved090[120];' \
		'asm/sae.h does not compile' 'offsetof(struct sae_control_block, scad) == (0x088)'
}
TESTS+=(test_fault_layout_moved_field)

test_fault_layout_stale_comment() {
	fault_layout fault-layout-comment \
		$'\t__u64\tfar;\t\t\t/* 0x0418 */\n\t__u64\tvaddr;' \
		$'\t__u64\tfar;\t\t\t/* 0x0410 */\n\t__u64\tvaddr;' \
		'FAIL sae_icpt_host_access: 1 stale' 'sae_icpt_host_access.far: comment says 0x410, DWARF 0x418'
}
TESTS+=(test_fault_layout_stale_comment)

# need_symbol_in_stack FILE SYMBOL: skip unless a patch of the stack
# adds or removes SYMBOL in FILE.
need_symbol_in_stack() {
	[ -n "$(tgit log --format=%H -1 -S"$2" "$BASE_COMMIT..$SERIES_BRANCH" -- "$1")" ] ||
		skip "no patch of the stack adds $2 to $1 yet (still to port from version 1)"
}

# The SAE instructions at the tip: the kernel's disassembler table
# (generated from arch/s390/tools/opcodes.txt) names all three.  7.3's
# generator spells a name as an array of characters; names of more than
# five letters are kept in a table of long names.
test_gate_sae_opcodes() {
	gate_config
	need_symbol_in_stack arch/s390/tools/opcodes.txt stiasrm
	arch_load s390
	arch_need_toolchain
	expect_exit 0 out "$SERIES" build s390 "$SERIES_BRANCH"
	local defs=$ARCH_BUILD_DIR/arch/s390/include/generated/asm/dis-defs.h
	assert_contains "$defs" ".opfrag = 0xa5, .format = INSTR_RRE_R0, .name =  { 's', 'a', 'e', } }"
	assert_contains "$defs" ".opfrag = 0xa6, .format = INSTR_RRE_R0, .name =  { 'l', 'a', 's', 'r', 'm', } }"
	assert_contains "$defs" '.opfrag = 0xa7, .format = INSTR_RRE_R0, .offset = LONG_INSN_STIASRM }'
	assert_contains "$defs" "[LONG_INSN_STIASRM] = { 's', 't', 'i', 'a', 's', 'r', 'm', }"
}
TESTS+=(test_gate_sae_opcodes)

# build_fresh_config ARCH REV [BUILD-ROOT]: build REV for ARCH with a
# .config made afresh at REV.  A build directory that last built another
# step (a check, another gate's bisection) keeps that step's options: an
# option that REV adds (kvm-arm64's) would have been dropped there.
build_fresh_config() {
	local root=${3:-$SERIES_BUILD}
	rm -f "$root/$1/.series-config-key"
	expect_exit 0 out env SERIES_BUILD="$root" "$SERIES" build "$1" "$2"
}

# The object code of __sae64a at the tip issues SAE on r2 with the access
# registers and the kernel's r6-r14 saved around it and r0-r5 cleared
# after it.
test_gate_sae64a_code() {
	gate_config
	need_symbol_in_stack arch/s390/kernel/entry.S __sae64a
	arch_load s390
	arch_need_toolchain
	local i obj=$ARCH_BUILD_DIR/arch/s390/kernel/entry.o
	# __sae64a is built with kvm-arm64 only, an option of the tip.
	build_fresh_config s390 "$SERIES_BRANCH"
	expect_exit 0 dis "${ARCH_CROSS_COMPILE}objdump" -d --disassemble=__sae64a "$obj"
	cat dis
	# binutils does not know SAE: the instruction shows as its bytes.
	grep -Eq '^ +[0-9a-f]+:\s+b9 a5 00 20\s' dis || fail "no 'sae %r2' (b9a50020) in __sae64a"
	for i in 'stmg\s+%r6,%r14,' 'stam\s+%a0,%a15,' 'lam\s+%a0,%a15,' 'lmg\s+%r6,%r14,' \
		'xgr\s+%r0,%r0' 'xgr\s+%r5,%r5'; do
		grep -Eq "$i" dis || fail "__sae64a lacks $i"
	done
	[ "$(grep -Ec 'xgr\s+%r([0-5]),%r\1' dis)" = 6 ] || fail "__sae64a does not clear r0-r5"
}
TESTS+=(test_gate_sae64a_code)

# Two KVM modules built in (configs/coexist.conf): without the step that
# makes the symbols of kvm-arm64's copy of the common KVM code local, the
# link of vmlinux finds them twice.  The arch's own build (both modules
# as modules) does not see it; the coexistence gate, which runs at the
# tip (CHECK_STEPS=last), does.
test_fault_coexist_builtin() {
	local file=arch/s390/kvm/arm64/Makefile
	fault_at_tip fault-coexist "$file" \
		$'\t\t     $(OBJCOPY) --localize-symbols=$@.syms $< $@' \
		$'\t\t     $(OBJCOPY) $< $@' \
		kvm-coexist 's390: y,y: build failed: .*multiple definition of'
	assert_eq "$(cat "$TEST_OUT/fault-coexist/$(printf %04d "$(last_patch_touching "$file")")/s390/build/status")" pass \
		"the arch's own build passes with the fault"
}
TESTS+=(test_fault_coexist_builtin)

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

# The module-load gate (configs/module-load.conf): a kvm-arm64 that
# refuses to load with another errno than the one it documents.
test_fault_module_load_errno() {
	fault_at_tip fault-modload arch/s390/kvm/arm64/arm64.c \
		$'\t\tpr_info("SAE is not available\\n");\n\t\treturn -ENODEV;' \
		$'\t\tpr_info("SAE is not available\\n");\n\t\treturn -ENXIO;' \
		module-load 's390: load 1 of /kvm-arm64.ko fails with errno 19 (got 6)'
}
TESTS+=(test_fault_module_load_errno)

# The KUnit gate (configs/kunit.conf): a vCPU save area that does not
# point back to its control block fails the suite's test of the links.
test_fault_kunit_sae_links() {
	fault_at_tip fault-kunit arch/s390/kvm/arm64/arm64.c \
		$'\tcb->save_area = virt_to_phys(sa);\n\tsa->sdo = virt_to_phys(cb);' \
		$'\tcb->save_area = virt_to_phys(sa);' \
		kunit 's390: kvm-arm64: 2 of [0-9]* tests did not pass: sae_alloc_test FAIL, vcpu_reset_test FAIL'
}
TESTS+=(test_fault_kunit_sae_links)

test_fault_foreign_layout() {
	gate_config
	local res=$TEST_OUT/fault-foreign n file=include/uapi/arch/arm64/linux/kvm.h
	# With a plain unsigned __int128 instead of the 16-byte aligned
	# __u128, the foreign user_fpsimd_state is only 8-byte aligned on s390
	# and moves kvm_regs.fp_regs.
	n=$(last_patch_touching "$file")
	fault_bisect fault-foreign "$n" "$file" \
		$'\t__u128\t\tvregs[32];\n' \
		$'\tunsigned __int128\tvregs[32];\n' \
		--check abi-arm64 --check abi-arm64-foreign
	grep -q "^first bad: patch $n .* on all: abi-arm64-foreign: s390 sees a different arm64 ABI: struct kvm_regs: native 'struct user_fpsimd_state fp_regs; /\* 336 528 \*/', foreign 'struct user_fpsimd_state fp_regs; /\* 328 528 \*/'" out ||
		fail "the foreign layout change is not attributed to patch $n"
	assert_eq "$(cat "$res/$(printf %04d "$n")/all/abi-arm64/status")" pass "the native ABI at patch $n"
	assert_contains "$res/$(printf %04d "$n")/all/abi-arm64-foreign/log" "KVM_GET_REGS: native 2204151425, foreign 2203627137"
}
TESTS+=(test_fault_foreign_layout)

test_fault_header_not_self_contained() {
	gate_config
	local res=$TEST_OUT/fault-header n file=include/arch/arm64/asm/esr.h
	# A shared header that reaches for an arm64-only header compiles on
	# arm64 but not on s390.
	n=$(last_patch_touching "$file")
	# The check compiles with the flags of the arches' last builds.
	fault_bisect fault-header "$n" "$file" \
		$'#include <arch/arm64/asm/brk-imm.h>\n' \
		$'#include <arch/arm64/asm/brk-imm.h>\n#include <asm/memory.h>\n' \
		--check headers
	grep -q "^first bad: patch $n .* on all: headers: not self-contained: s390: arch/arm64/asm/esr.h" out ||
		fail "the header fault is not attributed to patch $n on s390"
	assert_contains "$res/$(printf %04d "$n")/all/headers/log" "asm/memory.h: No such file or directory"
	grep -q '^ok arch/arm64/asm/esr.h' "$res/$(printf %04d "$n")/all/headers/arm64.log" ||
		fail "esr.h with the fault should still compile on arm64"
}
TESTS+=(test_fault_header_not_self_contained)

test_fault_declared_twice() {
	gate_config
	local res=$TEST_OUT/fault-declared n file=arch/arm64/include/asm/kvm_host.h
	need_in_stack include/kvm/arm64/guest.h
	# The last patch that touches arm64's <asm/kvm_host.h> (after those
	# that move declarations out of it) leaves one of them there: it
	# compiles, and is declared twice.
	n=$(last_patch_touching "$file")
	fault_bisect fault-declared "$n" "$file" \
		$'int kvm_arm_copy_sys_reg_indices(struct kvm_vcpu *vcpu, u64 __user *uindices);\n' \
		$'int kvm_arm_copy_sys_reg_indices(struct kvm_vcpu *vcpu, u64 __user *uindices);\nint kvm_arm_get_reg(struct kvm_vcpu *vcpu, const struct kvm_one_reg *reg);\n' \
		--check declared-once
	grep -Eq "^first bad: patch $n .* on all: declared-once: declared twice: kvm_arm_get_reg at \S*arch/arm64/include/asm/kvm_host.h:[0-9]+ and include/kvm/arm64/guest.h:[0-9]+" out ||
		fail "the second declaration is not attributed to patch $n"
	assert_eq "$(cat "$res/$(printf %04d $((n - 1)))/all/declared-once/status")" pass "patch $((n - 1))"
}
TESTS+=(test_fault_declared_twice)

# The runtime gate as a user runs it: the tip of the stack against the
# base, in QEMU, with native KVM in the guest.
test_gate_boot_arm64() {
	gate_config
	local dir
	expect_exit 0 out "$SERIES" boot arm64
	cat out
	assert_contains out "arm64: runtime gate passed"
	assert_contains out "output of get-reg-list-vregs: identical"
	for t in get-reg-list kvm_create_max_vcpus set_memory_region_test psci_test hypercalls; do
		grep -Eq "^$t +base PASS +this PASS +same" out || fail "$t does not pass as at the base"
	done
	dir=$SERIES_CACHE/boot/arm64/$(tgit rev-parse --short=12 "$SERIES_BRANCH")
	assert_contains "$dir/console.log" "CPU: All CPU(s) started at EL2"
	assert_contains "$dir/console.log" "VHE mode initialized successfully"
	[ "$(grep -c . "$dir/out/get-reg-list-vregs")" -gt 100 ] || fail "get-reg-list printed no register list"
}
TESTS+=(test_gate_boot_arm64)

test_fault_core_reg_dropped() {
	gate_config
	local res=$TEST_OUT/fault-corereg n
	need_in_stack virt/kvm/arm64/guest.c
	# ELR_EL1 drops out of the shared core registers in the patch that
	# last touches them: KVM_GET_REG_LIST no longer lists it and ONE_REG
	# refuses it.  It all builds; only the runtime gate, at the tip, sees it.
	n=$(last_patch_touching virt/kvm/arm64/guest.c)
	fault_bisect fault-corereg "$n" virt/kvm/arm64/guest.c \
		$'\tcase KVM_REG_ARM_CORE_REG(sp_el1):\n\tcase KVM_REG_ARM_CORE_REG(elr_el1):\n' \
		$'\tcase KVM_REG_ARM_CORE_REG(sp_el1):\n' \
		--check boot
	local last
	last=$(series_read && echo "${#PATCHES[@]}")
	grep -Eq "^first bad: patch $last .* on all: boot: arm64: get-reg-list +base PASS +this FAIL +DIFFERS" out ||
		fail "the dropped register is not caught at the tip (patch $last)"
	assert_contains "$res/$(printf %04d "$last")/all/boot/log" "output of get-reg-list-vregs differs at line"
	assert_contains "$res/$(printf %04d "$last")/all/boot/log" "elr_el1"
}
TESTS+=(test_fault_core_reg_dropped)

test_fault_touched_not_compiled() {
	gate_config
	local res=$TEST_OUT/fault-uncovered n file=drivers/vfio/platform/vfio_platform.c
	# The last patch with C files of its own also edits a driver that no
	# arch of the matrix builds (VFIO_PLATFORM is off everywhere): it
	# builds, it is just never compiled.
	local commits j
	mapfile -t commits < <(tgit rev-list --reverse "$BASE_COMMIT..$SERIES_BRANCH")
	n=0
	for j in "${!commits[@]}"; do
		tgit diff --name-only "${commits[j]}~1" "${commits[j]}" | grep -q '\.c$' && n=$((j + 1))
	done
	[ "$n" -gt 0 ] || skip "no patch changes a C file"
	fault_bisect fault-uncovered "$n" "$file" \
		$'#include "vfio_platform_private.h"\n' \
		$'#include "vfio_platform_private.h"\n\n/* series fault: touched, never compiled */\n' \
		--check touched-compiled
	grep -q "^first bad: patch $n .* on all: touched-compiled: uncovered: $file (no arch of .*x86_64.* compiles it)" out ||
		fail "the uncovered file is not attributed to patch $n"
	# The patch's own C files are still found compiled.
	grep -Eq '^[^ ]+\.c: compiled on [a-z0-9_]+$' "$res/$(printf %04d "$n")/all/touched-compiled/log" ||
		fail "no C file of patch $n is reported compiled"
}
TESTS+=(test_fault_touched_not_compiled)

# The common KVM code is built into s390's kvm.ko and into kvm-arm64 with
# the Kconfig options of one kernel: a symbol that kvm-arm64 selected and
# kvm.ko did not would change kvm.ko whenever kvm-arm64 is configured.
# At the tip, KVM_ARM64 selects nothing that KVM does not.  (Should it
# need to, kvm.ko must be shown unchanged with the selection, by a build
# of s390 with and without it.)
test_gate_s390_kvm_arm64_selects() {
	gate_config
	local k=arch/s390/kvm/Kconfig rc=0
	need_in_stack arch/s390/kvm/arm64/Makefile
	git -C "$SERIES_TREE" show "$SERIES_BRANCH:$k" >Kconfig || fail "no $k at the tip"
	python3 "$SERIES_ROOT/scripts/tests/kconfig-selects.py" Kconfig KVM_ARM64 KVM >out 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || { cat out; fail "KVM_ARM64 selects what KVM does not (exit $rc): $(paste -sd' ' out)"; }
	grep -q '^[[:space:]]*select KVM_COMMON$' Kconfig || fail "$k: KVM selects no KVM_COMMON: the parse is wrong"
	echo "KVM_ARM64 selects nothing that KVM does not ($k at the tip)"
}
TESTS+=(test_gate_s390_kvm_arm64_selects)
