"""asan-skip.test: test/asan-skip.txt names existing tests once each, run_tests.py's filter
leaves out exactly those, and bench/asan_cover.py's choice on a small made-up coverage."""
import json
import os
import re
import subprocess
import sys
import tempfile

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "test"))
import run_tests  # noqa: E402

names = run_tests.asan_skip_names()
missing = [n for n in names if not os.path.isfile(os.path.join(root, "test", n))]
dups = sorted({n for n in names if names.count(n) > 1})
print(f"asan-skip: {len(names)} tests, {len(missing)} missing, {len(dups)} repeated")
for n in missing + dups:
    print(f"  bad entry: {n}")
rx = re.compile(run_tests.asan_skip())
left_out = [n for n in names if rx.search(f"remat :: {n}")]
print(f"filter: leaves out {'all' if len(left_out) == len(names) else len(left_out)} of them; "
      f"keeps runtime/differential.test: {not rx.search('remat :: runtime/differential.test')}; "
      f"keeps a prefix of a listed name: {not rx.search('remat :: ' + names[0][:-1])}")

# A covers lines 1 and 2 at cost 10, B line 2 and C line 1 at cost 1 each, D line 3:
# B, C and D cover everything for 7 s, so A is left out; with --keep A, B and C go.
with tempfile.TemporaryDirectory() as d:
    lines = {"a.test": [["x.c", 1], ["x.c", 2]], "b.test": [["x.c", 2]],
             "c.test": [["x.c", 1]], "d.test": [["y.c", 3]]}
    res = {"tests": [{"name": f"remat :: {t}", "code": "PASS", "elapsed": e}
                     for t, e in (("a.test", 10), ("b.test", 1), ("c.test", 1), ("d.test", 5))]}
    with open(os.path.join(d, "lines.json"), "w") as f:
        json.dump(lines, f)
    with open(os.path.join(d, "results.json"), "w") as f:
        json.dump(res, f)
    tool = os.path.join(root, "bench", "asan_cover.py")
    for keep in ([], ["--keep", "a.test"]):
        out = subprocess.run([sys.executable, tool, d, os.path.join(d, "results.json"),
                              "--from-lines", os.path.join(d, "lines.json")] + keep,
                             capture_output=True, text=True, check=True).stdout
        print("left out:", " ".join(ln for ln in out.splitlines() if not ln.startswith("#")))
