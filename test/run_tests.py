#!/usr/bin/env python3
"""Runs the lit suite once per build directory and ends with one line,
`tests: N passed, N failed`, summed over the builds. Exit status 1 if anything failed.
`--fuzz DIR` adds the bounded fuzz runs of the fuzz build DIR (lit on DIR/test/fuzz).

Where the time goes: each lit run writes its results (with each test's elapsed time) to
BUILD/lit-results.json, and the run ends with the seconds per suite (test/<suite>/), the
summed time of its tests: tests run 2 at a time on 2 cores, so the sums add up to about
twice the wall time (bench/RESULTS.md, "Test time").

REMAT_IMPORT_CACHE: the PyTorch importer's outputs are shared between the builds of one
run (test/import_cache.py): the importer is Python, the same in every build, so the
second build's tests read what the first one traced; the directory is made per run.
REMAT_CACHE_DIR: the codegen's kernel cache (lib/codegen/codegen_cache.c), made per run
too: a kernel is compiled by LLVM once per run, and found again by every later test and
build that lowers the same unit (the sanitizer build instruments remat, not LLVM, and
remat's lowering still runs in full to make the key).

REMAT_TORCH_SERVER: a fork server for the importer (test/torch_server.py), started for
the run when torch imports: each importer run then skips Python's import of torch (about
2 s of its 2.3 s); test/import_cache.py runs the importer itself when it does not answer.

test/asan-skip.txt lists tests that the sanitizer build leaves out because other tests it
runs execute every C line they execute (bench/asan_cover.py); they run in the normal
build."""
import json
import os
import tempfile
import re
import shutil
import subprocess
import sys

LIT = os.environ.get("LIT", "/usr/lib/llvm-22/bin/lit")


def asan_skip_names():
    """The tests of test/asan-skip.txt ([] without the file)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "asan-skip.txt")
    try:
        with open(path) as f:
            return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    except OSError:
        return []


def asan_skip():
    """lit's --filter-out for the tests of test/asan-skip.txt (None: no list)."""
    names = asan_skip_names()
    return "^remat :: (" + "|".join(re.escape(n) for n in names) + ")$" if names else None


def sanitized(build):
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            return any(ln.startswith("REMAT_SANITIZE:BOOL=ON") for ln in f)
    except OSError:
        return False


def run_lit(build, sub="test"):
    print(f"== lit on {os.path.join(build, sub)}", flush=True)
    results = os.path.join(build, "lit-results.json")
    cmd = [LIT, "-sv", "-o", results, os.path.join(build, sub)]
    skip = asan_skip() if sanitized(build) else None
    if skip:
        cmd[1:1] = ["--filter-out", skip]
    proc = subprocess.run(
        cmd,
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
    suite_times(results)
    return counts


def suite_times(results):
    """Prints the summed elapsed seconds of each suite's tests, slowest first."""
    try:
        with open(results) as f:
            tests = json.load(f).get("tests", [])
    except (OSError, ValueError):
        return
    per = {}
    for t in tests:
        # "remat :: mincut/chain.mlir" -> mincut
        name = t.get("name", "").split(" :: ", 1)[-1]
        suite = name.split("/", 1)[0] if "/" in name else name
        per[suite] = per.get(suite, 0.0) + float(t.get("elapsed") or 0.0)
    total = sum(per.values())
    print("seconds per suite (summed over its tests): " + ", ".join(
        f"{k} {v:.0f}" for k, v in sorted(per.items(), key=lambda kv: -kv[1])) +
        f"; total {total:.0f}", flush=True)


def start_torch_server(made):
    """test/torch_server.py on a socket in a directory made for the run (appended to MADE),
    when torch is there and REMAT_TORCH_SERVER is not set; the Popen or None. Clients
    that come before it listens run the importer themselves."""
    if "REMAT_TORCH_SERVER" in os.environ or subprocess.run(
            ["/usr/bin/python3", "-c", "import importlib.util as u, sys; "
             "sys.exit(not u.find_spec('torch'))"]).returncode != 0:
        return None
    d = tempfile.mkdtemp(prefix="remat-torch-server-")
    made.append(d)
    os.environ["REMAT_TORCH_SERVER"] = os.path.join(d, "socket")
    here = os.path.dirname(os.path.abspath(__file__))
    return subprocess.Popen(["/usr/bin/python3", os.path.join(here, "torch_server.py"),
                             os.environ["REMAT_TORCH_SERVER"]], stdin=subprocess.DEVNULL)


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
    made = []
    for var, prefix in (("REMAT_IMPORT_CACHE", "remat-import-cache-"),
                        ("REMAT_CACHE_DIR", "remat-kernel-cache-")):
        if var not in os.environ:
            os.environ[var] = tempfile.mkdtemp(prefix=prefix)
            made.append(os.environ[var])
    server = start_torch_server(made)
    try:
        for b, sub in runs:
            c = run_lit(b, sub)
            print(f"{os.path.join(b, sub)}: {c['passed']} passed, {c['failed']} failed, "
                  f"{c['skipped']} skipped")
            for k in total:
                total[k] += c[k]
    finally:
        if server:
            server.terminate()
            server.wait()
        for d in made:
            shutil.rmtree(d, ignore_errors=True)
    print(f"tests: {total['passed']} passed, {total['failed']} failed, "
          f"{total['skipped']} skipped")
    return 1 if total["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
