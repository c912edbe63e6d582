#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the offset comments of a kernel header's structures against DWARF.

  layout-comments.py --build-dir DIR [--cmd-of OBJ] --header FILE
                     --include NAME STRUCT...

Compiles a translation unit that includes NAME (the <...> name of FILE)
with the kernel command kbuild last used for OBJ in DIR (as
header-test.py does), plus -g, so the header's static_assert()s are
checked, and reads the layout of every STRUCT, and of every structure
of FILE that a STRUCT embeds, from the DWARF of the object with pahole.

In FILE, every named member of those structures carries a comment that
starts with its offset in hex, "/* 0x0088 ... */"; a structure embedded
in a STRUCT states offsets from the start of that STRUCT.  A member
whose comment names another offset than DWARF's, or that has no offset
comment, fails.  Prints one line per structure (and one per bad member);
exits 1 on any failure, 2 on bad usage.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

# kbuildcmd is shared by the units that compile with kbuild's flags.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from kbuildcmd import base_command, compile_c  # noqa: E402

# A member line: "type name[dims];  /* 0xOFF ... */" (the comment optional).
SRC_MEMBER = re.compile(
    r"^\s*(?!union\b|struct\s*\{)[A-Za-z_][\w\s\*]*?[\s\*](\w+)\s*(?:\[[^\]]*\]\s*)*"
    r"(?::\s*\d+\s*)?;\s*(?:/\*\s*(0x[0-9a-fA-F]+)?)?")
SRC_STRUCT = re.compile(r"^struct\s+(\w+)\s*\{")
# A pahole member line: "type name[dims];  /* OFF SIZE */" (offsets in hex).
DW_MEMBER = re.compile(
    r"^\s*((?:struct|union)\s+(\w+)\s+)?.*?(\w+)(?:\[\d+\])*;\s*/\*\s*(0x[0-9a-f]+|0)\s")


def source_comments(path):
    """{struct: [(member, comment offset or None, line number)]} of FILE."""
    out, cur, depth = {}, None, 0
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            if cur is None:
                m = SRC_STRUCT.match(line)
                if m:
                    cur, depth = m.group(1), 1
                    out[cur] = []
                continue
            if depth == 1:
                m = SRC_MEMBER.match(line)
                if m:
                    off = int(m.group(2), 16) if m.group(2) else None
                    out[cur].append((m.group(1), off, no))
            depth += line.count("{") - line.count("}")
            if depth == 0:
                cur = None
    return out


def dwarf_members(obj, struct):
    """{member: (offset, embedded struct name or None)} of STRUCT, with
    the members of anonymous unions and structures at their offsets."""
    r = subprocess.run(["pahole", "--hex", "-C", struct, obj],
                       capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        raise RuntimeError(f"pahole found no struct {struct}: {r.stderr.strip()}")
    out = {}
    for line in r.stdout.splitlines()[1:]:
        m = DW_MEMBER.match(line)
        if m:
            out[m.group(3)] = (int(m.group(4), 16), m.group(2))
    return out


def main(argv):
    ap = argparse.ArgumentParser(prog="layout-comments.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--cmd-of", default="init/main.o")
    ap.add_argument("--header", required=True, help="the header's source file")
    ap.add_argument("--include", required=True, help="its <...> name")
    ap.add_argument("struct", nargs="+")
    args = ap.parse_args(argv)

    src = source_comments(args.header)
    missing = [s for s in args.struct if s not in src]
    if missing:
        print(f"layout-comments.py: error: no struct {' '.join(missing)} in {args.header}",
              file=sys.stderr)
        return 2
    try:
        cmd = base_command(args.build_dir, args.cmd_of)
    except (OSError, RuntimeError) as e:
        print(f"layout-comments.py: error: {e}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="layout-") as tmp:
        obj = os.path.join(tmp, "layout.o")
        r = compile_c(cmd, args.build_dir, f"#include <{args.include}>\n",
                      ["-g", "-fno-eliminate-unused-debug-types", "-x", "c", "-c", "-o", obj, "-"])
        if r.returncode != 0:
            print(f"FAIL {args.include} does not compile (a static_assert?)")
            print(r.stderr)
            return 1
        # Each structure with the offset its comments count from.
        todo, bases, bad = [(s, 0) for s in args.struct], {}, 0
        while todo:
            name, base = todo.pop(0)
            if name in bases:
                continue
            bases[name] = base
            try:
                dw = dwarf_members(obj, name)
            except RuntimeError as e:
                print(f"FAIL {name}: {e}")
                bad += 1
                continue
            errors = []
            for member, off, no in src.get(name, []):
                if member not in dw:
                    errors.append(f"{args.header}:{no}: {name}.{member}: not in DWARF")
                elif off is None:
                    errors.append(f"{args.header}:{no}: {name}.{member}: no offset comment")
                elif off != base + dw[member][0]:
                    errors.append(f"{args.header}:{no}: {name}.{member}: comment says "
                                  f"{off:#x}, DWARF {base + dw[member][0]:#x}")
            for member, (off, sub) in dw.items():
                if sub and sub in src:
                    todo.append((sub, base + off))
            if errors:
                print(f"FAIL {name}: {len(errors)} stale or missing offset comment(s)")
                for e in errors:
                    print(f"  {e}")
                bad += 1
            else:
                print(f"ok {name}: {len(src.get(name, []))} offset comments match DWARF"
                      + (f" (from {base:#x})" if base else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
