#!/usr/bin/python3
"""remat and torch side by side on the same joint graphs (issue 12's peers tables).

For each zoo model and depth: remat-import-torch writes the joint graph and times torch's
min-cut partitioner on it (functorch's min_cut_rematerialization_partition, median of
--runs calls); remat-opt --timing times --remat-mincut in process (MLIR's pass timer,
median of --runs processes) and dumps its flow network (dump-network=FILE); then
maxflow_peers solves every dumped network with remat's solver, Boost's Boykov-Kolmogorov
and push-relabel, and LEMON's Preflow, cold (the first solve of a fresh graph) and warm
(solves after the first on one graph), each the median of --runs. Prints two Markdown tables (stdout) with the
commands that made them and the machine's load.

    bench/peers/run.py [--build build] [--out build/bench-peers] [--layers 1,8,32,128]
                       [--models gpt,llama] [--runs 5]

Sizes (SIZES below) are wider than the test defaults; a partitioner's time depends on the
op count, which the width does not change, the bytes do. Wall times on a shared machine:
the load is printed; torch's CPU time is given too.
"""
import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
SIZES = {
    "gpt": ["--set", "batch=4", "--set", "seq=32", "--set", "d=64", "--set", "heads=4"],
    "llama": ["--set", "batch=4", "--set", "seq=32", "--set", "d=64", "--set", "heads=4",
              "--set", "hidden=176"],
    "mlp": ["--set", "batch=32", "--set", "d=64", "--set", "hidden=256"],
    "bert": ["--set", "batch=4", "--set", "seq=32", "--set", "d=64", "--set", "heads=4",
             "--set", "hidden=256"],
    "vit": ["--set", "batch=4", "--set", "tokens=65", "--set", "d=64", "--set", "heads=4"],
    "gpt_lm": ["--set", "batch=4", "--set", "seq=32", "--set", "d=64", "--set", "heads=4",
               "--set", "vocab=512"],
    "classifier": ["--set", "batch=32", "--set", "d=64", "--set", "hidden=256",
                   "--set", "classes=100"],
}


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          check=True, **kw)


def rel(path):
    return os.path.relpath(path, ROOT)


def quote(cmd):
    return " ".join(shlex.quote(c.replace(ROOT + "/", "")) for c in cmd)


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def mincut_time(stderr):
    m = re.search(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+RematMincut\s*$", stderr, re.M)
    if not m:
        raise RuntimeError("no RematMincut line in --timing output:\n" + stderr)
    return float(m.group(1))


def report_bytes(text):
    m = re.search(r"saved bytes: (\d+) \(rt\.param: (\d+);", text)
    if not m:
        raise RuntimeError("no 'saved bytes' line in the report:\n" + text)
    return int(m.group(1)), int(m.group(2))


def kib(b):
    return f"{b / 1024:.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--layers", default="1,8,32,128")
    ap.add_argument("--models", default="gpt,llama")
    ap.add_argument("--runs", type=int, default=5, help="remat-opt runs and max-flow solves")
    ap.add_argument("--torch-runs", type=int, default=3, help="torch partitioner calls")
    ap.add_argument("--torch-runs-deep", type=int, default=1,
                    help="torch partitioner calls above 32 layers (minutes each)")
    args = ap.parse_args()
    build = os.path.realpath(args.build)
    out = os.path.realpath(args.out or os.path.join(build, "bench-peers"))
    os.makedirs(out, exist_ok=True)
    importer = os.path.join(ROOT, "tools", "remat-import-torch")
    opt = os.path.join(build, "bin", "remat-opt")
    peers = os.path.join(build, "bench-peers", "maxflow_peers")
    if not os.path.exists(peers):
        sh([os.path.join(ROOT, "bench", "peers", "build.sh"), build])

    load_before = load()
    rows, flows, cmds = [], [], []
    for model in args.models.split(","):
        for n in [int(x) for x in args.layers.split(",")]:
            base = os.path.join(out, f"{model}-{n}")
            imp = [importer, model, "--layers", str(n)] + SIZES.get(model, []) + [
                "-o", base + ".mlir", "--partition", base + ".json",
                "--partition-runs", str(args.torch_runs if n <= 32 else args.torch_runs_deep)]
            t0 = time.time()
            sh(imp)
            t_import = time.time() - t0
            info = json.load(open(base + ".json"))
            tp = info["torch_partition"]
            cut = [opt, "--timing", "--report=" + base + ".report",
                   "--remat-mincut=dump-network=" + base + ".dimacs", base + ".mlir",
                   "-o", base + ".split.mlir"]
            times = []
            for _ in range(args.runs):
                times.append(mincut_time(sh(cut).stderr))
            saved, params = report_bytes(open(base + ".report").read())
            r_time = statistics.median(times)
            rows.append({
                "model": model, "layers": n, "aten": info["aten_ops"], "rt": info["rt_ops"],
                "torch_s": tp["median_s"], "torch_cpu": tp["median_cpu_s"], "remat_s": r_time,
                "torch_act": tp["saved_activation_bytes"], "torch_par": tp["saved_param_bytes"],
                "remat_act": saved - params, "remat_par": params, "import_s": t_import,
                "torch_runs": tp["runs"],
            })
            cmds.append((quote(imp), quote(cut)))
            flows.append(base + ".dimacs")
            print(f"{model} x{n}: torch {tp['median_s']:.3f} s, remat {r_time:.4f} s",
                  file=sys.stderr)
    mf_cmd = [peers, "--runs", str(args.runs)] + flows
    mf = subprocess.run(mf_cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    load_after = load()

    print(f"Machine: {os.cpu_count()} cores, shared; load average (1, 5, 15 min) "
          f"{load_before} before, {load_after} after.")
    print(f"Command: `{quote([sys.argv[0]] + sys.argv[1:])}`; per row, the import "
          "(torch's partitioner timed inside it) and the min-cut are listed below the table.\n")
    print("| model | layers | ATen ops | torch partitioner s (CPU s) | remat --remat-mincut s "
          "| time ratio torch/remat | torch saved act. KiB (+param) | remat saved act. KiB "
          "(+rt.param) | saved act. ratio remat/torch |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['model']} | {r['layers']} | {r['aten']} | {r['torch_s']:.3f} "
              f"({r['torch_cpu']:.3f}) | "
              f"{r['remat_s']:.4f} | {r['torch_s'] / r['remat_s']:.0f}x | "
              f"{kib(r['torch_act'])} (+{kib(r['torch_par'])}) | "
              f"{kib(r['remat_act'])} (+{kib(r['remat_par'])}) | "
              f"{r['remat_act'] / max(r['torch_act'], 1):.2f} |")
    print()
    for (imp, cut), r in zip(cmds, rows):
        print(f"- {r['model']} x{r['layers']}: `{imp}` ({r['import_s']:.0f} s with tracing, "
              f"torch partitioner median of {r['torch_runs']}); "
              f"`{cut}` (x{args.runs}, median)")
    print(f"\nMax-flow on the dumped networks (`{quote(mf_cmd)}`; ms, cold: median over "
          f"{args.runs} freshly built graphs of the first solve, warm: median of {args.runs} "
          f"further solves on one graph; exit status {mf.returncode}):\n")
    print("```")
    print(mf.stdout.rstrip())
    print("```")
    return mf.returncode


if __name__ == "__main__":
    sys.exit(main())
