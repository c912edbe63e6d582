#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare MAINTAINERS.fragment with the MAINTAINERS changes of a stack.

  compare.py BASE-MAINTAINERS TIP-MAINTAINERS FRAGMENT
  compare.py --patch PARENT-MAINTAINERS STEP-MAINTAINERS FRAGMENT

MAINTAINERS is read as entries: a title line followed by "X:<TAB>value"
lines, entries separated by blank lines.  The changes of the stack are,
per entry, the lines the tip has and the base has not (added) and the
other way round (removed).  The fragment names entries by their title,
each followed by its lines: "+X:..." added, "-X:..." removed, "X:..."
unchanged context; "#" lines and blank lines are comments.

The fragment must list exactly the added and removed lines of every
entry the stack changes, under that entry, and its context lines must
be in the entry at the tip.  Prints what differs, one line each; exits
1 if anything does, 0 if the fragment is exact.

With --patch, the two files are MAINTAINERS before and after one patch
of the stack: every line the patch adds to or removes from an entry
must be one that the fragment adds to or removes from that entry, so
that a wrong line is blamed on the patch that writes it, not on the
last one.
"""

import re
import sys

FIELD = re.compile(r"^[A-Z]:\t")


def entries(path):
    out, block = {}, []
    with open(path, encoding="utf-8", errors="replace") as fh:
        lines = fh.read().split("\n")
    for line in lines + [""]:
        if line.strip():
            block.append(line)
            continue
        if len(block) >= 2 and not FIELD.match(block[0]) and \
                all(FIELD.match(x) for x in block[1:]):
            out[block[0]] = block[1:]
        block = []
    return out


def fragment(path):
    frag, title = {}, None
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                title = None if not line.strip() else title
                continue
            sign = line[0] if line[0] in "+-" else " "
            body = line[1:] if sign != " " else line
            if FIELD.match(body):
                if title is None:
                    raise ValueError(f"{path}:{n}: a field line outside an entry: {line}")
                frag[title].append((sign, body, n))
            else:
                title = line
                frag.setdefault(title, [])
    return frag


def changes(base, tip, what, bad):
    """Per entry, the lines TIP adds and removes; entries it drops are bad."""
    changed = {}
    for title in sorted(set(base) | set(tip)):
        b, t = base.get(title, []), tip.get(title, [])
        added = [x for x in t if x not in b]
        removed = [x for x in b if x not in t]
        if title in base and title not in tip:
            bad.append(f"entry removed by {what}, not handled: {title}")
        if added or removed:
            changed[title] = (set(added), set(removed))
    return changed


def signed(frag, title):
    """The lines the fragment adds to and removes from the entry TITLE."""
    lines = frag.get(title, [])
    return ({body for sign, body, _ in lines if sign == "+"},
            {body for sign, body, _ in lines if sign == "-"})


def report(bad, changed, summary):
    """Print the findings and SUMMARY (a format); 1 if there are any."""
    for line in bad:
        print(line)
    print(summary.format(n=len(changed), entries="entry" if len(changed) == 1 else "entries",
                         add=sum(len(a) for a, _ in changed.values()),
                         rem=sum(len(r) for _, r in changed.values()), bad=len(bad)))
    return 1 if bad else 0


def patch_main(parent, step, frag):
    bad = []
    changed = changes(parent, step, "the patch", bad)
    for title, (added, removed) in sorted(changed.items()):
        f_add, f_rem = signed(frag, title)
        for x in sorted(added - f_add):
            bad.append(f"{title}: the patch adds '{x}', the fragment does not")
        for x in sorted(removed - f_rem):
            bad.append(f"{title}: the patch removes '{x}', the fragment does not")
    return report(bad, changed, "the patch changes {n} {entries} ({add} lines added, "
                  "{rem} removed); {bad} not in the fragment")


def main(argv):
    patch = argv[:1] == ["--patch"]
    if patch:
        argv = argv[1:]
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    base, tip = entries(argv[0]), entries(argv[1])
    try:
        frag = fragment(argv[2])
    except (OSError, ValueError) as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 2
    if patch:
        return patch_main(base, tip, frag)
    bad = []
    changed = changes(base, tip, "the stack", bad)
    for title, (added, removed) in sorted(changed.items()):
        if title not in frag:
            bad.append(f"{title}: changed by the stack ({len(added)} added, "
                       f"{len(removed)} removed) but not in the fragment")
            continue
        f_add, f_rem = signed(frag, title)
        for x in sorted(added - f_add):
            bad.append(f"{title}: the stack adds '{x}', the fragment does not")
        for x in sorted(f_add - added):
            bad.append(f"{title}: the fragment adds '{x}', the stack does not")
        for x in sorted(removed - f_rem):
            bad.append(f"{title}: the stack removes '{x}', the fragment does not")
        for x in sorted(f_rem - removed):
            bad.append(f"{title}: the fragment removes '{x}', the stack does not")
    for title, lines in sorted(frag.items()):
        if title not in changed:
            bad.append(f"{title}: in the fragment, but the stack does not change it")
        for sign, body, n in lines:
            if sign == " " and body not in tip.get(title, []):
                bad.append(f"{title}: context line {n} '{body}' is not in the entry at the tip")
    return report(bad, changed, "{n} {entries} changed ({add} lines added, {rem} removed); "
                  "{bad} difference(s)")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
