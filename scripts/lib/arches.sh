# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The arches a patch affects, from the paths it touches and the rules of
# configs/affected.conf.  The runner builds and judges a step on these
# arches; the touched-compiled unit looks for the step's objects in them.
# Part of the verdict salt: both decide verdicts with it.

# affected_rules_load: read configs/affected.conf (PATH-GLOB ARCH... per
# line) into AFFECTED_GLOBS and AFFECTED_TARGETS, checking every arch name;
# the arch lists into AFFECTED_ALL and AFFECTED_DEFAULT, once: a patch
# that moves headers names hundreds of paths.
affected_rules_load() {
	local f=$SERIES_CONFIGS/affected.conf line n=0 words a
	AFFECTED_GLOBS=() AFFECTED_TARGETS=()
	[ -r "$f" ] || die "cannot read $f"
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%%#*}
		read -ra words <<<"$line" || true
		[ ${#words[@]} -gt 0 ] || continue
		[ ${#words[@]} -ge 2 ] || die "$f:$n: '${words[0]}' names no arch"
		for a in "${words[@]:1}"; do
			case $a in
			default | none) ;;
			*) [ -f "$SERIES_CONFIGS/arch/$a.conf" ] || die "$f:$n: unknown arch '$a' (known: $(arch_list_all | tr '\n' ' ')default none)" ;;
			esac
		done
		AFFECTED_GLOBS+=("${words[0]}")
		AFFECTED_TARGETS+=("${words[*]:1}")
	done <"$f"
	AFFECTED_ALL=$(arch_list_all | tr '\n' ' ')
	AFFECTED_DEFAULT=$(SERIES_ARCHES='' arch_list_default | tr '\n' ' ')
}

# affected_arches FILES: the arches a patch touching the paths listed in
# FILES is built for, by the rules of configs/affected.conf (or every arch
# of SERIES_ARCHES), in arch_list_all order.  Honours the --arch selection
# (SELECTED_ARCHES).
affected_arches() {
	local files=$1 path i a hit set=' ' out=()
	[ -n "${AFFECTED_GLOBS+set}" ] || affected_rules_load
	if [ -n "${SERIES_ARCHES:-}" ]; then
		set=" $SERIES_ARCHES "
	else
		while IFS= read -r path || [ -n "$path" ]; do
			[ -n "$path" ] || continue
			hit=default
			for i in "${!AFFECTED_GLOBS[@]}"; do
				# shellcheck disable=SC2053 # the right side is a glob, from data
				if [[ $path == ${AFFECTED_GLOBS[i]} ]]; then
					hit=${AFFECTED_TARGETS[i]}
					break
				fi
			done
			for a in $hit; do
				case $a in
				none) ;;
				default) set+=$AFFECTED_DEFAULT ;;
				*) set+="$a " ;;
				esac
			done
		done <"$files"
	fi
	for a in $AFFECTED_ALL; do
		[[ $set == *" $a "* ]] || continue
		[ ${#SELECTED_ARCHES[@]} -eq 0 ] || [[ " ${SELECTED_ARCHES[*]} " == *" $a "* ]] || continue
		out+=("$a")
	done
	[ ${#out[@]} -eq 0 ] || printf '%s\n' "${out[@]}"
}
