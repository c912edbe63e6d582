#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Set the checkpatch reports that the allowlist accepts apart.

  allow.py ALLOWLIST PATCH REPORTS

REPORTS holds checkpatch.pl --show-types reports, one block per report
separated by blank lines (what checkpatch-moved.py prints; its last line,
'new: N, moved: M', is ignored).  A WARNING or CHECK whose type an
ALLOWLIST line names for PATCH (a glob on its file name) is accepted and
printed with the reason; every other report is printed as counted.  Exits
1 if a report counts, 2 on a malformed allowlist.
"""

import fnmatch
import os
import re
import sys

REPORT = re.compile(r"^(?:\S+:\d+: )?(ERROR|WARNING|CHECK):([A-Z0-9_]+):")


def load(path):
    entries = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3 or not re.fullmatch(r"[A-Z0-9_]+", parts[1]):
                raise ValueError(f"{path}:{n}: want 'PATCH TYPE REASON...'")
            entries.append((parts[0], parts[1], parts[2]))
    return entries


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        entries = load(argv[0])
    except (OSError, ValueError) as e:
        print(f"allowlist: {e}", file=sys.stderr)
        return 2
    name = os.path.basename(argv[1])
    with open(argv[2], encoding="utf-8", errors="replace") as f:
        blocks = [b.strip("\n") for b in f.read().split("\n\n")]
    counted, accepted = [], []
    for block in blocks:
        m = REPORT.match(block)
        if not m:
            continue
        why = None
        if m.group(1) != "ERROR":
            why = next((r for g, t, r in entries
                        if t == m.group(2) and fnmatch.fnmatchcase(name, g)), None)
        if why is None:
            counted.append(block)
        else:
            accepted.append(f"{block}\naccepted ({m.group(2)}): {why}")
    # Counted reports first: the unit's summary names the first report.
    for b in counted + accepted:
        print(b + "\n")
    print(f"counted: {len(counted)}, accepted: {len(accepted)}")
    return 1 if counted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
