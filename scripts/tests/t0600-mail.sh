# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of the mail workflow: the mbox, versions and their changelogs,
# range-diff across bases.
# Each test runs in its own empty directory ($TEST_WORK) in a subshell.

test_mbox() {
	local r=$SERIES_ROOT/scripts/mail/mbox.py k
	mkmsg() { # K N SUBJECT BODY: a format-patch file numbered K/N
		printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
		printf 'From: A Long Name Of The Sender\n <sender@example.org>\nDate: Fri, 4 Dec 2026 05:27:03 +0000\n'
		printf 'Subject: [PATCH %02d/%02d] %s\n folded\n\n%s\n' "$1" "$2" "$3" "$4"
	}
	mkmsg 0 2 'x: The cover' $'Why.\n\nbase-commit: 0123' >c.patch
	mkmsg 1 2 'x: One' $'From the start.\n>From quoted\n---\n a | 1 +' >1.patch
	mkmsg 2 2 'y: Two' $'Two.\n---\n b | 1 +' >2.patch
	{
		printf '1.patch\tto\tMaint One <m1@example.org>\n'
		printf '1.patch\tcc\tlist@example.org\n'
		for k in 1 2 3 4 5 6; do printf '2.patch\tcc\tReviewer Number %d <r%d@example.org>\n' "$k" "$k"; done
		printf '2.patch\tto\tJ\xc3\xb6rg M <j@example.org>\n'
	} >rcpt
	expect_exit 0 m1 python3 "$r" --version 2 --recipients rcpt --domain example.org c.patch 1.patch 2.patch
	assert_eq "$(grep -c '^From git@z ' m1)" 3 "messages"
	assert_eq "$(grep '^Subject: ' m1 | tr '\n' '|')" \
		'Subject: [PATCH v2 0/2] x: The cover folded|Subject: [PATCH v2 1/2] x: One folded|Subject: [PATCH v2 2/2] y: Two folded|' "subjects"
	assert_eq "$(grep -c '^From: A Long Name Of The Sender <sender@example.org>$' m1)" 3 "unfolded From"
	local id0
	id0=$(sed -n 's/^Message-Id: //p' m1 | head -n 1)
	[[ $id0 == "<sae-series-v2-0-"*"@example.org>" ]] || fail "cover Message-Id $id0"
	assert_eq "$(grep -c "^In-Reply-To: $id0\$" m1)" 2 "replies to the cover letter"
	assert_eq "$(grep -c "^References: $id0\$" m1)" 2 "references to the cover letter"
	assert_contains m1 ">From the start."
	assert_contains m1 ">>From quoted"
	assert_contains m1 "To: Maint One <m1@example.org>, =?utf-8?q?J=C3=B6rg_M?= <j@example.org>"
	# The cover letter: every To, and every Cc that is no To, folded.
	awk 'length($0) > 78 { bad = 1 } END { exit bad }' m1 || fail "a line over 78 columns"
	python3 - m1 <<'EOF' || fail "the mbox does not parse as expected"
import mailbox, sys
msgs = list(mailbox.mbox(sys.argv[1]))
assert len(msgs) == 3
cc = [a.strip() for a in str(msgs[0]["Cc"]).replace("\n", "").split(",")]
assert cc == ["list@example.org"] + [f"Reviewer Number {k} <r{k}@example.org>" for k in range(1, 7)], cc
assert msgs[1]["Cc"] == "list@example.org", msgs[1]["Cc"]
assert msgs[2]["To"].startswith("=?utf-8?q?J"), msgs[2]["To"]
assert msgs[1]["In-Reply-To"] == msgs[0]["Message-Id"]
EOF
	# The same series gives the same mbox; version 1 is plain [PATCH k/N].
	expect_exit 0 m2 python3 "$r" --version 2 --recipients rcpt --domain example.org c.patch 1.patch 2.patch
	cmp -s m1 m2 || fail "two runs on the same series differ"
	expect_exit 0 m3 python3 "$r" --version 1 --recipients rcpt --domain example.org c.patch 1.patch 2.patch
	assert_contains m3 "Subject: [PATCH 1/2] x: One"
	# --rfc-from: that patch and those after it are RFC, the cover letter not.
	expect_exit 0 m4 python3 "$r" --version 2 --recipients rcpt --domain example.org \
		--rfc-from 'y: Two folded' c.patch 1.patch 2.patch
	assert_eq "$(grep '^Subject: ' m4 | tr '\n' '|')" \
		'Subject: [PATCH v2 0/2] x: The cover folded|Subject: [PATCH v2 1/2] x: One folded|Subject: [RFC PATCH v2 2/2] y: Two folded|' "RFC subjects"
	expect_exit 0 m4 python3 "$r" --version 1 --recipients rcpt --domain example.org \
		--rfc-from 'x: One folded' c.patch 1.patch 2.patch
	assert_eq "$(grep -c '^Subject: \[RFC PATCH [12]/2\]' m4)" 2 "RFC subjects of version 1"
	expect_exit 1 out python3 "$r" --version 2 --recipients rcpt --domain example.org \
		--rfc-from 'x: The cover folded' c.patch 1.patch 2.patch
	assert_contains out "mbox: --rfc-from: no patch has the subject 'x: The cover folded'"
	# Bad input: numbering, recipients, version.
	expect_exit 1 out python3 "$r" --version 1 --recipients rcpt --domain example.org c.patch 2.patch 1.patch
	assert_contains out "mbox: 2.patch: subject numbers it 02/02, its place in the series is 1/2"
	printf '1.patch\tbcc\tx@example.org\n' >bad
	expect_exit 1 out python3 "$r" --version 1 --recipients bad --domain example.org c.patch 1.patch 2.patch
	assert_contains out "bad:1: want 'PATCH<TAB>to|cc<TAB>ADDRESS'"
	expect_exit 2 out python3 "$r" --version 0 --recipients rcpt --domain example.org c.patch 1.patch
}
TESTS+=(test_mbox)

test_versions() {
	local r=$SERIES_ROOT/scripts/mail/versions.py
	mkp() { # DIR N TOTAL SUBJECT MESSAGE LINE: a patch adding LINE to file f$N
		printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nFrom: A <a@example.org>\n'
		printf 'Subject: [PATCH %d/%d] %s\n\n%s\n---\n f%d | 1 +\n\n' "$2" "$3" "$4" "$5" "$2"
		printf 'diff --git a/f%d b/f%d\n--- a/f%d\n+++ b/f%d\n@@ -1 +1,2 @@\n x\n+%s\n' "$2" "$2" "$2" "$2" "$6"
	}
	mkdir -p old/patches new/patches
	mkp old 1 3 'x: One' 'Why one.' one >old/patches/1.patch
	mkp old 2 3 'x: Two' 'Why two.' two >old/patches/2.patch
	mkp old 3 3 'x: Three' 'Why three.' three >old/patches/3.patch
	printf '1.patch\n2.patch\n3.patch\n' >old/series
	mkp new 1 3 'x: One' 'Why one.' one >new/patches/1.patch
	mkp new 2 3 'x: Two' 'Why two, said better.' two >new/patches/2.patch
	mkp new 3 3 'x: Four' 'Why four.' four >new/patches/4.patch
	printf '# comment\n1.patch\n2.patch\n4.patch\n' >new/series
	expect_exit 0 out python3 "$r" diff old new
	assert_eq "$(tr '\t' ' ' <out | tr '\n' '|')" 'same 1 x: One|changed 2 x: Two|new 3 x: Four|dropped 3 x: Three|' "diff"
	# The code of patch 2 changes too: still one 'changed'.
	mkp new 2 3 'x: Two' 'Why two.' 'two, fixed' >new/patches/2.patch
	expect_exit 0 out python3 "$r" diff old new
	assert_contains out $'changed\t2\tx: Two'
	printf 'Subject: [PATCH 0/3] x\n\nIntro.\n\nChanges in v2:\n- patch 2: clearer\n- x: Four is new\n\nA (3):\n  x: One\n' >cover
	expect_exit 1 out python3 "$r" changelog cover 2 old new
	assert_contains out $'MISSING\tdropped\t3\tx: Three'
	assert_contains out "changelog: 1 changed patch(es) not named in 'Changes in v2:'"
	printf 'Subject: x\n\nChanges in v2:\n- patch 2: clearer\n- x: Four is new\n- dropped x:\n  Three (merged)\nChanges in v1:\n' >cover
	expect_exit 0 out python3 "$r" changelog cover 2 old new
	assert_contains out "changelog: every changed patch is named in 'Changes in v2:'"
	expect_exit 1 out python3 "$r" changelog cover 3 old new
	assert_contains out "has no 'Changes in v3:' section"
	expect_exit 2 out python3 "$r" changelog cover two old new
	# The commands: usage, and a version that is not recorded.
	expect_exit 2 out env SERIES_CACHE="$PWD/c" "$SERIES" range-diff 1
	expect_exit 1 out env SERIES_CACHE="$PWD/c" "$SERIES" range-diff v7
	assert_contains out "configs/versions.conf records no v7 (no VERSION_7=COMMIT line)"
}
TESTS+=(test_versions)

# range-diff of a version on another base: each version is applied to its
# own base (configs/base.conf of the version's commit), which joins the
# tree; no commit of this repository is needed, the versions are made
# here in a repository of their own.
test_range_diff_bases() {
	local b r=$PWD/r c1 base_a base_b top
	top=$(conf_get "$SERIES_ROOT/configs/base.conf" BASE_TOPDIR)
	for b in a b; do
		mkdir -p "t$b/$top/include"
		printf 'obj-y += x.o\n' >"t$b/$top/Makefile"
		echo "/* base $b */" >"t$b/$top/include/$b.h"
		printf '*.o\n\n#\n# Debian packaging: ignore everything at the top level, since it isn'"'"'t\n# included in our repository\n#\n/*\n!/debian/\n' \
			>"t$b/$top/.gitignore"
		tar -C "t$b" -cJf "$b.tar.xz" "$top"
	done
	mkdir -p "$r"
	cp -r "$SERIES_ROOT/scripts" "$SERIES_ROOT/configs" "$r/"
	: >"$r/configs/versions.conf"
	mkbase() { # LETTER: configs/base.conf for the fixture base LETTER
		sed -e "s|^BASE_TARBALL=.*|BASE_TARBALL=$PWD/$1.tar.xz|" \
			-e "s|^BASE_SHA256=.*|BASE_SHA256=$(sha256sum "$1.tar.xz" | cut -d' ' -f1)|" \
			-e "s|^BASE_TAG=.*|BASE_TAG=v-$1|" -e "s|^BASE_VERSION=.*|BASE_VERSION=0.$1|" \
			-e 's|^BASE_COMMIT=.*|BASE_COMMIT=|' "$SERIES_ROOT/configs/base.conf" >"$r/configs/base.conf"
	}
	local env=(env SERIES_CACHE="$PWD/c" SERIES_NO_INSTALL=1)
	local t=$PWD/c/linux
	commit() { GIT_AUTHOR_DATE=2026-01-01T00:00:00Z git -C "$t" -c user.name=T -c user.email=t@t.invalid commit -q -a -s "$@"; }
	# v1: two patches on base a.
	mkbase a
	expect_exit 0 out "${env[@]}" "$r/scripts/series" base
	base_a=$(git -C "$t" rev-parse v-a)
	git -C "$t" checkout -q -b work v-a
	echo 'obj-y += y.o' >>"$t/Makefile"
	commit -m 'kbuild: Add y' -m 'Because.'
	echo 'obj-y += z.o' >>"$t/Makefile"
	commit -m 'kbuild: Add z' -m 'Because.'
	git -C "$t" config branch.work.description $'Cover subject\n\nCover body.'
	expect_exit 0 out "${env[@]}" "$r/scripts/series" export --branch work -o "$r"
	git -C "$r" init -q
	git -C "$r" add -A
	git -C "$r" -c user.name=T -c user.email=t@t.invalid commit -q -m v1
	c1=$(git -C "$r" rev-parse HEAD)
	echo "VERSION_1=$c1" >"$r/configs/versions.conf"
	# v2: the same on base b, the second patch's message changed, the
	# cover letter naming it.
	mkbase b
	expect_exit 0 out "${env[@]}" "$r/scripts/series" base
	base_b=$(git -C "$t" rev-parse v-b)
	git -C "$t" checkout -q -b work2 work
	git -C "$t" -c user.name=T -c user.email=t@t.invalid rebase -q --onto v-b v-a work2
	commit --amend -m 'kbuild: Add z' -m 'Because z.'
	git -C "$t" config branch.work2.description $'Cover subject\n\nCover body.\n\nChanges in v2:\n- rebased onto 0.b\n- kbuild: Add z: a better message'
	expect_exit 0 out "${env[@]}" "$r/scripts/series" export --branch work2 -o "$r"
	git -C "$t" checkout -q v-b
	expect_exit 0 out "${env[@]}" "$r/scripts/series" range-diff v1
	cat out
	assert_contains out "v1 is based on Linux 0.a from Debian"
	assert_contains out "the stack on Linux 0.b from Debian"
	assert_eq "$(grep -cE '^ *1: +[0-9a-f]+ = +1: +[0-9a-f]+ kbuild: Add y' out)" 1 "the same patch"
	assert_eq "$(grep -cE '^ *2: +[0-9a-f]+ ! +2: +[0-9a-f]+ kbuild: Add z' out)" 1 "the changed patch"
	assert_contains out "since v1: 1 changed, 0 new, 0 dropped, 1 same"
	assert_eq "$(git -C "$t" merge-base series-v1 sae-series)" "" "the versions share a base"
	assert_eq "$(git -C "$t" rev-list --max-parents=0 series-v1)" "$base_a" "v1's base"
	assert_eq "$(git -C "$t" rev-list --max-parents=0 sae-series)" "$base_b" "the stack's base"
	# An RFC part (RFC_N) that starts at no patch's subject is refused
	# before anything is written.
	printf 'VERSION_1=%s\nRFC_2=kbuild: Add w\n' "$c1" >"$r/configs/versions.conf"
	expect_exit 1 out "${env[@]}" "$r/scripts/series" mbox --version 2 -o "$PWD/v2.mbox"
	assert_contains out "configs/versions.conf: RFC_2 names a subject that no patch of the series has: kbuild: Add w"
	[ ! -e v2.mbox ] || fail "an mbox was written"
}
TESTS+=(test_range_diff_bases)
