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
	conf_load "$SERIES_CHECKS/$1/manifest" CHECK_
	[ "$CHECK_SCOPE" = patch ] || die "check $1: CHECK_SCOPE must be 'patch', not '$CHECK_SCOPE'"
	local f
	for f in $CHECK_CONFIGS; do
		[ -f "$SERIES_CONFIGS/$f" ] || die "check $1: CHECK_CONFIGS names configs/$f, which does not exist"
	done
	case $CHECK_STEPS in every | last) ;; *) die "check $1: CHECK_STEPS must be 'every' or 'last', not '$CHECK_STEPS'" ;; esac
	for f in $CHECK_INPUTS; do
		[ "$f" = series ] && continue
		[[ $f != /* && /$f/ != */../* ]] && [ -f "$SERIES_ROOT/$f" ] ||
			die "check $1: CHECK_INPUTS names '$f', which is neither 'series' nor a file of the repository"
	done
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
