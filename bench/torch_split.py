#!/usr/bin/env python3
"""torch_split.py: torch's partition of a joint function, as a split remat can emit.

Usage: torch_split.py JOINT.mlir PARTITION.json > TAGGED.mlir

PARTITION.json is what `remat-import-torch --partition` writes (functorch 1.13's
min_cut_rematerialization_partition of the same joint graph): its saved values by rt
name. Every op of the joint function gets an rt.policy tag: "must_save" when torch
saves one of its results, "must_recompute" otherwise (the backward's own ops ignore a
recompute tag). `remat-opt --remat-mincut` then saves exactly what torch saves of what
the backward needs, and its report's "this split" is torch's partition on remat's
estimator, the backward recomputing just in time (bench/peak_objective.sh)."""
import json
import re
import sys

OP = re.compile(r'^(\s*)%([\w.$-]+)(?::\d+)? = "((?:rt|arith)\.\w+)"\(([^)]*)\)( \{)?')


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: torch_split.py JOINT.mlir PARTITION.json")
    src, part = sys.argv[1], sys.argv[2]
    saved = {s["value"] for s in json.load(open(part))["torch_partition"]["saved"]}
    out, found = [], set()
    for line in open(src):
        m = OP.match(line)
        if m:
            name = m.group(2)
            tag = "must_save" if name in saved else "must_recompute"
            found.add(name)
            end = m.end()
            if m.group(5):  # an attribute dictionary follows: add to it
                line = line[:end] + f'rt.policy = "{tag}", ' + line[end:]
            else:
                line = line[:end] + f' {{rt.policy = "{tag}"}}' + line[end:]
        out.append(line)
    args = set(re.findall(r"%([\w.$-]+): ", "".join(out)))
    missing = sorted(saved - found - args)
    if missing:
        sys.exit(f"torch_split.py: torch saves values {missing[:5]} that {src} does not define")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
