#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise a bisect-check result directory.

  report.py RESULTS

RESULTS holds `meta` (key=value lines), `steps` (step, patch, commit,
subject; tab separated) and one directory per (step, arch, check):
NNNN/ARCH/CHECK/{status,summary,duration,log[,new-warnings]}.  Writes
RESULTS/summary.json and RESULTS/summary.txt and prints the text table.
"""

import json
import os
import sys

STATUSES = ("pass", "warn", "skip", "fail")


def read(path, default=""):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return default


def load(results):
    meta = {}
    for line in read(os.path.join(results, "meta")).splitlines():
        if "=" in line:
            key, val = line.split("=", 1)
            meta[key] = val
    steps = []
    for line in read(os.path.join(results, "steps")).splitlines():
        fields = line.split("\t")
        if len(fields) != 4:
            raise ValueError(f"{results}/steps: bad line {line!r}")
        step, patch, commit, subject = fields
        steps.append({"step": int(step), "patch": patch, "commit": commit,
                      "subject": subject, "results": []})
    for st in steps:
        sdir = os.path.join(results, f"{st['step']:04d}")
        if not os.path.isdir(sdir):
            continue
        for arch in sorted(os.listdir(sdir)):
            adir = os.path.join(sdir, arch)
            if not os.path.isdir(adir):
                continue
            for check in sorted(os.listdir(adir)):
                cdir = os.path.join(adir, check)
                status = read(os.path.join(cdir, "status")).strip()
                if status not in STATUSES:
                    raise ValueError(f"{cdir}/status: bad status {status!r}")
                new = [w.replace("\t", ": ", 1) for w in
                       read(os.path.join(cdir, "new-warnings")).splitlines() if w]
                st["results"].append({
                    "arch": arch, "check": check, "status": status,
                    "summary": read(os.path.join(cdir, "summary")).strip(),
                    "duration": int(read(os.path.join(cdir, "duration"), "0") or 0),
                    "log": os.path.relpath(os.path.join(cdir, "log"), results),
                    "new_warnings": new,
                })
    return meta, steps


def order_results(meta, steps):
    """Results in the order the runner ran them: by check, then arch."""
    checks = meta.get("checks", "").split()
    rank = {c: i for i, c in enumerate(checks)}
    for st in steps:
        st["results"].sort(key=lambda r: (rank.get(r["check"], len(rank)), r["arch"]))


def summarise(meta, steps):
    order_results(meta, steps)
    totals = {s: 0 for s in STATUSES}
    first_bad = None
    for st in steps:
        for r in st["results"]:
            totals[r["status"]] += 1
            if r["status"] == "fail" and first_bad is None and st["step"] > 0:
                first_bad = {"step": st["step"], "patch": st["patch"],
                             "arch": r["arch"], "check": r["check"],
                             "summary": r["summary"]}
    return {"meta": meta, "steps": steps, "totals": totals,
            "first_bad": first_bad}


def table(summary):
    cols = []
    for st in summary["steps"]:
        for r in st["results"]:
            key = (r["arch"], r["check"])
            if key not in cols:
                cols.append(key)
    cols.sort(key=lambda c: (c[0] != "all", c[0], c[1]))
    heads = [f"{a}/{c}" for a, c in cols]
    rows = []
    for st in summary["steps"]:
        cells = {(r["arch"], r["check"]): r["status"] for r in st["results"]}
        label = "base" if st["step"] == 0 else st["patch"]
        rows.append([str(st["step"]), label[:60]] + [cells.get(c, "-") for c in cols])
    header = ["#", "patch"] + heads
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip()]
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    t = summary["totals"]
    lines.append(f"totals: pass {t['pass']}, fail {t['fail']}, skip {t['skip']}, warn {t['warn']}")
    for st in summary["steps"]:
        for r in st["results"]:
            for w in r["new_warnings"]:
                lines.append(f"new warning: patch {st['step']} {r['arch']}: {w}")
    fb = summary["first_bad"]
    lines.append("first bad: none" if fb is None else
                 f"first bad: patch {fb['step']} ({fb['patch']}) on {fb['arch']}: "
                 f"{fb['check']}: {fb['summary']}")
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    results = argv[0]
    try:
        summary = summarise(*load(results))
    except (OSError, ValueError) as e:
        print(f"report.py: error: {e}", file=sys.stderr)
        return 1
    with open(os.path.join(results, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
        f.write("\n")
    text = table(summary)
    with open(os.path.join(results, "summary.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
