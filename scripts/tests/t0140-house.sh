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
