#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""compare-keys: did a move keep every object's compile key?

    compare-keys.py --arch A --changes CHANGES [--texts MCACHE_DIR]
                    PARENT_MAP STEP_MAP

The maps are keymap.py's, of the parent's tree and the step's.  CHANGES
is the step's "git diff --name-status -M": an object whose .c or .S file
the step renames is compared with the object of the old name.  Every
object of either map must have the same key on both sides; an object
only one side has, one compiled without a key ("?"), or one that takes part
in the link (vmlinux.a, a module) on one side only fails too.
Prints "FAIL A: OBJ: why" for the first object that fails (with the
first line where the texts that mcache keeps differ), "differs OBJ" for
every other, and "ok A: N object(s), M renamed" when every key is kept.
Exit 0 if so, else 1.
"""

import argparse
import os
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'lib'))
import keymap  # noqa: E402


def renamed_objects(changes):
    """{new object: old object} for the .c and .S files a step renames."""
    objs = {}
    with open(changes) as f:
        for line in f:
            parts = line.rstrip('\n').split('\t')
            if len(parts) == 3 and parts[0].startswith('R'):
                old, new = parts[1], parts[2]
                if old.endswith(('.c', '.S')) and new.endswith(('.c', '.S')):
                    objs[new[:-2] + '.o'] = old[:-2] + '.o'
    return objs


def text(texts, key):
    if not texts or key == '?':
        return None
    try:
        with open(os.path.join(texts, key[:2], key[2:] + '.i.z'), 'rb') as f:
            return zlib.decompress(f.read()).decode('utf-8', 'replace').split('\n')
    except (OSError, zlib.error):
        return None


def first_difference(texts, pkey, skey):
    """Where the kept texts of two keys differ, as one line of words."""
    a, b = text(texts, pkey), text(texts, skey)
    if a is None or b is None:
        return 'the texts are not kept (%s)' % texts
    for i in range(max(len(a), len(b))):
        la = a[i] if i < len(a) else '<end>'
        lb = b[i] if i < len(b) else '<end>'
        if la != lb:
            return 'text line %d: parent "%s", step "%s"' % (i + 1, la.strip()[:160], lb.strip()[:160])
    return 'the same text: the compile options or the compiler differ'


def main(argv):
    p = argparse.ArgumentParser(prog='compare-keys.py')
    p.add_argument('--arch', required=True)
    p.add_argument('--changes', required=True)
    p.add_argument('--texts')
    p.add_argument('parent')
    p.add_argument('step')
    args = p.parse_args(argv)
    try:
        _, pmap, plinked = keymap.read_map(args.parent)
        _, smap, slinked = keymap.read_map(args.step)
        renamed = renamed_objects(args.changes)
    except (OSError, ValueError) as e:
        print('FAIL %s: %s' % (args.arch, e))
        return 1
    bad = []
    matched = set()
    for obj in sorted(smap):
        old = renamed.get(obj, obj)
        skey = smap[obj]
        if old not in pmap:
            bad.append((obj, 'built at the step, not at the parent'))
            continue
        matched.add(old)
        pkey = pmap[old]
        where = obj if old == obj else '%s (was %s)' % (obj, old)
        if skey == '?' or pkey == '?':
            bad.append((where, 'compiled without a key at the %s' % ('step' if skey == '?' else 'parent')))
        elif skey != pkey:
            bad.append((where, first_difference(args.texts, pkey, skey)))
        elif (old in plinked) != (obj in slinked):
            bad.append((where, 'linked at the %s only (vmlinux.a or a module)' %
                        ('parent' if old in plinked else 'step')))
    for obj in sorted(set(pmap) - matched):
        bad.append((obj, 'built at the parent, not at the step'))
    if bad:
        print('FAIL %s: %s: %s (%d object(s) differ)' % (args.arch, bad[0][0], bad[0][1], len(bad)))
        for obj, why in bad[1:]:
            print('differs %s: %s' % (obj, why))
        return 1
    print('ok %s: %d object(s), %d renamed' % (args.arch, len(smap),
                                                sum(1 for o in smap if o in renamed)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
