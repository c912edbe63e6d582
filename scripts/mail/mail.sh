# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Mail workflow: the series as the threaded mbox that goes to the lists,
# with the recipients get_maintainer.pl names for each patch.
#
# Sourced by scripts/series after lib/common.sh and lib/tree.sh.

# mail_fake_tree DIR: a directory that get_maintainer.pl takes for the
# top of a kernel tree at the tip of the stack: its script and MAINTAINERS
# (the base's with the stack's MAINTAINERS changes applied), the files and
# directories it looks for, and every directory of the base and of the
# stack's new files (a MAINTAINERS pattern without a trailing slash means
# a directory only if it is one).
mail_fake_tree() {
	local dir=$1 base p f
	base=$(series_base_rev)
	mkdir -p "$dir/scripts"
	for f in COPYING CREDITS Kbuild Makefile README MAINTAINERS scripts/get_maintainer.pl; do
		tgit cat-file -e "$base:$f" 2>/dev/null ||
			die "the base $(tgit rev-parse --short "$base") has no $f, which get_maintainer.pl needs"
		tgit show "$base:$f" >"$dir/$f"
	done
	for p in "${PATCHES[@]}"; do
		if grep -q '^+++ b/MAINTAINERS$' "$SERIES_PATCHES/$p" &&
			! (cd "$dir" && git apply --include=MAINTAINERS "$SERIES_PATCHES/$p" 2>"$dir/apply.err"); then
			die "patch $p: its MAINTAINERS change does not apply: $(head -n 1 "$dir/apply.err")"
		fi
	done
	{
		tgit ls-tree -r -d --name-only "$base"
		for p in "${PATCHES[@]}"; do
			sed -n 's|^+++ b/\(.*\)/[^/]*$|\1|p' "$SERIES_PATCHES/$p"
		done
	} | LC_ALL=C sort -u | (cd "$dir" && xargs -r mkdir -p)
}

# mail_recipients DIR OUT: for every patch, its To (maintainers: of an
# entry whose status is Maintained, Supported or Odd Fixes) and Cc
# (reviewers, lists) from get_maintainer.pl in the fake tree DIR, as
# 'PATCH<TAB>to|cc<TAB>ADDRESS' lines in OUT.  The sender is left out.
mail_recipients() {
	local dir=$1 out=$2 p line addr role
	: >"$out"
	for p in "${PATCHES[@]}"; do
		(cd "$dir" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
			--m --r --l --no-s --rolestats \
			"$SERIES_PATCHES/$p") >"$dir/gm.out" 2>"$dir/gm.err" ||
			die "get_maintainer.pl failed on $p: $(head -n 1 "$dir/gm.err")"
		while IFS= read -r line; do
			addr=${line%% (*} role=${line#* (}
			case $addr in *"<$SERIES_IDENT_EMAIL>" | "$SERIES_IDENT_EMAIL") continue ;; esac
			case $role in
			maintainer:* | supporter:* | "odd fixer:"*) printf '%s\tto\t%s\n' "$p" "$addr" ;;
			*) printf '%s\tcc\t%s\n' "$p" "$addr" ;;
			esac
		done <"$dir/gm.out" >>"$out"
	done
}

MBOX_TMP=
mbox_cleanup() {
	[ -z "$MBOX_TMP" ] || rm -rf -- "$MBOX_TMP"
	MBOX_TMP=
}

# cmd_mbox [--version N] [-o FILE]: the series as one threaded mbox.  The
# patches from the subject that configs/versions.conf records as RFC_N on
# are marked as a request for comments.
cmd_mbox() {
	local version=1 out="" tmp domain p rfc files=() rfc_args=()
	while [ $# -gt 0 ]; do
		case $1 in
		--version)
			[ $# -ge 2 ] || die_usage "--version needs a number"
			[[ $2 =~ ^[1-9][0-9]*$ ]] || die_usage "--version: '$2' is not a version number (1, 2, ...)"
			version=$2
			shift 2
			;;
		-o) [ $# -ge 2 ] || die_usage "-o needs a file name"; out=$2; shift 2 ;;
		*) die_usage "mbox: unknown argument '$1'" ;;
		esac
	done
	need_tools git:git perl:perl python3:python3
	series_read
	[ -f "$SERIES_PATCHES/$COVER_LETTER" ] || die "no cover letter patches/$COVER_LETTER"
	rfc=''
	[ ! -f "$SERIES_CONFIGS/versions.conf" ] || rfc=$(conf_get "$SERIES_CONFIGS/versions.conf" "RFC_$version")
	if [ -n "$rfc" ]; then
		for p in "${PATCHES[@]}"; do
			[ "$(patch_subject "$SERIES_PATCHES/$p")" != "$rfc" ] || rfc_args=(--rfc-from "$rfc")
		done
		[ ${#rfc_args[@]} -gt 0 ] ||
			die "configs/versions.conf: RFC_$version names a subject that no patch of the series has: $rfc"
	fi
	[ -d "$SERIES_TREE/.git" ] || die "no kernel tree at $SERIES_TREE; run '$SERIES_PROG base'"
	at_exit mbox_cleanup
	tmp=$(mktemp -d)
	MBOX_TMP=$tmp
	# A later version says what changed since the one before, patch by patch.
	if [ "$version" -gt 1 ]; then
		version_extract "$((version - 1))" "$tmp/prev"
		python3 "$SERIES_ROOT/scripts/mail/versions.py" changelog "$SERIES_PATCHES/$COVER_LETTER" \
			"$version" "$tmp/prev" "$(dirname "$SERIES_FILE")" >"$tmp/changelog" ||
			{ sed 's/^/  /' "$tmp/changelog" >&2; die "the cover letter's changelog for v$version is incomplete (above)"; }
	fi
	mail_fake_tree "$tmp/tree"
	mail_recipients "$tmp/tree" "$tmp/recipients"
	for p in "${PATCHES[@]}"; do files+=("$SERIES_PATCHES/$p"); done
	domain=${SERIES_IDENT_EMAIL#*@}
	python3 "$SERIES_ROOT/scripts/mail/mbox.py" --version "$version" \
		--recipients "$tmp/recipients" --domain "$domain" "${rfc_args[@]}" \
		"$SERIES_PATCHES/$COVER_LETTER" "${files[@]}" >"$tmp/mbox"
	if [ -n "$out" ]; then
		mv "$tmp/mbox" "$out"
		info "wrote $((${#PATCHES[@]} + 1)) messages (v$version, cover letter and ${#PATCHES[@]} patches) to $out"
	else
		cat "$tmp/mbox"
	fi
	mbox_cleanup
}

# version_commit N: the commit of this repository that holds version N
# (configs/versions.conf), checked to be in this clone.
version_commit() {
	local VERSION_1='' key=VERSION_$1 c
	[ -f "$SERIES_CONFIGS/versions.conf" ] || die "no configs/versions.conf"
	conf_load "$SERIES_CONFIGS/versions.conf" VERSION_ RFC_
	c=${!key:-}
	[ -n "$c" ] || die "configs/versions.conf records no v$1 (no $key=COMMIT line)"
	git -C "$SERIES_ROOT" cat-file -e "$c^{commit}" 2>/dev/null ||
		die "configs/versions.conf: v$1 is commit $c, which this clone of the repository does not have (a shallow clone? fetch it)"
	printf '%s\n' "$c"
}

# version_extract N DIR: the series file and patches/ of version N in DIR,
# and its base, DIR/base.conf (configs/base.conf of that commit).
version_extract() {
	local c
	c=$(version_commit "$1")
	mkdir -p "$2"
	git -C "$SERIES_ROOT" archive "$c" series patches | tar -x -C "$2" ||
		die "v$1 ($c): no series and patches/ in that commit"
	git -C "$SERIES_ROOT" show "$c:configs/base.conf" >"$2/base.conf" 2>/dev/null ||
		die "v$1 ($c): no configs/base.conf in that commit"
}

# version_apply N DIR: apply version N (extracted in DIR) to the branch
# series-vN of its own base, which 'base' adds to the tree if it is
# another; writes that base's commit to DIR/base-rev.  Only that base's
# values are loaded (none of the current base's); SERIES_TARBALL names
# the current base's tarball and is not used for another.  With a user
# tree (SERIES_TREE), a version on another base needs that base's tag in
# the tree.  A subshell, not a command substitution: errexit holds.
version_apply() {
	(
		local v
		for v in $(sed -n 's/^\(BASE_[A-Z0-9_]*\)=.*/\1/p' "$SERIES_CONFIGS/base.conf"); do unset "$v"; done
		BASE_COMMIT=''
		conf_load "$2/base.conf" BASE_
		[ -n "${BASE_TAG:-}" ] || die "v$1: its configs/base.conf names no BASE_TAG"
		[ -n "${BASE_DEB_SUITE:-}" ] || [ -n "$(base_tag_commit)" ] ||
			die "v$1 is based on $BASE_TAG, which is not in $SERIES_TREE, and its configs/base.conf does not say where its package comes from (BASE_DEB_SUITE): add that tag to the tree"
		if [ "$BASE_TAG" != "$CURRENT_BASE_TAG" ]; then
			unset SERIES_TARBALL SERIES_ALLOW_TARBALL
			if ! managed_tree; then
				SERIES_BASE=$(tgit rev-parse -q --verify "refs/tags/$BASE_TAG^{commit}") ||
					die "v$1 is based on Linux ${BASE_VERSION:-?}: tag $BASE_TAG is not in SERIES_TREE=$SERIES_TREE (make it with the cache's tree, or fetch it)"
			fi
		fi
		cmd_base
		SERIES_FILE=$2/series SERIES_PATCHES=$2/patches cmd_apply --branch "series-v$1"
		series_base_rev >"$2/base-rev"
	)
}

RANGE_DIFF_TMP=
range_diff_cleanup() {
	[ -z "$RANGE_DIFF_TMP" ] || rm -rf -- "$RANGE_DIFF_TMP"
	RANGE_DIFF_TMP=
}

# cmd_range_diff vN: git range-diff of version N (applied to the branch
# series-vN of its own base) against the stack (applied to SERIES_BRANCH);
# if N is the latest recorded version, the cover letter's 'Changes in
# vN+1:' must name every patch that changed.
cmd_range_diff() {
	local n latest k tmp old rc=0
	[ $# -eq 1 ] && [[ $1 =~ ^v([1-9][0-9]*)$ ]] || die_usage "usage: range-diff vN (a recorded version, configs/versions.conf)"
	n=${BASH_REMATCH[1]}
	need_tools git:git python3:python3
	version_commit "$n" >/dev/null
	latest=0
	for k in $(sed -n 's/^VERSION_\([1-9][0-9]*\)=.*/\1/p' "$SERIES_CONFIGS/versions.conf"); do
		[ "$k" -le "$latest" ] || latest=$k
	done
	at_exit range_diff_cleanup
	tmp=$(mktemp -d)
	RANGE_DIFF_TMP=$tmp
	version_extract "$n" "$tmp/v$n"
	CURRENT_BASE_TAG=$BASE_TAG
	version_apply "$n" "$tmp/v$n" >&2
	old=$(cat "$tmp/v$n/base-rev")
	cmd_apply
	[ "$old" = "$(series_base_rev)" ] || info "v$n is based on $(tgit log -1 --format=%s "$old"), the stack on $(tgit log -1 --format=%s "$(series_base_rev)")"
	tgit range-diff "$old..series-v$n" "$(series_base_rev)..$SERIES_BRANCH"
	python3 "$SERIES_ROOT/scripts/mail/versions.py" diff "$tmp/v$n" "$(dirname "$SERIES_FILE")" >"$tmp/diff"
	info "since v$n: $(awk -F'\t' '{ n[$1]++ } END { printf "%d changed, %d new, %d dropped, %d same", n["changed"], n["new"], n["dropped"], n["same"] }' "$tmp/diff")"
	if [ "$n" -eq "$latest" ] && grep -qv '^same' "$tmp/diff"; then
		python3 "$SERIES_ROOT/scripts/mail/versions.py" changelog "$SERIES_PATCHES/$COVER_LETTER" \
			"$((n + 1))" "$tmp/v$n" "$(dirname "$SERIES_FILE")" >&2 || rc=1
	fi
	range_diff_cleanup
	return "$rc"
}
