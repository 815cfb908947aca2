#!/usr/bin/env python3
"""Seeds for a harness from the repository's own tests: seeds.py KIND SRC DEST.

ir: every .mlir under test/ and examples/ (at most 32 KiB); inputs: the `--inputs`
files of test/runtime/*.test (split-file sections ending in .txt or .in); options:
every `--remat-NAME=OPTIONS` flag written in the tests, as `remat-NAME=OPTIONS`;
pipeline: the remat-opt pipelines of the tests on the modules fuzz_pipeline reads, and
the whole pipeline on each of them. Files are named after their origin, so a seed that
finds something can be traced back."""
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
elif kind == "pipeline":
    # fuzz_pipeline: MODULE [VALUES] then one PASS=OPTIONS line per pass. Each pipeline of
    # remat's passes that a test runs with remat-opt, once (on the first module fuzz_pipeline
    # knows that a test runs it on), and autodiff, checkpoint (ac=auto), mincut and fuse on
    # each module, the distributions in turn. Few enough to run in the bounded run's time.
    dirs = ("examples", "test/autodiff/Inputs", "test/checkpoint", "test/fuzz/Inputs",
            "test/mincut")
    modules = sorted(os.path.relpath(p, src) for d in dirs for p in files(d, (".mlir",))
                     if os.path.dirname(os.path.relpath(p, src)) == d)
    seen = set()
    for p in list(files("test", (".mlir", ".test"))):
        here = os.path.relpath(os.path.dirname(p), src)
        text = open(p, encoding="utf-8", errors="replace").read().replace("\\\n", " ")
        for line in re.findall(r"RUN:(.*remat-opt.*)", text):
            passes = "".join(n + ("=" + o.strip("'\"") if o else "") + "\n" for n, o in re.findall(
                r"--(remat-(?:autodiff|checkpoint|mincut|fuse))(?:=(\S+))?", line))
            for token in line.split():
                path = os.path.normpath(os.path.relpath(p, src) if token == "%s" else
                                        token.replace("%examples", "examples").replace("%S", here))
                if passes and path in modules and passes not in seen:
                    seen.add(passes)
                    put("%s.%d" % (os.path.basename(p), len(seen)), ("%s unit\n" % path + passes).encode())
    for k, m in enumerate(modules):
        values = ("unit", "wide", "special")[k % 3]
        put("all.%s.%s" % (m, values), ("%s %s\nremat-autodiff\nremat-checkpoint=ac=auto\n"
                                        "remat-mincut\nremat-fuse\n" % (m, values)).encode())
else:
    sys.exit("seeds.py: unknown kind " + kind)
