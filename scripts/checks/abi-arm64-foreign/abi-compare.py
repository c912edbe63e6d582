#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the layouts and constants of two ABI dumps (abi-dump.py).

  abi-compare.py [--type-prefix P]... [--const-prefix P]... NATIVE FOREIGN

Judges FOREIGN, the dump of a foreign host's view of an ABI, against
NATIVE, the dump on the ABI's own architecture:

  - every struct/union of NATIVE whose name starts with a --type-prefix
    must be in FOREIGN;
  - every struct/union in both must have the same layout: size, and the
    offset and size of every member (alignment annotations, which pahole
    infers differently for forced alignments, and padding comments are
    not compared: the offsets already say everything they could);
  - every constant of NATIVE whose name starts with a --const-prefix must
    be in FOREIGN with the same value.

Prints one line per difference and exits 1 if there is any.
"""

import argparse
import re
import sys

ATTR = re.compile(r"\s*__attribute__\(\(__aligned__\(\d+\)\)\)")
HEAD = re.compile(r"^(struct|union) (\S+) \{$")
CONST = re.compile(r"^const (\S+) = (-?\d+)$")
SIZE = re.compile(r"/\* size: (\d+)")


def parse(path):
    types, consts, block, name = {}, {}, [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if name is None:
                m = HEAD.match(line)
                if m:
                    name, block = f"{m.group(1)} {m.group(2)}", []
                    continue
                m = CONST.match(line)
                if m:
                    consts[m.group(1)] = int(m.group(2))
                continue
            if line.startswith("}"):
                types[name] = block
                name = None
                continue
            line = ATTR.sub("", line)
            m = SIZE.search(line)
            if m:
                block.append(f"size {m.group(1)}")
            elif line.strip().startswith("/*") or not line.strip():
                continue
            else:
                block.append(" ".join(line.split()))
    return types, consts


def main(argv):
    ap = argparse.ArgumentParser(prog="abi-compare.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--type-prefix", action="append", default=[])
    ap.add_argument("--const-prefix", action="append", default=[])
    ap.add_argument("native")
    ap.add_argument("foreign")
    args = ap.parse_args(argv)
    ntypes, nconsts = parse(args.native)
    ftypes, fconsts = parse(args.foreign)
    diffs, compared = [], 0
    for t in sorted(ntypes):
        tag = t.split(" ", 1)[1]
        if t not in ftypes:
            if tag.startswith(tuple(args.type_prefix)):
                diffs.append(f"{t}: missing in the foreign view")
            continue
        compared += 1
        if ntypes[t] != ftypes[t]:
            for a, b in zip(ntypes[t] + ["(end)"], ftypes[t] + ["(end)"]):
                if a != b:
                    diffs.append(f"{t}: native '{a}', foreign '{b}'")
                    break
    nconst = 0
    for c in sorted(nconsts):
        if not c.startswith(tuple(args.const_prefix)):
            continue
        nconst += 1
        if c not in fconsts:
            diffs.append(f"{c}: missing in the foreign view")
        elif fconsts[c] != nconsts[c]:
            diffs.append(f"{c}: native {nconsts[c]}, foreign {fconsts[c]}")
    for d in diffs:
        print(d)
    print(f"{compared} types and {nconst} constants compared, {len(diffs)} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
