#!/usr/bin/env python3
"""conv_speed.py: remat's host convolution (the runtime's kernel that remat-run runs,
bench/conv_bench.c) against torch's CPU convolution, both single-threaded, on every
convolution geometry of torchvision's resnet18: at 224x224 with batch 1 (ImageNet) and
at 32x32 with batch 4 (issue 39's training step). Per geometry: the forward, the input
gradient and the weight gradient (torch: aten.convolution_backward with one output
mask each), the medians of ROUNDS calls, the two sides interleaved geometry by geometry;
then the ratios summed over the network (each geometry times its count in resnet18).

usage: conv_speed.py [--rounds N] [--bench PATH]   (PATH: build/bench/conv_bench)
"""
import argparse
import subprocess
import time

import torch

# (C, H, O, k, stride, padding, count in resnet18) for a square input of size H
RESNET18 = [(3, 224, 64, 7, 2, 3, 1), (64, 56, 64, 3, 1, 1, 4), (64, 56, 128, 3, 2, 1, 1),
            (128, 28, 128, 3, 1, 1, 3), (64, 56, 128, 1, 2, 0, 1), (128, 28, 256, 3, 2, 1, 1),
            (256, 14, 256, 3, 1, 1, 3), (128, 28, 256, 1, 2, 0, 1), (256, 14, 512, 3, 2, 1, 1),
            (512, 7, 512, 3, 1, 1, 3), (256, 14, 512, 1, 2, 0, 1)]


def geometries(image, batch):
    scale = image / 224
    return [(batch, c, max(1, round(h * scale)), o, k, s, p, n) for c, h, o, k, s, p, n in RESNET18]


def torch_times(b, c, h, o, k, s, p, rounds):
    x = torch.randn(b, c, h, h)
    w = torch.randn(o, c, k, k)
    y = torch.nn.functional.conv2d(x, w, None, s, p)
    g = torch.randn_like(y)
    calls = [lambda: torch.nn.functional.conv2d(x, w, None, s, p)]
    for mask in ([True, False, False], [False, True, False]):
        calls.append(lambda m=mask: torch.ops.aten.convolution_backward(
            g, x, w, None, [s, s], [p, p], [1, 1], False, [0, 0], 1, m))
    out = []
    for f in calls:
        f()
        ts = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            f()
            ts.append(time.perf_counter() - t0)
        out.append(sorted(ts)[rounds // 2] * 1e3)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--bench", default="build/bench/conv_bench")
    args = ap.parse_args()
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, 1 thread each; times in ms (median of {args.rounds})")
    for image, batch in ((224, 1), (32, 4)):
        tot = [[0.0] * 3, [0.0] * 3]
        print(f"\nresnet18 at {image}x{image}, batch {batch}")
        print(f"{'geometry':34} {'n':>2} {'conv':>15} {'grad_input':>15} {'grad_weight':>15}")
        for b, c, h, o, k, s, p, n in geometries(image, batch):
            r = subprocess.run([args.bench, str(b), str(c), str(h), str(h), str(o), str(k), str(k),
                                str(s), str(p), "1", "1", str(args.rounds)],
                               capture_output=True, text=True, check=True).stdout.split()
            ours = [float(r[1]), float(r[3]), float(r[5])]
            theirs = torch_times(b, c, h, o, k, s, p, args.rounds)
            for j in range(3):
                tot[0][j] += n * ours[j]
                tot[1][j] += n * theirs[j]
            cells = " ".join(f"{a:7.3f}/{t:7.3f}" for a, t in zip(ours, theirs))
            print(f"{b}x{c}x{h}x{h} -> {o} k{k} s{s} p{p}".ljust(34) + f" {n:>2} {cells}")
        ratio = [a / t for a, t in zip(tot[0], tot[1])]
        print(f"{'network (remat/torch ms)':34}    " +
              " ".join(f"{a:7.2f}/{t:7.2f}" for a, t in zip(tot[0], tot[1])))
        print(f"{'ratio remat / torch':34}    " + " ".join(f"{r:15.2f}" for r in ratio) +
              f"   all three: {sum(tot[0]) / sum(tot[1]):.2f}")


if __name__ == "__main__":
    main()
