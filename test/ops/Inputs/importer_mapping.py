"""Checks that every op of rt_ops.def has a PyTorch importer mapping or a documented
reason (tools/remat_torch/unmapped.py).

usage: importer_mapping.py RT_OPS_DEF REMAT_TORCH_DIR
Prints one line per op ("rt.add: mapped", "rt.iota: unmapped (reason)") and exits 1
naming each op with neither, each reason for an op the importer does emit, and each
reason for a name that is not an op of the table."""
import ast
import os
import re
import sys


def table_ops(path):
    """The op names of rt_ops.def's rows, in row order."""
    row = re.compile(r'^RT_[A-Z]+\(\s*[A-Z0-9_]+\s*,\s*"(rt\.[a-z0-9_]+)"')
    with open(path) as f:
        return [m.group(1) for line in f for m in [row.match(line)] if m]


def emitted(pkg):
    """Every "rt.NAME" string literal in the importer's Python code (unmapped.py aside)."""
    names = set()
    for fn in sorted(os.listdir(pkg)):
        if not fn.endswith(".py") or fn == "unmapped.py":
            continue
        with open(os.path.join(pkg, fn)) as f:
            tree = ast.parse(f.read(), fn)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    re.fullmatch(r"rt\.[a-z0-9_]+", node.value):
                names.add(node.value)
    return names


def main():
    table, pkg = sys.argv[1], sys.argv[2]
    ops = table_ops(table)
    if not ops:
        sys.exit("no rows in %s" % table)
    unmapped = {}
    exec(open(os.path.join(pkg, "unmapped.py")).read(), unmapped)
    reasons = unmapped["UNMAPPED"]
    out = emitted(pkg)
    errors = []
    for op in ops:
        if op in out and op in reasons:
            errors.append("%s: mapped by the importer, yet unmapped.py gives a reason" % op)
        elif op in out:
            print("%s: mapped" % op)
        elif op in reasons:
            print("%s: unmapped (%s)" % (op, reasons[op]))
        else:
            errors.append("%s: no importer mapping (tools/remat_torch) and no reason in "
                          "tools/remat_torch/unmapped.py" % op)
    for name in sorted(set(reasons) - set(ops)):
        errors.append("%s: unmapped.py gives a reason for an op the table does not have" % name)
    for e in errors:
        print("error: " + e)
    print("%d ops, %d mapped, %d unmapped with a reason, %d errors" %
          (len(ops), sum(op in out for op in ops), sum(op in reasons for op in ops), len(errors)))
    sys.exit(1 if errors else 0)


main()
