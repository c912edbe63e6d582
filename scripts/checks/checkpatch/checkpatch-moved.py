#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Separate checkpatch reports on moved lines from reports on new code.

  checkpatch-moved.py PATCH LOG

LOG is the output of 'checkpatch.pl --showfile' on PATCH.  A report whose
quoted '+' lines all occur, unchanged, as '-' lines of the same patch is
about code the patch moves (a header split in two, a file whose content
moves while the file stays), not code it writes: moving code does not
restyle it.  Every other report counts, including those that quote no
line (commit message, sign-off).

Prints the counted reports, then one line
'new: N, moved: M', and exits 1 if N > 0.
"""

import re
import sys

REPORT = re.compile(r"^(\S+:\d+: )?(ERROR|WARNING|CHECK):")


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    removed = set()
    with open(argv[0], encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("-") and not line.startswith("---"):
                removed.add(line[1:].rstrip("\n"))
    with open(argv[1], encoding="utf-8", errors="replace") as f:
        blocks = f.read().split("\n\n")
    new, moved = [], 0
    for block in blocks:
        lines = block.strip("\n").splitlines()
        if not lines or not REPORT.match(lines[0]):
            continue
        quoted = [l[1:] for l in lines[1:] if l.startswith("+")]
        if quoted and all(q in removed for q in quoted):
            moved += 1
        else:
            new.append("\n".join(lines))
    for b in new:
        print(b + "\n")
    print(f"new: {len(new)}, moved: {moved}")
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
