#!/usr/bin/env python3
"""contracts.py: docs/design.md's pass contracts, generated from the passes.

Each pass's contract (what it requires, keeps and breaks) is written once, in its file
(passes/<name>.c, `contract`), and remat-opt --help prints it. design.md holds it between

    <!-- contract remat-NAME (docs/contracts.py) -->
    ...
    <!-- end contract -->

which this script fills from remat-opt --help.

Usage: contracts.py BUILD [--check] [--design FILE]
  BUILD     the build folder (its bin/remat-opt)
  --check   change nothing: list the passes whose block differs or is missing, exit 1
            when there is one (test/docs/contracts.test)
  --design  the file (default: docs/design.md beside this script)"""
import os
import re
import subprocess
import sys


def contracts(remat_opt):
    """{argument: contract} from remat-opt --help: after `passes:`, a pass line
    `  --remat-X  summary` is followed by its contract, indented six spaces."""
    out = subprocess.run([remat_opt, "--help"], check=True, capture_output=True,
                         text=True).stdout
    lines = out.splitlines()
    lines = lines[lines.index("passes:"):]
    found = {}
    for i, line in enumerate(lines[:-1]):
        m = re.match(r"^  --(remat-[a-z-]+) ", line)
        if m and lines[i + 1].startswith("      "):
            found[m.group(1)] = lines[i + 1].strip()
    return found


def block(argument, text):
    return ("<!-- contract %s (docs/contracts.py) -->\n**Contract** (`remat-opt --help`): %s\n"
            "<!-- end contract -->" % (argument, text))


def main(argv):
    build = argv[0]
    check = "--check" in argv
    design = os.path.join(os.path.dirname(os.path.abspath(__file__)), "design.md")
    if "--design" in argv:
        design = argv[argv.index("--design") + 1]
    found = contracts(os.path.join(build, "bin", "remat-opt"))
    doc = open(design).read()
    stale = []
    for argument, text in found.items():
        pat = re.compile(r"<!-- contract %s \(docs/contracts\.py\) -->\n.*?<!-- end contract -->"
                         % re.escape(argument), re.S)
        m = pat.search(doc)
        if not m:
            stale.append("%s: no contract block in %s" % (argument, design))
            continue
        if m.group(0) != block(argument, text):
            stale.append("%s: the block differs from the pass's contract" % argument)
            doc = doc[:m.start()] + block(argument, text) + doc[m.end():]
    for s in stale:
        print(("contracts: stale: " if check else "contracts: updated: ") + s)
    if check:
        print("contracts: %d passes, %d stale" % (len(found), len(stale)))
        return 1 if stale else 0
    with open(design, "w") as f:
        f.write(doc)
    return 1 if any("no contract block" in s for s in stale) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
