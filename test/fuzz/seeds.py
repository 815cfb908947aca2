#!/usr/bin/env python3
"""Seeds for a harness from the repository's own tests: seeds.py KIND SRC DEST.

ir: every .mlir under test/ and examples/ (at most 32 KiB); inputs: the `--inputs`
files of test/runtime/*.test (split-file sections ending in .txt or .in); options:
every `--remat-NAME=OPTIONS` flag written in the tests, as `remat-NAME=OPTIONS`. Files
are named after their origin, so a seed that finds something can be traced back."""
import os
import re
import sys

kind, src, dest = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(dest, exist_ok=True)


def files(root, suffixes):
    for dirpath, dirnames, names in os.walk(os.path.join(src, root)):
        dirnames.sort()
        for n in sorted(names):
            if n.endswith(suffixes):
                yield os.path.join(dirpath, n)


def put(name, data):
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    with open(os.path.join(dest, name), "wb") as f:
        f.write(data)


if kind == "ir":
    for p in list(files("test", (".mlir",))) + list(files("examples", (".mlir",))):
        if os.path.getsize(p) <= 32768:
            with open(p, "rb") as f:
                put(os.path.relpath(p, src), f.read())
elif kind == "inputs":
    for p in files(os.path.join("test", "runtime"), (".test",)):
        text = open(p, encoding="utf-8", errors="replace").read()
        for m in re.finditer(r"^#--- (\S+\.(?:txt|in))\n(.*?)(?=^#--- |\Z)", text, re.M | re.S):
            put(os.path.relpath(p, src) + "." + m.group(1), m.group(2).encode())
elif kind == "options":
    seen = set()
    for p in list(files("test", (".mlir", ".test"))) + [os.path.join(src, "README.md")]:
        text = open(p, encoding="utf-8", errors="replace").read()
        for m in re.finditer(r"--(remat-[a-z-]+)=([^\s'\"|]+)", text):
            s = m.group(1) + "=" + m.group(2)
            if s not in seen:
                seen.add(s)
                put("%s.%d" % (os.path.basename(p), len(seen)), s.encode())
else:
    sys.exit("seeds.py: unknown kind " + kind)
