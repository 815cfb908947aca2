#!/usr/bin/env python3
"""layout.py: README.md's folder list and docs/design.md's layers match the tree.

Usage: layout.py SRC_ROOT

Reads the layers from CMakeLists.txt (each `remat_layer(NAME FOLDER ...)` line, lowest
first) and checks:
  - README.md's list after "Folders, lowest layer first" names every layer's folder, in
    the layers' order, and every folder it names exists;
  - every folder of the tree holding C or C++ sources (outside test/, bench/, examples/
    and build folders) is named there, or lies inside a folder that is;
  - docs/design.md's "Code organisation" names each layer as `NAME` (`FOLDER/`...).
Prints one line per layer and one per problem; exits 1 on a problem."""
import os
import re
import sys


def main(root):
    cmake = open(os.path.join(root, "CMakeLists.txt")).read()
    layers = re.findall(r"^remat_layer\((\w+) ([\w/-]+)", cmake, re.M)
    readme = open(os.path.join(root, "README.md")).read()
    start = readme.index("Folders, lowest layer first")
    section = readme[start:readme.index("\n\n", readme.index("\n- ", start))]
    named = [p.rstrip("/") for p in re.findall(r"^- `([\w./-]+/)`", section, re.M)]
    named += [p.rstrip("/") for p in re.findall(r"`([\w.-]+(?:/[\w.-]+)*/)`", section)]
    design = open(os.path.join(root, "docs", "design.md")).read()
    org = design[design.index("## Code organisation"):]
    org = org[:org.index("\n## ")]
    problems = []
    order = []
    for name, folder in layers:
        print("layer %s: %s/" % (name, folder))
        if folder not in named:
            problems.append("README.md does not name the folder %s/ of layer %s" % (folder, name))
        else:
            order.append(named.index(folder))
        if not re.search(r"`%s`\s+\(`%s/" % (re.escape(name), re.escape(folder)), org):
            problems.append("docs/design.md \"Code organisation\" does not name layer %s as "
                            "`%s` (`%s/`...)" % (name, name, folder))
    if order != sorted(order):
        problems.append("README.md lists the layers' folders out of the layers' order")
    for p in sorted(set(named)):
        if not os.path.isdir(os.path.join(root, p)):
            problems.append("README.md names %s/, which is not a folder of the tree" % p)
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        top = rel.split(os.sep)[0]
        if rel != "." and (top.startswith(".") or top.startswith("build") or
                           top in ("test", "bench", "examples")):
            dirnames[:] = []
            continue
        if not any(f.endswith((".c", ".h", ".cpp")) for f in filenames):
            continue
        parts = rel.split(os.sep)
        if not any("/".join(parts[:k]) in named for k in range(1, len(parts) + 1)):
            problems.append("README.md does not name %s/, which holds sources" % rel)
    for p in problems:
        print("error: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
