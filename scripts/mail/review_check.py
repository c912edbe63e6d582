#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the verdicts of one patch in b4's per-patch check shape.

  review_check.py RESULTS [PATCH]

PATCH (a git format-patch file or mail; stdin if absent or '-', as b4
hands a per-patch check command its patch) is matched by its subject,
without the [PATCH ...] prefix, to a step of the bisect-check results
RESULTS; that step's RESULTS/review-check/NNNN.json (written by
'series report') is printed: a JSON list of {tool, status, summary,
details}.  Exits 1 if no step of RESULTS has that subject or the
results have no review-check file for it, 2 on bad usage.
"""

import email
import email.policy
import os
import re
import sys


def subject_of(text):
    msg = email.message_from_string(text, policy=email.policy.compat32)
    subject = msg.get("Subject")
    if subject is None:
        return None
    subject = re.sub(r"\s*\n\s*", " ", str(subject)).strip()
    return re.sub(r"^\[[^]]*\]\s*", "", subject)


def main(argv):
    if not 1 <= len(argv) <= 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    results = argv[0]
    if len(argv) == 1 or argv[1] == "-":
        text = sys.stdin.read()
    else:
        with open(argv[1], encoding="utf-8", errors="replace") as f:
            text = f.read()
    subject = subject_of(text)
    if not subject:
        print("review-check: the patch has no Subject", file=sys.stderr)
        return 1
    with open(os.path.join(results, "steps"), encoding="utf-8") as f:
        steps = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    for step, _patch, _commit, title in steps:
        if int(step) > 0 and title == subject:
            path = os.path.join(results, "review-check", f"{int(step):04d}.json")
            try:
                with open(path, encoding="utf-8") as f:
                    sys.stdout.write(f.read())
            except FileNotFoundError:
                print(f"review-check: no {path}; run 'series report'", file=sys.stderr)
                return 1
            return 0
    print(f"review-check: no patch '{subject}' in {results}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
