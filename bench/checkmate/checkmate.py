#!/usr/bin/python3
"""checkmate.py: remat's fixed-order optimum against a Checkmate-style MILP with schedule
freedom (Jain et al., MLSys 2020), solved by CBC (Debian's coinor-cbc).

For each joint function: remat-opt --remat-mincut=objective=peak,peak-search=exact gives
the least peak P of remat's space (a saved set; the forward once, in program order; the
backward's tangent-dependent ops in program order, each forward op it needs run once,
just in time or list-scheduled) and its recompute cost C. The MILP minimises the peak
over a larger space at recompute cost at most C: the graph in a fixed topological order
(the primal arguments, the forward's ops in program order, the tangents, the backward's
ops in program order); stage t computes node t and, in the backward's stages, may
recompute any earlier node, as often as it likes (the forward runs once, in order, as
the reference's advice for CBC has it), and keeps or frees each value between stages
(Checkmate's R, S and FREE); the memory while each op runs is Checkmate's running sum U, counted as remat's
estimate counts it (operands and result live while the op runs, a value freed after its
last use in the stage unless kept for a later one).

What the MILP keeps of remat's model, so that every split of remat's is one of its
schedules (its optimum can only be lower): parameters (rt.param, rt.buffer) are live
throughout (a constant); immediates (scalar constants) hold nothing; a reshape is its
operand (one buffer); arguments and tangents exist from their stage on and are never
recomputed (the caller's); a forward output stays live to the forward's last stage, a
gradient to the end; a forward op that no output needs need not run at its own stage
(remat may move it to the backward, where it runs once, for nothing); random values
(philox results and what elementwise, compare and structural ops make of them and
scalars) never cross from the forward's stages to the backward's (remat's Philox rule).
Recompute cost = over the runs of each op beyond its first, its operand and result bytes
+ matmul flops / 128, constants free (remat's measure). Bans and policy tags are not modelled: functions
with them are skipped.

Rows: nodes, remat's least peak / its cost, the MILP's least peak at that cost (CBC's
status and seconds), how much lower, and the MILP's least peak at any cost. A MILP peak
above remat's would mean the model is wrong: the row says MODEL and the exit status is 1.

Usage: checkmate.py --remat-opt build/bin/remat-opt [--seconds 300] [--max-nodes 60]
           [--markdown OUT.md] NAME=FILE.mlir ..."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ilp"))
import cbc  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OPS_DEF = os.path.join(HERE, "..", "..", "dialect-c", "rt_ops.def")
ELEM_BYTES = {"i1": 1, "i8": 1, "i16": 2, "f16": 2, "bf16": 2, "i32": 4, "f32": 4,
              "i64": 8, "f64": 8, "index": 8}
FLOPS_PER_BYTE = 128.0


def fail(msg):
    print(f"checkmate: error: {msg}", file=sys.stderr)
    sys.exit(1)


def random_kinds():
    """The ops through which a value stays random: rt_ops.def's elementwise, compare and
    structural ops (lib/analysis/peak_search.c, random_values)."""
    names = set()
    for line in open(OPS_DEF):
        m = re.match(r'RT_\w+\(\s*\w+,\s*"([\w.]+)",\s*(ELEMENTWISE|COMPARE|STRUCTURAL)\b', line)
        if m:
            names.add(m.group(1))
    return names


def shape(t):
    """(dims, element bytes) of a type; dims None for a scalar."""
    t = t.strip()
    m = re.match(r"tensor<(.*)>$", t)
    if not m:
        return None, ELEM_BYTES.get(t, 8)
    parts = m.group(1).split("x")
    return [int(d) for d in parts[:-1]], ELEM_BYTES.get(parts[-1], 4)


def type_bytes(t):
    dims, eb = shape(t)
    n = 1
    for d in dims or []:
        n *= d
    return n * eb


def split_top(s):
    """S split at the commas outside brackets."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [x.strip() for x in out]


def strip_loc(s):
    i = s.rfind(" loc(")
    return s[:i] if i >= 0 else s


def parse(text):
    """The joint functions of TEXT: dicts of name, args [(name, type, attrs)], ops
    [(op, results, operands, operand types, result types, line)], ret, num_outputs."""
    funcs = []
    for m in re.finditer(r"^func\.func @([\w.$-]+)\(", text, re.M):
        i, depth = m.end(), 1
        while depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        args = []
        for a in split_top(text[m.end():i - 1]):
            am = re.match(r"(%[\w.$-]+)\s*:\s*([^{]+?)(\s*\{[^}]*\})?\s*(loc\(.*\))?$", a, re.S)
            if not am:
                fail(f"cannot read argument '{a}' of @{m.group(1)}")
            args.append((am.group(1), am.group(2).strip(), am.group(3) or ""))
        body = text.index("{\n", i) + 2
        nm = re.search(r"rt\.num_outputs\s*=\s*(\d+)", text[i:body])
        if not nm:
            continue
        f = dict(name=m.group(1), args=args, num_outputs=int(nm.group(1)), ops=[], ret=[])
        for line in text[body:text.index("\n}", body)].splitlines():
            line = strip_loc(line.strip())
            if not line or line.startswith("//"):
                continue
            if line.startswith("return"):
                f["ret"] = [x for x in split_top(line[6:].split(" : ")[0])]
                continue
            om = re.match(r"(%[\w.$-]+)(?::(\d+))?\s*=\s*(.*)$", line)
            if not om:
                fail(f"cannot read '{line}' in @{f['name']}")
            nres = int(om.group(2) or 1)
            results = [om.group(1)] if nres == 1 else [f"{om.group(1)}#{k}" for k in range(nres)]
            rest = om.group(3)
            gm = re.match(r'"([\w.]+)"\(([^)]*)\)', rest)
            sig = rest[rest.rindex(" : ") + 3:]
            if gm:
                name = gm.group(1)
                opnds = [x for x in split_top(gm.group(2))]
                ins, outs = sig.split("->")
                in_types = split_top(ins.strip()[1:-1])
                out_types = split_top(outs.strip().strip("()"))
            else:
                name = rest.split()[0]
                opnds = re.findall(r"%[\w.$-]+", rest[len(name):rest.rindex(" : ")])
                in_types, out_types = [sig] * len(opnds), [sig]
            f["ops"].append((name, results, opnds, in_types, out_types, line))
        funcs.append(f)
    return funcs


def build(f, rnd_kinds):
    """The MILP's graph of F, or None when F has policy tags. Nodes in order: primal
    arguments, forward ops, tangents, backward ops (the live ones; reshapes contracted;
    parameters and immediates left out). Each: bytes, cost, ins, anchored (runs at its own
    stage), fixed (never recomputed), rnd."""
    if any("rt.policy" in op[5] for op in f["ops"]):
        return None
    vals = {}
    for name, t, attrs in f["args"]:
        vals[name] = dict(bytes=type_bytes(t), param="rt.param" in attrs or "rt.buffer" in attrs,
                          tangent="rt.tangent" in attrs, bw="rt.tangent" in attrs, imm=False,
                          rnd=False, const=False, scalar=shape(t)[0] is None, op=None)
    alias = {}

    def root(v):
        while v in alias:
            v = alias[v]
        return v
    ops = []
    for k, (name, results, opnds, in_types, out_types, line) in enumerate(f["ops"]):
        for o in opnds:
            if o not in vals:
                fail(f"@{f['name']}: '{o}' is used before it is defined")
        bw = any(vals[o]["bw"] for o in opnds)
        imm = name == "arith.constant" and all(shape(t)[0] is None for t in out_types)
        rnd = name == "rt.uniform_philox"
        if not rnd and name in rnd_kinds and opnds:
            rnd = any(vals[o]["rnd"] for o in opnds) and \
                all(vals[o]["rnd"] or vals[o]["const"] or vals[o]["scalar"] for o in opnds)
        for r, t in zip(results, out_types):
            vals[r] = dict(bytes=0 if imm else type_bytes(t), param=False, tangent=False, bw=bw,
                           imm=imm, rnd=rnd, const=not opnds, scalar=shape(t)[0] is None, op=k)
        # remat's recompute cost; constants (no operands) are free to run again
        cost = sum(vals[o]["bytes"] for o in opnds) + sum(vals[r]["bytes"] for r in results) \
            if opnds else 0
        if name == "rt.matmul":
            a, r = shape(in_types[0])[0], shape(out_types[0])[0]
            n = 1
            for d in a:
                n *= d
            cost += 2.0 * n * r[-1] / FLOPS_PER_BYTE
        if name == "rt.reshape" and len(opnds) == 1 and not vals[opnds[0]]["imm"]:
            alias[results[0]] = opnds[0]
        ops.append(dict(name=name, results=results, opnds=opnds, bw=bw, imm=imm, cost=cost))
    outs = [root(v) for v in f["ret"][:f["num_outputs"]]]
    grads = [root(v) for v in f["ret"][f["num_outputs"]:]]
    need, live, fneed = set(outs) | set(grads), [False] * len(ops), set(outs)
    for k in range(len(ops) - 1, -1, -1):
        op = ops[k]
        if op["results"][0] in alias or not any(r in need for r in op["results"]):
            continue
        live[k] = True
        need |= {root(o) for o in op["opnds"]}
        if not op["bw"] and any(r in fneed for r in op["results"]):
            fneed |= {root(o) for o in op["opnds"]}
    nodes, index = [], {}

    def add(name, bytes_, cost, ins, anchored, fixed, rnd):
        index[name] = len(nodes)
        nodes.append(dict(name=name, bytes=bytes_, cost=cost, ins=ins, anchored=anchored,
                          fixed=fixed, rnd=rnd))

    def ins_of(op):
        ins = []
        for o in op["opnds"]:
            v = root(o)
            if v in index and index[v] not in ins:
                ins.append(index[v])
            elif v not in index and not (vals[v]["param"] or vals[v]["imm"]):
                fail(f"@{f['name']}: '{v}' has no node")
        return ins

    def add_op(op):
        r = op["results"]
        add(r[0], sum(vals[x]["bytes"] for x in r), op["cost"], ins_of(op),
            op["bw"] or any(x in fneed for x in r), False, vals[r[0]]["rnd"])
        for x in r[1:]:
            index[x] = index[r[0]]
    for name, t, attrs in f["args"]:
        v = vals[name]
        if not v["param"] and not v["tangent"] and name in need:
            add(name, v["bytes"], 0, [], True, True, False)
    for k, op in enumerate(ops):
        if live[k] and not op["bw"] and not op["imm"]:
            add_op(op)
    t_f = len(nodes) - 1
    for name, t, attrs in f["args"]:
        if vals[name]["tangent"] and name in need:
            add(name, vals[name]["bytes"], 0, [], True, True, False)
    for k, op in enumerate(ops):
        if live[k] and op["bw"] and not op["imm"]:
            add_op(op)
    params = sum(v["bytes"] for v in vals.values() if v["param"])
    return dict(nodes=nodes, t_f=t_f, params=params,
                outs=sorted({index[v] for v in outs if v in index}),
                grads=sorted({index[v] for v in grads if v in index}))


def write_lp(g, path, cost_cap):
    """The MILP of G (see the module's text): minimise M, the bytes beyond the parameters
    while any op runs, at recompute cost <= COST_CAP (None: any)."""
    nodes, n, t_f = g["nodes"], len(g["nodes"]), g["t_f"]
    users = [[] for _ in range(n)]
    for j, nd in enumerate(nodes):
        for i in nd["ins"]:
            users[i].append(j)
    R = lambda t, i: f"R{t}_{i}"
    S = lambda t, i: f"S{t}_{i}"
    rows, binaries, bounds = [], [], []
    fixed_s = {}  # (t, i) -> 0/1: S pinned
    for o in g["outs"]:
        for t in range(o + 1, t_f + 1):
            fixed_s[(t, o)] = 1
    for gr in g["grads"]:
        fixed_s[(n, gr)] = 1
    for i, nd in enumerate(nodes):
        if nd["rnd"] and i <= t_f:
            fixed_s[(t_f + 1, i)] = 0
    for t in range(n):
        for i in range(t + 1):
            binaries.append(R(t, i))
            if i == t and nodes[i]["anchored"]:
                rows.append(f"{R(t, i)} = 1")
            if i < t and (nodes[i]["fixed"] or t <= t_f):  # the forward runs once, in order
                rows.append(f"{R(t, i)} = 0")
    for t in range(1, n + 1):
        for i in range(t):
            binaries.append(S(t, i))
            if (t, i) in fixed_s:
                rows.append(f"{S(t, i)} = {fixed_s[(t, i)]}")
            # kept into t: computed or kept in t-1
            rows.append(f"{S(t, i)} - {R(t - 1, i)}" + (f" - {S(t - 1, i)}" if i < t - 1 else "")
                        + " <= 0")
    for t in range(n):
        for j in range(t + 1):
            for i in nodes[j]["ins"]:  # inputs present
                rows.append(f"{R(t, j)} - {R(t, i)}" + (f" - {S(t, i)}" if i < t else "") + " <= 0")
    # memory: U[t,k] = U[t,k-1] + R[t,k] m_k - sum FREE[t,i,k-1] m_i; U[t,k] <= M
    for t in range(n):
        for k in range(t + 1):
            u = f"U{t}_{k}"
            bounds.append(f"{u} >= 0")
            expr = f"{u} - {nodes[k]['bytes']} {R(t, k)}"
            if k == 0:  # what stage t starts with: the values kept into it
                expr += "".join(f" - {nodes[i]['bytes']} {S(t, i)}"
                                for i in range(t) if nodes[i]["bytes"])
            else:
                expr += f" - U{t}_{k - 1}"
                frees = [k - 1] + nodes[k - 1]["ins"]
                for i in dict.fromkeys(frees):
                    if not nodes[i]["bytes"]:
                        continue
                    fv = f"F{t}_{i}_{k - 1}"
                    binaries.append(fv)
                    expr += f" + {nodes[i]['bytes']} {fv}"
                    rows.append(f"{fv} - {R(t, k - 1)} <= 0")
                    if t + 1 <= n and i <= t:
                        rows.append(f"{fv} + {S(t + 1, i)} <= 1")
                    for j in users[i]:
                        if k - 1 < j <= t:
                            rows.append(f"{fv} + {R(t, j)} <= 1")
            rows.append(expr + " = 0")
            rows.append(f"{u} - M <= 0")
    if cost_cap is not None:
        terms = [f"+ {nd['cost']:.6f} {R(t, i)}" for t in range(n) for i, nd in enumerate(nodes)
                 if i <= t and nd["cost"] > 0]
        base = sum(nd["cost"] for nd in nodes)
        rows.append(" ".join(terms)[2:] + f" <= {cost_cap + base + 1e-6:.6f}" if terms else "")
    with open(path, "w") as out:
        out.write("Minimize\n obj: M\nSubject To\n")
        for k, r in enumerate(x for x in rows if x):
            out.write(f" c{k}: {r}\n")
        out.write("Bounds\n M >= 0\n" + "".join(f" {b}\n" for b in bounds))
        out.write("Binaries\n")
        for k in range(0, len(binaries), 16):
            out.write(" " + " ".join(binaries[k:k + 16]) + "\n")
        out.write("End\n")


def solve(lp, sol, seconds):
    try:
        return cbc.solve(lp, sol, seconds)
    except cbc.CbcError as e:
        fail(str(e))


def reruns(g, values):
    """The nodes a solution runs more than once in the backward's stages."""
    n, t_f = len(g["nodes"]), g["t_f"]
    runs = [sum(values.get(f"R{t}_{i}", 0) > 0.5 for t in range(t_f + 1, n)) for i in range(n)]
    return sum(r > 1 for r in runs)


def remat_rows(remat_opt, path, work):
    """{function: (peak, cost, ms)} of objective=peak's exact search."""
    rep = os.path.join(work, os.path.basename(path) + ".report.txt")
    r = subprocess.run([remat_opt, path, "--remat-mincut=objective=peak,peak-search=exact",
                        f"--report={rep}", "-o", os.devnull], capture_output=True, text=True)
    if r.returncode:
        return {}
    res, cur = {}, None
    for line in open(rep):
        m = re.match(r"remat-mincut: @(\S+) ->", line)
        if m:
            cur = m.group(1)
        m = re.match(r"  objective peak: .* ([0-9.]+) ms", line)
        if m and cur:
            ms = float(m.group(1))
        m = re.match(r"    chosen +(\d+) +(\d+)$", line)
        if m and cur:
            res[cur] = (int(m.group(1)), int(m.group(2)), ms)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--remat-opt", required=True)
    ap.add_argument("--seconds", type=int, default=300)
    ap.add_argument("--max-nodes", type=int, default=60)
    ap.add_argument("--any-cost", action="store_true", help="also the least peak at any cost")
    ap.add_argument("--markdown")
    ap.add_argument("--only", help="comma list of functions to solve (default: all)")
    ap.add_argument("inputs", nargs="+", help="NAME=FILE.mlir")
    a = ap.parse_args()
    if not subprocess.run(["sh", "-c", "command -v cbc"], capture_output=True).stdout:
        fail("cbc (Debian's coinor-cbc) not found")
    kinds = random_kinds()
    work = tempfile.mkdtemp(prefix="checkmate.")
    table, bad = [], 0
    for inp in a.inputs:
        label, path = inp.split("=", 1) if "=" in inp else (os.path.basename(inp), inp)
        remat = remat_rows(a.remat_opt, path, work)
        for f in parse(open(path).read()):
            if f["name"] not in remat:
                print(f"{label} @{f['name']}: remat's exact search refused it; skipped")
                continue
            if a.only and f["name"] not in a.only.split(","):
                continue
            g = build(f, kinds)
            if g is None or len(g["nodes"]) > a.max_nodes:
                continue
            peak, cost, ms = remat[f["name"]]
            row = dict(graph=f"{label} @{f['name']}", nodes=len(g["nodes"]), peak=peak, cost=cost,
                       ms=ms)
            for key, cap in [("same", cost)] + ([("any", None)] if a.any_cost else []):
                lp = os.path.join(work, f"{f['name']}.{key}.lp")
                write_lp(g, lp, cap)
                st, obj, values, dt = solve(lp, lp + ".sol", a.seconds)
                row[key] = (st, None if obj is None else round(obj) + g["params"],
                            reruns(g, values), dt)
            st, m, twice, dt = row["same"]
            model_bad = st == "optimal" and m is not None and m > peak
            bad += model_bad
            row["lower"] = None if m is None else 100.0 * (peak - m) / peak
            print(f"{row['graph']}: {row['nodes']} nodes, remat {peak}/{cost} ({ms:.1f} ms), "
                  f"checkmate {m} ({st}, {dt:.1f} s, {twice} nodes run twice in the backward)" +
                  (f", at any cost {row['any'][1]} ({row['any'][0]}, {row['any'][3]:.1f} s)"
                   if "any" in row else "") + (" MODEL" if model_bad else ""))
            sys.stdout.flush()
            table.append(row)
    if a.markdown:
        with open(a.markdown, "w") as out:
            out.write("| graph | nodes | remat: least peak / cost | search ms | Checkmate MILP "
                      "peak at that cost | lower by | nodes run twice | CBC | CBC s |" +
                      (" MILP peak, any cost | CBC | CBC s |" if a.any_cost else "") + "\n")
            out.write("|---|---:|---:|---:|---:|---:|---:|---|---:|" +
                      ("---:|---|---:|" if a.any_cost else "") + "\n")
            for r in table:
                st, m, twice, dt = r["same"]
                lower = "-" if r["lower"] is None else f"{r['lower']:.1f}%"
                out.write(f"| {r['graph']} | {r['nodes']} | {r['peak']} / {r['cost']} | "
                          f"{r['ms']:.1f} | {m} | {lower} | {twice} | {st} | {dt:.1f} |" +
                          (f" {r['any'][1]} | {r['any'][0]} | {r['any'][3]:.1f} |"
                           if "any" in r else "") + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
