#!/usr/bin/env python3
"""recompute_first.py SPLIT > OUT: the split with each @*_bwd reordered as --remat-mincut
emitted it before the just-in-time order: every op that does not depend on a tangent
(the recomputed and moved ops, constants) first, then the others, each group in its
order. Reads the printed form (one op per line)."""
import re
import sys

out, body, tangent = [], None, set()
for line in open(sys.argv[1]).read().split("\n"):
    m = re.match(r"\s*func\.func (?:private )?@\S+_bwd\((.*)", line)
    if m:
        tangent = set(re.findall(r"(%[\w.]+): [^,]*\{rt\.tangent\}", m.group(1)))
        out.append(line)
        body = ([], [])
        continue
    if body is not None and re.match(r"\s*return\b", line):
        out.extend(body[0] + body[1] + [line])
        body = None
        continue
    if body is None:
        out.append(line)
        continue
    lhs, _, rhs = line.partition("=") if re.match(r"\s*%", line) else ("", "", line)
    uses = set(re.findall(r"%[\w.]+", rhs))
    bw = bool(uses & tangent)
    if bw:
        tangent |= set(re.findall(r"%[\w.]+", lhs))
    body[bw].append(line)
print("\n".join(out), end="")
