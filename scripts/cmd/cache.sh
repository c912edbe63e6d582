# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# scripts/series cache: the result cache (scripts/lib/verdicts.sh).

# cmd_cache clear|stats: the result cache and the state it builds on.
cmd_cache() {
	local dir
	[ $# -eq 1 ] || die_usage "usage: cache clear|stats"
	dir=$(verdicts_root)
	case $1 in
	clear)
		# The verdicts, and the warning sets and ABI dumps they were
		# judged with: after this, every check runs again.
		rm -rf "$dir" "$SERIES_STATE"
		info "cleared the result cache ($dir) and the state ($SERIES_STATE)"
		;;
	stats)
		printf 'verdicts: %s in %s (%s)\n' \
			"$(find "$dir" -mindepth 2 -maxdepth 2 -type d ! -name '*.tmp' 2>/dev/null | wc -l)" \
			"$dir" "$(du -sh "$dir" 2>/dev/null | cut -f1 || echo 0)"
		printf 'state: %s (%s)\n' "$SERIES_STATE" "$(du -sh "$SERIES_STATE" 2>/dev/null | cut -f1 || echo 0)"
		;;
	*) die_usage "cache: unknown action '$1' (clear or stats)" ;;
	esac
}
