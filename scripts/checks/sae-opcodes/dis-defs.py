#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Find instructions in an s390 disassembler table (dis-defs.h).

Usage: dis-defs.py DEFS OPCODE:NAME:FORMAT...

DEFS is the output of arch/s390/tools/gen_opcode_table.c.  OPCODE is the
instruction's opcode in hex, its major opcode (the first byte) and the
fragment that the major opcode's table lists, NAME its mnemonic and
FORMAT its format without the INSTR_ prefix.  Prints one line per
instruction; exits 1 if one is missing or differs, 2 if DEFS is not a
table this script reads.
"""

import re
import sys

ENTRY_RE = re.compile(
    r"^\s*\[\s*(\d+)\] = \{ \.opfrag = 0x([0-9a-f]+), \.format = INSTR_(\w+), "
    r"(?:\.name = \s*\{ ((?:'[a-z0-9]', )*)\}|\.offset = (LONG_INSN_\w+)) \}")
LONG_RE = re.compile(r"^\s*\[(LONG_INSN_\w+)\] = \{ ((?:'[a-z0-9]', )*)\}")
MAJOR_RE = re.compile(
    r"\{ \.opcode = 0x([0-9a-f]+), \.mask = 0x[0-9a-f]+, \.byte = \d+, "
    r"\.offset = (\d+), \.count = (\d+) \}")


def chars(text):
    return "".join(re.findall(r"'(.)'", text))


def parse(path):
    entries, longs, majors = {}, {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = ENTRY_RE.match(line)
            if m:
                idx, frag, fmt, name, long_ref = m.groups()
                entries[int(idx)] = (int(frag, 16), fmt, name, long_ref)
                continue
            m = LONG_RE.match(line)
            if m:
                longs[m.group(1)] = chars(m.group(2))
                continue
            m = MAJOR_RE.search(line)
            if m:
                majors[int(m.group(1), 16)] = (int(m.group(2)), int(m.group(3)))
    if not entries or not majors:
        raise ValueError(f"{path}: no opcode table entries or no major opcode ranges")
    return entries, longs, majors


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        entries, longs, majors = parse(argv[1])
        wanted = []
        for spec in argv[2:]:
            opcode, name, fmt = spec.split(":")
            if not re.fullmatch(r"[0-9a-f]{4}", opcode):
                raise ValueError(f"{spec}: OPCODE is four hex digits")
            wanted.append((int(opcode[:2], 16), int(opcode[2:], 16), name, fmt, opcode))
    except (OSError, ValueError) as e:
        print(e, file=sys.stderr)
        return 2
    bad = 0
    for major, frag, name, fmt, opcode in wanted:
        if major not in majors:
            print(f"{opcode} {name}: no table of major opcode {major:#04x}")
            bad += 1
            continue
        start, count = majors[major]
        found = [entries[i] for i in range(start, start + count)
                 if i in entries and entries[i][0] == frag]
        if not found:
            print(f"{opcode} {name}: not in the table of major opcode {major:#04x}")
            bad += 1
            continue
        _, got_fmt, short, long_ref = found[0]
        got_name = chars(short) if short is not None else longs.get(long_ref, f"?{long_ref}")
        if (got_name, got_fmt) != (name, fmt):
            print(f"{opcode} {name}: the table has {got_name} {got_fmt}, not {name} {fmt}")
            bad += 1
            continue
        print(f"{opcode} {name} {fmt}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
