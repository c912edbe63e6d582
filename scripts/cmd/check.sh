# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# scripts/series check: apply the series, then bisect it.

# cmd_check: the main job.
cmd_check() {
	[ $# -eq 0 ] || die_usage "check takes no arguments"
	need_base_tools
	cmd_base
	cmd_apply
	cmd_bisect
}
