#!/usr/bin/env python3
"""A stand-in for remat-import-torch (test/tools/import-cache.test): logs each call to
$FAKE_IMPORT_LOG, writes -o FILE and --expected DIR from its other arguments, names its
output on stdout, and fails for the model 'bad'."""
import os
import sys

args = sys.argv[1:]
with open(os.environ["FAKE_IMPORT_LOG"], "a") as f:
    f.write("called: " + " ".join(a for a in args if "/" not in a) + "\n")
if args and args[0] == "bad":
    sys.stderr.write("fake: unknown model 'bad'\n")
    sys.exit(1)
rest = [a for k, a in enumerate(args) if "/" not in a]
if "-o" in args:
    with open(args[args.index("-o") + 1], "w") as f:
        f.write("// traced: " + " ".join(rest) + "\n")
if "--expected" in args:
    d = args[args.index("--expected") + 1]
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "inputs.txt"), "w") as f:
        f.write("inputs of " + rest[0] + "\n")
print("wrote " + args[args.index("-o") + 1] if "-o" in args else "wrote stdout")
