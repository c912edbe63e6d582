# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The check units under scripts/checks/: finding them, reading their
# manifests, the tools and the configuration files they declare.

SERIES_CHECKS=${SERIES_CHECKS:-$SERIES_ROOT/scripts/checks}

# checks_discover: fill CHECKS with the check names, by CHECK_ORDER.
checks_discover() {
	local m name order list=""
	CHECKS=()
	for m in "$SERIES_CHECKS"/*/manifest; do
		[ -e "$m" ] || continue
		name=${m%/manifest}
		name=${name##*/}
		[ -x "$SERIES_CHECKS/$name/run" ] || die "check $name has no executable $SERIES_CHECKS/$name/run"
		order=$(conf_get "$m" CHECK_ORDER)
		[[ $order =~ ^[0-9]+$ ]] || die "$m: CHECK_ORDER must be a number"
		list+="$order $name"$'\n'
	done
	[ -n "$list" ] || die "no checks found in $SERIES_CHECKS"
	while read -r order name; do
		CHECKS+=("$name")
	done < <(printf '%s' "$list" | sort -k1,1n -k2,2)
}

# check_load NAME: read a check's manifest into CHECK_* variables.
check_load() {
	CHECK_DESCRIPTION='' CHECK_SCOPE='' CHECK_PER_ARCH=0 CHECK_AT_BASE=0
	CHECK_TOOLS='' CHECK_ORDER='' CHECK_REPRO='' CHECK_STEPS=every CHECK_CONFIGS='' CHECK_INPUTS=''
	CHECK_NEEDS='' CHECK_BUILD_ARCHES='' CHECK_NAME=$1
	conf_load "$SERIES_CHECKS/$1/manifest" CHECK_
	[ "$CHECK_SCOPE" = patch ] || die "check $1: CHECK_SCOPE must be 'patch', not '$CHECK_SCOPE'"
	local f
	for f in $CHECK_CONFIGS; do
		[ -f "$SERIES_CONFIGS/$f" ] || die "check $1: CHECK_CONFIGS names configs/$f, which does not exist"
	done
	case $CHECK_STEPS in
	every | last) ;;
	listed:*)
		f=${CHECK_STEPS#listed:}
		[[ " $CHECK_CONFIGS " == *" $f "* ]] ||
			die "check $1: CHECK_STEPS=$CHECK_STEPS: configs/$f must be one of its CHECK_CONFIGS"
		;;
	*) die "check $1: CHECK_STEPS must be 'every', 'last' or 'listed:FILE', not '$CHECK_STEPS'" ;;
	esac
	for f in $CHECK_INPUTS; do
		[ "$f" = series ] && continue
		[[ $f != /* && /$f/ != */../* ]] && [ -f "$SERIES_ROOT/$f" ] ||
			die "check $1: CHECK_INPUTS names '$f', which is neither 'series' nor a file of the repository"
	done
	case $CHECK_NEEDS in
	'' | build | prepare | keys) ;;
	*) die "check $1: CHECK_NEEDS is '$CHECK_NEEDS'; the runner knows 'build', 'prepare' and 'keys'" ;;
	esac
	# keys checks out the parent: never from arches built in parallel.
	[ "$CHECK_NEEDS" != keys ] || [ "$CHECK_PER_ARCH" != 1 ] ||
		die "check $1: CHECK_NEEDS=keys is for a unit that is not per arch (the parent is checked out)"
	if [ "$CHECK_PER_ARCH" = 1 ] || [ -z "$CHECK_NEEDS" ]; then
		[ -z "$CHECK_BUILD_ARCHES" ] ||
			die "check $1: CHECK_BUILD_ARCHES is for a unit that is not per arch and needs the build"
	else
		[ -n "$CHECK_BUILD_ARCHES" ] ||
			die "check $1: CHECK_NEEDS=$CHECK_NEEDS needs CHECK_BUILD_ARCHES (the unit is not per arch)"
		check_build_arches >/dev/null
	fi
}

# check_listed_subjects: the patch subjects that configs/FILE of the
# loaded unit's CHECK_STEPS=listed:FILE names, one per line (its lines
# that are neither blank nor comments).
check_listed_subjects() {
	sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$SERIES_CONFIGS/${CHECK_STEPS#listed:}"
}

# check_runs_at K SUBJECT: does the loaded unit run at patch K (of a
# walk to BISECT_TO) whose subject is SUBJECT?
check_runs_at() {
	case $CHECK_STEPS in
	every) return 0 ;;
	last) [ "$1" = "$BISECT_TO" ] ;;
	listed:*) grep -qxF -e "$2" < <(check_listed_subjects) ;;
	esac
}

# check_build_arches [ARCH]: the arches whose build directories the loaded
# unit needs at the step (CHECK_NEEDS): ARCH if it is per arch,
# else every arch CHECK_BUILD_ARCHES names, a list of words that are each
#   affected     the arches the step affects (STEP_ARCHES),
#   FILE:KEY     the arches that KEY of configs/FILE lists,
#   DIR/*.conf   one arch per file of configs/DIR.
check_build_arches() {
	local w f k a list=()
	if [ "$CHECK_PER_ARCH" = 1 ]; then
		[ -z "${1:-}" ] || printf '%s\n' "$1"
		return 0
	fi
	for w in $CHECK_BUILD_ARCHES; do
		case $w in
		affected) list+=(${STEP_ARCHES[@]+"${STEP_ARCHES[@]}"}) ;;
		*/\*.conf)
			[[ $w != /* && /$w/ != */../* ]] ||
				die "check $CHECK_NAME: CHECK_BUILD_ARCHES: '$w' is not below configs/"
			for f in "$SERIES_CONFIGS/${w%/*}"/*.conf; do
				[ -e "$f" ] || continue
				f=${f##*/}
				list+=("${f%.conf}")
			done ;;
		*:*)
			f=${w%%:*} k=${w#*:}
			[[ $f != /* && /$f/ != */../* ]] && [ -f "$SERIES_CONFIGS/$f" ] ||
				die "check $CHECK_NAME: CHECK_BUILD_ARCHES names configs/$f, which does not exist"
			# shellcheck disable=SC2207 # a list of arch names
			list+=($(conf_get "$SERIES_CONFIGS/$f" "$k"))
			;;
		*) die "check $CHECK_NAME: CHECK_BUILD_ARCHES: '$w' is none of affected, FILE:KEY, DIR/*.conf" ;;
		esac
	done
	for a in ${list[@]+"${list[@]}"}; do
		[ -f "$SERIES_CONFIGS/arch/$a.conf" ] ||
			die "check $CHECK_NAME: CHECK_BUILD_ARCHES gives '$a', which has no configs/arch/$a.conf"
	done
	[ ${#list[@]} -eq 0 ] || printf '%s\n' "${list[@]}" | awk '!seen[$0]++'
}

# check_tools_missing: print "cmd (Debian package pkg)" for each tool of
# the loaded check that is missing and could not be installed.  A tool is
# a command, or a file if it starts with / (have).
check_tools_missing() {
	local spec cmd pkg
	for spec in $CHECK_TOOLS; do
		cmd=${spec%%:*} pkg=${spec#*:}
		have "$cmd" && continue
		if [ "$(id -u)" -eq 0 ] && [ "${SERIES_NO_INSTALL:-0}" != 1 ]; then
			apt_install "$pkg" >/dev/null 2>&1 || true
			have "$cmd" && continue
		fi
		printf '%s (Debian package %s)\n' "$cmd" "$pkg"
	done
}

# check_own_configs: the configuration files that one check unit alone
# reads (its manifest's CHECK_CONFIGS), one per line as ./PATH under
# configs/.
check_own_configs() {
	local m f
	for m in "$SERIES_CHECKS"/*/manifest; do
		[ -e "$m" ] || continue
		for f in $(conf_get "$m" CHECK_CONFIGS); do printf './%s\n' "$f"; done
	done
}
