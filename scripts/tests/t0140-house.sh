# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of the house: the CI pipelines and shellcheck.
# Each test runs in its own empty directory ($TEST_WORK) in a subshell.

# The CI pipelines of ci/: valid YAML by yamllint, and a matrix that
# the tool can run: one bisect job per shard K/N with N the number of
# jobs, a merge job after them, and only subcommands the tool has.
test_ci_pipelines() {
	local py=''
	need_tool yamllint yamllint
	yamllint -f parsable -d '{extends: default, rules: {line-length: {max: 120}, document-start: disable, truthy: {check-keys: false}}}' \
		"$SERIES_ROOT"/ci/*.yml ||
		fail "yamllint reports problems in ci/"
	# yamllint's own Python has the YAML parser (Debian python3-yaml).
	for py in /usr/bin/python3 python3; do
		"$py" -c 'import yaml' 2>/dev/null && break
		py=''
	done
	[ -n "$py" ] || skip "no Python with the yaml module (Debian package python3-yaml)"
	"$SERIES" help >help.txt
	"$py" - "$SERIES_ROOT/ci" help.txt <<'EOF' || fail "the CI pipelines"
import os, re, sys, yaml
ci, helptext = sys.argv[1], open(sys.argv[2]).read()
commands = set(re.findall(r"^  ([a-z]+)\b", helptext, re.M))
def scripts(job):
    steps = job.get("steps", [])
    lines = [s["run"] for s in steps if "run" in s] + job.get("script", [])
    return "\n".join(lines)
def check_commands(name, text):
    for cmd in re.findall(r"scripts/series (\w+)", text):
        assert cmd in commands, f"{name}: 'scripts/series {cmd}' is not a subcommand"

gh = yaml.safe_load(open(os.path.join(ci, "github-actions.yml")))
jobs = gh["jobs"]
n = int(gh["env"]["SERIES_SHARDS"])
assert jobs["bisect"]["strategy"]["matrix"]["shard"] == list(range(1, n + 1)), "github: shards"
assert '--shard "${{ matrix.shard }}/$SERIES_SHARDS"' in scripts(jobs["bisect"]), "github: --shard"
assert jobs["merge"]["needs"] == "bisect", "github: merge needs bisect"
assert "report --merge" in scripts(jobs["merge"]), "github: merge"
uploads = [s for s in jobs["bisect"]["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
assert uploads and uploads[0]["with"]["name"] == "results-${{ matrix.shard }}", "github: artifacts"
for name, job in jobs.items():
    check_commands(f"github {name}", scripts(job))

gl = yaml.safe_load(open(os.path.join(ci, "gitlab-ci.yml")))
stages = gl["stages"]
for name, job in gl.items():
    if name in ("stages", "default", "variables"):
        continue
    assert job["stage"] in stages, f"gitlab {name}: unknown stage"
    check_commands(f"gitlab {name}", scripts(job))
b = gl["bisect"]
assert isinstance(b["parallel"], int) and b["parallel"] >= 2, "gitlab: parallel"
assert '--shard "$CI_NODE_INDEX/$CI_NODE_TOTAL"' in scripts(b), "gitlab: --shard"
assert "bisect" in gl["merge"]["needs"] and "report --merge" in scripts(gl["merge"]), "gitlab: merge"
assert stages.index(gl["merge"]["stage"]) > stages.index(b["stage"]), "gitlab: merge runs after bisect"
print(f"github: {n} shards + merge; gitlab: {b['parallel']} shards + merge")
EOF
}
TESTS+=(test_ci_pipelines)

test_shellcheck() {
	need_tool shellcheck shellcheck
	cd "$SERIES_ROOT" || exit
	shellcheck -x -S warning scripts/series scripts/lib/*.sh scripts/cmd/*.sh scripts/mail/*.sh scripts/checks/*/run \
		scripts/tests/run scripts/tests/*.sh .ci/run || fail "shellcheck reports warnings"
}
TESTS+=(test_shellcheck)

# What a verdict depends on is in its key: a check unit uses no file of
# scripts/lib that the verdict salt leaves out (the runner's own files,
# the benchmark and the report), and the salt changes with every other
# file of scripts/lib.
test_salt_covers_units() {
	local f b users
	for b in units.sh verdicts.sh runner.sh bench.sh report.py; do
		users=$(grep -lF "scripts/lib/$b" "$SERIES_ROOT"/scripts/checks/*/* 2>/dev/null || true)
		[ -z "$users" ] || fail "check units use $b, which the verdict salt leaves out: $users"
	done
	cp -r "$SERIES_ROOT/scripts" "$SERIES_ROOT/configs" .
	salt() {
		bash -c '. "$1/scripts/lib/common.sh"; . "$1/scripts/lib/build.sh"; . "$1/scripts/lib/runner.sh"; verdict_salt' _ "$PWD"
	}
	local s0
	s0=$(salt)
	for f in scripts/lib/*; do
		b=${f##*/}
		case $b in units.sh | verdicts.sh | runner.sh | bench.sh | report.py) continue ;; esac
		cp "$f" "$f.orig"
		echo '# changed' >>"$f"
		[ "$(salt)" != "$s0" ] || fail "the verdict salt does not change with $f"
		mv "$f.orig" "$f"
	done
	assert_eq "$(salt)" "$s0" "the salt after every file was restored"
}
TESTS+=(test_salt_covers_units)

# A helper that one check unit alone uses lives in that unit's
# directory, where it is in that unit's key only: no file of scripts/lib
# is named by exactly one unit and by nothing else of the tooling.
test_single_unit_helpers() {
	local f b units others
	for f in "$SERIES_ROOT"/scripts/lib/*; do
		b=${f##*/}
		units=$({ grep -lF "$b" "$SERIES_ROOT"/scripts/checks/*/* 2>/dev/null || true; } |
			sed 's|.*/scripts/checks/||; s|/.*||' | sort -u | wc -l)
		others=$({ grep -rlF --exclude-dir=checks --exclude-dir=tests "$b" "$SERIES_ROOT/scripts" || true; } |
			{ grep -vxF "$f" || true; } | wc -l)
		[ "$units" -ne 1 ] || [ "$others" -gt 0 ] ||
			fail "scripts/lib/$b serves one check unit alone: it belongs in that unit's directory"
	done
}
TESTS+=(test_single_unit_helpers)
