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
import sys

# kbuildcmd is shared by the units that compile with kbuild's flags.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from kbuildcmd import base_command, compile_c  # noqa: E402


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
        r = compile_c(cmd, args.build_dir, f"#include <{h}>\n",
                      ["-x", "c", "-c", "-o", "/dev/null", "-"])
        ok = r.returncode == 0 and not r.stderr.strip()
        print(f"{'ok' if ok else 'FAIL'} {h}")
        if not ok:
            failed.append((h, r.stderr))
    for h, err in failed:
        print(f"--- {h}\n{err}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
