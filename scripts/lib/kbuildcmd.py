# SPDX-License-Identifier: GPL-2.0
"""Compile a translation unit of our own with the flags kbuild used.

base_command() takes the command kbuild last used for an object from
its .cmd file in a build directory and drops the dependency output, the
source and the object; compile_c() runs such a command on C source
given as a string, in the build directory, with the C locale.  Used by
the units headers, declared-once and layout.  Commands are
split with shlex and never run by a shell.
"""

import os
import shlex
import subprocess


def base_command(build_dir, obj):
    """The compiler command of OBJ in BUILD_DIR, without -c, -o, source
    and dependency output.  Raises OSError or RuntimeError."""
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


def compile_c(cmd, build_dir, source, args):
    """Run CMD + ARGS with SOURCE on standard input (ARGS name "-" as
    the input) in BUILD_DIR; the subprocess.CompletedProcess."""
    return subprocess.run(cmd + args, input=source, capture_output=True, text=True,
                          cwd=build_dir, env=dict(os.environ, LANG="C", LC_ALL="C"))
