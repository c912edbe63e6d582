# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# scripts/series report: the reports of a result tree (scripts/lib/report.py).

# cmd_report [--merge DIR...]: write the reports (summary.txt, summary.md,
# summary.json, report.html) of the result tree SERIES_RESULTS; with
# --merge, first merge the result trees DIR... (the shards of one run)
# into it.  Fails if a patch failed.
cmd_report() {
	local d
	if [ $# -gt 0 ]; then
		[ "$1" = --merge ] || die_usage "report: unknown argument '$1'"
		shift
		[ $# -ge 1 ] || die_usage "report --merge needs the result directories of the shards"
		for d in "$@"; do
			[ -f "$d/meta" ] || die "report --merge: $d is not a result tree (no $d/meta)"
			[ "$(realpath -m -- "$d")" != "$SERIES_RESULTS" ] ||
				die "report --merge: $d is the output (SERIES_RESULTS); set SERIES_RESULTS to another directory"
		done
		rm -rf "$SERIES_RESULTS"
		python3 "$SERIES_ROOT/scripts/lib/report.py" --merge "$SERIES_RESULTS" "$@"
	else
		[ -f "$SERIES_RESULTS/meta" ] || die "no result tree in $SERIES_RESULTS; run '$SERIES_PROG bisect' first"
		python3 "$SERIES_ROOT/scripts/lib/report.py" "$SERIES_RESULTS"
	fi
	info "report: $SERIES_RESULTS/report.html (Markdown: $SERIES_RESULTS/summary.md)"
	grep -qx 'first bad: none' "$SERIES_RESULTS/summary.txt"
}
