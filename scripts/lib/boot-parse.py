#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parse and compare the console logs of the runtime gate.

  boot-parse.py parse --ready REGEX --out DIR CONSOLE-LOG
  boot-parse.py compare --output NAME... -- BASE-DIR DIR

parse reads what the kernel and scripts/boot/init.c printed and writes
into DIR: results (NAME<TAB>STATUS<TAB>DETAIL per test, in run order),
out/NAME (the lines the test printed) and problems (one per line).  A
problem is: no console line matching REGEX (KVM did not initialise),
/dev/kvm absent, the init not reaching its end (a crash, or QEMU's
timeout), a test without a result or one that timed out, and any kernel
panic, oops, BUG or WARNING, quoted with the lines around it.  Exits 1
if there is a problem.

compare judges DIR against the base's BASE-DIR: the same tests with the
same status each, and for every test NAME given with --output the same
printed lines.  Prints one line per test and the first differing output
line; exits 1 on any difference.
"""

import argparse
import os
import re
import sys

TAG = "series-boot: "
KERNEL_TROUBLE = re.compile(
    r"Kernel panic|Internal error: Oops|\bOops\b|\bBUG: |WARNING: CPU: |"
    r"Unable to handle kernel|Call trace:|\bstack segment\b")


def clean(line):
    # Serial consoles end lines with \r; QEMU may add escape sequences.
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", line).rstrip("\r\n")


def parse(args):
    with open(args.log, encoding="utf-8", errors="replace") as fh:
        lines = [clean(x) for x in fh]
    ready = re.compile(args.ready)
    problems, results, outputs, order, open_tests = [], {}, {}, [], set()
    kvm = None
    done = False
    for i, line in enumerate(lines):
        pos = line.find(TAG)
        if pos >= 0:
            msg = line[pos + len(TAG):]
            word, _, rest = msg.partition(" ")
            if word == "kvm":
                kvm = rest.strip()
            elif word == "begin":
                name = rest.strip()
                order.append(name)
                open_tests.add(name)
                outputs.setdefault(name, [])
            elif word == "out":
                name, _, text = rest.partition(": ")
                outputs.setdefault(name, []).append(text)
            elif word == "result":
                parts = rest.split(" ", 2)
                name = parts[0]
                status = parts[1] if len(parts) > 1 else "FAIL"
                detail = parts[2] if len(parts) > 2 else ""
                results[name] = (status, detail)
                open_tests.discard(name)
                if status == "TIMEOUT":
                    problems.append(f"{name}: timed out ({detail})")
            elif word == "done":
                done = True
            continue
        if KERNEL_TROUBLE.search(line):
            excerpt = " | ".join(lines[max(0, i - 2):i + 6])
            problems.append(f"kernel: {line.strip()} [log: {excerpt}]")
    if not any(ready.search(x) for x in lines):
        problems.append(f"KVM did not initialise: no console line matches '{args.ready}'"
                        f" [log tail: {' | '.join(lines[-8:])}]")
    if kvm is None:
        problems.append("the init did not start (no 'series-boot: kvm' line)"
                        f" [log tail: {' | '.join(lines[-8:])}]")
    elif kvm != "present":
        problems.append(f"/dev/kvm {kvm}")
    for name in sorted(open_tests):
        problems.append(f"{name}: no result")
    if kvm is not None and not done:
        problems.append(f"the init did not finish [log tail: {' | '.join(lines[-8:])}]")
    os.makedirs(os.path.join(args.out, "out"), exist_ok=True)
    with open(os.path.join(args.out, "results"), "w", encoding="utf-8") as fh:
        for name in order:
            status, detail = results.get(name, ("NONE", "no result"))
            fh.write(f"{name}\t{status}\t{detail}\n")
    for name, text in outputs.items():
        with open(os.path.join(args.out, "out", name), "w", encoding="utf-8") as fh:
            fh.writelines(f"{x}\n" for x in text)
    with open(os.path.join(args.out, "problems"), "w", encoding="utf-8") as fh:
        fh.writelines(f"{p}\n" for p in problems)
    for name in order:
        status, detail = results.get(name, ("NONE", "no result"))
        print(f"{name:28} {status:8} {detail}")
    for p in problems:
        print(f"PROBLEM {p}")
    return 1 if problems else 0


def read_results(d):
    res = {}
    with open(os.path.join(d, "results"), encoding="utf-8") as fh:
        for line in fh:
            name, status, detail = (line.rstrip("\n").split("\t") + ["", ""])[:3]
            res[name] = (status, detail)
    return res


def read_output(d, name):
    try:
        with open(os.path.join(d, "out", name), encoding="utf-8") as fh:
            return fh.read().splitlines()
    except FileNotFoundError:
        return None


def compare(args):
    base, mine = read_results(args.base), read_results(args.dir)
    bad = 0
    for name in list(base) + [n for n in mine if n not in base]:
        b = base.get(name, ("missing", ""))[0]
        m = mine.get(name, ("missing", ""))[0]
        same = b == m
        print(f"{name:28} base {b:8} this {m:8} {'same' if same else 'DIFFERS'}")
        bad += not same
    for name in args.output:
        b, m = read_output(args.base, name), read_output(args.dir, name)
        if b is None or m is None:
            print(f"output of {name}: missing at the {'base' if b is None else 'step'}")
            bad += 1
            continue
        if b == m:
            print(f"output of {name}: identical ({len(m)} lines)")
            continue
        bad += 1
        for i in range(max(len(b), len(m))):
            x = b[i] if i < len(b) else "<end>"
            y = m[i] if i < len(m) else "<end>"
            if x != y:
                print(f"output of {name} differs at line {i + 1}: base '{x}', this '{y}'")
                break
    return 1 if bad else 0


def main(argv):
    ap = argparse.ArgumentParser(prog="boot-parse.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("parse")
    p.add_argument("--ready", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("log")
    c = sub.add_parser("compare")
    c.add_argument("--output", nargs="*", default=[])
    c.add_argument("base")
    c.add_argument("dir")
    args = ap.parse_args(argv)
    return parse(args) if args.cmd == "parse" else compare(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
