"""option_syntax.py EXAMPLES WORKDIR: each option of remat-run, remat-opt,
remat-translate and remat-gen that takes a value, given as `--opt VALUE` and as
`--opt=VALUE` (a short one as `-j 2` and `-j2`), must do the same thing: the same exit
status, stdout, stderr and output file. Options without a value refuse `--opt=VALUE`.
Prints one line per row that differs, and the totals (option-syntax.test)."""
import os
import shutil
import subprocess
import sys

examples, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
os.chdir(work)
joint = os.path.join(examples, "dropout.mlir")
subprocess.run(["remat-opt", "--remat-mincut", joint, "-o", "split.mlir"], check=True)
subprocess.run(["remat-opt", "--remat-mincut", "--remat-fuse", joint, "-o", "fused.mlir"],
               check=True)
with open("in.txt", "w") as f:
    f.write("tensor<2x2xf32> 1 2 3 4\ni64 1\ni64 2\ntensor<2x2xf32> 1 1 1 1\n")

FN = [joint, "--fn", "seed_dropout"]
SPLIT = [joint, "--check-split", "seed_dropout", "--split", "split.mlir"]
FD = [joint, "--check-fd", "seed_dropout"]
COMPILED = ["fused.mlir", "--check-compiled", "seed_dropout_fwd", "--no-cache"]
# (tool, arguments before the option, option, value, exit status, the file the run
# writes or the folder it fills, "DIR/")
ROWS = [
    ("remat-run", [joint], "--fn", "seed_dropout", 0, None),
    ("remat-run", FN, "--seed", "3", 0, None),
    ("remat-run", FN, "--values", "wide", 0, None),
    ("remat-run", FN, "--print", "full", 0, None),
    ("remat-run", FN, "--inputs", "in.txt", 0, None),
    ("remat-run", FN, "--outputs", "out.txt", 0, "out.txt"),
    ("remat-run", FN, "--device", "cpu", 0, None),
    ("remat-run", [joint, "--split", "split.mlir"], "--check-split", "seed_dropout", 0, None),
    ("remat-run", [joint, "--check-split", "seed_dropout"], "--split", "split.mlir", 0, None),
    ("remat-run", SPLIT, "--max-ulp", "2", 0, None),
    ("remat-run", [joint], "--check-fd", "seed_dropout", 0, None),
    ("remat-run", FD, "--wrt", "0", 0, None),
    ("remat-run", FD, "--fd-tol", "1e-3,1e-2", 0, None),
    ("remat-run", FD, "--fd-sample", "2", 0, None),
    ("remat-run", ["fused.mlir", "--no-cache"], "--check-compiled", "seed_dropout_fwd", 0, None),
    ("remat-run", COMPILED, "--jit-opt", "0", 0, None),
    ("remat-run", COMPILED, "-j", "1", 0, None),
    ("remat-run", ["fused.mlir", "--check-compiled", "seed_dropout_fwd", "--jit-stats"],
     "--cache-dir", "kc/", 0, "kc/"),
    # options of the GPU and of real ranks: read, then refused for what is missing here
    ("remat-run", FN, "--bench", "2", 1, None),
    ("remat-run", [joint], "--check-device", "seed_dropout", 1, None),
    ("remat-run", FN + ["--device", "cuda"], "--sm", "90", 1, None),
    ("remat-run", [joint, "--device", "cuda", "--check-device", "seed_dropout"], "--device-ulp",
     "8", 1, None),
    ("remat-run", FN + ["--device", "cuda", "--bench", "2"], "--peak-gbs", "100", 1, None),
    ("remat-run", [joint, "--unsharded", joint], "--check-sharded", "seed_dropout", 1, None),
    ("remat-run", [joint, "--check-sharded", "seed_dropout"], "--unsharded", joint, 1, None),
    ("remat-run", [joint, "--check-sharded", "seed_dropout", "--unsharded", joint], "--repeat",
     "2", 1, None),
    ("remat-opt", [joint, "--remat-mincut"], "-o", "o.mlir", 0, "o.mlir"),
    ("remat-opt", [joint, "--remat-checkpoint"], "--report", "r.txt", 0, "r.txt"),
    ("remat-opt", [joint, "--remat-mincut"], "--remat-dot", "g.dot", 0, "g.dot"),
    ("remat-opt", [joint, "--remat-mincut"], "--remat-timeline", "t.svg", 0, "t.svg"),
    ("remat-opt", [joint], "--pass-pipeline", "builtin.module(remat-mincut{ban=none},cse)", 0,
     None),
    ("remat-translate", ["fused.mlir"], "-o", "k.ptx", 0, "k.ptx"),
    ("remat-translate", ["fused.mlir", "--target", "host"], "--emit", "llvm", 0, None),
    ("remat-translate", ["fused.mlir"], "--target", "host", 0, None),
    ("remat-translate", ["fused.mlir", "-o", "/dev/null"], "--sm", "80", 0, None),
    ("remat-translate", ["fused.mlir", "-o", "/dev/null"], "--manifest", "m.txt", 0, "m.txt"),
    ("remat-translate", ["fused.mlir", "--no-cache"], "-j", "2", 0, None),
    ("remat-translate", ["fused.mlir", "--stats"], "--cache-dir", "tc/", 0, "tc/"),
    ("remat-gen", [], "--seed", "5", 0, None),
    ("remat-gen", [], "--count", "2", 0, None),
    ("remat-gen", [], "--values", "special", 0, None),
]
# options without a value: `--opt=VALUE` is an error, not the option
FLAGS = [
    ("remat-run", FN, ["--reference", "--quiet", "--peak", "--dense-views", "--no-cache",
                       "--jit-stats", "--check-split-all", "--check-compiled-all",
                       "--device-info", "--help"]),
    ("remat-opt", [joint], ["--print-ir-after-all", "--print-debuginfo", "--timing", "--threads",
                            "--split-input-file", "--verify-diagnostics", "--remat-report",
                            "--help"]),
    ("remat-translate", ["fused.mlir"], ["-O0", "-O3", "--no-cache", "--stats", "--help"]),
    ("remat-gen", [], ["--indexing", "--help"]),
]


def run(argv, out):
    if out and out.endswith("/"):
        shutil.rmtree(out, ignore_errors=True)
    elif out and os.path.exists(out):
        os.remove(out)
    p = subprocess.run(argv, capture_output=True)
    data = None
    if out and os.path.isdir(out):
        data = sorted(os.listdir(out))
    elif out and os.path.exists(out):
        data = open(out, "rb").read()
    return p.returncode, p.stdout, p.stderr, data


bad = 0
for tool, base, opt, value, status, out in ROWS:
    joined = opt + value if not opt.startswith("--") else opt + "=" + value
    a = run([tool] + base + [opt, value], out)
    b = run([tool] + base + [joined], out)
    if a != b or a[0] != status or (out and a[3] is None):
        bad += 1
        print(f"DIFFERS {tool} {opt}: {opt} {value} -> {a[0]} {a[2][-300:]!r}; "
              f"{joined} -> {b[0]} {b[2][-300:]!r} (expected exit {status})")
for tool, base, flags in FLAGS:
    for flag in flags:
        p = subprocess.run([tool] + base + [flag + "=1"], capture_output=True)
        want = f"{tool}: error: option '{flag}' takes no value\n".encode()
        if p.returncode != 1 or p.stderr != want:
            bad += 1
            print(f"ACCEPTED {tool} {flag}=1: exit {p.returncode} {p.stderr[-300:]!r}")
print(f"option-syntax: {len(ROWS)} options with a value, "
      f"{sum(len(f) for _, _, f in FLAGS)} without, {bad} wrong")
sys.exit(1 if bad else 0)
