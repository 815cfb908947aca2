"""ranges_check.py LO:HI ...: reads remat-run --print=full from stdin and prints, for
result k, whether its values lie in the k-th range [LO, HI), how many distinct values
it has and whether both ends were drawn; exit 1 when a value lies outside
(test/runtime/ranges.test)."""
import sys

ranges = [tuple(int(v) for v in a.split(":")) for a in sys.argv[1:]]
bad = 0
for line in sys.stdin:
    if not line.startswith("result #"):
        continue
    head, _, rest = line.partition(": ")
    k = int(head[len("result #"):])
    vals = [int(v) for v in rest.split()[1:]]
    lo, hi = ranges[k]
    out = [v for v in vals if not lo <= v < hi]
    if out:
        bad += 1
        print(f"{head}: {out[0]} and {len(out) - 1} more outside [{lo}, {hi})")
    elif len(vals) > 1:
        ends = lo in vals and hi - 1 in vals
        print(f"{head}: {len(vals)} values in [{lo}, {hi}), {len(set(vals))} distinct, "
              f"ends {lo} and {hi - 1} {'both drawn' if ends else 'not both drawn'}")
    else:
        print(f"{head}: {len(vals)} values in [{lo}, {hi})")
sys.exit(1 if bad else 0)
