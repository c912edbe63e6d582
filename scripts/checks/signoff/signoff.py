#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the sign-off chain of one git format-patch file.

Usage: signoff.py PATCH NAME EMAIL

NAME <EMAIL> is the identity that sends the series: the last
Signed-off-by must be it.  Prints one line per finding, then a summary
line; exits 1 if there is a finding, 2 on bad usage or an unreadable
patch.
"""

import email
import email.policy
import email.utils
import re
import sys

TRAILER = re.compile(r"^(Signed-off-by|Co-developed-by):\s*(.*?)\s*<([^<>\s]+)>\s*$")


def person(name, addr):
    return (" ".join(name.split()), addr.strip().lower())


def show(p):
    return f"{p[0]} <{p[1]}>"


def trailers(body):
    """The trailers of the commit message: the lines before the first '---'."""
    found = []
    for line in body.splitlines():
        if line.rstrip() == "---":
            break
        m = TRAILER.match(line)
        if m:
            found.append((m.group(1), person(m.group(2), m.group(3))))
        elif re.match(r"^(Signed-off-by|Co-developed-by):", line, re.I):
            found.append(("malformed", line.strip()))
    return found


def check(msg, sender):
    findings = []
    name, addr = email.utils.parseaddr(str(msg.get("From", "")))
    if not addr:
        return ["no From: author"], None, []
    author = person(name, addr)
    body = msg.get_payload(decode=True)
    if body is None:
        return ["no message body"], author, []
    chain = trailers(body.decode("utf-8", "replace"))
    sobs = [p for kind, p in chain if kind == "Signed-off-by"]
    for kind, p in chain:
        if kind == "malformed":
            findings.append(f"malformed trailer: {p}")
    if not sobs:
        findings.append("no Signed-off-by")
        return findings, author, chain
    if author not in sobs:
        findings.append(f"the author {show(author)} does not sign off")
    seen = set()
    for p in sobs:
        if p in seen:
            findings.append(f"{show(p)} signs off twice")
        seen.add(p)
    for i, (kind, p) in enumerate(chain):
        if kind != "Co-developed-by":
            continue
        if p == author:
            findings.append(f"the author {show(p)} is also Co-developed-by")
        nxt = chain[i + 1] if i + 1 < len(chain) else None
        if nxt != ("Signed-off-by", p):
            findings.append(f"Co-developed-by {show(p)} is not followed by their Signed-off-by")
    if sobs[-1] != sender:
        findings.append(f"the last Signed-off-by is {show(sobs[-1])}, not the sender {show(sender)}")
    return findings, author, chain


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        with open(argv[1], "rb") as f:
            msg = email.message_from_binary_file(f, policy=email.policy.default)
    except OSError as e:
        print(f"{argv[1]}: {e.strerror}", file=sys.stderr)
        return 2
    sender = person(argv[2], argv[3])
    findings, author, chain = check(msg, sender)
    for f in findings:
        print(f"FAIL {f}")
    if findings:
        print(f"{len(findings)} finding(s): {findings[0]}")
        return 1
    print(f"author {show(author)} signs off; {len(chain)} trailer(s), the last by the sender")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
