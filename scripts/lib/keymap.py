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

MCACHE_LOG has one "EVENT KEY OBJ" line per compile (mcache.py).  MARKER
is a file made just before the build: an object written after it whose
compile went through the launcher but logged no key gets "?", whatever
the old map said, as does one that a complete map lacks.  Only objects
that kbuild compiled through the launcher (their .cmd says so) are in
the map: not host programs, ld -r, nor the objects link-vmlinux.sh
compiles from what the link made (kallsyms, which no .cmd names).
Linker scripts (*.lds with a .cmd: the preprocessor's output, without
line markers) are in it too, keyed on their content.

An object that vmlinux.a has as a member, or that a module of
modules.order lists in its .mod file, is marked linked: an object that
no longer takes part in the link stays in the directory and the map,
but not linked.

The first line says "# complete" when every object the directory holds
is accounted for: after a build from an empty directory (--complete), or
an update of a complete map; else "# partial".  The other lines are
"OBJ KEY" or "OBJ KEY linked", sorted.
"""

import argparse
import hashlib
import os
import subprocess
import sys


def read_map(path):
    """(complete, {obj: key}, {linked obj}) of a map file."""
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or lines[0] not in ('# complete', '# partial'):
        raise ValueError('%s: not a key map' % path)
    objs, linked = {}, set()
    for line in lines[1:]:
        parts = line.split(' ')
        if len(parts) not in (2, 3) or parts[2:] not in ([], ['linked']):
            raise ValueError('%s: not a key map line: %s' % (path, line))
        objs[parts[0]] = parts[1]
        if len(parts) == 3:
            linked.add(parts[0])
    return lines[0] == '# complete', objs, linked


def write_map(path, complete, objs, linked):
    with open(path, 'w') as f:
        f.write('# complete\n' if complete else '# partial\n')
        for obj in sorted(objs):
            f.write('%s %s%s\n' % (obj, objs[obj], ' linked' if obj in linked else ''))


def linked_objects(build_dir):
    """The members of vmlinux.a and the objects of the modules that
    modules.order names (their .mod files)."""
    linked = set()
    archive = os.path.join(build_dir, 'vmlinux.a')
    if os.path.exists(archive):
        # A thin archive's members, as paths from where ar runs.
        r = subprocess.run(['ar', 't', 'vmlinux.a'], cwd=build_dir, stdout=subprocess.PIPE,
                           universal_newlines=True, check=True)
        linked.update(os.path.normpath(m) for m in r.stdout.split())
    try:
        with open(os.path.join(build_dir, 'modules.order')) as f:
            modules = f.read().split()
    except FileNotFoundError:
        modules = []
    for m in modules:
        with open(os.path.join(build_dir, m[:-2] + '.mod')) as f:
            linked.update(os.path.normpath(o) for o in f.read().split())
    return linked


def saved_command(build_dir, obj):
    """The first line of OBJ's .cmd file, or None."""
    d, b = os.path.split(obj)
    try:
        with open(os.path.join(build_dir, d, '.%s.cmd' % b), errors='replace') as f:
            return f.readline()
    except FileNotFoundError:
        return None


def launched(build_dir, obj):
    """Did kbuild compile OBJ through the launcher (its .cmd says so)?"""
    first = saved_command(build_dir, obj)
    return first is not None and 'mcache.py' in first and ' -c ' in first


def update(args):
    complete, objs = False, {}
    if args.complete:
        complete = True
    elif args.old:
        complete, objs, _ = read_map(args.old)
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
            path = os.path.join(root, name)
            obj = os.path.relpath(path, args.build_dir)
            if name.endswith('.lds'):
                if saved_command(args.build_dir, obj) is not None:
                    with open(path, 'rb') as f:
                        logged[obj] = 'lds-' + hashlib.sha256(f.read()).hexdigest()
                continue
            if not name.endswith('.o') or obj in logged:
                continue
            # An object the launcher wrote without a key, or one that a
            # complete map lacks (compiled before the map began): "?".
            if (os.stat(path).st_mtime_ns >= since or (complete and obj not in objs)) and \
                    launched(args.build_dir, obj):
                logged[obj] = '?'
    for obj, key in logged.items():
        if os.path.exists(os.path.join(args.build_dir, obj)) and \
                (key.startswith('lds-') or launched(args.build_dir, obj)):
            objs[obj] = key
    write_map(args.out, complete, objs, linked_objects(args.build_dir))
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
