#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two snapshots of a kernel module (scripts/tests/module-snapshot.sh).

  module-compare.py BEFORE-DIR AFTER-DIR

The module is equivalent when its .modinfo strings (name, license,
parameters and their types, dependencies, vermagic, ...) are the same,
it exports the same symbols with the same export type and namespace,
and each object linked into it disassembles to the same instructions.
Objects are matched by file name, so a source file that moved to another
directory is compared with itself; the moves are listed.  Prints what
differs (the first differing line of each object); exits 1 if anything
does.
"""

import os
import sys


def lines(path):
    with open(path, encoding="utf-8", errors="replace") as fh:
        return fh.read().splitlines()


def objects(d):
    out = {}
    for f in sorted(os.listdir(os.path.join(d, "disasm"))):
        base = f.rsplit("%", 1)[-1]
        out[base] = f
    return out


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    a, b = argv
    bad = 0
    print(f"module: {lines(os.path.join(a, 'path'))[0]} -> {lines(os.path.join(b, 'path'))[0]}")
    for what in ("modinfo", "exports"):
        x, y = lines(os.path.join(a, what)), lines(os.path.join(b, what))
        if x == y:
            print(f"{what}: identical ({len(x)} lines)")
            continue
        bad += 1
        for gone in sorted(set(x) - set(y)):
            print(f"{what}: only before: {gone}")
        for new in sorted(set(y) - set(x)):
            print(f"{what}: only after: {new}")
    oa, ob = objects(a), objects(b)
    for name in sorted(set(oa) | set(ob)):
        if name not in ob or name not in oa:
            bad += 1
            print(f"object {name}: only {'before' if name in oa else 'after'}")
            continue
        if oa[name] != ob[name]:
            before, after = oa[name].replace("%", "/"), ob[name].replace("%", "/")
            print(f"object {name}: moved from {before} to {after}")
        x = lines(os.path.join(a, "disasm", oa[name]))
        y = lines(os.path.join(b, "disasm", ob[name]))
        if x == y:
            continue
        bad += 1
        for i in range(max(len(x), len(y))):
            p = x[i] if i < len(x) else "<end>"
            q = y[i] if i < len(y) else "<end>"
            if p != q:
                print(f"object {name}: code differs at line {i + 1}: before '{p.strip()}', "
                      f"after '{q.strip()}'")
                break
    print(f"{len(set(oa) | set(ob))} objects; "
          f"{'equivalent' if not bad else str(bad) + ' difference(s)'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
