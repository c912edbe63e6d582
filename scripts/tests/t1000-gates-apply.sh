# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The gates of the base and of applying the stack: the base, the
# configurations, git am, the export round trip and the
# range-diff to the last version (quilt and b4 am are check units).
# They run on the real kernel tree in the cache.

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
	# A cover letter that forgets one patch is refused, naming it: the
	# first dropped patch of v1 that the cover letter names by subject.
	local forget
	forget=$(python3 - out "$SERIES_PATCHES/0000-cover-letter.patch" <<'EOF'
import sys
cover = open(sys.argv[2]).read()
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) == 4 and f[:2] == ["ok", "dropped"] and cover.count(f'"{f[3]}"') == cover.count(f[3]) == 1:
        print("\t".join(f[1:]))
        break
EOF
)
	[ -n "$forget" ] || fail "range-diff v1 lists no dropped patch that the cover letter names by its subject"
	mkdir -p v2
	cp -r "$SERIES_FILE" "$SERIES_PATCHES" v2/
	python3 - v2/patches/0000-cover-letter.patch "${forget##*$'\t'}" <<'EOF'
import sys
p, subject = sys.argv[1], sys.argv[2]
t = open(p).read()
open(p, "w").write(t.replace(f'"{subject}"', ""))
EOF
	expect_exit 1 out env SERIES_FILE="$PWD/v2/series" "$SERIES" range-diff v1
	assert_contains out "MISSING	$forget"
	assert_contains out "1 changed patch(es) not named in 'Changes in v2:'"
	expect_exit 1 out env SERIES_FILE="$PWD/v2/series" "$SERIES" mbox --version 2 -o v2.mbox
	assert_contains out "the cover letter's changelog for v2 is incomplete"
	expect_exit 0 out "$SERIES" mbox --version 2 -o v2.mbox
	assert_eq "$(grep -Ec "^Subject: \[(RFC )?PATCH v2 [0-9]*/$n_new\]" v2.mbox)" "$((n_new + 1))" "v2 subjects"
}
TESTS+=(test_gate_range_diff)
