#!/usr/bin/env python3
"""asan_cover.py: which tests the sanitizer build needs, by line coverage.

The sanitizer build finds memory errors and undefined behaviour in remat's C code; the
normal build runs every check. A test adds something under ASan only where it executes C
lines that no other test of that build executes. This measures each test's lines on a
--coverage build (tests chosen as the sanitizer build chooses them: lit --param
as-asan=1) and picks, greedily by cost per new line, a set of tests that together execute
every line the whole sanitizer run executes. The others go to test/asan-skip.txt, which
test/run_tests.py leaves out of the sanitizer build's lit run (they still run in the
normal build).

  cmake -S . -B cov -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS=--coverage \\
        -DCMAKE_CXX_FLAGS=--coverage -DCMAKE_EXE_LINKER_FLAGS=--coverage \\
        -DCMAKE_SHARED_LINKER_FLAGS=--coverage && cmake --build cov -j
  python3 bench/asan_cover.py cov build-asan/lit-results.json [--keep TEST...] > test/asan-skip.txt

build-asan/lit-results.json is a previous sanitizer run's (test/run_tests.py writes it):
each test's cost is its time there. --keep names tests that stay whatever their lines
(random-graph tests: their inputs, not their lines, are what finds memory errors).
Per-test .gcda files go under WORK/<n>/ (GCOV_PREFIX); the lines are gcov's JSON."""
import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIT = os.environ.get("LIT", "/usr/lib/llvm-22/bin/lit")
SOURCES = ("dialect-c/", "lib/", "passes/", "api/", "tools/")


def tests_of(results):
    """{test path under test/: seconds} for the tests the sanitizer run executed."""
    with open(results) as f:
        tests = json.load(f)["tests"]
    return {t["name"].split(" :: ", 1)[1]: float(t.get("elapsed") or 0)
            for t in tests if t["code"] in ("PASS", "XFAIL")}


def run_one(build, work, k, test):
    prefix = os.path.join(work, str(k))
    shutil.rmtree(prefix, ignore_errors=True)
    os.makedirs(prefix)
    env = dict(os.environ, GCOV_PREFIX=prefix, GCOV_PREFIX_STRIP="0")
    proc = subprocess.run([LIT, "-q", "--param", "as-asan=1",
                           os.path.join(build, "test", test)], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return proc.returncode, proc.stdout


def source_root(build):
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("CMAKE_HOME_DIRECTORY:"):
                return line.split("=", 1)[1].strip()
    return ROOT


def lines_of(build, prefix):
    """{(source, line)} executed by the processes that wrote .gcda files under prefix."""
    root = source_root(build)
    covered = set()
    gcdas = []
    for d, _, files in os.walk(prefix):
        for fn in files:
            if not fn.endswith(".gcda"):
                continue
            gcda = os.path.join(d, fn)
            rel = os.path.relpath(gcda, prefix)  # the object's absolute path, rooted
            gcno = os.path.join("/", rel)[:-len(".gcda")] + ".gcno"
            if os.path.exists(gcno):
                shutil.copyfile(gcno, gcda[:-len(".gcda")] + ".gcno")
                gcdas.append(gcda)
    if not gcdas:
        return covered
    out = subprocess.run(["gcov", "--json-format", "--stdout"] + gcdas, cwd=prefix,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    for chunk in out.splitlines():
        try:
            data = json.loads(chunk)
        except ValueError:
            continue
        cwd = data.get("current_working_directory", "")
        for f in data.get("files", []):
            src = os.path.relpath(os.path.join(cwd, f["file"]), root)
            if not src.startswith(SOURCES):
                continue
            for ln in f["lines"]:
                if ln["count"] > 0:
                    covered.add((src, ln["line_number"]))
    return covered


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("results")
    ap.add_argument("--work", default="/tmp/remat-asan-cover")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep", nargs="*", default=[])
    ap.add_argument("--lines", help="write each test's lines here (JSON) to reuse them")
    ap.add_argument("--from-lines", help="read the lines written by --lines, run nothing")
    a = ap.parse_args()
    cost = tests_of(a.results)
    names = sorted(cost)
    if a.from_lines:
        with open(a.from_lines) as f:
            per = {t: set(map(tuple, v)) for t, v in json.load(f).items()}
    else:
        def one(k):
            rc, out = run_one(a.build, a.work, k, names[k])
            if rc:
                print(f"asan_cover: {names[k]} failed on the coverage build:\n{out}",
                      file=sys.stderr)
            return names[k], lines_of(a.build, os.path.join(a.work, str(k)))
        with ThreadPoolExecutor(a.jobs) as pool:
            per = dict(pool.map(one, range(len(names))))
        if a.lines:
            with open(a.lines, "w") as f:
                json.dump({t: sorted(v) for t, v in per.items()}, f)
    universe = set().union(*per.values())
    chosen, covered = [], set()
    for t in a.keep:
        chosen.append(t)
        covered |= per.get(t, set())
    while covered != universe:
        best = max((t for t in names if t not in chosen and per[t] - covered),
                   key=lambda t: len(per[t] - covered) / max(cost[t], 0.05))
        chosen.append(best)
        covered |= per[best]
    skipped = sorted(t for t in names if t not in chosen)
    kept_s = sum(cost[t] for t in chosen)
    print("# Tests the sanitizer build leaves out (test/run_tests.py): every C line they")
    print("# execute is executed by a test that the sanitizer build runs. They run in the")
    print("# normal build. Made by bench/asan_cover.py (docs/design.md, 'What the sanitizer")
    print(f"# build runs'): {len(universe)} lines, {len(chosen)} tests kept "
          f"({kept_s:.0f} s), {len(skipped)} left out ({sum(cost.values()) - kept_s:.0f} s).")
    print("# Kept whatever their lines (random graphs: their inputs find memory errors): " +
          (" ".join(a.keep) or "none") + ".")
    for t in skipped:
        print(t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
