#!/usr/bin/python3
"""A stand-in for remat-import-torch (test/tools/import-cache.test): logs each call to
$FAKE_IMPORT_LOG, writes -o FILE (a func.func named after the model) and --expected DIR
from its other arguments, runs remat-run from PATH for --check DIR as the importer does,
names its output on stdout, and fails for the model 'bad'."""
import os
import subprocess
import sys

args = sys.argv[1:]
with open(os.environ["FAKE_IMPORT_LOG"], "a") as f:
    f.write("called: " + " ".join(a for a in args if "/" not in a) + "\n")
if args and args[0] == "bad":
    sys.stderr.write("fake: unknown model 'bad'\n")
    sys.exit(1)
rest = [a for k, a in enumerate(args) if "/" not in a]
out = args[args.index("-o") + 1] if "-o" in args else None
if out:
    with open(out, "w") as f:
        f.write("// traced: " + " ".join(rest) + "\nfunc.func @" + rest[0] + "() {\n}\n")
if "--expected" in args:
    d = args[args.index("--expected") + 1]
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "inputs.txt"), "w") as f:
        f.write("inputs of " + rest[0] + "\n")
print("wrote " + out if out else "wrote stdout")
if "--check" in args:
    d = args[args.index("--check") + 1]
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "inputs.txt"), "w") as f:
        f.write("inputs\n")
    rc = subprocess.run(["remat-run", out, "--fn", rest[0], "--inputs",
                         os.path.join(d, "inputs.txt"), "--outputs", os.path.join(d, "rt.txt"),
                         "--print=none", "--reference"]).returncode
    print("check: ok" if rc == 0 else "check: FAILED")
    sys.exit(rc)
