#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Warning sets of kernel build logs.

A warning is keyed by (file, message): line and column numbers are
stripped, so a warning that only moves is not new.  Sets are compared as
sets, never by count.

  warnings.py extract [--strip PREFIX]... < LOG    print the set of LOG
  warnings.py new PARENT CURRENT                   print CURRENT - PARENT

Set files hold one "file<TAB>message" line per warning, sorted.
"""

import argparse
import os
import re
import sys

# gcc/ld/as diagnostics: "path:line[:col]: warning: message".
DIAG = re.compile(
    r"^(?P<file>[^\s:][^:]*?)(?::\d+)?(?::\d+)?: warning: (?P<msg>.*?)\s*$")
# Kbuild tools: "WARNING: modpost: ...", objtool "x.o: warning: objtool: ...".
TOOL = re.compile(r"^WARNING: (?P<msg>.*?)\s*$")


def normalise(path, prefixes):
    for p in prefixes:
        if p and path.startswith(p):
            path = path[len(p):]
            break
    return os.path.normpath(path) if path not in ("", "-") else path


# gcc quotes with typographic quotes in UTF-8 locales: one key either way.
QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'"})


def extract(lines, prefixes):
    found = set()
    for line in lines:
        line = line.rstrip("\n").translate(QUOTES)
        m = DIAG.match(line)
        if m:
            found.add((normalise(m.group("file"), prefixes), m.group("msg")))
            continue
        m = TOOL.match(line)
        if m:
            msg = m.group("msg")
            for p in prefixes:
                msg = msg.replace(p, "")
            found.add(("-", msg))
    return found


def read_set(path):
    out = set()
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            if "\t" not in line:
                raise ValueError(f"{path}: not a 'file<TAB>message' line: {line!r}")
            file, msg = line.split("\t", 1)
            out.add((file, msg))
    return out


def write_set(items, out):
    for file, msg in sorted(items):
        out.write(f"{file}\t{msg}\n")


def main(argv):
    ap = argparse.ArgumentParser(prog="warnings.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    ex = sub.add_parser("extract")
    ex.add_argument("--strip", action="append", default=[],
                    help="path prefix to remove (source and build directory)")
    new = sub.add_parser("new")
    new.add_argument("parent")
    new.add_argument("current")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "extract":
            prefixes = sorted(args.strip, key=len, reverse=True)
            data = sys.stdin.buffer.read().decode("utf-8", "replace")
            write_set(extract(data.splitlines(), prefixes), sys.stdout)
        else:
            write_set(read_set(args.current) - read_set(args.parent), sys.stdout)
    except (OSError, ValueError) as e:
        print(f"warnings.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
