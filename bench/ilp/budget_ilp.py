#!/usr/bin/python3
"""budget_ilp.py: --remat-checkpoint=memory-budget against the optimum of the same
objective, solved as an integer program by CBC (Debian's coinor-cbc).

For each joint function of each input and each budget fraction f, the budget is
fixed + floor(f x candidate bytes) (fixed and candidate bytes from a first run with an
unlimited budget). remat-opt runs the budget twice, exact (the default) and heuristic
(budget-greedy=true), each writing its problem and choice with budget-dump=FILE. The
dumped problem is the set-union knapsack of docs/design.md ("Memory budget"):

    maximize   sum_i v_i x_i + sum_g gv_g y_g          (recompute cost avoided)
    subject to sum_i w_i x_i <= cap                    (cap = budget - fixed)
               y_g <= x_i  for every item i of group g (a shared op is avoided only
               x binary, 0 <= y <= 1                    when all its chains are saved)

written here as an LP file (no Python MIP library is needed) and solved with
`cbc FILE.lp -sec T -ratio 0 -allow 0 -solve -solu SOL`. CBC's choice is re-evaluated in
exact integers. Also solved: the additive model the pass used before (each item worth
v_i plus every group it is in, a plain knapsack), evaluated under the true objective.

Rows: recompute cost (all chains' cost minus the value avoided) of the optimum, of the
exact mode, of the heuristic and of the additive model's choice; ratios to the optimum.

Usage: budget_ilp.py --remat-opt build/bin/remat-opt --fractions 0,0.25,0.5 \
           --markdown OUT.md NAME=FILE.mlir ...
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import cbc

HUGE = 1 << 62


def fail(msg):
    print(f"budget_ilp: error: {msg}", file=sys.stderr)
    sys.exit(1)


def split_functions(text):
    """The joint functions of a file (func.func ... with rt.num_outputs), one text each.
    Functions start with `func.func` at column 0 and end at the next `}` at column 0."""
    out, cur, name = [], None, None
    for line in text.splitlines():
        if cur is None:
            m = re.match(r"func\.func @([\w.$-]+)\(", line)
            if m:
                cur, name = [line], m.group(1)
            continue
        cur.append(line)
        if line.startswith("}"):
            body = "\n".join(cur) + "\n"
            if "rt.num_outputs" in body:
                out.append((name, body))
            cur = None
    return out


def parse_dump(path):
    insts, cur = [], None
    with open(path) as f:
        for line in f:
            t = line.split()
            if not t:
                continue
            if t[0] == "function":
                cur = {"function": t[1], "items": [], "groups": [], "shared": 0}
            elif t[0] == "budget":
                cur["budget"], cur["fixed"], cur["cap"] = int(t[1]), int(t[3]), int(t[5])
            elif t[0] == "item":
                cur["items"].append((int(t[2]), int(t[3])))
            elif t[0] == "group":
                cur["groups"].append((int(t[1]), [int(x) for x in t[3:3 + int(t[2])]]))
            elif t[0] == "shared":
                cur["shared"] = int(t[1])
            elif t[0] == "choice":
                cur["mode"], cur["value"] = t[1], int(t[3])
                cur["saved"] = set(int(x) for x in t[5:])
            elif t[0] == "end":
                insts.append(cur)
    return insts


def gained(inst, saved):
    v = sum(inst["items"][i][1] for i in saved)
    v += sum(gv for gv, its in inst["groups"] if all(i in saved for i in its))
    return v


def weight(inst, saved):
    return sum(inst["items"][i][0] for i in saved)


def total(inst):
    return gained(inst, set(range(len(inst["items"]))))


def write_lp(inst, path, additive=False):
    items, groups = inst["items"], inst["groups"]
    val = [v for _, v in items]
    if additive:
        for gv, its in groups:
            for i in its:
                val[i] += gv
    with open(path, "w") as f:
        f.write("Maximize\n obj:")
        terms = [f" + {v} x{i}" for i, v in enumerate(val)]
        if not additive:
            terms += [f" + {gv} y{g}" for g, (gv, _) in enumerate(groups)]
        f.write("".join(terms) if terms else " 0 x0")
        f.write("\nSubject To\n cap:")
        f.write("".join(f" + {w} x{i}" for i, (w, _) in enumerate(items)) or " 0 x0")
        f.write(f" <= {inst['cap']}\n")
        if not additive:
            for g, (_, its) in enumerate(groups):
                for i in its:
                    f.write(f" g{g}_{i}: y{g} - x{i} <= 0\n")
            f.write("Bounds\n")
            for g in range(len(groups)):
                f.write(f" 0 <= y{g} <= 1\n")
        f.write("Binaries\n")
        f.write("".join(f" x{i}" for i in range(max(len(items), 1))) + "\nEnd\n")


def solve(lp, sol, seconds):
    """(status, the indices i of the x_i CBC sets, seconds)."""
    try:
        status, _, values, dt = cbc.solve(lp, sol, seconds)
    except cbc.CbcError as e:
        fail(str(e))
    return status, {int(k[1:]) for k, v in values.items() if k.startswith("x") and v > 0.5}, dt


def run_pass(remat_opt, mlir, budget, greedy, dump):
    if os.path.exists(dump):
        os.remove(dump)
    opts = f"memory-budget={budget},budget-dump={dump}" + (",budget-greedy=true" if greedy else "")
    t0 = time.time()
    r = subprocess.run([remat_opt, f"--remat-checkpoint={opts}", mlir, "-o", os.devnull],
                       capture_output=True, text=True)
    dt = time.time() - t0
    if r.returncode != 0:
        fail(f"remat-opt failed on {mlir} at budget {budget}:\n{r.stderr}")
    insts = parse_dump(dump)
    if len(insts) != 1:
        fail(f"{mlir}: expected one budget problem, got {len(insts)}")
    return insts[0], dt


def mincut_saved(remat_opt, mlir, budget):
    """Bytes of op results (not primals, not scalars) the min-cut saves after the exact
    choice: they must fit the budget."""
    r = subprocess.run([remat_opt, f"--remat-checkpoint=memory-budget={budget}",
                        "--remat-mincut", "--remat-report", mlir, "-o", os.devnull],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"remat-opt --remat-mincut failed on {mlir} at budget {budget}:\n{r.stderr}")
    saved, table = 0, False
    for line in r.stderr.splitlines():
        if line.startswith("remat-mincut:"):
            table = True
            continue
        t = line.split()
        if table and len(t) >= 5 and t[0].isdigit():
            if not t[1].startswith("%arg") and t[2].startswith("tensor<"):
                saved += int(t[3])
        elif table and line.strip().startswith("saved bytes"):
            table = False
    return saved


def ratio(cost, best):
    if best == 0:
        return 1.0 if cost == 0 else float("inf")
    return cost / best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--remat-opt", default="build/bin/remat-opt")
    ap.add_argument("--fractions", default="0,0.1,0.25,0.5,0.75")
    ap.add_argument("--seconds", type=int, default=60, help="CBC time limit per problem")
    ap.add_argument("--markdown", help="write the table and the summary here")
    ap.add_argument("--label", default="", help="a heading for the markdown")
    ap.add_argument("inputs", nargs="+", metavar="NAME=FILE.mlir")
    a = ap.parse_args()
    fractions = [float(x) for x in a.fractions.split(",")]
    tmp = tempfile.mkdtemp(prefix="budget_ilp.")
    rows = []
    for spec in a.inputs:
        name, _, path = spec.partition("=")
        if not path:
            name, path = os.path.splitext(os.path.basename(spec))[0], spec
        with open(path) as f:
            funcs = split_functions(f.read())
        for fname, body in funcs:
            label = name if len(funcs) == 1 else f"{name}:@{fname}"
            one = os.path.join(tmp, f"{len(rows)}.mlir")
            with open(one, "w") as f:
                f.write(body)
            probe, _ = run_pass(a.remat_opt, one, HUGE, False, os.path.join(tmp, "probe.txt"))
            cand = sum(w for w, _ in probe["items"])
            if not probe["items"]:
                continue
            seen_budgets = set()
            for fr in fractions:
                budget = probe["fixed"] + int(fr * cand)
                if budget in seen_budgets:
                    continue
                seen_budgets.add(budget)
                ex, t_ex = run_pass(a.remat_opt, one, budget, False, os.path.join(tmp, "ex.txt"))
                he, _ = run_pass(a.remat_opt, one, budget, True, os.path.join(tmp, "he.txt"))
                if (ex["items"], ex["groups"], ex["cap"]) != (he["items"], he["groups"], he["cap"]):
                    fail(f"{label}: the two modes dumped different problems")
                for m, inst in (("exact", ex), ("heuristic", he)):
                    if weight(inst, inst["saved"]) > inst["cap"]:
                        fail(f"{label} budget {budget}: the {m} choice exceeds the cap")
                    if gained(inst, inst["saved"]) != inst["value"]:
                        fail(f"{label} budget {budget}: the {m} choice's value is misreported")
                lp, sol = os.path.join(tmp, "p.lp"), os.path.join(tmp, "p.sol")
                write_lp(ex, lp)
                status, opt_saved, t_cbc = solve(lp, sol, a.seconds)
                if weight(ex, opt_saved) > ex["cap"]:
                    fail(f"{label} budget {budget}: CBC's choice exceeds the cap")
                cut = mincut_saved(a.remat_opt, one, budget)
                if cut > budget:
                    fail(f"{label} budget {budget}: the min-cut after the choice saves {cut} bytes")
                write_lp(ex, lp, additive=True)
                _, add_saved, _ = solve(lp, sol, a.seconds)
                all_cost = total(ex) + ex["shared"]
                cost = lambda s: all_cost - gained(ex, s)
                best = min(cost(opt_saved), cost(ex["saved"]))  # the exact mode may beat
                rows.append(dict(
                    name=label, frac=fr, budget=budget, items=len(ex["items"]),
                    groups=len(ex["groups"]), status=status, ilp=cost(opt_saved),
                    exact=cost(ex["saved"]), mode=ex["mode"], heur=cost(he["saved"]),
                    add=cost(add_saved), best=best, t_ex=t_ex, t_cbc=t_cbc, cut=cut))
                r = rows[-1]
                print(f"{label:28} f={fr:<5} items={r['items']:4} groups={r['groups']:4} "
                      f"cbc={status:8} ilp={r['ilp']} exact={r['exact']} ({r['mode']}) "
                      f"heur={r['heur']} additive={r['add']}", flush=True)
    proven = [r for r in rows if r["status"] == "optimal"]
    equal = [r for r in proven if r["exact"] == r["ilp"]]
    better = [r for r in rows if r["exact"] < r["ilp"]]
    hr = [ratio(r["heur"], r["best"]) for r in rows]
    ar = [ratio(r["add"], r["best"]) for r in rows]
    worse_add = [x for x in ar if x > 1]
    summary = [
        f"every choice fits its budget; after the min-cut, the op results saved (tensors) "
        f"fit it too on all {len(rows)} problems (0 bytes at each of the "
        f"{sum(1 for r in rows if r['budget'] == 0)} budgets of 0).",
        f"{len(rows)} problems; CBC proved {len(proven)} optimal; the exact mode equals the "
        f"optimum on {len(equal)} of those {len(proven)}"
        + (f"; it beats CBC's best on {len(better)} where CBC stopped" if better else "") + ".",
        f"heuristic (budget-greedy=true) recompute cost / optimum: worst {max(hr):.4f}, "
        f"mean {sum(hr) / len(hr):.4f}; equal on {sum(1 for x in hr if x == 1)} of {len(hr)}.",
        f"additive model (each chain pays its shared ops): worst {max(ar):.4f}, mean "
        f"{sum(ar) / len(ar):.4f}; worse than the optimum on {len(worse_add)} of {len(ar)}.",
    ]
    for s in summary:
        print(s)
    if a.markdown:
        with open(a.markdown, "w") as f:
            if a.label:
                f.write(f"{a.label}\n\n")
            f.write("| function | items | groups | budgets | CBC optimal | exact = optimum "
                    "| heuristic worst | additive worst |\n|---|---|---|---|---|---|---|---|\n")
            names = []
            for r in rows:
                if r["name"] not in names:
                    names.append(r["name"])
            for n in names:
                rs = [r for r in rows if r["name"] == n]
                f.write(f"| {n} | {rs[0]['items']} | {rs[0]['groups']} | {len(rs)} | "
                        f"{sum(r['status'] == 'optimal' for r in rs)} | "
                        f"{sum(r['status'] == 'optimal' and r['exact'] == r['ilp'] for r in rs)} | "
                        f"{max(ratio(r['heur'], r['best']) for r in rs):.3f} | "
                        f"{max(ratio(r['add'], r['best']) for r in rs):.3f} |\n")
            f.write("\n" + "\n".join(f"- {s}" for s in summary) + "\n\n")
            f.write("| function | budget (fraction) | items | groups | CBC | optimum | exact "
                    "| heuristic | additive | exact ms | CBC s |\n")
            f.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
            for r in rows:
                def cell(c):
                    return f"{c} ({ratio(c, r['best']):.3f})" if c != r["best"] else f"{c}"
                f.write(f"| {r['name']} | {r['budget']} ({r['frac']}) | {r['items']} | "
                        f"{r['groups']} | {r['status']} | {r['ilp']} | {cell(r['exact'])}"
                        f"{'' if r['mode'] == 'exact' else ' (heuristic)'} | {cell(r['heur'])} | "
                        f"{cell(r['add'])} | {r['t_ex'] * 1000:.0f} | {r['t_cbc']:.2f} |\n")


if __name__ == "__main__":
    main()
