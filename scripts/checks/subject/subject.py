#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the subject prefix of a patch names an area it touches.

The prefix is every leading "WORD: " of the summary ("KVM: s390: gmap:"),
and the whole of it must be an entry of TABLE: a sub-prefix that the
table lacks ("KVM: s390: gnap:") is a finding, not part of the summary.

Usage: subject.py TABLE PATCH CHANGES

TABLE is configs/subjects.conf, PATCH a git format-patch file, CHANGES
the output of `git diff --name-status -M` for the patch.  Prints the
finding or what matched; exits 1 on a finding, 2 on bad usage or
unreadable input.
"""

import email
import email.policy
import fnmatch
import re
import sys


# Every leading "WORD: " of a summary: the subsystem, then its parts.
PREFIX_RE = re.compile(r"((?:[A-Za-z0-9_./-]+: )+)")


def load_table(path):
    table = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            prefix, sep, areas = line.partition(" = ")
            if not sep or not prefix.endswith(":") or not areas.split():
                raise ValueError(f"{path}:{n}: not 'PREFIX: = AREA...': {line}")
            table[prefix] = areas.split()
    return table


def touched(path):
    files = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            files.extend(fields[1:])
    return files


def in_area(name, area):
    pattern = area + "*" if area.endswith("/") else area
    return fnmatch.fnmatchcase(name, pattern)


def summary_line(patch):
    with open(patch, "rb") as f:
        msg = email.message_from_binary_file(f, policy=email.policy.default)
    subject = " ".join(str(msg.get("Subject", "")).split())
    return re.sub(r"^\[[^]]*\]\s*", "", subject)


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        table = load_table(argv[1])
        subject = summary_line(argv[2])
        files = touched(argv[3])
    except (OSError, ValueError) as e:
        print(e, file=sys.stderr)
        return 2
    m = PREFIX_RE.match(subject)
    prefix = m.group(1).rstrip() if m else ""
    if prefix not in table:
        known = [p for p in table if prefix.startswith(p + " ")]
        hint = f"; the table has '{max(known, key=len)}'" if known else ""
        print(f"unknown subject prefix '{prefix or subject.split(' ')[0]}' in '{subject}': "
              f"not an entry of configs/subjects.conf{hint}")
        return 1
    hits = [f for f in files if any(in_area(f, a) for a in table[prefix])]
    if not hits:
        print(f"'{prefix}' names none of the {len(files)} touched file(s) (first: {files[0] if files else 'none'})")
        return 1
    print(f"'{prefix}' names {len(hits)} of {len(files)} touched file(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
