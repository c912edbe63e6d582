# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The gates of the bisect-check: the whole stack, a re-run that builds
# nothing, shards merged, the HTML report.
# They run on the real kernel tree in the cache.

test_gate_bisect_check() {
	gate_config
	local res=$TEST_OUT/bisect
	expect_exit 0 out env SERIES_RESULTS="$res" "$SERIES" bisect
	cat out
	assert_contains out "first bad: none"
	python3 - "$res/summary.json" "$(arch_list_default | tr '\n' ' ')" "$(arches_without_toolchain | tr '\n' ' ')" "$SERIES_ROOT/patches" \
		"$SERIES_ROOT/configs/moves.conf" <<'EOF' || fail "bisect summary"
import json, os, sys
s = json.load(open(sys.argv[1]))
arches = sys.argv[2].split()
notool = set(sys.argv[3].split())
patchdir = sys.argv[4]
moves = {l.strip() for l in open(sys.argv[5]) if l.strip() and not l.startswith("#")}
touched, unbuilt = {}, set()
assert s["totals"]["fail"] == 0, s["totals"]
foreign, headers = [], []
built = {}
for st in s["steps"][1:]:
    got = {(r["arch"], r["check"]): r["status"] for r in st["results"]}
    summ = {(r["arch"], r["check"]): r["summary"] for r in st["results"]}
    built[st["step"]] = {a for (a, c) in got if c == "build" and a not in notool}
    touched[st["step"]] = st["patch"]
    for (a, c), status in got.items():
        if a in notool:
            # No toolchain: "not built", never a pass.
            assert status == "skip" and summ[(a, c)].startswith("not built: no toolchain"), (st["patch"], a, c, status)
            unbuilt.add((st["step"], a))
            continue
        assert c != "build" or status == "pass", (st["patch"], a, got)
    assert got.get(("all", "checkpatch")) == "pass", (st["patch"], got)
    assert got.get(("all", "abi-arm64")) == "pass", (st["patch"], got)
    # The foreign view is judged from the patch that adds it on.
    assert got.get(("all", "abi-arm64-foreign")) in ("pass", "skip"), (st["patch"], got)
    foreign.append(got.get(("all", "abi-arm64-foreign")))
    assert got.get(("all", "maintainers")) == "pass", (st["patch"], got)
    assert got.get(("all", "headers")) in ("pass", "skip"), (st["patch"], got)
    headers.append(got.get(("all", "headers")))
    assert got.get(("all", "declared-once")) in ("pass", "skip"), (st["patch"], got)
    # The runtime gate runs at the tip only.
    last = st is s["steps"][-1]
    assert got.get(("all", "boot")) == ("pass" if last else None), (st["patch"], got)
    # Every patch's MAINTAINERS change is in the fragment; the whole
    # stack's is compared at the last.
    assert got.get(("all", "maintainers-fragment")) == "pass", (st["patch"], got)
    assert got.get(("all", "touched-compiled")) == "pass", (st["patch"], got)
    # Every listed move kept every object's text; other patches are not
    # judged by pure-move.
    assert got.get(("all", "pure-move")) == ("pass" if st["subject"] in moves else None), (st["patch"], got)
    for r in st["results"]:
        assert not r["new_warnings"], (st["patch"], r)
# configs/affected.conf: patch 1 (include/uapi/Kbuild) is built everywhere,
# the arm64 header moves on arm64 and s390 only.
assert built[1] == set(arches), built[1]
arm_only = [k for k in built if built[k] == {"arm64", "s390"}]
assert arm_only, built
# A patch that touches an arch's directory is built for that arch, and
# reported "not built" where the arch has no toolchain.
arch_dirs = {"riscv64": "arch/riscv/", "powerpc": "arch/powerpc/", "mips": "arch/mips/",
             "loongarch64": "arch/loongarch/"}
for step, patch in touched.items():
    text = open(os.path.join(patchdir, os.path.basename(patch))).read()
    for a, d in arch_dirs.items():
        if "diff --git a/" + d in text:
            assert a in built[step] or (step, a) in unbuilt, (patch, a, built[step])
            assert a not in notool or (step, a) in unbuilt, (patch, a)
# Skipped only before the first patch that has something to check.
for seq in (foreign, headers):
    assert "pass" in seq and seq[seq.index("pass"):] == ["pass"] * (len(seq) - seq.index("pass")), seq
print("every patch builds on the arches it affects (patches", arm_only,
      "not on x86_64)",
      "with no new warning, keeps the arm64 KVM ABI, passes checkpatch and",
      "the MAINTAINERS check; the foreign view matches from patch",
      foreign.index("pass") + 1, "and the shared headers are self-contained from patch",
      headers.index("pass") + 1, "; native KVM runs as at the base at the tip;",
      "not built for lack of a toolchain:", sorted(unbuilt) or "nothing",
      "; the", len(moves), "moves of configs/moves.conf keep every object's text")
EOF
}
TESTS+=(test_gate_bisect_check)

test_gate_rerun_zero_builds() {
	gate_config
	local n
	# Unchanged stack, result cache filled (by the first run, if the
	# bisect gate did not run before): the second run builds nothing.
	expect_exit 0 out env SERIES_RESULTS="$TEST_OUT/rerun-1" "$SERIES" bisect
	touch "$TEST_WORK/marker"
	expect_exit 0 out env SERIES_RESULTS="$TEST_OUT/rerun" "$SERIES" bisect
	cat out
	# An arch without a toolchain has no verdict to keep: "not built".
	n=$(grep '^\[[0-9]*/[0-9]*\] ' out | grep -vc ' skip ([0-9]* s): not built: no toolchain' || true)
	[ "$n" -gt 0 ] || fail "the re-run ran no check"
	assert_eq "$(grep -c '^\[[0-9]*/[0-9]*\] .* (cached)' out)" "$n" "verdicts of the re-run taken from the cache"
	find "$SERIES_BUILD" "$SERIES_CACHE/abi" -newer "$TEST_WORK/marker" -type f >touched 2>/dev/null || true
	[ ! -s touched ] || { head touched; fail "the re-run wrote $(wc -l <touched) file(s) in the build directories"; }
	diff <(verdicts "$TEST_OUT/rerun-1") <(verdicts "$TEST_OUT/rerun") || fail "the cached verdicts differ"
	echo "$n verdicts reused, no file of the build directories written"
}
TESTS+=(test_gate_rerun_zero_builds)

test_gate_shard_merge() {
	gate_config
	local k
	expect_exit 0 out env SERIES_RESULTS="$TEST_OUT/unsharded" "$SERIES" bisect
	for k in 1 2 3; do
		expect_exit 0 "shard-$k.out" env SERIES_RESULTS="$TEST_OUT/shard-$k" "$SERIES" bisect --shard "$k/3"
		grep "^units=" "$TEST_OUT/shard-$k/meta"
	done
	rm -rf "$TEST_OUT/merged"
	expect_exit 0 out env SERIES_RESULTS="$TEST_OUT/merged" "$SERIES" report --merge \
		"$TEST_OUT/shard-1" "$TEST_OUT/shard-2" "$TEST_OUT/shard-3"
	assert_contains out "first bad: none"
	diff <(verdicts "$TEST_OUT/unsharded") <(verdicts "$TEST_OUT/merged") ||
		fail "three shards merged do not give the verdicts of the unsharded run"
	echo "3 shards merged: $(verdicts "$TEST_OUT/merged" | wc -l) verdicts, as unsharded"
}
TESTS+=(test_gate_shard_merge)

test_gate_report_html() {
	gate_config
	local r=$TEST_OUT/unsharded shot=$TEST_OUT/report.png
	[ -f "$r/report.html" ] ||
		expect_exit 0 out env SERIES_RESULTS="$r" "$SERIES" bisect
	need_tool chromium chromium
	rm -f "$shot"
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1600,1000 \
		--screenshot="$shot" "file://$r/report.html" >chromium.out 2>&1 ||
		{ cat chromium.out; fail "chromium could not render $r/report.html"; }
	[ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$shot is not a PNG"
	[ "$(stat -c %s "$shot")" -gt 20000 ] || fail "$shot is too small to show the report"
	# The DOM chromium built: the matrix has a row per step, and every
	# link of a cell resolves to a log.
	chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$r/report.html" >dom.html 2>chromium.out ||
		{ cat chromium.out; fail "chromium --dump-dom failed"; }
	python3 - dom.html "$r" <<'EOF' || fail "the rendered report"
import html.parser, json, os, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.rows, self.intable = [], 0, False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "matrix":
            self.intable = True
        if tag == "a" and self.intable:
            self.links.append(a["href"])
        if tag == "tr" and self.intable:
            self.rows += 1
    def handle_endtag(self, tag):
        if tag == "table":
            self.intable = False
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
steps = json.load(open(os.path.join(sys.argv[2], "summary.json")))["steps"]
assert p.rows == len(steps) + 1, (p.rows, len(steps))
cells = sum(len(st["results"]) for st in steps)
assert len(p.links) == cells, (len(p.links), cells)
for href in p.links:
    assert os.path.isfile(os.path.join(sys.argv[2], href)), href
print(f"rendered: {p.rows - 1} steps, {len(p.links)} cells, every link resolves")
EOF
	echo "screenshot: $shot ($(stat -c %s "$shot") bytes)"
}
TESTS+=(test_gate_report_html)
