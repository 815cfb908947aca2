#!/usr/bin/env python3
"""Runs the lit suite once per build directory and ends with one line,
`tests: N passed, N failed`, summed over the builds. Exit status 1 if anything failed.
`--fuzz DIR` adds the bounded fuzz runs of the fuzz build DIR (lit on DIR/test/fuzz)."""
import os
import re
import subprocess
import sys

LIT = os.environ.get("LIT", "/usr/lib/llvm-22/bin/lit")


def run_lit(build, sub="test"):
    print(f"== lit on {os.path.join(build, sub)}", flush=True)
    proc = subprocess.run(
        [LIT, "-sv", os.path.join(build, sub)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(proc.stdout)
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for line in proc.stdout.splitlines():
        m = re.match(r"\s*(Passed|Failed|Unsupported|Expectedly Failed|Unresolved|"
                     r"Timed Out|Unexpectedly Passed|Skipped|Excluded)\s*:\s*(\d+)", line)
        if not m:
            continue
        kind, n = m.group(1), int(m.group(2))
        if kind in ("Passed", "Expectedly Failed"):
            counts["passed"] += n
        elif kind in ("Unsupported", "Skipped", "Excluded"):
            counts["skipped"] += n
        else:
            counts["failed"] += n
    if proc.returncode != 0 and counts["failed"] == 0:
        counts["failed"] += 1  # lit itself failed (configuration error)
    return counts


def main():
    args = sys.argv[1:]
    runs = []  # (build, subdirectory)
    while args:
        a = args.pop(0)
        if a == "--fuzz" and args:
            runs.append((args.pop(0), os.path.join("test", "fuzz")))
        else:
            runs.append((a, "test"))
    runs = runs or [("build", "test")]
    total = {"passed": 0, "failed": 0, "skipped": 0}
    for b, sub in runs:
        c = run_lit(b, sub)
        print(f"{os.path.join(b, sub)}: {c['passed']} passed, {c['failed']} failed, "
              f"{c['skipped']} skipped")
        for k in total:
            total[k] += c[k]
    print(f"tests: {total['passed']} passed, {total['failed']} failed, "
          f"{total['skipped']} skipped")
    return 1 if total["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
