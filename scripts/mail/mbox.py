#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the series as one threaded mbox, ready for a mail client or b4.

  mbox.py --version N --recipients FILE --domain DOMAIN [--rfc-from SUBJECT]
          COVER PATCH...

COVER and PATCH... are git format-patch files (the cover letter first,
the patches in series order).  FILE holds the per-patch recipients that
get_maintainer.pl gave, one per line: 'PATCHNAME<TAB>to|cc<TAB>ADDRESS'.

The mbox on stdout:
- every message starts with an mbox 'From ' line; body lines that look like
  one are quoted mboxrd-style ('>From ');
- From is unfolded (Debian's b4 0.12 fails on a folded From:); To and Cc
  are folded between addresses to stay within 78 columns where they can
  (RFC 5322 allows no line over 998 characters);
- subjects read '[PATCH vN k/T]' (plain '[PATCH k/T]' for version 1, as
  git format-patch and b4 write a first posting); with --rfc-from, the
  patch whose subject is SUBJECT and those after it are a request for
  comments, '[RFC PATCH vN k/T]';
- Message-Id is derived from the content of the series and the version,
  so that the same series gives the same mbox; every patch is a reply to
  the cover letter (In-Reply-To and References), as 'git send-email
  --thread --no-chain-reply-to' sends them;
- the cover letter goes to every patch's To, with every Cc that is not a
  To.

Exits 1 on a file that is not a format-patch message or a SUBJECT that
no patch has, 2 on bad usage.
"""

import argparse
import email.utils
import hashlib
import os
import re
import sys

SUBJECT = re.compile(r"^\[PATCH(?: v\d+)? (\d+)/(\d+)\] ?(.*)$", re.S)


class MboxError(Exception):
    pass


def split_message(path):
    """(header list of (name, value), body text) of a format-patch file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head, sep, body = text.partition("\n\n")
    if not sep:
        raise MboxError(f"{path}: no blank line after the headers")
    lines = head.split("\n")
    if not lines[0].startswith("From "):
        raise MboxError(f"{path}: not a git format-patch file (no 'From ' line)")
    headers = []
    for line in lines[1:]:
        if line[:1] in (" ", "\t"):
            if not headers:
                raise MboxError(f"{path}: continuation line before any header")
            name, value = headers[-1]
            headers[-1] = (name, value + " " + line.strip())
        else:
            name, colon, value = line.partition(":")
            if not colon:
                raise MboxError(f"{path}: malformed header line '{line}'")
            headers.append((name, value.strip()))
    return headers, body


def header(headers, name, path):
    for n, v in headers:
        if n.lower() == name.lower():
            return v
    raise MboxError(f"{path}: no {name} header")


def quote_from(body):
    return re.sub(r"^(>*From )", r">\1", body, flags=re.M)


def address(addr):
    """An address line of get_maintainer, RFC 2047-encoded if not ASCII."""
    name, mail = email.utils.parseaddr(addr)
    if not mail:
        raise MboxError(f"recipients: not an address: '{addr}'")
    return email.utils.formataddr((name, mail), charset="utf-8")


def fold(name, addrs):
    """The header NAME: ADDRS..., folded after a comma before column 78."""
    lines, cur = [], f"{name}:"
    for i, a in enumerate(addrs):
        item = a + ("," if i < len(addrs) - 1 else "")
        if cur.endswith(":") or len(cur) + 1 + len(item) <= 78:
            cur += " " + item
        else:
            lines.append(cur)
            cur = " " + item
    lines.append(cur)
    return "\n".join(lines) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(add_help=True, description=__doc__.split("\n")[0])
    ap.add_argument("--version", type=int, required=True)
    ap.add_argument("--recipients", required=True)
    ap.add_argument("--domain", required=True)
    ap.add_argument("--rfc-from", metavar="SUBJECT")
    ap.add_argument("cover")
    ap.add_argument("patches", nargs="+")
    args = ap.parse_args(argv)
    if args.version < 1:
        ap.error("--version must be 1 or more")

    rcpt = {}
    with open(args.recipients, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3 or parts[1] not in ("to", "cc"):
                raise MboxError(f"{args.recipients}:{n}: want 'PATCH<TAB>to|cc<TAB>ADDRESS'")
            rcpt.setdefault(parts[0], {"to": [], "cc": []})[parts[1]].append(address(parts[2]))

    files = [args.cover] + args.patches
    total = len(args.patches)
    digest = hashlib.sha256()
    messages = []
    for k, path in enumerate(files):
        headers, body = split_message(path)
        subject = header(headers, "Subject", path)
        m = SUBJECT.match(subject)
        if not m:
            raise MboxError(f"{path}: subject '{subject}' is not '[PATCH k/N] ...'")
        if int(m.group(1)) != k or int(m.group(2)) != total:
            raise MboxError(f"{path}: subject numbers it {m.group(1)}/{m.group(2)}, "
                            f"its place in the series is {k}/{total}")
        messages.append((path, headers, body, m.group(3)))
        digest.update(open(path, "rb").read())
    tag = digest.hexdigest()[:16]
    rfc = len(messages)
    if args.rfc_from is not None:
        titles = [m[3] for m in messages]
        if args.rfc_from not in titles[1:]:
            raise MboxError(f"--rfc-from: no patch has the subject '{args.rfc_from}'")
        rfc = titles.index(args.rfc_from, 1)
    width = len(str(total))
    prefix = "PATCH" if args.version == 1 else f"PATCH v{args.version}"

    def msgid(k):
        return f"<sae-series-v{args.version}-{k:0{width}d}-{tag}@{args.domain}>"

    # The cover letter goes to everybody a patch goes to.
    cover_to, cover_cc = [], []
    for path in args.patches:
        r = rcpt.get(os.path.basename(path), {"to": [], "cc": []})
        cover_to += [a for a in r["to"] if a not in cover_to]
        cover_cc += [a for a in r["cc"] if a not in cover_cc]
    cover_cc = [a for a in cover_cc if a not in cover_to]

    out = sys.stdout
    for k, (path, headers, body, title) in enumerate(messages):
        if k == 0:
            to, cc = cover_to, cover_cc
        else:
            r = rcpt.get(os.path.basename(path), {"to": [], "cc": []})
            to, cc = r["to"], [a for a in r["cc"] if a not in r["to"]]
        out.write("From git@z Thu Jan  1 00:00:00 1970\n")
        for name, value in headers:
            if name.lower() == "subject":
                rfc_tag = "RFC " if k >= rfc else ""
                value = f"[{rfc_tag}{prefix} {k:0{width}d}/{total}] {title}"
            out.write(f"{name}: {value}\n")
        out.write(f"Message-Id: {msgid(k)}\n")
        if k > 0:
            out.write(f"In-Reply-To: {msgid(0)}\nReferences: {msgid(0)}\n")
        if to:
            out.write(fold("To", to))
        if cc:
            out.write(fold("Cc", cc))
        text = quote_from(body)
        if not text.endswith("\n"):
            text += "\n"
        out.write("\n" + text + "\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except MboxError as e:
        print(f"mbox: {e}", file=sys.stderr)
        sys.exit(1)
