"""The ctypes binding (tools/remat_torch/binding.py) on its own: no torch needed.
Prints what test/torch/binding.test checks."""
import sys

from remat_torch import binding

# A joint function whose ops carry name locations (what the importer writes for
# partition_fn): the saved set must come back by those names.
TEXT = '''
func.func @f(%a: tensor<2x2xf32> loc("primals_1"), %seed: i64 loc("st.seed"),
             %offset: i64 loc("st.offset"), %g: tensor<2x2xf32> {rt.tangent} loc("tangents_1"))
    -> (tensor<2x2xf32>, tensor<2x2xf32>) attributes {rt.num_outputs = 1 : i64} {
  %half = arith.constant 5.000000e-01 : f32 loc("cst")
  %u = "rt.uniform_philox"(%seed, %offset) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<2x2xf32> loc("philox_uniform"("m.py":3:5))
  %m = "rt.lt"(%u, %half) : (tensor<2x2xf32>, f32) -> tensor<2x2xi1> loc("lt"("m.py":3:5))
  %c = "rt.convert"(%m) : (tensor<2x2xi1>) -> tensor<2x2xf32> loc("lt.cvt"("m.py":3:5))
  %e = "rt.exp"(%a) : (tensor<2x2xf32>) -> tensor<2x2xf32> loc("exp"("m.py":4:5))
  %y = "rt.mul"(%e, %c) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32> loc("mul"("m.py":5:5))
  %d = "rt.mul"(%g, %c) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32> loc("mul_1"("m.py":5:5))
  %ga = "rt.mul"(%d, %e) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32> loc("mul_2"("m.py":4:5))
  return %y, %ga : tensor<2x2xf32>, tensor<2x2xf32> loc("output")
}
'''

print("version", binding.version())
with binding.Context() as ctx:
    m = ctx.parse(TEXT, "f.mlir")
    # options as a dict (snake case) and as text; the report comes back as a string
    report = m.run([("remat-mincut", {"scalar_factor": 0.1, "ban": "matmul,reduction",
                                      "report": "-"})])
    print("report:", report.splitlines()[0])
    print("report-bytes:", [l.strip() for l in report.splitlines() if "saved bytes" in l][0])
    for s in m.saved():
        print("saved", s.forward, s.index, s.name, s.type, s.bytes)
    ir = m.ir()
    print("ir-fwd:", [l.strip() for l in ir.splitlines() if "func.func @f_fwd" in l][0])
    # without report="-" nothing is reported
    m2 = ctx.parse(TEXT)
    print("quiet report:", repr(m2.run([("remat-mincut", "scalar-factor=0.5")])))
    for bad in ([("remat-mincut", {"scalar_factor": -1})], [("remat-nope", None)],
                [("remat-mincut", "bogus=1")]):
        try:
            m2.run(bad)
            print("no error for", bad)
        except binding.RematError as e:
            print("error:", str(e).splitlines()[0])
    try:
        ctx.parse('func.func @g(%x: tensor<2xf32>) -> tensor<3xf32> {\n'
                  '  %y = "rt.exp"(%x) : (tensor<2xf32>) -> tensor<3xf32>\n'
                  '  return %y : tensor<3xf32>\n}\n', "bad.mlir")
        print("no error for a bad shape")
    except binding.RematError as e:
        print("error:", " | ".join(str(e).splitlines()[:2]))
    # a pass that fails on the IR: a joint function without a tangent
    m3 = ctx.parse('func.func @h(%x: tensor<2xf32>) -> tensor<2xf32> attributes '
                   '{rt.num_outputs = 1 : i64} {\n  %y = "rt.exp"(%x) : (tensor<2xf32>) -> '
                   'tensor<2xf32>\n  return %y : tensor<2xf32>\n}\n')
    try:
        m3.run([("remat-mincut", None)])
        print("no error for a joint function without tangents")
    except binding.RematError as e:
        print("error:", " | ".join(str(e).splitlines()[:2]))
sys.exit(0)
