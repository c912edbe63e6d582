# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of the reports: summaries, the HTML page, the merge of shards.
# Each test runs in its own empty directory ($TEST_WORK) in a subshell.

# A result tree as the runner writes it: base, two patches, patch 2 fails.
make_results_fixture() {
	local r=$1 k a c st
	mkdir -p "$r"
	printf 'base=abc\nbranch=b\n' >"$r/meta"
	printf '0\tbase\tabc\tLinux\n1\t0001-a.patch\tc1\tfirst\n2\t0002-b.patch\tc2\tsecond\n' >"$r/steps"
	for k in 0 1 2; do
		for a in x86_64 s390; do
			c=$r/000$k/$a/build
			mkdir -p "$c"
			st=pass
			[ "$k/$a" != 2/s390 ] || st=fail
			echo "$st" >"$c/status"
			echo "summary $k $a" >"$c/summary"
			echo 3 >"$c/duration"
			: >"$c/log"
		done
		[ "$k" = 0 ] && continue
		c=$r/000$k/all/checkpatch
		mkdir -p "$c"
		echo pass >"$c/status"
		echo clean >"$c/summary"
		echo 1 >"$c/duration"
		: >"$c/log"
	done
	printf 'drivers/x.c\tunused variable\n' >"$r/0002/s390/build/new-warnings"
	# The runner built for checkpatch at patch 2 (as for a unit that
	# needs the build): part of that unit's second.
	mkdir -p "$r/0002/all/checkpatch/needs-build"
	echo 1 >"$r/0002/all/checkpatch/needs-build/duration"
}

test_report() {
	make_results_fixture r
	echo key >r/0001/all/checkpatch/cached
	expect_exit 0 out python3 "$SERIES_ROOT/scripts/lib/report.py" r
	assert_contains out "first bad: patch 2 (0002-b.patch) on s390: build: summary 2 s390"
	assert_contains out "new warning: patch 2 s390: drivers/x.c: unused variable"
	assert_contains out "totals: pass 7, fail 1, skip 0, warn 0"
	# Where the time went: what ran, a cached verdict costing nothing.
	assert_contains out "time: 19 s in 7 checks run, 1 from the cache; by check: build 18 s, checkpatch 1 s"
	assert_contains r/report.html '<td class="time">7</td>'
	assert_contains r/report.html "builds of the patches, s390</td><td class=\"time\">6"
	assert_contains r/report.html "builds the runner made for check checkpatch (in its time)</td><td class=\"time\">1"
	assert_contains r/summary.txt "all/checkpatch"
	python3 - r/summary.json <<'EOF' || fail "summary.json content"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["first_bad"]["step"] == 2 and s["first_bad"]["arch"] == "s390", s["first_bad"]
assert s["totals"] == {"pass": 7, "fail": 1, "skip": 0, "warn": 0, "interrupted": 0}, s["totals"]
t = s["timings"]
assert (t["computed_s"], t["computed"], t["cached"]) == (19, 7, 1), t
assert t["by_check"] == {"build": 18, "checkpatch": 1}, t
assert t["by_step"] == {"0": 6, "1": 6, "2": 7}, t
assert t["build_base"] == {"s390": 3, "x86_64": 3} and t["build_patches"] == {"s390": 6, "x86_64": 6}, t
assert t["build_for_units"] == {"checkpatch": 1}, t
assert [st["step"] for st in s["steps"]] == [0, 1, 2]
r = [x for x in s["steps"][2]["results"] if x["arch"] == "s390"][0]
assert r["new_warnings"] == ["drivers/x.c: unused variable"], r
assert r["log"] == "0002/s390/build/log", r["log"]
EOF
	# b4's per-patch check shape, one file per patch, and the lookup of a
	# patch (on stdin, as b4 hands it over) by its subject.
	[ ! -e r/review-check/0000.json ] || fail "the base has a review-check file"
	printf 'From: A <a@example.org>\nSubject: [PATCH v3 2/2]\n second\n\nWhy.\n' >p2
	expect_exit 0 rc2 sh -c 'python3 "$1" r - <p2' _ "$SERIES_ROOT/scripts/mail/review_check.py"
	cmp -s rc2 r/review-check/0002.json || fail "review_check.py does not print 0002.json"
	python3 - rc2 <<'EOF' || fail "review-check JSON content"
import json, sys
c = json.load(open(sys.argv[1]))
assert [x["tool"] for x in c] == ["checkpatch", "build/s390", "build/x86_64"], c
assert all(set(x) == {"tool", "status", "summary", "details"} for x in c), c
b = c[1]
assert b["status"] == "fail" and b["summary"] == "summary 2 s390", b
assert b["details"] == "drivers/x.c: unused variable", b
EOF
	printf 'Subject: [PATCH] third\n\n' >p3
	expect_exit 1 out python3 "$SERIES_ROOT/scripts/mail/review_check.py" r p3
	assert_contains out "review-check: no patch 'third' in r"
	echo bogus >r/0001/x86_64/build/status
	expect_exit 1 out python3 "$SERIES_ROOT/scripts/lib/report.py" r
	assert_contains out "bad status 'bogus'"
}
TESTS+=(test_report)

# check_report_html DIR: report.html of DIR links every cell to a file
# that exists, marks the first bad patch and lists its new warning.
check_report_html() {
	python3 - "$1" <<'EOF' || fail "report.html of $1"
import html.parser, os, sys
d = sys.argv[1]
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.rows, self.cells = [], [], []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a":
            self.links.append(a["href"])
        if tag == "tr":
            self.rows.append(a.get("class", ""))
        if tag == "td" and "cell" in a.get("class", ""):
            self.cells.append(a["class"])
p = P()
p.feed(open(os.path.join(d, "report.html"), encoding="utf-8").read())
assert p.links, "no links"
for href in p.links:
    assert os.path.isfile(os.path.join(d, href)), f"link {href} does not resolve"
assert sum("fail" in c for c in p.cells) == 1, p.cells
assert "firstbad" in p.rows, p.rows
text = open(os.path.join(d, "report.html"), encoding="utf-8").read()
assert "s390: drivers/x.c: unused variable" in text
print(len(p.links), "links resolve")
EOF
}

test_report_merge() {
	local d
	make_results_fixture full
	expect_exit 0 out python3 "$SERIES_ROOT/scripts/lib/report.py" full
	check_report_html full
	assert_contains full/summary.md "First bad: **patch 2** (\`0002-b.patch\`) on s390"
	# Two shards of the same run: "all" and x86_64, and s390.
	for d in a b; do
		cp -r full "$d"
		rm -f "$d"/summary.* "$d/report.html"
	done
	rm -rf a/000?/s390 b/000?/all b/000?/x86_64
	echo 'shard=1/2' >>a/meta
	echo 'shard=2/2' >>b/meta
	expect_exit 0 out python3 "$SERIES_ROOT/scripts/lib/report.py" --merge merged a b
	diff full/summary.txt merged/summary.txt || fail "the merged shards do not give the unsharded verdicts"
	check_report_html merged
	assert_contains merged/meta "shard=merged from 2 result tree(s): 1/2 2/2"
	expect_exit 1 out python3 "$SERIES_ROOT/scripts/lib/report.py" --merge merged2 a full
	assert_contains out "0000/x86_64/build is in both a and full"
	sed -i 's/^base=.*/base=other/' b/meta
	expect_exit 1 out python3 "$SERIES_ROOT/scripts/lib/report.py" --merge merged3 a b
	assert_contains out "b: base 'other' differs from a's 'abc': not shards of one run"
	expect_exit 1 out python3 "$SERIES_ROOT/scripts/lib/report.py" --merge merged a
	assert_contains out "merged exists"
}
TESTS+=(test_report_merge)
