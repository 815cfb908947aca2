#!/usr/bin/env python3
"""op_arity.py: each op's name and number of operands (-1: variadic), one per line, sorted,
from dialect-c/rt_ops.def (the rows' arity column) or from rt.irdl.mlir (the operands of
each irdl.operation), so that test/dialect/op-table.test can compare the two.

Usage: op_arity.py def FILE | op_arity.py irdl FILE"""
import re
import sys


def rows(text):
    for m in re.finditer(r'^RT_[A-Z]+\([A-Z0-9_]+,\s*"rt\.([a-z0-9_]+)",\s*\w+,\s*(-?\d+),',
                         text, re.M):
        yield m.group(1), int(m.group(2))


def irdl(text):
    for m in re.finditer(r'irdl\.operation @(\w+) \{(.*?)\n  \}', text, re.S):
        ops = re.search(r'irdl\.operands\((.*?)\)', m.group(2), re.S)
        names = [o for o in ops.group(1).split(",") if o.strip()] if ops else []
        yield m.group(1), -1 if any("variadic" in o for o in names) else len(names)


if __name__ == "__main__":
    kind, path = sys.argv[1], sys.argv[2]
    text = open(path).read()
    for name, arity in sorted(rows(text) if kind == "def" else irdl(text)):
        print(name, arity)
