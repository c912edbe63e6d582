#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise a bisect-check result directory, or merge shards into one.

  report.py RESULTS
  report.py --merge RESULTS SHARD-RESULTS...

RESULTS holds `meta` (key=value lines), `steps` (step, patch, commit,
subject; tab separated) and one directory per (step, arch, check):
NNNN/ARCH/CHECK/{status,summary,duration,log[,new-warnings][,cached]}.
Writes RESULTS/summary.json, summary.txt, summary.md (for CI job
summaries), report.html (a static page, each cell linking to its log) and
review-check/NNNN.json for every patch (b4's per-patch check shape: a list
of {tool, status, summary, details}), and prints the text table.  With --merge, the result trees of the shards
of one run (`bisect --shard K/N`) are first merged into RESULTS, which
must not exist yet.
"""

import html
import json
import os
import shutil
import sys

STATUSES = ("pass", "warn", "skip", "fail", "interrupted")


def read(path, default=""):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return default


def read_meta(path):
    meta = {}
    for line in read(os.path.join(path, "meta")).splitlines():
        if "=" in line:
            key, val = line.split("=", 1)
            meta[key] = val
    return meta


def load(results):
    meta = read_meta(results)
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
                    "needs_build_s": int(read(os.path.join(cdir, "needs-build", "duration"), "0") or 0),
                    "log": os.path.relpath(os.path.join(cdir, "log"), results),
                    "new_warnings": new,
                    "cached": os.path.exists(os.path.join(cdir, "cached")),
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
            "first_bad": first_bad, "timings": timings(steps)}


def timings(steps):
    """Where the run's time went: seconds of the checks that ran (a verdict
    from the result cache costs nothing), by check unit, by arch, by step,
    the builds of the base and of the patches by arch, and the builds the
    runner made for units that need them (CHECK_NEEDS), by unit: part of
    that unit's time."""
    t = {"computed_s": 0, "computed": 0, "cached": 0, "by_check": {}, "by_arch": {},
         "by_step": {}, "build_base": {}, "build_patches": {}, "build_for_units": {}}
    for st in steps:
        step_s = 0
        for r in st["results"]:
            if r["cached"]:
                t["cached"] += 1
                continue
            d = r["duration"]
            t["computed"] += 1
            t["computed_s"] += d
            step_s += d
            t["by_check"][r["check"]] = t["by_check"].get(r["check"], 0) + d
            t["by_arch"][r["arch"]] = t["by_arch"].get(r["arch"], 0) + d
            if r["check"] == "build":
                key = "build_base" if st["step"] == 0 else "build_patches"
                t[key][r["arch"]] = t[key].get(r["arch"], 0) + d
            if r["needs_build_s"]:
                t["build_for_units"][r["check"]] = (t["build_for_units"].get(r["check"], 0)
                                                    + r["needs_build_s"])
        t["by_step"][str(st["step"])] = step_s
    return t


def time_line(summary):
    t = summary["timings"]
    top = sorted(t["by_check"].items(), key=lambda kv: -kv[1])
    return (f"time: {t['computed_s']} s in {t['computed']} checks run, {t['cached']} from the cache"
            + ("; by check: " + ", ".join(f"{c} {s} s" for c, s in top) if top else ""))


def columns(summary):
    """The (arch, check) pairs of the results: "all" first, then by arch."""
    cols = []
    for st in summary["steps"]:
        for r in st["results"]:
            key = (r["arch"], r["check"])
            if key not in cols:
                cols.append(key)
    cols.sort(key=lambda c: (c[0] != "all", c[0], c[1]))
    return cols


def table(summary):
    cols = columns(summary)
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
    lines.append(f"totals: pass {t['pass']}, fail {t['fail']}, skip {t['skip']}, warn {t['warn']}"
                 + (f", interrupted {t['interrupted']}" if t["interrupted"] else ""))
    lines.append(time_line(summary))
    for st in summary["steps"]:
        for r in st["results"]:
            for w in r["new_warnings"]:
                lines.append(f"new warning: patch {st['step']} {r['arch']}: {w}")
    fb = summary["first_bad"]
    lines.append("first bad: none" if fb is None else
                 f"first bad: patch {fb['step']} ({fb['patch']}) on {fb['arch']}: "
                 f"{fb['check']}: {fb['summary']}")
    return "\n".join(lines) + "\n"


def cell_text(r):
    return r["status"] + (" (cached)" if r["cached"] else "")


MD_MARK = {"pass": "pass", "warn": "WARN", "skip": "skip", "fail": "**FAIL**"}


def markdown(summary):
    """A Markdown summary for CI job summaries."""
    meta, cols = summary["meta"], columns(summary)
    fb, t = summary["first_bad"], summary["totals"]
    out = ["## Bisect-check of the series", ""]
    out.append("First bad: none" if fb is None else
               f"First bad: **patch {fb['step']}** (`{fb['patch']}`) on {fb['arch']}: "
               f"{fb['check']}: {fb['summary']}")
    out.append("")
    out.append(f"pass {t['pass']}, fail {t['fail']}, skip {t['skip']}, warn {t['warn']}; "
               f"base `{meta.get('base', '?')[:12]}`, duration {meta.get('duration', '?')} s")
    out.append("")
    out.append("| # | patch | " + " | ".join(f"{a}/{c}" for a, c in cols) + " |")
    out.append("|---|---|" + "---|" * len(cols))
    for st in summary["steps"]:
        cells = {(r["arch"], r["check"]): r["status"] for r in st["results"]}
        label = "base" if st["step"] == 0 else st["subject"]
        label = label.replace("|", "\\|")
        out.append(f"| {st['step']} | {label} | " +
                   " | ".join(MD_MARK.get(cells.get(c), "") for c in cols) + " |")
    warns = [(st["step"], r["arch"], w) for st in summary["steps"]
             for r in st["results"] for w in r["new_warnings"]]
    if warns:
        out += ["", "New warnings:", ""]
        out += [f"- patch {k} on {a}: `{w}`" for k, a, w in warns]
    return "\n".join(out) + "\n"


CSS = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; font-size: 90%; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.5em; text-align: left; }
th { background: #eee; }
td.cell { text-align: center; }
td.cell a { color: inherit; text-decoration: none; display: block; }
.pass { background: #c8e6c9; } .warn { background: #fff3b0; }
.skip { background: #e0e0e0; color: #555; } .fail { background: #ef9a9a; font-weight: bold; }
tr.firstbad td.patch { outline: 3px solid #c62828; }
tr.firstbad td.num::after { content: " first bad"; color: #c62828; font-weight: bold; }
ul.warnings { margin: 0.2em 0 0.2em 1em; font-family: monospace; color: #8a1c1c; }
table.meta { margin-top: 0.5em; } table.meta td { font-family: monospace; }
.cached { font-style: italic; }
td.time { text-align: right; font-family: monospace; }
"""


def html_page(summary):
    """The static HTML report: patches x (arch, check), each cell a link to its log."""
    meta, cols = summary["meta"], columns(summary)
    fb = summary["first_bad"]
    esc = html.escape
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           "<title>Bisect-check report</title>", f"<style>{CSS}</style></head><body>",
           "<h1>Bisect-check of the series</h1>"]
    if fb is None:
        out.append("<p id=\"first-bad\">First bad patch: none.</p>")
    else:
        out.append(f"<p id=\"first-bad\" class=\"fail\">First bad patch: {fb['step']} "
                   f"({esc(fb['patch'])}) on {esc(fb['arch'])}: {esc(fb['check'])}: "
                   f"{esc(fb['summary'])}</p>")
    t = summary["totals"]
    out.append(f"<p id=\"totals\">pass {t['pass']}, fail {t['fail']}, skip {t['skip']}, "
               f"warn {t['warn']}; cells in italics were taken from the result cache.</p>")
    out.append("<table id=\"matrix\"><thead><tr><th>#</th><th>patch</th><th>time (s)</th>")
    out += [f"<th>{esc(a)}<br>{esc(c)}</th>" for a, c in cols]
    out.append("</tr></thead><tbody>")
    for st in summary["steps"]:
        bad = fb is not None and fb["step"] == st["step"]
        cells = {(r["arch"], r["check"]): r for r in st["results"]}
        label = "base" if st["step"] == 0 else st["subject"]
        trcls = ' class="firstbad"' if bad else ""
        out.append(f"<tr{trcls}>"
                   f"<td class=\"num\">{st['step']}</td><td class=\"patch\">"
                   f"<span title=\"{esc(st['patch'])}\">{esc(label)}</span>")
        warns = [(r["arch"], w) for r in st["results"] for w in r["new_warnings"]]
        if warns:
            out.append("<ul class=\"warnings\">" +
                       "".join(f"<li>{esc(a)}: {esc(w)}</li>" for a, w in warns) + "</ul>")
        out.append(f"</td><td class=\"time\">{summary['timings']['by_step'].get(str(st['step']), 0)}</td>")
        for c in cols:
            r = cells.get(c)
            if r is None:
                out.append("<td class=\"cell\"></td>")
                continue
            cls = r["status"] + (" cached" if r["cached"] else "")
            took = "from the cache" if r["cached"] else f"{r['duration']} s"
            out.append(f"<td class=\"cell {cls}\"><a href=\"{esc(r['log'])}\" "
                       f"title=\"{esc(r['summary'])} ({took})\">{esc(cell_text(r))}</a></td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    tm = summary["timings"]
    out.append(f"<h2>Time</h2><p id=\"time\">{esc(time_line(summary))}</p>")
    out.append("<table id=\"timings\" class=\"meta\"><tr><th>what</th><th>seconds</th></tr>")
    rows = [(f"check {c}", s) for c, s in sorted(tm["by_check"].items(), key=lambda kv: -kv[1])]
    rows += [(f"build of the base, {a}", s) for a, s in sorted(tm["build_base"].items())]
    rows += [(f"builds of the patches, {a}", s) for a, s in sorted(tm["build_patches"].items())]
    rows += [(f"builds the runner made for check {c} (in its time)", s)
             for c, s in sorted(tm["build_for_units"].items())]
    out += [f"<tr><td>{esc(w)}</td><td class=\"time\">{s}</td></tr>" for w, s in rows]
    out.append("</table>")
    out.append("<h2>Run</h2><table id=\"meta\" class=\"meta\">")
    for key in sorted(meta):
        out.append(f"<tr><th>{esc(key)}</th><td>{esc(meta[key])}</td></tr>")
    out.append("</table></body></html>")
    return "\n".join(out) + "\n"


def merge(out, shards):
    """Merge the result trees of the shards of one run into OUT."""
    if os.path.exists(out):
        raise ValueError(f"{out} exists; merge writes a new result tree")
    metas = [read_meta(d) for d in shards]
    for d, m in zip(shards, metas):
        if not m:
            raise ValueError(f"{d}: not a result tree (no meta)")
        for key in ("base", "branch"):
            if m.get(key) != metas[0].get(key):
                raise ValueError(f"{d}: {key} {m.get(key)!r} differs from "
                                 f"{shards[0]}'s {metas[0].get(key)!r}: not shards of one run")
    steps = {}
    for d in shards:
        for line in read(os.path.join(d, "steps")).splitlines():
            fields = line.split("\t")
            if fields[0] in steps and steps[fields[0]] != line:
                raise ValueError(f"{d}/steps: step {fields[0]} differs between shards")
            steps[fields[0]] = line
    os.makedirs(out)
    owner = {}
    for d in shards:
        for step in sorted(os.listdir(d)):
            sdir = os.path.join(d, step)
            if not (step.isdigit() and os.path.isdir(sdir)):
                continue
            for unit in sorted(os.listdir(sdir)):
                src = os.path.join(sdir, unit)
                dst = os.path.join(out, step, unit)
                if not os.path.isdir(src):
                    if not os.path.exists(dst):
                        os.makedirs(os.path.dirname(dst), exist_ok=True)
                        shutil.copy2(src, dst)
                    continue
                for check in sorted(os.listdir(src)):
                    key = (step, unit, check)
                    if key in owner:
                        raise ValueError(f"{step}/{unit}/{check} is in both {owner[key]} and {d}")
                    owner[key] = d
                    shutil.copytree(os.path.join(src, check), os.path.join(dst, check))

    def union(key):
        seen = []
        for m in metas:
            for v in m.get(key, "").split():
                if v not in seen:
                    seen.append(v)
        return " ".join(seen)

    meta = dict(metas[0])
    meta["arches"] = union("arches")
    meta["checks"] = union("checks")
    meta["units"] = union("units")
    meta["shard"] = f"merged from {len(shards)} result tree(s): " + \
        " ".join(m.get("shard", "?") for m in metas)
    meta["started"] = min(m.get("started", "") for m in metas)
    meta["finished"] = max(m.get("finished", "") for m in metas)
    meta["duration"] = str(max(int(m.get("duration", "0") or 0) for m in metas))
    for m in metas:
        for key, val in m.items():
            if key.startswith(("toolchain.", "config.")):
                meta[key] = val
    with open(os.path.join(out, "meta"), "w", encoding="utf-8") as f:
        f.writelines(f"{k}={v}\n" for k, v in meta.items())
    with open(os.path.join(out, "steps"), "w", encoding="utf-8") as f:
        f.writelines(steps[k] + "\n" for k in sorted(steps, key=int))


def review_checks(results, summary):
    """Per patch, its verdicts as b4's per-patch check results."""
    out = {}
    for st in summary["steps"]:
        if st["step"] == 0:
            continue
        checks = []
        for r in st["results"]:
            tool = r["check"] if r["arch"] == "all" else f"{r['check']}/{r['arch']}"
            if r["new_warnings"]:
                details = "\n".join(r["new_warnings"])
            else:
                lines = read(os.path.join(results, r["log"])).splitlines()
                details = "\n".join(lines[-40:])
            checks.append({"tool": tool, "status": r["status"],
                           "summary": r["summary"], "details": details})
        out[st["step"]] = checks
    return out


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv):
    if len(argv) >= 3 and argv[0] == "--merge":
        results = argv[1]
        try:
            merge(results, argv[2:])
        except (OSError, ValueError) as e:
            print(f"report.py: error: {e}", file=sys.stderr)
            return 1
    elif len(argv) == 1 and not argv[0].startswith("-"):
        results = argv[0]
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        summary = summarise(*load(results))
    except (OSError, ValueError) as e:
        print(f"report.py: error: {e}", file=sys.stderr)
        return 1
    with open(os.path.join(results, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
        f.write("\n")
    text = table(summary)
    write(os.path.join(results, "summary.txt"), text)
    write(os.path.join(results, "summary.md"), markdown(summary))
    write(os.path.join(results, "report.html"), html_page(summary))
    rdir = os.path.join(results, "review-check")
    os.makedirs(rdir, exist_ok=True)
    for step, checks in review_checks(results, summary).items():
        write(os.path.join(rdir, f"{step:04d}.json"), json.dumps(checks, indent=1) + "\n")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
