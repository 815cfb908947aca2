"""Checks --remat-fuse on generated functions by symbolic evaluation.

usage: fuse_check.py gen SEED N > in.mlir      a random function of N ops
       fuse_check.py check in.mlir out.mlir     compare before/after the pass

gen writes one function @g mixing fusible ops of several shapes (elementwise, compare,
select, broadcast, reshape, transpose, philox, constants) with host ops (matmul, sum,
arith on scalars). check evaluates every function of both files symbolically: a value is
the expression that computes it (op name, attributes, operand expressions), kernel calls
are expanded with the kernel's body, a matmul's transpose_a / transpose_b is an
rt.transpose of the operand (and two such transposes cancel). The returned expressions
must be identical, and the kernels must have the contract's form: rt.kernel, private, no
host op; without reductions one result shape; with reductions (a row kernel) one row
structure, results of its input or kept shape. The hosts keep no computing rt op (views
and matmuls only; with --shape, the previous grouping, reductions too).
Prints "ok: F functions, K kernels (R row kernels)" or the first difference, exit 1.
"""
import random
import re
import sys


def gen(seed, n):
    rnd = random.Random(seed)
    mat, vec, flat, tr, scal, i64 = ["%x"], ["%v"], ["%f"], ["%t"], ["%s"], ["%seed"]
    T = {"m": "tensor<4x8xf32>", "v": "tensor<8xf32>", "f": "tensor<32xf32>",
         "t": "tensor<8x4xf32>", "b": "tensor<4x8xi1>"}
    lines = ["func.func @g(%x: tensor<4x8xf32>, %v: tensor<8xf32>, %f: tensor<32xf32>, "
             "%t: tensor<8x4xf32>, %s: f32, %seed: i64, %off: i64, "
             "%w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<32xf32>, "
             "tensor<8x4xf32>) {"]
    lines.append("  %c2 = arith.constant 2.000000e+00 : f32")
    lines.append("  %c3 = arith.constant 3.000000e+00 : f32")
    scal += ["%c2", "%c3"]
    pick = lambda xs: rnd.choice(xs[-6:])
    for i in range(n):
        r = rnd.random()
        name = "%%o%d" % i
        if r < 0.25:
            op = rnd.choice(["add", "mul", "sub", "max"])
            pool, ty = rnd.choice([(mat, "m"), (vec, "v"), (flat, "f"), (tr, "t")])
            b, bt = (pick(pool), T[ty]) if rnd.random() < 0.7 else (pick(scal), "f32")
            lines.append('  %s = "rt.%s"(%s, %s) : (%s, %s) -> %s' %
                         (name, op, pick(pool), b, T[ty], bt, T[ty]))
            pool.append(name)
        elif r < 0.35:
            op = rnd.choice(["exp", "neg", "tanh"])
            pool, ty = rnd.choice([(mat, "m"), (vec, "v"), (flat, "f"), (tr, "t")])
            lines.append('  %s = "rt.%s"(%s) : (%s) -> %s' % (name, op, pick(pool), T[ty], T[ty]))
            pool.append(name)
        elif r < 0.42:
            c, a, b = name + "c", pick(mat), pick(mat)
            lines.append('  %s = "rt.lt"(%s, %s) : (%s, %s) -> %s' % (c, a, b, T["m"], T["m"], T["b"]))
            lines.append('  %s = "rt.select"(%s, %s, %s) : (%s, %s, %s) -> %s' %
                         (name, c, b, a, T["b"], T["m"], T["m"], T["m"]))
            mat.append(name)
        elif r < 0.48:
            lines.append('  %s = "rt.broadcast"(%s) {dims = array<i64: 1>} : (%s) -> %s' %
                         (name, pick(vec), T["v"], T["m"]))
            mat.append(name)
        elif r < 0.53:
            if rnd.random() < 0.5:
                lines.append('  %s = "rt.reshape"(%s) : (%s) -> %s' % (name, pick(mat), T["m"], T["f"]))
                flat.append(name)
            else:
                lines.append('  %s = "rt.reshape"(%s) : (%s) -> %s' % (name, pick(flat), T["f"], T["m"]))
                mat.append(name)
        elif r < 0.58:
            if rnd.random() < 0.5:
                lines.append('  %s = "rt.transpose"(%s) {perm = array<i64: 1, 0>} : (%s) -> %s' %
                             (name, pick(mat), T["m"], T["t"]))
                tr.append(name)
            else:
                lines.append('  %s = "rt.transpose"(%s) {perm = array<i64: 1, 0>} : (%s) -> %s' %
                             (name, pick(tr), T["t"], T["m"]))
                mat.append(name)
        elif r < 0.62:
            lines.append('  %s = "rt.uniform_philox"(%s, %s) {lo = 0.0 : f64, hi = 1.0 : f64} : '
                         '(i64, i64) -> %s' % (name, pick(i64), "%off", T["m"]))
            mat.append(name)
        elif r < 0.72:
            lines.append('  %s = "rt.matmul"(%s, %%w) : (%s, tensor<8x8xf32>) -> %s' %
                         (name, pick(mat), T["m"], T["m"]))
            mat.append(name)
        elif r < 0.8:
            lines.append('  %s = "rt.sum"(%s) {dims = array<i64: 0>} : (%s) -> %s' %
                         (name, pick(mat), T["m"], T["v"]))
            vec.append(name)
        elif r < 0.85:
            lines.append('  %s = arith.addi %%off, %s : i64' % (name, pick(i64)))
            i64.append(name)
        elif r < 0.9:
            lines.append('  %s = arith.constant %d.0 : f32' % (name, i))
            scal.append(name)
        else:
            lines.append('  %s = "rt.full"() {value = %d.0 : f32} : () -> %s' % (name, i, T["m"]))
            mat.append(name)
    lines.append("  return %s, %s, %s, %s : %s, %s, %s, %s" %
                 (mat[-1], vec[-1], flat[-1], tr[-1], T["m"], T["v"], T["f"], T["t"]))
    lines.append("}")
    return "\n".join(lines) + "\n"


FUNC = re.compile(r"^\s*func\.func (private )?@(\w+)\((.*?)\) -> (.*?)(?: attributes \{(.*)\})? \{$")
RT = re.compile(r'^(%[\w]+)(?::(\d+))? = "([\w.]+)"\((.*?)\)(?: (\{.*\}))? : \((.*?)\) -> (.*)$')
CALL = re.compile(r"^(%[\w]+)(?::(\d+))? = call @(\w+)\((.*?)\) : \((.*?)\) -> (.*)$")
ARITH = re.compile(r"^(%[\w]+) = (arith\.\w+) (.*?) : (.*)$")
RET = re.compile(r"^return ?(.*?)(?: : .*)?$")


def split_refs(text):
    return [t.strip() for t in text.split(",") if t.strip()]


def split_types(text):
    return [t.strip() for t in re.findall(r"tensor<[^>]*>|[\w]+", text)]


def parse(path):
    funcs, cur = {}, None
    for line in open(path):
        s = line.strip()
        m = FUNC.match(s)
        if m:
            parts = [a for a in re.split(r",\s*(?=%)", m.group(3)) if a]
            args = [a.split(":")[0].strip() for a in parts]
            types = [re.sub(r"\s*\{.*\}$", "", a.split(":", 1)[1]).strip() for a in parts]
            cur = {"private": bool(m.group(1)), "args": args, "types": types,
                   "attrs": m.group(5) or "",
                   "body": [], "results": m.group(4)}
            funcs[m.group(2)] = cur
        elif cur is not None and s and s != "}":
            cur["body"].append(s)
    return funcs


class Evaluator:
    """Hash-consing symbolic evaluation: a value is the id of (op, attributes and result
    type, operand ids); one memo shared by both files makes equal computations equal."""

    def __init__(self, funcs, memo, defs):
        self.funcs, self.memo, self.defs = funcs, memo, defs

    def intern(self, e):
        return self.memo.setdefault(e, len(self.memo))

    def transpose(self, x, ty):
        """The last two dims of operand x (type ty) swapped, as rt.transpose writes it."""
        dims = shape_of(ty).rstrip("x").split("x")
        elem = ty.strip()[len("tensor<") + len(shape_of(ty)):-1]
        perm = list(range(len(dims)))
        perm[-2], perm[-1] = perm[-1], perm[-2]
        out = "tensor<%sx%s>" % ("x".join([dims[p] for p in perm]), elem)
        attrs = "{perm = array<i64: %s>}" % ", ".join(map(str, perm))
        return self.rt_op("rt.transpose", attrs, (x,), [ty], out)

    def rt_op(self, name, attrs, operands, types, result):
        if name == "rt.matmul":
            ops = list(operands)
            for k, flag in enumerate(("transpose_a", "transpose_b")):
                if re.search(r"\b%s\b" % flag, attrs):
                    ops[k] = self.transpose(ops[k], types[k])
            attrs = ""
            operands = tuple(ops)
        # the view simplifications --remat-fuse makes, applied to both programs: a view
        # that changes nothing is its operand, a reshape of a reshape one reshape, a
        # transpose of a transpose one transpose
        plain = re.sub(r"\s*rt\.\w+ = [^,}]*,?", "", attrs).strip()
        if name in ("rt.reshape", "rt.broadcast") and types and types[0] == result:
            return operands[0]
        inner = self.defs.get(operands[0]) if operands else None
        if name == "rt.reshape" and inner and inner[0] == "rt.reshape":
            operands = inner[2]
            src = self.defs.get(operands[0])
            if src and src[1].split(" -> ")[-1] == result:
                return operands[0]
        if name == "rt.transpose":
            perm = [int(p) for p in re.findall(r"\d+", plain.split("i64:")[1])]
            if inner and inner[0] == "rt.transpose":
                ip = [int(p) for p in re.findall(r"\d+", inner[1].split(" -> ")[0].split("i64:")[1])]
                perm = [ip[p] for p in perm]
                operands = inner[2]
            if perm == list(range(len(perm))):
                return operands[0]
            attrs = "{perm = array<i64: %s>}" % ", ".join(map(str, perm))
        e = (name, attrs + " -> " + result, operands)
        v = self.intern(e)
        self.defs[v] = e
        return v

    def run(self, name, inputs):
        f, env = self.funcs[name], {}
        for a, t, v in zip(f["args"], f["types"], inputs):
            env[a] = v
            self.defs.setdefault(v, ("arg", " -> " + t, ()))
        ref = lambda r: env[r] if "#" not in r else env[r.split("#")[0]][int(r.split("#")[1])]
        for s in f["body"]:
            m = RT.match(s)
            if m:
                operands = tuple(ref(r) for r in split_refs(m.group(4)))
                env[m.group(1)] = self.rt_op(m.group(3), m.group(5) or "", operands,
                                             split_types(m.group(6)), m.group(7))
                continue
            m = CALL.match(s)
            if m:
                outs = self.run(m.group(3), [ref(r) for r in split_refs(m.group(4))])
                env[m.group(1)] = outs if m.group(2) else outs[0]
                continue
            m = ARITH.match(s)
            if m:
                if m.group(2) == "arith.constant":
                    env[m.group(1)] = self.intern(("const", m.group(3) + " : " + m.group(4), ()))
                else:
                    operands = tuple(ref(r) for r in split_refs(m.group(3)))
                    env[m.group(1)] = self.intern((m.group(2), m.group(4), operands))
                continue
            m = RET.match(s)
            if m:
                return [ref(r) for r in split_refs(m.group(1))]
            raise SystemExit("cannot parse: " + s)
        raise SystemExit("no return in @" + name)


def shape_of(ty):
    m = re.match(r"tensor<((?:\d+x)*)", ty.strip())
    return m.group(1) if m else None


VIEWS = ("rt.reshape", "rt.transpose", "rt.broadcast", "rt.slice")
REDUCTIONS = ("rt.sum", "rt.amax")


def check_kernel(k, f):
    if not f["private"]:
        raise SystemExit("kernel @%s is not private" % k)
    rows = set()
    for s in f["body"]:
        if not (RT.match(s) or s.startswith("return") or "arith.constant" in s):
            raise SystemExit("kernel @%s holds a host op: %s" % (k, s))
        m = RT.match(s)
        if m and m.group(3) == "rt.matmul":
            raise SystemExit("kernel @%s holds a host op: %s" % (k, s))
        if m and m.group(3) in REDUCTIONS:
            dims = re.search(r"dims = array<i64(?::\s*([\d, ]*))?>", m.group(5)).group(1) or ""
            dims = sorted(int(d) for d in dims.replace(" ", "").split(",") if d)
            shape = shape_of(m.group(6)).rstrip("x").split("x")
            kept = "x".join(d for i, d in enumerate(shape) if i not in dims and d)
            rows.add((shape_of(m.group(6)), kept + "x" if kept else ""))
    shapes = {shape_of(t) for t in re.findall(r"tensor<[^>]*>", f["results"])}
    if not rows:
        if len(shapes) != 1:
            raise SystemExit("kernel @%s has results of several shapes: %s" % (k, f["results"]))
        return False
    if len(rows) != 1:
        raise SystemExit("kernel @%s reduces several row structures: %s" % (k, rows))
    s, kept = rows.pop()
    if not shapes <= {s, kept}:
        raise SystemExit("kernel @%s has results outside its rows' shapes: %s" % (k, f["results"]))
    return True


def check(before, after, shape_mode=False):
    fb, fa = parse(before), parse(after)
    kernels = [k for k, f in fa.items() if "rt.kernel" in f["attrs"]]
    rows = sum(check_kernel(k, fa[k]) for k in kernels)
    allowed = ("rt.matmul",) + (REDUCTIONS + () if shape_mode else VIEWS)
    hosts = [n for n in fb]
    for n in hosts:
        for s in fa[n]["body"]:
            m = RT.match(s)
            if m and m.group(3) not in allowed:
                raise SystemExit("fusible op left in host @%s: %s" % (n, s))
        memo, defs = {}, {}
        ins = [("arg", str(i), ()) for i in range(len(fb[n]["args"]))]
        out_b = Evaluator(fb, memo, defs).run(n, [memo.setdefault(x, len(memo)) for x in ins])
        out_a = Evaluator(fa, memo, defs).run(n, [memo.setdefault(x, len(memo)) for x in ins])
        if out_b != out_a:
            raise SystemExit("@%s computes something else after fusion" % n)
    print("ok: %d functions, %d kernels (%d row kernels)" % (len(hosts), len(kernels), rows))


if __name__ == "__main__":
    sys.setrecursionlimit(100000)
    if sys.argv[1] == "gen":
        sys.stdout.write(gen(int(sys.argv[2]), int(sys.argv[3])))
    else:
        check(sys.argv[2], sys.argv[3], "--shape" in sys.argv[4:])
