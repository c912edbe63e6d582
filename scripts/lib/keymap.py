#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""keymap: the compile key of every object of a build directory, per tree.

step_build keeps, beside a tree's warning set, the map of the objects its
build directory holds at that tree to the key mcache.py gave their
compile (the compiler, its options and the preprocessed text without
line markers).  A build only compiles the objects that can differ from
the directory's last tree, so the map of the new tree is the old one,
less the objects that are gone, plus what this build compiled:

    keymap.py update --build-dir DIR --since MARKER --log MCACHE_LOG
                     [--from OLD_MAP] [--complete] --out NEW_MAP

MCACHE_LOG has one "EVENT KEY OBJ" line per compile (mcache.py).  An
object written after MARKER whose compile went through the launcher but
logged no key gets "?" (unless the old map has it: the marker is dated
back), as does one that a complete map lacks.  Objects that did not go through the launcher
(host programs, ld -r) are not in the map.

The first line says "# complete" when every object the directory holds
is accounted for: after a build from an empty directory (--complete), or
an update of a complete map; else "# partial".  The other lines are
"OBJ KEY", sorted.
"""

import argparse
import os
import sys


def read_map(path):
    """(complete, {obj: key}) of a map file."""
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or lines[0] not in ('# complete', '# partial'):
        raise ValueError('%s: not a key map' % path)
    objs = {}
    for line in lines[1:]:
        obj, key = line.split(' ')
        objs[obj] = key
    return lines[0] == '# complete', objs


def write_map(path, complete, objs):
    with open(path, 'w') as f:
        f.write('# complete\n' if complete else '# partial\n')
        for obj in sorted(objs):
            f.write('%s %s\n' % (obj, objs[obj]))


def launched(build_dir, obj):
    """Did kbuild compile OBJ through the launcher (its .cmd says so)?"""
    d, b = os.path.split(obj)
    try:
        with open(os.path.join(build_dir, d, '.%s.cmd' % b), errors='replace') as f:
            first = f.readline()
    except FileNotFoundError:
        return False
    return 'mcache.py' in first and ' -c ' in first


def update(args):
    complete, objs = False, {}
    if args.complete:
        complete = True
    elif args.old:
        complete, objs = read_map(args.old)
    objs = {o: k for o, k in objs.items()
            if os.path.exists(os.path.join(args.build_dir, o))}
    logged = {}
    try:
        with open(args.log) as f:
            for line in f:
                parts = line.split()
                if len(parts) != 3:
                    continue
                event, key, obj = parts
                obj = os.path.normpath(obj)
                logged[obj] = '?' if event == 'nokey' else key
    except FileNotFoundError:
        pass
    since = os.stat(args.since).st_mtime_ns
    for root, _dirs, files in os.walk(args.build_dir):
        for name in files:
            if not name.endswith('.o'):
                continue
            path = os.path.join(root, name)
            obj = os.path.relpath(path, args.build_dir)
            # An object the launcher wrote without a key: "?".  One the
            # old map has keeps its key (the marker is dated back, so
            # the last build's objects may look new); one a complete
            # map lacks was compiled before the map began.
            if obj in logged or obj in objs:
                continue
            if (complete or os.stat(path).st_mtime_ns >= since) and \
                    launched(args.build_dir, obj):
                logged[obj] = '?'
    for obj, key in logged.items():
        if os.path.exists(os.path.join(args.build_dir, obj)):
            objs[obj] = key
    write_map(args.out, complete, objs)
    return 0


def main(argv):
    p = argparse.ArgumentParser(prog='keymap.py')
    sub = p.add_subparsers(dest='cmd', required=True)
    u = sub.add_parser('update')
    u.add_argument('--build-dir', required=True)
    u.add_argument('--since', required=True)
    u.add_argument('--log', required=True)
    u.add_argument('--from', dest='old')
    u.add_argument('--complete', action='store_true')
    u.add_argument('--out', required=True)
    args = p.parse_args(argv)
    try:
        return update(args)
    except (OSError, ValueError) as e:
        sys.stderr.write('keymap.py: %s\n' % e)
        return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
