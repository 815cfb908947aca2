#!/usr/bin/env python3
"""peak_agree.py: the peak estimate of each split against the peak remat-run measures.

For each joint module FILE: remat-opt --remat-mincut[=OPTS] with the report, then
remat-run --check-split-all --peak on the split; per joint function one line
  FILE @f: estimate E, measured M (MODE): equal | DIFFERENT
and exit status 1 when any differs (or a tool fails on a file it accepted before).
Files remat-opt refuses are listed as skipped. Tools come from PATH.

usage: peak_agree.py [--opts OPTS] [--pre PASS] [--reference | --dense-views] [--work DIR]
                     FILE...
(remat-run runs compiled, with --reference or compiled with --dense-views)
"""
import os
import re
import subprocess
import sys


def main():
    args = sys.argv[1:]
    opts, pre, mode, work = "", [], [], os.environ.get("TMPDIR", "/tmp")
    files = []
    while args:
        a = args.pop(0)
        if a == "--opts":
            opts = "=" + args.pop(0)
        elif a == "--pre":
            pre.append(args.pop(0))
        elif a in ("--reference", "--dense-views"):
            mode = [a]
        elif a == "--work":
            work = args.pop(0)
        else:
            files.append(a)
    bad = 0
    compared = 0
    for f in files:
        split = os.path.join(work, os.path.basename(f) + ".peak-split.mlir")
        rep = os.path.join(work, os.path.basename(f) + ".peak-report.txt")
        if os.path.exists(rep):
            os.remove(rep)
        r = subprocess.run(["remat-opt", f] + pre +
                           ["--remat-mincut" + opts, "--report=" + rep, "-o", split],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print("%s: skipped (remat-opt refuses it)" % os.path.basename(f))
            continue
        est = {}
        name = None
        for line in open(rep):
            m = re.match(r"remat-mincut: @(\S+) ->", line)
            if m:
                name = m.group(1)
            m = re.match(r"\s+this split\s+(\d+)", line)
            if m and name:
                est[name] = int(m.group(1))
        if not est:
            print("%s: skipped (no joint function)" % os.path.basename(f))
            continue
        r = subprocess.run(["remat-run", f, "--check-split-all", "--split", split, "--peak"] +
                           mode, capture_output=True, text=True)
        got = dict((m.group(1), int(m.group(2))) for m in
                   re.finditer(r"measured peak @(\S+): split (\d+)", r.stdout))
        if r.returncode != 0 or set(got) != set(est):
            print("%s: remat-run failed or measured other functions (exit %d)\n%s%s" %
                  (os.path.basename(f), r.returncode, r.stdout, r.stderr))
            bad += 1
            continue
        for fn in sorted(est):
            same = est[fn] == got[fn]
            compared += 1
            bad += not same
            print("%s @%s: estimate %d, measured %d (%s): %s" %
                  (os.path.basename(f), fn, est[fn], got[fn],
                   mode[0][2:] if mode else "compiled", "equal" if same else "DIFFERENT"))
    print("peak_agree: %d splits compared, %d differ" % (compared, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
