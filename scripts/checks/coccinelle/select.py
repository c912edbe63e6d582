#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Name the semantic patches whose grep query some of the files can meet.

spatch skips a file whose text lacks every token of a semantic patch's
grep query ("spatch --parse-cocci" prints it); starting spatch costs far
more than that test.  QUERIES holds one "SCRIPT<TAB>QUERY" line per
semantic patch; a script is printed if its query is empty, is not a plain
disjunction "a || b || ..." of identifiers (it is then kept, to be safe),
or names an identifier that occurs as a word in one of FILES.
"""
import re
import sys

IDENT = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')


def main():
    if len(sys.argv) < 3:
        sys.stderr.write('usage: select.py QUERIES FILE...\n')
        return 2
    words = set()
    for path in sys.argv[2:]:
        with open(path, encoding='utf-8', errors='replace') as f:
            words.update(re.findall(r'[A-Za-z_][A-Za-z0-9_]*', f.read()))
    with open(sys.argv[1], encoding='utf-8') as f:
        for line in f:
            script, _, query = line.rstrip('\n').partition('\t')
            terms = [t.strip() for t in query.split('||')] if query.strip() else []
            if not terms or not all(IDENT.match(t) for t in terms) or words.intersection(terms):
                print(script)
    return 0


if __name__ == '__main__':
    sys.exit(main())
