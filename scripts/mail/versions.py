#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two versions of the series; check the cover letter's changelog.

  versions.py diff OLD NEW
  versions.py changelog COVER VERSION OLD NEW

OLD and NEW are directories holding a quilt 'series' file and 'patches/'
(git format-patch files).  Patches are matched by subject.  A patch of both
whose diff (git patch-id --stable) or commit message differs is 'changed',
one only in NEW is 'new', one only in OLD is 'dropped'.

diff prints one line per patch, 'STATUS<TAB>NUMBER<TAB>SUBJECT' (NUMBER in
NEW, or in OLD for a dropped one), STATUS one of same, changed, new,
dropped.

changelog checks that the section 'Changes in vVERSION:' of the cover
letter COVER (up to the next 'Changes in v' line or the shortlog) names
every patch that is not 'same': by its subject, or as 'patch N' with its
number in NEW (not for a dropped one).  Exits 1 if one is not named or the
section is missing, 2 on bad usage.
"""

import os
import re
import subprocess
import sys


def subject(text):
    m = re.search(r"^Subject: (.*(?:\n[ \t].*)*)", text, re.M)
    if not m:
        return None
    s = re.sub(r"\s*\n\s*", " ", m.group(1)).strip()
    return re.sub(r"^\[[^]]*\]\s*", "", s)


def message(text):
    """The commit message: after the headers, up to the '---' line."""
    body = text.split("\n\n", 1)[1] if "\n\n" in text else ""
    return body.split("\n---\n", 1)[0].strip()


def patch_id(path):
    with open(path, "rb") as f:
        out = subprocess.run(["git", "patch-id", "--stable"], stdin=f,
                             capture_output=True, check=True).stdout.decode()
    return out.split()[0] if out.strip() else ""


def load(d):
    patches = []
    with open(os.path.join(d, "series"), encoding="utf-8") as f:
        names = [line.split("#")[0].split()[0] for line in f
                 if line.split("#")[0].strip()]
    for n, name in enumerate(names, 1):
        path = os.path.join(d, "patches", name)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        s = subject(text)
        if s is None:
            raise ValueError(f"{path}: no Subject")
        patches.append({"n": n, "subject": s, "message": message(text),
                        "id": patch_id(path)})
    return patches


def diff(old_dir, new_dir):
    old, new = load(old_dir), load(new_dir)
    by_subject = {p["subject"]: p for p in old}
    seen, rows = set(), []
    for p in new:
        o = by_subject.get(p["subject"])
        if o is None:
            rows.append(("new", p["n"], p["subject"]))
            continue
        seen.add(p["subject"])
        same = o["id"] == p["id"] and o["message"] == p["message"]
        rows.append(("same" if same else "changed", p["n"], p["subject"]))
    rows += [("dropped", o["n"], o["subject"]) for o in old if o["subject"] not in seen]
    return rows


def section(cover_text, version):
    lines = cover_text.splitlines()
    head = f"Changes in v{version}:"
    if head not in lines:
        return None
    out = []
    for line in lines[lines.index(head) + 1:]:
        if line.startswith("Changes in v") or re.match(r"^\S.* \(\d+\):$", line):
            break
        out.append(line)
    return re.sub(r"\s+", " ", "\n".join(out))


def main(argv):
    try:
        if len(argv) == 3 and argv[0] == "diff":
            for row in diff(argv[1], argv[2]):
                print("\t".join(str(x) for x in row))
            return 0
        if len(argv) == 5 and argv[0] == "changelog" and argv[2].isdigit():
            with open(argv[1], encoding="utf-8") as f:
                text = section(f.read(), argv[2])
            if text is None:
                print(f"changelog: {argv[1]} has no 'Changes in v{argv[2]}:' section")
                return 1
            missing = 0
            for status, n, subj in diff(argv[3], argv[4]):
                if status == "same":
                    continue
                named = re.sub(r"\s+", " ", subj) in text or (
                    status != "dropped" and re.search(rf"\bpatch(es)? (\d+[-, ]+)*{n}\b", text))
                print(f"{'ok' if named else 'MISSING'}\t{status}\t{n}\t{subj}")
                missing += not named
            if missing:
                print(f"changelog: {missing} changed patch(es) not named in 'Changes in v{argv[2]}:'")
                return 1
            print(f"changelog: every changed patch is named in 'Changes in v{argv[2]}:'")
            return 0
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print(f"versions: {e}", file=sys.stderr)
        return 1
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
