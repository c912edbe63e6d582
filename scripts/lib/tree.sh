# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The kernel tree: applying the stack to a branch of the base (base.sh)
# and exporting a branch back into patches/ and series.

SERIES_FILE=$(realpath -m -- "${SERIES_FILE:-$SERIES_ROOT/series}")
SERIES_PATCHES=${SERIES_PATCHES:-$(dirname "$SERIES_FILE")/patches}
COVER_LETTER=0000-cover-letter.patch

# series_read: fill PATCHES (file names) from the series file, checked.
series_read() {
	local line name opt n=0 f
	local -A seen=()
	PATCHES=()
	[ -r "$SERIES_FILE" ] || die "cannot read series file $SERIES_FILE"
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		[[ $line != *$'\r' ]] ||
			die "$SERIES_FILE:$n: the line ends with a carriage return (CRLF line endings); the series file needs LF endings (dos2unix)"
		line=${line%%#*}
		read -r name opt <<<"$line" || true
		[ -n "$name" ] || continue
		[ -z "$opt" ] || [ "$opt" = -p1 ] ||
			die "$SERIES_FILE:$n: unsupported option '$opt' for $name (only -p1)"
		[[ $name =~ ^[A-Za-z0-9][A-Za-z0-9._+-]*\.patch$ ]] ||
			die "$SERIES_FILE:$n: bad patch name '$name'"
		[ "$name" != "$COVER_LETTER" ] ||
			die "$SERIES_FILE:$n: the cover letter is not a patch of the stack"
		[ -z "${seen[$name]:-}" ] ||
			die "$SERIES_FILE:$n: $name is listed twice (first on line ${seen[$name]})"
		[ -f "$SERIES_PATCHES/$name" ] ||
			die "$SERIES_FILE:$n: patch file patches/$name does not exist"
		seen[$name]=$n
		PATCHES+=("$name")
	done <"$SERIES_FILE"
	for f in "$SERIES_PATCHES"/*.patch; do
		[ -e "$f" ] || continue
		name=${f##*/}
		[ "$name" = "$COVER_LETTER" ] && continue
		[ -n "${seen[$name]:-}" ] ||
			die "patches/$name is not listed in $(basename "$SERIES_FILE")"
	done
	return 0
}

# patch_subject FILE: the subject of a patch file, without [PATCH k/N].
patch_subject() {
	awk '/^Subject: / {
		s = substr($0, 10)
		while ((getline l) > 0 && l ~ /^[ \t]/) { sub(/^[ \t]+/, " ", l); s = s l }
		print s; exit
	}' "$1" | sed 's/^\[[^]]*\] *//'
}

# tree_require_clean: refuse to touch a work tree with local changes.
tree_require_clean() {
	local gitdir p
	[ -e "$SERIES_TREE/.git" ] || die "no kernel tree at $SERIES_TREE; run '$SERIES_PROG base'"
	[ -z "$(tgit status --porcelain --untracked-files=no)" ] ||
		die "the kernel tree $SERIES_TREE has uncommitted changes; commit or stash them first"
	gitdir=$(tgit rev-parse --absolute-git-dir)
	for p in rebase-apply rebase-merge MERGE_HEAD CHERRY_PICK_HEAD REVERT_HEAD BISECT_LOG; do
		[ ! -e "$gitdir/$p" ] ||
			die "a git operation is in progress in $SERIES_TREE ($p); finish or abort it first"
	done
}

# cover_description FILE: subject and body of a cover letter, as the
# branch description that format-patch --cover-from-description=subject
# turns back into the same cover letter.
cover_description() {
	local file=$1
	patch_subject "$file"
	echo
	# The body: after the headers, up to the shortlog "Author (N):".
	awk 'body && /^[^ ].* \([0-9]+\):$/ { exit }
	     body { print }
	     !body && /^$/ { body = 1 }' "$file" |
		sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# apply_restore: at exit, while APPLY_ORIG is set (cmd_apply has not
# finished), abort git am and check out APPLY_ORIG again.
APPLY_ORIG=
apply_restore() {
	[ -n "$APPLY_ORIG" ] || return 0
	tgit am --abort >/dev/null 2>&1 || true
	tgit checkout -q -f "$APPLY_ORIG"
	rm -f -- "$(tgit rev-parse --absolute-git-dir)/series-apply"
}

# apply_recover: after a series command died without its exit traps
# (SIGKILL of its process group), abort the git am session that its apply
# left, if the file series-apply in the git directory says that apply
# started it (it holds the branch to return to) and the tree is the
# cache's own (\$SERIES_CACHE/linux), which only a series command that
# holds the lock uses.  In a tree of the user's, it says so and changes
# nothing: the session may be the user's own by now.
apply_recover() {
	local gitdir orig
	[ -e "$SERIES_TREE/.git" ] || return 0
	gitdir=$(tgit rev-parse --absolute-git-dir) || return 0
	[ -f "$gitdir/series-apply" ] || return 0
	orig=$(cat "$gitdir/series-apply")
	if [ "$SERIES_TREE" != "$SERIES_CACHE/linux" ]; then
		warn "an apply that was killed left a git am session in $SERIES_TREE (it started at $orig); finish or abort it, then remove $gitdir/series-apply"
		return 0
	fi
	tgit am --abort >/dev/null 2>&1 || true
	tgit checkout -q "$orig" 2>/dev/null ||
		warn "could not check $orig out again in $SERIES_TREE"
	rm -f -- "$gitdir/series-apply"
	warn "the git am session of an apply that was killed is aborted; $SERIES_TREE is back at $orig"
}

# cmd_apply [--branch NAME]: apply the stack to a fresh branch of the base.
cmd_apply() {
	local branch=$SERIES_BRANCH base orig k=0 p out file old
	while [ $# -gt 0 ]; do
		case $1 in
		--branch) [ $# -ge 2 ] || die_usage "--branch needs a name"; branch=$2; shift 2 ;;
		*) die_usage "apply: unknown argument '$1'" ;;
		esac
	done
	series_read
	cmd_base
	tree_require_clean
	base=$(series_base_rev)
	orig=$(tgit symbolic-ref -q --short HEAD || tgit rev-parse HEAD)
	# Interrupted or failed: no git am session, the tree back where it was.
	APPLY_ORIG=$orig
	at_exit apply_restore
	printf '%s\n' "$orig" >"$(tgit rev-parse --absolute-git-dir)/series-apply"
	tgit checkout -q --detach "$base"
	export GIT_COMMITTER_NAME=$SERIES_IDENT_NAME GIT_COMMITTER_EMAIL=$SERIES_IDENT_EMAIL
	for p in "${PATCHES[@]}"; do
		k=$((k + 1))
		if ! out=$(tgit am -q --committer-date-is-author-date "$SERIES_PATCHES/$p" 2>&1); then
			file=$(printf '%s\n' "$out" | sed -n 's/^error: patch failed: //p;s/^error: \(.*\): does not exist in index$/\1/p;s/^error: \(.*\): already exists in index$/\1/p' | head -n 1)
			printf '%s\n' "$out" | sed 's/^/  /' >&2
			die "patch $k ($p) does not apply${file:+: $file}; the tree is back at $orig"
		fi
	done
	APPLY_ORIG=
	rm -f -- "$(tgit rev-parse --absolute-git-dir)/series-apply"
	# An existing branch with other commits is kept under refs/series-backup/.
	old=$(tgit rev-parse -q --verify "refs/heads/$branch" || true)
	if [ -n "$old" ] && [ "$old" != "$(tgit rev-parse HEAD)" ]; then
		tgit update-ref "refs/series-backup/$branch" "$old"
		info "the previous $branch ($(tgit rev-parse --short "$old")) is kept as refs/series-backup/$branch"
	fi
	tgit checkout -q -B "$branch"
	if [ -f "$SERIES_PATCHES/$COVER_LETTER" ]; then
		tgit config "branch.$branch.description" "$(cover_description "$SERIES_PATCHES/$COVER_LETTER")"
	fi
	info "applied ${#PATCHES[@]} patches onto $base: branch $branch at $(tgit rev-parse --short HEAD)"
}

# format_patches BASE TIP DIR: the export format (stable, no varying ids).
# The cover letter takes its From and Date from the committer identity:
# the series identity and the tip's author date, which survives rebases
# and apply (committer date = author date), so it is reproducible.
format_patches() {
	GIT_COMMITTER_NAME=$SERIES_IDENT_NAME GIT_COMMITTER_EMAIL=$SERIES_IDENT_EMAIL \
	GIT_COMMITTER_DATE=$(tgit log -1 --format=%aI "$2") \
	tgit format-patch -q "${PATCH_DIFF_OPTS[@]}" --numbered \
		--subject-prefix=PATCH --no-encode-email-headers --base="$1" \
		--cover-letter --cover-from-description=subject \
		-o "$3" "$1..$2"
}

# export_cleanup: remove the directory that cmd_export formats into.
EXPORT_TMP=
export_cleanup() {
	[ -z "$EXPORT_TMP" ] || rm -rf -- "$EXPORT_TMP"
}

# export_dir_ok DIR: DIR may take an export: it holds an earlier export
# (a series file that export wrote), or neither a series file nor
# anything in patches/ that an export would overwrite or leave beside
# its own.
export_dir_ok() {
	local dir=$1
	[ -e "$dir" ] || return 0
	[ -d "$dir" ] || die_usage "export -o $dir: not a directory"
	if [ -e "$dir/series" ]; then
		[ -f "$dir/series" ] && sed -n 2p "$dir/series" | grep -q "^# Generated by 'scripts/series export'" ||
			die_usage "export -o $dir: its series file was not written by export"
		return 0
	fi
	[ ! -d "$dir/patches" ] || [ -z "$(ls -A -- "$dir/patches")" ] ||
		die_usage "export -o $dir: patches/ is not empty and no series file of an earlier export says what is in it"
}

# export_forget SERIES PATCHES: remove the patches that the series file
# SERIES of an earlier export names, and its cover letter; nothing else
# in PATCHES is touched.
export_forget() {
	local f
	[ -f "$1" ] || return 0
	while IFS= read -r f || [ -n "$f" ]; do
		f=${f%$'\r'}
		case $f in '' | '#'* | */* | .*) continue ;; esac
		rm -f -- "$2/$f"
	done <"$1"
	rm -f -- "$2/$COVER_LETTER"
}

# cmd_export [--branch NAME] [-o DIR]: write a branch back to patches/ and
# series, or to DIR/patches/ and DIR/series.
cmd_export() {
	local branch=$SERIES_BRANCH out="" base tmp f merges
	while [ $# -gt 0 ]; do
		case $1 in
		--branch) [ $# -ge 2 ] || die_usage "--branch needs a name"; branch=$2; shift 2 ;;
		-o) [ $# -ge 2 ] || die_usage "-o needs a directory"; out=$2; shift 2 ;;
		*) die_usage "export: unknown argument '$1'" ;;
		esac
	done
	[ -z "$out" ] || export_dir_ok "$out"
	[ -d "$SERIES_TREE/.git" ] || die "no kernel tree at $SERIES_TREE"
	tgit rev-parse -q --verify "refs/heads/$branch" >/dev/null || die "no branch $branch in $SERIES_TREE"
	base=$(series_base_rev)
	tgit merge-base --is-ancestor "$base" "$branch" || die "branch $branch is not based on $base"
	merges=$(tgit rev-list --merges "$base..$branch" | wc -l)
	[ "$merges" -eq 0 ] || die "branch $branch has merge commits; the stack must be linear"
	[ -n "$(tgit config "branch.$branch.description" || true)" ] ||
		die "branch $branch has no description (the cover letter); set it with 'git branch --edit-description'"
	EXPORT_TMP=$(mktemp -d)
	tmp=$EXPORT_TMP
	at_exit export_cleanup
	format_patches "$base" "$branch" "$tmp"
	local series=$SERIES_FILE patches=$SERIES_PATCHES
	if [ -n "$out" ]; then
		series=$out/series patches=$out/patches
	fi
	mkdir -p "$patches"
	export_forget "$series" "$patches"
	cp "$tmp"/*.patch "$patches"/
	{
		series_header
		for f in "$tmp"/*.patch; do
			[ "${f##*/}" = "$COVER_LETTER" ] || echo "${f##*/}"
		done
	} >"$series"
	info "exported $(tgit rev-list --count "$base..$branch") patches of $branch to $series and $patches/"
}

series_header() {
	echo "# The series, in order (quilt series file; patches live in patches/)."
	echo "# Generated by 'scripts/series export'; the cover letter is $COVER_LETTER."
}

# cmd_list: the patches of the series, checked, one per line.
cmd_list() {
	local k=0 p
	[ $# -eq 0 ] || die_usage "list takes no arguments"
	series_read
	for p in "${PATCHES[@]}"; do
		k=$((k + 1))
		printf '%d\t%s\t%s\n' "$k" "$p" "$(patch_subject "$SERIES_PATCHES/$p")"
	done
}
