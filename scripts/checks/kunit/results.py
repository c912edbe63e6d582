#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge the results of kunit.py run --json for the check unit "kunit".

usage: results.py JSON SUITE...

Every SUITE must be in the results with at least one test, and every test
of it (the cases of a parameterised test one by one) must have passed.
Prints one line per suite ("ok SUITE: N tests passed" or "FAIL SUITE:
why") and exits 0 if every suite passed, 1 otherwise, 2 on bad usage.
"""

import json
import sys


def leaves(group, prefix=""):
    """(name, status) of every test under a result group, depth first."""
    for case in group.get("test_cases", []):
        yield prefix + case["name"], case["status"]
    for sub in group.get("sub_groups", []):
        yield from leaves(sub, prefix + sub["name"] + ".")


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            results = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL results: cannot read {argv[1]}: {e}")
        return 1
    suites = {g["name"]: g for g in results.get("sub_groups", [])}
    bad = 0
    for name in argv[2:]:
        if name not in suites:
            print(f"FAIL {name}: the suite did not run (ran: {' '.join(sorted(suites)) or 'none'})")
            bad += 1
            continue
        tests = list(leaves(suites[name]))
        failed = [f"{t} {s}" for t, s in tests if s != "PASS"]
        if not tests:
            print(f"FAIL {name}: no test ran")
            bad += 1
        elif failed:
            print(f"FAIL {name}: {len(failed)} of {len(tests)} tests did not pass: {', '.join(failed[:5])}")
            bad += 1
        else:
            print(f"ok {name}: {len(tests)} tests passed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
