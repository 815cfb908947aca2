#!/usr/bin/env python3
"""link_check.py: the layers' calls, read from their archives with llvm-nm, run downward.

Usage: link_check.py [--add LAYER=OBJECT]... NAME=ARCHIVE:SEES ...
  NAME=ARCHIVE:SEES  a layer, its archive (lib/layers/libremat_NAME.a) and the layers it
                     may call, comma-separated (itself first: CMakeLists.txt's
                     REMAT_LAYER_<name>_SEES)
  --add LAYER=OBJ    an object file counted as LAYER's too (the tests' planted calls)

Every global symbol a layer leaves undefined that another layer defines must be defined by
a layer it sees. Prints each layer's calls into each other layer ("A -> B: N symbols"),
then one line per call that runs the wrong way ("error: A calls S, defined in B, which A
does not see") and exits 1 when there is one. Symbols no layer defines (MLIR, libc) and
weak definitions (C++ inline functions and templates, emitted wherever they are used) are
not calls between layers."""
import subprocess
import sys


def symbols(path):
    """(defined, undefined): the global symbols PATH defines (not weakly) and needs."""
    out = subprocess.run(["llvm-nm", "-g", "-P", path], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2 or line.endswith(":"):
            continue  # an archive member's header
        name, kind = f[0], f[1]
        if kind == "U":
            undefined.add(name)
        elif kind not in "wWvV":
            defined.add(name)
    return defined, undefined


def main(argv):
    layers, sees, extra = [], {}, {}
    args = iter(argv)
    for a in args:
        if a == "--add":
            layer, obj = next(args).split("=", 1)
            extra.setdefault(layer, []).append(obj)
            continue
        name, rest = a.split("=", 1)
        archive, see = rest.rsplit(":", 1)
        layers.append((name, archive))
        sees[name] = set(see.split(","))
    defined_by, needs = {}, {}
    for name, archive in layers:
        need = set()
        for path in [archive] + extra.get(name, []):
            d, u = symbols(path)
            for s in d:
                defined_by.setdefault(s, set()).add(name)
            need |= u
        needs[name] = need
    errors, edges = [], {}
    for name, _ in layers:
        for s in sorted(needs[name]):
            owners = defined_by.get(s, set()) - {name}
            if not owners or name in defined_by.get(s, set()):
                continue
            for owner in sorted(owners):
                edges[(name, owner)] = edges.get((name, owner), 0) + 1
                if owner not in sees[name]:
                    errors.append("error: %s calls %s, defined in %s, which %s does not see"
                                  % (name, s, owner, name))
    for (a, b), n in sorted(edges.items()):
        print("%s -> %s: %d symbols" % (a, b, n))
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
