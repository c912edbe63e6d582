#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compile kernel headers on their own, with an arch's real kernel flags.

  header-test.py --build-dir DIR [--cmd-of OBJ] HEADER...

Takes the command kbuild last used for OBJ (default init/main.o) from
DIR/<obj dir>/.<obj>.cmd, drops its dependency output, source and
object, and compiles a translation unit that only includes HEADER
(an <...> name such as arch/arm64/asm/esr.h), once per header, in DIR.
A header passes if it compiles without any diagnostic.  Prints one line
per header, then the compiler's output for the failures; exits 1 if any
header fails.  The command is split with shlex, never run by a shell.
"""

import argparse
import os
import shlex
import subprocess
import sys


def base_command(build_dir, obj):
    d, f = os.path.split(obj)
    path = os.path.join(build_dir, d, f".{f}.cmd")
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(f"savedcmd_{obj} := "):
                cmd = shlex.split(line.split(" := ", 1)[1])
                break
        else:
            raise RuntimeError(f"no savedcmd_{obj} in {path}")
    out, skip = [], False
    for arg in cmd:
        if skip:
            skip = False
            continue
        if arg == "-o":
            skip = True
            continue
        if arg.startswith("-Wp,-MMD") or arg == "-c" or arg.endswith(".c"):
            continue
        out.append(arg)
    return out


def main(argv):
    ap = argparse.ArgumentParser(prog="header-test.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--cmd-of", default="init/main.o")
    ap.add_argument("header", nargs="+")
    args = ap.parse_args(argv)
    try:
        cmd = base_command(args.build_dir, args.cmd_of)
    except (OSError, RuntimeError) as e:
        print(f"header-test.py: error: {e}", file=sys.stderr)
        return 1
    failed = []
    for h in args.header:
        r = subprocess.run(cmd + ["-x", "c", "-c", "-o", "/dev/null", "-"],
                           input=f"#include <{h}>\n", capture_output=True,
                           text=True, cwd=args.build_dir,
                           env=dict(os.environ, LANG="C", LC_ALL="C"))
        ok = r.returncode == 0 and not r.stderr.strip()
        print(f"{'ok' if ok else 'FAIL'} {h}")
        if not ok:
            failed.append((h, r.stderr))
    for h, err in failed:
        print(f"--- {h}\n{err}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
