# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The base: the pinned kernel source package (configs/base.conf), fetched
# without touching the system's apt setup, and made into a deterministic
# git commit in the kernel tree.  A tree can hold several bases (one tag
# each), as range-diff needs for versions of the series on other bases.

# The managed base tree: made from the pinned package.
managed_tree() { [ "$SERIES_TREE" = "$SERIES_CACHE/linux" ]; }

# BASE_WORK: a temporary directory of the running base command, removed on
# exit or interrupt (base_cleanup runs at exit; it reads the variable).
BASE_WORK=
base_cleanup() {
	[ -z "$BASE_WORK" ] || rm -rf -- "$BASE_WORK"
	BASE_WORK=
}

# deb_keyring: the Debian archive keyring that apt verifies the private
# sources with (debian-archive-keyring; Debian 13 names it .pgp).
deb_keyring() {
	local k
	for k in /usr/share/keyrings/debian-archive-keyring.gpg /usr/share/keyrings/debian-archive-keyring.pgp; do
		[ -r "$k" ] && { printf '%s\n' "$k"; return 0; }
	done
	need_tools /usr/share/keyrings/debian-archive-keyring.gpg:debian-archive-keyring
	printf '%s\n' /usr/share/keyrings/debian-archive-keyring.gpg
}

# deb_archive_uri ARCHIVE: the URI of the Debian archive ARCHIVE ("debian",
# "debian-security") as this machine's own apt sources name it, or
# SERIES_DEB_URI.
deb_archive_uri() {
	local uri
	if [ -n "${SERIES_DEB_URI:-}" ]; then
		printf '%s\n' "$SERIES_DEB_URI"
		return 0
	fi
	uri=$(apt-get indextargets --format '$(REPO_URI)' 2>/dev/null |
		grep -m1 -E "/$1/?\$" || true)
	[ -n "$uri" ] || die "this machine's apt sources name no '$1' archive to fetch $BASE_DEB_PACKAGE from; set SERIES_DEB_URI to its URI, or SERIES_TARBALL to a copy of ${BASE_TARBALL##*/} (sha256 $BASE_SHA256)"
	printf '%s\n' "$uri"
}

# base_fetch DIR: download BASE_DEB_PACKAGE=BASE_DEB_VERSION from the suite
# BASE_DEB_SUITE into DIR with a private apt configuration (sources, lists
# and cache under DIR: the system's apt setup is not read for packages nor
# changed), check the .deb against BASE_DEB_SHA256 and extract the tarball
# into DIR (BASE_TARBALL_PATH).
base_fetch() {
	local dir=$1 keyring uri deb opts log
	need_tools apt-get:apt dpkg-deb:dpkg
	keyring=$(deb_keyring)
	uri=$(deb_archive_uri "$BASE_DEB_ARCHIVE")
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/deb"
	printf 'deb [signed-by=%s] %s %s main\n' "$keyring" "$uri" "$BASE_DEB_SUITE" >"$dir/sources.list"
	opts=(-q -o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null)
	log=$dir/apt.log
	info "base: fetching $BASE_DEB_PACKAGE=$BASE_DEB_VERSION from $BASE_DEB_SUITE ($uri)"
	if ! apt-get "${opts[@]}" update >"$log" 2>&1 ||
		! (cd "$dir/deb" && apt-get "${opts[@]}" download "$BASE_DEB_PACKAGE=$BASE_DEB_VERSION") >>"$log" 2>&1; then
		sed 's/^/  | /' "$log" | grep -E '^  \| (E|W|Err):' >&2 || tail -n 5 "$log" >&2
		die "could not download $BASE_DEB_PACKAGE=$BASE_DEB_VERSION from $BASE_DEB_SUITE at $uri (no network?); set SERIES_TARBALL to a copy of ${BASE_TARBALL##*/} (sha256 $BASE_SHA256)"
	fi
	deb=$(find "$dir/deb" -maxdepth 1 -name "${BASE_DEB_PACKAGE}_*.deb" | head -n 1)
	[ -n "$deb" ] || die "apt-get download left no ${BASE_DEB_PACKAGE}_*.deb in $dir/deb (log: $log)"
	sha_check "$deb" "$BASE_DEB_SHA256" "$BASE_DEB_PACKAGE $BASE_DEB_VERSION"
	info "base: extracting ${BASE_TARBALL##*/}"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir" ".$BASE_TARBALL" ||
		die "$deb has no $BASE_TARBALL"
	rm -f -- "$deb"
	BASE_TARBALL_PATH=$dir$BASE_TARBALL
}

# sha_check FILE SHA256 WHAT: fail unless FILE has the pinned checksum.
sha_check() {
	local sum
	sum=$(sha256sum -- "$1" | cut -d' ' -f1)
	[ "$sum" = "$2" ] && return 0
	err "$1 has sha256 $sum"
	err "expected $2 ($3, configs/base.conf): the package changed, or the download is corrupt"
	die "not made: point SERIES_TARBALL at a copy of ${BASE_TARBALL##*/} (with SERIES_ALLOW_TARBALL=1 if it is not the pinned one)"
}

# base_tarball DIR: set BASE_TARBALL_PATH to the pinned tarball:
# SERIES_TARBALL, the installed package's, or one fetched into DIR; and
# BASE_PINNED to 0 for an unpinned SERIES_TARBALL that
# SERIES_ALLOW_TARBALL=1 accepts, else 1.
base_tarball() {
	local t sum
	BASE_PINNED=1
	if [ -n "${SERIES_TARBALL:-}" ]; then
		t=$SERIES_TARBALL
		[ -e "$t" ] || die "tarball $t does not exist (SERIES_TARBALL)"
	elif [ -e "$BASE_TARBALL" ]; then
		t=$BASE_TARBALL
	else
		base_fetch "$1"
		t=$BASE_TARBALL_PATH
	fi
	BASE_TARBALL_PATH=$t
	sum=$(sha256sum -- "$t" | cut -d' ' -f1)
	[ "$sum" != "$BASE_SHA256" ] || return 0
	if [ "${SERIES_ALLOW_TARBALL:-0}" != 1 ]; then
		err "$t has sha256 $sum"
		err "expected $BASE_SHA256 ($BASE_DEB_PACKAGE $BASE_DEB_VERSION)"
		err "set SERIES_ALLOW_TARBALL=1 to make a base from it anyway"
		exit "$EX_FAIL"
	fi
	warn "using unpinned tarball $t (sha256 $sum)"
	BASE_PINNED=0
}

# strip_debian_gitignore FILE: drop the block Debian's packaging appends to
# the top-level .gitignore (it ignores every top-level path).
strip_debian_gitignore() {
	local file=$1 n
	n=$(grep -n '^# Debian packaging: ignore everything at the top level' "$file" | cut -d: -f1)
	[ -n "$n" ] || return 1
	[ "$(sed -n "$((n - 1))p" "$file")" = '#' ] &&
		[ -z "$(sed -n "$((n - 2))p" "$file")" ] &&
		[ "$(tail -n 2 "$file")" = $'/*\n!/debian/' ] || return 1
	head -n "$((n - 3))" "$file" >"$file.new" && mv "$file.new" "$file"
}

base_message() {
	cat <<EOF
Linux $BASE_VERSION from Debian $BASE_DEB_PACKAGE $BASE_DEB_VERSION

Import of the kernel source that Debian ships in $BASE_DEB_PACKAGE
(${BASE_TARBALL##*/}, sha256 $BASE_SHA256).

One change against the tarball: the block that Debian's packaging
appends to the top-level .gitignore, which ignores every top-level path
except debian/, is dropped.  With it, git would silently ignore every
file a patch adds (for example under include/).
EOF
}

# base_tag_commit: the commit BASE_TAG names in SERIES_TREE (empty if none).
base_tag_commit() {
	[ -d "$SERIES_TREE/.git" ] || return 0
	tgit rev-parse -q --verify "refs/tags/$BASE_TAG^{commit}" 2>/dev/null || true
}

# cmd_base: make (or verify) the base of configs/base.conf in the tree.
cmd_base() {
	local tarball commit top
	[ $# -eq 0 ] || die_usage "base takes no arguments"
	need_base_tools
	if ! managed_tree; then
		[ -d "$SERIES_TREE/.git" ] || die "SERIES_TREE=$SERIES_TREE is not a git work tree"
		[ -n "${SERIES_BASE:-}" ] || die_usage "SERIES_TREE is set: also set SERIES_BASE to the base revision"
		tgit rev-parse -q --verify "$SERIES_BASE^{commit}" >/dev/null ||
			die "SERIES_BASE=$SERIES_BASE is not a commit in $SERIES_TREE"
		info "base: $SERIES_BASE in $SERIES_TREE (user tree)"
		return 0
	fi
	commit=$(base_tag_commit)
	if [ -n "$commit" ]; then
		if [ -n "$BASE_COMMIT" ] && [ "$commit" != "$BASE_COMMIT" ]; then
			[ "${SERIES_ALLOW_TARBALL:-0}" = 1 ] ||
				die "$SERIES_TREE: its $BASE_TAG is $commit, not $BASE_COMMIT (configs/base.conf): made from an unpinned tarball? remove the tree, or set SERIES_ALLOW_TARBALL=1"
			warn "$BASE_TAG is $commit, not the pinned $BASE_COMMIT (SERIES_ALLOW_TARBALL=1)"
		fi
		info "base: $BASE_TAG $commit (cached in $SERIES_TREE)"
		return 0
	fi
	mkdir -p "$SERIES_CACHE"
	at_exit base_cleanup
	BASE_WORK=$(mktemp -d "$SERIES_CACHE/base.XXXXXX")
	base_tarball "$BASE_WORK/fetch"
	tarball=$BASE_TARBALL_PATH
	top=$BASE_WORK/tree/$BASE_TOPDIR
	mkdir -p "$BASE_WORK/tree"
	info "base: unpacking ${tarball##*/}"
	tar -xJf "$tarball" -C "$BASE_WORK/tree"
	[ -d "$top" ] || die "$tarball has no top-level $BASE_TOPDIR/"
	strip_debian_gitignore "$top/.gitignore" ||
		{ [ "$BASE_PINNED" = 0 ] || die "the Debian block of .gitignore was not found in $tarball"; }
	info "base: committing the tree"
	(
		cd "$top" || exit
		export GIT_AUTHOR_NAME=$BASE_IDENT_NAME GIT_AUTHOR_EMAIL=$BASE_IDENT_EMAIL
		export GIT_COMMITTER_NAME=$BASE_IDENT_NAME GIT_COMMITTER_EMAIL=$BASE_IDENT_EMAIL
		export GIT_AUTHOR_DATE=$BASE_DATE GIT_COMMITTER_DATE=$BASE_DATE
		git init -q -b base .
		git config core.autocrlf false
		git config core.fileMode true
		git config gc.auto 0
		git add -f -A .
		base_message | git -c commit.gpgSign=false commit -q --no-verify -F -
	)
	commit=$(git -C "$top" rev-parse HEAD)
	if [ -z "$BASE_COMMIT" ]; then
		warn "configs/base.conf has no BASE_COMMIT; this tree's is $commit"
	elif [ "$BASE_PINNED" = 1 ] && [ "$commit" != "$BASE_COMMIT" ]; then
		die "base commit is $commit, expected $BASE_COMMIT (configs/base.conf)"
	fi
	git -C "$top" tag "$BASE_TAG" "$commit"
	if [ -d "$SERIES_TREE/.git" ]; then
		# Another base joins the tree: the same commit, by its tag.
		tgit fetch -q --no-tags "$top" "refs/tags/$BASE_TAG:refs/tags/$BASE_TAG"
	else
		mv -- "$top" "$SERIES_TREE"
	fi
	base_cleanup
	info "base: $BASE_TAG $commit in $SERIES_TREE"
}
