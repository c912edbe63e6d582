#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Find what the shared headers declare or define a second time.

  decl-once.py --build-dir DIR --shared PREFIX... [--names-out FILE]
               [--excuse FILE] -- HEADER...

Compiles one translation unit that includes every HEADER (<...> names),
with the command kbuild last used for init/main.o in DIR (see
header-test.py) plus -Wredundant-decls, and preprocesses it with -dD.
Reports
  - every function or object declared twice where one of the two
    declarations is in a file under a PREFIX (GCC's -Wredundant-decls
    warning and its "previous declaration" note), and
  - every macro defined in a file under a PREFIX and also, not undefined
    in between, in another file.
A header that defines the same macro twice (a guarded fallback, say) is
not a finding: only two different files are.  --names-out writes the
name of everything declared or defined twice in two files, under a
PREFIX or not (the reference of a base); --excuse drops the findings
whose name is listed in FILE.  Prints one line per finding; exits 1 if
there is any or if the unit does not compile, else 0.
"""

import argparse
import os
import re
import sys

# kbuildcmd is shared by the units that compile with kbuild's flags.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from kbuildcmd import base_command, compile_c  # noqa: E402


def shared(path, prefixes):
    """Whether PATH (as the compiler names it) is under one of PREFIXES."""
    p = os.path.normpath(path)
    return any(f"/{x}/" in f"/{p}" for x in prefixes)


def short(path, prefixes):
    """PATH for a report: from the shared prefix on, else relative to the
    working directory (the source tree)."""
    p = os.path.normpath(path)
    for x in prefixes or ():
        i = f"/{p}".find(f"/{x}/")
        if i >= 0:
            return p[i:]
    if os.path.isabs(p) and p.startswith(os.getcwd() + os.sep):
        return os.path.relpath(p)
    return re.sub(r"^(\.\./)+", "", p)


WARN = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):\d+: warning: redundant "
                  r"redeclaration of '(?P<name>[^']+)'")
NOTE = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):\d+: note: previous "
                  r"declaration of '(?P<name>[^']+)'")
MARK = re.compile(r'^# \d+ "(?P<file>[^"]+)"')
DEFINE = re.compile(r"^#define (?P<name>\w+)")
UNDEF = re.compile(r"^#undef (?P<name>\w+)")


def redundant_decls(stderr, prefixes):
    found, last = [], None
    for line in stderr.splitlines():
        m = WARN.match(line)
        if m:
            last = m
            continue
        n = NOTE.match(line)
        if n and last and n["name"] == last["name"]:
            if prefixes is None or shared(last["file"], prefixes) or \
                    shared(n["file"], prefixes):
                found.append((last["name"], f"declared twice: {last['name']} at "
                             f"{short(last['file'], prefixes)}:{last['line']} and "
                             f"{short(n['file'], prefixes)}:{n['line']}"))
            last = None
    return found


def macro_twice(text, prefixes):
    where, found, cur = {}, [], ""
    for line in text.splitlines():
        m = MARK.match(line)
        if m:
            cur = m["file"]
            continue
        m = UNDEF.match(line)
        if m:
            where.pop(m["name"], None)
            continue
        m = DEFINE.match(line)
        if not m or cur.startswith("<"):
            continue
        prev = where.get(m["name"])
        if prev and prev != cur and (prefixes is None or shared(prev, prefixes) or
                                     shared(cur, prefixes)):
            found.append((m["name"], f"defined twice: {m['name']} in {short(prev, prefixes)} "
                         f"and {short(cur, prefixes)}"))
        where[m["name"]] = cur
    return found


def main(argv):
    ap = argparse.ArgumentParser(prog="decl-once.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--shared", nargs="+", required=True, metavar="PREFIX")
    ap.add_argument("--names-out", metavar="FILE")
    ap.add_argument("--excuse", metavar="FILE")
    ap.add_argument("header", nargs="+")
    args = ap.parse_args(argv)
    try:
        cmd = base_command(args.build_dir, "init/main.o")
    except (OSError, RuntimeError) as e:
        print(f"decl-once.py: error: {e}", file=sys.stderr)
        return 1
    src = "".join(f"#include <{h}>\n" for h in args.header)
    cc = compile_c(cmd, args.build_dir, src,
                   ["-Wredundant-decls", "-x", "c", "-c", "-o", "/dev/null", "-"])
    if cc.returncode != 0:
        print(f"FAIL the headers do not compile together:\n{cc.stderr}")
        return 1
    pp = compile_c(cmd, args.build_dir, src, ["-E", "-dD", "-x", "c", "-o", "-", "-"])
    if pp.returncode != 0:
        print(f"FAIL preprocessing failed:\n{pp.stderr}")
        return 1
    if args.names_out:
        every = redundant_decls(cc.stderr, None) + macro_twice(pp.stdout, None)
        with open(args.names_out, "w", encoding="utf-8") as fh:
            fh.writelines(f"{n}\n" for n in sorted({n for n, _ in every}))
    excused = set()
    if args.excuse:
        with open(args.excuse, encoding="utf-8") as fh:
            excused = {line.strip() for line in fh if line.strip()}
    found = [(n, t) for n, t in redundant_decls(cc.stderr, args.shared) +
             macro_twice(pp.stdout, args.shared) if n not in excused]
    for _, t in found:
        print(f"FAIL {t}")
    print(f"{len(args.header)} header(s), {len(found)} finding(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
