#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Dump the ABI that a set of installed UAPI headers defines.

  abi-dump.py --cc CC --include DIR [--header H]... [--prefix P]... OUT

Compiles one translation unit that includes every --header, with full
debug information, and writes to OUT:

  - every struct and union layout, as pahole prints it from DWARF (size,
    and offset and size of each member), sorted by type name;
  - the value of every object-like macro whose name starts with one of
    --prefix (KVM ioctl numbers, KVM_REG_ARM64_* and KVM_ARM_* ...),
    evaluated by the compiler for the target (no code runs), sorted.

Macros whose expansion is not an integer constant expression are left
out, and listed as such, so a macro that changes kind shows up too.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

DEFINE = re.compile(r"^#define ([A-Za-z_][A-Za-z0-9_]*) (.+)$")
VALUE = re.compile(r'^\s*\.ascii\s+"@@ ([A-Za-z0-9_]+) [$#]?(-?[0-9]+)"')
ERROR_LINE = re.compile(r"^[^:]*consts\.c:(\d+):\d+: error:")


def run(cmd):
    env = dict(os.environ, LANG="C", LC_ALL="C")
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def layouts(cc, include, tu, work):
    obj = os.path.join(work, "abi.o")
    r = run([cc, "-g", "-fno-eliminate-unused-debug-types", "-c", "-isystem",
             include, tu, "-o", obj])
    if r.returncode:
        raise RuntimeError(f"compiling the headers failed:\n{r.stderr}")
    r = run(["pahole", "--sort", obj])
    if r.returncode:
        raise RuntimeError(f"pahole failed:\n{r.stderr}")
    # Cacheline annotations are about the host's cache, not the ABI; the
    # size line stays, without its cacheline count.
    keep = [re.sub(r", cachelines: \d+", "", l) for l in r.stdout.splitlines()
            if not re.match(r"\s*/\* (--- cacheline|last cacheline)", l)]
    out, block = [], []
    for line in keep:
        block.append(line)
        if line.startswith("}"):
            out.append("\n".join(block))
            block = []
    return sorted(out)


def macros(cc, include, tu, prefixes):
    r = run([cc, "-E", "-dM", "-isystem", include, tu])
    if r.returncode:
        raise RuntimeError(f"preprocessing the headers failed:\n{r.stderr}")
    names = []
    for line in r.stdout.splitlines():
        m = DEFINE.match(line)
        if m and m.group(1).startswith(tuple(prefixes)):
            names.append(m.group(1))
    return sorted(set(names))


def constants(cc, include, headers, names, work):
    src = os.path.join(work, "consts.c")
    values, dropped = {}, set()
    for _ in range(20):
        todo = [n for n in names if n not in dropped]
        lines = [f"#include <{h}>" for h in headers]
        lines.append("void abi_constants(void);")
        lines.append("void abi_constants(void)")
        lines.append("{")
        first = len(lines) + 1
        for n in todo:
            lines.append(f'\tasm volatile(".ascii \\"@@ {n} %0\\"" :: '
                         f'"i" ((long long)({n})));')
        lines.append("}")
        with open(src, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        r = run([cc, "-S", "-O2", "-isystem", include, src, "-o", "-"])
        if r.returncode == 0:
            for line in r.stdout.splitlines():
                m = VALUE.match(line)
                if m:
                    values[m.group(1)] = int(m.group(2))
            missing = [n for n in todo if n not in values]
            if missing:
                raise RuntimeError(f"no value emitted for {', '.join(missing[:5])}")
            return values, sorted(dropped)
        bad = set()
        for line in r.stderr.splitlines():
            m = ERROR_LINE.match(line)
            if m and first <= int(m.group(1)) < first + len(todo):
                bad.add(todo[int(m.group(1)) - first])
        if not bad:
            raise RuntimeError(f"evaluating constants failed:\n{r.stderr[:2000]}")
        dropped |= bad
    raise RuntimeError("evaluating constants did not converge")


def main(argv):
    ap = argparse.ArgumentParser(prog="abi-dump.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cc", required=True, help="the target compiler")
    ap.add_argument("--include", required=True, help="installed UAPI include directory")
    ap.add_argument("--header", action="append", required=True, help="header to include")
    ap.add_argument("--prefix", action="append", default=[], help="macro name prefix")
    ap.add_argument("out")
    args = ap.parse_args(argv)
    try:
        with tempfile.TemporaryDirectory() as work:
            tu = os.path.join(work, "abi.c")
            with open(tu, "w", encoding="utf-8") as f:
                f.write("".join(f"#include <{h}>\n" for h in args.header))
            types = layouts(args.cc, args.include, tu, work)
            names = macros(args.cc, args.include, tu, args.prefix)
            values, dropped = constants(args.cc, args.include, args.header, names, work)
    except (OSError, RuntimeError) as e:
        print(f"abi-dump.py: error: {e}", file=sys.stderr)
        return 1
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(f"# headers: {' '.join(args.header)}\n")
        f.write(f"# {len(types)} types, {len(values)} constants, "
                f"{len(dropped)} non-constant macros\n")
        for t in types:
            f.write(t + "\n")
        for n in sorted(values):
            f.write(f"const {n} = {values[n]}\n")
        for n in dropped:
            f.write(f"macro {n} (not an integer constant)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
