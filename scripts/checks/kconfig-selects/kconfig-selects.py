#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the symbols that Kconfig entry A selects and entry B does not.

Usage: kconfig-selects.py KCONFIG A B

Exit status: 0 if A selects nothing that B does not, 1 if it does (each
such symbol printed, one per line), 2 if KCONFIG has no entry A or B.
"""
import re
import sys


def selects(text, entry):
    """The symbols that "config ENTRY" selects, or None without the entry."""
    m = re.search(r"^(?:menu)?config %s\n((?:[ \t].*\n|\n)*?)(?=^\S|\Z)" % re.escape(entry),
                  text, re.M)
    if not m:
        return None
    # The help text ends the attributes: its words are not selections.
    body = re.split(r"^\s+(?:---)?help(?:---)?\s*$", m.group(1), maxsplit=1, flags=re.M)[0]
    return {s.group(1) for s in re.finditer(r"^\s+select\s+(\w+)", body, re.M)}


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        text = f.read()
    a, b = selects(text, argv[2]), selects(text, argv[3])
    for name, sel in ((argv[2], a), (argv[3], b)):
        if sel is None:
            print(f"{argv[1]}: no 'config {name}' entry", file=sys.stderr)
            return 2
    extra = sorted(a - b)
    for s in extra:
        print(s)
    return 1 if extra else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
