#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run sparse as "make C=1" would on what a patch touches, at the step
and at its parent, and report the warnings the step adds.

The objects: each C file the patch adds, changes or renames (with
changes) that this arch compiles, and for each touched header, or C
file compiled only as part of another, the first object (in sorted
order) whose dependencies name it.  Only objects the step's build links
count (the members of vmlinux.a and of the modules of modules.order):
a build directory that has been at other steps keeps their objects,
whose sources and dependencies may not be this step's.

The command of an object is kbuild's cmd_checksrc: sparse, CHECKFLAGS
(given), then the c_flags of the compiler command recorded in the
object's .cmd file, then the source.  The parent's command is the same,
with the paths into the kernel tree pointing into an extract of the
parent's tree instead; a source the patch moved is read from its old
path, and the include directories that are its own directory ($(src),
$(obj)) name its old one.  Warnings are compared as a set of (file base
name, message), positions dropped: code that moves keeps its warnings.

Exit status: 0 no new warning, 1 new warnings or sparse failed, 4 sparse
cannot check this arch (it refuses an argument kbuild gives it), 2 bad
usage.  The first line of standard output is the one-line summary.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys

POS = re.compile(r'^(?P<path>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)$')


def read_changes(path):
    """(status, old, new) per line of "git diff --name-status -M"."""
    out = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            parts = line.rstrip('\n').split('\t')
            if len(parts) < 2:
                continue
            old = parts[1]
            new = parts[2] if len(parts) > 2 else parts[1]
            out.append((parts[0], old, new))
    return out


def parse_cmd_file(path):
    """The compiler command, source and dependencies of a .o.cmd file."""
    cmd = source = None
    deps = []
    with open(path, encoding='utf-8', errors='replace') as f:
        in_deps = False
        for line in f:
            if line.startswith('savedcmd_'):
                cmd = line.split(' := ', 1)[1].strip()
            elif line.startswith('source_'):
                source = line.split(' := ', 1)[1].strip()
            elif line.startswith('deps_'):
                in_deps = True
            elif in_deps:
                s = line.strip().rstrip('\\').strip()
                if not s:
                    in_deps = False
                    continue
                if s.startswith('$(wildcard'):
                    continue
                deps.append(s)
    return cmd, source, deps


def c_flags(cmd, obj, source):
    """kbuild's c_flags: the compiler command minus the compiler, the
    "-c -o OBJ SOURCE" tail and any command chained after it."""
    words = shlex.split(cmd.split(' ; ', 1)[0])
    if (len(words) < 5 or words[-4:-2] != ['-c', '-o'] or words[-1] != source or
            os.path.normpath(words[-2]) != obj):
        raise ValueError('%s: the command does not end in "-c -o %s %s"' % (obj, obj, source))
    words = words[:-4]
    i = 0
    while i < len(words) and not words[i].startswith('-'):
        i += 1
    if i == 0:
        raise ValueError('%s: no compiler in the command' % obj)
    return words[i:]


def map_arg(word, tree, root, own_new, own_old):
    """One argument of the step's command as the parent needs it."""
    for prefix in ('-I', '-include', '-isystem', ''):
        if not word.startswith(prefix):
            continue
        path = word[len(prefix):]
        if not path:
            continue
        if own_new != own_old:
            if path in (tree + '/' + own_new, tree + '/' + own_new + '/'):
                return prefix + root + '/' + own_old
            if path in (own_new, './' + own_new):
                return prefix + own_old
        if path == tree or path.startswith(tree + '/'):
            return prefix + root + path[len(tree):]
        return word
    return word


def parent_args(flags, tree, root, new, old):
    """The parent's c_flags: -Wp,-MMD (the step's dependency file) dropped,
    paths into TREE moved to ROOT, a moved source's own directory to its
    old one.  The two-word forms ("-I DIR") are covered by mapping every
    word."""
    own_new, own_old = os.path.dirname(new), os.path.dirname(old)
    return [map_arg(w, tree, root, own_new, own_old) for w in flags
            if not w.startswith('-Wp,-M')]


def normalize(text, strip):
    """The warnings of sparse's output as (path, "base name: message"),
    one per warning or error, continuation lines joined, positions
    dropped; PATH relative to the tree it was read from."""
    found = []
    for line in text.splitlines():
        m = POS.match(line)
        if m:
            path = m.group('path')
            for s in strip:
                if path.startswith(s):
                    path = path[len(s):]
            found.append([path, '%s: %s' % (os.path.basename(path), m.group('msg'))])
        elif line[:1] in (' ', '\t') and found:
            found[-1][1] += ' | ' + line.strip()
    return [tuple(f) for f in found]


def linked_objects(build):
    """The objects the build in BUILD links: the members of vmlinux.a (a
    thin archive of the objects themselves: kbuild lists the parts of a
    composite object) and of each module in modules.order (its .mod
    file), paths normalized ("../" as kbuild names virt/kvm)."""
    if not os.path.exists(os.path.join(build, 'vmlinux.a')):
        raise ValueError('no vmlinux.a in %s: the build of this step did not link' % build)
    members = subprocess.run(['ar', 't', 'vmlinux.a'], cwd=build, check=True,
                             capture_output=True, text=True).stdout.split()
    order = os.path.join(build, 'modules.order')
    if os.path.exists(order):
        with open(order, encoding='utf-8') as f:
            for module in f.read().split():
                with open(os.path.join(build, module[:-2] + '.mod'), encoding='utf-8') as m:
                    members += m.read().split()
    return {os.path.normpath(m) for m in members}


def objects(build, tree, changes, log):
    """[(obj, new source, old source)] to check on this arch."""
    changes = [(st, old, new) for st, old, new in changes
               if not st.startswith('D') and st != 'R100' and new.endswith(('.c', '.h'))]
    if not changes:
        return []
    linked = linked_objects(build)

    def own(path):
        obj = path[:-2] + '.o'
        cmd = os.path.join(build, os.path.dirname(obj), '.' + os.path.basename(obj) + '.cmd')
        if not os.path.exists(cmd):
            return None
        if obj not in linked:
            log.append('%s: its object %s is not linked at this step (left by another)' % (path, obj))
            return None
        source = parse_cmd_file(cmd)[1]
        return obj if source and os.path.normpath(source) == tree + '/' + path else None

    picked, wanted = {}, []
    for st, old, new in changes:
        obj = own(new) if new.endswith('.c') else None
        if obj:
            picked.setdefault(obj, (new, old))
            log.append('%s: its object %s' % (new, obj))
        else:
            wanted.append(new)
    if wanted:
        users = {w: [] for w in wanted}
        paths = {tree + '/' + w: w for w in wanted}
        for dirpath, _, files in os.walk(build):
            for name in files:
                if not (name.startswith('.') and name.endswith('.o.cmd')):
                    continue
                _, source, deps = parse_cmd_file(os.path.join(dirpath, name))
                if not source or not source.endswith('.c'):
                    continue
                # Kbuild names what a Makefile reaches by "../" so.
                source = os.path.normpath(source)
                obj = os.path.relpath(os.path.join(dirpath, name[1:-4]), build)
                if obj not in linked:
                    # Left by another step, or a build helper such as
                    # .module-common.o.
                    continue
                for d in deps:
                    d = os.path.normpath(d)
                    if d in paths:
                        users[paths[d]].append((obj, source))
        for w in wanted:
            if not users[w]:
                log.append('%s: no object of this arch includes it' % w)
                continue
            obj, source = sorted(users[w])[0]
            rel = source[len(tree) + 1:] if source.startswith(tree + '/') else source
            log.append('%s: through %s (%d object(s) include it)' % (w, obj, len(users[w])))
            if obj not in picked:
                old = rel
                for st, o, n in changes:
                    if n == rel and st.startswith('R'):
                        old = o
                picked[obj] = (rel, old)
    return sorted((obj, new, old) for obj, (new, old) in picked.items())


def extract_parent(tree, parent, root, dirs):
    """The directories DIRS of the parent commit, under ROOT."""
    ls = subprocess.run(['git', '-C', tree, 'ls-tree', '--name-only', parent, '--'] + sorted(dirs),
                        check=True, capture_output=True, text=True).stdout.split()
    os.makedirs(root, exist_ok=True)
    archive = subprocess.Popen(['git', '-C', tree, 'archive', '--format=tar', parent, '--'] + ls,
                               stdout=subprocess.PIPE)
    subprocess.run(['tar', '-x', '-C', root], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        raise RuntimeError('git archive of the parent failed')


def run_sparse(args, cwd):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True, errors='replace')
    return p.returncode, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    ap.add_argument('--tree', required=True)
    ap.add_argument('--build', required=True)
    ap.add_argument('--parent', required=True, help='parent commit')
    ap.add_argument('--srcarch', required=True)
    ap.add_argument('--checkflags', required=True)
    ap.add_argument('--changes', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--sparse', default='sparse')
    a = ap.parse_args()
    tree = os.path.realpath(a.tree)
    a.out, a.build = os.path.abspath(a.out), os.path.abspath(a.build)
    log = []
    work = []
    changes = read_changes(a.changes)
    try:
        picked = objects(a.build, tree, changes, log)
    except (ValueError, OSError, subprocess.CalledProcessError) as e:
        print('cannot list the objects of this step: %s' % e)
        return 1
    for obj, new, old in picked:
        cmd, source, _ = parse_cmd_file(os.path.join(a.build, os.path.dirname(obj),
                                                     '.' + os.path.basename(obj) + '.cmd'))
        try:
            if not cmd or not source or os.path.normpath(source) != tree + '/' + new:
                raise ValueError('%s: its .cmd file has no compiler command for %s' % (obj, new))
            work.append((obj, new, old, c_flags(cmd, obj, source)))
        except ValueError as e:
            print('cannot make the sparse command: %s' % e)
            print('\n'.join(log))
            return 1
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, 'objects'), 'w', encoding='utf-8') as f:
        f.write(''.join('%s\t%s\t%s\n' % w[:3] for w in work))
    if not work:
        print('nothing touched is compiled on this arch')
        print('\n'.join(log))
        return 0
    root = os.path.join(a.out, 'parent-tree')
    dirs = {'include', 'arch/' + a.srcarch, 'virt'}
    for _, _, old, flags in work:
        dirs.add('/'.join(old.split('/')[:2]))
        for w in flags:
            for prefix in ('-I', '-include', '-isystem', ''):
                if w.startswith(prefix + tree + '/'):
                    rel = w[len(prefix) + len(tree) + 1:]
                    dirs.add('/'.join(rel.split('/')[:2]))
                    break
    extract_parent(tree, a.parent, root, dirs)
    check = shlex.split(a.checkflags)
    jobs = []
    added = {n for st, _, n in changes if st.startswith('A')}
    for obj, new, old, flags in work:
        jobs.append(('step', obj, [a.sparse] + check + flags + [tree + '/' + new]))
        if new in added:
            log.append('%s: %s is new: its warnings in the files the patch touches are new' % (obj, new))
            continue
        jobs.append(('parent', obj, [a.sparse] + check +
                     parent_args(flags, tree, root, new, old) + [root + '/' + old]))
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        results = list(ex.map(lambda j: run_sparse(j[2], a.build), jobs))
    sets = {'step': set(), 'parent': set()}
    touched = {n for st, _, n in changes if not st.startswith('D')}
    sources = {w[0]: w[1] for w in work}
    orphans = set()
    # The parent's outputs first: an object whose parent source cannot be
    # read is known before its step output is judged.
    done = sorted(zip(jobs, results), key=lambda d: d[0][0] == 'step')
    strip = [tree + '/', root + '/', a.build.rstrip('/') + '/', './']
    failed = None
    for (side, obj, args), (rc, text) in done:
        name = os.path.join(a.out, side, obj.replace('/', '%'))
        os.makedirs(os.path.dirname(name), exist_ok=True)
        with open(name, 'w', encoding='utf-8') as f:
            f.write('$ ' + shlex.join(args) + '\n' + text)
        with open(name + '.rc', 'w', encoding='utf-8') as f:
            f.write('%d\n' % rc)
        if rc != 0 and "invalid argument to '" in text:
            msg = next(ln for ln in text.splitlines() if "invalid argument to '" in ln)
            print('sparse cannot check this arch with kbuild\'s arguments: %s' % msg.strip())
            print('\n'.join(log))
            return 4
        if side == 'parent' and rc != 0 and 'unable to open' in text:
            why = next(ln for ln in text.splitlines() if 'unable to open' in ln).strip()
            log.append('%s: its parent source does not compile for this arch (%s): checked as new'
                       % (obj, why))
            orphans.add(obj)
            continue
        if rc != 0:
            failed = failed or 'sparse stopped with status %d on the %s\'s %s: %s' % (
                rc, side, obj, (text.strip().splitlines() or ['no output'])[-1])
            continue
        found = normalize(text, strip)
        if side == 'step' and (obj in orphans or sources[obj] in added):
            # No parent to compare with: what it reports in files the
            # patch does not touch (headers it includes) is not its own.
            other = [k for p, k in found if p not in touched]
            if other:
                log.append('%s: not counted, in files the patch does not touch: %s'
                           % (obj, '; '.join(sorted(set(other)))))
            found = [(p, k) for p, k in found if p in touched]
        sets[side] |= {k for _, k in found}
    for side in sets:
        with open(os.path.join(a.out, side + '-warnings'), 'w', encoding='utf-8') as f:
            f.write(''.join(w + '\n' for w in sorted(sets[side])))
    new = sorted(sets['step'] - sets['parent'])
    with open(os.path.join(a.out, 'new-warnings'), 'w', encoding='utf-8') as f:
        f.write(''.join(w + '\n' for w in new))
    if failed:
        print(failed)
    elif new:
        print('%d new sparse warning(s): %s' % (len(new), new[0]))
    else:
        print('no new sparse warning on %d object(s) (%d known at the step, %d at the parent)'
              % (len(work), len(sets['step']), len(sets['parent'])))
    print('\n'.join(log))
    print('\n'.join('new: ' + w for w in new))
    return 1 if failed or new else 0


if __name__ == '__main__':
    sys.exit(main())
