#!/usr/bin/env python3
"""peak_check.py: --remat-mincut=objective=peak's searches checked against each other.

For each FILE: remat-opt --remat-mincut=objective=peak with peak-search=exact,
=heuristic and =auto on the whole file, and =enumerate (every subset of the candidates, when within
its limit) on its top-level joint functions ten at a time, and alone where that module
is refused (remat-gen writes several to a file; the enumeration refuses the whole module
when one function is over its limit),
each with the report (the pass splits each function on its own, so one run per search
and file gives what one per function would, in fewer process starts). Per joint
function one line
  FILE @f: exact P/C, enumerate P/C | -, heuristic P/C, auto P/C, bytes P/C, bound B: ok
      | DIFFERENT | ABOVE | WORSE | BOUND | EMITTED | AUTO
DIFFERENT: the exact search's (peak, cost) is not the enumeration's; AUTO: auto's peak is
not the least (the exact search's), or, where its report does not say that its cost is
unproven, its (peak, cost) is not the exact search's, or it did not take the exact search
(checked up to 48 candidates, where auto runs it); ABOVE: a search's
peak is above objective=bytes's; WORSE: the heuristic found a better split than the exact
search; BOUND: the heuristic's lower bound B (the report's `bound B, gap G%`) is above the
least peak (the exact search's and the enumeration's), or the exact search's bound is not
its peak; EMITTED: a search's chosen peak is not the estimate of the split it emitted
("this split"). Exit status 1 on any of them, or when a tool fails. Tools come from PATH.

usage: peak_check.py [--work DIR] FILE..."""
import os
import re
import subprocess
import sys


def modules(path):
    """(name, text) per module to split: the file, or each top-level func.func."""
    text = open(path).read()
    starts = [m.start() for m in re.finditer(r"^func\.func @", text, re.M)]
    if len(starts) < 2:
        return [(os.path.basename(path), text)]
    out = []
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else len(text)
        name = re.match(r"func\.func @([\w.$-]+)", text[s:]).group(1)
        out.append((f"{os.path.basename(path)}.{name}", text[s:e]))
    return out


def enumerations(path, work, chunk=10):
    """(name, text, enumerate's rows or None) per module of PATH: the enumeration runs on
    CHUNK functions at a time, and on each alone where it refuses the chunk."""
    mods = modules(path)
    out = []
    for k in range(0, len(mods), chunk):
        group = mods[k:k + chunk]
        name = group[0][0] if len(group) == 1 else f"{group[0][0]}-{len(group)}"
        text = "".join(t for _, t in group)
        p = os.path.join(work, name + ".peak-check.mlir")
        with open(p, "w") as o:
            o.write(text)
        en = run(p, "enumerate", work)
        if en is not None or len(group) == 1:
            out.append((name, text, en))
        else:
            out += enumerations_of(group, work)
    return out


def enumerations_of(group, work):
    out = []
    for name, text in group:
        p = os.path.join(work, name + ".peak-check.mlir")
        with open(p, "w") as o:
            o.write(text)
        out.append((name, text, run(p, "enumerate", work)))
    return out


def rows(report):
    """{function: {row name: (peak, cost)}} of the objective-peak blocks, with "bound" and
    "this split" (the emitted split's estimated peak)."""
    res, cur = {}, None
    for line in report.splitlines():
        m = re.match(r"remat-mincut: @(\S+) ->", line)
        if m:
            cur = res.setdefault(m.group(1), {})
            continue
        if cur is None:
            continue
        m = re.match(r"    (chosen|objective=bytes|no remat|recompute all) +(\d+) +(\d+)$", line)
        if m:
            cur[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        m = re.match(r"  bound (\d+), gap ", line)
        if m:
            cur["bound"] = int(m.group(1))
            cur["cost proven"] = "not proven" not in line
        m = re.match(r"  objective peak: (\w+) search, (\d+) candidate", line)
        if m:
            cur["search"], cur["candidates"] = m.group(1), int(m.group(2))
        m = re.match(r"    this split +(\d+) ", line)
        if m:
            cur["this split"] = int(m.group(1))
    return res


def rows_of_module(text):
    """The joint functions of a module's text, in order."""
    return re.findall(r"^func\.func (?:\w+ )*@([\w.$-]+)", text, re.M)


def run(path, search, work):
    rep = os.path.join(work, os.path.basename(path) + f".{search}.txt")
    if os.path.exists(rep):
        os.remove(rep)
    p = subprocess.run(["remat-opt", path, f"--remat-mincut=objective=peak,peak-search={search}",
                        f"--report={rep}", "-o", os.devnull],
                       capture_output=True, text=True)
    if p.returncode:
        if search == "enumerate" and "more than its limit" in p.stderr:
            return None
        sys.stderr.write(p.stderr)
        raise SystemExit(f"peak_check: remat-opt failed on {path} (peak-search={search})")
    return rows(open(rep).read())


def main():
    args = sys.argv[1:]
    work = os.environ.get("TMPDIR", "/tmp")
    if args[:1] == ["--work"]:
        work, args = args[1], args[2:]
    n = enumerated = bad = 0
    for f in args:
        ex_all, he_all, au_all = (run(f, s, work) for s in ("exact", "heuristic", "auto"))
        for name, text, en in enumerations(f, work):
            for fn in [g for g in rows_of_module(text) if g in ex_all]:
                r = ex_all[fn]
                n += 1
                e = en.get(fn) if en is not None else None
                h, a = he_all[fn], au_all[fn]
                verdict = []
                if e is not None:
                    enumerated += 1
                    if e["chosen"] != r["chosen"]:
                        verdict.append("DIFFERENT")
                if r["chosen"][0] > r["objective=bytes"][0] or \
                        h["chosen"][0] > h["objective=bytes"][0]:
                    verdict.append("ABOVE")
                if h["chosen"] < r["chosen"]:
                    verdict.append("WORSE")
                least = min(r["chosen"][0], e["chosen"][0] if e is not None else r["chosen"][0])
                if h["bound"] > least or r["bound"] != r["chosen"][0]:
                    verdict.append("BOUND")
                if any(x["chosen"][0] != x["this split"] for x in [r, h, a] + ([e] if e else [])):
                    verdict.append("EMITTED")
                if a["candidates"] <= 48 and (
                        a["search"] != "exact" or a["chosen"][0] != r["chosen"][0] or
                        a["bound"] != r["chosen"][0] or a["chosen"][1] < r["chosen"][1] or
                        (a["cost proven"] and a["chosen"] != r["chosen"])):
                    verdict.append("AUTO")
                bad += bool(verdict)
                fmt = lambda pc: f"{pc[0]}/{pc[1]}"
                print(f"{name} @{fn}: exact {fmt(r['chosen'])}, enumerate "
                      f"{fmt(e['chosen']) if e else '-'}, heuristic {fmt(h['chosen'])}, auto "
                      f"{fmt(a['chosen'])}, bytes "
                      f"{fmt(r['objective=bytes'])}, bound {h['bound']}: "
                      f"{' '.join(verdict) or 'ok'}")
    print(f"peak_check: {n} functions, {enumerated} enumerated, {bad} bad")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
