# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The result cache: the key of a verdict, and reading, validating and
# keeping the verdicts.

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

# verdict_salt: print the hash of what every verdict depends on besides the
# trees, the patch and the check unit itself: the libraries the units use,
# the configuration data and the tools.  The runner (units.sh, verdicts.sh,
# runner.sh and the commands in scripts/cmd/), the reports and the
# benchmark are not part of it, nor the configuration files that one unit
# alone reads (CHECK_CONFIGS): they are part of that unit's hash.  Nor is
# versions.conf, which only the mail commands read, nor base-next.conf,
# which only its gate reads.
verdict_salt() {
	local a cc d
	{
		echo verdict-v1
		for d in "$SERIES_ROOT/scripts/lib" "$SERIES_CONFIGS"; do
			(cd "$d" && find . -type f ! -name '*.pyc' ! -name units.sh ! -name verdicts.sh \
				! -name runner.sh ! -name bench.sh ! -name report.py -print0 | LC_ALL=C sort -z |
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
			# What the unit reads besides the tree, which no step's
			# tree or patch holds: the series as it is mailed (the
			# series file, every patch it names and the cover letter,
			# messages included), or a file of the repository.
			for f in $(conf_get "$SERIES_CHECKS/$check/manifest" CHECK_INPUTS); do
				if [ "$f" = series ]; then
					series_inputs_hash
				else
					(cd "$SERIES_ROOT" && sha256sum -- "$f")
				fi
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

# series_inputs_hash: a hash of the series as it is mailed: the series
# file, the patch files it names (PATCHES, from series_read) and the
# cover letter.
series_inputs_hash() {
	local name
	{
		sha256sum <"$SERIES_FILE"
		for name in "${PATCHES[@]}" "$COVER_LETTER"; do
			[ -f "$SERIES_PATCHES/$name" ] || continue
			printf '%s ' "$name"
			sha256sum <"$SERIES_PATCHES/$name"
		done
	} | sha256sum | cut -c1-40
}

# verdict_key ARCH CHECK: the result-cache key of a check of the step: the
# salt, the check unit's files, the arch, and the step's hash.
verdict_key() {
	verdict_memo "$2"
	printf '%s\n' "$VERDICT_SALT" "$2" "${VERDICT_UNIT_HASH[$2]}" "${1:-all}" \
		"$VERDICT_STEP_HASH" | sha256sum | cut -c1-40
}

# verdict_invalid DIR KEY: why the kept verdict DIR is not a record the
# runner wrote for KEY (empty if it is one): the key it was kept under, a
# status it keeps (pass, warn, or a skip that is not for a missing tool),
# the exit status that gives it, a summary and a duration.
verdict_invalid() {
	local st rc want
	[ "$(cat "$1/key" 2>/dev/null)" = "$2" ] || { echo "not kept under its key"; return; }
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
	why=$(verdict_invalid "$v" "$1")
	if [ -n "$why" ]; then
		warn "kept verdict $1 is not valid ($why): dropped, the check runs again"
		rm -rf -- "$v"
		return 1
	fi
	cp -pr "$v"/. "$2"/ && rm -f "$2/key" && echo "$1" >"$2/cached"
}

# verdict_keep KEY DIR: keep the verdict of DIR under KEY.
verdict_keep() {
	local v
	v=$(verdict_dir "$1")
	rm -rf "$v.tmp"
	mkdir -p "$v.tmp"
	cp -pr "$2"/. "$v.tmp"/
	echo "$1" >"$v.tmp/key"
	rm -rf "$v"
	mv "$v.tmp" "$v"
}
