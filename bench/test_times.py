#!/usr/bin/env python3
"""test_times.py: where a lit run's time goes, from lit's .lit_test_times.txt.

usage: bench/test_times.py TIMES_FILE [-j N]

Prints the seconds per suite (test/<suite>/, summed over its tests) and the wall time N
workers would take (lit's scheduling: each test to the first free worker, in order) for
the two orders lit uses: lexical, on a machine without timing data (a fresh checkout
before test/.lit_test_times.txt), and slowest first (lit's order when it has times).
The times are what lit measured, so a loaded machine inflates them all; compare the
proportions and the two orders (bench/RESULTS.md, "Test time")."""
import heapq
import sys


def makespan(durations, workers):
    free = [0.0] * workers
    for d in durations:
        t = heapq.heappop(free)
        heapq.heappush(free, t + d)
    return max(free)


def main():
    args = sys.argv[1:]
    workers = 2
    if "-j" in args:
        k = args.index("-j")
        workers = int(args[k + 1])
        del args[k:k + 2]
    tests = {}
    with open(args[0]) as f:
        for line in f:
            t, path = line.split(maxsplit=1)
            tests[path.strip()] = abs(float(t))
    per = {}
    for path, t in tests.items():
        suite = path.split("/", 1)[0]
        per[suite] = per.get(suite, 0.0) + t
    total = sum(per.values())
    print(f"{len(tests)} tests, {total:.0f} s summed")
    for suite, t in sorted(per.items(), key=lambda kv: -kv[1]):
        print(f"  {suite:<12} {t:7.0f} s  {100 * t / total:4.1f}%")
    lexical = [tests[p] for p in sorted(tests)]
    slowest = sorted(tests.values(), reverse=True)
    a, b = makespan(lexical, workers), makespan(slowest, workers)
    print(f"-j {workers}: lexical order {a:.0f} s, slowest first {b:.0f} s "
          f"({100 * (a - b) / a:.0f}% less); lower bound {max(total / workers, max(slowest)):.0f} s")


main()
