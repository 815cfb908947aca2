#!/usr/bin/env python3
"""op_tests.py: every op of dialect-c/rt_ops.def is run by a test: some lit test under
test/ names it ("rt.NAME") and runs remat-run, which executes it on the reference
interpreter (its values) or refuses it (rt.extern). A new row fails here until a test of
its values exists (docs/design.md, "Adding an op").

Usage: op_tests.py RT_OPS_DEF TEST_DIR
Prints "N ops, each run by a test" or one line per op without one; exits 1 then."""
import os
import re
import sys


def main(table, tests):
    ops = re.findall(r'^RT_[A-Z]+\([A-Z0-9_]+,\s*"(rt\.[a-z0-9_]+)"', open(table).read(), re.M)
    runs = []
    for dirpath, _, files in os.walk(tests):
        for f in files:
            if f.endswith((".mlir", ".test")):
                text = open(os.path.join(dirpath, f), errors="replace").read()
                if re.search(r"RUN:.*remat-run", text):
                    runs.append(text)
    missing = [op for op in ops if not any('"%s"' % op in t for t in runs)]
    for op in missing:
        print("op_tests: '%s' is run by no test (no test names it and runs remat-run)" % op)
    if not missing:
        print("op_tests: %d ops, each run by a test" % len(ops))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
